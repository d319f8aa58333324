#!/usr/bin/env bash
# Session 45, call R1 (bundle 3eb69ec: kernel 19's one-loop GEMV body and its refit): the random-shape
# report in BF16 and FP16 on the two seeds drawn for it and tuned on none (20271248, 20271249), then
# Auto beside the few-cols entries and cuBLAS on the 15 held-out few-column shapes of the refit.
# The first scorecard of a fresh bundle compiles the module: its limit is generous.
set -u
source .gpu/gpu-call.sh r1
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
run 300 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271248 $SC --out $R/rand-20271248-16 > $R/rand-20271248-16.log 2>&1; echo "rand 20271248 16-bit rc=$? $(left)s left"
run 200 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271249 $SC --out $R/rand-20271249-16 > $R/rand-20271249-16.log 2>&1; echo "rand 20271249 16-bit rc=$? $(left)s left"
HELD=855x1x1512,96x1x13184,352x5x7505,1505x4x13967,9000x1x9000,1245x1x5840,1816x5x7665,13000x6x3500,3333x12x3333,275x3x2425,322x8x1431,3264x16x800,584x1x368,14104x4x2161,48x16x3730
run 60 .gpu/bin/scorecard --precisions bf16,fp16 --kernels auto,few-cols-bf16,few-cols-ksplit-bf16,few-cols-f16,few-cols-ksplit-f16 --sizes $HELD --plots none --vec-len 0 --out $R/held > $R/held.log 2>&1; echo "held rc=$? $(left)s left"
cd $OUT && tar czf r1.tgz r1 && rm -rf r1
