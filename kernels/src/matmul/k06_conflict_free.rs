//! Kernel 6: a bank-conflict-free shared layout (padded transposed `A`, strided 4×4 thread sub-tiles).

/// Block tile rows (M).
pub const BM: u32 = 128;
/// Block tile columns (N).
pub const BN: u32 = 128;
/// K-step.
pub const BK: u32 = 8;
/// Row stride of the transposed `A` tile: BM + 4 floats (keeps float4 alignment, shifts banks by 4).
pub const LDA: u32 = BM + 4;
/// Threads per block: 256 (16 × 16, each 8×8 outputs as 2×2 sub-tiles of 4×4).
pub const THREADS: u32 = 256;

/// The launch: `THREADS` threads, `a_tile[BK][LDA]` (transposed, padded) and `b_tile[BK][BN]` in shared memory.
pub const CONFIG: crate::launch::TileConfig = crate::launch::TileConfig::new(BM, BN, BK, THREADS, (BK * LDA + BK * BN) * 4);

kernel! {
    /// Conflict-free vectorized matmul: kernel 5 with a shared layout no warp access conflicts on.
    ///
    /// **What it fixes in kernel 5** (shared-memory bank conflicts; global traffic is unchanged at
    /// 16.8 M floats for 1024³):
    /// - **reads**: kernel 5's thread owns 8 contiguous columns, so the 8 threads of a quarter-warp
    ///   read float4s 32 bytes apart (256 bytes: 2 wavefronts per quarter-warp). Here the 8×8 thread
    ///   tile is 2×2 sub-tiles of 4×4 placed 64 rows/columns apart: thread `(ty, tx)` owns rows
    ///   `ty·4 + {0, 64}` and columns `tx·4 + {0, 64}`, so a quarter-warp's float4 reads are 128
    ///   contiguous bytes (one wavefront); the `a_tile` reads are broadcasts.
    /// - **transposed stores**: kernel 5's threads `2r`, `2r + 1` write K columns 0–3 and 4–7 of row `r`
    ///   at word distance 4·128 ≡ 0 (mod 32 banks): 2-way conflicts. Padding each transposed row to
    ///   `LDA = BM + 4` words moves the second half by 16 banks: a warp's 32 stores hit 32 banks.
    ///
    /// **Parameters / edges**: as kernel 5 (any M, N, K; block-uniform fast path).
    ///
    /// **Tiling**: `a_tile[BK][LDA]` (transposed, padded), `b_tile[BK][BN]`: 8.3 KiB.
    ///
    /// **Barriers**: as kernel 4.
    ///
    /// Measurements: `docs/ladder/k06-conflict-free.md`.
    ///
    /// # Safety
    /// As kernel 1, plus a launch with 256 threads and ≥ (BK·LDA + BK·BN)·4 bytes of dynamic shared
    /// memory.
    pub unsafe fn matmul_conflict_free(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use super::tile_io::{load_a, load_b, store_a_transposed, store_b, store_c4};
        use crate::device::{math::fma, shared::SharedTiles, thread};
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let mut shared = SharedTiles::<f32>::new();
        // SAFETY: the launch provides (BK·LDA + BK·BN) floats of dynamic shared memory.
        let (a_tile, b_tile) = unsafe { (shared.tile((BK * LDA) as usize), shared.tile((BK * BN) as usize)) };
        let tid = thread::thread_idx_x();
        let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
        let (ty, tx) = ((tid / 16) * 4, (tid % 16) * 4);
        let (rows_in, cols_in) = (row0 + BM <= m, col0 + BN <= n);

        let mut acc = [[[[0.0f32; 4]; 2]; 4]; 2];
        let mut k0 = 0;
        while k0 < k {
            let k_in = k0 + BK <= k;
            // SAFETY: the fast flags follow load_a/load_b's contracts; tiles hold BK·LDA and BK·BN floats.
            unsafe {
                let ra = load_a::<BM, BK, THREADS, 1>(a, m, k, k, row0, k0, tid, rows_in && k_in && k.is_multiple_of(4));
                let rb = load_b::<BN, BK, THREADS, 1>(b, n, k, k0, col0, tid, cols_in && k_in && n.is_multiple_of(4));
                store_a_transposed::<BK, THREADS, LDA, 1>(a_tile, &ra, tid);
                store_b::<BN, THREADS, BN, 1>(b_tile, &rb, tid);
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            for kk in 0..BK {
                // SAFETY: kk < BK; ty + 64 + 4 ≤ BM ≤ LDA and tx + 64 + 4 ≤ BN, all multiples of 4.
                let (ra, rb) = unsafe {
                    (
                        [a_tile.get4((kk * LDA + ty) as usize).0, a_tile.get4((kk * LDA + ty + 64) as usize).0],
                        [b_tile.get4((kk * BN + tx) as usize).0, b_tile.get4((kk * BN + tx + 64) as usize).0],
                    )
                };
                for hm in 0..2 {
                    for i in 0..4 {
                        for hn in 0..2 {
                            for j in 0..4 {
                                acc[hm][i][hn][j] = fma(ra[hm][i], rb[hn][j], acc[hm][i][hn][j]);
                            }
                        }
                    }
                }
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            k0 += BK;
        }
        let fast = rows_in && cols_in && n.is_multiple_of(4);
        for hm in 0..2u32 {
            for i in 0..4u32 {
                let r = row0 + ty + hm * 64 + i;
                for hn in 0..2u32 {
                    // SAFETY: `fast` only for an interior block with n % 4 == 0; col is a multiple of 4.
                    unsafe { store_c4(c, m, n, r, col0 + tx + hn * 64, acc[hm as usize][i as usize][hn as usize], fast) }
                }
            }
        }
    }
}
