#!/usr/bin/env bash
# The H200 report of session 42's model changes (ec71b56: C beyond the L2 with rows off a sector priced
# at 2.0 TB/s, kernel 16 up to 32 K slices in one round, kernel 21's 128x128 in Auto): session 43 ran
# it on an H100 (docs/results/2026-12-06-s43/r-1ad0263, seeds 20271243/44); here two seeds drawn for
# the H200 and tuned on none (20271245, 20271246), BF16 and FP16 first, TF32 after; then Auto on the
# shapes the changes were fitted on.
set -u
source .gpu/gpu-call.sh r
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
for S in 20271245 20271246; do run 270 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed $S $SC --out $R/rand-$S-16 > $R/rand-$S-16.log 2>&1; echo "rand $S 16-bit rc=$? $(left)s left"; done
for S in 20271245 20271246; do run 120 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed $S $SC --out $R/rand-$S-tf32 > $R/rand-$S-tf32.log 2>&1; echo "rand $S tf32 rc=$? $(left)s left"; done
FIT=5555x4444x8,20000x1500x32,15000x2050x12,4000x6000x4,9000x4097x10,756x5040x8,1500x1500x12,9000x500x12,3000x1000x8,184x37x15336,128x128x16384,72x16x3923,412x98x16264,1505x4x13967,96x1x13184
run 60 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $FIT --plots none --vec-len 0 --out $R/fitted > $R/fitted.log 2>&1; echo "fitted rc=$? $(left)s left"
cd $OUT && tar czf r.tgz r && rm -rf r
