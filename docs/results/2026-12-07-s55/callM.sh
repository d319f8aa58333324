#!/usr/bin/env bash
# Next session, call M (branch s55-odd-k-per-operand, not yet run): kernels 12, 13, 20 and 30 choose each
# operand's copy path on its own, so an odd 16-bit K loads only A element by element and B keeps its
# cp.async pieces (before: both operands element by element). Bundle from the branch:
#     cargo build --release -p tessera-scorecard --bin scorecard   -> .gpu/bin/scorecard (stripped)
#     the GPU parity and sanitizer suites: `cargo test --release -p tessera-tests --test gpu_parity --no-run`
#     -> .gpu/tests/tests-gpu_parity; main's scorecard as .gpu/bin/scorecard-main for the A/B.
# 1. correctness on the GPU: parity (odd shapes, every kernel) and memcheck/racecheck on the in-place kernels;
# 2. the odd-K lows by name, both builds: kernel 20's 16x128 16-bit entries went 13.7-13.8 us at K = 141/163
#    against 3.2-4.3 at K = 144/164 (docs/results/2026-12-07-s55/analysis/small-h.md);
# 3. then refit `Cost::unaligned` of the 16-bit in-place entries (their odd-K price), tuning set below,
#    held out: a fresh seed's lows.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s56m
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
run 150 .gpu/tests/tests-gpu_parity --test-threads 1 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep "test result" $R/parity.log
for t in memcheck racecheck; do
  run 120 compute-sanitizer --tool $t --error-exitcode 3 .gpu/tests/tests-gpu_parity --test-threads 1 mma > $R/san-$t.log 2>&1; echo "sanitizer $t rc=$? $(left)s left"
done
K=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tiled-bf16,tma-bf16-64x128
SZ=1829x118x141,16x8148x163,16x3091x231,200x2750x188,16x8148x164,1829x118x144,64x4096x4095,32x11008x4097,300x2000x999,8x5000x3001
for b in scorecard scorecard-main; do
  run 60 .gpu/bin/$b --kernels $K,${K//bf16/f16} --precisions bf16,fp16 --sizes $SZ $F --out $R/oddk-$b > $R/oddk-$b.log 2>&1; echo "odd K $b rc=$? $(left)s left"
done
cd $OUT && tar czf s56m.tgz s56m && rm -rf s56m
