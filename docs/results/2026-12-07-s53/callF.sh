#!/usr/bin/env bash
# Session 53, call F (bundle: main 600b601's code as bin/scorecard-main — built at ef49fc1, the same
# code; branch s52-tiles-120-144 as bin/scorecard-tiles and tests/tests-gpu_parity-tiles; branch
# s53-chain-spread as bin/scorecard-spread). In order of what the budget leaves:
# 1. kernel 24's new 128×120 and 192×144 tiles: GPU parity, then by name beside the tiles Auto runs.
# 2. the chain's block placement: kernel 15's 64×128 tile on grids of 40..136 blocks (4 column tiles,
#    M in 64-row steps) and kernel 20's 16×128 TF32 tile, chain off (split) / on (all) / on with one
#    block per SM (spread); two rounds, alternating.
# 3. Auto main ÷ spread on seeds 20271258 (BF16/FP16) and 20271259 (TF32), model only.
# 4. issue 34's squares 512-8192 (spread), then fresh seed 20271261 (spread, BF16/FP16/TF32).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s53f
M=.gpu/bin/scorecard-main; P=.gpu/bin/scorecard-spread
for t in 128x120 192x144; do
  run 45 .gpu/tests/tests-gpu_parity-tiles $t > $R/parity-$t.log 2>&1; echo "parity $t rc=$? $(left)s left"; grep -E "test result" $R/parity-$t.log; grep -c FAILED $R/parity-$t.log
done
KT=auto,cluster-bf16-128x120,cluster-bf16-192x144,cluster-bf16-64x256,cluster-bf16-128x128,cluster-bf16-128x256,cluster-bf16-192x160,cluster-f16-128x120,cluster-f16-192x144
run 70 .gpu/bin/scorecard-tiles --kernels $KT --precisions bf16,fp16 --sizes 1400,1800,1320,1900,2600,1400x2800x1400 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/tiles > $R/tiles.log 2>&1; echo "tiles rc=$? $(left)s left"
CH=640x512x1024,1024x512x1024,1280x512x1024,1472x512x1024,1664x512x1024,1856x512x1024,2048x512x1024,2176x512x1024,1452x496x1072
TF=100x2018x384,80x2926x240,112x2018x384,48x2018x384
chain() { # binary label mode round
  TESSERA_DEPENDENT_LAUNCH=$3 run 30 $1 --kernels tma-bf16-64x128 --precisions bf16 --sizes $CH --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/chain-$2-$4 > $R/chain-$2-$4.log 2>&1; echo "chain $2 $4 rc=$? $(left)s left"
  TESSERA_DEPENDENT_LAUNCH=$3 run 20 $1 --kernels mma-splitk-tf32-16x128 --precisions tf32 --sizes $TF --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/chaintf-$2-$4 > $R/chaintf-$2-$4.log 2>&1; echo "chaintf $2 $4 rc=$? $(left)s left"
}
for i in 1 2; do chain $M split split $i; chain $M all all $i; chain $P spread all $i; done
go() { # binary label precisions seed
  run 50 $1 --kernels auto --precisions $3 --seed $4 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/$4-$2 > $R/$4-$2.log 2>&1; echo "$4 $2 rc=$? $(left)s left"
}
go $M main bf16,fp16 20271258; go $P spread bf16,fp16 20271258; go $M main tf32 20271259; go $P spread tf32 20271259
run 120 $P --sweep --precisions bf16,fp16 --sizes 512,640,768,1000,1200,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
run 80 $P --kernels auto --precisions bf16,fp16,tf32 --seed 20271261 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-20271261 > $R/rand-20271261.log 2>&1; echo "rand 20271261 rc=$? $(left)s left"
cd $OUT && tar czf s53f.tgz s53f && rm -rf s53f
