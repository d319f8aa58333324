#!/usr/bin/env bash
# Session 56, call D. Bundle: bin/scorecard-shift and tests/ = branch s56-shifted-rows a9e9b7b (kernels 12, 13,
# 20 and 30 load odd 16-bit rows in aligned 16-byte chunks shifted into place, not element by element);
# bin/scorecard = main 57e44da.
# 1. correctness: GPU parity of every in-place tensor-core kernel (`mma-`), memcheck on them, racecheck on
#    kernels 20 and 13, the batch suite (kernel 30) plain / memcheck / racecheck;
# 2. by name, both builds: the odd shapes of calls A, B and C (few rows against B rows of odd length);
# 3. Auto on a fresh seed (20271269), both builds, BF16/FP16/TF32.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s56d
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
P=.gpu/tests/tests-gpu_parity
run 90 $P --test-threads 1 matmul_mma- > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep "test result" $R/parity.log
run 90 compute-sanitizer --tool memcheck --error-exitcode 3 $P --test-threads 1 matmul_mma- > $R/san-memcheck.log 2>&1; echo "memcheck rc=$? $(left)s left"; grep "test result" $R/san-memcheck.log; tail -1 $R/san-memcheck.log
run 100 compute-sanitizer --tool racecheck --error-exitcode 3 $P --test-threads 1 matmul_mma-splitk > $R/san-racecheck.log 2>&1; echo "racecheck rc=$? $(left)s left"; grep "test result" $R/san-racecheck.log; tail -1 $R/san-racecheck.log
for t in none memcheck racecheck; do
  if [ $t = none ]; then run 40 .gpu/tests/tests-grouped > $R/grouped.log 2>&1; else run 40 compute-sanitizer --tool $t --error-exitcode 3 .gpu/tests/tests-grouped > $R/grouped-$t.log 2>&1; fi
  echo "grouped $t rc=$? $(left)s left"
done
K=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,persistent-bf16-64x256
TUNE=1829x118x141,16x8148x163,16x3091x231,200x2750x188,64x4096x4095,32x11008x4097,300x2000x999,8x5000x3001,2x6767x11904,4x9001x4096,8x5003x8192,1x12289x4096,16x7777x3000
HELD=24x6000x333,48x12288x1023,120x5000x95,16x2048x2047,700x130x515,2500x96x77,1000x1000x999,3000x40x201,8x14336x4095,64x3000x1501,333x777x555,1500x250x129
for b in scorecard-shift scorecard; do
  run 50 .gpu/bin/$b --kernels $K --precisions bf16 --sizes $TUNE $F --out $R/tune-$b > $R/tune-$b.log 2>&1; echo "tune $b rc=$? $(left)s left"
  run 40 .gpu/bin/$b --kernels $K --precisions bf16 --sizes $HELD $F --out $R/held-$b > $R/held-$b.log 2>&1; echo "held $b rc=$? $(left)s left"
done
for b in scorecard-shift scorecard; do
  run 50 .gpu/bin/$b --kernels auto --precisions bf16,fp16,tf32 --seed 20271269 $F --sizes 1024 --random-shapes 32 --out $R/rand-$b > $R/rand-$b.log 2>&1; echo "rand $b rc=$? $(left)s left"
done
cd $OUT && tar czf s56d.tgz s56d && rm -rf s56d
