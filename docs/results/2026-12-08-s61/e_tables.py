#!/usr/bin/env python3
"""Call E's tables: the TMA read probe (GB/s beside the copy rate), BF16 squares on and off a sector by
tile, kernel 20's decoding tiles by name against the older tiles and cuBLAS (best slice count each),
the TF32 128×64 tile.
    python3 e_tables.py DIR   (DIR: call E's results, e61/)"""
import json, os, sys
D = sys.argv[1]

def lines(path):
    out = []
    if os.path.exists(path):
        for l in open(path):
            try:
                out.append(json.loads(l))
            except ValueError:
                pass
    return out

probe = lines(f"{D}/tma-probe.jsonl")
if probe:
    head, rows = probe[0], probe[1:]
    print(f"## TMA read probe ({head['device']}, copy {head['copy_gb_per_s']:.0f} GB/s read + write)\n")
    print("| probe (W×H : box : strip : blocks : stages) | pitch mod 32 | µs | GB/s | ÷ copy |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['probe']} | {r['pitch'] % 32} | {r['ms'] * 1e3:.1f} | {r['gb_per_s']:.0f} | {r['gb_per_s'] / head['copy_gb_per_s']:.2f} |")
    print()

sl = lines(f"{D}/decode-slices.jsonl")
if sl:
    fams = ["mma-splitk-bf16-16x128", "mma-splitk-bf16-64x128", "mma-splitk-bf16-16x32", "mma-splitk-bf16-64x32",
            "mma-splitk-bf16-16x256", "mma-splitk-bf16-16x512", "persistent-bf16-64x256"]
    print("## Decode tiles by name (BF16, µs, best of the K slices timed; cuBLAS and Auto beside)\n")
    print("| shape | cuBLAS | Auto | " + " | ".join(f.replace("mma-splitk-bf16-", "k20 ").replace("persistent-bf16-", "k16 ") for f in fams) + " |")
    print("|---|" + "---:|" * (2 + len(fams)))
    for r in sl:
        cell = lambda v: f"{v['ms'] * 1e3:.1f}" if isinstance(v, dict) and "ms" in v else "—"
        best = []
        for f in fams:
            runs = [(v["ms"], k) for k, v in r.items() if k.startswith(f + "_x") and isinstance(v, dict) and "ms" in v]
            best.append(f"{min(runs)[0] * 1e3:.1f} ({min(runs)[1].rsplit('_', 1)[1]})" if runs else "—")
        print(f"| {r['m']}×{r['n']}×{r['k']} | {cell(r.get('cublas'))} | {cell(r.get('tessera_auto'))} | " + " | ".join(best) + " |")
    print()

def by_name(path, title):
    """A scorecard run's µs by shape and row key (Auto, cuBLAS and the kernels named)."""
    if not os.path.exists(path):
        return
    by = {}
    for r in json.load(open(path))["rows"]:
        if r["ms"]:
            by.setdefault((r["m"], r["n"], r["k"]), {})[r["key"]] = r["ms"] * 1e3
    keys = sorted({k for v in by.values() for k in v})
    print(f"## {title}\n")
    print("| shape | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for s, v in sorted(by.items()):
        print(f"| {s[0]}×{s[1]}×{s[2]} | " + " | ".join(f"{v[k]:.1f}" if k in v else "—" for k in keys) + " |")
    print()

by_name(f"{D}/sector-squares/scorecard.json", "BF16 squares on and off a 32-byte sector, by tile (µs)")
tf = f"{D}/tf32-cols64/scorecard.json"
if os.path.exists(tf):
    card = json.load(open(tf))
    by = {}
    for r in card["rows"]:
        if r["ms"]:
            by.setdefault((r["m"], r["n"], r["k"]), {})[r["key"]] = r["ms"] * 1e3
    keys = sorted({k for v in by.values() for k in v})
    print("## TF32 few columns by name (µs)\n")
    print("| shape | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for s, v in sorted(by.items()):
        print(f"| {s[0]}×{s[1]}×{s[2]} | " + " | ".join(f"{v[k]:.1f}" if k in v else "—" for k in keys) + " |")
