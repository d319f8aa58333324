//! Vector addition: the "hello world" of GPU kernels.

/// Threads per block the host launches.
pub const BLOCK: u32 = 256;

kernel! {
    /// `c[i] = a[i] + b[i]` for `i < n`.
    ///
    /// **Parameters**: `a`, `b`: inputs of `n` floats; `c`: output of `n` floats (may not alias `a`/`b`).
    ///
    /// **Thread mapping**: one element per thread, `i = blockIdx.x * blockDim.x + threadIdx.x`; threads
    /// past `n` do nothing, so any grid with at least `n` threads is correct.
    ///
    /// **Traffic**: 8 bytes read + 4 written per element; nothing is reused, so the kernel is
    /// bandwidth-bound (0.083 FLOP/byte) and its figure of merit is GB/s against a device copy.
    ///
    /// Measurements: `docs/ladder/vec-add.md`.
    ///
    /// # Safety
    /// The three pointers must be valid for `n` floats.
    pub unsafe fn vec_add(a: *const f32, b: *const f32, c: *mut f32, n: usize) {
        use crate::device::{mem::View, thread};
        // SAFETY: the caller passes buffers of `n` floats.
        let (a, b, c) = unsafe { (View::from_const(a, n), View::from_const(b, n), View::new(c, n)) };
        let i = thread::index_1d();
        if i < n {
            // SAFETY: `i < n` was just checked.
            unsafe { c.set(i, a.get(i) + b.get(i)) }
        }
    }
}
