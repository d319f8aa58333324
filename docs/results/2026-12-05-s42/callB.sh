#!/usr/bin/env bash
# Second call (same lease): issue 34's squares 512-8192 and the LLM shapes in BF16 and FP16, decode in
# BF16 (with the copy rate); issue 36's batches and grouped MoE in BF16 beside torch.
set -u
source .gpu/gpu-call.sh b
SC="--plots none --vec-len 0"
SQ=512,768,1000,1400,2000,2500,3000,3500,4096,4500,5000,6000,7000,8192,8192x4096x4096,8192x14336x4096,8192x4096x14336
run 230 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $SQ $SC --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 60 ncu --csv --metrics launch__grid_size,launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,gpu__time_duration.sum \
  python3 .gpu/cublas_kernels.py 512,768,1000,1400,2000,2500,3000,5000 > $R/cublas-kernels.csv 2> $R/cublas-kernels.log; echo "cublas kernels rc=$?"
run 90 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --plots none --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
BATCHED=64x512x512x64,256x128x128x128,8x2048x2048x2048,20x640x640x80,160x96x96x256,6x3000x1000x704,512x64x64x64
GROUPED=8x16384x4096x7168,64x16384x4096x7168,8x16384x7168x2048,64x16384x7168x2048
run 120 .gpu/bin/grouped --precision bf16 --batched $BATCHED --grouped $GROUPED --out $R/grouped-bf16.jsonl > /dev/null 2> $R/grouped-bf16.log; echo "grouped bf16 rc=$? $(left)s left"
run 60 python3 .gpu/bin/grouped_torch_anchor.py --precision bf16 --batched $BATCHED --grouped $GROUPED > $R/grouped-torch-bf16.jsonl 2>> $R/grouped-bf16.log; echo "grouped torch bf16 rc=$?"
cd $OUT && tar czf b.tgz b && rm -rf b
