#!/usr/bin/env bash
# Call 3 (session 50): the FP8 products on odd shapes (their split launches now overlap C's zeroing;
# call 2 ran out of time there), then the random-shape report on two fresh seeds (20271257, 20271258:
# drawn for this run, tuned on by no session), BF16, FP16 and TF32 Auto beside cuBLAS, the code of a1762b6
# (the overlap on, Auto's prices as before it).
set -u
source .gpu/gpu-call.sh s50c3
run 100 .gpu/tests/tests-fp8 fp8_products_match_the_reference_on_odd_shapes --test-threads 4 > $R/fp8-odd.log 2>&1; echo "fp8 odd rc=$? $(left)s left"; grep -E "test result" $R/fp8-odd.log
SC="--plots none --vec-len 0 --sizes 4096 --random-shapes 32"
for S in 20271257 20271258; do
  run 190 .gpu/bin/scorecard --kernels auto --precisions bf16,fp16 --seed $S $SC --out $R/rand-$S-16 > $R/rand-$S-16.log 2>&1; echo "rand $S 16-bit rc=$? $(left)s left"
  run 70 .gpu/bin/scorecard --kernels auto --precisions tf32 --cpu-max-flops 0 --seed $S $SC --out $R/rand-$S-tf32 > $R/rand-$S-tf32.log 2>&1; echo "rand $S tf32 rc=$? $(left)s left"
done
cd $OUT && tar czf s50c3.tgz s50c3 && rm -rf s50c3
