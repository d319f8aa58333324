#!/usr/bin/env bash
# Kernel 25 as main has it (promoted every K-step) beside cuBLASLt's promoted FP8 kernel on the same
# card: the E4M3 table on issue 35's four shapes, the GPU FP8 suite, then ncu at 4096³ (clocks not
# locked): both kernels' speed of light and warp states, and the source (SASS) view with stall reasons.
set -u
source .gpu/gpu-call.sh n
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
run 90 .gpu/bin/fp8 --format e4m3 --shapes $P --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"; cat $R/fp8.log
run 60 .gpu/tests/tests-fp8 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$?"; grep -E "K = 16384|test result" $R/fp8-tests.log
ONE="--format e4m3 --shapes 4096x4096x4096 --repeat 1 --out /tmp/ncu.jsonl"
run 60 ncu --clock-control none -k regex:"matmul_fp8_e4m3_128x128$|nvjet" -c 2 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --csv .gpu/bin/fp8 $ONE > $R/ncu-sol.csv 2> $R/ncu-sol.log; echo "ncu sol rc=$?"
run 90 ncu --clock-control none -k regex:"matmul_fp8_e4m3_128x128$" -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass .gpu/bin/fp8 $ONE > $R/ncu-fp8-128x128-source.txt 2>&1; echo "ncu source ours rc=$? $(left)s left"
run 90 ncu --clock-control none -k regex:"nvjet" -c 1 --section WarpStateStats --section SourceCounters --page source --print-source sass .gpu/bin/fp8 $ONE > $R/ncu-nvjet-source.txt 2>&1; echo "ncu source cuBLASLt rc=$? $(left)s left"
cd $OUT && tar czf n.tgz n && rm -rf n
