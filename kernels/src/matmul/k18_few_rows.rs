//! Kernel 18: few rows — products with a handful of rows of `A` (M up to 16 per block: a batch of
//! vectors times a matrix), which read `B` once and do 2·M flops per element of it: memory-bound, like a GEMV.
//!
//! **What it fixes**: every tile of kernels 3–17 is at least 32 rows tall, so at M = 2 at least 15/16
//! of its multiply-adds work on zero rows (here rows past M are skipped: a block-uniform bound), and
//! its blocks are as many as `N / BN` column tiles — too few, each with too little in flight, to
//! stream `B` at the GPU's bandwidth (1×11420×3514: kernel 10's 32×128 tile 77 µs, this kernel 48,
//! cuBLAS 44; `docs/ladder/k18-few-rows.md`). `Auto` weighs it up to its 16 rows.
//!
//! **Tiling**: a block owns `ROWS = 16` rows × `COLS = 128` columns of `C` and one slice of K
//! (`gridDim.z` slices, as kernel 10: `⌈K/S⌉` rounded up to `BK = 32`). **Thread mapping**: lane `l`
//! of warp `w` (8 warps) owns columns `4l .. 4l + 4` of the block's columns and the groups of
//! `GROUP = 4` consecutive rows of `B` starting at `4w`, every 32 rows of the slice: a warp reads 512
//! consecutive bytes of each row of `B` (one 16-byte load per lane where rows are 16-byte aligned,
//! four element loads otherwise) and, per row of `C`, the group's four elements of `A` (one 16-byte
//! load where K is a multiple of 4, the same address across the warp: a broadcast). The rows of `A`
//! go in fours, their loads issued before their multiply-adds (one round trip to L2 per four rows).
//! No load is behind a branch or used before the group's loads are issued: edges are clamped
//! indices whose values are zeroed, or never stored, where they are used.
//! Each thread keeps `ROWS × 4` partial sums; the warps' partial sums of the block's rows meet in
//! shared memory (`WARPS · ROWS · COLS` floats, one barrier), and each thread writes groups of four
//! of the block's outputs: stored when the launch has one slice (`C` is not zeroed), added into the
//! zeroed `C` otherwise (16-byte `red.global.add.v4.f32` where N is a multiple of 4).
//!
//! **Inputs**: `f32`, or BF16 / FP16 widened to `f32` at their use ([`super::input`]: exact; a lane's
//! four elements of `B` one 8-byte load). The 16-bit entries keep a warp's bytes of `B` in flight
//! equal to the `f32` entry's: groups of `GROUP_HALF = 8` rows (256 bytes a row a warp; `BK_HALF =
//! 64`), `A`'s eight elements one 16-byte load where K is a multiple of 8, and — for the registers
//! this takes — the block's 16 rows in two passes of `ROWS_HALF = 8` (the second only where M has
//! them; `B`'s slice read once a pass), each with `B`'s rows widened four at a time.
use super::input::{Input, F32};
use super::mma_ops::{Bf16, F16};
use crate::device::mem::View;
use crate::launch::TileConfig;

/// Rows of `C` per block (at least the 16 of every other kernel's tile, so that no shape needs more
/// than the 65,535 block rows a grid may have).
pub const ROWS: u32 = 16;
/// Columns of `C` per block: 32 lanes × 4.
pub const COLS: u32 = 128;
/// Warps per block, each on every `WARPS`th group of rows of `B`.
pub const WARPS: u32 = 8;
/// Consecutive rows of `B` a warp takes at a time, `f32` inputs: one 16-byte load of `A` per row of `C`
/// covers them.
pub const GROUP: u32 = 4;
/// As [`GROUP`] for 16-bit inputs: twice the rows, so that a warp has as many bytes of `B` in flight as
/// the `f32` entry (8 rows × 256 bytes; with four rows the 16-bit entries streamed `B` at 0.8–1.2 TB/s
/// on an H100), and `A`'s eight elements are again one 16-byte load.
pub const GROUP_HALF: u32 = 8;
/// Rows of `B` per K-step of a block, `WARPS · GROUP` (the unit of the split-K slices). One group a warp
/// at a time: with two loaded before use ptxas needed 150 registers (one block per SM) or spilled under
/// the two-block launch bound.
pub const BK: u32 = WARPS * GROUP;
/// As [`BK`] for 16-bit inputs, `WARPS · GROUP_HALF`.
pub const BK_HALF: u32 = WARPS * GROUP_HALF;

/// Rows of `C` a pass of the 16-bit entries computes: half of a block's [`ROWS`], so that their eight
/// rows of `B` in flight ([`GROUP_HALF`]) and the partial sums fit the two-block launch bound's 128
/// registers (at 16 rows a pass ptxas spilled ~300 bytes). A block of more rows makes two passes.
pub const ROWS_HALF: u32 = 8;

/// Shared memory: the warps' partial sums, `WARPS · ROWS · COLS` floats.
pub const SHARED_BYTES: u32 = WARPS * ROWS * COLS * 4;
/// As [`SHARED_BYTES`] for the 16-bit entries' [`ROWS_HALF`] rows a pass.
pub const SHARED_BYTES_HALF: u32 = WARPS * ROWS_HALF * COLS * 4;

/// The launch of the `f32` entry: 256 threads, `⌈N/128⌉ × ⌈M/16⌉ × slices` blocks, 64 KiB of dynamic
/// shared memory; with one slice the kernel stores `C`, with more it adds into `C` zeroed first.
pub const CONFIG: TileConfig =
    TileConfig::new(ROWS, COLS, BK, WARPS * 32, SHARED_BYTES).min_blocks_per_sm(2).split_k().stores_unsplit().chained();
/// The launch of the 16-bit entries: as [`CONFIG`], in K-steps of [`BK_HALF`], with [`SHARED_BYTES_HALF`].
pub const CONFIG_HALF: TileConfig =
    TileConfig::new(ROWS, COLS, BK_HALF, WARPS * 32, SHARED_BYTES_HALF).min_blocks_per_sm(2).split_k().stores_unsplit().chained();

/// Row `kk` of `B` for this lane's four columns `col .. col + 4`, as loaded, with no branch: `VB` (N a
/// multiple of 4, so the four are whole or wholly past `n`) one vector load, predicated, zeros past
/// `n`; otherwise four element loads — 16-bit at a clamped column (a column past `n` reads the row's
/// last element; its sums are never stored), `f32` guarded, predicated. Nothing here uses a loaded
/// value, so a group's loads issue back to back (behind a branch per element the 16-bit entries packed each element into its
/// word at its load and waited for it: kernel 19's finding, `docs/ladder/k19-few-cols.md`).
///
/// # Safety
/// `b` holds `k·n` elements from a 16-byte aligned base, `kk < k`, `col % 4 == 0`; with `VB`, `n % 4 == 0`.
#[inline(always)]
unsafe fn b_row<I: Input, const VB: bool>(b: View<I::Elem>, n: u32, kk: u32, col: u32) -> I::Four {
    if VB {
        if col < n {
            // SAFETY: col % 4 == 0 and n % 4 == 0, so col + 4 ≤ n; kk < k; aligned base.
            return unsafe { I::load4(b, (kk * n + col) as usize) };
        }
        return I::Four::default();
    }
    if size_of::<I::Elem>() == 4 {
        // `f32`: a four is its elements as loaded (no packing), so guarded loads are predicated
        // without a use; clamped ones needed registers for four addresses each (ptxas spilled).
        // SAFETY: kk < k and col + e < n.
        return I::four(core::array::from_fn(|e| {
            if col + (e as u32) < n {
                unsafe { b.get((kk * n + col + e as u32) as usize) }
            } else {
                I::Elem::default()
            }
        }));
    }
    // SAFETY: kk < k and (col + e).min(n − 1) < n.
    I::four(core::array::from_fn(|e| unsafe { b.get((kk * n + (col + e as u32).min(n - 1)) as usize) }))
}

/// Row `r` of `A` at columns `kk .. kk + 4F`, as loaded (`F` fours), with no branch: `AV` (K a
/// multiple of `4F`, so is `end`: the group is whole or wholly past it) one 16-byte load, predicated,
/// zeros past `end`; otherwise element loads — 16-bit at a clamped column (one at or past `end`
/// reads the row's last element before it, **not zero**: [`add_group`] zeroes those values at their
/// use), `f32` guarded.
///
/// # Safety
/// `a` holds `m·k` elements from a 16-byte aligned base, `r < m`, `kk % 4F == 0`, `1 ≤ end ≤ k`; with
/// `AV`, `k % 4F == 0` and `end % 4F == 0`; without `EDGE`, `kk + 4F ≤ end` (the group is whole: no
/// clamp, no predicate). `4F` elements are 16 bytes (`F = 1` for `f32`, 2 for 16-bit elements).
#[inline(always)]
unsafe fn a_group<I: Input, const F: usize, const AV: bool, const EDGE: bool>(
    a: View<I::Elem>,
    k: u32,
    r: u32,
    kk: u32,
    end: u32,
) -> [I::Four; F] {
    const { assert!(F * 4 * size_of::<I::Elem>() == 16) };
    if AV {
        if !EDGE || kk < end {
            let at = (r * k + kk) as usize;
            if F == 2 {
                // SAFETY: kk + 8 ≤ end ≤ k (multiples of 8) and r < m; r·k + kk is a multiple of 8
                // 16-bit elements: 16-byte aligned.
                let pair = unsafe { I::load8(a, at) };
                return core::array::from_fn(|f| pair[f]);
            }
            // SAFETY: kk + 4 ≤ end ≤ k (multiples of 4) and r < m; r·k + kk is a multiple of 4.
            return core::array::from_fn(|f| unsafe { I::load4(a, at + 4 * f) });
        }
        return [I::Four::default(); F];
    }
    if EDGE && size_of::<I::Elem>() == 4 {
        // `f32`: guarded loads, predicated (as in `b_row`), zero past `end`.
        // SAFETY: r < m and kk + e < end ≤ k.
        return core::array::from_fn(|f| {
            I::four(core::array::from_fn(|e| {
                let col = kk + (4 * f + e) as u32;
                if col < end {
                    unsafe { a.get((r * k + col) as usize) }
                } else {
                    I::Elem::default()
                }
            }))
        });
    }
    let at = |e: u32| if EDGE { (kk + e).min(end - 1) } else { kk + e };
    // SAFETY: r < m and at(e) < end ≤ k (without EDGE, kk + 4F ≤ end).
    core::array::from_fn(|f| I::four(core::array::from_fn(|e| unsafe { a.get((r * k + at((4 * f + e) as u32)) as usize) })))
}

/// Rows of `A` whose loads a warp issues together before their multiply-adds: one round trip to
/// L2 per `QUAD` rows rather than per row.
const QUAD: usize = 4;

/// Adds the group of rows `kk .. kk + G` of `B` (`bv`, this lane's four columns of each) times
/// columns `kk ..` of the block's `rows` rows of `A` (from `row0`) into `acc`; rows of `B` and columns
/// of `A` at or past `end` count as zero (both zeroed where they are widened: a clamped load may
/// hold any value). Rows go in fours: the four loads of `A` first, then their multiply-adds (rows
/// past `rows` in the last four read the last row of `A`; their sums are never stored).
///
/// # Safety
/// As [`a_group`] for row `(row0 + i).min(m − 1)`, `i < rows`, with `m ≥ 1` and `G = 4F`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn add_group<I: Input, const G: usize, const F: usize, const R: usize, const AV: bool, const EDGE: bool>(
    acc: &mut [[f32; 4]; R],
    a: View<I::Elem>,
    (k, m): (u32, u32),
    row0: u32,
    rows: u32,
    kk: u32,
    end: u32,
    bv: &[I::Four; G],
) {
    use crate::device::math::fma;
    const { assert!(G == 4 * F) };
    let inside = |e: usize| !EDGE || kk + (e as u32) < end;
    if F == 1 {
        // `f32`: the group's four rows of B as values once, for every row of A.
        let bw: [[f32; 4]; G] = core::array::from_fn(|e| if inside(e) { I::values(bv[e]) } else { [0.0; 4] });
        for (q, quad) in acc.chunks_exact_mut(QUAD).enumerate() {
            let first = (q * QUAD) as u32;
            if first < rows {
                // SAFETY: the row is below m; the rest forwarded.
                let av: [[I::Four; F]; QUAD] =
                    core::array::from_fn(|j| unsafe { a_group::<I, F, AV, EDGE>(a, k, (row0 + first + j as u32).min(m - 1), kk, end) });
                for (sums, fours) in quad.iter_mut().zip(av.iter()) {
                    let v = I::values(fours[0]);
                    for (e, (&ae, bx)) in v.iter().zip(bw.iter()).enumerate() {
                        let ae = if inside(e) { ae } else { 0.0 };
                        for (s, &x) in sums.iter_mut().zip(bx.iter()) {
                            *s = fma(ae, x, *s);
                        }
                    }
                }
            }
        }
        return;
    }
    for (q, quad) in acc.chunks_exact_mut(QUAD).enumerate() {
        let first = (q * QUAD) as u32;
        if first < rows {
            // SAFETY: the row is below m; the rest forwarded.
            let av: [[I::Four; F]; QUAD] =
                core::array::from_fn(|j| unsafe { a_group::<I, F, AV, EDGE>(a, k, (row0 + first + j as u32).min(m - 1), kk, end) });
            // B's rows widened four at a time, for each four rows of A: the 16-bit entries' eight
            // rows widened at once (32 registers) spilled beside the partial sums.
            for f in 0..F {
                let bw: [[f32; 4]; 4] = core::array::from_fn(|e| if inside(4 * f + e) { I::values(bv[4 * f + e]) } else { [0.0; 4] });
                for (sums, fours) in quad.iter_mut().zip(av.iter()) {
                    let v = I::values(fours[f]);
                    for (e, (&ae, bx)) in v.iter().zip(bw.iter()).enumerate() {
                        let ae = if inside(4 * f + e) { ae } else { 0.0 };
                        for (s, &x) in sums.iter_mut().zip(bx.iter()) {
                            *s = fma(ae, x, *s);
                        }
                    }
                }
            }
        }
    }
}

/// The kernel's body on inputs `I` for pass `pass` of its block: the `R` rows of `C` from
/// `16·blockIdx.y + R·pass` (see the module for tiling, thread mapping and the one barrier), warps on
/// groups of `G = 4F` rows of `B`, `B`'s loads as [`b_row`]'s `VB`, `A`'s as [`a_group`]'s `AV`.
///
/// # Safety
/// As the entries; the launch gives `WARPS · R · COLS` floats of dynamic shared memory, 256 threads and
/// `⌈N/128⌉ × ⌈M/16⌉ × slices` blocks, slices in K-steps of `WARPS · G`; `4F` elements are 16 bytes;
/// with `VB`, `n % 4 == 0`; with `AV`, `k % G == 0`; the pass's first row `16·blockIdx.y + R·pass`
/// below `m`; every thread of the block calls it with the same `pass`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn few_rows<I: Input, const G: usize, const F: usize, const R: usize, const VB: bool, const AV: bool>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
    pass: u32,
) {
    use crate::device::{atomic, mem::Float4, shared::SharedTiles, thread};
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let slices = thread::grid_dim_z();
    let group_rows = G as u32;
    let (k_begin, k_end) = super::k10_split_k::k_slice(k, WARPS * group_rows);
    let block_rows = R as u32;
    let (row0, col0) = (thread::block_idx_y() * ROWS + pass * block_rows, thread::block_idx_x() * COLS);
    let rows = m.saturating_sub(row0).min(block_rows);
    let (tid, lane) = (thread::thread_idx_x(), thread::thread_idx_x() % 32);
    let warp = tid / 32;
    let col = col0 + lane * 4;

    let mut acc = [[0.0f32; 4]; R];
    // Warp w takes the groups starting at k_begin + G·w, every WARPS·G rows; a group's rows of B all
    // loaded before use (bytes in flight).
    let stride = WARPS * group_rows;
    let mut kk = k_begin + warp * group_rows;
    while kk + group_rows <= k_end {
        // SAFETY: kk + e < k_end ≤ k; col is a multiple of 4; VB as the contract.
        let group: [I::Four; G] = core::array::from_fn(|e| unsafe { b_row::<I, VB>(b, n, kk + e as u32, col) });
        // SAFETY: rows of A are clamped below m (m ≥ 1: the grid is not empty); kk is a multiple of G
        // (k_begin, G·warp and the stride are) and kk + G ≤ k_end ≤ k.
        unsafe { add_group::<I, G, F, R, AV, false>(&mut acc, a, (k, m), row0, rows, kk, k_end, &group) };
        kk += stride;
    }
    // The warp's last group, cut by the slice's end: its rows at or past k_end read the last one
    // before it (zeroed in add_group).
    if kk < k_end {
        // SAFETY: (kk + e).min(k_end − 1) < k_end ≤ k; col is a multiple of 4; VB as the contract.
        let group: [I::Four; G] = core::array::from_fn(|e| unsafe { b_row::<I, VB>(b, n, (kk + e as u32).min(k_end - 1), col) });
        // SAFETY: as above, with 1 ≤ k_end (kk < k_end), a multiple of WARPS·G or k (so of G where AV).
        unsafe { add_group::<I, G, F, R, AV, true>(&mut acc, a, (k, m), row0, rows, kk, k_end, &group) };
    }

    // The warps' partial sums of the block's rows: red[w][i][0 .. COLS], i < rows.
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch provides WARPS·R·COLS·4 bytes (SHARED_BYTES or SHARED_BYTES_HALF).
    let red = unsafe { shared.tile((WARPS * block_rows * COLS) as usize) };
    for (i, sums) in acc.iter().enumerate() {
        if (i as u32) < rows {
            // SAFETY: (warp·R + i)·COLS + 4·lane + 4 ≤ WARPS·R·COLS; a multiple of 4 floats.
            unsafe { red.set4(((warp * block_rows + i as u32) * COLS + lane * 4) as usize, Float4(*sums)) }
        }
    }
    // SAFETY: reached by every thread of the block (no early returns; the loops above end before
    // it for every warp).
    unsafe { thread::sync_threads() };

    // The block's outputs in groups of four columns, (i, 4j .. 4j + 4) for group g = i·32 + j,
    // i < rows: thread t takes groups t, t + 256, …; consecutive threads, consecutive columns.
    if slices > 1 {
        // C's zeroing may still run (the host queues a split launch as its dependent).
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    let mut g = tid;
    while g < rows * (COLS / 4) {
        let (i, j) = (g / (COLS / 4), g % (COLS / 4));
        let (r, cc) = (row0 + i, col0 + j * 4);
        if cc < n {
            let mut sum = [0.0f32; 4];
            for w in 0..WARPS {
                // SAFETY: (w·R + i)·COLS + 4j + 4 ≤ WARPS·R·COLS (i < R, j < COLS/4).
                let v = unsafe { red.get4(((w * block_rows + i) * COLS + j * 4) as usize) }.0;
                for (s, x) in sum.iter_mut().zip(v.iter()) {
                    *s += x;
                }
            }
            if n.is_multiple_of(4) {
                let at = (r * n + cc) as usize;
                if slices == 1 {
                    // SAFETY: r < m, cc + 4 ≤ n (cc, n multiples of 4): inside C, 16-byte aligned.
                    unsafe { c.set4(at, Float4(sum)) }
                } else {
                    // SAFETY: as above.
                    unsafe { atomic::add_f32x4(c, at, sum) }
                }
            } else {
                for (e, &v) in sum.iter().enumerate() {
                    if cc + (e as u32) < n {
                        let at = (r * n + cc + e as u32) as usize;
                        if slices == 1 {
                            // SAFETY: r < m, cc + e < n: inside C's m·n floats.
                            unsafe { c.set(at, v) }
                        } else {
                            // SAFETY: as above.
                            unsafe { atomic::add_f32(c, at, v) }
                        }
                    }
                }
            }
        }
        g += WARPS * 32;
    }
}

/// The block's [`ROWS`] rows of `C` in passes of `R` rows (one pass for `f32`, two for the 16-bit
/// entries where the block has more than [`ROWS_HALF`] rows: `B`'s slice read once a pass; each pass
/// its own copy of the body, as one loop over them made ptxas spill).
///
/// # Safety
/// As [`few_rows`] without `pass`'s conditions.
#[inline(always)]
unsafe fn passes<I: Input, const G: usize, const F: usize, const R: usize, const VB: bool, const AV: bool>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    use crate::device::thread;
    const { assert!(R as u32 == ROWS || 2 * R as u32 == ROWS) };
    // SAFETY: the block's first row is below m (the grid has ⌈M/16⌉ block rows); the rest forwarded.
    unsafe { few_rows::<I, G, F, R, VB, AV>(a, b, c, m, n, k, 0) };
    if (R as u32) < ROWS && thread::block_idx_y() * ROWS + (R as u32) < m {
        // The second pass reuses the shared partial sums the first one's stores read.
        // SAFETY: reached by every thread of the block (the condition is block-uniform).
        unsafe { thread::sync_threads() };
        // SAFETY: the pass's first row is below m, the same for every thread; the rest forwarded.
        unsafe { few_rows::<I, G, F, R, VB, AV>(a, b, c, m, n, k, 1) };
    }
}

/// [`passes`] with its loads chosen once for the launch: vector loads of `B` where N is a multiple of
/// 4, of `A` where K is one of the group `G` (the entries': [`GROUP`] rows of `B` and [`ROWS`] rows of
/// `C` a pass for `f32`, [`GROUP_HALF`] and [`ROWS_HALF`] for 16-bit elements, in slices of K-steps of
/// [`BK`] or [`BK_HALF`]).
///
/// # Safety
/// As [`few_rows`] without the `G`, `VB`, `AV` and `pass` conditions.
#[inline(always)]
unsafe fn few_rows_on<I: Input, const G: usize, const F: usize, const R: usize>(
    a: *const I::Elem,
    b: *const I::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // A launch of several slices follows C's zeroing (the host queues it as its dependent).
    crate::device::dependent_launch::follow_prior(crate::device::thread::grid_dim_z() > 1);
    // SAFETY (all): forwarded contract; vector loads of B only where n % 4 == 0, of A where k % G == 0.
    unsafe {
        match (n.is_multiple_of(4), k.is_multiple_of(G as u32)) {
            (true, true) => passes::<I, G, F, R, true, true>(a, b, c, m, n, k),
            (true, false) => passes::<I, G, F, R, true, false>(a, b, c, m, n, k),
            (false, true) => passes::<I, G, F, R, false, true>(a, b, c, m, n, k),
            (false, false) => passes::<I, G, F, R, false, false>(a, b, c, m, n, k),
        }
    }
}

kernel! {
    /// Few-rows matmul (kernel 18): `C = A · B` (one slice) or `C += A · B` (slices), 16 rows × 128
    /// columns per block, over K slice `blockIdx.z` (see the module for tiling, thread mapping and the
    /// one barrier).
    ///
    /// **Parameters / edges**: as kernel 1 (any M, N, K; rows past `m`, columns past `n` and an empty
    /// slice add nothing).
    ///
    /// Measurements: `docs/ladder/k18-few-rows.md`.
    ///
    /// # Safety
    /// As kernel 1, plus `C` 16-byte aligned and, when `gridDim.z > 1`, zeroed before the launch; the
    /// launch [`CONFIG`] states: 256 threads, [`SHARED_BYTES`] of dynamic shared memory, the grid above.
    pub unsafe fn matmul_few_rows(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { few_rows_on::<F32, { GROUP as usize }, 1, { ROWS as usize }>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-rows matmul (kernel 18) on BF16 inputs widened to `f32` as they are used (exact: see
    /// [`super::input`]), `f32` output: as [`matmul_few_rows`].
    ///
    /// # Safety
    /// As [`matmul_few_rows`] on 16-bit elements (`a` holds `m·k`, `b` `k·n` of them).
    pub unsafe fn matmul_few_rows_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { few_rows_on::<Bf16, { GROUP_HALF as usize }, 2, { ROWS_HALF as usize }>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-rows matmul (kernel 18) on FP16 inputs widened to `f32`: as [`matmul_few_rows_bf16`].
    ///
    /// # Safety
    /// As [`matmul_few_rows_bf16`].
    pub unsafe fn matmul_few_rows_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { few_rows_on::<F16, { GROUP_HALF as usize }, 2, { ROWS_HALF as usize }>(a, b, c, m, n, k) }
    }
}
