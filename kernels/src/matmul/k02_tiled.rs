//! Kernel 2: 16×16 tiles of A and B staged in shared memory.
//!
//! Also on BF16 / FP16 inputs, widened to `f32` as they are staged ([`super::input`]: exact): the
//! 16-bit entries serve `Auto` on the tiniest products, where a block's fixed costs are the time and a
//! tensor-core kernel's pipeline is pure overhead (8×5×59: this tile about 3 µs, the tensor-core
//! kernels 5–6).

use super::input::{Input, F32};
use super::mma_ops::{Bf16, F16};
use crate::launch::TileConfig;

/// Tile edge, in elements.
pub const TILE: u32 = 16;

/// The launch: `TILE × TILE` threads per tile, `a_tile` and `b_tile` of `TILE²` floats in shared memory.
pub const CONFIG: TileConfig = TileConfig::new(TILE, TILE, TILE, TILE * TILE, 2 * TILE * TILE * 4).block_2d(TILE, TILE);

kernel! {
    /// Tiled matmul: each block computes a 16×16 tile of `C`, walking along K one 16-wide step at a time.
    ///
    /// **What it fixes in kernel 1**: neighbouring threads of a block read the same rows of `A` and
    /// columns of `B` again and again. Here each block loads a 16×16 tile of `A` and of `B` into shared
    /// memory once (one element per thread), waits at a barrier, and then every thread does its 16
    /// multiply-adds from shared memory. Global loads drop 16-fold: `2·M·N·K / 16`, 2.1 B → 134 M for
    /// 1024³ — the seed's "2.1 B → 134 M".
    ///
    /// **Parameters**: as kernel 1. Any M, N, K: tiles that hang over an edge load zeros, which add
    /// nothing to the dot product, and only in-range threads store.
    ///
    /// **Tiling**: dynamic shared memory holds `a_tile[16][16]` then `b_tile[16][16]` (2 KiB).
    ///
    /// **Thread mapping**: blocks of 16×16 threads; thread `(tx, ty)` loads `A[row][t·16 + tx]` and
    /// `B[t·16 + ty][col]` (both coalesced along `tx`) and owns `C[row][col]`,
    /// `row = blockIdx.y·16 + ty`, `col = blockIdx.x·16 + tx`.
    ///
    /// **Barriers**: one after the loads (the tile is complete before anyone reads it) and one after the
    /// compute (nobody overwrites a tile another thread still reads). Both are reached by every thread
    /// of the block: out-of-range threads are not returned early, they load zeros and skip the store.
    ///
    /// Measurements: `docs/ladder/k02-tiled.md`.
    ///
    /// # Safety
    /// As kernel 1, plus a launch with 16×16 threads and ≥ 2 KiB dynamic shared memory.
    pub unsafe fn matmul_tiled(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { tiled::<F32>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Kernel 2 on BF16 inputs widened to `f32` as they are staged (exact), `f32` output: as
    /// [`matmul_tiled`].
    ///
    /// # Safety
    /// As [`matmul_tiled`], on 16-bit elements (`a` holds `m·k`, `b` `k·n` of them).
    pub unsafe fn matmul_tiled_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { tiled::<Bf16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Kernel 2 on FP16 inputs widened to `f32`: as [`matmul_tiled_bf16`].
    ///
    /// # Safety
    /// As [`matmul_tiled_bf16`].
    pub unsafe fn matmul_tiled_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { tiled::<F16>(a, b, c, m, n, k) }
    }
}

/// The body of every entry (see [`matmul_tiled`]): elements of `I` staged in shared memory as `f32`.
///
/// # Safety
/// As [`matmul_tiled`], on elements of `I`.
#[inline(always)]
unsafe fn tiled<I: Input>(a: *const I::Elem, b: *const I::Elem, c: *mut f32, m: u32, n: u32, k: u32) {
    use crate::device::{math::fma, shared::SharedTiles, thread};
    const T: usize = TILE as usize;
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let mut shared = SharedTiles::<f32>::new();
    // SAFETY: the launch provides 2·TILE² floats of dynamic shared memory.
    let (a_tile, b_tile) = unsafe { (shared.tile(T * T), shared.tile(T * T)) };

    let (tx, ty) = (thread::thread_idx_x(), thread::thread_idx_y());
    let row = thread::block_idx_y() * TILE + ty;
    let col = thread::block_idx_x() * TILE + tx;
    let own = (ty * TILE + tx) as usize;

    let mut acc = 0.0f32;
    for t in 0..k.div_ceil(TILE) {
        let (a_col, b_row) = (t * TILE + tx, t * TILE + ty);
        // SAFETY: each global index is guarded by its own range check; `own < TILE²`.
        unsafe {
            a_tile.set(own, if row < m && a_col < k { I::value(a.get((row * k + a_col) as usize)) } else { 0.0 });
            b_tile.set(own, if b_row < k && col < n { I::value(b.get((b_row * n + col) as usize)) } else { 0.0 });
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        for i in 0..T {
            // SAFETY: ty, tx < TILE and i < TILE, so both indices are < TILE².
            acc = fma(unsafe { a_tile.get(ty as usize * T + i) }, unsafe { b_tile.get(i * T + tx as usize) }, acc);
        }
        // SAFETY: reached by every thread of the block (no early returns; block-uniform loop bounds).
        unsafe { thread::sync_threads() };
    }
    if row < m && col < n {
        // SAFETY: row < m and col < n.
        unsafe { c.set((row * n + col) as usize, acc) }
    }
}
