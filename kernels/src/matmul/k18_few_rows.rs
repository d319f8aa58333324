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
//! four elements of `B` one 8-byte load).
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
/// Consecutive rows of `B` a warp takes at a time: one 16-byte load of `A` per row of `C` covers them.
const GROUP: u32 = 4;
/// Rows of `B` per K-step of a block, `WARPS · GROUP` (the unit of the split-K slices). One group a warp
/// at a time: with two loaded before use ptxas needed 150 registers (one block per SM) or spilled under
/// the two-block launch bound.
pub const BK: u32 = WARPS * GROUP;

/// Shared memory: the warps' partial sums, `WARPS · ROWS · COLS` floats.
pub const SHARED_BYTES: u32 = WARPS * ROWS * COLS * 4;

/// The launch: 256 threads, `⌈N/128⌉ × ⌈M/16⌉ × slices` blocks, 64 KiB of dynamic shared memory;
/// with one slice the kernel stores `C`, with more it adds into `C` zeroed first.
pub const CONFIG: TileConfig =
    TileConfig::new(ROWS, COLS, BK, WARPS * 32, SHARED_BYTES).min_blocks_per_sm(2).split_k().stores_unsplit().chained();

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

/// Row `r` of `A` at columns `kk .. kk + GROUP`, as loaded, with no branch: `A4` (K a multiple of 4, so
/// is `end`: the group is whole or wholly past it) one vector load, predicated, zeros past `end`;
/// otherwise element loads — 16-bit at a clamped column (one at or past `end` reads the row's last
/// element before it, **not zero**: [`add_group`] zeroes those values at their use), `f32` guarded.
///
/// # Safety
/// `a` holds `m·k` elements from a 16-byte aligned base, `r < m`, `kk % 4 == 0`, `1 ≤ end ≤ k`; with
/// `A4`, `k % 4 == 0` and `end % 4 == 0`; without `EDGE`, `kk + 4 ≤ end` (the group is whole: no
/// clamp, no predicate).
#[inline(always)]
unsafe fn a_group<I: Input, const A4: bool, const EDGE: bool>(a: View<I::Elem>, k: u32, r: u32, kk: u32, end: u32) -> I::Four {
    if A4 {
        if !EDGE || kk < end {
            // SAFETY: kk + 4 ≤ end ≤ k (both multiples of 4) and r < m; r·k + kk is a multiple of 4.
            return unsafe { I::load4(a, (r * k + kk) as usize) };
        }
        return I::Four::default();
    }
    if EDGE && size_of::<I::Elem>() == 4 {
        // `f32`: guarded loads, predicated (as in `b_row`), zero past `end`.
        // SAFETY: r < m and kk + e < end ≤ k.
        return I::four(core::array::from_fn(|e| {
            if kk + (e as u32) < end {
                unsafe { a.get((r * k + kk + e as u32) as usize) }
            } else {
                I::Elem::default()
            }
        }));
    }
    let at = |e: u32| if EDGE { (kk + e).min(end - 1) } else { kk + e };
    // SAFETY: r < m and at(e) < end ≤ k (without EDGE, kk + 4 ≤ end).
    I::four(core::array::from_fn(|e| unsafe { a.get((r * k + at(e as u32)) as usize) }))
}

/// Rows of `A` whose loads a warp issues together before their multiply-adds: one round trip to
/// L2 per `QUAD` rows rather than per row.
const QUAD: usize = 4;

/// Adds the group of rows `kk .. kk + GROUP` of `B` (`bv`, this lane's four columns of each) times
/// columns `kk ..` of the block's `rows` rows of `A` (from `row0`) into `acc`; rows of `B` and columns
/// of `A` at or past `end` count as zero (both zeroed where they are widened: a clamped load may
/// hold any value). Rows go in fours: the four loads of `A` first, then their multiply-adds (rows
/// past `rows` in the last four read the last row of `A`; their sums are never stored).
///
/// # Safety
/// As [`a_group`] for row `(row0 + i).min(m − 1)`, `i < rows`, with `m ≥ 1`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn add_group<I: Input, const A4: bool, const EDGE: bool>(
    acc: &mut [[f32; 4]; ROWS as usize],
    a: View<I::Elem>,
    (k, m): (u32, u32),
    row0: u32,
    rows: u32,
    kk: u32,
    end: u32,
    bv: &[I::Four; GROUP as usize],
) {
    use crate::device::math::fma;
    let inside = |e: usize| !EDGE || kk + (e as u32) < end;
    let bw: [[f32; 4]; GROUP as usize] = core::array::from_fn(|e| if inside(e) { I::values(bv[e]) } else { [0.0; 4] });
    for (q, quad) in acc.chunks_exact_mut(QUAD).enumerate() {
        let first = (q * QUAD) as u32;
        if first < rows {
            // SAFETY: the row is below m; the rest forwarded.
            let av: [I::Four; QUAD] =
                core::array::from_fn(|j| unsafe { a_group::<I, A4, EDGE>(a, k, (row0 + first + j as u32).min(m - 1), kk, end) });
            for (sums, &a4) in quad.iter_mut().zip(av.iter()) {
                let v = I::values(a4);
                for (e, (&ae, bx)) in v.iter().zip(bw.iter()).enumerate() {
                    let ae = if inside(e) { ae } else { 0.0 };
                    for (s, &x) in sums.iter_mut().zip(bx.iter()) {
                        *s = fma(ae, x, *s);
                    }
                }
            }
        }
    }
}

/// The kernel's body on inputs `I` (see the module for tiling, thread mapping and the one barrier),
/// `B`'s loads as [`b_row`]'s `VB`, `A`'s as [`a_group`]'s `A4`.
///
/// # Safety
/// As the entries; the launch gives [`SHARED_BYTES`] of dynamic shared memory, 256 threads and
/// `⌈N/128⌉ × ⌈M/16⌉ × slices` blocks; with `VB`, `n % 4 == 0`; with `A4`, `k % 4 == 0`.
#[inline(always)]
unsafe fn few_rows<I: Input, const VB: bool, const A4: bool>(a: *const I::Elem, b: *const I::Elem, c: *mut f32, m: u32, n: u32, k: u32) {
    use crate::device::{atomic, mem::Float4, shared::SharedTiles, thread};
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let slices = thread::grid_dim_z();
    let (k_begin, k_end) = super::k10_split_k::k_slice(k, BK);
    let (row0, col0) = (thread::block_idx_y() * ROWS, thread::block_idx_x() * COLS);
    let rows = m.saturating_sub(row0).min(ROWS);
    let (tid, lane) = (thread::thread_idx_x(), thread::thread_idx_x() % 32);
    let warp = tid / 32;
    let col = col0 + lane * 4;

    let mut acc = [[0.0f32; 4]; ROWS as usize];
    // Warp w takes the groups starting at k_begin + GROUP·w, every WARPS·GROUP rows; a group's rows
    // of B all loaded before use (bytes in flight).
    const STRIDE: u32 = WARPS * GROUP;
    let mut kk = k_begin + warp * GROUP;
    while kk + GROUP <= k_end {
        // SAFETY: kk + e < k_end ≤ k; col is a multiple of 4; VB as the contract.
        let group: [I::Four; GROUP as usize] = core::array::from_fn(|e| unsafe { b_row::<I, VB>(b, n, kk + e as u32, col) });
        // SAFETY: rows of A are clamped below m (m ≥ 1: the grid is not empty); kk is a multiple of 4
        // (k_begin, GROUP·warp and STRIDE are) and kk + 4 ≤ k_end ≤ k.
        unsafe { add_group::<I, A4, false>(&mut acc, a, (k, m), row0, rows, kk, k_end, &group) };
        kk += STRIDE;
    }
    // The warp's last group, cut by the slice's end: its rows at or past k_end read the last one
    // before it (zeroed in add_group).
    if kk < k_end {
        // SAFETY: (kk + e).min(k_end − 1) < k_end ≤ k; col is a multiple of 4; VB as the contract.
        let group: [I::Four; GROUP as usize] =
            core::array::from_fn(|e| unsafe { b_row::<I, VB>(b, n, (kk + e as u32).min(k_end - 1), col) });
        // SAFETY: as above, with 1 ≤ k_end (kk < k_end), a multiple of BK or k (so of 4 where A4).
        unsafe { add_group::<I, A4, true>(&mut acc, a, (k, m), row0, rows, kk, k_end, &group) };
    }

    // The warps' partial sums of the block's rows: red[w][i][0 .. COLS], i < rows.
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch provides SHARED_BYTES = WARPS·ROWS·COLS·4 bytes.
    let red = unsafe { shared.tile((WARPS * ROWS * COLS) as usize) };
    for (i, sums) in acc.iter().enumerate() {
        if (i as u32) < rows {
            // SAFETY: (warp·ROWS + i)·COLS + 4·lane + 4 ≤ WARPS·ROWS·COLS; a multiple of 4 floats.
            unsafe { red.set4(((warp * ROWS + i as u32) * COLS + lane * 4) as usize, Float4(*sums)) }
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
                // SAFETY: (w·ROWS + i)·COLS + 4j + 4 ≤ WARPS·ROWS·COLS (i < ROWS, j < COLS/4).
                let v = unsafe { red.get4(((w * ROWS + i) * COLS + j * 4) as usize) }.0;
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

/// [`few_rows`] with its loads chosen once for the launch: vector loads of `B` where N is a multiple
/// of 4, of `A` where K is.
///
/// # Safety
/// As [`few_rows`] without the `VB` and `A4` conditions.
#[inline(always)]
unsafe fn few_rows_on<I: Input>(a: *const I::Elem, b: *const I::Elem, c: *mut f32, m: u32, n: u32, k: u32) {
    // A launch of several slices follows C's zeroing (the host queues it as its dependent).
    crate::device::dependent_launch::follow_prior(crate::device::thread::grid_dim_z() > 1);
    // SAFETY (all): forwarded contract; vector loads of B only where n % 4 == 0, of A where k % 4 == 0.
    unsafe {
        match (n.is_multiple_of(4), k.is_multiple_of(4)) {
            (true, true) => few_rows::<I, true, true>(a, b, c, m, n, k),
            (true, false) => few_rows::<I, true, false>(a, b, c, m, n, k),
            (false, true) => few_rows::<I, false, true>(a, b, c, m, n, k),
            (false, false) => few_rows::<I, false, false>(a, b, c, m, n, k),
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
        unsafe { few_rows_on::<F32>(a, b, c, m, n, k) }
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
        unsafe { few_rows_on::<Bf16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Few-rows matmul (kernel 18) on FP16 inputs widened to `f32`: as [`matmul_few_rows_bf16`].
    ///
    /// # Safety
    /// As [`matmul_few_rows_bf16`].
    pub unsafe fn matmul_few_rows_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { few_rows_on::<F16>(a, b, c, m, n, k) }
    }
}
