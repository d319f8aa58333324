//! Kernel 3: 1-D block tiling — each thread computes a column strip of TM outputs.

/// Block tile rows (M).
pub const BM: u32 = 64;
/// Block tile columns (N).
pub const BN: u32 = 64;
/// K-step.
pub const BK: u32 = 8;
/// Outputs per thread, stacked along M.
pub const TM: u32 = 16;
/// Threads per block: `BM·BN / TM` = 256.
pub const THREADS: u32 = BM * BN / TM;

/// The launch: `THREADS` threads, `a_tile[BM][BK]` and `b_tile[BK][BN]` in shared memory.
pub const CONFIG: crate::launch::TileConfig = crate::launch::TileConfig::new(BM, BN, BK, THREADS, (BM * BK + BK * BN) * 4);

kernel! {
    /// 1-D block-tiled matmul: a 64×64 tile of `C` per block of 256 threads, 16 outputs per thread.
    ///
    /// **What it fixes in kernel 2**: kernel 2 does two shared-memory loads per multiply-add (one of
    /// `A`, one of `B`). Here each thread keeps one `B` value in a register and reuses it for TM = 16
    /// rows: per K-step a thread issues 1 + 16 shared loads for 16 FMAs (≈ 1.06 per FMA instead of 2),
    /// and the larger 64×64 tile cuts global loads to `M·N·K·(1/64 + 1/64)`: 33.5 M floats at 1024³
    /// (kernel 2: 134 M), 4× fewer.
    ///
    /// **Parameters**: as kernel 1 (any M, N, K ≥ 1, matrices within `i32::MAX` elements).
    ///
    /// **Tiling**: dynamic shared memory `a_tile[BM][BK]` then `b_tile[BK][BN]` (4 KiB).
    ///
    /// **Thread mapping**: 256 threads, 1-D. Loads: each thread loads `BM·BK/256 = 2` elements of `A`
    /// (consecutive threads along K within a row) and 2 of `B` (consecutive along N: coalesced).
    /// Compute: thread `t` owns column `t % 64` and rows `(t / 64)·16 .. +16` of the block tile (16
    /// accumulators and one `B` value in registers). The 32 threads of a warp read 32 consecutive
    /// `b_tile` words (no bank conflict) and one `a_tile` word (a broadcast).
    ///
    /// **Barriers**: after the loads and after the compute of each K-step, reached by all threads
    /// (edge threads load zeros instead of returning).
    ///
    /// Measurements: `docs/ladder/k03-blocktile-1d.md`.
    ///
    /// # Safety
    /// As kernel 1, plus a launch with 256 threads and ≥ 4 KiB dynamic shared memory.
    pub unsafe fn matmul_blocktile_1d(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use crate::device::{math::fma, shared::SharedTiles, thread};
        const LOADS: u32 = BM * BK / THREADS;
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let mut shared = SharedTiles::<f32>::new();
        // SAFETY: the launch provides (BM·BK + BK·BN) floats of dynamic shared memory.
        let (a_tile, b_tile) = unsafe { (shared.tile((BM * BK) as usize), shared.tile((BK * BN) as usize)) };
        let tid = thread::thread_idx_x();
        let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
        let (t_col, t_row) = (tid % BN, (tid / BN) * TM);

        let mut acc = [0.0f32; TM as usize];
        let mut k0 = 0;
        while k0 < k {
            for l in 0..LOADS {
                let idx = tid + l * THREADS;
                let (ar, ac) = (idx / BK, idx % BK);
                let (br, bc) = (idx / BN, idx % BN);
                let (ga_r, ga_c, gb_r, gb_c) = (row0 + ar, k0 + ac, k0 + br, col0 + bc);
                // SAFETY: global indices are range-checked; idx < BM·BK = BK·BN.
                unsafe {
                    a_tile.set(idx as usize, if ga_r < m && ga_c < k { a.get((ga_r * k + ga_c) as usize) } else { 0.0 });
                    b_tile.set(idx as usize, if gb_r < k && gb_c < n { b.get((gb_r * n + gb_c) as usize) } else { 0.0 });
                }
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            for kk in 0..BK {
                // SAFETY: kk < BK, t_col < BN, t_row + i < BM.
                let bv = unsafe { b_tile.get((kk * BN + t_col) as usize) };
                for i in 0..TM {
                    acc[i as usize] = fma(unsafe { a_tile.get(((t_row + i) * BK + kk) as usize) }, bv, acc[i as usize]);
                }
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            k0 += BK;
        }
        for i in 0..TM {
            let (r, col) = (row0 + t_row + i, col0 + t_col);
            if r < m && col < n {
                // SAFETY: r < m, col < n.
                unsafe { c.set((r * n + col) as usize, acc[i as usize]) }
            }
        }
    }
}
