#!/usr/bin/env bash
# Call E (session 47, warm after call D; run inline with BUDGET=300, CUDA_CACHE_PATH=/tmp/jit): BF16
# decode (M 1-64 against 4096x4096, 14336x4096, 4096x14336) with Auto and the kernels that can win
# there by name, then call D's kernels by name on session 46's report squares (512-5000).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh e
D=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
KD=auto,few-rows-bf16,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,persistent-bf16-64x128,persistent-bf16-64x256,cluster-bf16-64x128,widened-bf16-32x128,copyfeed-bf16-64x128
run 120 .gpu/bin/scorecard --precisions bf16 --kernels $KD --sizes $D --plots none --vec-len 0 --cpu-max-flops 0 --out $R/decode-by-name > $R/decode-by-name.log 2>&1; echo "decode rc=$? $(left)s left"
KS=$(grep -o 'KS=[^ ]*' .gpu/callD.sh | cut -d= -f2)
run 150 .gpu/bin/scorecard --precisions bf16 --kernels $KS --sizes 512,640,768,1000,1400,3000,5000 --plots none --vec-len 0 --cpu-max-flops 0 --out $R/squares-report-by-name > $R/squares-report-by-name.log 2>&1; echo "squares rc=$? $(left)s left"
cd $OUT && tar czf e.tgz e && rm -rf e
