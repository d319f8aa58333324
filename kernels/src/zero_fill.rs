//! `C`'s zeroing before a split-K launch, as a kernel the launch after it may overlap.

/// Threads per block the host launches.
pub const BLOCK: u32 = 256;

kernel! {
    /// `c[i] = 0.0` for `i < n`: four elements per 128-bit store, grid-stride, with the elements
    /// before the first 16-byte boundary and after the last whole quad one per thread.
    ///
    /// Its first act is [`allow_dependents`](crate::device::dependent_launch::allow_dependents): the
    /// split-K launch queued after it as a dependent starts its blocks at once and waits for these
    /// zeros only before its first add into `C`, so the zeroing costs neither a launch gap nor the
    /// slices' K-loops' time (a memset node cannot let a kernel start early).
    ///
    /// **Thread mapping**: thread `t` of the 1-D grid zeroes quads `t, t + G, t + 2G, …` of the
    /// aligned body (G = total threads), then threads `0 .. 3` take the up to three elements before
    /// it and the up to three after it.
    ///
    /// # Safety
    /// `c` must be valid for `n` floats (4-byte aligned) that nothing else touches while it runs.
    pub unsafe fn zero_f32(c: *mut f32, n: usize) {
        use crate::device::{dependent_launch, mem::{Float4, View}, thread};
        dependent_launch::allow_dependents();
        // Elements before the first 16-byte boundary: the 128-bit stores start there.
        let head = (((16 - (c as usize) % 16) % 16) / 4).min(n);
        let quads = (n - head) / 4;
        let tail = head + 4 * quads;
        // SAFETY: the caller passes `n` floats.
        let c = unsafe { View::new(c, n) };
        // SAFETY: head + 4·quads ≤ n: the whole quads, from the boundary.
        let body = unsafe { c.sub(head, 4 * quads) };
        let (first, stride) = (thread::index_1d(), thread::grid_size_1d());
        let mut q = first;
        while q < quads {
            // SAFETY: 4q + 4 ≤ 4·quads, and the body starts on a 16-byte boundary.
            unsafe { body.set4(4 * q, Float4([0.0; 4])) };
            q += stride;
        }
        if first < head {
            // SAFETY: first < head ≤ n.
            unsafe { c.set(first, 0.0) }
        }
        if tail + first < n {
            // SAFETY: just checked.
            unsafe { c.set(tail + first, 0.0) }
        }
    }
}
