#!/usr/bin/env bash
# Session 56, call A. Bundle: bin/scorecard = main fa00f94 (code of 447fd1d); bin/scorecard-oddk and
# tests/tests-gpu_parity = branch s55-odd-k-per-operand 02cd556. The card decides what runs:
# - H200 (issue 34's acceptance card): the squares 512-8192, two fresh seeds (20271266/67), decode + LLM
#   shapes, narrow N by name (a tuning set and a held-out set for the TMA tiles' and kernel 20's prices);
# - H100: session 55's call M (the odd-K branch: GPU parity, memcheck/racecheck, the odd-K lows by name
#   against main).
set -u
export CUDA_CACHE_PATH=/tmp/jit
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
S=.gpu/bin/scorecard
oddk() {
  run 150 .gpu/tests/tests-gpu_parity --test-threads 1 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep "test result" $R/parity.log
  for t in memcheck racecheck; do
    run 120 compute-sanitizer --tool $t --error-exitcode 3 .gpu/tests/tests-gpu_parity --test-threads 1 mma > $R/san-$t.log 2>&1; echo "sanitizer $t rc=$? $(left)s left"; tail -3 $R/san-$t.log
  done
  local K=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tiled-bf16,tma-bf16-64x128
  local SZ=1829x118x141,16x8148x163,16x3091x231,200x2750x188,16x8148x164,1829x118x144,64x4096x4095,32x11008x4097,300x2000x999,8x5000x3001
  for b in scorecard-oddk scorecard; do
    run 60 .gpu/bin/$b --kernels $K,${K//bf16/f16} --precisions bf16,fp16 --sizes $SZ $F --out $R/oddk-$b > $R/oddk-$b.log 2>&1; echo "odd K $b rc=$? $(left)s left"
  done
}
case "$GPU" in
*H200*)
  source .gpu/gpu-call.sh s56a-h200
  run 130 $S --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
  for s in 20271266 20271267; do
    run 80 $S --kernels auto --precisions bf16,fp16,tf32 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
  done
  run 40 $S --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left"
  KN=auto,mma-splitk-bf16-128x32,mma-splitk-bf16-128x64,tma-bf16-64x128,tma-bf16-128x128,persistent-bf16-128x128,persistent-bf16-64x128
  run 50 $S --kernels $KN --precisions bf16 --sizes 2048x16x1024,8192x16x512,12000x32x2048,3000x8x4096,6000x48x768,16000x16x256,2500x32x3000,9000x24x1536,5000x16x8192,7000x40x640,1500x32x512,11000x8x1024 $F --out $R/narrow-tune > $R/narrow-tune.log 2>&1; echo "narrow tune rc=$? $(left)s left"
  run 50 $S --kernels $KN --precisions bf16 --sizes 4416x16x496,4416x24x496,4416x32x496,4416x40x496,4416x24x2048,16164x16x328,6576x24x264,3000x88x1000,20000x40x1000,6000x8x6000 $F --out $R/narrow-held > $R/narrow-held.log 2>&1; echo "narrow held rc=$? $(left)s left"
  oddk ;;
*)
  source .gpu/gpu-call.sh s56a-h100
  oddk ;;
esac
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
