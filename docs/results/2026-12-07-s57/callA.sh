#!/usr/bin/env bash
# Session 57, call A. Bundle: bin/scorecard and tests/tests-gpu_parity = branch s57-k18-half (de5edf8:
# kernel 18's 16-bit entries in groups of 8 rows of B, two passes of 8 rows of C; f32 entry's SASS
# unchanged); old/scorecard = main 57e44da (session 56's call C bundle; its kernels and model are main's
# 2b2840c: later commits changed no PTX). The card decides what runs first:
# - H200 (issue 34's acceptance card): main's squares 512-8192, two fresh seeds, decode + LLM shapes;
# - both: kernel 18's 16-bit entries on the GPU (parity, the four sanitizers), then by name, new and
#   old in one lease: session 47's training set (seed 47018, the refit's), its 12 held-out shapes, and
#   few rows against B rows of odd length beside their aligned twins (held out too).
set -u
export CUDA_CACHE_PATH=/tmp/jit
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only"
NEW=.gpu/bin/scorecard; OLD=.gpu/old/scorecard; P=.gpu/tests/tests-gpu_parity
source .gpu/gpu-call.sh a57
case "$GPU" in
*H200*)
  run 130 $OLD --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2200,2500,3000,3500,4096,5000,6144,7000,8192 $F --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
  for s in 20271270 20271271; do
    run 80 $OLD --kernels auto --precisions bf16,fp16,tf32 --seed $s $F --sizes 1024 --random-shapes 32 --out $R/rand-$s > $R/rand-$s.log 2>&1; echo "rand $s rc=$? $(left)s left"
  done
  run 40 $OLD --kernels auto --precisions bf16 --sizes 1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336,4096x4096x4096,8192x8192x8192,8192x4096x4096,8192x14336x4096,8192x4096x14336 $F --out $R/decode-llm > $R/decode-llm.log 2>&1; echo "decode rc=$? $(left)s left" ;;
esac
run 60 $P few-rows > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep "test result" $R/parity.log
for t in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $t --error-exitcode 3 $P --test-threads 1 few-rows- > $R/san-$t.log 2>&1; echo "sanitizer $t rc=$? $(left)s left"; grep "test result" $R/san-$t.log; tail -1 $R/san-$t.log
done
TRAIN=2x10013x4434,2x280x5258,5x1216x6016,2x12608x512,3x1152x2240,1x1811x5376,2x1178x2099,4x12160x832,15x561x3189,14x768x192,6x12784x3774,1x564x192,10x4096x1344,2x256x448,7x384x1920,7x13131x448,2x6262x159,1x7934x1280,1x1528x177,8x535x9712,2x6806x576,2x373x1024,2x3072x256,5x704x256,6x477x4096,3x749x672,3x7376x10450,15x896x5568
HELD=8x6411x124,16x1280x412,4x796x350,8x4097x4095,16x11421x3513,1x11421x3514,3x999x1001,13x5003x777,2x6320x560,16x4096x4096,4x14336x4096,8x3000x1004
ODDN=2x6767x11904,2x6768x11904,4x9001x4096,4x9000x4096,8x5003x8192,8x5000x8192,1x12289x4096,16x7777x3000,1x32001x4096,12x50257x1024
K16="--precisions bf16,fp16 --kernels few-rows-bf16,few-rows-f16 $F"
run 150 $NEW $K16 --sizes $TRAIN --out $R/train-new > $R/train-new.log 2>&1; echo "train new rc=$? $(left)s left"
run 60 $NEW $K16 --sizes $HELD --out $R/held-new > $R/held-new.log 2>&1; echo "held new rc=$? $(left)s left"
run 60 $OLD $K16 --sizes $HELD --out $R/held-old > $R/held-old.log 2>&1; echo "held old rc=$? $(left)s left"
run 60 $NEW --precisions bf16,fp16 --kernels auto,few-rows-bf16,few-rows-f16 $F --sizes $ODDN --out $R/oddn-new > $R/oddn-new.log 2>&1; echo "oddn new rc=$? $(left)s left"
run 60 $OLD $K16 --sizes $ODDN --out $R/oddn-old > $R/oddn-old.log 2>&1; echo "oddn old rc=$? $(left)s left"
run 120 $OLD $K16 --sizes $TRAIN --out $R/train-old > $R/train-old.log 2>&1; echo "train old rc=$? $(left)s left"
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
