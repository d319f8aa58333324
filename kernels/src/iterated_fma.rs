//! Iterated fused multiply-add: a compute-bound element-wise map whose cost is a parameter.

/// Threads per block the host launches.
pub const BLOCK: u32 = 256;

kernel! {
    /// `y[i] = f^iters(x[i])` for `i < n`, where `f(v) = fma(v, a, b)` (one rounding per step), i.e.
    /// `iters` *dependent* FMAs per element, evaluated in order:
    /// `v = x[i]; repeat iters times { v = fma(v, a, b) }; y[i] = v`.
    ///
    /// **Why it exists**: the copy/compute overlap demo (`streams`, host `pipeline` module) needs a
    /// kernel whose run time can be set comparable to the time of copying its data over PCIe. Each
    /// element costs 8 bytes of traffic and `2 · iters` FLOPs, so `iters` moves the kernel from
    /// bandwidth-bound (`iters` ≈ 0) to compute-bound (a few thousand on an H200) without changing
    /// what it reads or writes. The chain is dependent, so neither the compiler nor the hardware can
    /// shorten it; a CPU reference computing `f32::mul_add` in the same order is bit-identical.
    ///
    /// **Parameters**: `x`: input of `n` floats; `y`: output of `n` floats (may be the same buffer as
    /// `x`: each thread reads its element once before writing it); `iters`: FMAs per element (0 copies);
    /// `a`, `b`: the map's constants (|a| < 1 keeps the values bounded, e.g. `a = 0.999, b = 0.001`).
    ///
    /// **Thread mapping**: one element per thread, `i = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// past `n` do nothing, so any 1-D grid with at least `n` threads is correct.
    ///
    /// Measurements: `docs/results/2026-11-30-streams/README.md` (the streams demo).
    ///
    /// # Safety
    /// `x` must be valid for reading and `y` for writing `n` floats; no other thread or stream may
    /// write `x[0..n]` or access `y[0..n]` while the kernel runs.
    pub unsafe fn iterated_fma(x: *const f32, y: *mut f32, n: usize, iters: u32, a: f32, b: f32) {
        use crate::device::{math::fma, mem::View, thread};
        // SAFETY: the caller passes buffers of `n` floats (see the kernel's Safety section).
        let (x, y) = unsafe { (View::from_const(x, n), View::new(y, n)) };
        let i = thread::index_1d();
        if i < n {
            // SAFETY: `i < n` was just checked.
            let mut v = unsafe { x.get(i) };
            let mut k = 0;
            while k < iters {
                v = fma(v, a, b);
                k += 1;
            }
            // SAFETY: `i < n` was checked above.
            unsafe { y.set(i, v) }
        }
    }
}
