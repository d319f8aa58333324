#!/usr/bin/env python3
"""Issue 34's acceptance, criterion by criterion, from committed scorecard runs: what each measured,
its bar, and whether it passed. The issue asks for an H200; the device of every run is printed, and a
criterion measured on another card says so.

    scripts/issue34-check.py --squares RUN/squares --random RUN/rand-A RUN/rand-B \\
        [--decode RUN/decode] [--llm RUN/llm]

--squares  a `scorecard --sweep` run: squares 512–8192, BF16 and FP16 (each ≥ 0.90 of cuBLAS; at
           least 12 sizes, most of them not powers of two)
--random   `--random-shapes` runs with fresh seeds, BF16/FP16/TF32 (geometric mean ≥ 0.95 for BF16
           and FP16, ≥ 0.90 for TF32; no shape below 0.70), two of them
--decode   M ∈ {1, 8, 16, 32, 64} against (N, K) ∈ {(4096, 4096), (14336, 4096), (4096, 14336)}, BF16:
           each ≥ 0.90 of the memory roofline (A, B and C moved once at the run's device-copy rate)
           or ≥ 1.00 of cuBLAS
--llm      8192×4096×4096, 8192×14336×4096, 8192×4096×14336 (with 4096³ and 8192³ from --squares):
           each ≥ 0.95 of cuBLAS

Ratios are cuBLAS's time ÷ `Auto`'s (model only: the `auto-*` rows, not `tuned`), same precision, same
process. The criterion "Auto ≥ 0.95 of the best tessera kernel on every shape" needs every kernel
timed by name on the random shapes and is not read here.
"""
import argparse
import json
import lzma
import math
import os
import sys


def load(folder):
    for name in ("scorecard.json", "scorecard.json.xz"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return json.load(lzma.open(path, "rt") if name.endswith("xz") else open(path))
    sys.exit(f"{folder}: no scorecard.json(.xz)")


def ratios(card):
    """{(m, n, k, precision): cuBLAS ÷ Auto} of one run (Auto by the model, not tuned on request)."""
    times = {}
    for r in card["rows"]:
        key = r["key"]
        # A product whose check failed counts as no ratio at all: the criterion then lacks that shape.
        if not r["ms"] or str(r.get("check", "ok")).lower() != "ok":
            continue
        role = "cublas" if key.startswith("cublas") else ("auto" if key.startswith("auto-") and "tuned" not in key else None)
        if role:
            times.setdefault((r["m"], r["n"], r["k"], r["precision"]), {})[role] = r["ms"]
    return {s: t["cublas"] / t["auto"] for s, t in times.items() if "auto" in t and "cublas" in t}


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def shape(s):
    m, n, k = s[:3]
    return f"{m}³" if m == n == k else f"{m}×{n}×{k}"


def verdict(ok):
    return "**pass**" if ok else "**fail**"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--squares", required=True)
    ap.add_argument("--random", nargs="+", required=True)
    ap.add_argument("--decode")
    ap.add_argument("--llm")
    args = ap.parse_args()

    rows, devices = [], set()

    card = load(args.squares)
    devices.add(card["device"])
    sq = ratios(card)
    sizes = sorted({s[0] for s in sq if s[0] == s[1] == s[2] and 512 <= s[0] <= 8192})
    pow2 = [n for n in sizes if n & (n - 1) == 0]
    for p in ("bf16", "fp16"):
        vals = {n: sq[(n, n, n, p)] for n in sizes if (n, n, n, p) in sq}
        low = [f"{n} ({v:.2f})" for n, v in sorted(vals.items()) if v < 0.90]
        enough = len(vals) >= 12 and len(pow2) * 2 < len(vals)
        detail = f"{len(vals)} sizes ({len(pow2)} powers of two), {min(vals.values()):.2f}–{max(vals.values()):.2f}"
        detail += f"; below 0.90: {', '.join(low)}" if low else ""
        rows.append((f"squares 512–8192, {p.upper()}: each ≥ 0.90", detail, verdict(enough and not low)))

    for folder in args.random:
        card = load(folder)
        devices.add(card["device"])
        seed = (card.get("random_shapes") or {}).get("seed", os.path.basename(folder.rstrip("/")))
        r = ratios(card)
        for p, bar in (("bf16", 0.95), ("fp16", 0.95), ("tf32", 0.90)):
            vals = {s: v for s, v in r.items() if s[3] == p and s[:3] != (1024, 1024, 1024)}
            if not vals:
                continue
            g = geomean(list(vals.values()))
            lows = sorted((v, s) for s, v in vals.items() if v < 0.70)
            detail = f"{len(vals)} shapes, geometric mean {g:.3f}"
            detail += "; below 0.70: " + ", ".join(f"{shape(s)} ({v:.3f})" for v, s in lows) if lows else ""
            rows.append((f"seed {seed}, {p.upper()}: geomean ≥ {bar:.2f}, none < 0.70", detail, verdict(g >= bar and not lows)))

    if args.decode:
        card = load(args.decode)
        devices.add(card["device"])
        if not card.get("copy_gb_per_s"):
            sys.exit(f"{args.decode}: the run measured no device-copy rate (`--vec-len 0`?); the roofline needs it")
        rate = card["copy_gb_per_s"] * 1e9
        times = {}
        for r in card["rows"]:
            role = "cublas" if r["key"].startswith("cublas") else ("auto" if r["key"].startswith("auto-") and "tuned" not in r["key"] else None)
            # The decode products alone (M ≤ 64): a run that also holds the large ones is read for these.
            if role and r["precision"] == "bf16" and r["ms"] and r["m"] <= 64:
                times.setdefault((r["m"], r["n"], r["k"]), {})[role] = r["ms"] * 1e-3
        fails = []
        for (m, n, k), t in sorted(times.items()):
            if "auto" not in t or "cublas" not in t:
                continue
            roof = (2 * (m * k + k * n) + 4 * m * n) / rate
            if roof / t["auto"] < 0.90 and t["cublas"] / t["auto"] < 1.00:
                fails.append(f"{m}×{n}×{k} ({roof / t['auto']:.2f} of the roofline, {t['cublas'] / t['auto']:.2f} of cuBLAS)")
        detail = f"{len(times)} shapes at {rate / 1e9:.0f} GB/s copy" + ("; missing both bars: " + ", ".join(fails) if fails else "")
        rows.append(("decode, BF16: ≥ 0.90 of the roofline or ≥ 1.00 of cuBLAS", detail, verdict(len(times) >= 15 and not fails)))

    big = {s: v for s, v in sq.items() if s[0] == s[1] == s[2] and s[0] in (4096, 8192) and s[3] in ("bf16", "fp16")}
    if args.llm:
        card = load(args.llm)
        devices.add(card["device"])
        # Only the five large products: a run that also holds the decode shapes (M ≤ 64) is
        # read for these alone.
        llm = {(8192, 4096, 4096), (8192, 14336, 4096), (8192, 4096, 14336), (4096, 4096, 4096), (8192, 8192, 8192)}
        big.update({s: v for s, v in ratios(card).items() if s[3] in ("bf16", "fp16") and s[:3] in llm})
    low = [f"{shape(s)} {s[3].upper()} ({v:.2f})" for s, v in sorted(big.items()) if v < 0.95]
    # The five products in BF16 and FP16: a criterion half measured is not passed, and says why.
    five = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 4096, 4096), (8192, 14336, 4096), (8192, 4096, 14336)]
    missing = [f"{shape((*d, p))} {p.upper()}" for d in five for p in ("bf16", "fp16") if (*d, p) not in big]
    detail = (f"{len(big)} products, {min(big.values()):.2f}–{max(big.values()):.2f}" if big else "none measured") + (
        f"; below 0.95: {', '.join(low)}" if low else ""
    ) + (f"; not measured: {', '.join(missing)}" if missing else "")
    rows.append(("4096³, 8192³ and the LLM shapes (BF16, FP16): ≥ 0.95", detail, verdict(not missing and not low)))

    print(f"Devices: {', '.join(sorted(devices))}" + ("" if all("H200" in d for d in devices) else " — the issue's bar is an H200; these are not acceptance runs"))
    print()
    print("| criterion | measured | |")
    print("|---|---|---|")
    for c, d, v in rows:
        print(f"| {c} | {d} | {v} |")


if __name__ == "__main__":
    main()
