#!/usr/bin/env python3
"""Call F's chain placement runs: one kernel by name per shape, chain off (`split`), on (`all`) and on
with one block per SM (`spread`), two rounds each; the kernel's time (µs) per run and the ratios of
the round means (> 1: the second faster).
    python3 chain.py ../f-1a62311 chain      # kernel 15's 64×128 BF16 tile
    python3 chain.py ../f-1a62311 chaintf    # kernel 20's 16×128 TF32 tile"""
import json, lzma, os, sys

def load(path):
    f = os.path.join(path, "scorecard.json")
    d = json.load(lzma.open(f + ".xz", "rt") if not os.path.exists(f) else open(f))
    return {(r["m"], r["n"], r["k"]): r["ms"] * 1000 for r in d["rows"] if not r["key"].startswith("cublas")}

run, prefix = sys.argv[1], sys.argv[2]
runs = {f"{m}-{i}": load(os.path.join(run, f"{prefix}-{m}-{i}")) for m in ("split", "all", "spread") for i in (1, 2)}
print("| shape | off 1 | off 2 | on 1 | on 2 | spread 1 | spread 2 | off ÷ on | on ÷ spread |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s in runs["split-1"]:
    v = [runs[k][s] for k in ("split-1", "split-2", "all-1", "all-2", "spread-1", "spread-2")]
    off, on, spread = (v[0] + v[1]) / 2, (v[2] + v[3]) / 2, (v[4] + v[5]) / 2
    print(f"| {'×'.join(map(str, s))} | " + " | ".join(f"{x:.2f}" for x in v) + f" | {off / on:.3f} | {on / spread:.3f} |")
