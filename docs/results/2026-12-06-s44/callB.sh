#!/usr/bin/env bash
# Kernel 19's 16-bit entries with a lane's four rows of B loaded together, none behind a branch, two
# runs in flight (a468f17, reverted unmeasured in d1c7bb6: `git revert d1c7bb6` first, then bundle):
# GPU parity and the four compute-sanitizer tools on every few-cols entry, then the training and
# held-out shapes of docs/results/2026-12-06-s43/callK.sh by name beside cuBLAS and Auto — on the
# H200 (that run was an H100: for the comparison, run callK.sh from a bundle of main on the same lease).
set -u
source .gpu/gpu-call.sh b
run 60 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool.log | head -2; done
SC="--plots none --vec-len 0"
FC=20000x1x1000,8000x2x4096,3000x3x8192,12000x4x2048,6000x6x6000,15000x8x3000,2000x8x512,500x12x12000,9000x16x4000,30000x24x1024,4000x32x4096,700x5x900,64x7x20000,1000x1x1000,100000x4x256,2500x10x2500,7001x3x3001,5003x20x1999,400x1x3000,2000x2x2000,300x4x8000,5000x1x4096,160x1x2030,1200x3x6000
run 120 .gpu/bin/scorecard --precisions bf16 --kernels auto,few-cols-bf16,few-cols-ksplit-bf16,widened-bf16-128x32 --sizes $FC $SC --out $R/train-cols > $R/train-cols.log 2>&1; echo "train bf16 rc=$? $(left)s left"
run 60 .gpu/bin/scorecard --precisions fp16 --kernels few-cols-f16,few-cols-ksplit-f16 --sizes 8000x2x4096,15000x8x3000,500x12x12000,12000x4x2048,20000x1x1000,7001x3x3001,400x1x3000,300x4x8000 $SC --out $R/train-f16 > $R/train-f16.log 2>&1; echo "train fp16 rc=$? $(left)s left"
HELD=855x1x1512,96x1x13184,352x5x7505,1505x4x13967,9000x1x9000,1245x1x5840,1816x5x7665,13000x6x3500,3333x12x3333,275x3x2425,322x8x1431,3264x16x800
run 120 .gpu/bin/scorecard --precisions bf16,fp16 --kernels auto,few-cols-bf16,few-cols-f16,few-cols-ksplit-bf16,few-cols-ksplit-f16,widened-bf16-128x32,widened-f16-128x32,mma-splitk-bf16-128x32,mma-splitk-f16-128x32 --sizes $HELD $SC --out $R/held > $R/held.log 2>&1; echo "held rc=$? $(left)s left"
cd $OUT && tar czf b.tgz b && rm -rf b
