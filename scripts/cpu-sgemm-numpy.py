#!/usr/bin/env python3
"""numpy's SGEMM (`a @ b` on float32, row-major) at N³: the CPU anchor beside the scorecard's faer baseline.

Prints one JSON object: the BLAS numpy is built on, the threads it may use, and per size the best and
the median GFLOP/s of `--repeat` timed runs after `--warmup` untimed ones. Run it on the machine whose
CPU the scorecard measured, in the same run (scripts/gpu-run.sh: RUN_CPU_BASELINE=1).
"""
import argparse
import json
import os
import statistics
import sys
import time


def blas_name(np):
    """The BLAS library numpy links (numpy ≥ 1.26 reports it through show_config(mode='dicts'))."""
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg.get("Build Dependencies", {}).get("blas", {})
        return f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:  # older numpy: no dict mode
        return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="4096", help="comma-separated N for N×N×N")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=2)
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError as e:
        print(json.dumps({"error": f"numpy not available: {e}"}))
        return 1
    threads = None
    try:
        from threadpoolctl import threadpool_info  # reports OpenBLAS's own thread count when present

        threads = [i.get("num_threads") for i in threadpool_info() if i.get("user_api") == "blas"]
    except Exception:
        pass
    out = {
        "numpy": np.__version__,
        "blas": blas_name(np),
        "blas_threads": threads,
        "cpus": os.cpu_count(),
        "env": {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ},
        "sizes": [],
    }
    rng = np.random.default_rng(7)
    for n in (int(s) for s in args.sizes.split(",")):
        a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        for _ in range(args.warmup):
            c = a @ b
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            c = a @ b
            times.append(time.perf_counter() - t)
        # A spot check that the product is one: row 0, column 0 against a float64 dot product.
        ref = float(np.dot(a[0].astype(np.float64), b[:, 0].astype(np.float64)))
        flops = 2.0 * n**3
        out["sizes"].append(
            {
                "n": n,
                "best_gflops": flops / min(times) / 1e9,
                "median_gflops": flops / statistics.median(times) / 1e9,
                "median_ms": statistics.median(times) * 1e3,
                "runs": len(times),
                "check_c00_rel_err": abs(float(c[0, 0]) - ref) / max(abs(ref), 1e-30),
            }
        )
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
