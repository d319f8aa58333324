#!/usr/bin/env bash
# The wgmma-rate run (branch wgmma-rate): the ceiling tests (exact outputs), the scorecard in TF32, BF16,
# FP16 at 4096³ with the mma.sync and wgmma ceilings, SM clock / power samples during it, then
# compute-sanitizer memcheck and racecheck over the wgmma_rate kernels.
set -u
tar -xJf .gpu-rate/gpu.tar.xz
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 200 > "$OUT/clocks.csv" 2>&1 &
smi=$!
RUN_TESTS=1 TESTS="scorecard-mma_rate" RUN_EXAMPLES=0 RUN_STREAMS=0 RUN_SANITIZER=0 STAGE_TIMEOUT=110 \
  SCORECARD_ARGS='--precisions tf32,bf16,fp16 --sizes 4096 --repeat 3 --cpu-max-flops 0' bash .gpu/gpu-run.sh
rc=$?
kill "$smi"
grep -E "wgmma|mma.sync ceiling" "$OUT/tools.log"
for tool in memcheck racecheck; do
  echo "=== compute-sanitizer --tool $tool scorecard-mma_rate wgmma_rate_exact_per_precision" >> "$OUT/sanitizer.log"
  timeout 25 compute-sanitizer --tool "$tool" --error-exitcode 3 .gpu/tests/scorecard-mma_rate wgmma_rate_exact --test-threads 1 >> "$OUT/sanitizer.log" 2>&1
  echo "exit $?" >> "$OUT/sanitizer.log"
done
grep -E "^===|SUMMARY|^exit|test result" "$OUT/sanitizer.log"
exit $rc
