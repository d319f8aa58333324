#!/usr/bin/env python3
"""Nsight Compute text reports of call D side by side: kernel, grid, block, registers, shared memory and
the speed-of-light and memory figures.
    python3 ncu.py ../d-ef49fc1/ncu-*.txt"""
import lzma, re, sys
keys = ["Duration", "Compute (SM) Throughput", "L2 Cache Throughput", "DRAM Throughput", "L2 Hit Rate",
        "L1/TEX Hit Rate", "Mem Pipes Busy", "L2 Compression Input Sectors", "Registers Per Thread",
        "Dynamic Shared Memory Per Block", "Block Size", "Grid Size", "Cluster Size"]
cols = []
for path in sys.argv[1:]:
    text = (lzma.open(path, "rt") if path.endswith(".xz") else open(path)).read()
    name = re.search(r"^\s+((?:nvjet|matmul)\S*)", text, re.M)
    vals = {}
    for k in keys:
        m = re.search(r"^\s+" + re.escape(k) + r"\s+(\S+\s+)?([\d,.]+)\s*$", text, re.M)
        vals[k] = m.group(2) if m else "—"
    cols.append((path.rsplit("/", 1)[-1].removeprefix("ncu-").removesuffix(".txt"), name.group(1) if name else "?", vals))
print("| | " + " | ".join(c[0] for c in cols) + " |")
print("|---|" + "---:|" * len(cols))
print("| kernel | " + " | ".join(f"`{c[1]}`" for c in cols) + " |")
for k in keys:
    print(f"| {k} | " + " | ".join(c[2][k] for c in cols) + " |")
