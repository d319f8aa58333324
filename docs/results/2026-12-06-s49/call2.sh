#!/usr/bin/env bash
# Call 2 (session 49): BF16 decode. A tuning set (none of issue 34's shapes: M in {4,24,48,64}
# against 5120x5120, 11008x4096, 4096x11008 weights, M 32 against 8192x2048 and 2048x8192): every
# small-M kernel at K slice counts 1-8 (the `slices` bin, each run with the model's price); then issue
# 34's decode shapes (M in {1,8,16,32,64} against 4096x4096, 14336x4096, 4096x14336), Auto beside
# cuBLAS with the copy rate (the scorecard), as the report before any refit; single products of
# the batches whose members fill the GPU (2048^3, 3000x1000x704) in BF16 and FP32.
set -u
source .gpu/gpu-call.sh s49c2
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
TUNE=4x5120x5120,24x5120x5120,48x5120x5120,64x5120x5120,4x11008x4096,24x11008x4096,48x11008x4096,64x11008x4096,4x4096x11008,24x4096x11008,48x4096x11008,64x4096x11008,32x8192x2048,32x2048x8192
run 300 .gpu/bin/slices --shapes $TUNE --kernels persistent-bf16-64x128,persistent-bf16-64x256,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,few-rows-bf16 --slices 1,2,3,4,6,8 --sampled-rows 2 --out $R/decode-slices.jsonl > /dev/null 2> $R/decode-slices.log; echo "slices rc=$? $(left)s left"
run 120 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
run 90 .gpu/bin/scorecard --kernels auto --precisions bf16,fp32 --sizes 2048,3000x1000x704,512x512x64,640x640x80 --plots none --vec-len 0 --cpu-max-flops 0 --out $R/singles > $R/singles.log 2>&1; echo "singles rc=$? $(left)s left"
cd $OUT && tar czf s49c2.tgz s49c2 && rm -rf s49c2
