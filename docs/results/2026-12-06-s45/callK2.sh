#!/usr/bin/env bash
# Session 45, call K2: kernel 19's 16-bit entries with one predicated loop where K is a multiple of 8, one column where N = 1, branch-free
# rows of B (9e810bc) beside main's (6539692, .gpu/old/scorecard) in one lease: GPU parity and the four
# compute-sanitizer tools on every few-cols entry; the four 16-bit entries, Auto and cuBLAS by name on
# the training (callB's FC) and held-out shapes, the old entries on the held-out ones; FP32's few-cols-4
# old and new.
set -u
source .gpu/gpu-call.sh k2
run 60 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
SC="--plots none --vec-len 0"
K16=auto,few-cols-bf16,few-cols-ksplit-bf16,few-cols-f16,few-cols-ksplit-f16
HELD=855x1x1512,96x1x13184,352x5x7505,1505x4x13967,9000x1x9000,1245x1x5840,1816x5x7665,13000x6x3500,3333x12x3333,275x3x2425,322x8x1431,3264x16x800,584x1x368,14104x4x2161,48x16x3730
FC=20000x1x1000,8000x2x4096,3000x3x8192,12000x4x2048,6000x6x6000,15000x8x3000,2000x8x512,500x12x12000,9000x16x4000,30000x24x1024,4000x32x4096,700x5x900,64x7x20000,1000x1x1000,100000x4x256,2500x10x2500,7001x3x3001,5003x20x1999,400x1x3000,2000x2x2000,300x4x8000,5000x1x4096,160x1x2030,1200x3x6000
run 150 .gpu/bin/scorecard --precisions bf16,fp16 --kernels $K16 --sizes $HELD $SC --out $R/new-held > $R/new-held.log 2>&1; echo "new held rc=$? $(left)s left"
run 100 .gpu/old/scorecard --precisions bf16,fp16 --kernels $K16 --sizes $HELD $SC --out $R/old-held > $R/old-held.log 2>&1; echo "old held rc=$? $(left)s left"
run 150 .gpu/bin/scorecard --precisions bf16,fp16 --kernels $K16 --sizes $FC $SC --out $R/new-train > $R/new-train.log 2>&1; echo "new train rc=$? $(left)s left"
SEC="--section SpeedOfLight --section LaunchStats --section WarpStateStats"
run 40 ncu --clock-control none -k regex:"few_cols" -c 4 $SEC .gpu/bin/scorecard --precisions bf16 --kernels few-cols-ksplit-bf16,few-cols-bf16 --sizes 584x1x368 $SC --repeat 1 --timing paced --out /tmp/n1 > $R/ncu-584.txt 2> $R/ncu-584.log; echo "ncu rc=$? $(left)s left"
F32=20000x1x1000,5000x1x4096,855x1x1512,96x1x13184,12000x4x2048,1505x4x13967,9000x1x9000,352x5x7505
run 50 .gpu/bin/scorecard --precisions fp32 --kernels few-cols-4 --cpu-max-flops 0 --sizes $F32 $SC --out $R/new-f32 > $R/new-f32.log 2>&1; echo "new f32 rc=$? $(left)s left"
run 50 .gpu/old/scorecard --precisions fp32 --kernels few-cols-4 --cpu-max-flops 0 --sizes $F32 $SC --out $R/old-f32 > $R/old-f32.log 2>&1; echo "old f32 rc=$? $(left)s left"
cd $OUT && tar czf k2.tgz k2 && rm -rf k2
