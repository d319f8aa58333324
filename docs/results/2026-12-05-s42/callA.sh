#!/usr/bin/env bash
# First call, from a cold machine: GPU parity and compute-sanitizer on kernel 21's 128x128 tile (awaiting measurement
# since session 41); the store-bound tuning set (short K over 7-270 MB of C, every alignment of N; shapes of earlier
# seeds, six where the model prices that tile first; three of moderate K over C beyond the L2) with the tensor cores'
# tiles by name — clusters and kernel 31's ping-pong included — and kernel 21's tiles, to price short-K products,
# admit the tile to Auto and see whether the ping-pong hides the store; issue 34's report: 32 random shapes of two
# seeds drawn in session 41 and tuned on none (20271241, 20271242) in TF32, BF16 and FP16.
set -u
source .gpu/gpu-call.sh a
run 60 .gpu/tests/tests-gpu_parity widened --test-threads 4 > $R/parity-widened.log 2>&1; echo "parity rc=$?"; grep -E "test result" $R/parity-widened.log
for tool in memcheck racecheck synccheck initcheck; do
  run 30 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/tests/tests-gpu_parity matmul_widened-bf16-128x128_ --skip 1024 --skip 4096 --skip 2048 --test-threads 1 > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$?"; grep -E "SUMMARY|test result" $R/san-$tool.log | head -2; done
SC="--plots none --vec-len 0"
TUNE=5555x4444x8,20000x1500x32,15000x2050x12,11003x5001x24,6002x7001x40,6912x2160x16,8192x8192x16,4000x6000x4,12000x3000x20,9000x4097x10,756x5040x8,5276x1200x12,1500x1500x12,9000x500x12,975x5968x16,3000x1000x8,18000x1000x704,8192x8192x512,6000x8000x256
KB=auto-bf16,cluster-bf16-128x256,cluster-bf16-128x224,cluster-bf16-128x160,persistent-bf16-128x256,persistent-bf16-128x128,tma-bf16-128x256,widened-bf16-128x128,widened-bf16-64x64,pingpong-plain-bf16-128x128,pingpong-plain-bf16-64x256
run 150 .gpu/bin/scorecard --kernels $KB --precisions bf16 --sizes $TUNE $SC --repeat 3 --out $R/tune-bf16 > $R/tune-bf16.log 2>&1; echo "tune bf16 rc=$? $(left)s left"
for S in 20271241 20271242; do run 200 .gpu/bin/scorecard --kernels auto --precisions tf32,bf16,fp16 --sizes 4096 --random-shapes 32 --seed $S $SC --out $R/rand-$S > $R/rand-$S.log 2>&1; echo "rand $S rc=$? $(left)s left"; tail -1 $R/rand-$S.log; done
cd $OUT && tar czf a.tgz a && rm -rf a
