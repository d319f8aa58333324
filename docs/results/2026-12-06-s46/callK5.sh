#!/usr/bin/env bash
# Call K5 (bundle d1836bb; main's scorecard at 7cb6403 as .gpu/old/scorecard): kernel 19 where K is no
# multiple of 8 — four elements a lane, four runs in flight, no branch and no use among a step's loads
# of A — GPU parity and the four compute-sanitizer tools on the few-cols entries, then the entries by
# name (K odd, K a multiple of 4 but not 8, and two where K is a multiple of 8), new, old and new again.
set -u
source .gpu/gpu-call.sh k5
run 60 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
S=1505x4x13967,1816x5x7665,3333x12x3333,14104x4x2161,352x5x7505,1245x1x5839,96x1x13183,2000x8x1001,777x3x4097,3001x2x777,594x7x346,1000x4x1004,8000x2x4100,584x1x368,12000x4x2048
SC="--plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
K16="--precisions bf16,fp16 --kernels few-cols-bf16,few-cols-f16,few-cols-ksplit-bf16,few-cols-ksplit-f16"
K32="--precisions fp32 --kernels few-cols-4"
run 150 .gpu/bin/scorecard $K16 $SC --out $R/new-16 > $R/new-16.log 2>&1; echo "new 16 rc=$? $(left)s left"
run 60 .gpu/old/scorecard $K16 $SC --out $R/old-16 > $R/old-16.log 2>&1; echo "old 16 rc=$? $(left)s left"
run 40 .gpu/bin/scorecard $K32 $SC --out $R/new-32 > $R/new-32.log 2>&1; echo "new 32 rc=$? $(left)s left"
run 40 .gpu/old/scorecard $K32 $SC --out $R/old-32 > $R/old-32.log 2>&1; echo "old 32 rc=$? $(left)s left"
run 60 .gpu/bin/scorecard $K16 $SC --out $R/new2-16 > $R/new2-16.log 2>&1; echo "new2 16 rc=$? $(left)s left"
cd $OUT && tar czf k5.tgz k5 && rm -rf k5
