#!/usr/bin/env bash
# Runs on the GPU machine, from the repo root, after scripts/gpu-bundle.sh prepared .gpu/ elsewhere.
# Writes (at most 8 files, flat) under $OUT:
#   device.txt      nvidia-smi's view of the GPU, and the commit the bundle was built from
#   scorecard.json, scorecard.md, roofline.svg   the scorecard (SCORECARD_ARGS overrides its options)
#   streams.json, streams.svg   the copy/compute overlap demo (RUN_STREAMS=1, the default; its
#                   Markdown table and text timeline go to stdout; STREAMS_ARGS overrides its options)
#   logs.tar.gz     tests.log (every test executable), sanitizer.log (compute-sanitizer memcheck,
#                   racecheck, synccheck, initcheck), bench.log (criterion, RUN_BENCHES=1),
#                   ncu.txt (Nsight Compute on one kernel, RUN_NCU=1)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
LOGS=$(mktemp -d)
mkdir -p "$OUT"
status=0
trap 'tar -C "$LOGS" -czf "$OUT/logs.tar.gz" . 2>/dev/null' EXIT
{ echo "commit: $(cat .gpu/COMMIT 2>/dev/null)"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv; } > "$OUT/device.txt" 2>&1

if [ "${RUN_TESTS:-1}" = 1 ]; then
  : > "$LOGS/tests.log"
  for t in .gpu/tests/*; do
    echo "=== $t" >> "$LOGS/tests.log"
    "$t" >> "$LOGS/tests.log" 2>&1 || { status=1; echo "FAILED: $t" >> "$LOGS/tests.log"; }
  done
  echo "=== .gpu/bin/consumer (stable-Rust crate using tessera)" >> "$LOGS/tests.log"
  .gpu/bin/consumer >> "$LOGS/tests.log" 2>&1 || { status=1; echo "FAILED: consumer" >> "$LOGS/tests.log"; }
  grep -E "^(===|test result|skipped|FAILED)|\.\.\. FAILED|matches the CPU" "$LOGS/tests.log"
fi

if [ "${RUN_SANITIZER:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  : > "$LOGS/sanitizer.log"
  # Every tessera kernel on small and odd shapes (not the CUDA C anchors or cuBLAS; not
  # diagnostic_trap, which faults on purpose): the matmul ladder and vec_add through gpu_parity,
  # iterated_fma through the streams pipeline with chunks that do not divide the length.
  runs=(
    ".gpu/tests/tests-gpu_parity --skip 1024 --skip 4096 --skip 1000x --skip 260x --skip 512x --skip cuda_c --skip cublas --skip 67108864"
    ".gpu/tests/tests-streams sequential_257_"
    ".gpu/tests/tests-streams trace_has_every_chunk"
  )
  for tool in memcheck racecheck synccheck initcheck; do
    for cmd in "${runs[@]}"; do
      echo "=== compute-sanitizer --tool $tool $cmd" >> "$LOGS/sanitizer.log"
      # shellcheck disable=SC2086
      compute-sanitizer --tool "$tool" --error-exitcode 3 $cmd >> "$LOGS/sanitizer.log" 2>&1 \
        || { status=1; echo "SANITIZER FAILED: $tool $cmd" >> "$LOGS/sanitizer.log"; }
    done
  done
  grep -E "^===|SUMMARY|FAILED|test result" "$LOGS/sanitizer.log"
fi

if [ "${RUN_SCORECARD:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  .gpu/bin/scorecard --out "$OUT" ${SCORECARD_ARGS:-} > /dev/null 2> "$LOGS/scorecard.progress" || status=1
  cat "$OUT/scorecard.md" 2>/dev/null
  tail -3 "$LOGS/scorecard.progress"
fi

if [ "${RUN_STREAMS:-1}" = 1 ]; then
  # Only streams.json and streams.svg come back (8 files at most); the Markdown is printed instead.
  mkdir -p /tmp/streams-out
  # shellcheck disable=SC2086
  .gpu/bin/streams --out /tmp/streams-out ${STREAMS_ARGS:-} || status=1
  cp /tmp/streams-out/streams.json /tmp/streams-out/streams.svg "$OUT/" 2>/dev/null
fi

if [ "${RUN_BENCHES:-0}" = 1 ]; then
  # BENCH_FILTER: a criterion regex, e.g. "4096x4096x4096|bandwidth|matmul-cpu" (default: everything).
  for b in .gpu/bin/bench-*; do
    # shellcheck disable=SC2086
    [ -e "$b" ] && "$b" --bench ${BENCH_FILTER:+"$BENCH_FILTER"} >> "$LOGS/bench.log" 2>&1 || status=1
  done
  grep -E "^[a-z].*/|thrpt:" "$LOGS/bench.log" | grep -v "^Benchmarking" | paste - - | awk '{print $1, $2, $3, $(NF-3), $(NF-2), $(NF-1), $NF}' | tail -40
fi

if [ "${RUN_NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
  kernel=${NCU_KERNEL:-dbuf-128x128x16}
  ncu --clock-control none -k "regex:matmul_${kernel//-/_}" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    .gpu/bin/scorecard --sizes "${NCU_SIZE:-4096}" --kernels "$kernel" --repeat 1 --vec-len 0 --cpu-max-flops 0 --out "$LOGS/ncu-scorecard" \
    > "$LOGS/ncu.txt" 2>&1 || status=1
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|No Eligible|Stall|Block Limit" "$LOGS/ncu.txt" | head -30
fi
exit $status
