#!/usr/bin/env bash
# Issue 34 acceptance call (from session 58's call H; the decode run keeps the copy-rate measurement, `--vec-len` default, for the roofline): issue 34's acceptance on an H200 with main af3eb7a (old/scorecard): squares 512-8192
# (BF16, FP16), two fresh seeds of 32 random shapes (BF16, FP16, TF32), decode + LLM shapes (BF16).
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
OLD=.gpu/old/scorecard
source .gpu/gpu-call.sh h58
run 130 $OLD --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
for s in 20271290 20271291; do
  run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
done
run 40 $OLD --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
