//! Kernel 4: 2-D block tiling (register blocking) — each thread computes an 8×8 block of outputs.

/// Block tile rows (M).
pub const BM: u32 = 128;
/// Block tile columns (N).
pub const BN: u32 = 128;
/// K-step.
pub const BK: u32 = 8;
/// Thread tile rows.
pub const TM: u32 = 8;
/// Thread tile columns.
pub const TN: u32 = 8;
/// Threads per block: `(BM/TM)·(BN/TN)` = 256.
pub const THREADS: u32 = (BM / TM) * (BN / TN);

/// The launch: `THREADS` threads, `a_tile[BM][BK]` and `b_tile[BK][BN]` in shared memory.
pub const CONFIG: crate::launch::TileConfig = crate::launch::TileConfig::new(BM, BN, BK, THREADS, (BM * BK + BK * BN) * 4);

kernel! {
    /// 2-D block-tiled matmul: a 128×128 tile of `C` per block of 256 threads, an 8×8 register block per thread.
    ///
    /// **What it fixes in kernel 3**: kernel 3 reuses only the `B` value (1.06 shared loads per FMA).
    /// Here a thread loads 8 values of `A` and 8 of `B` per K-step into registers and does their 64
    /// outer-product FMAs: 16 shared loads per 64 FMAs (0.25 per FMA, 4× fewer). The 128×128 block
    /// tile halves global traffic again: `M·N·K·(2/128)` = 16.8 M floats at 1024³ (kernel 3: 33.5 M).
    ///
    /// **Parameters**: as kernel 1 (any M, N, K).
    ///
    /// **Tiling**: dynamic shared memory `a_tile[BM][BK]` then `b_tile[BK][BN]` (8 KiB).
    ///
    /// **Thread mapping**: 256 threads; loads: 4 elements of `A` and 4 of `B` per thread (coalesced
    /// along K and N). Compute: thread `t` owns rows `(t / 16)·8 .. +8` and columns `(t % 16)·8 .. +8`
    /// (64 accumulators and 16 operands in registers).
    /// `a_tile` reads are column walks (stride BK) and `b_tile` reads are 8 words apart per thread
    /// (bank conflicts: threads `t` and `t + 4` hit the same bank) — kernels 5 and 6 fix both.
    ///
    /// **Barriers**: as kernel 2/3.
    ///
    /// Measurements: `docs/ladder/k04-blocktile-2d.md`.
    ///
    /// # Safety
    /// As kernel 1, plus a launch with 256 threads and ≥ 8 KiB dynamic shared memory.
    pub unsafe fn matmul_blocktile_2d(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use crate::device::{math::fma, shared::SharedTiles, thread};
        const LOADS: u32 = BM * BK / THREADS;
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let mut shared = SharedTiles::<f32>::new();
        // SAFETY: the launch provides (BM·BK + BK·BN) floats of dynamic shared memory.
        let (a_tile, b_tile) = unsafe { (shared.tile((BM * BK) as usize), shared.tile((BK * BN) as usize)) };
        let tid = thread::thread_idx_x();
        let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
        let (t_row, t_col) = ((tid / (BN / TN)) * TM, (tid % (BN / TN)) * TN);

        let mut acc = [[0.0f32; TN as usize]; TM as usize];
        let (mut ra, mut rb) = ([0.0f32; TM as usize], [0.0f32; TN as usize]);
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
                for i in 0..TM {
                    // SAFETY: t_row + i < BM, kk < BK.
                    ra[i as usize] = unsafe { a_tile.get(((t_row + i) * BK + kk) as usize) };
                }
                for j in 0..TN {
                    // SAFETY: kk < BK, t_col + j < BN.
                    rb[j as usize] = unsafe { b_tile.get((kk * BN + t_col + j) as usize) };
                }
                for i in 0..TM as usize {
                    for j in 0..TN as usize {
                        acc[i][j] = fma(ra[i], rb[j], acc[i][j]);
                    }
                }
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            k0 += BK;
        }
        for i in 0..TM {
            for j in 0..TN {
                let (r, col) = (row0 + t_row + i, col0 + t_col + j);
                if r < m && col < n {
                    // SAFETY: r < m, col < n.
                    unsafe { c.set((r * n + col) as usize, acc[i as usize][j as usize]) }
                }
            }
        }
    }
}
