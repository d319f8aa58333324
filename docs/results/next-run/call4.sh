#!/usr/bin/env bash
# Session 39: batches writing a 16-bit C, every tile (kernel 26's finishing twins, kernel 30's 16-bit store) beside its
# f32 self, on a tuning set (the fit of the planner's 16-bit-C factors) and a report set (issue 36's three held out,
# three drawn after), BF16, and the report set in FP16; torch.bmm in the same lease.
set -u
R=$OUT/r8; mkdir -p $R
{ cat .gpu/COMMIT; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,memory.total --format=csv; } > $R/device.txt 2>&1
TUNE=512x64x64x64,128x256x256x128,32x1024x1024x256,16x96x1000x200,48x384x384x96,96x200x328x64,24x768x256x512,4x4096x1024x1024
REPORT=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704
timeout 200 .gpu/bin/grouped --precision bf16 --batched $TUNE,$REPORT --grouped "" --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped bf16 rc=$?"
timeout 60 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $TUNE,$REPORT > $R/grouped-torch-bf16.jsonl 2>> $R/grouped-bf16.log; echo "torch bf16 rc=$?"
timeout 120 .gpu/bin/grouped --precision f16 --batched $REPORT --grouped "" --out $R/grouped-f16.jsonl > /dev/null 2> $R/grouped-f16.log; echo "grouped f16 rc=$?"
timeout 40 python3 .gpu/bin/grouped_torch_anchor.py --precision f16 --batched $REPORT > $R/grouped-torch-f16.jsonl 2>> $R/grouped-f16.log; echo "torch f16 rc=$?"
cd $OUT && tar czf r8.tgz r8 && rm -rf r8
