//! Kernel 5: 128-bit (float4) global and shared accesses; the `A` tile is stored transposed.

/// Block tile rows (M).
pub const BM: u32 = 128;
/// Block tile columns (N).
pub const BN: u32 = 128;
/// K-step.
pub const BK: u32 = 8;
/// Thread tile (TM×TN outputs per thread).
pub const TM: u32 = 8;
pub const TN: u32 = 8;
/// Threads per block: 256.
pub const THREADS: u32 = (BM / TM) * (BN / TN);

/// The launch: `THREADS` threads, `a_tile[BK][BM]` (transposed) and `b_tile[BK][BN]` in shared memory.
pub const CONFIG: crate::launch::TileConfig = crate::launch::TileConfig::new(BM, BN, BK, THREADS, (BK * BM + BK * BN) * 4);

kernel! {
    /// Vectorized 2-D block-tiled matmul: kernel 4's tiling with float4 loads and stores.
    ///
    /// **What it fixes in kernel 4**: kernel 4 moves every float with its own instruction: 4 + 4
    /// scalar global loads and stores per thread per K-step, 8 + 8 scalar shared loads per `kk`, and
    /// its `a_tile` column walk (stride BK) cannot be vectorized. Here:
    /// - global → shared: one 128-bit load of `A` and one of `B` per thread per K-step (4× fewer load
    ///   instructions; the same 16.8 M floats of traffic at 1024³);
    /// - `A` is written **transposed** into shared memory (`a_tile[kk][row]`), so the 8 `A` values a
    ///   thread needs for one `kk` are contiguous: 2 float4 shared loads, and 2 for `B` — 4 shared load
    ///   instructions per 64 FMAs (kernel 4: 16);
    /// - `C` is written with float4 stores.
    ///
    /// **Edges (fast path kept)**: a block-uniform flag per tile picks the float4 path when the tile is
    /// inside the matrix and rows are 16-byte aligned (`k % 4 == 0` for `A`, `n % 4 == 0` for `B`/`C`);
    /// otherwise the same tile is filled by guarded scalar loads with zero padding (see `tile_io`). Any
    /// M, N, K works.
    ///
    /// **Tiling**: `a_tile[BK][BM]` (transposed) then `b_tile[BK][BN]`: 8 KiB of dynamic shared memory.
    ///
    /// **Thread mapping**: thread `t` owns rows `(t / 16)·8 .. +8` and columns `(t % 16)·8 .. +8`.
    /// **Bank conflicts left**: the float4 `b_tile` reads of a quarter-warp (8 threads, 32 bytes apart)
    /// span 256 bytes: 2-way conflicts; the transposed `a_tile` stores of threads `2r` and `2r + 1`
    /// (same row, K columns 0–3 / 4–7, 4·128 words apart) hit the same bank: 2-way. Kernel 6 fixes both.
    ///
    /// **Barriers**: as kernel 4.
    ///
    /// Measurements: `docs/ladder/k05-vectorized.md`.
    ///
    /// # Safety
    /// As kernel 1, plus a launch with 256 threads and ≥ 8 KiB dynamic shared memory.
    pub unsafe fn matmul_vectorized(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use super::tile_io::{load_a, load_b, store_a_transposed, store_b, store_c4};
        use crate::device::{math::fma, shared::SharedTiles, thread};
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let mut shared = SharedTiles::<f32>::new();
        // SAFETY: the launch provides (BK·BM + BK·BN) floats of dynamic shared memory.
        let (a_tile, b_tile) = unsafe { (shared.tile((BK * BM) as usize), shared.tile((BK * BN) as usize)) };
        let tid = thread::thread_idx_x();
        let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
        let (t_row, t_col) = ((tid / (BN / TN)) * TM, (tid % (BN / TN)) * TN);
        let (rows_in, cols_in) = (row0 + BM <= m, col0 + BN <= n);

        let mut acc = [[0.0f32; TN as usize]; TM as usize];
        let mut k0 = 0;
        while k0 < k {
            let k_in = k0 + BK <= k;
            // SAFETY: the fast flags follow load_a/load_b's contracts; tiles hold BK·BM and BK·BN floats.
            unsafe {
                let ra = load_a::<BM, BK, THREADS, 1>(a, m, k, k, row0, k0, tid, rows_in && k_in && k.is_multiple_of(4));
                let rb = load_b::<BN, BK, THREADS, 1>(b, n, k, k0, col0, tid, cols_in && k_in && n.is_multiple_of(4));
                store_a_transposed::<BK, THREADS, BM, 1>(a_tile, &ra, tid);
                store_b::<BN, THREADS, BN, 1>(b_tile, &rb, tid);
            }
            // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
            unsafe { thread::sync_threads() };
            for kk in 0..BK {
                // SAFETY: kk < BK; t_row + 8 ≤ BM and t_col + 8 ≤ BN, all multiples of 4.
                let (a0, a1, b0, b1) = unsafe {
                    (
                        a_tile.get4((kk * BM + t_row) as usize),
                        a_tile.get4((kk * BM + t_row + 4) as usize),
                        b_tile.get4((kk * BN + t_col) as usize),
                        b_tile.get4((kk * BN + t_col + 4) as usize),
                    )
                };
                let (ra, rb) = ([a0.0, a1.0].concat_arrays(), [b0.0, b1.0].concat_arrays());
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
        let fast = rows_in && cols_in && n.is_multiple_of(4);
        for i in 0..TM {
            let r = row0 + t_row + i;
            for h in 0..2u32 {
                let v = [0, 1, 2, 3].map(|j| acc[i as usize][(h * 4) as usize + j]);
                // SAFETY: `fast` only for an interior block with n % 4 == 0; col is a multiple of 4.
                unsafe { store_c4(c, m, n, r, col0 + t_col + h * 4, v, fast) }
            }
        }
    }
}

/// `[[f32; 4]; 2]` → `[f32; 8]` (a register-only reshuffle).
trait ConcatArrays {
    fn concat_arrays(self) -> [f32; 8];
}
impl ConcatArrays for [[f32; 4]; 2] {
    #[inline(always)]
    fn concat_arrays(self) -> [f32; 8] {
        let [x, y] = self;
        [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]
    }
}
