#!/usr/bin/env python3
"""Rows off a sector against their aligned neighbours (size-adjusted), per tile, beside tc_model's pitch_rate
for several PITCH_LOSS:  python3 pitchfit.py ../j-447fd1d/tune"""
import json, lzma, math, collections, os, sys
f = sys.argv[1] + "/scorecard.json"
j = json.load(open(f) if os.path.exists(f) else lzma.open(f + ".xz", "rt"))
t = collections.defaultdict(dict)
for r in j["rows"]:
    if r.get("ms") and r["m"] == r["n"] == r["k"]:
        t[r["m"]][r["key"]] = r["ms"] * 1000
pairs = [(2504, 2512), (3016, 3008), (4424, 4416), (5000, 5008), (6152, 6144)]
tiles = {"persistent-bf16-128x128": (128, 128, 1), "persistent-bf16-128x256": (128, 256, 1), "cluster-bf16-128x128": (128, 128, 2),
         "cluster-bf16-192x192": (192, 192, 2), "cluster-bf16-128x256": (128, 256, 2), "cluster-sk-bf16-128x256": (128, 256, 2)}
def model(P, bm, bn, cl):
    loss = P * (1 / bn + (1 / bm if cl == 1 else 0))
    rate = max(1 - loss, 0.25)
    if cl > 1 and bn >= 256: rate = 1 - 0.5 * (1 - rate)
    return rate
obs = []
for off, on in pairs:
    for key, (bm, bn, cl) in tiles.items():
        m = (t[on][key] * (off / on) ** 3) / t[off][key]
        obs.append((key, off, m, bm, bn, cl))
for key, off, m, *_ in obs: print(f"{key:28s} {off} measured rate {m:.3f}")
for P in [24.7, 20, 17, 16, 15, 13, 11, 9]:
    e = [math.log(m / model(P, bm, bn, cl)) for _, _, m, bm, bn, cl in obs]
    print(f"P={P}: mean log err {sum(e)/len(e):+.3f}, median |log err| {sorted(abs(x) for x in e)[len(e)//2]:.3f}, rms {math.sqrt(sum(x*x for x in e)/len(e)):.3f}")
