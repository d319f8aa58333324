#!/usr/bin/env bash
# Prepares a GPU run: builds the release test executables, the scorecard, the streams demo, the
# multi-GPU driver, the criterion benches and the stable-Rust examples (consumer, cust-interop) here,
# strips them, and puts them with the run script into .gpu/ (git-ignored).
#
# The GPU machine has no Rust: the executables travel. Then, on the GPU machine, from the repo root:
#     bash .gpu/gpu-run.sh            # writes logs, JSON and Markdown under $OUT (default ./gpu-out)
# With this workplace's device tool: run(command="bash .gpu/gpu-run.sh", carry=[".gpu"]). The tool
# carries the tracked tree too (64 MiB in all): `scripts/carry-slim.sh on` before the call and `off`
# after leave docs/results and host/ptx behind; carry a `tar cJf` of the parts of .gpu the call needs.
#
# BUNDLE_PARTS picks what to build (default "tests bins benches examples"): e.g. BUNDLE_PARTS=examples for a
# run of the examples alone (then RUN_TESTS=0 RUN_SCORECARD=0 RUN_STREAMS=0 RUN_SANITIZER=0 there).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
parts=" ${BUNDLE_PARTS:-tests bins benches examples} "

# Every executable embeds the modules of host/ptx/: measure the kernels as they are in kernels/, not
# a stale copy (scripts/ptx.sh refreshes them).
scripts/ptx.sh --check >&2

rm -rf .gpu
mkdir -p .gpu/tests .gpu/bin

if [[ $parts == *" tests "* ]]; then
  echo "[bundle] building release test executables…" >&2
  cargo test --release --workspace --exclude tessera-kernels --no-run --message-format=json 2>/dev/null \
    | python3 -c '
import json, sys, shutil, os
for line in sys.stdin:
    try: msg = json.loads(line)
    except ValueError: continue
    if msg.get("reason") == "compiler-artifact" and msg.get("profile", {}).get("test") and msg.get("executable"):
        name = msg["target"]["name"]
        kind = msg["target"]["kind"][0]
        pkg = msg["package_id"].split("#")[-1].split("@")[0].split(":")[0].removeprefix("tessera-").removeprefix("tessera")
        dest = os.path.join(".gpu/tests", f"{pkg or 'tessera'}-{name}" if kind == "test" else f"unit-{name}")
        # CPU-only suites (the emulator, the catalogue, unit tests, the PTX and layering checks) run in CI; the
        # bundle carries what needs the GPU (it must stay under the 64 MiB the device tool carries).
        if pkg in ("emulator", "catalogue") or kind != "test" or name in ("ptx", "layering"):
            continue
        shutil.copy(msg["executable"], dest)
        print(f"[bundle]   {dest}", file=sys.stderr)
'
fi

if [[ $parts == *" bins "* ]]; then
  echo "[bundle] building the scorecard and benches…" >&2
  cargo build --release -p tessera-scorecard --bins
  tdir=${CARGO_TARGET_DIR:-target}
  cp "$tdir"/release/scorecard "$tdir"/release/streams "$tdir"/release/multi-gpu "$tdir"/release/fp8 "$tdir"/release/grouped "$tdir"/release/fused "$tdir"/release/slices .gpu/bin/
  cp scripts/torch_timing.py scripts/fp8_torch_anchor.py scripts/grouped_torch_anchor.py scripts/fused_torch_anchor.py .gpu/bin/
  cp scripts/gpu-call.sh .gpu/
fi

if [[ $parts == *" benches "* ]]; then
  echo "[bundle] building the criterion benches…" >&2
  if cargo bench --no-run --message-format=json -p tessera-benches >/dev/null 2>&1; then
    cargo bench --no-run --message-format=json -p tessera-benches 2>/dev/null | python3 -c '
import json, sys, shutil, os
for line in sys.stdin:
    try: msg = json.loads(line)
    except ValueError: continue
    if msg.get("reason") == "compiler-artifact" and "bench" in msg["target"]["kind"] and msg.get("executable"):
        shutil.copy(msg["executable"], os.path.join(".gpu/bin", "bench-" + msg["target"]["name"]))
'
  fi
fi

if [[ $parts == *" examples "* ]]; then
  echo "[bundle] building the stable-Rust examples (consumer, cust-interop)…" >&2
  # Each example builds in its own target dir, or in CARGO_TARGET_DIR where it is set (absolute).
  edir=${CARGO_TARGET_DIR:-}
  (cd examples/consumer && cargo build --release) && cp "${edir:-examples/consumer/target}"/release/tessera-consumer .gpu/bin/consumer
  # cust links libcuda at build time: the stand-in here, the GPU machine's real driver at run time.
  scripts/cuda-stub.sh target/cuda-stub >&2
  (cd examples/cust-interop && CUDA_LIBRARY_PATH="$PWD/../../target/cuda-stub" cargo build --release)
  cp "${edir:-examples/cust-interop/target}"/release/tessera-cust-interop .gpu/bin/cust-interop
  # A user's own kernels (built by tessera-builder in its build.rs): parity and bandwidth, its GPU tests,
  # and the torch anchor of the same lease.
  (cd examples/own-kernel && cargo build --release --bin own-kernel-gpu && cargo test --release --test gpu --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json, sys; [print(m["executable"]) for m in map(json.loads, sys.stdin) if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gpu"]' \
    | xargs -I{} cp {} ../../.gpu/tests/own-kernel-gpu)
  cp "${edir:-examples/own-kernel/target}"/release/own-kernel-gpu .gpu/bin/own-kernel-gpu
  cp examples/own-kernel/scripts/torch_anchor.py .gpu/bin/
fi

find .gpu/tests .gpu/bin -type f ! -name '*.py' -exec strip {} +
cp scripts/gpu-run.sh scripts/cpu-sgemm-numpy.py .gpu/
git rev-parse --short HEAD > .gpu/COMMIT
git diff --quiet HEAD -- . ':!docs' || echo "+uncommitted" >> .gpu/COMMIT
du -sh .gpu >&2
