#!/usr/bin/env bash
# Kernel 25's per-tensor entries promoting every two K-steps (1fefb5f): issue 35's E4M3 table beside
# cuBLASLt (same process) and torch's _scaled_mm, with random shapes (K a multiple of 16) drawn for
# this run and tuned on none; the GPU FP8 suite (odd shapes, the promotion rule at K = 16384, BF16
# out, epilogues) and the four compute-sanitizer tools on it.
set -u
source .gpu/gpu-call.sh f
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
run 60 .gpu/tests/tests-fp8 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$?"; grep -E "K = 16384|test result" $R/fp8-tests.log
run 200 .gpu/bin/fp8 --format e4m3 --shapes $P --random 16 --seed 20271247 --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"; grep -E "auto" $R/fp8.log | head -24
run 40 python3 .gpu/bin/fp8_torch_anchor.py --format e4m3 --shapes $P > $R/fp8-torch.jsonl 2>> $R/fp8.log; echo "fp8 torch rc=$?"
for tool in memcheck racecheck synccheck initcheck; do
  run 70 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-fp8 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "SUMMARY|test result" $R/san-$tool.log | head -2; done
cd $OUT && tar czf f.tgz f && rm -rf f
