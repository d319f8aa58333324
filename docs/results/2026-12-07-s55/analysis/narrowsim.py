#!/usr/bin/env python3
"""Narrow N: what a factor on the TMA tiles' price and on kernel 20's 128x32 price would do to the pick among
the kernels timed by name (pick ÷ fastest, geometric mean), on the tuning set (call K), on held-out H100
runs (calls H, I) and on session 47's tuned lines from both cards. Run from the repository root."""
import json, lzma, os, collections, math, sys
def sc(p):
    f = p + "/scorecard.json"
    j = json.load(open(f) if os.path.exists(f) else lzma.open(f + ".xz", "rt"))
    t = collections.defaultdict(dict)
    for r in j["rows"]:
        if r.get("ms") and r.get("expected_us") and not r["key"].startswith(("auto", "cublas")):
            t[(r["m"], r["n"], r["k"], r["precision"])][r["key"]] = (r["ms"] * 1000, r["expected_us"])
    return t
def tl(p):
    t = collections.defaultdict(dict)
    for r in json.load(lzma.open(p, "rt")):
        t[(r["m"], r["n"], r["k"], r["prec"])][r["kernel"]] = (r["meas"], r["exp"])
    return t
R = "docs/results/"
sets = {
 "tune k (H100)": [sc(R + "2026-12-07-s55/k-447fd1d/narrow")],
 "held H/I (H100)": [sc(R + "2026-12-07-s55/h-448175c/narrow"), sc(R + "2026-12-07-s55/h-448175c/small"), sc(R + "2026-12-07-s55/i-448175c/narrow-256")],
 "held s47 H100": [tl(R + "2026-12-06-s47/analysis/tuned-h100-s47.json.xz")],
 "held s47 H200": [tl(R + "2026-12-06-s47/analysis/tuned-h200.json.xz")],
}
TMA = ("tma-", "persistent-", "cluster-", "copyfeed-", "pingpong", "streamk-tma", "fused")
def factor(key, shape, ft, fk, nmax):
    m, n, k, p = shape
    if n > nmax: return 1.0
    if key.startswith(TMA): return ft
    if "mma-splitk" in key and key.endswith("128x32"): return fk
    return 1.0
def regret(data, ft, fk, nmax, only_narrow=True):
    logs = []; moved = 0
    for t in data:
        for shape, v in t.items():
            if only_narrow and shape[1] > 64: continue
            if len(v) < 2: continue
            best = min(us for us, e in v.values())
            pick0 = min(v, key=lambda key: v[key][1])
            pick = min(v, key=lambda key: v[key][1] * factor(key, shape, ft, fk, nmax))
            moved += pick != pick0
            logs.append(math.log(v[pick][0] / best))
    return math.exp(sum(logs) / len(logs)), len(logs), moved
for name, data in sets.items():
    base = regret(data, 1, 1, 0)
    print(f"{name}: shapes {base[1]}, pick ÷ best (timed) geomean as is {base[0]:.3f}")
    for ft, fk, nmax in [(1.2, 1, 32), (1.3, 1, 32), (1, 0.8, 32), (1.15, 0.85, 32), (1.2, 0.8, 32), (1.2, 0.8, 48), (1.3, 0.8, 48), (1.15, 0.85, 48)]:
        r = regret(data, ft, fk, nmax)
        print(f"   TMA x{ft}, k20 128x32 x{fk}, N <= {nmax}: {r[0]:.3f} (moved {r[2]})")
