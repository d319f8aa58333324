#!/usr/bin/env bash
# Session 59, call F: the BF16/FP16 entries whose SASS moved with LLVM's wgmma/setmaxnreg intrinsics
# (branch s59-aligned-intrinsics, int/scorecard) by name against main 52a6167 (old/scorecard), interleaved.
set -u
export CUDA_CACHE_PATH=/tmp/jit
source .gpu/gpu-call.sh f59
nvidia-smi --query-gpu=name --format=csv,noheader
K=pingpong-plain-bf16-64x256,pingpong-plain-f16-128x128,pingpong-plain-bf16-128x128,cluster-sk-f16-128x256,fused-f16-64x128,persistent-f16-64x256,streamk-tma-bf16-128x256
F="--plots none --vec-len 0 --cpu-max-flops 0 --model-only --precisions bf16,fp16 --sizes 4096,3000x5000x2000,8192x4096x4096"
for i in 1 2; do
  for v in old int; do
    run 40 .gpu/$v/scorecard --kernels $K $F --out $R/$v-$i > $R/$v-$i.log 2>&1; echo "$v $i rc=$? $(left)s left"
  done
done
python3 - "$R" <<'PY'
import json, sys, os
R = sys.argv[1]
t = {}
for v in ("old", "int"):
    for i in (1, 2):
        f = f"{R}/{v}-{i}/scorecard.json"
        if not os.path.exists(f): continue
        for r in json.load(open(f))["rows"]:
            if r["ms"]: t.setdefault((r["key"], r["m"], r["n"], r["k"]), {}).setdefault(v, []).append(r["ms"] * 1000)
for s, d in sorted(t.items()):
    if "old" in d and "int" in d: print(*s, "old", *[f"{x:.1f}" for x in d["old"]], "int", *[f"{x:.1f}" for x in d["int"]], f"{min(d['old'])/min(d['int']):.3f}")
PY
cd $OUT && tar czf $(basename $R).tgz $(basename $R) && rm -rf $(basename $R)
