#!/usr/bin/env bash
# Call G (written in session 59, rebuilt in session 60 after the branch was lost; not run):
# bin/fused + tests/tests-fused = main with patches/s60-finished-tma.patch (kernel 27's finished tiles
# stored through the TMA: each staged f32 chunk finished in place, BF16/FP16 packed into unswizzled
# 16 × 32 boxes; `f32` in kernel 16's swizzled boxes); old/fused = main. Build: main's `cargo build
# --release -p tessera-scorecard --bin fused` → old/fused; then `git checkout -b s60-finished-tma &&
# git apply docs/results/next-run/patches/s60-finished-tma.patch && scripts/ptx.sh && touch
# host/ptx/*.ptx host/src/module.rs`, `cargo build --release -p tessera-scorecard --bin fused` → bin/fused,
# `cargo test --release -p tessera-tests --test fused --no-run` → tests/tests-fused; strip.
# 1. fused A/B, interleaved twice (epilogue cost, bf16 identity, the named tiles); 2. kernel 27's GPU
# tests; 3. compute-sanitizer's four tools at an odd shape whose N is a multiple of 8 (the TMA path).
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh g61
nvidia-smi --query-gpu=name --format=csv,noheader
S=4096x4096x4096,8192x4096x4096,8192x14336x4096,6398x8192x640,2000x7318x2272
K=fused-bf16-128x256,fused-bf16-128x128,pingpong-bf16-128x128
for i in 1 2; do
  for v in old bin; do
    run 50 .gpu/$v/fused --shapes $S --kernels $K --out $R/fused-$v-$i.jsonl > /dev/null 2> $R/fused-$v-$i.log; echo "fused $v $i rc=$? $(left)s left"
  done
done
python3 - "$R" <<'PY'
import json, sys, glob
R = sys.argv[1]
for v in ("old", "bin"):
    for f in sorted(glob.glob(f"{R}/fused-{v}-*.jsonl")):
        for l in open(f):
            r = json.loads(l)
            print(v, f"{r['m']}x{r['n']}x{r['k']}", " ".join(f"{k}={r[k]['ms']*1000:.1f}" for k in r if isinstance(r[k], dict) and "ms" in r[k]))
PY
run 150 .gpu/tests/tests-fused > $R/tests-fused.log 2>&1; echo "tests fused rc=$? $(left)s left"; grep -E "test result|FAIL|panic" $R/tests-fused.log | head -5
for tool in memcheck racecheck synccheck initcheck; do
  run 60 compute-sanitizer --tool $tool --error-exitcode 3 .gpu/bin/fused --shapes 200x264x136 --repeat 1 --kernels fused-bf16-128x256,fused-bf16-128x128 --out $R/san-$tool.jsonl > $R/san-$tool.log 2>&1; echo "sanitizer $tool rc=$? $(left)s left"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $R/san-$tool.log | head -2
done
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
