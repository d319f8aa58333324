#!/usr/bin/env bash
# Call K18r (a bundle of branch s47-k18-rows8: kernel 18's 8-row entries, a block's 16 rows in passes
# of 8 with two groups of B's rows in flight a warp; the 16-row entries' PTX unchanged). GPU parity and
# the four compute-sanitizer tools on every few-rows entry, then the 8-row entries against the 16-row
# ones by name in one run (M 1-16; session 47's kernel 18 training and held-out shapes), twice.
set -u
source .gpu/gpu-call.sh k18r
run 80 .gpu/k18r/tests-gpu_parity matmul_few-rows --test-threads 4 > $R/parity-few.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-few.log
for tool in memcheck racecheck synccheck initcheck; do
  run 70 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/k18r/tests-gpu_parity matmul_few-rows --skip 1024 --skip 2048 --skip 4096 --skip 1000x1037 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2; done
S=8x6411x124,4x796x350,8x4097x4095,1x11421x3514,3x999x1001,2x6320x560,4x14336x4096,8x3000x1004,2x10013x4434,5x1216x6016,2x12608x512,1x1811x5376,4x12160x832,6x12784x3774,1x7934x1280,3x7376x10450,16x4096x4096,13x5003x777,1x4096x4096,8x4096x4096
K="--precisions bf16,fp16 --kernels few-rows-bf16,few-rows-f16,few-rows8-bf16,few-rows8-f16 --plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
run 150 .gpu/k18r/scorecard $K --out $R/by-name > $R/by-name.log 2>&1; echo "by name rc=$? $(left)s left"
run 100 .gpu/k18r/scorecard $K --out $R/by-name2 > $R/by-name2.log 2>&1; echo "by name again rc=$? $(left)s left"
cd $OUT && tar czf k18r.tgz k18r && rm -rf k18r
