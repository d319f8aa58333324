//! The tensor-core ceiling: a microbenchmark of the `mma.sync` instruction rate, one kernel per precision.
//!
//! Each warp runs [`CHAINS`] independent accumulator chains of `mma.sync` on register operands for
//! `iters` iterations, with no memory traffic in the loop, so the only limit is the rate at which the
//! SMs' tensor cores accept `mma.sync` instructions. Independent chains hide each instruction's latency
//! (one chain would measure the latency instead); launch enough warps to fill every SM (e.g. 132 SMs ×
//! 8 blocks of 256 threads, several waves' worth is fine).
//!
//! **FLOPs per launch**: `warps · iters · CHAINS · 2·16·8·K`, with `warps = grid · block / 32` and
//! `K = 8` for TF32 (`m16n8k8`: 2048 FLOPs per `mma`), `K = 16` for BF16 and FP16 (`m16n8k16`: 4096).
//! Rate = FLOPs / kernel time (time a launch with large `iters`, e.g. 2^16, so launch overhead vanishes).
//!
//! **Operands**: derived from the thread index (so nothing is a compile-time constant and nothing
//! folds), small normal values of the operand type; each chain has its own B fragment. **Output**: each
//! thread writes the sum of its accumulators to `out[global thread id]`, so no `mma` is dead code.
//!
//! **Launch**: 1-D grid and 1-D blocks of a multiple of 32 threads (`mma.sync` is warp-collective);
//! `out` holds `grid · block` floats; no shared memory.
//!
//! **Code** (ptxas 13.0 for sm_90, SASS from nvdisasm, 2026-11-30): 59 registers, no spills, for each
//! of the three; LLVM unrolls the loop 8×, and the main loop is 64 `HMMA.1688.F32.TF32` (resp.
//! `HMMA.16816.F32.BF16`, `HMMA.16816.F32`) plus 13 other instructions, one HMMA per `mma.sync`.
use crate::device::mma::{mma_m16n8k16_bf16, mma_m16n8k16_f16, mma_m16n8k8_tf32, pack_b16, to_tf32};
use crate::device::{mem::View, thread};

/// Independent accumulator chains per warp (8 × 4 accumulator registers per lane).
pub const CHAINS: usize = 8;

/// Threads per block the host launches (8 warps).
pub const BLOCK: u32 = 256;

/// The shared loop: `iters` rounds of one `mma` per chain, then each thread's accumulator sum to
/// `out[index_1d()]`. `mma` is one of the `device::mma` functions; `a`, `b` this lane's fragments;
/// chain `j` uses `b` with `j` xor-ed into the first word at bit `shift` (a low mantissa bit of the
/// operand type), so the chains' operands differ.
///
/// # Safety
/// `out` holds at least `grid · block` floats (1-D launch), the block is whole warps (see the module
/// docs), and `mma` may be called by every lane of a warp together (it wraps a warp-collective).
#[inline(always)]
unsafe fn run(out: *mut f32, iters: u32, a: [u32; 4], b: [u32; 2], shift: u32, mma: impl Fn([u32; 4], [u32; 2], [f32; 4]) -> [f32; 4]) {
    let tid = thread::index_1d();
    // SAFETY: the caller passes `grid · block` floats and `tid < grid · block`.
    let out = unsafe { View::new(out, tid + 1) };
    let mut acc = [[0.0f32; 4]; CHAINS];
    let bs: [[u32; 2]; CHAINS] = core::array::from_fn(|j| [b[0] ^ ((j as u32) << shift), b[1]]);
    let mut i = 0;
    while i < iters {
        for (acc, b) in acc.iter_mut().zip(&bs) {
            *acc = mma(a, *b, *acc);
        }
        i += 1;
    }
    let mut sum = 0.0f32;
    for chain in &acc {
        for &v in chain {
            sum += v;
        }
    }
    // SAFETY: `tid < tid + 1 = out.len()`.
    unsafe { out.set(tid, sum) }
}

/// A small varying value in [1/64, 1/32) from the thread index (so the operands are not constants).
#[inline(always)]
fn seed_f32(x: u32, salt: u32) -> f32 {
    let bits = (x ^ salt.wrapping_mul(0x9e37_79b9)).wrapping_mul(2_654_435_761) >> 9;
    (1.0 + bits as f32 * (1.0 / 8_388_608.0)) * (1.0 / 64.0)
}

kernel! {
    /// `iters` × [`CHAINS`] `mma.sync.m16n8k8` TF32 per warp (2048 FLOPs each); see the module docs.
    ///
    /// # Safety
    /// 1-D launch, blocks of a multiple of 32 threads; `out` holds `grid · block` floats.
    pub unsafe fn mma_rate_tf32(out: *mut f32, iters: u32) {
        let t = thread::index_1d() as u32;
        let a = [to_tf32(seed_f32(t, 1)), to_tf32(seed_f32(t, 2)), to_tf32(seed_f32(t, 3)), to_tf32(seed_f32(t, 4))];
        let b = [to_tf32(seed_f32(t, 5)), to_tf32(seed_f32(t, 6))];
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run(out, iters, a, b, 13, |a, b, c| mma_m16n8k8_tf32(a, b, c)) }
    }
}

kernel! {
    /// `iters` × [`CHAINS`] `mma.sync.m16n8k16` BF16 per warp (4096 FLOPs each); see the module docs.
    ///
    /// # Safety
    /// 1-D launch, blocks of a multiple of 32 threads; `out` holds `grid · block` floats.
    pub unsafe fn mma_rate_bf16(out: *mut f32, iters: u32) {
        let t = thread::index_1d() as u32;
        // bf16 = the top 16 bits of an f32: values in [1/64, 1/32).
        let h = |salt: u32| (seed_f32(t, salt).to_bits() >> 16) as u16;
        let a = [pack_b16(h(1), h(2)), pack_b16(h(3), h(4)), pack_b16(h(5), h(6)), pack_b16(h(7), h(8))];
        let b = [pack_b16(h(9), h(10)), pack_b16(h(11), h(12))];
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run(out, iters, a, b, 0, |a, b, c| mma_m16n8k16_bf16(a, b, c)) }
    }
}

kernel! {
    /// `iters` × [`CHAINS`] `mma.sync.m16n8k16` FP16 per warp (4096 FLOPs each); see the module docs.
    ///
    /// # Safety
    /// 1-D launch, blocks of a multiple of 32 threads; `out` holds `grid · block` floats.
    pub unsafe fn mma_rate_f16(out: *mut f32, iters: u32) {
        let t = thread::index_1d() as u32;
        // f16 0x2400 | m = (1 + m/1024) · 2^-6: values in [1/64, 1/32), built from integer bits.
        let h = |salt: u32| 0x2400 | ((t ^ salt.wrapping_mul(0x9e37_79b9)).wrapping_mul(2_654_435_761) >> 22) as u16;
        let a = [pack_b16(h(1), h(2)), pack_b16(h(3), h(4)), pack_b16(h(5), h(6)), pack_b16(h(7), h(8))];
        let b = [pack_b16(h(9), h(10)), pack_b16(h(11), h(12))];
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run(out, iters, a, b, 0, |a, b, c| mma_m16n8k16_f16(a, b, c)) }
    }
}
