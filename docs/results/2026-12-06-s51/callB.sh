#!/usr/bin/env bash
# Session 51, one call (bundle: branch s51-pdl — every TMA kernel the dependent launch of the one before
# it, `k15_tma::follow_prior`; scorecard, slices, tests-fp8, tests-gemm, tests-fused):
# the chained-products race test first (TMA products back to back, each reading the one before's output),
# then Auto BF16 with the chain off (`split`: only the zeroing overlap, as main) and on, alternating
# processes; the zeroing race tests; the FP8 odd shapes; issue 34's decode shapes (kernel 20's read floor);
# seed 20271257's 16-bit report, model only.
set -u
source .gpu/gpu-call.sh s51b
run 150 .gpu/tests/tests-fused chained_products_wait_for_each_other > $R/chained.log 2>&1; echo "chained rc=$? $(left)s left"; grep -E "test result|FAIL|panick" $R/chained.log | head -5
AB=512x512x512,640x640x640,768x768x768,1000x1000x1000,1400x1400x1400,2048x2048x2048,4096x4096x4096,576x576x576,1024x1024x256,256x4096x4096,8192x4096x4096,333x1111x777
for mode in split all split all; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $AB --model-only --plots none --cpu-max-flops 0 --vec-len 0 --out $R/ab-$mode-$RANDOM > $R/ab.log 2>&1; echo "ab $mode rc=$? $(left)s left"
done
run 60 .gpu/tests/tests-gemm slices_wait_for_c_zeros > $R/race.log 2>&1; echo "race rc=$? $(left)s left"; grep -E "test result" $R/race.log
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
run 70 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC --model-only --plots none --cpu-max-flops 0 --out $R/decode > $R/decode.log 2>&1; echo "decode rc=$? $(left)s left"
run 130 .gpu/tests/tests-fp8 fp8_products_match_the_reference_on_odd_shapes > $R/fp8-odd.log 2>&1; echo "fp8 odd rc=$? $(left)s left"; grep -E "test result" $R/fp8-odd.log
run 150 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed 20271257 --model-only --plots none --vec-len 0 --sizes 4096 --random-shapes 32 --out $R/rand-20271257-16 > $R/rand-20271257-16.log 2>&1; echo "rand 16-bit rc=$? $(left)s left"
cd $OUT && tar czf s51b.tgz s51b && rm -rf s51b
