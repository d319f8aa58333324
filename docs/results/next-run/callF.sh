#!/usr/bin/env bash
# Call F (written in session 60; run once in session 61 on an H100, ../2026-12-08-s61/f61: 0.95–1.00× main
# per entry with cuBLAS itself at 0.97–0.98× in the same runs — a second run decides): `wgmma` fence/commit/wait
# and `setmaxnreg` through LLVM's convergent intrinsics (patches/s60-aligned-intrinsics.patch, bin/)
# against main (old/), by name, interleaved twice, on the BF16/FP16 entries whose SASS the patch moves
# (26 of 115 sm_90a entries with one ptxas run each, session 60; FP8's moved too and ran 0.999× main
# in session 59's one run). Land the patch if they hold. Bundle: scripts/next-run-bundles.sh →
# .gpu/f.tar.xz.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh f62
nvidia-smi --query-gpu=name --format=csv,noheader
K=cluster-bf16-64x256,cluster-sk-bf16-128x256,cluster-sk-f16-128x256,fused-bf16-64x128,fused-f16-64x128,persistent-bf16-64x256,persistent-f16-64x128,pingpong-plain-bf16-128x128,pingpong-plain-f16-64x256,streamk-tma-bf16-128x256,streamk-tma-f16-128x256
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only --precisions bf16,fp16 --sizes 4096,3000x5000x2000,8192x4096x4096"
for i in 1 2; do
  for v in old bin; do
    run 45 .gpu/$v/scorecard --kernels $K $F --out $R/$v-$i > $R/$v-$i.log 2>&1; echo "$v $i rc=$? $(left)s left"
  done
done
python3 - "$R" <<'PY'
import json, sys, os
R = sys.argv[1]
t = {}
for v in ("old", "bin"):
    for i in (1, 2):
        f = f"{R}/{v}-{i}/scorecard.json"
        if not os.path.exists(f): continue
        for r in json.load(open(f))["rows"]:
            if r["ms"]: t.setdefault((r["key"], r["m"], r["n"], r["k"]), {}).setdefault(v, []).append(r["ms"] * 1000)
for s, d in sorted(t.items()):
    if "old" in d and "bin" in d: print(*s, "old", *[f"{x:.1f}" for x in d["old"]], "new", *[f"{x:.1f}" for x in d["bin"]], f"{min(d['old'])/min(d['bin']):.3f}")
PY
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
