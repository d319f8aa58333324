#!/usr/bin/env bash
# Next lease's first call (written in session 50; bundle: scorecard, slices, tests-fp8): the FP8
# odd-shapes test its split launches now overlap C's zeroing (cut off on a cold machine in session 50);
# issue 34's decode shapes with kernel 20's 64-row read floor (landed offline in session 50); seed
# 20271257's 16-bit report, model only; then the one loss of the overlap, kernel 16's 128x256 tile at
# 2 slices on 1736x1024x15720, beside neighbours, the overlap off and on; then FP32 Auto on a fresh seed.
set -u
source .gpu/gpu-call.sh next-a
run 150 .gpu/tests/tests-fp8 fp8_products_match_the_reference_on_odd_shapes > $R/fp8-odd.log 2>&1; echo "fp8 odd rc=$? $(left)s left"; grep -E "test result" $R/fp8-odd.log
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 90 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --plots none --cpu-max-flops 0 --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
run 150 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271257 --model-only --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/rand-20271257-16 > $R/rand-20271257-16.log 2>&1; echo "rand 16-bit rc=$? $(left)s left"
for mode in 0 1 0 1; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 45 .gpu/bin/slices --shapes 1736x1024x15720,1736x1024x8192,1536x1024x15720,1736x2048x15720 --kernels persistent-bf16-128x256 --slices 1,2 --sampled-rows 2 --out $R/big-m$mode-$RANDOM.jsonl > /dev/null 2>> $R/big.log; echo "big mode $mode rc=$? $(left)s left"
done
run 120 .gpu/bin/scorecard --kernels auto --precisions fp32 --seed 20271259 --model-only --cpu-max-flops 0 --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/rand-20271259-f32 > $R/rand-20271259-f32.log 2>&1; echo "rand f32 rc=$? $(left)s left"
cd $OUT && tar czf next-a.tgz next-a && rm -rf next-a
