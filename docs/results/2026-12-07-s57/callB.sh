#!/usr/bin/env bash
# Session 57, call B. Bundle: bin/scorecard = branch s57-k18-half at 55a4a52 (kernel 18's 16-bit entries in
# groups of 8 rows of B, two passes of 8 rows of C; refitted, weighed up to M = 8, the read floor slowed
# by the launch's fill where the operands stream from DRAM); old/scorecard = main 57e44da (main's kernels
# and model). The card decides what runs first:
# - H200 (issue 34's acceptance card): main's squares, two fresh seeds, decode + LLM shapes;
# - both: Auto new and main, interleaved (new, main, new), with kernel 18 by name and cuBLAS, on 16 fresh
#   few-row shapes (seed 57001: M 1-8, N 1500-60000 half odd, K 256-16384; none trained on), session
#   47's held-out shapes of M <= 8, and the odd-N set of call A (its by-name times were in the fit: a
#   tuning set); then seed 20271272 (BF16, FP16) on new and main.
set -u
export CUDA_CACHE_PATH=/tmp/jit
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
NEW=.gpu/bin/scorecard; OLD=.gpu/old/scorecard
source .gpu/gpu-call.sh b57
case "$GPU" in
*H200*)
  run 130 $OLD --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
  for s in 20271270 20271271; do
    run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
  done
  run 40 $OLD --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left" ;;
esac
FRESH=8x13949x14042,8x2000x4416,8x6695x1405,6x2328x1037,8x19001x15608,6x41368x940,4x50033x1830,3x7248x576,3x29769x576,4x9376x3776,1x3957x1664,2x2888x2352,4x9719x10292,1x2240x384,1x8659x10304,3x5408x2697
HELD=8x6411x124,4x796x350,8x4097x4095,1x11421x3514,3x999x1001,2x6320x560,4x14336x4096,8x3000x1004
ODDN=2x6767x11904,2x6768x11904,4x9001x4096,4x9000x4096,8x5003x8192,8x5000x8192,1x12289x4096,1x32001x4096
K="--precisions bf16,fp16 --kernels auto,few-rows-bf16,few-rows-f16 $F"
for i in 1 2; do
  run 100 $NEW $K --sizes $FRESH,$HELD,$ODDN --out $R/new-$i > $R/new-$i.log 2>&1; echo "new $i rc=$? $(left)s left"
  run 100 $OLD $K --sizes $FRESH,$HELD,$ODDN --out $R/main-$i > $R/main-$i.log 2>&1; echo "main $i rc=$? $(left)s left"
done
# A fresh seed (model only; kernel 18's 16-bit entries are candidates at M <= 8 only): new and main.
run 80 $NEW --kernels auto --precisions bf16,fp16 --seed 20271272 $F --sizes 1024 --random-shapes 32 --out $R/rand-new > $R/rand-new.log 2>&1; echo "rand new rc=$? $(left)s left"
run 80 $OLD --kernels auto --precisions bf16,fp16 --seed 20271272 $F --sizes 1024 --random-shapes 32 --out $R/rand-main > $R/rand-main.log 2>&1; echo "rand main rc=$? $(left)s left"
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
