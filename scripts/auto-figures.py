#!/usr/bin/env python3
"""Issue 14's figures of FP32 `Auto` from scorecard runs (`scorecard.json` or `.json.xz`).

    python3 scripts/auto-figures.py RUN/scorecard.json[.xz] ...

Per run and per `Auto` row (`auto-fp32`: the model; `auto-fp32-tuned`: tuned on request): the
geometric mean and the lowest of cuBLAS ÷ its time, shapes below 0.60 of cuBLAS, and where the run
has the catalogue's kernels, the lowest of best kernel ÷ its time and the shapes below 0.95 (the best
of the catalogue's kernels on the shape: `Auto`'s own rows, its padded path included, are not
kernels), with each such shape, the fastest kernel and the ratio. Also whether every product's check
was `ok`.
"""
import collections
import json
import lzma
import math
import sys

AUTO_KEYS = ("auto-fp32", "auto-fp32-tuned")


def load(path):
    with (lzma.open(path) if path.endswith(".xz") else open(path, "rb")) as f:
        return json.load(f)


def figures(path):
    card = load(path)
    checks = collections.Counter(str(r["check"]) for r in card["rows"])
    times = collections.defaultdict(dict)
    for r in card["rows"]:
        if r["precision"] == "fp32":
            times[(r["m"], r["n"], r["k"])][r["key"]] = r["ms"] * 1e3
    print(f"{path}: {len(times)} shapes, checks {dict(checks)}")
    for key in AUTO_KEYS:
        vs_cublas, vs_best, misses = [], [], []
        for shape, row in times.items():
            if key not in row or "cublas" not in row:
                continue
            us = row[key]
            vs_cublas.append((row["cublas"] / us, shape))
            kernels = {k: v for k, v in row.items() if not k.startswith(("auto-", "cublas", "cuda-c"))}
            if kernels:
                best = min(kernels, key=kernels.get)
                vs_best.append((kernels[best] / us, shape))
                if kernels[best] / us < 0.95:
                    misses.append(f"{'x'.join(map(str, shape))} {kernels[best] / us:.3f} ({best} {kernels[best]:.2f} µs, {key} {us:.2f})")
        if not vs_cublas:
            continue
        geomean = math.exp(sum(math.log(r) for r, _ in vs_cublas) / len(vs_cublas))
        low = min(vs_cublas)
        line = (f"  {key}: {len(vs_cublas)} shapes, ÷ cuBLAS geomean {geomean:.3f}, lowest {low[0]:.3f} "
                f"({'x'.join(map(str, low[1]))}), {sum(r < 0.60 for r, _ in vs_cublas)} below 0.60")
        if vs_best:
            lowb = min(vs_best)
            line += (f"; ÷ best kernel lowest {lowb[0]:.3f} ({'x'.join(map(str, lowb[1]))}), "
                     f"{len(misses)} below 0.95")
        print(line)
        for m in misses:
            print(f"    below 0.95: {m}")
        for shape in [(4096, 4096, 4096)]:
            row = times.get(shape, {})
            if key in row and "cublas" in row:
                print(f"    4096³: {row[key]:.1f} µs, cuBLAS {row['cublas']:.1f}: {row['cublas'] / row[key]:.3f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        figures(p)
