#!/usr/bin/env bash
# Call F3 (branch s46-f32 = s45-f32 on main; main's scorecard 7cb6403 as .gpu/old/scorecard).
#   bash .gpu/callF3.sh 1   # kernel 19's f32 entry: parity, four sanitizers, few-cols-4 by name new vs old, then FP32 random seed 20271250 new
#   bash .gpu/callF3.sh 2   # warm: FP32 random seed 20271250 old, seed 20271251 new and old
set -u
stage=${1:?usage: callF3.sh 1|2}
source .gpu/gpu-call.sh f3-$stage
SC="--plots none --vec-len 0 --cpu-max-flops 0"
RS="--plots none --vec-len 0 --sizes 4096 --random-shapes 32 --kernels auto --precisions fp32"
if [ "$stage" = 1 ]; then
  run 60 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
  for tool in memcheck racecheck synccheck initcheck; do
    run 40 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols-4 --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
  F32=139x1x1192,584x1x368,855x1x1512,96x1x13184,20000x1x1000,9000x1x9000,5000x1x4096,12000x4x2048,1505x4x13967,352x5x7505,592x8x1184,275x3x2425,3001x2x777,777x3x4097
  run 60 .gpu/bin/scorecard --precisions fp32 --kernels few-cols-4 --sizes $F32 $SC --out $R/new-f32 > $R/new-f32.log 2>&1; echo "new f32 rc=$? $(left)s left"
  run 40 .gpu/old/scorecard --precisions fp32 --kernels few-cols-4 --sizes $F32 $SC --out $R/old-f32 > $R/old-f32.log 2>&1; echo "old f32 rc=$? $(left)s left"
  run 60 .gpu/bin/scorecard --precisions fp32 --kernels few-cols-4 --sizes $F32 $SC --out $R/new2-f32 > $R/new2-f32.log 2>&1; echo "new2 f32 rc=$? $(left)s left"
  run 300 .gpu/bin/scorecard $RS --seed 20271250 --out $R/rand-20271250-new > $R/rand-20271250-new.log 2>&1; echo "rand new rc=$? $(left)s left"
else
  run 150 .gpu/old/scorecard $RS --seed 20271250 --out $R/rand-20271250-old > $R/rand-20271250-old.log 2>&1; echo "rand 50 old rc=$? $(left)s left"
  run 150 .gpu/bin/scorecard $RS --seed 20271251 --out $R/rand-20271251-new > $R/rand-20271251-new.log 2>&1; echo "rand 51 new rc=$? $(left)s left"
  run 150 .gpu/old/scorecard $RS --seed 20271251 --out $R/rand-20271251-old > $R/rand-20271251-old.log 2>&1; echo "rand 51 old rc=$? $(left)s left"
fi
cd $OUT && tar czf f3-$stage.tgz f3-$stage && rm -rf f3-$stage
