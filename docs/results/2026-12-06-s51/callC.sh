#!/usr/bin/env bash
# Session 51, call C (bundle: branch s51-pdl with kernels 18, 19 and 20 chained too — every chained kernel
# calls `dependent_launch::follow_prior` first and is queued as the dependent of the launch before it):
# the chained-products tests (TMA, and f32 through kernels 18, 19, 20), compute-sanitizer's four tools on
# the small chain, GPU parity of the chained entries; then Auto with the chain off (`split`) and on,
# alternating: BF16 squares and small shapes, seed 20271258's BF16/FP16 shapes, TF32 and FP32 on fresh
# seed 20271259 (model only).
set -u
source .gpu/gpu-call.sh s51c
run 120 .gpu/tests/tests-fused chained_ > $R/chained.log 2>&1; echo "chained rc=$? $(left)s left"; grep -E "test result|FAIL|panick|not " $R/chained.log | head -5
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fused chained_small --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
AB=512x512x512,768x768x768,1000x1000x1000,1400x1400x1400,2048x2048x2048,1024x1024x256,333x1111x777,47x32x264,176x72x200,193x34x624,20x142x2724,16x4096x4096,8x14336x4096,296x1968x40
for mode in split all split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $AB --model-only --plots none --cpu-max-flops 0 --vec-len 0 --out $R/ab-$mode-$RANDOM > $R/ab.log 2>&1; echo "ab $mode rc=$? $(left)s left"
done
for mode in split all split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271258 --model-only --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/seed-$mode-$RANDOM > $R/seed.log 2>&1; echo "seed $mode rc=$? $(left)s left"
done
for mode in split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed 20271259 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/tf32-$mode-$RANDOM > $R/tf32.log 2>&1; echo "tf32 $mode rc=$? $(left)s left"
  TESSERA_DEPENDENT_LAUNCH=$mode run 80 .gpu/bin/scorecard --kernels auto --precisions fp32 --seed 20271259 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/fp32-$mode-$RANDOM > $R/fp32.log 2>&1; echo "fp32 $mode rc=$? $(left)s left"
done
run 120 .gpu/tests/tests-gpu_parity matmul_ --skip 4096 --skip 2048 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result" $R/parity.log; grep -c "\.\.\. ok" $R/parity.log
cd $OUT && tar czf s51c.tgz s51c && rm -rf s51c
