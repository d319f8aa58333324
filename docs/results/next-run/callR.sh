#!/usr/bin/env bash
# The random-shape report on an H200 (sessions 43 and 44 ran it on H100s: docs/results/2026-12-06-s43/r-1ad0263,
# 2026-12-06-s44/r-1fefb5f, seeds 20271243-46): two seeds drawn for it and tuned on none (20271248,
# 20271249), BF16 and FP16 first, TF32 after; then Auto on the shapes session 42's model changes were fitted
# on. The first scorecard of a fresh bundle compiles the module: its limit is generous.
set -u
source .gpu/gpu-call.sh r
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
for S in 20271248 20271249; do run 270 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed $S $SC --out $R/rand-$S-16 > $R/rand-$S-16.log 2>&1; echo "rand $S 16-bit rc=$? $(left)s left"; done
for S in 20271248 20271249; do run 120 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed $S $SC --out $R/rand-$S-tf32 > $R/rand-$S-tf32.log 2>&1; echo "rand $S tf32 rc=$? $(left)s left"; done
FIT=5555x4444x8,20000x1500x32,15000x2050x12,4000x6000x4,9000x4097x10,756x5040x8,1500x1500x12,9000x500x12,3000x1000x8,184x37x15336,128x128x16384,72x16x3923,412x98x16264,1505x4x13967,96x1x13184
run 60 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $FIT --plots none --vec-len 0 --out $R/fitted > $R/fitted.log 2>&1; echo "fitted rc=$? $(left)s left"
cd $OUT && tar czf r.tgz r && rm -rf r
