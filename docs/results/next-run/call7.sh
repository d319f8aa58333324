#!/usr/bin/env bash
# Session 39's last call: the batches' report set after the refit (`Auto` with f32 and BF16 C beside every tile and
# torch.bmm), FP8 E4M3 after the split-K margin (the four H100 shapes the model had split, and 12 random shapes of a
# fresh seed), ncu on kernel 26's one-tile products (512 × 64³).
set -u
R=$OUT/r10; mkdir -p $R
T0=$(date +%s)
left() { echo $(( ${BUDGET:-300} - ($(date +%s) - T0) )); }
run() { local lim=$1; shift; local l; l=$(left); [ "$l" -lt 10 ] && { echo "SKIPPED (no time): $*" | tee -a $R/skipped.txt; return 99; }; [ "$lim" -gt "$l" ] && lim=$l; timeout --kill-after=5 "$lim" "$@"; }
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
REPORT=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704
run 80 .gpu/bin/grouped --precision bf16 --batched $REPORT --grouped "" --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped rc=$? $(left)s left"
run 30 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $REPORT > $R/grouped-torch-bf16.jsonl 2>> $R/grouped-bf16.log; echo "torch rc=$?"
run 60 .gpu/bin/fp8 --format e4m3 --shapes 4246x289x6112,5633x2943x1696,4506x4594x3744,1003x830x3904 --out $R/fp8-split.jsonl > /dev/null 2> $R/fp8-split.log; echo "fp8 split rc=$? $(left)s left"
run 80 .gpu/bin/fp8 --format e4m3 --shapes "" --random 12 --seed 20271210 --out $R/fp8-random.jsonl > /dev/null 2> $R/fp8-random.log; echo "fp8 random rc=$? $(left)s left"
run 60 ncu --clock-control none -k regex:"matmul_grouped_bf16_128x128$" -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis --section SourceCounters \
  .gpu/bin/grouped --precision bf16 --batched 512x64x64x64 --grouped "" --out /tmp/ncu-g.jsonl > $R/ncu-k26-512x64.txt 2>&1; echo "ncu rc=$?"
cd $OUT && tar czf r10.tgz r10 && rm -rf r10
