#!/usr/bin/env bash
# The random-shape report on an H200 (sessions 43-45 ran it on H100s: docs/results/2026-12-06-s4{3,4,5},
# seeds 20271243-49): two seeds drawn for it and tuned on none (20271250, 20271251). The first scorecard
# on a fresh machine compiles every module it touches (session 45: 38 of 198 rows in 300 s cold, the
# whole run 50 s warm), so the report takes two calls on one lease, each with BUDGET=580:
#     bash .gpu/callR.sh 1    # cold: the first seed, BF16 and FP16
#     bash .gpu/callR.sh 2    # warm (within 30 s): the second seed, TF32 on both, Auto on session 42's fitted shapes
set -u
stage=${1:?usage: callR.sh 1|2}
source .gpu/gpu-call.sh r$stage
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
if [ "$stage" = 1 ]; then
  run 560 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271250 $SC --out $R/rand-20271250-16 > $R/rand-20271250-16.log 2>&1; echo "rand 20271250 16-bit rc=$? $(left)s left"
else
  run 200 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271251 $SC --out $R/rand-20271251-16 > $R/rand-20271251-16.log 2>&1; echo "rand 20271251 16-bit rc=$? $(left)s left"
  for S in 20271250 20271251; do run 150 .gpu/bin/scorecard --kernels auto --precisions tf32 --seed $S $SC --out $R/rand-$S-tf32 > $R/rand-$S-tf32.log 2>&1; echo "rand $S tf32 rc=$? $(left)s left"; done
  FIT=5555x4444x8,20000x1500x32,15000x2050x12,4000x6000x4,9000x4097x10,756x5040x8,1500x1500x12,9000x500x12,3000x1000x8,184x37x15336,128x128x16384,72x16x3923,412x98x16264,1505x4x13967,96x1x13184
  run 60 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --sizes $FIT --plots none --vec-len 0 --out $R/fitted > $R/fitted.log 2>&1; echo "fitted rc=$? $(left)s left"
fi
# One archive: the device tool returns a limited count of files.
cd $OUT && tar czf r$stage.tgz r$stage && rm -rf r$stage
