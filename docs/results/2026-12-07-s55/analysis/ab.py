#!/usr/bin/env python3
"""Auto of two settings (several runs each) per shape: µs and ÷ cuBLAS per run, the time ratio of the
geometric means. Run in a call folder:  python3 ../analysis/ab.py "256=sq-1-256,sq-3-256" "128=sq-2-128,sq-4-128" """
import json, lzma, os, sys, collections, math
def load(d):
    f = d + "/scorecard.json"
    j = json.load(open(f) if os.path.exists(f) else lzma.open(f + ".xz", "rt"))
    t = collections.defaultdict(dict)
    for r in j["rows"]:
        if r.get("ms"): t[(r["m"], r["n"], r["k"], r["precision"])][r["key"].split("-")[0] if r["key"].startswith(("auto","cublas")) else r["key"]] = r["ms"] * 1000
    return t
groups = {}
for arg in sys.argv[1:]:
    label, dirs = arg.split("=")
    groups[label] = [load(d) for d in dirs.split(",")]
labels = list(groups)
keys = list(groups[labels[0]][0].keys())
print("| shape | prec | " + " | ".join(f"{l}: Auto µs (÷ cuBLAS) per run" for l in labels) + f" | {labels[1]} ÷ {labels[0]} time |")
print("|---|---|" + "---|" * (len(labels) + 1))
logs = []
for key in keys:
    cells = []; means = []
    for l in labels:
        rs = [(g[key].get("auto"), g[key].get("cublas")) for g in groups[l] if key in g]
        cells.append(", ".join(f"{a:.1f} ({c / a:.2f})" for a, c in rs if a and c))
        means.append(math.exp(sum(math.log(a) for a, c in rs if a) / len(rs)))
    r = means[0] / means[1]
    logs.append(math.log(r))
    m, n, k, p = key
    print(f"| {m}×{n}×{k} | {p} | " + " | ".join(cells) + f" | {1/r:.3f} |")
print(f"\ngeometric mean of {labels[1]} ÷ {labels[0]} time over {len(logs)}: {math.exp(-sum(logs)/len(logs)):.3f}")
