#!/usr/bin/env python3
"""Kernel 18's 16-bit entries by name in two runs of one lease (old and new binaries): µs, the launch's
slices, old ÷ new, the rate at which the new launch read B (2·K·N bytes), and cuBLAS of the same
precision from the new run.

    python3 k18_ab.py OLD_DIR NEW_DIR
"""
import json, lzma, os, math, re, sys

def load(d):
    """A run's scorecard.json, or its .xz."""
    path = f"{d}/scorecard.json"
    return json.load(open(path) if os.path.exists(path) else lzma.open(path + ".xz"))



def rows(d):
    out = {}
    for r in load(d)["rows"]:
        out[(r["m"], r["n"], r["k"], r["key"])] = r
    return out


def slices(r):
    g = re.search(r"grid (\d+)×(\d+)×(\d+)", r.get("plan") or "")
    return int(g.group(3)) if g else 0


old, new = rows(sys.argv[1]), rows(sys.argv[2])
print("| shape | entry | old µs (slices) | new µs (slices) | old ÷ new | new: TB/s of B | cuBLAS µs |")
print("|---|---|---:|---:|---:|---:|---:|")
ratios = []
for key, rn in new.items():
    if not key[3].startswith("few-rows-") or key not in old:
        continue
    m, n, k, label = key
    ro = old[key]
    to, tn = ro["ms"] * 1e3, rn["ms"] * 1e3
    prec = "BF16" if label.endswith("bf16") else "FP16"
    cub = next((r["ms"] * 1e3 for kk, r in new.items() if kk[:3] == key[:3] and "cublas" in kk[3].lower() and r["precision"] == rn["precision"]), float("nan"))
    ratios.append(to / tn)
    print(f"| {m}×{n}×{k} | {label} | {to:.1f} ({slices(ro)}) | {tn:.1f} ({slices(rn)}) | {to / tn:.2f} | {2 * k * n / tn / 1e6:.2f} | {cub:.1f} |")
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"\n{len(ratios)} launches: old ÷ new geometric mean {g:.3f} ({min(ratios):.2f}–{max(ratios):.2f}).")
