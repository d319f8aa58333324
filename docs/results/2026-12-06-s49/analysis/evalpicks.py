#!/usr/bin/env python3
"""How good `Auto`'s pick is on every tuned-on-request line of sessions 42-48: for each line (one shape,
one precision, one run) whose pick under a model is among the kernels the line measured, the pick's
measured time over the line's fastest. Lines from H200 runs and from H100 runs apart.
    python3 evalpicks.py PLANS.csv [PLANS2.csv]   # tc_plans over the lines' shapes, one per model
With two: the lines whose pick moved, old and new pick measured, old ÷ new time."""
import collections, csv, json, lzma, math, sys

H200 = ("2026-12-05-s42/", "pingpong-pairs/", "s46/h200-", "s46/k3-")
LINES = "../../2026-12-06-s48/analysis/tuned-lines.json.xz"
PREC = {"bf16": "bf16", "fp16": "fp16", "f16": "fp16", "tf32": "tf32"}

def picks(path):
    return {(int(r["m"]), int(r["n"]), int(r["k"]), r["precision"]): r["kernel"] for r in csv.DictReader(open(path)) if r["auto"] == "1"}

lines = collections.defaultdict(dict)
for r in json.load(lzma.open(LINES, "rt")):
    if r["prec"] not in PREC or ("/work/res48/s" in r["f"] and "new" in r["f"]):
        continue  # branch s48-slices: other kernels 18 and 20
    gpu = "H200" if any(h in r["f"] for h in H200) else "H100"
    lines[(gpu, r["f"], PREC[r["prec"]], r["m"], r["n"], r["k"])][r["kernel"]] = r["meas"]
models = [picks(p) for p in sys.argv[1:]]
if len(models) == 1:
    for gpu in ("H200", "H100"):
        r = [v[models[0][(m, n, k, p)]] / min(v.values()) for (g, f, p, m, n, k), v in lines.items()
             if g == gpu and models[0].get((m, n, k, p)) in v and len(v) > 1]
        r.sort()
        print(f"{gpu}: {len(r)} lines with the pick measured; pick ÷ fastest geomean {math.exp(sum(map(math.log, r)) / len(r)):.4f}, "
              f"median {r[len(r) // 2]:.3f}, within 5 % on {sum(x <= 1.05 for x in r)}, worst {r[-1]:.2f}")
else:
    old, new = models
    for gpu in ("H200", "H100"):
        g = []
        for (gg, f, p, m, n, k), v in lines.items():
            key = (m, n, k, p)
            if gg != gpu or old.get(key) == new.get(key):
                continue
            if old.get(key) in v and new.get(key) in v:
                g.append(v[old[key]] / v[new[key]])
                print(f"  {gpu} {p} {m}×{n}×{k}: {old[key]} {v[old[key]]:.1f} → {new[key]} {v[new[key]]:.1f}")
        if g:
            print(f"{gpu}: {len(g)} moved lines measured both ways, old ÷ new geomean {math.exp(sum(map(math.log, g)) / len(g)):.3f}, range {min(g):.2f}–{max(g):.2f}")
