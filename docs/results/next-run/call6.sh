#!/usr/bin/env bash
# Session 39: the report set of batches after the refit (kernel 30's K-steps and fixed part apart, the 16-bit C's
# factors): `Auto` with f32 and 16-bit C beside every tile and torch.bmm, BF16 and FP16.
set -u
R=$OUT/r9; mkdir -p $R
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
REPORT=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704
for p in bf16 f16; do
  timeout 120 .gpu/bin/grouped --precision $p --batched $REPORT --grouped "" --out $R/grouped-$p.jsonl > /dev/null 2> $R/grouped-$p.log; echo "grouped $p rc=$?"
  timeout 40 python3 .gpu/bin/grouped_torch_anchor.py --precision $p --batched $REPORT > $R/grouped-torch-$p.jsonl 2>> $R/grouped-$p.log; echo "torch $p rc=$?"
done
cd $OUT && tar czf r9.tgz r9 && rm -rf r9
