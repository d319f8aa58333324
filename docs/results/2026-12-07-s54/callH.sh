#!/usr/bin/env bash
# Session 54, call H (bundle: main 35c7bad + the TESSERA_X_L2 knob of branch s54-l2-promotion as
# bin/scorecard; unset = main's 256-byte L2 promotion). What rows off a 32-byte sector cost, and why:
# 1. which operand: A's rows off (3000x3008x3000), B's rows off (3008x3000x3008), both, neither.
# 2. the tensor maps' L2 promotion (none, 64, 128, 256) at 3000/3008/5000/5008, kernel 24's big tiles.
# 3. the narrow-N low of seed 20271264 (4416x24x496) by name, N = 16..64; ncu: every launch of one product;
#    the seeds' small lows by name (3b).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s54h
S=.gpu/bin/scorecard
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
KA=auto,cluster-bf16-192x192,cluster-bf16-128x256,cluster-sk-bf16-128x256,streamk-tma-bf16-128x256
run 90 $S --kernels $KA --precisions bf16 --sizes 3000,3008,3000x3008x3000,3008x3000x3008,3008x3008x3000,3000x3000x3008 $F --out $R/operand > $R/operand.log 2>&1; echo "operand rc=$? $(left)s left"
KL=cluster-bf16-192x192,cluster-bf16-128x256,cluster-sk-bf16-128x256
for p in none 128 256 64; do
  TESSERA_X_L2=$p run 90 $S --kernels $KL --precisions bf16 --sizes 3000,3008,5000,5008,1800 $F --out $R/l2-$p > $R/l2-$p.log 2>&1; echo "l2 $p rc=$? $(left)s left"
done
KN=auto,tma-bf16-64x128,cluster-bf16-64x128,tma-bf16-128x128,persistent-bf16-64x128,copyfeed-bf16-64x128,mma-splitk-bf16-128x32,mma-splitk-bf16-64x128,mma-splitk-bf16-16x128,mma-splitk-bf16-128x64,few-cols-bf16,widened-bf16-128x32,wgmma-bf16-128x128
run 60 $S --kernels $KN --precisions bf16 --sizes 4416x16x496,4416x24x496,4416x32x496,4416x48x496,4416x64x496,4416x24x512,4416x24x2048 $F --out $R/narrow > $R/narrow.log 2>&1; echo "narrow rc=$? $(left)s left"
run 60 ncu --clock-control none --launch-skip 0 --launch-count 40 --section SpeedOfLight --section LaunchStats $S --kernels tma-bf16-64x128,mma-splitk-bf16-128x32 --precisions bf16 --sizes 4416x24x496 --plots none --vec-len 0 --cpu-max-flops 0 --repeat 1 --out /tmp/x > $R/ncu-narrow.txt 2>&1; echo "ncu narrow rc=$? $(left)s left"
# 3b. the seeds' small lows by name: kernel 20's 16x128 16-bit entries are priced 1.7-1.8x their TF32 twin
#     where K is odd (Cost::unaligned 5.66 against 2.93); the TF32 twin ran 6.8-7.1 us at 16x8148x163 and
#     1829x118x141, where BF16 Auto (tiled, kernel 15) ran 9.1-9.9 and cuBLAS 5.7-7.3.
KS=auto,mma-splitk-bf16-16x128,mma-splitk-bf16-64x128,mma-splitk-bf16-128x32,tiled-bf16,widened-bf16-128x32,widened-bf16-64x64,tma-bf16-64x128,few-rows-bf16,mma-naive-bf16
run 60 $S --kernels $KS,${KS//bf16/f16} --precisions bf16,fp16 --sizes 1829x118x141,16x8148x163,16x3091x231,200x2750x188,16164x16x328,16x8148x164,1829x118x144 $F --out $R/small > $R/small.log 2>&1; echo "small rc=$? $(left)s left"
# 4. on an H200 only (issue 34's acceptance card): the squares and two fresh seeds, model only.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  run 100 $S --sweep --precisions bf16,fp16 --sizes 512,768,1000,1080,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares-h200 > $R/squares-h200.log 2>&1; echo "squares h200 rc=$? $(left)s left"
  for s in 20271265 20271266; do
    run 70 $S --kernels auto --precisions bf16,fp16,tf32 --seed $s --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-h200-$s > $R/rand-h200-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
  done
fi
cd $OUT && tar czf s54h.tgz s54h && rm -rf s54h
