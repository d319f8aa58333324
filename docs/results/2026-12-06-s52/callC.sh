#!/usr/bin/env bash
# Session 52, call C — calls A and B in one after refused starts (bundle: main at 2f410cc as
# bin/scorecard; branch s52-late-trigger as bin/scorecard-late — walk_gemm lets dependents start after
# its first main loop, not at setup; branch s52-chain-k18-20 at ef49fc1 as bin/scorecard-k1820 and
# tests/tests-{fused,gpu_parity}-k1820 — kernels 18, 19 and 20 chained too, the TMA kernels as main).
# The chained test (TMA chain and kernels 18-20's f32 chain), compute-sanitizer's four tools on the
# small chain; Auto (model only) on fresh seeds: main chain off (`split`) and on (`all`) and the branch
# (`all`); main ÷ late on squares and small shapes (the 1400³ loss); GPU parity in what time is left.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s52c
run 90 .gpu/tests/tests-fused-k1820 chained_ > $R/chained.log 2>&1; echo "chained rc=$? $(left)s left"; grep -E "test result|FAIL|panick" $R/chained.log | head -5
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fused-k1820 chained_small --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
go() { # binary mode precision seed
  TESSERA_DEPENDENT_LAUNCH=$2 run 50 .gpu/bin/$1 --kernels auto --precisions $3 --seed $4 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/$4-$1-$2 > $R/$4-$1-$2.log 2>&1; echo "$4 $1 $2 rc=$? $(left)s left"
}
go scorecard split bf16,fp16 20271258; go scorecard all bf16,fp16 20271258; go scorecard-k1820 all bf16,fp16 20271258
go scorecard all tf32 20271259; go scorecard-k1820 all tf32 20271259
go scorecard all fp32 20271260; go scorecard-k1820 all fp32 20271260
AB=512x512x512,768x768x768,1000x1000x1000,1400x1400x1400,2048x2048x2048,1024x1024x256,333x1111x777,3000x3000x3000,1800x1800x1800
for b in scorecard scorecard-late scorecard scorecard-late; do
  run 40 .gpu/bin/$b --kernels auto --precisions bf16 --sizes $AB --model-only --plots none --cpu-max-flops 0 --vec-len 0 --out $R/ab-$b-$RANDOM > $R/ab.log 2>&1; echo "ab $b rc=$? $(left)s left"
done
run 200 .gpu/tests/tests-gpu_parity-k1820 matmul_ --skip 4096 --skip 2048 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result" $R/parity.log; grep -c "\.\.\. ok" $R/parity.log; grep -c "FAILED" $R/parity.log
cd $OUT && tar czf s52c.tgz s52c && rm -rf s52c
