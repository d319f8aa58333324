#!/usr/bin/env bash
# Refreshes tessera's shipped PTX modules, host/ptx/tessera.ptx (sm_90) and host/ptx/tessera_sm90a.ptx
# (the Hopper-only wgmma kernels), from the kernels/ folder.
#
#   scripts/ptx.sh           rebuild the modules and write them to host/ptx/ (commit them with the
#                            kernel change that caused it)
#   scripts/ptx.sh --check   rebuild them and fail unless each is byte-for-byte the committed file (CI)
#
# The rebuild is tessera's own build script with the `build-kernels` feature (host/build.rs): the
# pinned nightly of rust-toolchain.toml compiles kernels/ for nvptx64-nvidia-cuda through tessera-builder, which
# links it and applies the catalogue's launch bounds. The output is deterministic (no paths, no dates).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
mode=${1:-write}
case "$mode" in write|--check) ;; *) echo "usage: $0 [--check]" >&2; exit 2 ;; esac
# The build script's file in OUT_DIR, and the committed file it becomes.
modules=("tessera_kernels.ptx host/ptx/tessera.ptx" "tessera_kernels_sm90a.ptx host/ptx/tessera_sm90a.ptx")

# The build script's OUT_DIR, from cargo's JSON messages (the build's own diagnostics go to stderr).
out_dir=$(cargo check -p tessera --features build-kernels --message-format=json-render-diagnostics \
  | python3 -c '
import json, sys
for line in sys.stdin:
    try: msg = json.loads(line)
    except ValueError: continue
    if msg.get("reason") != "build-script-executed":
        continue
    # "path+file:///…/host#tessera@0.1.0" (or "…/tessera#0.1.0" when the folder has the crate name)
    source, _, fragment = msg["package_id"].rpartition("#")
    name = fragment.split("@")[0] if "@" in fragment else source.rstrip("/").rsplit("/", 1)[-1]
    if name == "tessera":
        print(msg["out_dir"])
')
[ -n "$out_dir" ] || { echo "ptx.sh: found no OUT_DIR of tessera's build script" >&2; exit 1; }

stale=0
for module in "${modules[@]}"; do
  read -r name committed <<< "$module"
  built="$out_dir/$name"
  [ -f "$built" ] || { echo "ptx.sh: the build produced no $built" >&2; exit 1; }
  summary="$(grep -c '^\.visible \.entry' "$built") entries, $(wc -c < "$built") bytes"
  if cmp -s "$built" "$committed"; then
    echo "ptx.sh: $committed is up to date with kernels/ ($summary)"
    continue
  fi
  if [ "$mode" = --check ]; then
    stale=1
    echo "ptx.sh: $committed differs from a fresh build of kernels/ ($(cmp "$built" "$committed" 2>&1 | head -1)). Entry by entry:" >&2
    scripts/ptx-compare.sh "$committed" "$built" >&2 || true
  else
    [ -f "$committed" ] && { scripts/ptx-compare.sh "$committed" "$built" || true; }
    mkdir -p "$(dirname "$committed")"
    cp "$built" "$committed"
    echo "ptx.sh: wrote $committed ($summary); commit it"
  fi
done
if [ $stale = 1 ]; then
  echo >&2
  echo "error: the committed PTX is stale. Run scripts/ptx.sh and commit host/ptx/ with the kernel change." >&2
  exit 1
fi
