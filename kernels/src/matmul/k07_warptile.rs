//! Kernel 7: warp tiling — a warp owns a 2-D sub-tile of the block tile, lanes arranged 8×4 inside it.

/// Lanes of a warp along M inside a warp sub-tile (rows of 4 outputs each: 32 rows).
pub const LANES_M: u32 = 8;
/// Lanes along N (columns of 4 outputs each: 16 columns).
pub const LANES_N: u32 = 4;
/// Rows / columns one warp sub-tile covers: 8·4 = 32 rows, 4·4 = 16 columns.
pub const WSUB_M: u32 = LANES_M * 4;
pub const WSUB_N: u32 = LANES_N * 4;

/// Dynamic shared memory, in bytes, of a `BM×BN×BK` warp-tiled block: `a_tile[BK][BM + 4]` (transposed,
/// padded) and `b_tile[BK][BN]`.
pub const fn shared_bytes(bm: u32, bn: u32, bk: u32) -> u32 {
    (bk * (bm + 4) + bk * bn) * 4
}

/// [`matmul_warptile`]'s launch: a 128×128×8 block tile, 256 threads.
pub const CONFIG: crate::launch::TileConfig = crate::launch::TileConfig::new(128, 128, 8, 256, shared_bytes(128, 128, 8));

/// Where a thread's outputs start inside the block tile: `(row, col)` of its first 4×4 fragment.
/// Warp `w` covers rows `(w / (BN/WN))·WM .. +WM` and columns `(w % (BN/WN))·WN .. +WN`
/// (WM = 32·WMI, WN = 16·WNI); lane `l` sits at `(l / 4)·4`, `(l % 4)·4` inside each 32×16 sub-tile.
#[inline(always)]
pub fn thread_origin<const BN: u32, const WMI: usize, const WNI: usize>(tid: u32) -> (u32, u32) {
    let (wm, wn) = (WSUB_M * WMI as u32, WSUB_N * WNI as u32);
    let (warp, lane) = (tid / 32, tid % 32);
    ((warp / (BN / wn)) * wm + (lane / LANES_N) * 4, (warp % (BN / wn)) * wn + (lane % LANES_N) * 4)
}

/// The accumulators of one thread: `acc[wm][i][wn][j]` is output row `origin.0 + wm·32 + i`,
/// column `origin.1 + wn·16 + j`.
pub type Acc<const WMI: usize, const WNI: usize> = [[[[f32; 4]; WNI]; 4]; WMI];

/// One K-step of shared tiles into the accumulators: per `kk`, `WMI` float4 reads of the transposed
/// `A` tile and `WNI` of the `B` tile, then `16·WMI·WNI` FMAs.
///
/// Bank conflicts: a quarter-warp (lanes 8q .. 8q+7) reads 2 distinct `A` float4s (broadcasts) and 4
/// consecutive `B` float4s (64 bytes): one wavefront each.
///
/// # Safety
/// `a_t` holds `BK·LDA` floats, `b_t` `BK·LDB`; `(ar, bc)` from [`thread_origin`] with
/// `ar + 32·WMI ≤ LDA`, `bc + 16·WNI ≤ LDB`; LDA, LDB multiples of 4.
#[inline(always)]
pub unsafe fn mma_tile<const BK: u32, const LDA: u32, const LDB: u32, const WMI: usize, const WNI: usize>(
    a_t: crate::device::mem::View<f32>,
    b_t: crate::device::mem::View<f32>,
    ar: u32,
    bc: u32,
    acc: &mut Acc<WMI, WNI>,
) {
    for kk in 0..BK {
        // SAFETY: kk < BK, forwarded contract.
        unsafe { mma_kk::<LDA, LDB, WMI, WNI>(a_t, b_t, kk, ar, bc, acc) }
    }
}

/// [`mma_tile`] as a loop of `BK / U` iterations of `U` unrolled `kk` steps, kept rolled (LLVM and
/// ptxas would otherwise unroll all `BK`): a smaller loop body for the largest tiles.
///
/// # Safety
/// As [`mma_tile`]; `U` divides `BK`.
#[inline(always)]
pub unsafe fn mma_tile_rolled<const BK: u32, const U: u32, const LDA: u32, const LDB: u32, const WMI: usize, const WNI: usize>(
    a_t: crate::device::mem::View<f32>,
    b_t: crate::device::mem::View<f32>,
    ar: u32,
    bc: u32,
    acc: &mut Acc<WMI, WNI>,
) {
    use crate::device::unroll;
    const { assert!(U > 0 && BK.is_multiple_of(U)) };
    let groups = unroll::opaque(BK / U);
    let mut g = 0;
    while g < groups {
        unroll::keep_rolled();
        for u in 0..U {
            // SAFETY: g·U + u < BK (groups = BK / U), forwarded contract.
            unsafe { mma_kk::<LDA, LDB, WMI, WNI>(a_t, b_t, g * U + u, ar, bc, acc) }
        }
        g += 1;
    }
}

/// One `kk` of [`mma_tile`]: `WMI` + `WNI` float4 shared reads, `16·WMI·WNI` FMAs.
///
/// # Safety
/// As [`mma_tile`], with `kk < BK`.
#[inline(always)]
unsafe fn mma_kk<const LDA: u32, const LDB: u32, const WMI: usize, const WNI: usize>(
    a_t: crate::device::mem::View<f32>,
    b_t: crate::device::mem::View<f32>,
    kk: u32,
    ar: u32,
    bc: u32,
    acc: &mut Acc<WMI, WNI>,
) {
    use crate::device::math::fma;
    let mut ra = [[0.0f32; 4]; WMI];
    let mut rb = [[0.0f32; 4]; WNI];
    for (w, x) in ra.iter_mut().enumerate() {
        // SAFETY: kk < BK, ar + 32·w + 4 ≤ LDA, multiple of 4 (the caller's contract).
        *x = unsafe { a_t.get4((kk * LDA + ar + w as u32 * WSUB_M) as usize).0 };
    }
    for (w, x) in rb.iter_mut().enumerate() {
        // SAFETY: as above for B.
        *x = unsafe { b_t.get4((kk * LDB + bc + w as u32 * WSUB_N) as usize).0 };
    }
    for wm in 0..WMI {
        for i in 0..4 {
            for wn in 0..WNI {
                for j in 0..4 {
                    acc[wm][i][wn][j] = fma(ra[wm][i], rb[wn][j], acc[wm][i][wn][j]);
                }
            }
        }
    }
}

/// Writes a thread's accumulators to `C`: float4 stores on an interior, aligned block; guarded ones on
/// an edge block; where N is not a multiple of 4, a row at a time through shared memory
/// ([`write_acc_by_rows`]) when `BY_ROWS` (the `…_by_rows` twin entries, `by_rows_twin!`), element
/// by element across the warp's 8 rows otherwise.
///
/// # Safety
/// `c` holds `m·n` floats; `fast` only when the whole block tile is inside `C` and `n % 4 == 0`.
/// Where `BY_ROWS` and `n % 4 != 0`, as [`write_acc_by_rows`]: every thread of the block calls it,
/// after a barrier that follows its last use of shared memory, and a barrier separates it from the
/// next use.
#[allow(clippy::needless_range_loop)] // the indices also compute the output rows and columns
#[inline(always)]
pub unsafe fn store_acc<const BM: u32, const BN: u32, const WMI: usize, const WNI: usize, const BY_ROWS: bool>(
    c: crate::device::mem::View<f32>,
    m: u32,
    n: u32,
    r0: u32,
    c0: u32,
    acc: &Acc<WMI, WNI>,
    fast: bool,
) {
    if BY_ROWS && !n.is_multiple_of(4) {
        // SAFETY: forwarded contract (n % 4 is the same for every thread of the grid).
        return unsafe { write_acc_by_rows::<BM, BN, WMI, WNI, false>(c, m, n, r0, c0, acc) };
    }
    for wm in 0..WMI {
        for i in 0..4 {
            let r = r0 + wm as u32 * WSUB_M + i as u32;
            for wn in 0..WNI {
                // SAFETY: forwarded contract; columns are multiples of 4.
                unsafe { super::tile_io::store_c4(c, m, n, r, c0 + wn as u32 * WSUB_N, acc[wm][i][wn], fast) }
            }
        }
    }
}

/// Bytes of shared memory [`write_acc_by_rows`] uses for a block of `threads` threads with `WNI`
/// fragments per thread: 8 rows of `16·WNI` floats per warp.
pub const fn staging_bytes(threads: u32, wni: usize) -> u32 {
    threads / 32 * 8 * WSUB_N * wni as u32 * 4
}

/// Where [`write_acc_by_rows`] keeps column `col` of staging row `row` (rows of `w` floats): odd rows
/// are swizzled by 16 columns when `w` is a multiple of 32, so that the two rows a quarter-warp's
/// float4 writes touch fall on different banks (for `w = 16` consecutive rows already do).
#[inline(always)]
fn staged(row: u32, col: u32, w: u32) -> usize {
    let swizzle = if w.is_multiple_of(32) { (row & 1) * 16 } else { 0 };
    (row * w + (col ^ swizzle)) as usize
}

/// Writes (`ADD = false`) or atomically adds (`ADD = true`, into a zeroed `C`) a thread's accumulators
/// row by row of `C`, through shared memory: the unaligned path (N not a multiple of 4, so rows of `C`
/// are not 16-byte aligned). A warp's lanes hold 8 rows × 4 columns of float4s per `(wm, i)`; stored
/// element by element from there, each instruction would touch 8 rows 16 bytes apart — four times the
/// L2 sectors of its data. Instead the warp writes those 8 rows (`16·WNI` columns each) into its own
/// staging rows (8 KB per 8 warps of `WNI = 2`: it fits kernel 7's one stage), and each lane then
/// stores one element of a row, so one instruction covers 32 consecutive columns of one row (two rows
/// of 16 for `WNI = 1`).
///
/// Per `(wm, i)`: `WNI` float4 writes to shared memory, [`sync_warp`](crate::device::thread::sync_warp),
/// `4·WNI` element reads and global stores (or `red.global.add.f32`), `sync_warp` again before the next
/// pass overwrites the rows.
///
/// # Safety
/// `c` holds `m·n` floats; `(r0, c0)` is this thread's first output as placed by [`thread_origin`]
/// (so the warp's origin is `(r0 − 4·(lane / 4), c0 − 4·(lane % 4))`); `ADD` only into a `C` that
/// others add to atomically too. Every thread of the block calls it (all lanes of each warp: it has
/// warp barriers); the launch gives at least [`staging_bytes`]`(threads, WNI)` bytes of dynamic shared
/// memory, which no thread of the block reads or writes meanwhile: a barrier after the block's last use
/// before the call, and one before its next use after it.
#[allow(clippy::needless_range_loop)] // the indices also compute the output rows
#[inline(always)]
pub unsafe fn write_acc_by_rows<const BM: u32, const BN: u32, const WMI: usize, const WNI: usize, const ADD: bool>(
    c: crate::device::mem::View<f32>,
    m: u32,
    n: u32,
    r0: u32,
    c0: u32,
    acc: &Acc<WMI, WNI>,
) {
    use crate::device::{atomic, mem::Float4, shared::SharedTiles, thread};
    if ADD {
        // C's zeroing may still run (the host queues an adding launch as its dependent).
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    let (wm_rows, w) = (WSUB_M * WMI as u32, WSUB_N * WNI as u32);
    // Everything from (r0, c0) and %laneid: values the main loop computed from the thread index would
    // be reused here and kept live through it, costing registers there.
    let lane = thread::lane_id();
    let (q, l4) = (lane / LANES_N, lane % LANES_N);
    let (wr, wc) = (r0 - 4 * q, c0 - 4 * l4);
    // The warp's slot: its place in the block tile (`thread_origin` backwards; row0, col0 are
    // multiples of BM, BN).
    let (warps, warp) = ((BM / wm_rows) * (BN / w), (wr % BM) / wm_rows * (BN / w) + (wc % BN) / w);
    // SAFETY: the launch provides staging_bytes(threads, WNI) bytes, unused by anyone else meanwhile.
    let rows = unsafe { SharedTiles::<f32>::new().tile((warps * 8 * w) as usize).sub((warp * 8 * w) as usize, (8 * w) as usize) };
    for wm in 0..WMI {
        for i in 0..4u32 {
            for wn in 0..WNI {
                // SAFETY: q < 8, wn·16 + 4·l4 + 4 ≤ w: inside this warp's rows, a multiple of 4.
                unsafe { rows.set4(staged(q, wn as u32 * WSUB_N + 4 * l4, w), Float4(acc[wm][i as usize][wn])) }
            }
            // SAFETY: every lane of the warp passes here (no branch above depends on the lane).
            unsafe { thread::sync_warp() };
            for t in 0..w / 4 {
                // Element f of the warp's 8·w: staging row f / w (row 4·(f / w) + i of the warp's
                // sub-tile), column f % w.
                let f = lane + 32 * t;
                let (row, col) = (f / w, f % w);
                let (r, cc) = (wr + wm as u32 * WSUB_M + 4 * row + i, wc + col);
                // SAFETY: row < 8, col < w.
                let v = unsafe { rows.get(staged(row, col, w)) };
                if r < m && cc < n {
                    // SAFETY: r < m, cc < n: inside C's m·n floats.
                    unsafe {
                        if ADD {
                            atomic::add_f32(c, (r * n + cc) as usize, v)
                        } else {
                            c.set((r * n + cc) as usize, v)
                        }
                    }
                }
            }
            // SAFETY: as above; the next pass overwrites the rows these reads used.
            unsafe { thread::sync_warp() };
        }
    }
}

/// The warp-tiled kernel body for a `BM×BN×BK` block tile of `NT` threads; `LA`/`LB` float4 loads
/// per thread per K-step for `A`/`B` (`LA = BM·BK/(4·NT)`, `LB = BK·BN/(4·NT)`); `BY_ROWS` as
/// [`store_acc`]'s (its loop ends on a barrier, so the staging rows are free).
///
/// # Safety
/// As [`matmul_warptile`], with `NT` threads and `(BK·LDA + BK·BN)·4` bytes of dynamic shared memory
/// (`LDA = BM + 4`: the padded transposed `A` rows of kernel 6).
#[inline(always)]
pub unsafe fn warptile<
    const BM: u32,
    const BN: u32,
    const BK: u32,
    const LDA: u32,
    const WMI: usize,
    const WNI: usize,
    const NT: u32,
    const LA: usize,
    const LB: usize,
    const BY_ROWS: bool,
>(
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    use super::tile_io::{load_a, load_b, store_a_transposed, store_b};
    use crate::device::{shared::SharedTiles, thread};
    const { assert!((BM / (WSUB_M * WMI as u32)) * (BN / (WSUB_N * WNI as u32)) * 32 == NT) };
    const { assert!(LDA >= BM && LDA.is_multiple_of(4)) };
    const { assert!(staging_bytes(NT, WNI) <= (BK * LDA + BK * BN) * 4) };
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch provides (BK·LDA + BK·BN) floats of dynamic shared memory.
    let (a_tile, b_tile) = unsafe { (shared.tile((BK * LDA) as usize), shared.tile((BK * BN) as usize)) };
    let tid = thread::thread_idx_x();
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    let (ar, bc) = thread_origin::<BN, WMI, WNI>(tid);
    let (rows_in, cols_in) = (row0 + BM <= m, col0 + BN <= n);

    let mut acc: Acc<WMI, WNI> = [[[[0.0; 4]; WNI]; 4]; WMI];
    let mut k0 = 0;
    while k0 < k {
        let k_in = k0 + BK <= k;
        // SAFETY: the fast flags follow load_a/load_b's contracts; the tiles are sized above.
        unsafe {
            let ra = load_a::<BM, BK, NT, LA>(a, m, k, k, row0, k0, tid, rows_in && k_in && k.is_multiple_of(4));
            let rb = load_b::<BN, BK, NT, LB>(b, n, k, k0, col0, tid, cols_in && k_in && n.is_multiple_of(4));
            store_a_transposed::<BK, NT, LDA, LA>(a_tile, &ra, tid);
            store_b::<BN, NT, BN, LB>(b_tile, &rb, tid);
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        // SAFETY: ar + 32·WMI ≤ BM < LDA, bc + 16·WNI ≤ BN (thread_origin).
        unsafe { mma_tile::<BK, LDA, BN, WMI, WNI>(a_tile, b_tile, ar, bc, &mut acc) };
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        k0 += BK;
    }
    // SAFETY: `fast` only for an interior block with n % 4 == 0.
    unsafe { store_acc::<BM, BN, WMI, WNI, BY_ROWS>(c, m, n, row0 + ar, col0 + bc, &acc, rows_in && cols_in && n.is_multiple_of(4)) }
}

kernel! {
    /// Warp-tiled matmul: 128×128×8 block tile, 8 warps of 64×32, 8×8 outputs per thread.
    ///
    /// **What it fixes in kernel 6**: kernel 6 arranges the 256 threads 16×16 over the whole block
    /// tile, so one warp (2 thread rows × 16 thread columns) spans 128 columns of `B` and only 16 rows
    /// of `A`: each warp touches 128 + 16 = 144 floats of shared memory per `kk` for its 2,048 FMAs.
    /// Here each warp owns a compact 64×32 sub-tile (lanes 8×4, each lane 2×2 fragments of 4×4 32 rows
    /// / 16 columns apart): 64 + 32 = 96 floats per `kk` for the same 2,048 FMAs — a third less
    /// shared-memory traffic per FMA, still conflict-free (a quarter-warp reads 2 broadcast `A` float4s
    /// and 64 contiguous bytes of `B`). The output fragments of a warp also land in fewer rows of `C`.
    /// Global traffic is unchanged (16.8 M floats at 1024³).
    ///
    /// **Parameters / edges**: as kernel 5 (any M, N, K; block-uniform fast path).
    ///
    /// **Tiling**: `a_tile[BK][BM + 4]` (transposed, padded), `b_tile[BK][BN]`: 8.3 KiB.
    ///
    /// **Barriers**: as kernel 4.
    ///
    /// Measurements: `docs/ladder/k07-warptile.md`.
    ///
    /// # Safety
    /// As kernel 1, plus 256 threads and ≥ (8·132 + 8·128)·4 = 8,320 bytes of dynamic shared memory.
    pub unsafe fn matmul_warptile(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { warptile::<{ CONFIG.bm }, { CONFIG.bn }, { CONFIG.bk }, { CONFIG.bm + 4 }, 2, 2, { CONFIG.threads() }, 1, 1, false>(a, b, c, m, n, k) }
    }
}

by_rows_twin!(
    matmul_warptile,
    matmul_warptile_by_rows,
    warptile::<{ CONFIG.bm }, { CONFIG.bn }, { CONFIG.bk }, { CONFIG.bm + 4 }, 2, 2, { CONFIG.threads() }, 1, 1, true>
);
