//! Kernel 11: tensor cores, the simplest way — one warp per 16×8 tile of `C`, every fragment straight
//! from global memory. The first rung of the mma ladder (BF16, FP16, TF32 inputs; `f32` output).

use super::mma_ops::{Bf16, MmaKind, Tf32, F16};
use crate::device::thread;
use crate::launch::TileConfig;

/// Warps per block along M and N: a block computes a `(16·WARPS_M) × (8·WARPS_N)` tile of `C`.
pub const WARPS_M: u32 = 4;
/// See [`WARPS_M`].
pub const WARPS_N: u32 = 2;

/// The launch of every kernel-11 entry: 8 warps (256 threads) per 64×16 tile of `C`, no shared memory.
/// `bk` is the TF32 `mma`'s K (the BF16/FP16 entries step 16 at a time).
pub const CONFIG: TileConfig = TileConfig::new(16 * WARPS_M, 8 * WARPS_N, 8, 32 * WARPS_M * WARPS_N, 0);

/// The body of every kernel-11 entry for operand kind `O`.
///
/// **What it fixes in kernel 10**: kernels 1–10 run on the FP32 pipes (one FMA per thread per
/// instruction, 67 TFLOP/s peak on the H200). Here one `mma.sync` has a warp compute a 16×8×16 block
/// product (4,096 FLOPs, BF16/FP16) or 16×8×8 (TF32) on the tensor cores, whose rate is an order of
/// magnitude higher. Nothing else is optimised: this rung shows the instruction and the fragment
/// layouts at their plainest.
///
/// **Tiling / thread mapping**: blocks of 8 warps (4 along M × 2 along N) over a 64×16 tile of `C`;
/// warp `w` owns the 16×8 tile at `(16·(w / 2), 8·(w % 2))` and walks K one `mma` at a time. Each
/// lane loads its own fragment elements from global memory (`MmaKind::a_frag_global`,
/// `b_frag_global`: the layouts of the PTX ISA, zero outside the matrix) — 2-byte or 4-byte loads,
/// each element loaded by one lane of every warp that needs it, no reuse through shared memory.
///
/// **Edges**: any M, N, K: out-of-range elements load as zero (they add nothing), and only in-range
/// elements of `C` are stored. Every lane of a warp runs every `mma` (no early return), as
/// `mma.sync` requires.
///
/// **Barriers**: none (no shared memory).
///
/// Measurements: `docs/ladder/k11-k13-tensor-cores.md`.
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` elements, `c` `m·n` floats, each product fits in `u32`; the launch is
/// [`CONFIG`] (256 threads, a `⌈n/16⌉ × ⌈m/64⌉` grid).
#[inline(always)]
pub unsafe fn mma_naive<O: MmaKind>(a: *const O::Elem, b: *const O::Elem, c: *mut f32, m: u32, n: u32, k: u32) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let (warp, lane) = (thread::thread_idx_x() / 32, thread::lane_id());
    let r0 = thread::block_idx_y() * CONFIG.bm + 16 * (warp / WARPS_N);
    let n0 = thread::block_idx_x() * CONFIG.bn + 8 * (warp % WARPS_N);
    let mut acc = [0.0f32; 4];
    let mut k0 = 0;
    while k0 < k {
        // SAFETY: the fragment loads guard every index against m, n, k.
        let (fa, fb) = unsafe { (O::a_frag_global(a, m, k, r0, k0, lane), O::b_frag_global(b, k, n, k0, n0, lane)) };
        // SAFETY: every lane of every warp runs the loop to the same bound k (no early return).
        acc = unsafe { O::mma(fa, fb, acc) };
        k0 += O::K;
    }
    let (g, t) = (lane / 4, lane % 4);
    for (i, &v) in acc.iter().enumerate() {
        // C fragment: (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
        let (r, col) = (r0 + g + 8 * (i as u32 / 2), n0 + 2 * t + i as u32 % 2);
        if r < m && col < n {
            // SAFETY: r < m and col < n.
            unsafe { c.set((r * n + col) as usize, v) }
        }
    }
}

kernel! {
    /// Kernel 11 on BF16 inputs (raw `u16` bits), `f32` output; see [`mma_naive`].
    ///
    /// # Safety
    /// As [`mma_naive`].
    pub unsafe fn matmul_mma_naive_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { mma_naive::<Bf16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Kernel 11 on FP16 inputs (raw `u16` bits), `f32` output; see [`mma_naive`].
    ///
    /// # Safety
    /// As [`mma_naive`].
    pub unsafe fn matmul_mma_naive_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { mma_naive::<F16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Kernel 11 in TF32 on `f32` inputs (rounded to TF32 as they are loaded), `f32` output; see
    /// [`mma_naive`].
    ///
    /// # Safety
    /// As [`mma_naive`].
    pub unsafe fn matmul_mma_naive_tf32(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { mma_naive::<Tf32>(a, b, c, m, n, k) }
    }
}
