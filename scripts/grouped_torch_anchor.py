#!/usr/bin/env python3
"""torch's batched and grouped GEMMs, in the same lease as `grouped` (scorecard/src/bin/grouped.rs):
`torch.bmm` (cuBLAS strided-batched) on the same batches, and `torch._grouped_mm` (where this torch
has it) on grouped products of the same sizes — G groups of random rows summing to M, each times its
own K × N weight. BF16 or FP16 inputs; torch writes its output in the input type (the scorecard's
products write f32: the same work but for C's bytes).

    python3 scripts/grouped_torch_anchor.py --precision bf16 > torch-grouped.jsonl

CUDA events around a batch of ~50 ms after a warm-up, median of --repeat batches; one JSON line per case.
"""
import argparse
import json

import torch

from torch_timing import timed_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batched", default="64x512x512x64,256x128x128x128,8x2048x2048x2048")
    ap.add_argument("--grouped", default="8x16384x4096x7168,64x16384x4096x7168,8x16384x7168x2048,64x16384x7168x2048")
    ap.add_argument("--precision", default="bf16", choices=["bf16", "f16", "f32"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[args.precision]
    # FP32 means FP32: no TF32 in torch's matmuls.
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    gen = torch.Generator(device="cpu").manual_seed(args.seed)
    for case in filter(None, args.batched.split(",")):
        count, m, n, k = (int(x) for x in case.split("x"))
        a = (torch.rand(count, m, k, device=dev) * 2 - 1).to(dtype)
        b = (torch.rand(count, k, n, device=dev) * 2 - 1).to(dtype)
        ms = timed_ms(lambda: torch.bmm(a, b), args.repeat)
        print(json.dumps({"kind": "batched", "precision": args.precision, "count": count, "m": m, "n": n, "k": k,
                          "torch": torch.__version__, "bmm_ms": ms, "bmm_tflops": 2.0 * count * m * n * k / (ms * 1e-3) / 1e12}), flush=True)
    for case in filter(None, args.grouped.split(",") if args.precision != "f32" else []):
        groups, m, n, k = (int(x) for x in case.split("x"))
        cuts = sorted(torch.randint(0, m + 1, (groups - 1,), generator=gen).tolist())
        ends = torch.tensor(cuts + [m], dtype=torch.int32, device=dev)
        a = (torch.rand(m, k, device=dev) * 2 - 1).to(dtype)
        w = (torch.rand(groups, k, n, device=dev) * 2 - 1).to(dtype)
        row = {"kind": "grouped", "precision": args.precision, "groups": groups, "m": m, "n": n, "k": k, "torch": torch.__version__}
        flops = 2.0 * m * n * k
        if hasattr(torch, "_grouped_mm"):
            # torch's grouped GEMM takes B as (G, K, N) with N-major rows transposed: pass w's transpose's transpose.
            wt = w.transpose(1, 2).contiguous().transpose(1, 2)
            try:
                ms = timed_ms(lambda: torch._grouped_mm(a, wt, offs=ends), args.repeat)
                row.update({"grouped_mm_ms": ms, "grouped_mm_tflops": flops / (ms * 1e-3) / 1e12})
            except RuntimeError as e:
                row["grouped_mm_error"] = str(e).splitlines()[0]
        starts = [0] + cuts

        def loop():
            for g, (s, e) in enumerate(zip(starts, cuts + [m])):
                if e > s:
                    torch.mm(a[s:e], w[g])

        ms = timed_ms(loop, args.repeat)
        row.update({"mm_loop_ms": ms, "mm_loop_tflops": flops / (ms * 1e-3) / 1e12})
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
