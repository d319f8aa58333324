#!/usr/bin/env bash
# Session 53, call G (bundle: main b7b5beb as bin/scorecard — the chain's one-block-per-SM spread and
# kernel 24's 64×256 pairs priced at CLUSTER_ONE_CONSUMER_RATE; main 1a62311 as bin/scorecard-spread,
# the model before). In order of what the budget leaves:
# 1. the squares whose pick the new rate moves (1080, 1160, 1240 held out; 1320, 1400 the check), by
#    name: the old pick (64×256 pairs), the new (128×128 pairs), kernel 15's 128×128, Auto of both builds.
# 2. issue 34's report: the squares 512-8192 (BF16, FP16), two fresh seeds 20271263 and 20271264
#    (BF16, FP16, TF32), model only.
# 3. what rows off a sector cost each large tile by name: 1800, 3000, 5000, 7000 against 1808, 3008,
#    5008, 7008 (BF16).
# 4. call F's fresh-seed lows by name (10656×304×1000 BF16; 112×1736×8384 and 9326×52×2130 TF32).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s53h
N=.gpu/bin/scorecard; O=.gpu/bin/scorecard-spread
MV=1080,1160,1240,1320,1400
K1=auto,cluster-bf16-64x256,cluster-bf16-128x128,tma-bf16-128x128,cluster-f16-64x256,cluster-f16-128x128,tma-f16-128x128
run 60 $N --kernels $K1 --precisions bf16,fp16 --sizes $MV --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/moved-new > $R/moved-new.log 2>&1; echo "moved new rc=$? $(left)s left"
run 30 $O --kernels auto --precisions bf16,fp16 --sizes $MV --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/moved-old > $R/moved-old.log 2>&1; echo "moved old rc=$? $(left)s left"
run 120 $N --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
for s in 20271263 20271264; do
  run 80 $N --kernels auto --precisions bf16,fp16,tf32 --seed $s --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
done
K2=auto,cluster-bf16-128x256,persistent-bf16-128x256,cluster-sk-bf16-128x256,cluster-bf16-192x192,tma-bf16-128x256,cluster-bf16-128x224
run 120 $N --kernels $K2 --precisions bf16 --sizes 1800,1808,3000,3008,5000,5008,7000,7008 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/pitch > $R/pitch.log 2>&1; echo "pitch rc=$? $(left)s left"
# 4. the fresh seeds' lows of call F by name: does any tessera kernel run them near cuBLAS?
KB=auto,cluster-bf16-192x160,cluster-bf16-192x192,tma-bf16-128x128,persistent-bf16-128x128,pingpong-bf16-128x128,cluster-bf16-128x128,cluster-bf16-128x256,persistent-bf16-64x256,tma-bf16-64x128,streamk-tma-bf16-128x256
run 30 $N --kernels $KB --precisions bf16 --sizes 10656x304x1000,10656x312x1000 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/low-bf16 > $R/low-bf16.log 2>&1; echo "low bf16 rc=$? $(left)s left"
KT=auto,mma-splitk-tf32-64x128,persistent-tf32-128x256,persistent-tf32-128x128,persistent-tf32-64x256,mma-splitk-tf32-128x32,persistent-tf32-64x128,streamk-tma-tf32-128x256,mma-splitk-tf32-16x128
run 30 $N --kernels $KT --precisions tf32 --sizes 112x1736x8384,9326x52x2130 --plots none --vec-len 0 --cpu-max-flops 0 --model-only --out $R/low-tf32 > $R/low-tf32.log 2>&1; echo "low tf32 rc=$? $(left)s left"
cd $OUT && tar czf s53h.tgz s53h && rm -rf s53h
