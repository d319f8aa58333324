"""The timing the torch anchor scripts share (fp8_, grouped_, fused_torch_anchor.py): CUDA events
around a batch of ~50 ms of launches after a warm-up, the median of `repeat` batches, in ms per call.
"""
import torch


def timed_ms(fn, repeat):
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    trial = max(start.elapsed_time(end), 1e-3)
    iters = max(3, min(2000, int(50.0 / trial) + 1))
    times = []
    for _ in range(repeat):
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / iters)
    times.sort()
    return times[len(times) // 2]
