#!/usr/bin/env bash
# Runs on the GPU machine, from the repo root, after scripts/gpu-bundle.sh prepared .gpu/ elsewhere.
# Every stage writes straight into $OUT (at most 8 files, flat) and has its own time limit
# (STAGE_TIMEOUT seconds, default 240), so a slow stage cannot take the others' results with it:
#   device.txt      nvidia-smi's view of the GPU, and the commit the bundle was built from
#   tests.log       every test executable's output (RUN_TESTS=1; TESTS: space-separated names under
#                   .gpu/tests to run only those), then the stable-Rust examples: the consumer and
#                   cust-interop, tessera's PTX through cust 0.3 (RUN_EXAMPLES=1; default 0 when TESTS is set)
#   cpu-numpy.json  numpy's SGEMM on this machine's CPU (RUN_CPU_BASELINE=1, CPU_SIZES, default 4096):
#                   the anchor the scorecard's CPU baseline is compared with (the scorecard gets
#                   --cpu-anchor-json for it, and --cpu-blas: numpy's own OpenBLAS as the baseline)
#   tools.log       compute-sanitizer memcheck / racecheck / synccheck / initcheck (RUN_SANITIZER=1,
#                   SANITIZER_TOOLS, SANITIZER_FILTER: a regex over kernel labels),
#                   criterion benches (RUN_BENCHES=1, BENCH_FILTER), Nsight Compute (RUN_NCU=1)
#   scorecard.json, scorecard.md, summary.md   the scorecard (RUN_SCORECARD=1, SCORECARD_ARGS), and the
#                   plots of SCORECARD_PLOTS (default none: the files would pass the 8; every plot is
#                   re-rendered from scorecard.json with `scorecard --replot`): roofline (one file per
#                   precision), sizes (sizes.svg). The size sweep, ~2 minutes on an H200:
#                   RUN_TESTS=0 RUN_EXAMPLES=0 RUN_SANITIZER=0 RUN_STREAMS=0 STAGE_TIMEOUT=420 \
#                     SCORECARD_PLOTS=sizes SCORECARD_ARGS="--sweep" bash .gpu/gpu-run.sh
#   streams.json, streams.svg   the copy/compute overlap demo (RUN_STREAMS=1, STREAMS_ARGS)
#   fp8-*.jsonl     kernel 25 beside cuBLASLt FP8 in one process, and torch's _scaled_mm in the same lease
#                   (RUN_FP8=1, FP8_SHAPES, FP8_RANDOM / FP8_SEED for random shapes, FP8_FORMATS)
#   grouped-*.jsonl kernel 26 (batched, grouped) beside cuBLAS in one process, torch's bmm and grouped
#                   GEMM in the same lease (RUN_GROUPED=1, GROUPED_PRECISIONS, GROUPED_ARGS)
#   fused*.jsonl    kernel 27 (bias + GELU, BF16 out) beside the plain product and cuBLAS, and torch's
#                   _addmm_activation in the same lease (RUN_FUSED=1, FUSED_SHAPES)
#   multi-gpu.json, multi-gpu.md, multi-gpu.log   GEMM across the host's GPUs and past 2^31 elements
#                   (RUN_MULTI_GPU=1, MULTI_GPU_ARGS, MULTI_GPU_TIMEOUT; off by default: with every other
#                   stage on it would pass the 8 files; run it with RUN_SCORECARD=0 RUN_STREAMS=0)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-out}
LIMIT=${STAGE_TIMEOUT:-240}
mkdir -p "$OUT"
status=0
stage() { timeout --kill-after=5 "$LIMIT" "$@"; local rc=$?; [ $rc = 124 ] && echo "TIMED OUT after ${LIMIT}s: $*"; return $rc; }
# NVLink multicast stays off (it can take a shared host's GPUs out of service); tessera never needs it.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# cudarc loads NCCL as libnccl.so (or .so.1, …); the pip package nvidia-nccl-cu13 ships libnccl.so.2.
nccl_lib=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null || true)
if [ -n "$nccl_lib" ] && [ -e "$nccl_lib/libnccl.so.2" ]; then
  mkdir -p /tmp/tessera-nccl && ln -sf "$nccl_lib/libnccl.so.2" /tmp/tessera-nccl/libnccl.so
  export LD_LIBRARY_PATH=/tmp/tessera-nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
{ echo "commit: $(cat .gpu/COMMIT 2>/dev/null)"; date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv
  echo "NCCL: ${nccl_lib:-not found}"; nvidia-smi topo -m; } > "$OUT/device.txt" 2>&1
: > "$OUT/tools.log"

selected=()
if [ "${RUN_TESTS:-1}" = 1 ]; then
  export TESSERA_SCORECARD_BIN=$PWD/.gpu/bin/scorecard  # the CLI tests run the bundled executable
  if [ -n "${TESTS:-}" ]; then
    for name in $TESTS; do selected+=(".gpu/tests/$name"); done
  else
    selected+=(.gpu/tests/*)
  fi
fi
examples_default=1; [ -n "${TESTS:-}" ] && examples_default=0
[ "${RUN_EXAMPLES:-$examples_default}" = 1 ] && selected+=(.gpu/bin/consumer .gpu/bin/cust-interop)
if [ ${#selected[@]} -gt 0 ]; then
  : > "$OUT/tests.log"
  for t in "${selected[@]}"; do
    echo "=== $t" >> "$OUT/tests.log"
    if [ ! -x "$t" ]; then status=1; echo "FAILED: $t is not in the bundle" >> "$OUT/tests.log"; continue; fi
    stage "$t" >> "$OUT/tests.log" 2>&1 || { status=1; echo "FAILED: $t" >> "$OUT/tests.log"; }
  done
  grep -E "^(===|test result|skipped|FAILED|TIMED)|\.\.\. FAILED" "$OUT/tests.log"
fi

anchor_args=()
if [ "${RUN_CPU_BASELINE:-0}" = 1 ]; then
  # numpy's own threading (OpenBLAS: all cores unless told otherwise), a warm-up, then timed runs.
  stage python3 .gpu/cpu-sgemm-numpy.py --sizes "${CPU_SIZES:-4096}" > "$OUT/cpu-numpy.json" 2>> "$OUT/tools.log" || status=1
  cat "$OUT/cpu-numpy.json"
  anchor_args=(--cpu-anchor-json "$OUT/cpu-numpy.json")
  # The baseline itself: the OpenBLAS numpy ships (scipy-openblas), bound by the scorecard at run time.
  blas=$(python3 -c "import numpy, glob, os; print((glob.glob(os.path.join(os.path.dirname(numpy.__file__), '..', 'numpy.libs', 'libscipy_openblas*.so')) or [''])[0])" 2>/dev/null)
  [ -n "$blas" ] && anchor_args+=(--cpu-blas "$blas") && echo "CPU baseline library: $blas"
fi

if [ "${RUN_SCORECARD:-1}" = 1 ]; then
  # shellcheck disable=SC2086
  stage .gpu/bin/scorecard --out "$OUT" --plots "${SCORECARD_PLOTS:-none}" "${anchor_args[@]}" ${SCORECARD_ARGS:-} > /dev/null 2>> "$OUT/tools.log" || status=1
  cat "$OUT/scorecard.md" 2>/dev/null | head -20
fi

if [ "${RUN_STREAMS:-1}" = 1 ]; then
  mkdir -p /tmp/streams-out
  # shellcheck disable=SC2086
  stage .gpu/bin/streams --out /tmp/streams-out ${STREAMS_ARGS:-} || status=1
  cp /tmp/streams-out/streams.json /tmp/streams-out/streams.svg "$OUT/" 2>/dev/null
fi

if [ "${RUN_FP8:-0}" = 1 ]; then
  fp8_shapes=${FP8_SHAPES:-4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336}
  for f in ${FP8_FORMATS:-e4m3 e5m2}; do
    stage .gpu/bin/fp8 --format "$f" --shapes "$fp8_shapes" --out "$OUT/fp8-$f.jsonl" > /dev/null 2>> "$OUT/fp8.log" || status=1
    stage python3 .gpu/bin/fp8_torch_anchor.py --format "$f" --shapes "$fp8_shapes" > "$OUT/fp8-torch-$f.jsonl" 2>> "$OUT/fp8.log" || status=1
  done
  if [ "${FP8_RANDOM:-0}" -gt 0 ]; then
    stage .gpu/bin/fp8 --shapes "" --random "$FP8_RANDOM" --seed "${FP8_SEED:-1}" --out "$OUT/fp8-random-seed${FP8_SEED:-1}.jsonl" > /dev/null 2>> "$OUT/fp8.log" || status=1
  fi
  grep "^\[fp8\]" "$OUT/fp8.log"
fi

if [ "${RUN_GROUPED:-0}" = 1 ]; then
  # Kernel 26 beside cuBLAS (strided-batched, a loop per group) in one process, then torch's bmm and
  # grouped GEMM in the same lease; GROUPED_ARGS adds to both (e.g. --seed 7).
  for p in ${GROUPED_PRECISIONS:-bf16 f16 f32}; do
    # shellcheck disable=SC2086
    stage .gpu/bin/grouped --precision "$p" --out "$OUT/grouped-$p.jsonl" ${GROUPED_ARGS:-} > /dev/null 2>> "$OUT/grouped.log" || status=1
    # shellcheck disable=SC2086
    stage python3 .gpu/bin/grouped_torch_anchor.py --precision "$p" ${GROUPED_ARGS:-} > "$OUT/grouped-torch-$p.jsonl" 2>> "$OUT/grouped.log" || status=1
  done
fi

if [ "${RUN_FUSED:-0}" = 1 ]; then
  # Kernel 27 (bias + GELU into BF16) beside the plain product and cuBLAS in one process, then
  # torch's _addmm_activation (cuBLASLt's GELU epilogue) in the same lease; FUSED_SHAPES for others.
  fused_shapes=${FUSED_SHAPES:-8192x4096x4096,8192x14336x4096,4096x4096x4096}
  stage .gpu/bin/fused --shapes "$fused_shapes" --out "$OUT/fused.jsonl" > /dev/null 2>> "$OUT/fused.log" || status=1
  stage python3 .gpu/bin/fused_torch_anchor.py --shapes "$fused_shapes" > "$OUT/fused-torch.jsonl" 2>> "$OUT/fused.log" || status=1
fi

if [ "${RUN_MULTI_GPU:-0}" = 1 ]; then
  # Link bandwidth, scaling over the GPUs, products past 2^31 elements (see the binary's --help).
  # shellcheck disable=SC2086
  LIMIT=${MULTI_GPU_TIMEOUT:-540} stage .gpu/bin/multi-gpu --out "$OUT" ${MULTI_GPU_ARGS:-} 2> "$OUT/multi-gpu.log" || status=1
  tail -5 "$OUT/multi-gpu.log"; cat "$OUT/multi-gpu.md" 2>/dev/null
fi

if [ "${RUN_BENCHES:-0}" = 1 ]; then
  # BENCH_FILTER: a criterion regex, e.g. "4096x4096x4096|bandwidth|matmul-cpu" (default: everything).
  echo "=== criterion benches ${BENCH_FILTER:-}" >> "$OUT/tools.log"
  for b in .gpu/bin/bench-*; do
    stage "$b" --bench ${BENCH_FILTER:+"$BENCH_FILTER"} >> "$OUT/tools.log" 2>&1 || status=1
  done
  grep -E "^[a-z].*/[^ ]+$|thrpt:" "$OUT/tools.log" | paste - - | awk '{print $1, $(NF-3), $(NF-2)}' | tail -30
fi

if [ "${RUN_NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
  kernel=${NCU_KERNEL:-dbuf-128x128x16}
  echo "=== ncu on matmul_${kernel//-/_} at ${NCU_SIZE:-4096}" >> "$OUT/tools.log"
  stage ncu --clock-control none -k "regex:matmul_${kernel//-/_}" -c 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    .gpu/bin/scorecard --sizes "${NCU_SIZE:-4096}" --kernels "$kernel" --repeat 1 --vec-len 0 --cpu-max-flops 0 --out /tmp/ncu-scorecard \
    >> "$OUT/tools.log" 2>&1 || status=1
  grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Issue Slots Busy|No Eligible|Block Limit Reg" "$OUT/tools.log" | head -20
fi

if [ "${RUN_SANITIZER:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  # Every tessera kernel, one run per kernel (so a slow or failing one is named), on small odd shapes
  # (not the CUDA C anchors or cuBLAS; not diagnostic_trap, which faults on purpose): each matmul
  # kernel through gpu_parity at 1×1×1, 17×33×9 (edge tiles only), 130×132×36 (float4 interior blocks
  # beside edge blocks) and K = 0 (the TMA kernels refuse those rows: they run 1×8×8, 65×264×40,
  # 64×256×584 and 130×264×2048, split K); vec_add at 1 and 1000; iterated_fma through the streams pipeline
  # with chunks that do not divide the length.
  runs=()
  for label in $(.gpu/tests/tests-gpu_parity --list 2>/dev/null | sed -n 's/^matmul_\(.*\)_1x1x1: test$/\1/p'); do
    [[ $label == auto* ]] && continue  # dispatches to the kernels above
    # SANITIZER_FILTER: an extended regex over the labels, to re-check only some kernels.
    [ -n "${SANITIZER_FILTER:-}" ] && ! [[ $label =~ $SANITIZER_FILTER ]] && continue
    runs+=(".gpu/tests/tests-gpu_parity matmul_${label}_ --skip 1024 --skip 4096 --skip 1000x --skip 260x --skip 512x --skip 2048")
  done
  # FP32 Auto's unaligned path (copy_padded_f32 around the kernels) on its small shapes.
  [ "${SANITIZER_PADDED:-1}" = 1 ] && runs+=(".gpu/tests/tests-gpu_parity fp32_padded_ --skip 1000x --skip 130x")
  # vec_add and the streams pipeline (SANITIZER_EXTRAS=0 leaves them out when re-checking matmul kernels only).
  [ "${SANITIZER_EXTRAS:-1}" = 1 ] && runs+=(".gpu/tests/tests-gpu_parity vec_add_scalar_1" ".gpu/tests/tests-gpu_parity vec_add_1" ".gpu/tests/tests-streams sequential_257_")
  # Gpu::gemm's pack and α/β epilogue kernels in each element type (SANITIZER_GEMM=0 leaves them out).
  [ "${SANITIZER_GEMM:-1}" = 1 ] && runs+=(".gpu/tests/tests-gemm _TT_ccc_17x33x9_a-1.5_b0.75" ".gpu/tests/tests-gemm _NT_rcc_17x33x9_a-1.5_b0.75")
  # Kernel 25 (every FP8 entry, pack_b8) and cuBLASLt on one small odd shape, one batch each.
  [ "${SANITIZER_FP8:-1}" = 1 ] && runs+=(".gpu/bin/fp8 --shapes 130x264x272 --repeat 1 --out /tmp/fp8-sanitizer.jsonl")
  # Kernel 26 (every tile, batched and grouped, odd shapes) through its GPU trials.
  [ "${SANITIZER_GROUPED:-1}" = 1 ] && runs+=(".gpu/tests/tests-grouped")
  # Kernel 27 (every entry, output type and epilogue, odd shapes) through its GPU trials.
  [ "${SANITIZER_FUSED:-1}" = 1 ] && runs+=(".gpu/tests/tests-fused")
  LIMIT=${SANITIZER_TIMEOUT:-90}
  for tool in ${SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}; do
    for cmd in "${runs[@]}"; do
      echo "=== compute-sanitizer --tool $tool $cmd" >> "$OUT/tools.log"
      # shellcheck disable=SC2086
      threads="--test-threads 1"; [[ $cmd == .gpu/bin/* ]] && threads=""  # test executables run serially
      stage compute-sanitizer --tool "$tool" --error-exitcode 3 $cmd $threads >> "$OUT/tools.log" 2>&1 \
        || { status=1; echo "SANITIZER FAILED: $tool $cmd" >> "$OUT/tools.log"; }
    done
  done
  grep -E "^=== compute|SUMMARY|SANITIZER FAILED|TIMED" "$OUT/tools.log" | sed 's/ --skip.*//'
fi
exit $status
