"""torch in the same lease as `own-kernel-gpu --dump DIR`: torch.softmax on the same input, timed the
same way (CUDA events around many launches after a warm-up), a torch device copy of the same bytes,
and the agreement of the two outputs with an f64 reference within the tolerance of src/check.rs.

    python3 torch_anchor.py DIR      # prints one JSON object: ours beside torch's
"""
import json
import sys

import numpy as np
import torch

EPS = 2.0 ** -24  # f32's unit roundoff, as in check.rs


def timed_us(fn, iters):
    for _ in range(iters):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1e3 / iters


def main(folder):
    ours = json.load(open(f"{folder}/meta.json"))
    rows, cols, iters = ours["rows"], ours["cols"], ours["iters"]
    x = torch.from_numpy(np.fromfile(f"{folder}/x.f32", dtype=np.float32).reshape(rows, cols)).cuda()
    y = torch.from_numpy(np.fromfile(f"{folder}/y.f32", dtype=np.float32).reshape(rows, cols)).cuda()
    t = torch.softmax(x, dim=1)
    # The tolerance of check.rs, element by element, against the f64 softmax of the same input.
    ref = torch.softmax(x.double(), dim=1)
    distance = (x.max(dim=1, keepdim=True).values - x).double()
    bound = (10 + cols + 4 * distance) * EPS * ref + 1e-30
    ours_err = ((y.double() - ref).abs() / bound).max().item()
    torch_err = ((t.double() - ref).abs() / bound).max().item()
    # Each within its bound of the reference puts them within twice the bound of each other.
    agreement = ((y.double() - t.double()).abs() / (2 * bound)).max().item()
    del ref, distance, bound
    out = torch.empty_like(x)
    softmax_us = timed_us(lambda: torch.softmax(x, dim=1), iters)
    copy_us = timed_us(lambda: out.copy_(x), iters)
    nbytes = 2 * rows * cols * 4
    result = {
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "rows": rows,
        "cols": cols,
        "torch_softmax_us": round(softmax_us, 2),
        "torch_softmax_tb_s": round(nbytes / softmax_us / 1e6, 3),
        "torch_copy_us": round(copy_us, 2),
        "torch_copy_tb_s": round(nbytes / copy_us / 1e6, 3),
        "ours_softmax_us": ours["softmax_f32_us"],
        "ours_softmax_tb_s": ours["softmax_f32_tb_s"],
        "ours_over_torch_softmax": round(softmax_us / ours["softmax_f32_us"], 3),
        "ours_over_copy": ours["softmax_f32_over_copy"],
        "ours_over_torch_copy": round(copy_us / ours["softmax_f32_us"], 3),
        "ours_error_over_bound": ours_err,
        "torch_error_over_bound": torch_err,
        "ours_vs_torch_over_twice_bound": agreement,
        "within_tolerance": ours_err <= 1.0 and agreement <= 1.0,
    }
    print(json.dumps(result, indent=1))
    return 0 if result["within_tolerance"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
