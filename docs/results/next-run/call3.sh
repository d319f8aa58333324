#!/usr/bin/env bash
# Session 39's GPU call after kernel 30's 16-bit C: its GPU trials (tests-grouped), the batches in BF16 and FP16 with
# `Auto` writing a 16-bit C beside torch.bmm, compute-sanitizer's four tools on kernel 30's 16-bit trials, then an ncu
# look at `Auto` and cuBLAS at 1400³ BF16 (where `Auto` is 0.73–0.78 of cuBLAS) for the next session.
set -u
R=$OUT/r7; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 15 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
# A cold machine compiles the PTX on first load: the trials get room for it.
run 200 .gpu/tests/tests-grouped > $R/tests-grouped.log 2>&1; echo "tests-grouped rc=$? $(left)s left"; grep -E "^test result|FAILED|panicked" $R/tests-grouped.log | head -4
B=64x512x512x64,256x128x128x128,8x2048x2048x2048,512x64x64x64,16x96x1000x200,96x200x328x64
for p in bf16 f16; do
  run 100 .gpu/bin/grouped --precision $p --batched $B --out $R/grouped-$p.jsonl > /dev/null 2> $R/grouped-$p.log; echo "grouped $p rc=$? $(left)s left"
  run 50 python3 .gpu/bin/grouped_torch_anchor.py --precision $p --batched $B > $R/grouped-torch-$p.jsonl 2>> $R/grouped-$p.log; echo "grouped torch $p rc=$?"
done
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-grouped on_kernel_30 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool.log | head -2
done
run 150 ncu --clock-control none -k regex:"matmul|gemm|xmma" -c 4 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  .gpu/bin/scorecard --precisions bf16 --kernels auto-bf16 --sizes 1400 --plots none --vec-len 0 --out $R/ncu-sc > $R/ncu-1400.txt 2>&1; echo "ncu rc=$? $(left)s left"
cd $OUT && tar czf r7.tgz r7 && rm -rf r7
