#!/usr/bin/env bash
# Builds the bundles of docs/results/next-run's calls H, E and F from main and the patches there (a
# branch does not outlive its session's checkout; a patch of kernel source does), into .gpu/:
#   .gpu/h.tar.xz  call H: old/scorecard (main)
#   .gpu/e.tar.xz  call E: bin/scorecard, tests/gpu_parity (main + patches/s61-tf32-128x64.patch)
#   .gpu/f.tar.xz  call F: old/scorecard (main), bin/scorecard (main + patches/s60-aligned-intrinsics.patch)
# Each patched build runs on a temporary branch (the patch applied, the PTX rebuilt by
# scripts/ptx.sh and committed there), deleted afterwards; the checkout ends on main as it began.
# Needs a clean tree on main. Then: scripts/carry-slim.sh on; run(carry [".gpu/h.tar.xz"], command
# `mkdir -p .gpu && tar xJf .gpu/h.tar.xz -C .gpu && BUDGET=… bash .gpu/callH.sh`); the next call (E,
# then F) within 30 s on the warm machine, each unpacking only its own bundle (they share bin/, old/
# and COMMIT); carry-slim off after the last.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
[ "$(git rev-parse --abbrev-ref HEAD)" = main ] || { echo "next-run-bundles: check out main first" >&2; exit 1; }
git diff --quiet && git diff --cached --quiet || { echo "next-run-bundles: the tree has changes; commit them first" >&2; exit 1; }
T=${CARGO_TARGET_DIR:-target}/release
NR=docs/results/next-run
main=$(git rev-parse --short HEAD)
work=$(mktemp -d)
strip_into() { mkdir -p "$(dirname "$2")"; cp "$1" "$2"; strip "$2"; }
# The newest test executable of `name` cargo built (its deps file name carries a hash).
test_exe() { ls -t "$T"/deps/"$1"-* | grep -v '\.d$' | head -1; }
build() {  # touch first: cargo may otherwise keep an executable built on the other side of a switch
  touch host/ptx/*.ptx host/src/module.rs
  cargo build --release -q -p tessera-scorecard "$@"
}

echo "[next-run] main $main: scorecard" >&2
build --bin scorecard
strip_into "$T/scorecard" "$work/h/old/scorecard"

patched() {  # $1 patch name: a temporary branch with it applied and the PTX rebuilt
  git checkout -q -b "next-run-$1"
  git apply "$NR/patches/$1.patch"
  scripts/ptx.sh >&2
  git add -A device kernels catalogue emulator host
  git commit -q -m "next-run bundle: $1 (temporary)"
}
back() {
  git checkout -q main
  git branch -q -D "next-run-$1"
}

echo "[next-run] s61-tf32-128x64: scorecard, gpu_parity" >&2
patched s61-tf32-128x64
build --bin scorecard
cargo test --release -q -p tessera-tests --test gpu_parity --no-run
strip_into "$T/scorecard" "$work/e/bin/scorecard"
strip_into "$(test_exe gpu_parity)" "$work/e/tests/gpu_parity"
back s61-tf32-128x64

echo "[next-run] s60-aligned-intrinsics: scorecard" >&2
patched s60-aligned-intrinsics
build --bin scorecard
strip_into "$T/scorecard" "$work/f/bin/scorecard"
back s60-aligned-intrinsics
mkdir -p "$work/f/old"
cp "$work/h/old/scorecard" "$work/f/old/scorecard"

mkdir -p .gpu
for c in h e f; do
  C=$(echo $c | tr a-z A-Z)
  cp scripts/gpu-call.sh "$work/$c/"
  cp "$NR/call$C.sh" "$work/$c/"
  echo "main $main (old/); bin/ and tests/: main $main + the call's patch" > "$work/$c/COMMIT"
  tar cJf ".gpu/$c.tar.xz" -C "$work/$c" .
  echo "[next-run] .gpu/$c.tar.xz: $(du -h ".gpu/$c.tar.xz" | cut -f1)" >&2
done
# The PTX newer than every executable: the next build on main relinks them.
touch host/ptx/*.ptx host/src/module.rs
rm -rf "$work"
