#!/usr/bin/env python3
"""Kernels timed by name in one run: per (shape, precision), each kernel's time (µs) and its ratio to
cuBLAS of the same precision (cuBLAS time ÷ kernel time), fastest first.
    python3 byname.py ../f-1a62311/tiles"""
import collections, json, lzma, os, sys

f = os.path.join(sys.argv[1], "scorecard.json")
d = json.load(lzma.open(f + ".xz", "rt") if not os.path.exists(f) else open(f))
t = collections.defaultdict(dict)
for r in d["rows"]:
    if r.get("ms"):
        t[(r["m"], r["n"], r["k"], r["precision"])][r["key"]] = r["ms"] * 1000
print("| shape | precision | kernels, fastest first: µs (÷ cuBLAS) |")
print("|---|---|---|")
for (m, n, k, p), v in t.items():
    cb = next(us for key, us in v.items() if key.startswith("cublas"))
    cells = ", ".join(f"{key} {us:.1f} ({cb / us:.2f})" for key, us in sorted(v.items(), key=lambda x: x[1]) if not key.startswith("cublas"))
    print(f"| {m}×{n}×{k} | {p} | cuBLAS {cb:.1f}; {cells} |")
