//! The `wgmma` ceiling: a microbenchmark of the Hopper warpgroup-MMA instruction rate (sm_90a), one
//! kernel per precision — what [`crate::mma_rate`] is for `mma.sync`.
//!
//! Each block is one warpgroup (128 threads). It writes one fixed operand pair into shared memory
//! once (A `64 × 128 bytes` K-major, B `128 bytes of K × 256` in the 128-byte swizzle layout of
//! [`wgmma`]), then issues `iters` groups of [`GROUP`] back-to-back `wgmma.mma_async` `m64n256k16`
//! (BF16, FP16), `m64n256k8` (TF32) or `m64n256k32` (FP8 E4M3, E5M2) into one set of `f32` accumulators (128 registers per thread),
//! instruction `s` of a group reading the `s`-th K-slice of the 128-byte rows (as kernel 14 steps
//! through a tile). Each group is `wgmma.fence`, [`GROUP`] instructions, `commit_group`,
//! `wait_group 1` (`wait_group 0` after the last): one group runs while the next is issued, and nothing but the tensor core's rate
//! limits the loop (no global traffic, no shared-memory writes, no register copies of the operands).
//! Occupancy is the host's choice: `blocks = w · SMs` gives `w` warpgroups per SM (1–3 fit: the
//! registers below).
//!
//! **FLOPs per launch**: `blocks · iters · GROUP · 2·64·256·K`, `K = 16` for BF16 and FP16
//! (524 288 FLOPs per `wgmma`), `K = 8` for TF32 (262 144), `K = 32` for FP8 (1 048 576). Rate = FLOPs / kernel time (time a
//! launch with large `iters` so that the fill and launch overhead vanish).
//!
//! **Operands**: small integers in `[-3, 4]` ([`a_value`], [`b_value`]: a hash of the element's
//! position, so a misread element changes the result), exact in every operand type; with few
//! `iters` every accumulator is an exact integer, so a test can check the result exactly (a wrong
//! descriptor, swizzle or slice step fails it). Few mantissa bits toggle, so the figure is the
//! instruction rate at the power such data draws; random operands may run at lower clocks.
//!
//! **Output**: each thread writes `Σ_i weight(i) · acc[i]` ([`weight`]: `1 + i mod 16`, so a
//! permutation of columns is seen too) to `out[global thread id]`, so no `wgmma` is dead code.
//!
//! **Launch**: 1-D grid of [`BLOCK`]-thread blocks (whole warpgroups; any multiple of 128 works),
//! [`SHARED_BYTES`] of dynamic shared memory; `out` holds `grid · block` floats; sm_90a.
//!
//! **Code** (ptxas 13.0, `-arch sm_90a`, 2026-11-30): 154 registers per thread (128 accumulators),
//! no spills, no stack, for each of the three; ptxas serializes none of the `wgmma`s (no C7514
//! warning; `tests/ptx.rs` checks it) and injects one `warpgroup.wait` after the loop (C7517), where
//! the accumulators are read. 3 warpgroups fit on an SM (3 · 128 · 160 registers ≤ 64 Ki).
//!
//! **Measured** (H200, `docs/results/2026-11-30-wgmma-rate`): BF16 897.5, FP16 843.1, TF32 490.0
//! TFLOP/s, 0.907 / 0.852 / 0.991 of the datasheet's dense peaks (989.4, 989.4, 494.7 TFLOP/s); FP8
//! (`docs/results/2026-12-04-fp8-types/ceiling-7ba2179`) E4M3 1,701.4 and E5M2 1,701.7, 0.860 of 1,978.9.
use crate::device::async_copy::SharedPtr;
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::{thread, wgmma};

/// Threads per block the host launches: one warpgroup.
pub const BLOCK: u32 = 128;
/// `wgmma` instructions per commit group: the K-slices of one 128-byte swizzle row.
pub const GROUP: u32 = 4;
/// Bytes of the A tile: 64 rows of 128 bytes of K (K-major).
pub const A_BYTES: u32 = 64 * 128;
/// Bytes of the B tile: 256 columns × 128 bytes of K (BF16/FP16: four N-major 64-column blocks of 64
/// K-rows, [`B_N_BLOCK_BYTES`] apart; TF32: 256 K-major rows).
pub const B_BYTES: u32 = 256 * 128;
/// Bytes of one N-major 64-column block of B (the descriptor's LBO): 64 K-rows of 128 bytes.
pub const B_N_BLOCK_BYTES: u32 = 64 * 128;
/// Dynamic shared memory per block: both tiles and one atom of alignment slack.
pub const SHARED_BYTES: u32 = A_BYTES + B_BYTES + wgmma::SW128_ATOM_BYTES;
/// `f32` accumulators per thread of one `m64n256` instruction.
pub const ACC: usize = 128;

/// An operand value in `[-3, 4]` from a position hash (the top 3 bits of a multiplicative hash).
#[inline(always)]
pub const fn operand_value(x: u32) -> i32 {
    (x.wrapping_mul(0x9E37_79B1) >> 29) as i32 - 3
}

/// `A[m][k]` (`m < 64`; `k` < 128 bytes of elements: 128 for FP8, 64 for BF16/FP16, 32 for TF32).
#[inline(always)]
pub const fn a_value(m: u32, k: u32) -> i32 {
    operand_value(m * 128 + k)
}

/// `B[k][n]` (`n < 256`; `k` as in [`a_value`]).
#[inline(always)]
pub const fn b_value(k: u32, n: u32) -> i32 {
    operand_value(0x1_0000 + k * 256 + n)
}

/// The weight of accumulator `i` in a thread's output sum.
#[inline(always)]
pub const fn weight(i: u32) -> f32 {
    (1 + i % 16) as f32
}

/// The FP16 bits of a small integer (`|v| < 2^11`, exact).
#[inline(always)]
pub const fn f16_bits(v: i32) -> u16 {
    if v == 0 {
        return 0;
    }
    let bits = (v as f32).to_bits();
    let exp = ((bits >> 23) & 0xFF) as i32 - 127 + 15;
    (((bits >> 16) & 0x8000) | ((exp as u32) << 10) | ((bits >> 13) & 0x3FF)) as u16
}

/// The FP8 bits of a small integer exact in the format (`|v| ≤ 15` in E4M3, `≤ 7` in E5M2; the
/// operands are in `[-3, 4]`): sign, exponent with `bias`, the `mantissa` bits after the leading one.
#[inline(always)]
pub const fn fp8_bits(v: i32, bias: u32, mantissa: u32) -> u8 {
    if v == 0 {
        return 0;
    }
    let a = v.unsigned_abs();
    let e = 31 - a.leading_zeros(); // ⌊log₂ a⌋
    let m = ((a << mantissa) >> e) & ((1 << mantissa) - 1);
    ((if v < 0 { 0x80 } else { 0 }) | ((e + bias) << mantissa) | m) as u8
}

/// One precision's `wgmma`: operand format and instruction.
pub trait RateOp {
    /// Bytes per element (2, or 4 for TF32).
    const ELEM: u32;
    /// K of one instruction.
    const K: u32;
    /// Whether B is K-major (`Bᵀ`, TF32) rather than N-major.
    const B_K_MAJOR: bool;
    /// The element bits of a small integer.
    fn bits(v: i32) -> u32;
    /// `acc += A·B` on one 64×256×K tile.
    ///
    /// # Safety
    /// As [`wgmma::mma_m64n256k16_bf16`].
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64);
}

/// BF16, `m64n256k16`, B N-major.
pub struct Bf16;
/// FP16, `m64n256k16`, B N-major.
pub struct F16;
/// TF32, `m64n256k8`, B K-major.
pub struct Tf32;
/// FP8 E4M3, `m64n256k32`, B K-major.
pub struct E4m3;
/// FP8 E5M2, `m64n256k32`, B K-major.
pub struct E5m2;

impl RateOp for Bf16 {
    const ELEM: u32 = 2;
    const K: u32 = 16;
    const B_K_MAJOR: bool = false;
    #[inline(always)]
    fn bits(v: i32) -> u32 {
        (v as f32).to_bits() >> 16
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n256k16_bf16(acc, a, b, true) }
    }
}

impl RateOp for F16 {
    const ELEM: u32 = 2;
    const K: u32 = 16;
    const B_K_MAJOR: bool = false;
    #[inline(always)]
    fn bits(v: i32) -> u32 {
        f16_bits(v) as u32
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n256k16_f16(acc, a, b, true) }
    }
}

impl RateOp for Tf32 {
    const ELEM: u32 = 4;
    const K: u32 = 8;
    const B_K_MAJOR: bool = true;
    #[inline(always)]
    fn bits(v: i32) -> u32 {
        (v as f32).to_bits()
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n256k8_tf32(acc, a, b, true) }
    }
}

impl RateOp for E4m3 {
    const ELEM: u32 = 1;
    const K: u32 = 32;
    const B_K_MAJOR: bool = true;
    #[inline(always)]
    fn bits(v: i32) -> u32 {
        fp8_bits(v, 7, 3) as u32
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n256k32_e4m3(acc, a, b, true) }
    }
}

impl RateOp for E5m2 {
    const ELEM: u32 = 1;
    const K: u32 = 32;
    const B_K_MAJOR: bool = true;
    #[inline(always)]
    fn bits(v: i32) -> u32 {
        fp8_bits(v, 15, 2) as u32
    }
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; ACC], a: u64, b: u64) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n256k32_e5m2(acc, a, b, true) }
    }
}

/// The 32-bit word at (unswizzled) byte offset `o` of the operand tiles (A then B): one TF32
/// element, two 16-bit ones or four FP8 ones (the lower address in the lower bits).
#[inline(always)]
fn tile_word<O: RateOp>(o: u32) -> u32 {
    let per_row = 128 / O::ELEM;
    // The element at byte `e` of the tiles.
    let element = |e: u32| -> i32 {
        if e < A_BYTES {
            a_value(e / 128, (e % 128) / O::ELEM)
        } else {
            let e = e - A_BYTES;
            if O::B_K_MAJOR {
                b_value((e % 128) / O::ELEM, e / 128)
            } else {
                let (block, within) = (e / B_N_BLOCK_BYTES, e % B_N_BLOCK_BYTES);
                b_value(within / 128, block * per_row + (within % 128) / O::ELEM)
            }
        }
    };
    match O::ELEM {
        4 => O::bits(element(o)),
        2 => (O::bits(element(o)) & 0xFFFF) | (O::bits(element(o + 2)) << 16),
        _ => (0..4).fold(0, |w, j| w | (O::bits(element(o + j)) & 0xFF) << (8 * j)),
    }
}

/// The benchmark: fill the tiles once, `iters` groups of [`GROUP`] `wgmma`s per warpgroup, the
/// weighted accumulator sum to `out[index_1d()]`.
///
/// # Safety
/// A 1-D launch of blocks of a multiple of 128 threads with [`SHARED_BYTES`] of dynamic shared
/// memory, sm_90a; `out` holds `grid · block` floats.
#[inline(always)]
unsafe fn run<O: RateOp>(out: *mut f32, iters: u32) {
    let tid = thread::thread_idx_x();
    let words = (SHARED_BYTES / 4) as usize;
    // SAFETY: the launch provides SHARED_BYTES of dynamic shared memory.
    let smem = unsafe { SharedTiles::<u32>::new().tile(words) };
    // SAFETY: `smem` is this block's shared memory.
    let base = unsafe { SharedPtr::new(smem, 0) };
    // The tiles start at the first 1024-byte boundary (word `lead` of `smem`): the swizzle atoms.
    let lead = ((wgmma::SW128_ATOM_BYTES - base.addr() % wgmma::SW128_ATOM_BYTES) % wgmma::SW128_ATOM_BYTES) / 4;
    let mut w = tid;
    while w < (A_BYTES + B_BYTES) / 4 {
        let o = 4 * w;
        // SAFETY: lead + swizzle(o) / 4 < lead + (A_BYTES + B_BYTES) / 4 ≤ words (the swizzle permutes
        // 16-byte chunks inside each 1024-byte atom).
        unsafe { smem.set((lead + wgmma::swizzle_sw128(o) / 4) as usize, tile_word::<O>(o)) };
        w += thread::block_dim_x();
    }
    wgmma::fence_proxy_async();
    // SAFETY: reached by every thread of the block.
    unsafe { thread::sync_threads() };

    let tiles = base.offset(lead).addr();
    let b_lbo = if O::B_K_MAJOR { 16 } else { B_N_BLOCK_BYTES };
    let a_desc = wgmma::descriptor_sw128(tiles, 16, wgmma::SW128_ATOM_BYTES);
    let b_desc = wgmma::descriptor_sw128(tiles + A_BYTES, b_lbo, wgmma::SW128_ATOM_BYTES);
    // Per instruction: K elements along a K-major row; K rows down an N-major B.
    let a_step = O::K * O::ELEM;
    let b_step = if O::B_K_MAJOR { O::K * O::ELEM } else { O::K * 128 };
    let mut acc = [0.0f32; ACC];
    let mut i = 0;
    while i < iters {
        // SAFETY: warpgroup-uniform (`iters` is a kernel argument); the tiles were written and fenced
        // before the barrier; the descriptors name 1024-byte-aligned tiles inside the region.
        unsafe {
            wgmma::fence();
            for s in 0..GROUP {
                O::mma(&mut acc, a_desc + ((s * a_step) >> 4) as u64, b_desc + ((s * b_step) >> 4) as u64);
            }
            wgmma::commit_group();
        }
        i += 1;
        // The last group waits for all: the accumulators are read right after the loop. (A wait after
        // the loop let LLVM compute their sum above it — register reads are not ordered by the asm's
        // memory clobber — and ptxas then serialized every `wgmma` of the loop.)
        // SAFETY: warpgroup-uniform (`i` and `iters` are).
        unsafe {
            if i == iters {
                wgmma::wait_group(0)
            } else {
                wgmma::wait_group(1)
            }
        }
    }
    let mut sum = 0.0f32;
    for (j, &v) in acc.iter().enumerate() {
        sum += weight(j as u32) * v;
    }
    let g = thread::index_1d();
    // SAFETY: the caller passes grid · block floats; g < grid · block.
    unsafe { View::new(out, g + 1).set(g, sum) }
}

kernel! {
    /// `iters` × [`GROUP`] `wgmma.mma_async.m64n256k16` BF16 per warpgroup (524 288 FLOPs each);
    /// see the module docs.
    ///
    /// # Safety
    /// As `run`: 1-D launch of 128-thread multiples, [`SHARED_BYTES`] shared, `grid · block` floats.
    pub unsafe fn wgmma_rate_bf16(out: *mut f32, iters: u32) {
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run::<Bf16>(out, iters) }
    }
}

kernel! {
    /// `iters` × [`GROUP`] `wgmma.mma_async.m64n256k16` FP16 per warpgroup (524 288 FLOPs each);
    /// see the module docs.
    ///
    /// # Safety
    /// As `run`: 1-D launch of 128-thread multiples, [`SHARED_BYTES`] shared, `grid · block` floats.
    pub unsafe fn wgmma_rate_f16(out: *mut f32, iters: u32) {
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run::<F16>(out, iters) }
    }
}

kernel! {
    /// `iters` × [`GROUP`] `wgmma.mma_async.m64n256k8` TF32 per warpgroup (262 144 FLOPs each);
    /// see the module docs.
    ///
    /// # Safety
    /// As `run`: 1-D launch of 128-thread multiples, [`SHARED_BYTES`] shared, `grid · block` floats.
    pub unsafe fn wgmma_rate_tf32(out: *mut f32, iters: u32) {
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run::<Tf32>(out, iters) }
    }
}

kernel! {
    /// `iters` × [`GROUP`] `wgmma.mma_async.m64n256k32` FP8 E4M3 per warpgroup (1 048 576 FLOPs each);
    /// see the module docs.
    ///
    /// # Safety
    /// As `run`: 1-D launch of 128-thread multiples, [`SHARED_BYTES`] shared, `grid · block` floats.
    pub unsafe fn wgmma_rate_e4m3(out: *mut f32, iters: u32) {
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run::<E4m3>(out, iters) }
    }
}

kernel! {
    /// `iters` × [`GROUP`] `wgmma.mma_async.m64n256k32` FP8 E5M2 per warpgroup (1 048 576 FLOPs each);
    /// see the module docs.
    ///
    /// # Safety
    /// As `run`: 1-D launch of 128-thread multiples, [`SHARED_BYTES`] shared, `grid · block` floats.
    pub unsafe fn wgmma_rate_e5m2(out: *mut f32, iters: u32) {
        // SAFETY: the kernel's contract is `run`'s.
        unsafe { run::<E5m2>(out, iters) }
    }
}
