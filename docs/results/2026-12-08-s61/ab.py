#!/usr/bin/env python3
"""A/B tables of calls G and F (main as `old`, the patch as `bin`, interleaved twice in one process
order old, bin, old, bin): each row's best time of its two runs each side, old ÷ new (> 1: the patch
faster), and the geometric mean per row key. cuBLAS is in both sides' runs: its ratio is the drift.
    python3 ab.py   (from this folder) > ab.md"""
import collections, glob, json, math, os

def table(title, times):
    print(f"## {title}\n")
    print("| shape | row | old µs | new µs | old ÷ new |")
    print("|---|---|---:|---:|---:|")
    by_key = collections.defaultdict(list)
    for (shape, key), d in sorted(times.items()):
        if d.get("old") and d.get("bin"):
            o, n = min(d["old"]), min(d["bin"])
            by_key[key].append(o / n)
            print(f"| {shape} | {key} | {o:.1f} | {n:.1f} | {o / n:.3f} |")
    print("\n| row | shapes | geometric mean old ÷ new |\n|---|---:|---:|")
    for key, r in sorted(by_key.items()):
        print(f"| {key} | {len(r)} | {math.exp(sum(map(math.log, r)) / len(r)):.3f} |")
    print()

g = collections.defaultdict(lambda: collections.defaultdict(list))
for v in ("old", "bin"):
    for f in sorted(glob.glob(f"g61/fused-{v}-*.jsonl")):
        for line in open(f):
            r = json.loads(line)
            for k, x in r.items():
                if isinstance(x, dict) and "ms" in x:
                    g[(f"{r['m']}×{r['n']}×{r['k']}", k)][v].append(x["ms"] * 1e3)
table("Call G: kernel 27's finished tiles through the TMA (patches/s60-finished-tma.patch)", g)

f = collections.defaultdict(lambda: collections.defaultdict(list))
for v in ("old", "bin"):
    for i in (1, 2):
        path = f"f61/{v}-{i}/scorecard.json"
        if os.path.exists(path):
            for r in json.load(open(path))["rows"]:
                if r["ms"]:
                    f[(f"{r['m']}×{r['n']}×{r['k']}", r["key"])][v].append(r["ms"] * 1e3)
table("Call F: wgmma fence/commit/wait and setmaxnreg through LLVM's convergent intrinsics (patches/s60-aligned-intrinsics.patch)", f)
