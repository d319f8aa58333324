#!/usr/bin/env python3
"""Auto with the TMA kernels chained (each the dependent launch of the one before: mode `all`) against
mode `split` (only the zeroing overlap, as main before), alternating processes in one call.
    python3 ab.py RUN_DIR        # reads RUN_DIR/ab-{split,all}-*/scorecard.json
Prints per shape the median time of each mode, split ÷ all, and cuBLAS's ratio in each."""
import collections, glob, json, lzma, math, os, statistics, sys

def rows(path):
    f = os.path.join(path, "scorecard.json")
    d = json.load(lzma.open(f + ".xz", "rt") if not os.path.exists(f) else open(f))
    return d["rows"]

run = sys.argv[1]
t = collections.defaultdict(lambda: collections.defaultdict(list))
for mode in ("split", "all"):
    for d in sorted(glob.glob(os.path.join(run, f"ab-{mode}-*"))):
        for r in rows(d):
            if r["precision"] != "bf16" or r.get("ms") is None:
                continue
            key = "auto" if r["key"] == "auto-bf16" else ("cublas" if r["key"].startswith("cublas") else None)
            if key:
                t[(r["m"], r["n"], r["k"])][(mode, key)].append(r["ms"] * 1000)
print("| shape | split µs | all µs | split ÷ all | Auto ÷ cuBLAS, split | Auto ÷ cuBLAS, all |")
print("|---|---:|---:|---:|---:|---:|")
g = []
for (m, n, k), v in sorted(t.items(), key=lambda x: x[0][0] * x[0][1] * x[0][2]):
    med = {kk: statistics.median(x) for kk, x in v.items()}
    if ("split", "auto") not in med or ("all", "auto") not in med:
        continue
    s, a = med[("split", "auto")], med[("all", "auto")]
    g.append(s / a)
    cs, ca = med.get(("split", "cublas")), med.get(("all", "cublas"))
    print(f"| {m}×{n}×{k} | {s:.2f} | {a:.2f} | {s / a:.3f} | {cs / s:.3f} | {ca / a:.3f} |")
print(f"\nsplit ÷ all, geometric mean over {len(g)} shapes: {math.exp(sum(map(math.log, g)) / len(g)):.3f} (range {min(g):.3f}–{max(g):.3f})")
