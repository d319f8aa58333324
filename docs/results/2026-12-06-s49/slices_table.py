#!/usr/bin/env python3
"""Per shape of a `slices` run: the fastest named run, `Auto`, cuBLAS, the memory roofline (A, B read
and C written once at the copy rate given, GB/s), and each kernel's measured ÷ priced time.
    python3 slices_table.py decode-slices.jsonl COPY_GB_PER_S"""
import json, math, sys
from collections import defaultdict
rows = []
for l in open(sys.argv[1]):
    try:
        rows.append(json.loads(l))
    except ValueError:  # a line cut short by the call's time limit
        pass
copy = float(sys.argv[2]) * 1e3  # bytes per µs
err = defaultdict(list)
print("| shape | roofline µs | cuBLAS µs | Auto µs | best named | µs | Auto ÷ roofline | best ÷ roofline |")
print("|---|---:|---:|---:|---|---:|---:|---:|")
for r in rows:
    m, n, k = r["m"], r["n"], r["k"]
    roof = (2 * (m * k + k * n) + 4 * m * n) / copy
    named = {key: v for key, v in r.items() if isinstance(v, dict) and "ms" in v and key not in ("cublas", "tessera_auto")}
    best = min(named, key=lambda x: named[x]["ms"])
    for key, v in named.items():
        if "predicted_ms" in v:
            err[key.rsplit("_x", 1)[0]].append(v["ms"] / v["predicted_ms"])
    us = lambda key: r[key]["ms"] * 1e3
    print(f"| {m}×{n}×{k} | {roof:.1f} | {us('cublas'):.1f} | {us('tessera_auto'):.1f} | {best} | {named[best]['ms']*1e3:.1f} | {roof/us('tessera_auto'):.2f} | {roof/(named[best]['ms']*1e3):.2f} |")
print()
for key, e in sorted(err.items()):
    e.sort()
    print(f"{key}: measured ÷ priced median {e[len(e)//2]:.2f} (range {e[0]:.2f}–{e[-1]:.2f}, {len(e)} runs)")
