#!/usr/bin/env python3
"""cuBLASLt's fused GELU epilogue through torch's `_addmm_activation`, in the same lease as `fused`
(scorecard/src/bin/fused.rs): `y = GELU(bias + x·w)` with BF16 x, w, bias and y (torch's tanh GELU,
`use_gelu=True`), beside the plain `x·w` (`torch.mm`, BF16 out) and the two-pass `gelu(x·w + bias)`.

    python3 scripts/fused_torch_anchor.py --shapes 8192x4096x4096,8192x14336x4096 > torch-fused.jsonl

CUDA events around a batch of ~50 ms after a warm-up, median of --repeat batches; one JSON line per shape.
"""
import argparse
import json

import torch

from torch_timing import timed_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="8192x4096x4096,8192x14336x4096,4096x4096x4096")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dev = torch.device("cuda")
    for shape in filter(None, args.shapes.split(",")):
        m, n, k = (int(x) for x in shape.split("x"))
        x = (torch.rand(m, k, device=dev) * 2 - 1).to(torch.bfloat16)
        w = (torch.rand(k, n, device=dev) * 2 - 1).to(torch.bfloat16)
        bias = (torch.rand(n, device=dev) * 2 - 1).to(torch.bfloat16)
        row = {"m": m, "n": n, "k": k, "torch": torch.__version__}
        flops = 2.0 * m * n * k
        cases = [
            ("addmm_gelu", lambda: torch._addmm_activation(bias, x, w, use_gelu=True)),
            ("mm", lambda: torch.mm(x, w)),
            ("mm_then_gelu", lambda: torch.nn.functional.gelu(torch.addmm(bias, x, w), approximate="tanh")),
        ]
        for name, fn in cases:
            try:
                ms = timed_ms(fn, args.repeat)
                row[f"{name}_ms"] = ms
                row[f"{name}_tflops"] = flops / (ms * 1e-3) / 1e12
            except RuntimeError as e:
                row[f"{name}_error"] = str(e).splitlines()[0]
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
