#!/usr/bin/env bash
# Kernel 25 promoted every K-step beside cuBLASLt's promoted FP8 kernel on the same card, and the
# experiment of branch s44-order: the E5M2 128x128 entry's two consumer warpgroups take the tensor
# core in turn each K-step (order mbarriers); the E4M3 entry is unchanged. Both formats' tables (the
# same wgmma rate: Auto's E5M2 against its E4M3 is the experiment's measure), the GPU FP8 suite (E5M2
# parity on odd shapes, the promotion at K = 16384), then ncu at 4096³ (clocks not locked): speed of
# light and warp states of kernel 25 and cuBLASLt's kernel, and the source (SASS) views with stalls.
# Also the branch's one-shift BF16 widening (4ae4746): the few-rows/few-cols parity, and the BF16
# CUDA-core entries by name beside their FP16 twins (unchanged: the control in the same run).
set -u
source .gpu/gpu-call.sh n
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
run 90 .gpu/bin/fp8 --format e4m3 --shapes $P --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 e4m3 rc=$? $(left)s left"; cat $R/fp8.log
run 90 .gpu/bin/fp8 --format e5m2 --shapes $P --out $R/fp8-e5m2.jsonl > /dev/null 2> $R/fp8-e5m2.log; echo "fp8 e5m2 rc=$? $(left)s left"; cat $R/fp8-e5m2.log
run 40 .gpu/tests/tests-gpu_parity few- --test-threads 4 > $R/parity-few.log 2>&1; echo "parity few rc=$?"; grep -E "test result" $R/parity-few.log
W=20000x1x1000,96x1x13184,855x1x1512,9000x1x9000,1505x4x13967,3x4096x4096,8x14336x4096,700x5x900
run 60 .gpu/bin/scorecard --precisions bf16,fp16 --kernels few-cols-bf16,few-cols-f16,few-rows-bf16,few-rows-f16,widened-bf16-32x128,widened-f16-32x128 --sizes $W --plots none --vec-len 0 --out $R/widen > $R/widen.log 2>&1; echo "widen rc=$? $(left)s left"
run 60 .gpu/tests/tests-fp8 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$?"; grep -E "K = 16384|test result" $R/fp8-tests.log
ONE="--shapes 4096x4096x4096 --repeat 1 --out /tmp/ncu.jsonl"
run 60 ncu --clock-control none -k regex:"matmul_fp8_e4m3_128x128$|nvjet" -c 2 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --csv .gpu/bin/fp8 --format e4m3 $ONE > $R/ncu-sol.csv 2> $R/ncu-sol.log; echo "ncu sol rc=$?"
run 60 ncu --clock-control none -k regex:"matmul_fp8_e5m2_128x128$" -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --csv .gpu/bin/fp8 --format e5m2 $ONE > $R/ncu-sol-e5m2.csv 2> $R/ncu-sol-e5m2.log; echo "ncu sol e5m2 rc=$?"
run 80 ncu --clock-control none -k regex:"matmul_fp8_e4m3_128x128$" -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass .gpu/bin/fp8 --format e4m3 $ONE > $R/ncu-fp8-128x128-source.txt 2>&1; echo "ncu source ours rc=$? $(left)s left"
# run 80 ncu --clock-control none -k regex:"nvjet" -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass .gpu/bin/fp8 --format e4m3 $ONE > $R/ncu-nvjet-source.txt 2>&1; echo "ncu source cuBLASLt rc=$? $(left)s left"
cd $OUT && tar czf n.tgz n && rm -rf n
