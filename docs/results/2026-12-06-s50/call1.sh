#!/usr/bin/env bash
# Call 1 (session 50): split launches overlapping C's zeroing (dependent launch, ed79dee).
# First the race tests (large C, short K, forced slices) and the sliced gemm cases; then Auto timed
# with the overlap off (TESSERA_DEPENDENT_LAUNCH=0: the zero kernel, then the split launch after it)
# and on, in separate processes, alternating: BF16 on issue 34's decode shapes (report), session 49's
# decode tuning set and the 28 shapes of seed 5151 whose pick splits (tuning), FP32 on the 11 split
# picks of seed 5150 (tuning); then the FP8 tests, GPU parity and the four sanitizers on the sliced
# gemm cases.
set -u
source .gpu/gpu-call.sh s50c1
DEC=1x4096x4096,8x4096x4096,16x4096x4096,32x4096x4096,64x4096x4096,1x14336x4096,8x14336x4096,16x14336x4096,32x14336x4096,64x14336x4096,1x4096x14336,8x4096x14336,16x4096x14336,32x4096x14336,64x4096x14336
TUNE=4x5120x5120,24x5120x5120,48x5120x5120,64x5120x5120,4x11008x4096,24x11008x4096,48x11008x4096,64x11008x4096,4x4096x11008,24x4096x11008,48x4096x11008,64x4096x11008,32x8192x2048,32x2048x8192
BF16T=10032x16x10112,1264x3x4848,128x5852x14772,1601x2x5664,16x303x8988,16x68x11016,16x884x2158,1736x1024x15720,190x144x6786,24x13x8257,261x616x13628,280x1575x15128,3063x8x2192,41x19x13871,4368x3x3462,4683x4x4032,47x768x2432,48x1604x13980,4x20x3567,4x84x11844,624x8x656,64x8x12760,72x9765x4224,80x1148x2256,80x8x11436,832x17x7760,8x1840x2055,8x815x730
FP32T=7007x16x15941,10760x16x2672,225x456x284,4x128x5760,1856x11x5264,32x2739x1840,100x880x2124,572x12x13839,4x3635x6385,32x8204x10656,6328x8x616
run 90 .gpu/tests/tests-gemm _slices --test-threads 2 > $R/gemm-slices.log 2>&1; echo "gemm slices rc=$? $(left)s left"; grep -E "test result" $R/gemm-slices.log
for pass in 1 2; do
  for mode in 0 1; do
    TESSERA_DEPENDENT_LAUNCH=$mode run 100 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes $DEC,$TUNE,$BF16T --plots none --vec-len 0 --cpu-max-flops 0 --out $R/bf16-m$mode-p$pass > $R/bf16-m$mode-p$pass.log 2>&1; echo "bf16 mode $mode pass $pass rc=$? $(left)s left"
    TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/scorecard --kernels auto --precisions fp32 --sizes $FP32T --plots none --vec-len 0 --cpu-max-flops 0 --out $R/fp32-m$mode-p$pass > $R/fp32-m$mode-p$pass.log 2>&1; echo "fp32 mode $mode pass $pass rc=$? $(left)s left"
  done
done
run 60 .gpu/tests/tests-fp8 --test-threads 2 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$? $(left)s left"; grep -E "test result" $R/fp8-tests.log
run 150 .gpu/tests/tests-gpu_parity --test-threads 4 > $R/parity.log 2>&1; echo "parity rc=$? $(left)s left"; grep -E "test result" $R/parity.log
for tool in memcheck racecheck synccheck initcheck; do
  run 45 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gemm _slices --skip 2048x2048 --skip 262144 --skip 16x262144 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
cd $OUT && tar czf s50c1.tgz s50c1 && rm -rf s50c1
