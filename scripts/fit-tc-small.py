#!/usr/bin/env python3
"""Fits the time-model constants of the tensor-core kernels that read their operands in place — kernels
11–13 (`mma.sync`) and kernel 14's 16-bit entries (`wgmma` from `cp.async` tiles) — so that `Auto` can
weigh them against the TMA kernels (catalogue/src/select/mod.rs, `model_choice`). They win on small
products, where a TMA kernel's fixed costs (its pipeline's barriers, the tensor maps, packing of
unaligned rows) are most of its time.

    python3 scripts/fit-tc-small.py TRAIN.json[,TRAIN.json…] [--check CHECK.json,…] [--registry FILE]
        [--kernels LABEL,…] [--plans PLANS.csv]

`--kernels` fits those labels instead of the list below (kernel 21's `widened-bf16-*`: its registers
are in REGISTERS too). `--plans`: the slices each kernel launched, as `tc_plans` printed them at the
training run's commit (`cargo run -p tessera-catalogue --example tc_plans -- --sizes …`): a kernel with
constants launches the model's slice count, not the one-wave rule.

Each JSON is a scorecard.json with those kernels on its shapes (`--precisions bf16,tf32`, no
`--kernels`, no `--sweep`). The model is FP32's (`tuning::predict_us`: a block's fixed time and
K-steps, blocks per SM, waves and the last wave's fill, the launch, the stores of `C`) with four
constants fitted per kernel — block_us, step_us, overlap, unaligned — and the GPU-wide constants as
committed (the registry: `cargo run -q -p tessera-catalogue --example registry`). A kernel's FP16
twin takes its BF16 constants (same code, same instruction rate). Prints each kernel's fit on the
training and the check shapes, and the Rust lines for `tuning::cost`.
"""
import json, lzma, math, subprocess, sys
import numpy as np
from scipy.optimize import least_squares

# The kernels fitted: their labels in the scorecard (precision in the label).
FITTED = ["mma-naive-bf16", "mma-shared-bf16", "mma-pipe-bf16-128x128", "mma-pipe-bf16-128x256",
          "wgmma-bf16-128x128", "wgmma-bf16-128x256",
          "mma-naive-tf32", "mma-shared-tf32", "mma-pipe-tf32-128x128",
          "mma-splitk-bf16-16x128", "mma-splitk-bf16-64x128", "mma-splitk-tf32-16x128", "mma-splitk-tf32-64x128"]
# Registers per thread (`ptxas -v`, sm_90 / sm_90a, host/ptx at the training run's commit; kernel 20's
# 16×128 entry: 96 at 397f535, the run its committed constants were fitted on; 144 with 8-byte narrow
# copies only; 96 again since both piece widths and the rolled odd-row loads. A fit on a later run uses
# that run's counts: `tuning::cost` holds today's).
REGISTERS = {"mma-naive-bf16": 32, "mma-shared-bf16": 72, "mma-pipe-bf16-128x128": 255,
             "mma-pipe-bf16-128x256": 243, "wgmma-bf16-128x128": 127, "wgmma-bf16-128x256": 220,
             "mma-naive-tf32": 32, "mma-shared-tf32": 128, "mma-pipe-tf32-128x128": 255,
             "mma-splitk-bf16-16x128": 96, "mma-splitk-bf16-64x128": 168,
             "mma-splitk-tf32-16x128": 96, "mma-splitk-tf32-64x128": 168,
             "widened-bf16-64x64": 115, "widened-bf16-128x128": 123, "widened-bf16-128x32": 113, "widened-bf16-32x128": 117,
             "mma-splitk-bf16-128x32": 97, "mma-splitk-tf32-128x32": 116,
             "mma-splitk-bf16-128x64": 128}


def registry(path=None):
    text = open(path).read() if path else subprocess.run(
        ["cargo", "run", "-q", "-p", "tessera-catalogue", "--example", "registry"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(text)


def blocks_per_sm(threads, shared, registers):
    """tuning::blocks_per_sm."""
    warps = -(-threads // 32)
    per_warp = -(-(registers * 32) // 256) * 256
    by_registers = (65536 // per_warp) // warps
    by_shared = 233472 // (shared + 1024)
    return max(1, min(2048 // threads, 32, by_registers, by_shared))


def one_wave_splits(cfg, m, n, k, sms):
    """tuning::splits, the slices a split-K kernel without constants launches (the training runs')."""
    tiles = -(-m // cfg["bm"]) * -(-n // cfg["bn"])
    return max(1, min(sms // max(tiles, 1), k // 64)) if cfg["split_k"] else 1


# tuning::TC_NARROW_STEP_8 / TC_NARROW_STEP_4: the step factor (not fitted) of a kernel with narrow
# `cp.async` copies (`TileConfig::narrow_copies`) on rows off 16 bytes, copied in the widest pieces both
# operands' rows allow (tuning::narrow_pieces: 8 bytes, else 4), in place of its fitted `unaligned`.
TC_NARROW_STEP = {8: 1.2, 4: 1.7}


def narrow_pieces(vector, n, k):
    """tuning::narrow_pieces: the piece bytes of rows off 16 bytes, None for whole chunks or odd 16-bit rows."""
    elem = 16 // vector
    if n % vector == 0 and k % vector == 0:
        return None
    return next((w for w in (8, 4) if n % (w // elem) == 0 and k % (w // elem) == 0), None)


def features(cfg, regs, vector, m, n, k, sms, splits=None):
    """(blocks on the busiest SM, K-steps, aligned, blocks per SM, m·n, N a multiple of 4, slices,
    min(M, BM) / BM); `splits`: the slices launched, where known (else the one-wave rule). `aligned`
    is 1.0 for 16-byte aligned rows, the fixed narrow-copy factor (> 1) for rows copied in narrow
    pieces, 0.0 for the rest (the fitted `unaligned`)."""
    s = splits if splits else one_wave_splits(cfg, m, n, k, sms)
    tiles = -(-m // cfg["bm"]) * -(-n // cfg["bn"])
    steps = -(-(-(-k // s)) // max(cfg["bk"], 1))
    aligned = n % vector == 0 and k % vector == 0
    w = narrow_pieces(vector, n, k)
    if w and cfg.get("narrow_copies"):
        aligned = TC_NARROW_STEP[w]
    return (-(-(tiles * s) // sms), steps, float(aligned), blocks_per_sm(cfg["threads"], cfg["shared_bytes"], regs),
            float(m) * n, float(n % 4 == 0), s, min(m, cfg["bm"]) / cfg["bm"])


def predict(x, f, model):
    """tuning::predict for a kernel that stores C, one slice, no read floor."""
    e, c, q, u = x
    per_sm, steps, aligned, resident, mn, n_aligned, s, rows_share = f
    alone = e + c * steps * (aligned if aligned else u)
    q = min(max(q, 1.0), resident)
    full, rest = divmod(per_sm, resident)
    t = full * alone * resident / q + (alone * max(rest / q, 1.0) if rest else 0.0)
    if s > 1 or not model.get("stores_unsplit", False):
        # tuning::predict's split-K terms: zeroing C, the atomic adds, the slices adding into a tile.
        zero = model["zero_launch_us"] + 4.0 * mn / (model["zero_gb_per_s"] * 1e3)
        adds = mn * s / (model["atomic_adds_v4_per_us"] if n_aligned else model["atomic_adds_per_us"])
        depth = s * rows_share * (model["adds_depth_us"] if aligned == 1.0 else model["adds_depth_unaligned_us"])
        return model["launch_us"] + t + zero + adds + depth
    store = 4.0 * mn / (model.get("kernel_store_gb_per_s", model["store_gb_per_s"]) * 1e3)
    # Scalar stores where N is not a multiple of 4: the FP32 kernels' typical rate (not fitted here).
    return model["launch_us"] + t + (store if n_aligned else max(mn / UNALIGNED_STORES_PER_US, store))


UNALIGNED_STORES_PER_US = 1.0e6


def load(path):
    """A scorecard.json, or its .json.xz as committed."""
    return json.load(lzma.open(path, "rt") if path.endswith(".xz") else open(path))


def rows_of(paths, label):
    out = []
    for p in paths:
        for r in load(p)["rows"]:
            if r["key"] == label and r["check"] == "ok":
                out.append((r["m"], r["n"], r["k"], r["ms"] * 1e3))
    return out


def main():
    args = sys.argv[1:]
    opt = lambda name: args[args.index(name) + 1] if name in args else None
    train = args[0].split(",")
    check = (opt("--check") or "").split(",") if opt("--check") else []
    reg = registry(opt("--registry"))
    model, kernels = reg["model"], {k["label"]: k for k in reg["kernels"]}
    sms = model["sms"]
    fitted = opt("--kernels").split(",") if opt("--kernels") else FITTED
    plans = {}
    if opt("--plans"):
        for line in open(opt("--plans")).read().splitlines()[1:]:
            m, n, kk, _p, label, splits = line.split(",")[:6]
            plans[(int(m), int(n), int(kk), label)] = int(splits)
    print("kernel               rows  median|err| (train)  worst  | check rows median|err| worst")
    for label in fitted:
        k = kernels[label]
        model = dict(model, stores_unsplit=k["config"].get("stores_unsplit", False) or not k["config"]["split_k"])
        if k.get("cost") and k["cost"].get("store_gb_per_s"):
            model["kernel_store_gb_per_s"] = k["cost"]["store_gb_per_s"]
        vector = 4 if k["precision"] == "tf32" else 8
        regs = REGISTERS[label]
        fit_rows = rows_of(train, label)
        feats = [features(k["config"], regs, vector, m, n, kk, sms, plans.get((m, n, kk, label))) for m, n, kk, _ in fit_rows]
        meas = np.array([t for *_, t in fit_rows])

        def resid(x):
            return np.log(np.array([predict(x, f, model) for f in feats]) / meas)

        fit = least_squares(resid, x0=[0.5, 0.05, 1.5, 1.1], bounds=([0.0, 1e-4, 1.0, 1.0], [20.0, 10.0, 8.0, 4.0]))
        err = np.abs(resid(fit.x))
        chk = rows_of(check, label)
        cerr = np.abs(np.log(np.array([predict(fit.x, features(k["config"], regs, vector, m, n, kk, sms, plans.get((m, n, kk, label))), model) for m, n, kk, _ in chk])
                             / np.array([t for *_, t in chk]))) if chk else np.array([0.0])
        print(f"{label:22} {len(fit_rows):3}  {np.median(err):.3f}  {err.max():.3f}  | {len(chk):3}  {np.median(cerr):.3f}  {cerr.max():.3f}")
        e, c, q, u = fit.x
        twin = k["algo"]
        print(f"    Algo::{twin} => tc(c({e:.3f}, {c:.4f}, {q:.2f}, {u:.2f}, {UNALIGNED_STORES_PER_US:.1f}, {regs}), {vector}),")


if __name__ == "__main__":
    main()
