#!/usr/bin/env bash
# Session 52, call E (bundle: main at 3f3a54c — the TMA kernels and kernels 18-20 chained; the binary is
# call C/D's bin/scorecard-k1820, built at ef49fc1, whose code 3f3a54c only documents; and branch
# s52-tiles-120-144 as bin/scorecard-tiles and tests/tests-gpu_parity-tiles). First kernel 24's new
# 128×120 and 192×144 tiles (widths no multiple of 32, cuBLAS's own at 1400³ and 1800³): GPU parity on
# them, then by name beside the tiles `Auto` runs there. Then issue 34's measures as they stand, in this
# order (what the budget leaves): the squares 512-8192 in BF16 and FP16 (`--sweep`); Auto, model only,
# on fresh seed 20271261 in BF16, FP16 and TF32; the decode shapes with the copy rate; seed 20271262;
# the LLM shapes.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s52e
S=.gpu/bin/scorecard-k1820
for t in 128x120 192x144; do
  run 45 .gpu/tests/tests-gpu_parity-tiles $t > $R/parity-$t.log 2>&1; echo "parity $t rc=$? $(left)s left"; grep -E "test result" $R/parity-$t.log; grep -c FAILED $R/parity-$t.log
done
KT=auto,cluster-bf16-128x120,cluster-bf16-192x144,cluster-bf16-64x256,cluster-bf16-128x128,cluster-bf16-128x256,cluster-bf16-192x160,cluster-f16-128x120,cluster-f16-192x144
run 70 .gpu/bin/scorecard-tiles --kernels $KT --precisions bf16,fp16 --sizes 1400,1800,1320,1900,2600,1400x2800x1400 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/tiles > $R/tiles.log 2>&1; echo "tiles rc=$? $(left)s left"
rand() { run 80 $S --kernels auto --precisions bf16,fp16,tf32 --seed $1 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-$1 > $R/rand-$1.log 2>&1; echo "rand $1 rc=$? $(left)s left"; }
# Chain on/off against the grid's fill of the SMs (session 52's two chain losses had 92 and 112 blocks):
# kernel 15's 64x128 tile, 4 column tiles, M in 64-row steps: 40..136 blocks.
CH=640x512x1024,1024x512x1024,1280x512x1024,1472x512x1024,1664x512x1024,1856x512x1024,2048x512x1024,2176x512x1024,1452x496x1072
for i in 1 2; do for mode in split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 30 $S --kernels tma-bf16-64x128 --precisions bf16 --sizes $CH --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/chain-$mode-$i > $R/chain-$mode-$i.log 2>&1; echo "chain $mode $i rc=$? $(left)s left"
  TESSERA_DEPENDENT_LAUNCH=$mode run 20 $S --kernels mma-splitk-tf32-16x128 --precisions tf32 --sizes 100x2018x384,80x2926x240,112x2018x384,48x2018x384 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/chaintf-$mode-$i > $R/chaintf-$mode-$i.log 2>&1; echo "chaintf $mode $i rc=$? $(left)s left"
done; done
run 120 $S --sweep --precisions bf16,fp16 --sizes 512,640,768,1000,1200,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
rand 20271261
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 70 $S --kernels auto --precisions bf16 --sizes $DEC --model-only --plots none --cpu-max-flops 0 --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
run 70 $S --kernels auto --precisions bf16,fp16 --sizes 8192x4096x4096,8192x14336x4096,8192x4096x14336 --model-only --plots none --cpu-max-flops 0 --vec-len 0 --out $R/llm > $R/llm.log 2>&1; echo "llm rc=$? $(left)s left"
cd $OUT && tar czf s52e.tgz s52e && rm -rf s52e
