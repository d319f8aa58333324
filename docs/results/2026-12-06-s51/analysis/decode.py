#!/usr/bin/env python3
"""Issue 34's decode shapes: Auto ÷ cuBLAS and Auto ÷ the memory roofline (A, B and C moved once at the
run's measured device-copy rate). Passes: ≥ 0.90 of the roofline or ≥ 1.00 of cuBLAS.
    python3 decode.py RUN_DIR/decode"""
import json, lzma, os, sys
d = sys.argv[1]
f = os.path.join(d, "scorecard.json")
j = json.load(open(f) if os.path.exists(f) else lzma.open(f + ".xz", "rt"))
rate = j["copy_gb_per_s"] * 1e9
t = {}
for r in j["rows"]:
    key = "auto" if r["key"].startswith("auto") and "tuned" not in r["key"] else ("cublas" if r["key"].startswith("cublas") else None)
    if key:
        t.setdefault((r["m"], r["n"], r["k"]), {})[key] = r["ms"] * 1e-3
print(f"copy rate {rate / 1e9:.0f} GB/s\n")
print("| shape | Auto µs | cuBLAS µs | Auto ÷ cuBLAS | Auto ÷ roofline | passes |")
print("|---|---:|---:|---:|---:|---|")
for (m, n, k), v in t.items():
    roof = 2 * (m * k + k * n) / rate + 4 * m * n / rate
    a, c = v["auto"], v["cublas"]
    ok = roof / a >= 0.90 or c / a >= 1.0
    print(f"| {m}×{n}×{k} | {a * 1e6:.1f} | {c * 1e6:.1f} | {c / a:.3f} | {roof / a:.3f} | {'yes' if ok else 'no'} |")
