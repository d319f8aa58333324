# Which cuBLAS kernel runs each BF16 shape (f32 accumulate; torch's bf16 output and f32 output via out_dtype if present).
import torch, sys
shapes = [tuple(map(int, s.split('x'))) for s in sys.argv[1].split(',')]
torch.manual_seed(0)
for (m, n, k) in shapes:
    a = torch.randn(m, k, device='cuda', dtype=torch.bfloat16)
    b = torch.randn(k, n, device='cuda', dtype=torch.bfloat16)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(f"mm {m}x{n}x{k}")
    c = a @ b
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    # time with events: many launches after warm-up
    for _ in range(5): c = a @ b
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(50): c = a @ b
    e.record(); torch.cuda.synchronize()
    print(f"TIME {m}x{n}x{k} {s.elapsed_time(e)/50*1000:.2f} us", flush=True)
