//! Kernel 19: few columns — products whose `C` is a handful of columns wide (N up to 4 per block: a
//! matrix times a few vectors; N = 1 is a GEMV), which read `A` once and do 2·N flops per element of
//! it: memory-bound on `A`. Kernel 18's transpose.
//!
//! **What it fixes**: every tile of kernels 3–17 is at least 16 columns wide and reads `A` as rows of
//! a 16-to-64-row tile through shared memory, one K-step at a time, with its blocks' multiply-adds on
//! zero columns: at 160×1×2030 the fastest of them took 13 µs where cuBLAS's GEMV took 4.8 (this
//! kernel 6.5), at 5000×1×4096 55 µs (`few-cols` 16 wide: 55; this kernel 35; cuBLAS 27)
//! (`docs/ladder/k19-few-cols.md`). Here each warp streams whole 512-byte runs of its rows of `A`
//! straight into registers.
//!
//! **Tiling**: a block owns `ROWS = 32` rows × `COLS = 4` columns of `C` and one slice of K
//! (`gridDim.z` slices, as kernel 10: `⌈K/S⌉` rounded up to `BK = 128`). **Thread mapping**: warp `w`
//! (8 warps) owns rows `4w .. 4w + 4` of the block; lane `l` owns elements `8l .. 8l + 8` of each run
//! of 256 of the slice: per run, its four rows' eight elements of `A` (16 bytes of a 16-bit row, 32 of
//! an `f32` one: a warp reads 512 or 1,024 consecutive bytes of each row), the loads of the runs in
//! flight (two of 16-bit rows, one of `f32`) issued before their multiply-adds (where K is no
//! multiple of 8: elements `4l .. 4l + 4` of runs of 128, four runs in flight, three of 16-bit rows); for each of its `k`,
//! the row `k` of `B` at the block's 4 columns (16-byte loads where N is a multiple of 4, elements
//! otherwise, branch-free; the 8 warps read the same rows of `B`, from L1). Each thread keeps 4 × 4
//! partial sums; a warp's 32 lanes add theirs through its own 2.5 KiB of shared memory (one
//! `bar.warp.sync`, no block barrier), and lanes `0 .. 16` write the warp's 4 × 4 outputs: stored
//! when the launch has one slice (`C` is not zeroed), added into the zeroed `C` otherwise. Columns
//! past N are computed on zeros and not written.
//!
//! **The loop**: where K is a multiple of 8 one loop of predicated loads, eight elements a lane (a
//! lane's eight are whole or wholly past the slice's end; no edge paths: on a small product each
//! instruction runs about once, so the code a block fetches is much of its time); other K (rows of
//! `A` not 16-byte aligned) a loop of four elements a lane with no branch among its loads, four runs
//! in flight (three in the 16-bit entries).
//! Where N = 1 the body computes one column (`B` a vector): a GEMV at cuBLAS's speed
//! (`docs/ladder/k19-few-cols.md`).
//!
//! **Inputs**: `f32`, or BF16 / FP16 widened to `f32` at their use ([`super::input`]: exact, so the
//! 16-bit entries compute as FP32 would on the same values; the loads stay 16-bit while in flight).
//!
//! **K-split entries** (16-bit): a block of one warp's 4 rows whose eight warps each take an eighth
//! of the block's K and add their sums through shared memory after one block barrier — `⌈M/4⌉`
//! blocks fill the SMs with one slice where 32-row blocks need several; their row tiles walk the
//! grid's `x` ([`KSPLIT_CONFIG`]).
//!
//! The body is generic over the columns and the runs in flight: 16 columns with one run (64 partial
//! sums per thread leave no registers for more under two blocks per SM) was measured and dropped
//! (`docs/ladder/k19-few-cols.md`).
use super::input::{Input, F32};
use super::mma_ops::{Bf16, F16};
use crate::device::mem::View;
use crate::launch::TileConfig;

/// Rows of `C` per block: 8 warps × `WARP_ROWS`.
pub const ROWS: u32 = WARPS * WARP_ROWS;
/// Columns of `C` per block (`Auto` weighs the kernel up to `tuning::FEW_COLS_MAX_N` columns, over
/// several blocks).
pub const COLS: u32 = 4;
/// Warps per block, each on its own rows.
pub const WARPS: u32 = 8;
/// Runs of four elements a lane whose loads of `A` a warp issues before their multiply-adds where K is
/// no multiple of 8 ([`few_cols_fours`]): `RUNS · WARP_ROWS · 128` elements in flight per warp.
const RUNS: usize = 4;
/// [`RUNS`] for the 16-bit entries: with four, two of them spilled (16 bytes) under the two-blocks
/// bound of 128 registers.
const RUNS_16: usize = 3;
/// Rows of `C` per warp: one load of `B` serves this many rows' multiply-adds.
const WARP_ROWS: u32 = 4;
/// The unit of the split-K slices (`TileConfig::bk`): elements of K per lane-load of four, 32 × 4.
pub const BK: u32 = 32 * 4;

/// A lane's row of partial sums in its warp's shared rows: `WARP_ROWS · cols` floats, padded by 4 so
/// the 16-byte writes of 8 consecutive lanes fall on distinct banks.
const fn lane_stride(cols: u32) -> u32 {
    WARP_ROWS * cols + 4
}

/// Dynamic shared memory of a launch of `cols`-column blocks whose warps split K in `kp` parts: each
/// warp's 32 lanes' partial sums (`32 · lane_stride(cols)` floats) and, with `kp > 1`, each warp's
/// `WARP_ROWS · cols` outputs.
pub const fn shared_bytes(cols: u32, kp: u32) -> u32 {
    let parts = if kp > 1 { WARPS * WARP_ROWS * cols } else { 0 };
    (WARPS * 32 * lane_stride(cols) + parts) * 4
}

/// Shared memory of the entries whose warps each take their own rows ([`shared_bytes`]`(COLS, 1)`).
pub const SHARED_BYTES: u32 = shared_bytes(COLS, 1);

/// Parts of a block's K slice in the K-split entries: all its warps on one warp's rows, each on an
/// eighth of the slice — a block of `WARP_ROWS` rows, so `⌈M/4⌉` blocks fill the SMs with one slice
/// where 32-row blocks need slices (a zeroed `C` and atomic adds) below M ≈ 4,000.
pub const KSPLIT_PARTS: u32 = WARPS;

/// Rows of `C` per block of the K-split entries.
pub const KSPLIT_ROWS: u32 = WARPS / KSPLIT_PARTS * WARP_ROWS;

/// The launch: 256 threads, `⌈N/4⌉ × ⌈M/32⌉ × slices` blocks, 20 KiB of dynamic shared memory; with
/// one slice the kernel stores `C`, with more it adds into `C` zeroed first.
pub const CONFIG: TileConfig =
    TileConfig::new(ROWS, COLS, BK, WARPS * 32, SHARED_BYTES).min_blocks_per_sm(2).split_k().stores_unsplit().chained();

/// The K-split entries' launch: as [`CONFIG`] with [`KSPLIT_ROWS`] rows per block, its row tiles
/// along the grid's `x` (`⌈M/4⌉ × ⌈N/4⌉ × slices` blocks) and the warps' outputs in shared memory too.
pub const KSPLIT_CONFIG: TileConfig = TileConfig::new(KSPLIT_ROWS, COLS, BK, WARPS * 32, shared_bytes(COLS, KSPLIT_PARTS))
    .min_blocks_per_sm(2)
    .split_k()
    .stores_unsplit()
    .rows_on_x()
    .chained();

/// Row `r` of `A` at columns `kk .. kk + 4`, as loaded, with no branch. `A4` (K a multiple of 4, so
/// is `end`: the lane's four are whole or wholly past it): one vector load, predicated, zeros wholly
/// past `end`. Otherwise four element loads, each at or past `end` reading the row's last element
/// before it — **not zero**: the caller zeroes those values at their use. Nothing here uses a loaded
/// value, so the loads of every row and run issue back to back (where a branch per element guarded
/// them, the 16-bit entries packed and selected each element at its load and waited for it: four
/// times slower than the `f32` entry on the same loop).
///
/// # Safety
/// `a` holds `m·k` elements from a 16-byte aligned base, `r < m`, `kk % 4 == 0`, `1 ≤ end ≤ k`; with
/// `A4`, `k % 4 == 0` and `end % 4 == 0`.
#[inline(always)]
unsafe fn a_quad<I: Input, const A4: bool>(a: View<I::Elem>, k: u32, r: u32, kk: u32, end: u32) -> I::Four {
    if A4 {
        if kk < end {
            // SAFETY: kk + 4 ≤ end ≤ k (both multiples of 4) and r < m; r·k + kk is a multiple of 4.
            return unsafe { I::load4(a, (r * k + kk) as usize) };
        }
        return I::Four::default();
    }
    // SAFETY: r < m and (kk + e).min(end − 1) < end ≤ k.
    I::four(core::array::from_fn(|e| unsafe { a.get((r * k + (kk + e as u32).min(end - 1)) as usize) }))
}

/// Row `kk` of `B` at the block's columns `col0 .. col0 + C`, zero past `n`: vector loads of four
/// where N is a multiple of 4 (`VB`: each group of four whole or wholly past `n`), element loads
/// otherwise. Branch-free: a group or element past `n` loads the last one inside and is replaced by
/// zero, so the loads of several rows sit in one block, issued together before their values are used
/// (behind a branch per element ptxas widened each row's values at its loads, waiting for them).
///
/// # Safety
/// `b` holds `k·n` elements from a 16-byte aligned base, `kk < k`, `col0 % C == 0`, `col0 < n`; with
/// `VB`, `C % 4 == 0` and `n % 4 == 0`.
#[inline(always)]
unsafe fn b_row<I: Input, const C: usize, const VB: bool>(b: View<I::Elem>, n: u32, kk: u32, col0: u32) -> [f32; C] {
    let mut v = [0.0; C];
    if VB {
        for (q, quad) in v.chunks_exact_mut(4).enumerate() {
            let col = col0 + 4 * q as u32;
            // SAFETY: col.min(n − 4) and n are multiples of 4 (n ≥ 4: col0 < n), so the four lie
            // inside the row; kk < k; aligned base.
            let four = I::values(unsafe { I::load4(b, (kk * n + col.min(n - 4)) as usize) });
            quad.copy_from_slice(&if col < n { four } else { [0.0; 4] });
        }
        return v;
    }
    for (j, x) in v.iter_mut().enumerate() {
        let col = col0 + j as u32;
        // SAFETY: kk < k and col.min(n − 1) < n.
        let e = I::value(unsafe { b.get((kk * n + col.min(n - 1)) as usize) });
        *x = if col < n { e } else { 0.0 };
    }
    v
}

/// A warp's place in the launch: the slices, its K range (its block's slice `k_begin .. k_end`,
/// kernel 10's, or its part of it in the K-split entries), its lane, its part of the block's K (0
/// but in the K-split entries), its first row of `C`, its block's first column, and its rows inside
/// M (0 to 4; warp-uniform).
struct Place {
    slices: u32,
    k_begin: u32,
    k_end: u32,
    lane: u32,
    part: u32,
    row0: u32,
    col0: u32,
    rows: u32,
}

/// This warp's [`Place`] in a launch of `C`-column blocks on `m` rows and depth `k`, the block's
/// warps in `KP` parts of its K slice: 1, or [`KSPLIT_PARTS`] (every warp on the block's
/// [`KSPLIT_ROWS`] rows, a part's share of the slice rounded up to 8 elements so 16-byte loads stay
/// aligned).
#[inline(always)]
fn place<const C: usize, const KP: u32>(m: u32, k: u32) -> Place {
    use crate::device::thread;
    let slices = thread::grid_dim_z();
    let chunk = k.div_ceil(slices).next_multiple_of(BK);
    let mut k_begin = (thread::block_idx_z() * chunk).min(k);
    let mut k_end = (k_begin + chunk).min(k);
    let (lane, warp) = (thread::thread_idx_x() % 32, thread::thread_idx_x() / 32);
    let (group, part) = if KP == 1 { (warp, 0) } else { (warp % (WARPS / KP), warp / (WARPS / KP)) };
    if KP > 1 {
        let share = (k_end - k_begin).div_ceil(KP).next_multiple_of(8);
        k_begin = (k_begin + part * share).min(k_end);
        k_end = (k_begin + share).min(k_end);
    }
    // The K-split entries' 4-row tiles walk the grid's x (KSPLIT_CONFIG: rows_on_x).
    let (row0, col0) = if KP == 1 {
        (thread::block_idx_y() * ROWS + group * WARP_ROWS, thread::block_idx_x() * C as u32)
    } else {
        (thread::block_idx_x() * KSPLIT_ROWS + group * WARP_ROWS, thread::block_idx_y() * C as u32)
    };
    Place { slices, k_begin, k_end, lane, part, row0, col0, rows: m.saturating_sub(row0).min(WARP_ROWS) }
}

/// The body where K is no multiple of 8 (every entry): four elements of each row a lane per run (runs
/// of [`BK`]), `R` runs in flight, `C` columns (4, or 1 where N = 1), `KP` parts of the block's K,
/// `B`'s loads as [`b_row`]'s `VB`, `A`'s as [`a_quad`]'s `A4`. The loads of a step have no branch
/// between them and no use: a warp past M reads the last row of `A` (its sums are not stored), a lane
/// past the slice's end the row's last element (zeroed at its use).
///
/// # Safety
/// As the entries: `a`, `b`, `c` hold `m·k`, `k·n`, `m·n` elements from 16-byte aligned bases; the launch
/// gives [`shared_bytes`]`(COLS, KP)` bytes of dynamic shared memory, 256 threads and its grid; with
/// `VB`, `n % 4 == 0`; with `C = 1`, `n = 1`; with `A4`, `k % 4 == 0`.
#[inline(always)]
unsafe fn few_cols_fours<I: Input, const C: usize, const R: usize, const KP: u32, const VB: bool, const A4: bool>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    // Slices and parts start at multiples of 8 and end at one or at k, so every lane's four start at
    // a multiple of 4 and, where k is one, end at one.
    let Place { slices, k_begin, k_end, lane, part, row0, col0, rows } = place::<C, KP>(m, k);

    let mut acc = [[0.0f32; C]; WARP_ROWS as usize];
    let mut kk = k_begin + 4 * lane;
    while kk < k_end {
        // R runs' loads of A issued before any of their multiply-adds: bytes in flight.
        let mut av = [[I::Four::default(); WARP_ROWS as usize]; R];
        for (run, rows_av) in av.iter_mut().enumerate() {
            for (i, v) in rows_av.iter_mut().enumerate() {
                // SAFETY: the row is below m (m ≥ 1: the grid is not empty); kk + run·BK is a multiple
                // of 4; 1 ≤ k_end ≤ k (the loop runs below it); A4 as the contract, k_end then a
                // multiple of 4.
                *v = unsafe { a_quad::<I, A4>(a, k, (row0 + i as u32).min(m - 1), kk + run as u32 * BK, k_end) };
            }
        }
        for (run, rows_av) in av.iter().enumerate() {
            let k0 = kk + run as u32 * BK;
            // Widened at their use, elements at or past k_end zero (a_quad's contract).
            let rows_v = rows_av.map(|four| {
                let v = I::values(four);
                core::array::from_fn(|e| if k0 + (e as u32) < k_end { v[e] } else { 0.0 })
            });
            // SAFETY: add_four reads rows of B below k_end only (k_end ≥ 1).
            unsafe { add_four::<I, C, VB>(&mut acc, &rows_v, b, n, k0, k_end, col0) };
        }
        kk += R as u32 * BK;
    }

    // SAFETY: every lane of every warp reaches it once, after its loop (no early return); the launch
    // provides the shared memory (the function's contract).
    unsafe { store_warp_sums::<C, KP>(&acc, c, n, rows, row0, col0, slices, part) }
}

/// Runs in flight in the 16-bit entries: their four rows of `B` per four elements load together
/// (`add_four`), so with three runs ptxas spilled under the two-blocks bound of 128 registers. The
/// `f32` entry keeps one (its eight elements are 32 bytes a row, the 16-bit entries' two runs' worth).
const RUNS_WIDE: usize = 2;
/// Elements of K per run of a warp: 32 lanes × 8, one 16-byte load of each 16-bit row (two of `f32`)
/// a lane.
const BK_WIDE: u32 = 32 * 8;

/// Adds rows `k0 .. k0 + 4` of `B` (the block's `C` columns, those before `k_end`) times this lane's
/// four elements `rows_v` of each of the warp's rows of `A` into `acc`.
///
/// # Safety
/// `b` holds `k·n` elements from a 16-byte aligned base with `1 ≤ k_end ≤ k`; `col0 % C == 0`, `col0 < n`;
/// with `VB`, `C % 4 == 0` and `n % 4 == 0`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn add_four<I: Input, const C: usize, const VB: bool>(
    acc: &mut [[f32; C]; WARP_ROWS as usize],
    rows_v: &[[f32; 4]; WARP_ROWS as usize],
    b: View<I::Elem>,
    n: u32,
    k0: u32,
    k_end: u32,
    col0: u32,
) {
    use crate::device::math::fma;
    // The four rows' loads first, none behind a branch: a row at or past k_end reads row k_end − 1
    // (in B) and counts as zeros, as the lane's elements of A there are (one latency for the four
    // where a guarded loop waits for each row in turn).
    let mut bv = [[0.0f32; C]; 4];
    for (e, row) in bv.iter_mut().enumerate() {
        let kk = k0 + e as u32;
        // SAFETY: k_end − 1 < k (k_end ≥ 1: the caller's run starts below it); col0 is a multiple of C.
        let loaded = unsafe { b_row::<I, C, VB>(b, n, kk.min(k_end - 1), col0) };
        *row = if kk < k_end { loaded } else { [0.0; C] };
    }
    for (e, row) in bv.iter().enumerate() {
        for (sums, a4) in acc.iter_mut().zip(rows_v.iter()) {
            for (s, &x) in sums.iter_mut().zip(row.iter()) {
                *s = fma(a4[e], x, *s);
            }
        }
    }
}

/// Adds four elements `bv` of the vector `B` (N = 1) times this lane's four elements `rows_v` of each
/// of the warp's rows of `A` into `acc` (column 0).
#[inline(always)]
fn add_vector<const C: usize>(acc: &mut [[f32; C]; WARP_ROWS as usize], rows_v: &[[f32; 4]; WARP_ROWS as usize], bv: [f32; 4]) {
    use crate::device::math::fma;
    for (sums, a4) in acc.iter_mut().zip(rows_v.iter()) {
        for (&x, &y) in a4.iter().zip(bv.iter()) {
            sums[0] = fma(x, y, sums[0]);
        }
    }
}

/// The body where K is a multiple of 8 (every entry): eight elements of each row a lane per run (runs
/// of [`BK_WIDE`]), `R` runs in flight, `C` columns (4, or 1 where N = 1), `KP` parts of the block's K.
///
/// # Safety
/// As [`few_cols_fours`], and `k % 8 == 0`.
#[inline(always)]
unsafe fn few_cols_wide<I: Input, const C: usize, const R: usize, const KP: u32, const VB: bool>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    // Slices start at multiples of BK (the launch's unit), so of 8: every lane's eight are aligned.
    let Place { slices, k_begin, k_end, lane, part, row0, col0, rows } = place::<C, KP>(m, k);

    let mut acc = [[0.0f32; C]; WARP_ROWS as usize];
    let mut kk = k_begin + 8 * lane;
    // K a multiple of 8: the slices' and parts' ends are too, so a lane's eight elements of a run are
    // whole or wholly past k_end — one 16-byte load per row, predicated (no branch), ptxas issuing
    // the R runs' loads back to back before any multiply-add (behind per-element guards it waited
    // for each row's load before issuing the next). One loop with no edge paths also keeps the code a
    // block fetches small: on a small product the instructions fetched for the first time are most of
    // its time (ncu: `stall_no_instruction` half the samples at 584×1×368).
    while kk < k_end {
        let mut av = [[[I::Four::default(); 2]; WARP_ROWS as usize]; R];
        // N = 1 (C = 1): B is a vector, the lane's eight elements of a run one 16-byte load.
        let mut bv = [[I::Four::default(); 2]; R];
        for (run, (rows_av, b8)) in av.iter_mut().zip(bv.iter_mut()).enumerate() {
            let k0 = kk + run as u32 * BK_WIDE;
            if k0 < k_end {
                for (i, v) in rows_av.iter_mut().enumerate() {
                    if (i as u32) < rows {
                        // SAFETY: row0 + i < m; k0 + 8 ≤ k_end ≤ k (k_end, k0 multiples of 8),
                        // so the address is 16-byte aligned.
                        *v = unsafe { I::load8(a, ((row0 + i as u32) * k + k0) as usize) };
                    }
                }
                if C == 1 {
                    // SAFETY: n = 1 (the dispatch's contract for C = 1): B holds k elements;
                    // k0 + 8 ≤ k, k0 a multiple of 8 from an aligned base.
                    *b8 = unsafe { I::load8(b, k0 as usize) };
                }
            }
        }
        for (run, (rows_av, b8)) in av.iter().zip(bv.iter()).enumerate() {
            let k0 = kk + run as u32 * BK_WIDE;
            for half in 0..2 {
                let rows_v = rows_av.map(|h| I::values(h[half]));
                if C == 1 {
                    add_vector::<C>(&mut acc, &rows_v, I::values(b8[half]));
                } else {
                    // SAFETY: add_four reads rows of B below k_end only (k_end ≥ 1: this lane's
                    // first run starts below it).
                    unsafe { add_four::<I, C, VB>(&mut acc, &rows_v, b, n, k0 + 4 * half as u32, k_end, col0) };
                }
            }
        }
        kk += R as u32 * BK_WIDE;
    }

    // SAFETY: every lane of every warp reaches it once, after its loop (no early return); the launch
    // provides the shared memory (the function's contract).
    unsafe { store_warp_sums::<C, KP>(&acc, c, n, rows, row0, col0, slices, part) }
}

/// The kernel on [`COLS`]-column blocks, its body and its loads of `B` chosen once for the launch:
/// eight elements a lane ([`few_cols_wide`], `RW` runs in flight) where K is a multiple of 8, four
/// ([`few_cols_fours`], `RF` runs) otherwise; one column where N = 1 (a GEMV: a quarter of the
/// multiply-adds and of the code, `B` a vector), vector loads of `B` where N is a multiple of 4.
///
/// # Safety
/// As the entries: `a`, `b`, `c` hold `m·k`, `k·n`, `m·n` elements from 16-byte aligned bases; the launch
/// gives [`shared_bytes`]`(COLS, KP)` bytes of dynamic shared memory, 256 threads and its grid.
#[inline(always)]
unsafe fn few_cols_on<I: Input, const KP: u32, const RW: usize, const RF: usize>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    const CC: usize = COLS as usize;
    // A launch of several slices follows C's zeroing (the host queues it as its dependent) and waits
    // only before its adds (`store_warp_sums`); one slice waits here, before it reads A or B.
    if crate::device::thread::grid_dim_z() == 1 {
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    // SAFETY (all): forwarded contract; the wide body only where k % 8 == 0, vector loads of A only
    // where k % 4 == 0, one column only where n = 1, vector loads of B only where n % 4 == 0.
    unsafe {
        match (k.is_multiple_of(8), n == 1, n.is_multiple_of(4)) {
            (true, true, _) => few_cols_wide::<I, 1, RW, KP, false>(a, b, c, m, n, k),
            (true, false, true) => few_cols_wide::<I, CC, RW, KP, true>(a, b, c, m, n, k),
            (true, false, false) => few_cols_wide::<I, CC, RW, KP, false>(a, b, c, m, n, k),
            (false, one, vb) if k.is_multiple_of(4) => match (one, vb) {
                (true, _) => few_cols_fours::<I, 1, RF, KP, false, true>(a, b, c, m, n, k),
                (false, true) => few_cols_fours::<I, CC, RF, KP, true, true>(a, b, c, m, n, k),
                (false, false) => few_cols_fours::<I, CC, RF, KP, false, true>(a, b, c, m, n, k),
            },
            (false, true, _) => few_cols_fours::<I, 1, RF, KP, false, false>(a, b, c, m, n, k),
            (false, false, true) => few_cols_fours::<I, CC, RF, KP, true, false>(a, b, c, m, n, k),
            (false, false, false) => few_cols_fours::<I, CC, RF, KP, false, false>(a, b, c, m, n, k),
        }
    }
}

/// The warp's `WARP_ROWS × C` outputs from its lanes' partial sums `acc`: each lane writes its sums at
/// `red[warp][lane]` in shared memory, then lanes `0 .. WARP_ROWS·C` each add one output over the 32
/// lanes. With `KP` parts of K in the block, each warp leaves its outputs at `parts[warp]` and, after
/// one block barrier, the first part's warps add the other parts' outputs of their rows. The sums
/// are stored into `C` (one slice) or added (slices); rows past `rows`, columns past `n` skipped.
///
/// # Safety
/// Every thread of the block calls it once, converged by warp; the launch gives
/// [`shared_bytes`]`(C, KP)` bytes of dynamic shared memory; `c` holds `m·n` floats with
/// `row0 + rows ≤ m`; `part` is the warp's part of K ([`Place`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_warp_sums<const C: usize, const KP: u32>(
    acc: &[[f32; C]; WARP_ROWS as usize],
    c: View<f32>,
    n: u32,
    rows: u32,
    row0: u32,
    col0: u32,
    slices: u32,
    part: u32,
) {
    use crate::device::{mem::Float4, shared::SharedTiles, thread};
    // The K-loop is done: the launch after this one may start its blocks (set here rather than at the
    // start, where it cost the f32 entry a spill at its 128-register cap).
    crate::device::dependent_launch::allow_dependents();
    if slices > 1 {
        // C's zeroing may still run (the host queues a split launch as its dependent).
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    let (lane, warp) = (thread::thread_idx_x() % 32, thread::thread_idx_x() / 32);
    let cols = C as u32;
    // The warp's lanes add their partial sums through its own shared rows: lane l writes its
    // SUMS floats at red[warp][l], then reads output o (of the warp's WARP_ROWS × COLS) of every lane.
    let mut shared = SharedTiles::<f32>::new();
    let (stride, sums_per_lane) = (lane_stride(cols), WARP_ROWS * cols);
    // SAFETY: the launch provides shared_bytes(C, KP) ≥ WARPS·32·stride·4 bytes (the function's contract).
    let red = unsafe { shared.tile((WARPS * 32 * stride) as usize) };
    let base = warp * 32 * stride;
    // The lane's sums row-major (output i·C + j), four at a time (WARP_ROWS·C is a multiple of 4).
    const { assert!(WARP_ROWS as usize * C <= 16) };
    let flat: [f32; 16] = core::array::from_fn(|o| if o < WARP_ROWS as usize * C { acc[o / C][o % C] } else { 0.0 });
    for (q, quad) in flat[..WARP_ROWS as usize * C].chunks_exact(4).enumerate() {
        let at = base + lane * stride + 4 * q as u32;
        // SAFETY: at + 4 ≤ base + 32·stride ≤ WARPS·32·stride; a multiple of 4 floats (stride is).
        unsafe { red.set4(at as usize, Float4([quad[0], quad[1], quad[2], quad[3]])) }
    }
    // SAFETY: every lane of the warp reaches it once (the caller's contract).
    unsafe { thread::sync_warp() };
    if KP == 1 {
        for half in 0..2 {
            let o = lane + 32 * half;
            let (i, j) = (o / cols, o % cols);
            let (r, col) = (row0 + i, col0 + j);
            if o < sums_per_lane && i < rows && col < n {
                let mut sum = 0.0f32;
                for l in 0..32 {
                    // SAFETY: base + l·stride + o < base + 32·stride (o < sums_per_lane < stride).
                    sum += unsafe { red.get((base + l * stride + o) as usize) };
                }
                // SAFETY: r < m, col < n: inside C's m·n floats.
                unsafe { store_or_add(c, (r * n + col) as usize, sum, slices) }
            }
        }
        return;
    }
    let mut sums = [0.0f32; 2];
    for (half, sum) in sums.iter_mut().enumerate() {
        let o = lane + 32 * half as u32;
        if o < sums_per_lane {
            for l in 0..32 {
                // SAFETY: base + l·stride + o < base + 32·stride (o < sums_per_lane < stride).
                *sum += unsafe { red.get((base + l * stride + o) as usize) };
            }
        }
    }
    // SAFETY: shared_bytes(C, KP) holds WARPS·sums_per_lane floats past the lanes' rows.
    let parts = unsafe { shared.tile((WARPS * sums_per_lane) as usize) };
    for (half, &sum) in sums.iter().enumerate() {
        let o = lane + 32 * half as u32;
        if o < sums_per_lane {
            // SAFETY: warp·sums_per_lane + o < WARPS·sums_per_lane.
            unsafe { parts.set((warp * sums_per_lane + o) as usize, sum) }
        }
    }
    // SAFETY: every thread of the block reaches it once (the caller's contract).
    unsafe { thread::sync_threads() };
    if part > 0 {
        return;
    }
    for (half, sum) in sums.iter_mut().enumerate() {
        let o = lane + 32 * half as u32;
        if o < sums_per_lane {
            for p in 1..KP {
                // SAFETY: the part's warp is warp + p·WARPS/KP < WARPS (part 0's warps are the first WARPS/KP).
                *sum += unsafe { parts.get(((warp + p * (WARPS / KP)) * sums_per_lane + o) as usize) };
            }
        }
    }
    for (half, &sum) in sums.iter().enumerate() {
        let o = lane + 32 * half as u32;
        let (i, j) = (o / cols, o % cols);
        let (r, col) = (row0 + i, col0 + j);
        if o < sums_per_lane && i < rows && col < n {
            // SAFETY: r < m, col < n: inside C's m·n floats.
            unsafe { store_or_add(c, (r * n + col) as usize, sum, slices) }
        }
    }
}

/// `C[at] = sum` with one slice, `C[at] += sum` (atomically) with several.
///
/// # Safety
/// `at` is inside `c`.
#[inline(always)]
unsafe fn store_or_add(c: View<f32>, at: usize, sum: f32, slices: u32) {
    if slices == 1 {
        // SAFETY: the caller's contract.
        unsafe { c.set(at, sum) }
    } else {
        // SAFETY: as above.
        unsafe { crate::device::atomic::add_f32(c, at, sum) }
    }
}

kernel! {
    /// Few-columns matmul (kernel 19): `C = A · B` (one slice) or `C += A · B` (slices), 32 rows × 4
    /// columns per block, over K slice `blockIdx.z` (see the
    /// module for tiling, thread mapping and the warp's one `bar.warp.sync`).
    ///
    /// **Parameters / edges**: as kernel 1 (any M, N, K; rows past `m`, columns past `n` and an empty
    /// slice add nothing).
    ///
    /// Measurements: `docs/ladder/k19-few-cols.md`.
    ///
    /// # Safety
    /// As kernel 1, plus, when `gridDim.z > 1`, `C` zeroed before the launch; the launch [`CONFIG`]
    /// states: 256 threads, [`SHARED_BYTES`] of dynamic shared memory, the grid above.
    pub unsafe fn matmul_few_cols_4(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract (SHARED_BYTES is WARPS·32·lane_stride(COLS)·4).
        unsafe { few_cols_on::<F32, 1, 1, RUNS>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-columns matmul (kernel 19) on BF16 inputs widened to `f32` as they are used (exact:
    /// see [`super::input`]), `f32` output: as [`matmul_few_cols_4`].
    ///
    /// # Safety
    /// As [`matmul_few_cols_4`], on 16-bit elements (`a` holds `m·k`, `b` `k·n` of them).
    pub unsafe fn matmul_few_cols_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract (SHARED_BYTES is WARPS·32·lane_stride(COLS)·4).
        unsafe { few_cols_on::<Bf16, 1, RUNS_WIDE, RUNS_16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-columns matmul (kernel 19) on FP16 inputs widened to `f32`: as [`matmul_few_cols_bf16`].
    ///
    /// # Safety
    /// As [`matmul_few_cols_bf16`].
    pub unsafe fn matmul_few_cols_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract (SHARED_BYTES is WARPS·32·lane_stride(COLS)·4).
        unsafe { few_cols_on::<F16, 1, RUNS_WIDE, RUNS_16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-columns matmul (kernel 19), K split inside the block, on BF16 inputs widened to `f32`:
    /// [`matmul_few_cols_bf16`] with the block's eight warps on the same 4 rows, each on an eighth of
    /// the block's K slice, their sums added through shared memory after one block barrier.
    ///
    /// # Safety
    /// As [`matmul_few_cols_bf16`], with [`KSPLIT_CONFIG`]'s launch: `⌈M/4⌉ × ⌈N/4⌉ × slices` blocks,
    /// `shared_bytes(COLS, KSPLIT_PARTS)` of dynamic shared memory.
    pub unsafe fn matmul_few_cols_ksplit_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract (the launch's shared memory is shared_bytes(COLS, KSPLIT_PARTS)).
        unsafe { few_cols_on::<Bf16, KSPLIT_PARTS, RUNS_WIDE, RUNS_16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-columns matmul (kernel 19), K split inside the block, on FP16 inputs widened to `f32`: as
    /// [`matmul_few_cols_ksplit_bf16`].
    ///
    /// # Safety
    /// As [`matmul_few_cols_ksplit_bf16`].
    pub unsafe fn matmul_few_cols_ksplit_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract (the launch's shared memory is shared_bytes(COLS, KSPLIT_PARTS)).
        unsafe { few_cols_on::<F16, KSPLIT_PARTS, RUNS_WIDE, RUNS_16>(a, b, c, m, n, k) }
    }
}
