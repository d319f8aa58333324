#!/usr/bin/env python3
"""Auto in two builds or modes, same call: per (shape, precision) the median Auto time of each side,
A ÷ B (> 1: B faster), and Auto ÷ cuBLAS (cuBLAS time ÷ Auto time) on each side.
    python3 compare.py 'RUN/glob-of-A-dirs' 'RUN/glob-of-B-dirs' [--label-a A --label-b B]
Each dir holds a scorecard.json (or .json.xz)."""
import argparse, collections, glob, json, lzma, math, os, statistics

def rows(path):
    f = os.path.join(path, "scorecard.json")
    d = json.load(lzma.open(f + ".xz", "rt") if not os.path.exists(f) else open(f))
    return d["rows"]

def times(pattern):
    t = collections.defaultdict(lambda: collections.defaultdict(list))
    for d in sorted(glob.glob(pattern)):
        for r in rows(d):
            if r.get("ms") is None:
                continue
            key = r["key"]
            kind = "auto" if key.startswith("auto-") and "tuned" not in key else ("cublas" if key.startswith("cublas") else None)
            if kind:
                t[(r["m"], r["n"], r["k"], r["precision"])][kind].append(r["ms"] * 1000)
    return {s: {k: statistics.median(v) for k, v in kv.items()} for s, kv in t.items()}

ap = argparse.ArgumentParser()
ap.add_argument("a"); ap.add_argument("b")
ap.add_argument("--label-a", default="A"); ap.add_argument("--label-b", default="B")
ap.add_argument("--all", action="store_true", help="print every shape, not only those moving ≥ 3 %")
o = ap.parse_args()
A, B = times(o.a), times(o.b)
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
print(f"| shape | precision | {o.label_a} µs | {o.label_b} µs | {o.label_a} ÷ {o.label_b} | Auto ÷ cuBLAS, {o.label_a} | Auto ÷ cuBLAS, {o.label_b} |")
print("|---|---|---:|---:|---:|---:|---:|")
per = collections.defaultdict(list); cub = collections.defaultdict(lambda: ([], []))
for s in sorted(set(A) & set(B), key=lambda s: (s[3], s[0] * s[1] * s[2])):
    if "auto" not in A[s] or "auto" not in B[s]:
        continue
    a, b = A[s]["auto"], B[s]["auto"]
    ca, cb = A[s].get("cublas"), B[s].get("cublas")
    per[s[3]].append(a / b)
    if ca and cb:
        cub[s[3]][0].append(ca / a); cub[s[3]][1].append(cb / b)
    if o.all or abs(a / b - 1) >= 0.03:
        ra = f"{ca / a:.3f}" if ca else "—"; rb = f"{cb / b:.3f}" if cb else "—"
        print(f"| {s[0]}×{s[1]}×{s[2]} | {s[3]} | {a:.2f} | {b:.2f} | {a / b:.3f} | {ra} | {rb} |")
print()
for p, g in per.items():
    ca, cb = cub[p]
    print(f"{p}: {o.label_a} ÷ {o.label_b} geomean {gm(g):.3f} over {len(g)} shapes (range {min(g):.3f}–{max(g):.3f}); "
          f"Auto ÷ cuBLAS geomean {gm(ca):.3f} ({o.label_a}, lowest {min(ca):.3f}) / {gm(cb):.3f} ({o.label_b}, lowest {min(cb):.3f})")
