#!/usr/bin/env bash
# Call 2 (session 49): BF16 decode (issue 34: M in {1,8,16,32,64} against 4096x4096, 14336x4096,
# 4096x14336 weights) — every small-M kernel at K slice counts 1-16 (the `slices` bin, each run with
# the model's price), then Auto beside cuBLAS with the copy rate (the scorecard); single products of
# the batches whose members fill the GPU (2048^3, 3000x1000x704) in BF16 and FP32.
set -u
source .gpu/gpu-call.sh s49c2
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 330 .gpu/bin/slices --shapes $DEC --kernels persistent-bf16-64x128,persistent-bf16-64x256,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,few-rows-bf16 --slices 1,2,3,4,6,8,12,16 --sampled-rows 2 --out $R/decode-slices.jsonl > /dev/null 2> $R/decode-slices.log; echo "slices rc=$? $(left)s left"
run 120 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
run 90 .gpu/bin/scorecard --kernels auto --precisions bf16,fp32 --sizes 2048,3000x1000x704,512x512x64,640x640x80 --plots none --vec-len 0 --cpu-max-flops 0 --out $R/singles > $R/singles.log 2>&1; echo "singles rc=$? $(left)s left"
cd $OUT && tar czf s49c2.tgz s49c2 && rm -rf s49c2
