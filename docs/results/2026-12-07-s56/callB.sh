#!/usr/bin/env bash
# Session 56, call B. Bundle: bin/scorecard-oddk and tests/ = branch s55-odd-k-per-operand 9580bcc
# (kernels 12/13/20/30 copy each operand in its own pieces; the model prices each operand's pieces,
# weighted by its share of a K-tile's loads); bin/scorecard = main fa00f94.
# Call A ran the branch's kernels (02cd556, same kernels): memcheck clean on every in-place kernel, the odd-K
# lows 1.7-2.9x faster by name; its racecheck and parity stopped before kernel 20 and kernel 30.
# 1. correctness: kernel 30 (grouped/batched suite) plain, memcheck, racecheck; racecheck on kernel 20;
# 2. held out from the model's check (call A's ten shapes): twelve other odd-K/odd-N shapes by name and
#    Auto, both builds; a fresh seed (20271268), Auto, both builds, BF16/FP16/TF32.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s56b
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
run 60 .gpu/tests/tests-grouped > $R/grouped.log 2>&1; echo "grouped rc=$? $(left)s left"; grep -E "passed|failed|FAIL" $R/grouped.log | tail -3
run 90 compute-sanitizer --tool memcheck --error-exitcode 3 .gpu/tests/tests-grouped > $R/san-memcheck-grouped.log 2>&1; echo "memcheck grouped rc=$? $(left)s left"; tail -1 $R/san-memcheck-grouped.log
run 90 compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/tests/tests-grouped > $R/san-racecheck-grouped.log 2>&1; echo "racecheck grouped rc=$? $(left)s left"; tail -1 $R/san-racecheck-grouped.log
run 120 compute-sanitizer --tool racecheck --error-exitcode 3 .gpu/tests/tests-gpu_parity --test-threads 1 mma-splitk > $R/san-racecheck-k20.log 2>&1; echo "racecheck k20 rc=$? $(left)s left"; grep "test result" $R/san-racecheck-k20.log; tail -1 $R/san-racecheck-k20.log
K=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,tiled-bf16
HELD=24x6000x333,48x12288x1023,120x5000x95,16x2048x2047,700x130x515,2500x96x77,1000x1000x999,3000x40x201,8x14336x4095,64x3000x1501,333x777x555,1500x250x129
for b in scorecard-oddk scorecard; do
  run 50 .gpu/bin/$b --kernels $K --precisions bf16 --sizes $HELD $F --out $R/held-$b > $R/held-$b.log 2>&1; echo "held $b rc=$? $(left)s left"
done
for b in scorecard-oddk scorecard; do
  run 80 .gpu/bin/$b --kernels auto --precisions bf16,fp16,tf32 --seed 20271268 $F --sizes 1024 --random-shapes 32 --out $R/rand-$b > $R/rand-$b.log 2>&1; echo "rand $b rc=$? $(left)s left"
done
cd $OUT && tar czf s56b.tgz s56b && rm -rf s56b
