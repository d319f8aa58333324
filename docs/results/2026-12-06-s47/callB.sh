#!/usr/bin/env bash
# Call B (session 47, warm after call A; BUDGET=580). Bundle s47-k18 as in call A. The random-shape report,
# two fresh seeds drawn for this run and tuned on by no session (20271252, 20271253), 32 shapes each, in
# BF16, FP16, TF32 and FP32 (Auto and Auto tuned on request, cuBLAS of the same precision in the same process).
set -u
source .gpu/gpu-call.sh b
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
for S in 20271252 20271253; do
  run 200 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed $S $SC --out $R/rand-$S-16 > $R/rand-$S-16.log 2>&1; echo "rand $S 16-bit rc=$? $(left)s left"
done
for S in 20271252 20271253; do
  run 90 .gpu/bin/scorecard --kernels auto --precisions tf32,fp32 --cpu-max-flops 0 --seed $S $SC --out $R/rand-$S-32 > $R/rand-$S-32.log 2>&1; echo "rand $S tf32/fp32 rc=$? $(left)s left"
done
cd $OUT && tar czf b.tgz b && rm -rf b
