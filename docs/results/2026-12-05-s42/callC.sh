#!/usr/bin/env bash
# Third call (same lease): issue 35's FP8 E4M3 table (per-tensor and block scales) beside cuBLASLt
# through torch's _scaled_mm; issue 36's batches in FP32 beside torch.bmm.
set -u
source .gpu/gpu-call.sh c
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
run 120 .gpu/bin/fp8 --format e4m3 --shapes $P --out $R/fp8.jsonl > /dev/null 2> $R/fp8.log; echo "fp8 rc=$? $(left)s left"
run 60 python3 .gpu/bin/fp8_torch_anchor.py --format e4m3 --shapes $P > $R/fp8-torch.jsonl 2>> $R/fp8.log; echo "fp8 torch rc=$?"
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704,512x64x64x64
run 100 .gpu/bin/grouped --precision f32 --batched $BATCHED --grouped "" --out $R/grouped-f32.jsonl > /dev/null 2> $R/grouped-f32.log; echo "grouped f32 rc=$? $(left)s left"
run 60 python3 .gpu/bin/grouped_torch_anchor.py --precision f32 --batched $BATCHED --grouped "" > $R/grouped-torch-f32.jsonl 2>> $R/grouped-f32.log; echo "grouped torch f32 rc=$?"
cd $OUT && tar czf c.tgz c && rm -rf c
