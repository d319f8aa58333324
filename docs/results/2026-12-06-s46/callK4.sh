#!/usr/bin/env bash
# Call K4 (bundle 4a989cc; main's scorecard at 7cb6403 as .gpu/old/scorecard): kernel 19 where K is no
# multiple of 8: four elements a lane, two runs in flight, A's elements loaded branch-free where K is no
# multiple of 4 — GPU parity and the four compute-sanitizer tools on the few-cols entries, then the entries by
# name (K odd, K a multiple of 4 but not 8, K a multiple of 8) and Auto, new, old and new again.
set -u
source .gpu/gpu-call.sh k4
run 60 .gpu/tests/tests-gpu_parity matmul_few-cols --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few-cols --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
S=1000x4x1004,3000x1x2052,8000x2x4100,1505x4x13967,1816x5x7665,3333x12x3333,14104x4x2161,352x5x7505,275x3x2425,49x16x13906,594x7x346,777x3x4097,3001x2x777,1245x1x5839,96x1x13183,2000x8x1001,584x1x368,9000x1x9000,592x8x1184,3264x16x800,12000x4x2048
SC="--plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
K16="--precisions bf16,fp16 --kernels few-cols-bf16,few-cols-f16,few-cols-ksplit-bf16,few-cols-ksplit-f16,auto"
K32="--precisions fp32 --kernels few-cols-4,auto"
for v in new old new2; do
  bin=.gpu/bin/scorecard; [ $v = old ] && bin=.gpu/old/scorecard
  run 120 $bin $K16 $SC --out $R/$v-16 > $R/$v-16.log 2>&1; echo "$v 16 rc=$? $(left)s left"
  run 60 $bin $K32 $SC --out $R/$v-32 > $R/$v-32.log 2>&1; echo "$v 32 rc=$? $(left)s left"
done
cd $OUT && tar czf k4.tgz k4 && rm -rf k4
