#!/usr/bin/env bash
# Call K18 (a bundle of branch s46-k18, e8fd41d — kernel 18 with no branch and no use among a group's loads;
# main's scorecard as .gpu/old/scorecard): GPU parity and the four compute-sanitizer tools on the
# few-rows entries, then the entries by name where N or K is no multiple of 4 (their loads were guarded
# element by element, as kernel 19's were) and where both are, new, old and new again in one lease.
# Give it BUDGET=580 on a cold machine (the first scorecard loads and compiles its modules).
set -u
source .gpu/gpu-call.sh k18
run 60 .gpu/tests/tests-gpu_parity matmul_few-rows --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-rows --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
S=8x6411x124,16x1280x412,4x796x350,8x4097x4095,16x11421x3513,1x11421x3514,3x999x1001,13x5003x777,2x6320x560,16x4096x4096,4x14336x4096,8x3000x1004
SC="--plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
K16="--precisions bf16,fp16 --kernels few-rows-bf16,few-rows-f16"
K32="--precisions fp32 --kernels few-rows"
run 150 .gpu/bin/scorecard $K16 $SC --out $R/new-16 > $R/new-16.log 2>&1; echo "new 16 rc=$? $(left)s left"
run 60 .gpu/old/scorecard $K16 $SC --out $R/old-16 > $R/old-16.log 2>&1; echo "old 16 rc=$? $(left)s left"
run 40 .gpu/bin/scorecard $K32 $SC --out $R/new-32 > $R/new-32.log 2>&1; echo "new 32 rc=$? $(left)s left"
run 40 .gpu/old/scorecard $K32 $SC --out $R/old-32 > $R/old-32.log 2>&1; echo "old 32 rc=$? $(left)s left"
run 60 .gpu/bin/scorecard $K16 $SC --out $R/new2-16 > $R/new2-16.log 2>&1; echo "new2 16 rc=$? $(left)s left"
run 40 .gpu/bin/scorecard $K32 $SC --out $R/new2-32 > $R/new2-32.log 2>&1; echo "new2 32 rc=$? $(left)s left"
cd $OUT && tar czf k18.tgz k18 && rm -rf k18
