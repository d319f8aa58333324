#!/usr/bin/env bash
# Call C (session 47, warm after call B; run inline with BUDGET=330): seed 20271252 again — call B's
# first run on the machine timed out compiling modules (its partial rows kept in b-02fe438).
set -u
source .gpu/gpu-call.sh c
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
S=20271252
run 210 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed $S $SC --out $R/rand-$S-16 > $R/rand-$S-16.log 2>&1; echo "rand $S 16-bit rc=$? $(left)s left"
run 110 .gpu/bin/scorecard --kernels auto --precisions tf32,fp32 --cpu-max-flops 0 --seed $S $SC --out $R/rand-$S-32 > $R/rand-$S-32.log 2>&1; echo "rand $S tf32/fp32 rc=$? $(left)s left"
cd $OUT && tar czf c.tgz c && rm -rf c
