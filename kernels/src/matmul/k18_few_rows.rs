//! Kernel 18: few rows — products with a handful of rows of `A` (M up to 16 per block: a batch of
//! vectors times a matrix), which read `B` once and do 2·M flops per element of it: memory-bound, like a GEMV.
//!
//! **What it fixes**: every tile of kernels 3–17 is at least 32 rows tall, so at M = 2 at least 15/16
//! of its multiply-adds work on zero rows (here rows past M are skipped: a block-uniform bound), and
//! its blocks are as many as `N / BN` column tiles — too few, each with too little in flight, to
//! stream `B` at the GPU's bandwidth (1×4096×4096: kernel 10's 32×128 tile 37.6 µs, this kernel 23.1,
//! cuBLAS 18.8; `docs/ladder/k18-few-rows.md`). From M = 3 on kernel 10 is faster: `Auto` runs this
//! one up to M = 2.
//!
//! **Tiling**: a block owns `ROWS = 16` rows × `COLS = 128` columns of `C` and one slice of K
//! (`gridDim.z` slices, as kernel 10: `⌈K/S⌉` rounded up to `BK = 64`). **Thread mapping**: lane `l`
//! of warp `w` (4 warps) owns columns `4l .. 4l + 4` of the block's columns and every 4th row of `B`
//! in the slice from row `w`: a warp reads 512 consecutive bytes of one row of `B` (one 16-byte load
//! per lane where rows are 16-byte aligned, four guarded floats otherwise) and the `ROWS` elements of
//! that column of `A` (the same address across the warp: a broadcast). Each thread keeps `ROWS × 4`
//! partial sums; the four warps' partial sums meet in shared memory (`WARPS · ROWS · COLS` floats,
//! one barrier), and each thread adds groups of four of the block's outputs into `C` atomically (16-byte
//! `red.global.add.v4.f32` where N is a multiple of 4). `C` is zeroed first by the host, as for
//! kernel 10.
use crate::launch::TileConfig;

/// Rows of `C` per block (at least the 16 of every other kernel's tile, so that no shape needs more
/// than the 65,535 block rows a grid may have).
pub const ROWS: u32 = 16;
/// Columns of `C` per block: 32 lanes × 4.
pub const COLS: u32 = 128;
/// Warps per block, each on every `WARPS`th row of `B`.
pub const WARPS: u32 = 4;
/// Rows of `B` per K-step of a block: 16 per warp (the unit of the split-K slices).
pub const BK: u32 = 64;
/// Rows of `B` a warp loads before it uses them.
const UNROLL: u32 = 4;

/// Shared memory: the warps' partial sums, `WARPS · ROWS · COLS` floats.
pub const SHARED_BYTES: u32 = WARPS * ROWS * COLS * 4;

/// The launch: 128 threads, `⌈N/128⌉ × ⌈M/16⌉ × slices` blocks, 32 KiB of dynamic shared memory,
/// `C` zeroed first.
pub const CONFIG: TileConfig = TileConfig::new(ROWS, COLS, BK, WARPS * 32, SHARED_BYTES).split_k();

/// One row `kk` of `B` for this lane's four columns `col .. col + 4`: a 16-byte load where rows are
/// 16-byte aligned and the four are inside `B`, guarded floats (zero past `n`) otherwise.
///
/// # Safety
/// `b` holds `k·n` floats from a 16-byte aligned base, `kk < k`, `col % 4 == 0`.
#[inline(always)]
unsafe fn b_row(b: crate::device::mem::View<f32>, n: u32, kk: u32, col: u32) -> [f32; 4] {
    if n.is_multiple_of(4) {
        if col < n {
            // SAFETY: col % 4 == 0 and n % 4 == 0, so col + 4 ≤ n; kk < k; 16-byte aligned.
            return unsafe { b.get4((kk * n + col) as usize) }.0;
        }
        return [0.0; 4];
    }
    let mut v = [0.0; 4];
    for (e, x) in v.iter_mut().enumerate() {
        if col + (e as u32) < n {
            // SAFETY: kk < k and col + e < n.
            *x = unsafe { b.get((kk * n + col + e as u32) as usize) };
        }
    }
    v
}

kernel! {
    /// Few-rows matmul (kernel 18): `C += A · B`, 16 rows × 128 columns per block, over K slice
    /// `blockIdx.z` (see the module for tiling, thread mapping and the one barrier).
    ///
    /// **Parameters / edges**: as kernel 1 (any M, N, K; rows past `m`, columns past `n` and an empty
    /// slice add nothing).
    ///
    /// Measurements: `docs/ladder/k18-few-rows.md`.
    ///
    /// # Safety
    /// As kernel 1, plus `C` zeroed before the launch and 16-byte aligned, and the launch [`CONFIG`]
    /// states: 128 threads, [`SHARED_BYTES`] of dynamic shared memory, the grid above.
    pub unsafe fn matmul_few_rows(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        use crate::device::{atomic, math::fma, shared::SharedTiles, thread};
        // SAFETY: the caller passes buffers of these sizes.
        let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
        let chunk = k.div_ceil(thread::grid_dim_z()).next_multiple_of(BK);
        let k_begin = (thread::block_idx_z() * chunk).min(k);
        let k_end = (k_begin + chunk).min(k);
        let (row0, col0) = (thread::block_idx_y() * ROWS, thread::block_idx_x() * COLS);
        let rows = m.saturating_sub(row0).min(ROWS);
        let (tid, lane) = (thread::thread_idx_x(), thread::thread_idx_x() % 32);
        let warp = tid / 32;
        let col = col0 + lane * 4;

        let mut acc = [[0.0f32; 4]; ROWS as usize];
        // Adds row `kk` of B (`bv`) times column `kk` of A's block rows into `acc`.
        let mut add_row = |kk: u32, bv: [f32; 4]| {
            for (i, sums) in acc.iter_mut().enumerate() {
                if (i as u32) < rows {
                    // SAFETY: row0 + i < m (i < rows) and kk < k: inside A's m·k floats.
                    let av = unsafe { a.get(((row0 + i as u32) * k + kk) as usize) };
                    for (s, &bx) in sums.iter_mut().zip(bv.iter()) {
                        *s = fma(av, bx, *s);
                    }
                }
            }
        };
        let mut kk = k_begin + warp;
        // UNROLL rows of B per warp at a time, their loads issued together: more bytes in flight.
        while kk + (UNROLL - 1) * WARPS < k_end {
            let mut bv = [[0.0f32; 4]; UNROLL as usize];
            for (u, v) in bv.iter_mut().enumerate() {
                // SAFETY: kk + u·WARPS < k_end ≤ k; col is a multiple of 4 (col0 and 4·lane are).
                *v = unsafe { b_row(b, n, kk + u as u32 * WARPS, col) };
            }
            for (u, v) in bv.iter().enumerate() {
                add_row(kk + u as u32 * WARPS, *v);
            }
            kk += UNROLL * WARPS;
        }
        while kk < k_end {
            // SAFETY: kk < k_end ≤ k; col is a multiple of 4.
            add_row(kk, unsafe { b_row(b, n, kk, col) });
            kk += WARPS;
        }

        // The warps' partial sums: red[w][i][0 .. COLS].
        let mut shared = SharedTiles::<f32>::new();
        // SAFETY: the launch provides SHARED_BYTES = WARPS·ROWS·COLS·4 bytes.
        let red = unsafe { shared.tile((WARPS * ROWS * COLS) as usize) };
        for (i, sums) in acc.iter().enumerate() {
            // SAFETY: (warp·ROWS + i)·COLS + 4·lane + 4 ≤ WARPS·ROWS·COLS; a multiple of 4 floats.
            unsafe { red.set4(((warp * ROWS + i as u32) * COLS + lane * 4) as usize, crate::device::mem::Float4(*sums)) }
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds
        // above differ by warp only in where they start, and the barrier is after the loop).
        unsafe { thread::sync_threads() };

        // The block's outputs in groups of four columns, (i, 4j .. 4j + 4) for group g = i·32 + j:
        // ROWS·COLS / 4 groups, thread t takes groups t, t + NT, …; consecutive threads, consecutive
        // columns (coalesced adds).
        let mut g = tid;
        while g < ROWS * COLS / 4 {
            let (i, j) = (g / (COLS / 4), g % (COLS / 4));
            let (r, cc) = (row0 + i, col0 + j * 4);
            if r < m && cc < n {
                let mut sum = [0.0f32; 4];
                for w in 0..WARPS {
                    // SAFETY: (w·ROWS + i)·COLS + 4j + 4 ≤ WARPS·ROWS·COLS (i < ROWS, j < COLS/4).
                    let v = unsafe { red.get4(((w * ROWS + i) * COLS + j * 4) as usize) }.0;
                    for (s, x) in sum.iter_mut().zip(v.iter()) {
                        *s += x;
                    }
                }
                if n.is_multiple_of(4) {
                    // SAFETY: r < m, cc + 4 ≤ n (cc, n multiples of 4): inside C, 16-byte aligned.
                    unsafe { atomic::add_f32x4(c, (r * n + cc) as usize, sum) }
                } else {
                    for (e, &v) in sum.iter().enumerate() {
                        if cc + (e as u32) < n {
                            // SAFETY: r < m, cc + e < n: inside C's m·n floats.
                            unsafe { atomic::add_f32(c, (r * n + cc + e as u32) as usize, v) }
                        }
                    }
                }
            }
            g += WARPS * 32;
        }
    }
}
