"""Runs torch's BF16 matmul (cuBLAS) once per square size, under ncu, to name the kernel cuBLAS picks
there (its tile, cluster, split) and its grid beside tessera's Auto."""
import sys, torch
for s in [int(x) for x in sys.argv[1].split(",")]:
    a = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    torch.cuda.nvtx.range_push(f"sq{s}")
    (a @ b)
    torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
