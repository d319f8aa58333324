#!/usr/bin/env bash
# Issue 34's acceptance call (written in session 60, which got no device; not run): on an H200, main
# (old/scorecard) — decode + LLM shapes (BF16 and FP16, with the copy rate for the roofline), two fresh
# seeds of 32 random shapes (BF16, FP16, TF32), squares 512–8192 (BF16, FP16) — read by
# scripts/issue34-check.py. About 350 s. Bundle: scripts/next-run-bundles.sh → .gpu/h.tar.xz (main's
# scorecard). Then `scripts/update-readme.py … --issue34 docs/results/<this call>` for the README's status.
set -u
export CUDA_CACHE_PATH=/tmp/jit
F="--plots none --cpu-max-flops 0 --model-only"
OLD=.gpu/old/scorecard
source .gpu/gpu-call.sh h61
nvidia-smi --query-gpu=name --format=csv,noheader
run 60 $OLD --kernels auto --precisions bf16,fp16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
for s in 20271300 20271301; do
  run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --vec-len 0 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
done
run 130 $OLD --sweep --precisions bf16,fp16 --vec-len 0 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
python3 scripts/issue34-check.py --squares $R/squares --random $R/rand-20271300 $R/rand-20271301 --decode $R/decode-llm --llm $R/decode-llm 2>&1 | tee $R/issue34-check.md | tail -25
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
