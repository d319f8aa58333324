#!/usr/bin/env bash
# Runs on the GPU machine, from the repo root, after scripts/gpu-bundle.sh prepared .gpu/ elsewhere.
# Writes (at most 8 files, flat) under $OUT:
#   device.txt      nvidia-smi's view of the GPU
#   tests.log       every test executable's output (GPU parity, errors, PTX checks, unit tests)
#   sanitizer.log   compute-sanitizer memcheck / racecheck / synccheck / initcheck on small shapes
#   scorecard.json, scorecard.md   the scorecard (SCORECARD_ARGS overrides its options)
#   bench.log       criterion benches, when bundled and RUN_BENCHES=1
#   streams.json, streams.svg   the copy/compute overlap demo (RUN_STREAMS=1, the default; its
#                   Markdown table and text timeline go to stdout; STREAMS_ARGS overrides its options)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
status=0
{ echo "commit: $(cat .gpu/COMMIT 2>/dev/null)"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv; } > "$OUT/device.txt" 2>&1

if [ "${RUN_TESTS:-1}" = 1 ]; then
  : > "$OUT/tests.log"
  for t in .gpu/tests/*; do
    echo "=== $t" >> "$OUT/tests.log"
    "$t" >> "$OUT/tests.log" 2>&1 || { status=1; echo "FAILED: $t" >> "$OUT/tests.log"; }
  done
  echo "=== .gpu/bin/consumer (stable-Rust crate using tessera)" >> "$OUT/tests.log"
  .gpu/bin/consumer >> "$OUT/tests.log" 2>&1 || { status=1; echo "FAILED: consumer" >> "$OUT/tests.log"; }
  grep -E "^(===|test result|skipped|FAILED)|\.\.\. FAILED|matches the CPU" "$OUT/tests.log"
fi

if [ "${RUN_SANITIZER:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  : > "$OUT/sanitizer.log"
  # Every tessera kernel on small and odd shapes (not the CUDA C anchors or cuBLAS; not
  # diagnostic_trap, which faults on purpose): the matmul ladder and vec_add through gpu_parity,
  # iterated_fma through the streams pipeline with chunks that do not divide the length.
  runs=(
    ".gpu/tests/gpu_parity --skip 1024 --skip 4096 --skip 1000x --skip cuda_c --skip cublas --skip 67108864"
    ".gpu/tests/streams sequential_257_"
    ".gpu/tests/streams trace_has_every_chunk"
  )
  for tool in memcheck racecheck synccheck initcheck; do
    for cmd in "${runs[@]}"; do
      echo "=== compute-sanitizer --tool $tool $cmd" >> "$OUT/sanitizer.log"
      # shellcheck disable=SC2086
      compute-sanitizer --tool "$tool" --error-exitcode 3 $cmd >> "$OUT/sanitizer.log" 2>&1 \
        || { status=1; echo "SANITIZER FAILED: $tool $cmd" >> "$OUT/sanitizer.log"; }
    done
  done
  grep -E "^===|SUMMARY|FAILED|test result" "$OUT/sanitizer.log"
fi

if [ "${RUN_SCORECARD:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  .gpu/bin/scorecard --out "$OUT" ${SCORECARD_ARGS:-} > /dev/null 2> "$OUT/scorecard.progress" || status=1
  cat "$OUT/scorecard.md" 2>/dev/null
  tail -3 "$OUT/scorecard.progress"; rm -f "$OUT/scorecard.progress"
fi

if [ "${RUN_STREAMS:-1}" = 1 ]; then
  # Only streams.json and streams.svg come back (8 files at most); the Markdown is printed instead.
  mkdir -p /tmp/streams-out
  # shellcheck disable=SC2086
  .gpu/bin/streams --out /tmp/streams-out ${STREAMS_ARGS:-} || status=1
  cp /tmp/streams-out/streams.json /tmp/streams-out/streams.svg "$OUT/" 2>/dev/null
fi

if [ "${RUN_BENCHES:-0}" = 1 ]; then
  for b in .gpu/bin/bench-*; do [ -e "$b" ] && "$b" --bench >> "$OUT/bench.log" 2>&1 || status=1; done
  grep -E "GFLOP|GB/s|Gelem|time:" "$OUT/bench.log" | tail -40
fi
exit $status
