#!/usr/bin/env bash
# Session 55, call J. Bundle: bin/scorecard = main + 128-byte L2 promotion for tensor maps whose rows lie
# off a 32-byte sector (256 for the others, as before).
# 1. the tuning set for the models' off-sector price (`tc_model::PITCH_LOSS`) with the new promotion:
#    BF16 squares off a sector and their aligned neighbours, the TMA tiles by name;
# 2. held out: other squares off a sector, by name and Auto;
# 3. seed 20271264 (run on session 54's main b7b5beb with 256: docs/results/2026-12-07-s54/h-b7b5beb).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s55j
S=.gpu/bin/scorecard
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
K=auto,persistent-bf16-128x128,persistent-bf16-128x256,cluster-bf16-128x128,cluster-bf16-192x192,cluster-bf16-128x256,cluster-sk-bf16-128x256
run 110 $S --kernels $K --precisions bf16 --sizes 2504,2512,3016,3008,4424,4416,5000,5008,6152,6144,2000x3000x1000,2008x3000x1000,2000x3000x1008 $F --out $R/tune > $R/tune.log 2>&1; echo "tune rc=$? $(left)s left"
run 80 $S --kernels $K --precisions bf16 --sizes 1240,1800,2200,3000,4600,7000,1400x2800x1400,3000x5000x2000 $F --out $R/held > $R/held.log 2>&1; echo "held rc=$? $(left)s left"
run 80 $S --kernels auto --precisions bf16,fp16,tf32 --seed 20271264 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-20271264 > $R/rand.log 2>&1; echo "rand rc=$? $(left)s left"
cd $OUT && tar czf s55j.tgz s55j && rm -rf s55j
