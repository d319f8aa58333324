#!/usr/bin/env bash
# Session 55, call I. Bundle: call H's bin/scorecard (branch s54-l2-promotion 448175c: main 797b091 +
# `TESSERA_X_L2` = none | 64 | 128 | 256, unset = 256-byte L2 promotion of every tensor map) and
# bin/fp8-j (main + 128-byte promotion, this session's change).
# Call H: 128-byte promotion ran kernel 24's tiles 1.07-1.15x faster off a sector (1800/3000/5000).
# Held out here, the settings interleaved so clock drift shows:
# 1. squares (Auto, cuBLAS; BF16, FP16) and 2. decode + LLM shapes (BF16): 256 / 128 / 256 / 128;
# 3. narrow N (B rows of 48 bytes at N = 24): 256 / 128 / none, by name;
# 4. fresh seed 20271265, Auto model-only, BF16/FP16/TF32: 256 then 128;
# 5. FP8 (E4M3) with 128-byte promotion beside cuBLASLt: issue 35's shapes and seed 20271247's 16
#    (session 44 ran them on an H100 with 256: docs/results/2026-12-06-s44/f-1fefb5f).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s55i
S=.gpu/bin/scorecard
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
SQ=1080,1240,1400,1600,2048,2200,3000,3500,4096,4600,5000,6144,7000,7008
DEC=1x4096x4096,16x4096x4096,64x4096x4096,1x14336x4096,16x14336x4096,64x14336x4096,1x4096x14336,16x4096x14336,64x4096x14336,8192x4096x4096,8192x14336x4096,8192x4096x14336
i=0
for p in 256 128 256 128; do
  i=$((i + 1))
  TESSERA_X_L2=$p run 60 $S --kernels auto --precisions bf16,fp16 --sizes $SQ $F --out $R/sq-$i-$p > $R/sq-$i-$p.log 2>&1; echo "squares $i $p rc=$? $(left)s left"
  TESSERA_X_L2=$p run 40 $S --kernels auto --precisions bf16 --sizes $DEC $F --out $R/dec-$i-$p > $R/dec-$i-$p.log 2>&1; echo "decode $i $p rc=$? $(left)s left"
done
KN=auto,tma-bf16-64x128,tma-bf16-128x128,cluster-bf16-128x128,mma-splitk-bf16-128x32
for p in 256 128 none; do
  TESSERA_X_L2=$p run 40 $S --kernels $KN --precisions bf16 --sizes 4416x16x496,4416x24x496,4416x32x496,4416x40x496,4416x24x2048,16164x16x328,6576x24x264,3000x88x1000 $F --out $R/narrow-$p > $R/narrow-$p.log 2>&1; echo "narrow $p rc=$? $(left)s left"
done
for p in 256 128; do
  TESSERA_X_L2=$p run 75 $S --kernels auto --precisions bf16,fp16,tf32 --seed 20271265 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-$p > $R/rand-$p.log 2>&1; echo "rand $p rc=$? $(left)s left"
done
run 120 .gpu/bin/fp8-j --format e4m3 --shapes 4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336 --random 16 --seed 20271247 --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"
cd $OUT && tar czf s55i.tgz s55i && rm -rf s55i
