#!/usr/bin/env bash
# Call A (session 47, cold machine; BUDGET=580). Bundle: branch s47-k18 (main 365d69b with s46-k18 merged,
# 02fe438): kernel 18 with no branch and no use among a group's loads; kernel 19's 16-bit odd-K path with
# three runs in flight (main since 2ae5c51, never timed). .gpu/old/scorecard: main 365d69b.
# .gpu/old4/scorecard: d1836bb (kernel 19's 16-bit odd-K path with four runs, timed in session 46).
# GPU parity and the four compute-sanitizer tools on every few-rows and few-cols entry, then by name:
# kernel 18 new / old / new, and kernel 19's 16-bit entries three runs / four runs / three runs.
set -u
source .gpu/gpu-call.sh a
run 80 .gpu/tests/tests-gpu_parity matmul_few- --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 70 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_few- --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
S=8x6411x124,16x1280x412,4x796x350,8x4097x4095,16x11421x3513,1x11421x3514,3x999x1001,13x5003x777,2x6320x560,16x4096x4096,4x14336x4096,8x3000x1004
SC="--plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
K16="--precisions bf16,fp16 --kernels few-rows-bf16,few-rows-f16"
K32="--precisions fp32 --kernels few-rows"
run 120 .gpu/bin/scorecard $K16 $SC --out $R/k18-new-16 > $R/k18-new-16.log 2>&1; echo "k18 new 16 rc=$? $(left)s left"
run 50 .gpu/old/scorecard $K16 $SC --out $R/k18-old-16 > $R/k18-old-16.log 2>&1; echo "k18 old 16 rc=$? $(left)s left"
run 40 .gpu/bin/scorecard $K32 $SC --out $R/k18-new-32 > $R/k18-new-32.log 2>&1; echo "k18 new 32 rc=$? $(left)s left"
run 40 .gpu/old/scorecard $K32 $SC --out $R/k18-old-32 > $R/k18-old-32.log 2>&1; echo "k18 old 32 rc=$? $(left)s left"
run 40 .gpu/bin/scorecard $K16 $SC --out $R/k18-new2-16 > $R/k18-new2-16.log 2>&1; echo "k18 new2 16 rc=$? $(left)s left"
run 30 .gpu/bin/scorecard $K32 $SC --out $R/k18-new2-32 > $R/k18-new2-32.log 2>&1; echo "k18 new2 32 rc=$? $(left)s left"
S=1505x4x13967,1816x5x7665,3333x12x3333,14104x4x2161,352x5x7505,1245x1x5839,96x1x13183,2000x8x1001,777x3x4097,3001x2x777,594x7x346,1000x4x1004,8000x2x4100,584x1x368,12000x4x2048
SC="--plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
K16="--precisions bf16,fp16 --kernels few-cols-bf16,few-cols-f16,few-cols-ksplit-bf16,few-cols-ksplit-f16"
run 60 .gpu/bin/scorecard $K16 $SC --out $R/k19-three-16 > $R/k19-three-16.log 2>&1; echo "k19 three runs rc=$? $(left)s left"
run 50 .gpu/old4/scorecard $K16 $SC --out $R/k19-four-16 > $R/k19-four-16.log 2>&1; echo "k19 four runs rc=$? $(left)s left"
run 50 .gpu/bin/scorecard $K16 $SC --out $R/k19-three2-16 > $R/k19-three2-16.log 2>&1; echo "k19 three runs again rc=$? $(left)s left"
cd $OUT && tar czf a.tgz a && rm -rf a
