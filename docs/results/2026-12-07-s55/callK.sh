#!/usr/bin/env bash
# Session 55, call K. Bundle: bin/scorecard = main 447fd1d (tensor maps whose rows lie off a 32-byte sector
# promote 128 bytes). Issue 34's report on it: the squares 512-8192 (the README's size sweep; session
# 54 ran the same sizes on b7b5beb: docs/results/2026-12-07-s54/h-b7b5beb/squares). (Seed 20271263 dropped: too little device time left.)
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh s55k
S=.gpu/bin/scorecard
run 130 $S --sweep --precisions bf16,fp16 --sizes 512,640,768,896,1000,1080,1160,1240,1400,1800,2048,2500,3000,3500,4096,5000,6144,7000,8192 --out $R/squares > $R/squares.log 2>&1; echo "squares rc=$? $(left)s left"
cd $OUT && tar czf s55k.tgz s55k && rm -rf s55k
