#!/usr/bin/env python3
"""Fits the time-model constants of kernels 18 and 19's 16-bit entries (`few-rows-bf16`,
`few-cols-bf16`; the FP16 twins take them, their rows pooled with the BF16 entry's) — `tuning::cost`'s block_us, step_us, overlap, unaligned,
rows exponent, read rate and, where the training rows have N = 1, kernel 19's GEMV factor (`gemv`) —
to scorecard runs, the other constants as committed.

    python3 scripts/fit-few-16.py REGISTRY.json PLANS.csv TRAIN.json[,…] [--kernels LABEL,…] [--check HELD.json[,…]] [--fill]

`--fill` fits `Cost::read_fill_exponent` too (kernel 18's 16-bit entries).

REGISTRY.json: `cargo run -q -p tessera-catalogue --example registry` at the training run's commit;
PLANS.csv: `tc_plans` at that commit on the training shapes (the slices each kernel launched; several
runs' files joined with `,`). The
model is `tuning::predict_us` for a split-K kernel that stores `C` with one slice (`predict`, then the
floor of the launch, DRAM and the split terms). Prints each kernel's fit and the Rust lines.
"""
import importlib.util, json, math, os, sys
import numpy as np
from scipy.optimize import least_squares

# tuning::blocks_per_sm, as fit-tc-small.py states it (one copy of it in the scripts).
_spec = importlib.util.spec_from_file_location("fit_tc_small", os.path.join(os.path.dirname(__file__), "fit-tc-small.py"))
_tc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tc)
blocks_per_sm = _tc.blocks_per_sm


def predict(x, kern, model, m, n, k, s):
    e, c, q, u, rho, read, g, phi = x
    cfg, cost = kern["config"], kern["cost"]
    sms = model["sms"]
    tiles = -(-m // cfg["bm"]) * -(-n // cfg["bn"])
    steps = -(-(-(-k // s)) // cfg["bk"])
    aligned = n % 8 == 0 and k % 8 == 0
    rows = max(min(m, cfg["bm"]), 1)
    step = c * rows ** rho * (1.0 if aligned else u) * (g if n == 1 else 1.0)
    alone = e + step * steps
    resident = blocks_per_sm(cfg["threads"], cfg["shared_bytes"], cost["registers"])
    q = min(max(q, 1.0), resident)
    per_sm = -(-(tiles * s) // sms)
    full, rest = divmod(per_sm, resident)
    blocks = full * alone * resident / q + (alone * max(rest / q, 1.0) if rest else 0.0)
    read_bytes = 2.0 * (m * k * -(-n // cfg["bn"]) + k * n * -(-m // cfg["bm"]))
    # Cost::read_fill_exponent: the floor's rate at the launch's fill of the SMs.
    # Only where the operands stream from DRAM (tuning::read_rate, DRAM_STREAM_BYTES).
    fill = min(1.0, tiles * s / (sms * resident)) if read_bytes > model["dram_stream_bytes"] else 1.0
    read_us = read_bytes / (read * fill ** phi * 1e3)
    mn = float(m) * n
    if s > 1:
        split = (model["zero_launch_us"] + 4.0 * mn / (model["zero_gb_per_s"] * 1e3)
                 + mn * s / (model["atomic_adds_v4_per_us"] if n % 4 == 0 else model["atomic_adds_per_us"])
                 + s * min(m, cfg["bm"]) / cfg["bm"] * (model["adds_depth_us"] if aligned else model["adds_depth_unaligned_us"]))
    else:
        st = 4.0 * mn / (cost["store_gb_per_s"] * 1e3)
        split = st if n % 4 == 0 else max(mn / cost["unaligned_stores_per_us"], st)
    us = model["launch_us"] + max(blocks, read_us) + split
    # tuning::dram_floor_us: odd 16-bit rows read element by element at the kernel's odd-rows rate
    # (Cost::odd_rows_gb_per_s); kernel 19 (a column limit) streams A's rows, aligned where K is.
    streamed_aligned = k % 8 == 0 if cost["max_cols"] < 2**32 - 1 else aligned
    narrow = None if aligned else next((w for w in (8, 4) if n % (w // 2) == 0 and k % (w // 2) == 0), None)
    rate = cost["odd_rows_gb_per_s"] if not streamed_aligned and narrow is None else model["zero_gb_per_s"]
    dram = 2.0 * (m * k + k * n) / (rate * 1e3)
    return max(us, model["launch_us"] + dram + split)


def rows_of(paths, label):
    out = []
    for p in paths:
        for r in json.load(open(p))["rows"]:
            if r["key"] == label and r["check"] == "ok":
                out.append((r["m"], r["n"], r["k"], r["ms"] * 1e3))
    return out


def main():
    args = sys.argv[1:]
    labels = ["few-rows-bf16", "few-cols-bf16"]
    if "--kernels" in args:
        at = args.index("--kernels")
        labels = args[at + 1].split(",")
        del args[at:at + 2]
    # --check HELD.json[,…]: the fitted constants' errors on held-out runs (their plans in PLANS.csv too).
    held = []
    fill = "--fill" in args
    if fill:
        args.remove("--fill")
    if "--check" in args:
        at = args.index("--check")
        held = args[at + 1].split(",")
        del args[at:at + 2]
    reg, plans_path, train = json.load(open(args[0])), args[1], args[2].split(",")
    model, kernels = reg["model"], {k["label"]: k for k in reg["kernels"]}
    plans = {}
    for path in plans_path.split(","):
        for line in open(path).read().splitlines()[1:]:
            m, n, kk, _p, label, splits = line.split(",")[:6]
            plans[(int(m), int(n), int(kk), label)] = int(splits)
    for label in labels:
        kern = kernels[label]
        c = kern["cost"]
        # Only the shapes `Auto` weighs the kernel on (tuning::is_candidate: Cost::max_rows, max_cols).
        # The FP16 twin's rows with the BF16 entry's (one body, the same constants).
        twin = label.replace("-bf16", "-f16") if label.endswith("-bf16") else None
        rows = [r for lab in (label, twin) if lab for r in rows_of(train, lab)
                if (r[0], r[1], r[2], lab) in plans and r[0] <= c["max_rows"] and r[1] <= c["max_cols"]]
        if not rows:
            print(f"{label}: no rows"); continue
        sp = [plans[(m, n, k, label)] for m, n, k, _ in rows]
        meas = np.array([t for *_, t in rows])
        # The N = 1 factor only where the training rows have N = 1 (kernel 19's GEMV body).
        gemv = any(n == 1 for _, n, _, _ in rows)
        x0 = [c["block_us"], c["step_us"], c["overlap"], c["unaligned"], c["rows_exponent"], c["read_gb_per_s"], c["gemv"],
              c["read_fill_exponent"]]
        # The fill exponent only with --fill (fitted for kernel 18's 16-bit entries; 0 for the rest).
        p_lo, p_hi = (0.0, 2.0) if fill else (x0[7] - 1e-9, x0[7] + 1e-9)
        resid = lambda x: np.log(np.array([predict(x, kern, model, m, n, k, s) for (m, n, k, _), s in zip(rows, sp)]) / meas)
        before = np.abs(resid(x0))
        g_lo, g_hi = (0.05, 4.0) if gemv else (x0[6] - 1e-9, x0[6] + 1e-9)
        fit = least_squares(resid, x0=x0, bounds=([0.0, 1e-4, 1.0, 1.0, 0.0, 300.0, g_lo, p_lo], [20.0, 10.0, 8.0, 4.0, 1.5, 20000.0, g_hi, p_hi]))
        err = np.abs(resid(fit.x))
        print(f"{label}: {len(rows)} rows; |log err| median/worst as committed {np.median(before):.3f}/{before.max():.3f}, fitted {np.median(err):.3f}/{err.max():.3f}")
        for (m, n, k, t), s, r in zip(rows, sp, resid(fit.x)):
            print(f"    {m}x{n}x{k} s={s} measured {t:.1f} predicted {t * math.exp(r):.1f}")
        if held:
            hrows = [r for lab in (label, twin) if lab for r in rows_of(held, lab)
                     if (r[0], r[1], r[2], label) in plans and r[0] <= c["max_rows"] and r[1] <= c["max_cols"]]
            herr = [math.log(predict(fit.x, kern, model, m, n, k, plans[(m, n, k, label)]) / t) for m, n, k, t in hrows]
            if herr:
                print(f"    held out: {len(hrows)} rows, |log err| median {np.median(np.abs(herr)):.3f}, worst {max(np.abs(herr)):.3f}")
                for (m, n, k, t), r in zip(hrows, herr):
                    print(f"      {m}x{n}x{k} measured {t:.1f} predicted {t * math.exp(r):.1f}")
        e, st, q, u, rho, read, g, phi = fit.x
        print(f"    {label}: few_{label.split('-')[1]}(c({e:.3f}, {st:.4f}, {q:.2f}, {u:.2f}, {c['unaligned_stores_per_us']:.1f}, REGS), {rho:.3f}, {read:.1f}); gemv {g:.3f}; fill exponent {phi:.3f}")


if __name__ == "__main__":
    main()
