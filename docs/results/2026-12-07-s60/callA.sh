#!/usr/bin/env bash
# Session 60, call A: issue 34's acceptance on main (old/scorecard; COMMIT names it) — squares 512–8192
# (BF16, FP16), two fresh seeds of 32 random shapes (BF16, FP16, TF32), decode + LLM shapes (BF16, with
# the copy rate for the roofline) — then the decode shapes by kernel name (which tile streams B fastest).
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
OLD=.gpu/old/scorecard
source .gpu/gpu-call.sh a60
nvidia-smi --query-gpu=name --format=csv,noheader
run 40 $OLD --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
K=mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,persistent-bf16-64x256,tma-bf16-64x128,widened-bf16-32x128,few-rows-bf16,pingpong-plain-bf16-64x256,auto
run 45 $OLD --kernels $K --precisions bf16 --vec-len 0 --sizes 8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,16x14336x4096,64x14336x4096,16x4096x14336,64x4096x14336 $F --out $R/decode-names > $R/decode-names.log 2>&1; echo "decode names rc=$? $(left)s left"
for s in 20271300 20271301; do
  run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --vec-len 0 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
done
run 130 $OLD --sweep --precisions bf16,fp16 --vec-len 0 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
python3 scripts/issue34-check.py --squares $R/squares --random $R/rand-20271300 $R/rand-20271301 --decode $R/decode-llm --llm $R/decode-llm 2>&1 | tee $R/issue34-check.md | tail -25
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
