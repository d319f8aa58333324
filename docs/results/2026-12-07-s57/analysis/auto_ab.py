#!/usr/bin/env python3
"""`Auto` of two binaries run interleaved in one lease (NEW_1, MAIN_1, NEW_2, MAIN_2, …): per shape and
precision the fastest of each binary's runs, its plan, main ÷ new, and each one's ratio to cuBLAS of
the same precision (cuBLAS: the median of every run's), grouped by the shape sets given.

    python3 auto_ab.py NEW_DIRS MAIN_DIRS SET=MxNxK,… [SET=…]
(DIRS comma-separated.)
"""
import json, lzma, math, os, re, statistics, sys


def load(d):
    path = f"{d}/scorecard.json"
    return json.load(open(path) if os.path.exists(path) else lzma.open(path + ".xz"))


def collect(dirs):
    auto, cub = {}, {}
    for d in dirs:
        for r in load(d)["rows"]:
            key = (f"{r['m']}x{r['n']}x{r['k']}", r["precision"])
            us = r["ms"] * 1e3
            if r["key"].startswith("auto"):
                if key not in auto or us < auto[key][0]:
                    plan = re.sub(r" on .*", "", (r.get("plan") or "").split(";")[0])
                    grid = re.search(r"grid (\d+×\d+×\d+)", r.get("plan") or "")
                    auto[key] = (us, plan + (f" {grid.group(1)}" if grid else ""))
            elif "cublas" in r["key"].lower():
                cub.setdefault(key, []).append(us)
    return auto, {k: statistics.median(v) for k, v in cub.items()}


new, cub_n = collect(sys.argv[1].split(","))
old, cub_o = collect(sys.argv[2].split(","))
cub = {k: statistics.median([*([cub_n[k]] if k in cub_n else []), *([cub_o[k]] if k in cub_o else [])]) for k in set(cub_n) | set(cub_o)}
for spec in sys.argv[3:]:
    name, shapes = spec.split("=", 1)
    print(f"\n### {name}\n")
    print("| shape | precision | main: plan | µs | new: plan | µs | main ÷ new | main ÷ cuBLAS | new ÷ cuBLAS |")
    print("|---|---|---|---:|---|---:|---:|---:|---:|")
    rat, rn, ro = [], [], []
    for s in shapes.split(","):
        for p in ("bf16", "fp16"):
            k = (s, p)
            if k not in new or k not in old:
                continue
            (tn, pn), (to, po) = new[k], old[k]
            c = cub.get(k, float("nan"))
            rat.append(to / tn); rn.append(c / tn); ro.append(c / to)
            print(f"| {s.replace('x', '×')} | {p} | {po} | {to:.1f} | {pn} | {tn:.1f} | {to / tn:.2f} | {c / to:.2f} | {c / tn:.2f} |")
    if rat:
        g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
        print(f"\n{len(rat)} pairs: main ÷ new {g(rat):.3f} ({min(rat):.2f}–{max(rat):.2f}); `Auto` ÷ cuBLAS main {g(ro):.3f} (lowest {min(ro):.2f}), new {g(rn):.3f} (lowest {min(rn):.2f}).")
