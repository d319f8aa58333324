#!/usr/bin/env bash
# Session 40's third call (same lease): issue 35's FP8 E4M3 shapes beside cuBLASLt (and torch's _scaled_mm), FP8 on a
# fresh seed; compute-sanitizer's four tools on the new fused entries in clusters and on kernel 26's batch walk; ncu of
# kernel 27's 128x256 tile with its finishing store.
set -u
R=$OUT/c; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-400} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
run 100 .gpu/bin/fp8 --format e4m3 --shapes $P --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"
run 50 python3 .gpu/bin/fp8_torch_anchor.py --format e4m3 --shapes $P > $R/fp8-torch.jsonl 2>> $R/fp8.log; echo "fp8 torch rc=$?"
for tool in memcheck racecheck synccheck initcheck; do
  run 40 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_fused-cluster-bf16-128x192_ --skip 1024 --skip 4096 --skip 1000x --skip 260x --skip 512x --skip 2048 --test-threads 1 > $R/san-$tool-fused-cluster.log 2>&1; echo "sanitizer $tool fused-cluster rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool-fused-cluster.log | head -2
  run 40 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-grouped batched_bf16 --test-threads 1 > $R/san-$tool-grouped.log 2>&1; echo "sanitizer $tool grouped rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool-grouped.log | head -2; done
run 80 .gpu/bin/fp8 --format e4m3 --shapes "" --random 12 --seed 20271218 --out $R/fp8-random.jsonl > /dev/null 2> $R/fp8-random.log; echo "fp8 random rc=$? $(left)s left"
run 70 ncu --clock-control none -k regex:"matmul_fused_bf16_128x256$" -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section SourceCounters \
  .gpu/bin/fused --kernels fused-bf16-128x256 --shapes 8192x4096x4096 --repeat 1 --out /tmp/ncu-f.jsonl > $R/ncu-fused-128x256.txt 2>&1; echo "ncu rc=$?"
cd $OUT && tar czf c.tgz c && rm -rf c
