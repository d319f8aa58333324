#!/usr/bin/env bash
# Session 59, call E. bin/ = branch s59-epilogue-ilp c57e374 (k15 store_finished: chunks written out,
# rows unrolled), bin2/ = branch s59-epilogue-ilp2 146569c (two passes of rows an iteration, a loop), old/ = main 52a6167, int/fp8 = branch s59-aligned-intrinsics (wgmma fence/commit/wait
# and setmaxnreg through LLVM's intrinsics). Fused epilogue A/B (kernel 27, BF16) and FP8 A/B
# (kernel 25, GELU BF16 beside plain), interleaved; then kernel 27's GPU tests on the branch.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh e59
nvidia-smi --query-gpu=name --format=csv,noheader
S=4096x4096x4096,8192x4096x4096,6398x8192x640,2000x7318x2272
P=4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336
K=fused-bf16-128x256,pingpong-bf16-128x128
for i in 1 2; do
  for v in old bin bin2; do
    run 40 .gpu/$v/fused --shapes $S --kernels $K --out $R/fused-$v-$i.jsonl > /dev/null 2> $R/fused-$v-$i.log; echo "fused $v $i rc=$? $(left)s left"
  done
  for v in old bin bin2 int; do
    run 45 .gpu/$v/fp8 --format e4m3 --shapes $P --random 2 --seed 58001 --out $R/fp8-$v-$i.jsonl > /dev/null 2> $R/fp8-$v-$i.log; echo "fp8 $v $i rc=$? $(left)s left"
  done
done
python3 - "$R" <<'PY'
import json, sys, glob
R = sys.argv[1]
def load(pat):
    out = {}
    for f in sorted(glob.glob(f"{R}/{pat}")):
        for l in open(f):
            r = json.loads(l); out.setdefault((r["m"], r["n"], r["k"]), []).append(r)
    return out
for name in ("fused", "fp8"):
    for v in ("old", "bin", "bin2", "int"):
        d = load(f"{name}-{v}-*.jsonl")
        for s, rs in sorted(d.items()):
            keys = [k for k in rs[0] if k.endswith("_us")]
            print(name, v, "x".join(map(str, s)), " ".join(f"{k[:-3]}={min(r.get(k) or 1e9 for r in rs):.1f}" for k in keys))
PY
run 150 .gpu/tests/tests-fused > $R/tests-fused.log 2>&1; echo "tests fused rc=$? $(left)s left"; grep -E "test result|FAIL|panic" $R/tests-fused.log | head -5
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
