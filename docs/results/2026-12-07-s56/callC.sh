#!/usr/bin/env bash
# Session 56, call C. Bundle: bin/scorecard = main 57e44da (the odd-K branch merged: kernels 12/13/20/30 copy
# each operand in its own pieces, priced per operand). The card decides what runs:
# - H200 (issue 34's acceptance card): the squares 512-8192, two fresh seeds (20271266/67), decode + LLM
#   shapes, narrow N by name (a tuning set and a held-out set for the TMA tiles' and kernel 20's prices);
# - H100: the two fresh seeds (issue 34's status on this main), then few rows against B rows of odd
#   length by name (seed 20271263's 2x6767x11904 FP16 low, 0.64) beside their aligned twins.
set -u
export CUDA_CACHE_PATH=/tmp/jit
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
S=.gpu/bin/scorecard
seeds() {
  for s in 20271266 20271267; do
    run 80 $S --kernels auto --precisions bf16,fp16,tf32 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
  done
}
case "$GPU" in
*H200*)
  source .gpu/gpu-call.sh s56c-h200
  run 130 $S --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
  seeds
  run 40 $S --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
  KN=auto,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,tma-bf16-128x128,persistent-bf16-128x128,persistent-bf16-64x128
  run 50 $S --kernels $KN --precisions bf16 --sizes 2048x16x1024,8192x16x512,12000x32x2048,3000x8x4096,6000x48x768,16000x16x256,2500x32x3000,9000x24x1536,5000x16x8192,7000x40x640,1500x32x512,11000x8x1024 $F --out $R/narrow-tune > $R/narrow-tune.log 2>&1; echo "narrow tune rc=$? $(left)s left"
  run 50 $S --kernels $KN --precisions bf16 --sizes 4416x16x496,4416x24x496,4416x32x496,4416x40x496,4416x24x2048,16164x16x328,6576x24x264,3000x88x1000,20000x40x1000,6000x8x6000 $F --out $R/narrow-held > $R/narrow-held.log 2>&1; echo "narrow held rc=$? $(left)s left" ;;
*)
  source .gpu/gpu-call.sh s56c-h100
  seeds
  K=auto,few-rows-bf16,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,widened-bf16-32x128,persistent-bf16-64x256,persistent-bf16-64x128,tma-bf16-64x128
  run 90 $S --kernels $K,${K//bf16/f16} --precisions bf16,fp16 --sizes 2x6767x11904,2x6768x11904,4x9001x4096,4x9000x4096,8x5003x8192,8x5000x8192,1x12289x4096,16x7777x3000 $F --out $R/oddn > $R/oddn.log 2>&1; echo "odd N rc=$? $(left)s left" ;;
esac
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
