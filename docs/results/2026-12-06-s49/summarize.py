#!/usr/bin/env python3
"""Prints session 49's tables from its call folders (run from this folder):
    python3 summarize.py > tables.md"""
import csv, io, json, lzma, math, os, subprocess

def load(path):
    op = lzma.open if path.endswith(".xz") else open
    return json.load(op(path, "rt"))

def jsonl(path):
    out = []
    for l in open(path):
        try:
            out.append(json.loads(l))
        except ValueError:  # a line cut short by a call's time limit
            pass
    return out

def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))

# 1. narrow_register_rate by name (call 1).
d = load("c1-fd61f88/t-by-name/scorecard.json.xz")
t = {}
for r in d["rows"]:
    t.setdefault(r["size"], {})[r["key"]] = r["ms"] * 1e3
keys = ["persistent-tf32-128x128", "persistent-tf32-128x256", "tma-tf32-128x256", "streamk-tma-tf32-128x256"]
print("## 1. `narrow_register_rate` on the GPU (call 1, H100, TF32, µs)\n")
print("| shape | old pick: persistent 128×128 | persistent 128×256 | tma 128×256 | stream-K tma 128×256 | `Auto` (new) | cuBLAS | old ÷ new |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
ratios = []
for s, v in t.items():
    ratios.append(v[keys[0]] / v["auto-tf32"])
    print(f"| {s} | " + " | ".join(f"{v[k]:.1f}" for k in keys) + f" | {v['auto-tf32']:.1f} | {v['cublas-tf32']:.1f} | {ratios[-1]:.3f} |")
print(f"\nGeometric mean old ÷ new {gmean(ratios):.3f} (range {min(ratios):.3f}–{max(ratios):.3f}), 13 shapes.\n")

# 2. Batches and groups, BF16 and FP32, beside torch (call 1).
print("## 2. Batches and groups beside torch (call 1, H100, µs)\n")
for prec in ["bf16", "f32"]:
    torch = {}
    for r in jsonl(f"c1-fd61f88/grouped-torch-{prec}.jsonl"):
        torch[(r["kind"], r.get("count", r.get("groups")), r["m"], r["n"], r["k"])] = r
    print(f"**{prec.upper()}**\n")
    print("| product | `Auto` (f32 C) | `Auto` (16-bit C) | best tile | cuBLAS | torch | `Auto` ÷ torch (like C) |")
    print("|---|---:|---:|---|---:|---:|---:|")
    for r in jsonl(f"c1-fd61f88/grouped-{prec}.jsonl"):
        key = (r["kind"], r.get("count", r.get("groups")), r["m"], r["n"], r["k"])
        tm = r["times"]
        us = lambda k: tm[k]["ms"] * 1e3 if k in tm and tm[k].get("ms") else float("nan")
        tr = torch.get(key, {})
        torch_us = (tr.get("bmm_ms") or tr.get("grouped_mm_ms") or float("nan")) * 1e3
        anchor = "cublas" if "cublas" in tm else "cublas_loop"
        tiles = {k: us(k) for k in tm if k.startswith("tessera_") and "auto" not in k}
        best = min(tiles, key=tiles.get)
        like = us("tessera_auto_out16") if prec != "f32" else us("tessera_auto")
        name = f"{key[1]} × {key[2]}×{key[3]}×{key[4]}" if key[0] == "batched" else f"{key[1]} groups, {key[2]} rows, N {key[3]}, K {key[4]}"
        print(f"| {name} | {us('tessera_auto'):.1f} | {us('tessera_auto_out16'):.1f} | {best[8:]} {tiles[best]:.1f} | {us(anchor):.1f} | {torch_us:.1f} | {torch_us / like:.3f} |")
    print()

# 3. Kernel 28's 128×128×8 batch tile (call 3; branch s49-k28-x8, not landed).
print("## 3. Kernel 28's 128×128×8 batch tile (call 3, H100, FP32, µs; branch `s49-k28-x8`)\n")
torch = {(r["count"], r["m"], r["n"], r["k"]): r["bmm_ms"] * 1e3 for r in jsonl("c3-a4566aa/grouped-torch-f32.jsonl")}
tiles = ["128x128x8", "128x128x16", "64x64x16", "128x256x16"]
print("| batch | " + " | ".join(tiles) + " | `Auto` (with 128×128×8) | cuBLAS | torch.bmm |")
print("|---|" + "---:|" * (len(tiles) + 3))
for r in jsonl("c3-a4566aa/grouped-f32.jsonl"):
    tm = r["times"]
    us = lambda k: tm[k]["ms"] * 1e3
    key = (r["count"], r["m"], r["n"], r["k"])
    print(f"| {r['count']} × {r['m']}×{r['n']}×{r['k']} | " + " | ".join(f"{us('tessera_batched-f32-' + x):.1f}" for x in tiles)
          + f" | {us('tessera_auto'):.1f} | {us('cublas'):.1f} | {torch[key]:.1f} |")
print()

# 4. Decode (call 2): the tuning set by slices, and issue 34's shapes.
print("## 4. Decode, BF16 (call 2, H100)\n")
d = load("c2-64bfd90/decode/scorecard.json")
copy = d["copy_gb_per_s"] * 1e3
print(f"Copy rate {d['copy_gb_per_s']:.0f} GB/s. Tuning set, by K slices (µs; `slices_table.py`):\n")
print(subprocess.run(["python3", "slices_table.py", "c2-64bfd90/decode-slices.jsonl", str(d["copy_gb_per_s"])], capture_output=True, text=True).stdout)
t = {}
for r in d["rows"]:
    t.setdefault((r["m"], r["n"], r["k"]), {})[r["key"]] = r["ms"] * 1e3
print("Issue 34's decode shapes (roofline: A and B read, C written once at the copy rate):\n")
print("| shape | roofline µs | `Auto` µs | tuned µs | cuBLAS µs | `Auto` ÷ roofline | `Auto` ÷ cuBLAS |")
print("|---|---:|---:|---:|---:|---:|---:|")
for (m, n, k), v in t.items():
    roof = (2 * (m * k + k * n) + 4 * m * n) / copy
    print(f"| {m}×{n}×{k} | {roof:.1f} | {v['auto-bf16']:.1f} | {v['auto-bf16-tuned']:.1f} | {v['cublas-bf16']:.1f} | {roof / v['auto-bf16']:.2f} | {v['cublas-bf16'] / v['auto-bf16']:.2f} |")
