#!/usr/bin/env bash
# Call 2 (session 50): the overlapped zeroing, checked and priced (0beeb7b).
# 1. the race tests and sliced gemm cases (kernel 19's K fixed), the FP8 tests, GPU parity of the
#    split/persistent/stream-K/few-row/col entries, the four sanitizers on the sliced gemm cases;
# 2. the copy rate (the roofline's), then every BF16 pick the overlap's price moved (21 shapes of
#    call 1's sets and seed 777): the old and new pick by name at both slice counts (`slices`), and
#    the eight moved FP32 picks beside their old ones (scorecard, by name);
# 3. call 1's one loss (1736x1024x15720, persistent-bf16-128x256 at 2 slices, 99.9 -> 110.2 us): that
#    tile at slices 1-4 on four deep-K shapes, the overlap off and on.
set -u
source .gpu/gpu-call.sh s50c2
run 40 .gpu/tests/tests-gemm _slices --test-threads 2 > $R/gemm-slices.log 2>&1; echo "gemm slices rc=$? $(left)s left"; grep -E "test result" $R/gemm-slices.log
run 50 .gpu/bin/scorecard --kernels auto --precisions bf16 --sizes 1x4096x4096 --plots none --cpu-max-flops 0 --out $R/copy > $R/copy.log 2>&1; echo "copy rc=$? $(left)s left"
run 25 .gpu/bin/slices --shapes 48x11008x4096 --kernels tma-bf16-64x128,mma-splitk-bf16-64x128 --slices 1,3 --sampled-rows 2 --out $R/moved-48x11008x4096.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 64x11008x4096 --kernels tma-bf16-64x128,persistent-bf16-64x256 --slices 1,3 --sampled-rows 2 --out $R/moved-64x11008x4096.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 32x8192x2048 --kernels tma-bf16-64x128,persistent-bf16-64x256 --slices 1,4 --sampled-rows 2 --out $R/moved-32x8192x2048.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 1368x64x737 --kernels tma-bf16-64x128,persistent-bf16-64x128 --slices 1,3 --sampled-rows 2 --out $R/moved-1368x64x737.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 16x180x288 --kernels mma-splitk-bf16-16x128,widened-streamk-bf16-64x64 --slices 1,1 --sampled-rows 2 --out $R/moved-16x180x288.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 17x7x256 --kernels few-cols-ksplit-bf16,few-cols-bf16 --slices 1,2 --sampled-rows 2 --out $R/moved-17x7x256.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 2436x4x312 --kernels few-cols-bf16 --slices 1,2 --sampled-rows 2 --out $R/moved-2436x4x312.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 24x656x466 --kernels tma-bf16-64x128,widened-streamk-bf16-64x64 --slices 1,1 --sampled-rows 2 --out $R/moved-24x656x466.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 2x208x164 --kernels mma-splitk-bf16-16x128,widened-streamk-bf16-64x64 --slices 1,1 --sampled-rows 2 --out $R/moved-2x208x164.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 32x152x320 --kernels tma-bf16-64x128,widened-streamk-bf16-64x64 --slices 1,1 --sampled-rows 2 --out $R/moved-32x152x320.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 3x3276x296 --kernels mma-splitk-bf16-16x128,few-rows-bf16 --slices 1,5 --sampled-rows 2 --out $R/moved-3x3276x296.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 43x7424x1364 --kernels tma-bf16-64x128,persistent-bf16-64x256 --slices 1,4 --sampled-rows 2 --out $R/moved-43x7424x1364.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 576x4624x6502 --kernels persistent-bf16-128x192,persistent-bf16-128x256 --slices 1,4 --sampled-rows 2 --out $R/moved-576x4624x6502.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 576x4x2336 --kernels few-cols-ksplit-bf16,few-cols-bf16 --slices 1,10 --sampled-rows 2 --out $R/moved-576x4x2336.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 57x8x2443 --kernels few-cols-ksplit-bf16 --slices 1,7 --sampled-rows 2 --out $R/moved-57x8x2443.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 80x16x1419 --kernels few-cols-ksplit-bf16 --slices 1,3 --sampled-rows 2 --out $R/moved-80x16x1419.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 80x8x2090 --kernels few-cols-ksplit-bf16 --slices 1,6 --sampled-rows 2 --out $R/moved-80x8x2090.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 8x16x916 --kernels few-cols-ksplit-bf16,widened-streamk-bf16-64x64 --slices 1,1 --sampled-rows 2 --out $R/moved-8x16x916.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 8x6192x800 --kernels tma-bf16-64x128,persistent-bf16-64x128 --slices 1,2 --sampled-rows 2 --out $R/moved-8x6192x800.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 9431x16x1084 --kernels mma-splitk-bf16-128x32 --slices 1,2 --sampled-rows 2 --out $R/moved-9431x16x1084.jsonl > /dev/null 2>> $R/moved.log
run 25 .gpu/bin/slices --shapes 9583x16x1036 --kernels mma-splitk-bf16-128x32 --slices 1,2 --sampled-rows 2 --out $R/moved-9583x16x1036.jsonl > /dev/null 2>> $R/moved.log
echo "moved bf16 done $(left)s left"
run 60 .gpu/bin/scorecard --kernels auto,tiled,streamk-64x64x16,few-cols-4,async-64x64x16-s3,few-rows --precisions fp32 --sizes 158x113x128,17x7x256,2232x88x112,2x208x164,3x8x96,4x17x128,4x26x112,8x557x108 --plots none --vec-len 0 --cpu-max-flops 0 --out $R/moved-fp32 > $R/moved-fp32.log 2>&1; echo "moved fp32 rc=$? $(left)s left"
for mode in 0 1; do
  TESSERA_DEPENDENT_LAUNCH=$mode run 60 .gpu/bin/slices --shapes 1736x1024x15720,2048x1024x16384,1024x1024x16384,1400x1400x12000 --kernels persistent-bf16-128x256,persistent-bf16-64x256 --slices 1,2,3,4 --sampled-rows 2 --out $R/big-m$mode.jsonl > /dev/null 2> $R/big-m$mode.log; echo "big mode $mode rc=$? $(left)s left"
done
run 60 .gpu/tests/tests-fp8 --test-threads 2 > $R/fp8-tests.log 2>&1; echo "fp8 tests rc=$? $(left)s left"; grep -E "test result" $R/fp8-tests.log
for f in splitk persistent few- streamk; do
  run 45 .gpu/tests/tests-gpu_parity $f --test-threads 4 > $R/parity-$f.log 2>&1; echo "parity $f rc=$? $(left)s left"; grep -E "test result" $R/parity-$f.log
done
for tool in memcheck racecheck synccheck initcheck; do
  run 40 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gemm _slices --skip 2048x2048 --skip 262144 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|test result" $R/san-$tool.log | head -2
done
cd $OUT && tar czf s50c2.tgz s50c2 && rm -rf s50c2
