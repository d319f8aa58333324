#!/usr/bin/env python3
"""cuBLASLt FP8 through torch's `_scaled_mm`, in the same lease as `fp8` (scorecard/src/bin/fp8.rs):
a second anchor beside the scorecard's own cuBLASLt call, on the same shapes and layout (A m×k
row-major, B given as Bᵀ n×k, f32 output, per-tensor scales 0.5 and 2.0), FAST_ACCUM off and on.

    python3 scripts/fp8_torch_anchor.py --shapes 4096x4096x4096,8192x8192x8192 [--format e4m3] > torch-fp8.jsonl

CUDA events around a batch of ~50 ms after a warm-up, median of --repeat batches; one JSON line per shape.
"""
import argparse
import json

import torch

from torch_timing import timed_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336")
    ap.add_argument("--format", default="e4m3", choices=["e4m3", "e5m2"])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dtype = torch.float8_e4m3fn if args.format == "e4m3" else torch.float8_e5m2
    dev = torch.device("cuda")
    sa = torch.tensor(0.5, device=dev)
    sb = torch.tensor(2.0, device=dev)
    for shape in args.shapes.split(","):
        m, n, k = (int(x) for x in shape.split("x"))
        a = (torch.rand(m, k, device=dev) * 2 - 1).to(dtype)
        bt = (torch.rand(n, k, device=dev) * 2 - 1).to(dtype)
        row = {"m": m, "n": n, "k": k, "format": args.format, "torch": torch.__version__}
        for name, fast in [("scaled_mm", False), ("scaled_mm_fast", True)]:
            fn = lambda: torch._scaled_mm(a, bt.t(), scale_a=sa, scale_b=sb, out_dtype=torch.float32, use_fast_accum=fast)
            ms = timed_ms(fn, args.repeat)
            row[f"{name}_us"] = ms * 1e3
            row[f"{name}_tflops"] = 2.0 * m * n * k / (ms * 1e-3) / 1e12
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
