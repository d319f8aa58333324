#!/usr/bin/env bash
# Session 56, call E. Bundle: bin/scorecard = main 57e44da; bin/scorecard-g1, tests/tests-gpu_parity-g1 = branch
# s56-shifted-rows with one 16-byte load a chunk and the next 16 bytes from the next lane (a shuffle),
# one chunk at a time; -g4: the same, four chunks' loads issued before any is placed.
# 1. memcheck over the in-place kernels' GPU parity (asserts the results too), both variants;
# 2. by name, the three builds: call D's odd shapes (tuning set and held-out set).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s56e
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
for v in g1 g4; do
  run 70 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/tests/tests-gpu_parity-$v --test-threads 1 matmul_mma- > $R/san-memcheck-$v.log 2>&1; echo "memcheck $v rc=$? $(left)s left"; grep "test result" $R/san-memcheck-$v.log; tail -1 $R/san-memcheck-$v.log
done
K=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,persistent-bf16-64x256
TUNE=1829x118x141,16x8148x163,16x3091x231,200x2750x188,64x4096x4095,32x11008x4097,300x2000x999,8x5000x3001,2x6767x11904,4x9001x4096,8x5003x8192,1x12289x4096,16x7777x3000
HELD=24x6000x333,48x12288x1023,120x5000x95,16x2048x2047,700x130x515,2500x96x77,1000x1000x999,3000x40x201,8x14336x4095,64x3000x1501,333x777x555,1500x250x129
for b in scorecard-g1 scorecard-g4 scorecard; do
  run 40 .gpu/bin/$b --kernels $K --precisions bf16 --sizes $TUNE,$HELD $F --out $R/odd-$b > $R/odd-$b.log 2>&1; echo "odd $b rc=$? $(left)s left"
done
cd $OUT && tar czf s56e.tgz s56e && rm -rf s56e
