#!/usr/bin/env bash
# Session 51, call D (bundle: branch s51-pdl at ab5b2e1 — the TMA kernels chained, kernels 18-20 not):
# the chained-products test, compute-sanitizer's four tools on the small chain, then Auto with the chain
# off (`split`) and on, alternating: seed 20271258's BF16/FP16 shapes and seed 20271259's TF32 (model
# only); GPU parity in what time is left.
set -u
source .gpu/gpu-call.sh s51d
run 60 .gpu/tests/tests-fused chained_ > $R/chained.log 2>&1; echo "chained rc=$? $(left)s left"; grep -E "test result|FAIL|panick" $R/chained.log | head -5
for tool in memcheck racecheck synccheck initcheck; do
  run 45 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fused chained_small --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
for mode in split all split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 40 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271258 --model-only --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/seed-$mode-$RANDOM > $R/seed.log 2>&1; echo "seed $mode rc=$? $(left)s left"
done
for mode in split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 40 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed 20271259 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/tf32-$mode-$RANDOM > $R/tf32.log 2>&1; echo "tf32 $mode rc=$? $(left)s left"
done
run 200 .gpu/tests/tests-gpu_parity matmul_ --skip 4096 --skip 2048 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result" $R/parity.log; grep -c "\.\.\. ok" $R/parity.log; grep -c "FAILED" $R/parity.log
cd $OUT && tar czf s51d.tgz s51d && rm -rf s51d
