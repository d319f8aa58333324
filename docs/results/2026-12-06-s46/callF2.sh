#!/usr/bin/env bash
# Call F2 (bundle ab0263f, branch s45-f32; main's scorecard as .gpu/old/scorecard): kernel 19's f32 entry on the shared body where K is a multiple of 8 (one
# predicated loop where K is a multiple of 8, one column where N = 1) — GPU parity and the four
# compute-sanitizer tools on every few-cols entry, then few-cols-4 by name beside cuBLAS, the new body
# and main's before this session (.gpu/old/scorecard, 6539692) in the same lease.
set -u
source .gpu/gpu-call.sh f2
run 40 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 40 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols-4 --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
F32=139x1x1192,584x1x368,855x1x1512,96x1x13184,20000x1x1000,9000x1x9000,5000x1x4096,12000x4x2048,1505x4x13967,352x5x7505,592x8x1184,275x3x2425
SC="--plots none --vec-len 0 --cpu-max-flops 0"
run 60 .gpu/bin/scorecard --precisions fp32 --kernels few-cols-4 --sizes $F32 $SC --out $R/new-f32 > $R/new-f32.log 2>&1; echo "new f32 rc=$? $(left)s left"
run 40 .gpu/old/scorecard --precisions fp32 --kernels few-cols-4 --sizes $F32 $SC --out $R/old-f32 > $R/old-f32.log 2>&1; echo "old f32 rc=$? $(left)s left"
cd $OUT && tar czf f2.tgz f2 && rm -rf f2
