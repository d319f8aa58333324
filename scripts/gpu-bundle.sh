#!/usr/bin/env bash
# Prepares a GPU run: builds the release test executables, the scorecard, the streams demo, the
# multi-GPU driver and the criterion benches here, strips them, and puts them with the run script into .gpu/ (git-ignored).
#
# The GPU machine has no Rust: the executables travel. Then, on the GPU machine, from the repo root:
#     bash .gpu/gpu-run.sh            # writes logs, JSON and Markdown under $OUT (default ./gpu-out)
# With this workplace's device tool: run(command="bash .gpu/gpu-run.sh", carry=[".gpu"]).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

rm -rf .gpu
mkdir -p .gpu/tests .gpu/bin

echo "[bundle] building release test executables…" >&2
cargo test --release --workspace --no-run --message-format=json 2>/dev/null \
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
        # CPU-only suites (the emulator, the catalogue, unit tests, the PTX checks) run in CI; the
        # bundle carries what needs the GPU (it must stay under the 64 MiB the device tool carries).
        if pkg in ("emulator", "catalogue") or kind != "test" or name == "ptx":
            continue
        shutil.copy(msg["executable"], dest)
        print(f"[bundle]   {dest}", file=sys.stderr)
'

echo "[bundle] building the scorecard and benches…" >&2
cargo build --release -p tessera-scorecard --bins
cp target/release/scorecard target/release/streams target/release/multi-gpu .gpu/bin/
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

echo "[bundle] building the stable-Rust consumer example…" >&2
(cd examples/consumer && cargo build --release) && cp examples/consumer/target/release/tessera-consumer .gpu/bin/consumer

strip .gpu/tests/* .gpu/bin/*
cp scripts/gpu-run.sh scripts/cpu-sgemm-numpy.py .gpu/
git rev-parse --short HEAD > .gpu/COMMIT
git diff --quiet HEAD -- . ':!docs' || echo "+uncommitted" >> .gpu/COMMIT
du -sh .gpu >&2
