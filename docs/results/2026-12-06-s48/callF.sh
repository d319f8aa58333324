#!/usr/bin/env bash
# Call F (session 47, a fresh lease; BUDGET=330). .gpu/old/scorecard: main 0a385c1 (bundle 02fe438's
# build: the same kernels and picks). .gpu/bin/scorecard: branch s47-split (c34b04d) — kernel 16 not split
# where the tiles fill the SMs (MAX_SPLITS_MANY_TILES 1), kernel 18 and kernel 20 128x32 16-bit entries refitted.
# 1. Auto on the cells whose pick moves (and their other precisions), old then new.
# 2. Auto on 32 random shapes of a fresh seed (20271254, tuned on by no session), BF16, FP16, TF32: new, then old.
set -u
source .gpu/gpu-call.sh f
CH=2304,3000,4200,3072x6144x8192,896x3331x1062,15724x2473x1278,4x4357x544,8x1712x1000,10x2427x888,2x64x188,43x432x126,292x596x60,13871x8x32,192x1931x64,12484x32x8832
SC="--kernels auto --precisions bf16,fp16,tf32 --plots none --vec-len 0 --cpu-max-flops 0"
run 90 .gpu/old/scorecard $SC --sizes $CH --out $R/moved-old > $R/moved-old.log 2>&1; echo "moved old rc=$? $(left)s left"
run 70 .gpu/bin/scorecard $SC --sizes $CH --out $R/moved-new > $R/moved-new.log 2>&1; echo "moved new rc=$? $(left)s left"
RS="--plots none --vec-len 0 --sizes 4096 --random-shapes 32 --seed 20271254"
run 150 .gpu/bin/scorecard $SC $RS --out $R/rand-20271254-new > $R/rand-20271254-new.log 2>&1; echo "rand new rc=$? $(left)s left"
run 150 .gpu/old/scorecard $SC $RS --out $R/rand-20271254-old > $R/rand-20271254-old.log 2>&1; echo "rand old rc=$? $(left)s left"
cd $OUT && tar czf f.tgz f && rm -rf f
