#!/usr/bin/env bash
# Session 55: three short commands run on call K's machine while it was still warm (bundle .gpu/k.tar.xz,
# main 447fd1d), each its own device call; their folders were copied into k-447fd1d/.
export CUDA_CACHE_PATH=/tmp/jit
# 1. seed 20271263 (dropped from callK.sh for time; session 54 ran it on b7b5beb).
.gpu/bin/scorecard --kernels auto --precisions bf16,fp16,tf32 --seed 20271263 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $OUT/s55k2/rand-20271263 > $OUT/s55k2/rand.log 2>&1
# 2. the small squares the refit PITCH_LOSS = 16 would move to kernel 15, by name with the new promotion.
.gpu/bin/scorecard --kernels auto,tma-bf16-128x128,cluster-bf16-128x128,cluster-bf16-64x256,persistent-bf16-128x128,tma-bf16-128x256,cluster-bf16-128x256 --precisions bf16 --sizes 1080,1160,1240,1320,1400,1800,2200,2600,1400x2800x1400 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $OUT/s55k3/small-squares > $OUT/s55k3/small-squares.log 2>&1
# 3. narrow N by name: a tuning set for the TMA tiles' and kernel 20's prices there.
.gpu/bin/scorecard --kernels auto,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,tma-bf16-128x128,persistent-bf16-128x128,persistent-bf16-64x128 --precisions bf16 --sizes 2048x16x1024,8192x16x512,12000x32x2048,3000x8x4096,6000x48x768,16000x16x256,2500x32x3000,9000x24x1536,5000x16x8192,7000x40x640,1500x32x512,11000x8x1024 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $OUT/s55k4/narrow > $OUT/s55k4/narrow.log 2>&1
