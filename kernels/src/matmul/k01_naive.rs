//! Kernel 1: one thread per output element, operands straight from global memory.

use crate::launch::TileConfig;

/// Block edge: the host launches `BLOCK × BLOCK` threads, one per element of a `BLOCK × BLOCK` tile of `C`.
pub const BLOCK: u32 = 16;

/// The launch: 16×16 threads per 16×16 tile of `C`, no shared memory.
pub const CONFIG: TileConfig = TileConfig::new(BLOCK, BLOCK, 1, BLOCK * BLOCK, 0).block_2d(BLOCK, BLOCK);

kernel! {
    /// Naive matmul: thread `(row, col)` computes `C[row][col] = Σ_k A[row][k] · B[k][col]`.
    ///
    /// **Parameters**: `a` (M×K), `b` (K×N), `c` (M×N), row-major, dense; `m, n, k ≥ 1`,
    /// and every matrix holds at most `i32::MAX` elements (the host checks), so 32-bit index
    /// arithmetic cannot wrap.
    ///
    /// **Thread mapping**: 2-D blocks (the host uses 16×16): `col = blockIdx.x·16 + threadIdx.x`,
    /// `row = blockIdx.y·16 + threadIdx.y`. `threadIdx.x` runs along a row of `C`, so the 16 threads of a
    /// half-warp read consecutive elements of `B` (coalesced) and the same element of `A` (a broadcast).
    /// Threads outside `C` return before touching memory.
    ///
    /// **Traffic**: every thread reads a full row of `A` and column of `B`: `2·M·N·K` loads,
    /// 2.1 B for 1024³. Caches absorb part of it, but each multiply-add still costs two load
    /// instructions; that is the ceiling the next kernel lifts.
    ///
    /// Measurements: `docs/ladder/k01-naive.md`.
    ///
    /// # Safety
    /// `a`, `b`, `c` must be valid for M·K, K·N and M·N floats.
    pub unsafe fn matmul_naive(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use crate::device::{math::fma, thread};
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let col = thread::block_idx_x() * thread::block_dim_x() + thread::thread_idx_x();
        let row = thread::block_idx_y() * thread::block_dim_y() + thread::thread_idx_y();
        if row >= m || col >= n {
            return;
        }
        let mut acc = 0.0f32;
        for i in 0..k {
            // SAFETY: row < m, col < n, i < k, so row·k + i < m·k and i·n + col < k·n.
            acc = fma(unsafe { a.get((row * k + i) as usize) }, unsafe { b.get((i * n + col) as usize) }, acc);
        }
        // SAFETY: row < m and col < n, so row·n + col < m·n.
        unsafe { c.set((row * n + col) as usize, acc) }
    }
}
