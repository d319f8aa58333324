#!/usr/bin/env bash
# Session 39: the report set of batches after the refit (kernel 30's K-steps and fixed part apart, the 16-bit C's
# factors): `Auto` with f32 and 16-bit C beside every tile and torch.bmm, BF16 and FP16; ncu on kernel 26 at 512 × 64³.
set -u
R=$OUT/r9; mkdir -p $R
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
REPORT=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704
for p in bf16 f16; do
  timeout 120 .gpu/bin/grouped --precision $p --batched $REPORT --grouped "" --out $R/grouped-$p.jsonl > /dev/null 2> $R/grouped-$p.log; echo "grouped $p rc=$?"
  timeout 40 python3 .gpu/bin/grouped_torch_anchor.py --precision $p --batched $REPORT > $R/grouped-torch-$p.jsonl 2>> $R/grouped-$p.log; echo "torch $p rc=$?"
done
# Kernel 26 on one-tile products (512 × 64³: measured 4.4× its price): where its time goes.
timeout 90 ncu --clock-control none -k regex:"matmul_grouped_bf16_128x128$" -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis --section SourceCounters \
  .gpu/bin/grouped --precision bf16 --batched 512x64x64x64 --grouped "" --out /tmp/ncu-g.jsonl > $R/ncu-k26-512x64.txt 2>&1; echo "ncu rc=$?"
cd $OUT && tar czf r9.tgz r9 && rm -rf r9
