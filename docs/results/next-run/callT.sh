#!/usr/bin/env bash
# Call T (session 48): TF32 shapes of several rounds whose Auto pick moved with narrow_register_rate
# (0b1c51f) — drawn at random (seed 20271248; none in any tuned line) — every candidate tile by name in
# one run: the old pick (kernel 16's 128×128 tile) against the new (128×256 tiles of kernels 15, 16, 22).
set -u
source .gpu/gpu-call.sh t
S=11412x2115x1135,8772x2403x1459,6120x1469x6025,1122x1240x2017,1225x11140x1082,4747x2984x855,3372x2375x3829,2860x2060x860,9242x1024x6281,7628x1353x2403,1432x6326x6723,7000x2000x4000,3626x2653x694
K="--kernels persistent-tf32-128x128,persistent-tf32-128x256,tma-tf32-128x256,streamk-tma-tf32-128x256 --precisions tf32 --plots none --vec-len 0 --cpu-max-flops 0 --sizes $S"
run 170 .gpu/bin/scorecard $K --out $R/by-name > $R/by-name.log 2>&1; echo "by name rc=$? $(left)s left"
cd $OUT && tar czf t.tgz t && rm -rf t
