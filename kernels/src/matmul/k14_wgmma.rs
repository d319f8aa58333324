//! Kernel 14: Hopper's warpgroup MMA (`wgmma.mma_async`, sm_90a) fed by a `cp.async` pipeline.
//!
//! **What it fixes in kernel 13**: `mma.sync` makes every warp load its fragments from shared memory
//! into registers (`ldmatrix`) and issue one 16×8 `mma` per instruction; at its best it runs at about
//! 62 % of the `mma.sync` ceiling, and that ceiling is about 80 % of cuBLAS on this GPU. Here a
//! warpgroup (4 warps) issues one `m64n128k16` per instruction and the tensor core reads both operands
//! straight from shared memory through descriptors: no fragment loads, no register copies of A and B,
//! 16× the work per instruction of `m16n8k16`.
//!
//! **Tiling**: a 128×128 block tile, `BK = 64` (one 128-byte row of A per M row); 2 warpgroups
//! (256 threads), warpgroup `w` computes rows `64w .. 64w + 64` with four `m64n128k16` per K-step
//! (64 `f32` accumulators per thread).
//!
//! **Shared memory**: `S` stages of A `[128][64]` (K-major) and B `[64][128]` (N-major, two 64-column
//! blocks), both in the 128-byte swizzle layout of [`wgmma`](crate::device::wgmma) (atoms of 8 rows ×
//! 128 bytes, aligned to 1024 bytes: the kernel aligns its region's start up, the launch gives 1 KiB
//! of slack). `cp.async` writes chunk `c` of row `r` at chunk `c ^ (r % 8)`, which is the hardware's
//! address swizzle.
//!
//! **Pipeline and barriers**: as kernel 13: `S - 1` tiles in flight; per K-step: wait for tile `kt`,
//! `fence.proxy.async` (the tensor core reads through the async proxy), one block barrier, issue tile
//! `kt + S - 1` into the stage step `kt - 1` used, then `wgmma.fence`, four `wgmma`s, commit, and wait
//! for them (so that stage is free when the next step overwrites it).
//!
//! **Edges**: any M, N, K: `cp.async` zero-fill when K and N are multiples of 8 (16-byte rows), guarded
//! element stores otherwise; only in-range outputs are stored.
//!
//! Measurements: `docs/ladder/k14-wgmma.md`.
use super::mma_tile::shared_bytes;
use crate::device::async_copy::{self, SharedPtr};
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::{thread, wgmma};
use crate::launch::TileConfig;

/// One operand type of kernel 14 (16-bit elements stored as raw bits).
pub trait WgmmaKind {
    /// `acc (+)= A·B` on one 64×128×16 tile (see [`wgmma::mma_m64n128k16_bf16`]).
    ///
    /// # Safety
    /// As [`wgmma::mma_m64n128k16_bf16`].
    unsafe fn mma(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool);
}

/// BF16 inputs.
pub struct Bf16;
/// FP16 inputs.
pub struct F16;

impl WgmmaKind for Bf16 {
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n128k16_bf16(acc, a, b, accumulate) }
    }
}

impl WgmmaKind for F16 {
    #[inline(always)]
    unsafe fn mma(acc: &mut [f32; 64], a: u64, b: u64, accumulate: bool) {
        // SAFETY: forwarded contract.
        unsafe { wgmma::mma_m64n128k16_f16(acc, a, b, accumulate) }
    }
}

const BM: u32 = 128;
const BN: u32 = 128;
const BK: u32 = 64;
/// Threads: two warpgroups.
const NT: u32 = 256;
/// Pipeline stages.
const S: u32 = 4;
/// Bytes of one 16-bit element.
const ELEM: u32 = 2;
/// Elements of one stage: A `[BM][BK]` then B `[BK][BN]`.
const STAGE: u32 = BM * BK + BK * BN;
/// Bytes of one 64-column block of B (`BK` rows of 128 bytes): the N-major descriptor's LBO.
const B_BLOCK_BYTES: u32 = BK * 128;

/// The launch of kernel 14: 256 threads, `S` stages plus one atom of alignment slack.
pub const CONFIG: TileConfig = TileConfig::new(BM, BN, BK, NT, shared_bytes(BM, BN, BK, S, ELEM, 0) + wgmma::SW128_ATOM_BYTES).sm90a();

/// Byte offset, within a stage's A tile, of 16-byte chunk `c` (0..8) of row `r`: swizzled.
#[inline(always)]
const fn a_chunk(r: u32, c: u32) -> u32 {
    r * 128 + ((c ^ (r % 8)) * 16)
}

/// Byte offset, within a stage's B tile, of 16-byte chunk `cc` (0..16) of K-row `kr`: 64-column
/// block `cc / 8`, swizzled within it.
#[inline(always)]
const fn b_chunk(kr: u32, cc: u32) -> u32 {
    (cc / 8) * B_BLOCK_BYTES + kr * 128 + (((cc % 8) ^ (kr % 8)) * 16)
}

/// `C = A·B` for operand kind `O` (see the module documentation).
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` 16-bit elements, `c` `m·n` floats (products fit in `u32`); the launch has
/// [`CONFIG`]'s 256 threads and shared bytes and a `⌈n/128⌉ × ⌈m/128⌉` grid; sm_90a.
#[inline(always)]
pub unsafe fn wgmma_gemm<O: WgmmaKind>(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) =
        unsafe { (View::from_const(a, (m * k) as usize), View::from_const(b, (k * n) as usize), View::new(c, (m * n) as usize)) };
    let region = (S * STAGE + wgmma::SW128_ATOM_BYTES / ELEM) as usize;
    // SAFETY: the launch provides `region` elements of shared memory (CONFIG).
    let smem = unsafe { SharedTiles::<u16>::new().tile(region) };
    // SAFETY: `smem` is this block's shared memory.
    let base = unsafe { SharedPtr::new(smem, 0) };
    // Tiles start at the first 1024-byte boundary of the region (elements `lead ..` of `smem`).
    let lead = ((wgmma::SW128_ATOM_BYTES - base.addr() % wgmma::SW128_ATOM_BYTES) % wgmma::SW128_ATOM_BYTES) / ELEM;
    let tiles = base.offset(lead);
    let tid = thread::thread_idx_x();
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
    let aligned = k.is_multiple_of(8) && n.is_multiple_of(8);
    let steps = k.div_ceil(BK);

    // Loads K-tile `$kt` into stage `$s` and commits one copy group. A macro, not a closure: a
    // closure call put its captured views in local memory (a 184-byte stack frame).
    macro_rules! load {
        ($s:expr, $kt:expr) => {{
            let (sa, k0) = ($s * STAGE, $kt * BK);
            let sb = sa + BM * BK;
            for i in 0..(BM * BK / 8) / NT {
                let q = tid + i * NT;
                let (r, ch) = (q / 8, q % 8);
                let (gr, gk) = (row0 + r, k0 + ch * 8);
                let dst = sa + a_chunk(r, ch) / ELEM;
                if aligned {
                    let valid = gr < m && gk < k;
                    // SAFETY: dst is a 16-byte chunk of the stage; the source chunk is in range when valid
                    // (k % 8 == 0: a chunk is wholly inside or outside), index 0 otherwise (nothing read).
                    unsafe { async_copy::copy16_zfill_at(tiles.offset(dst), a, if valid { (gr * k + gk) as usize } else { 0 }, valid) };
                } else {
                    for e in 0..8 {
                        let v = if gr < m && gk + e < k { unsafe { a.get((gr * k + gk + e) as usize) } } else { 0 };
                        // SAFETY: lead + dst + e lies in the region; the global index is guarded above.
                        unsafe { smem.set((lead + dst + e) as usize, v) };
                    }
                }
            }
            for i in 0..(BK * BN / 8) / NT {
                let q = tid + i * NT;
                let (kr, cc) = (q / 16, q % 16);
                let (gk, gc) = (k0 + kr, col0 + cc * 8);
                let dst = sb + b_chunk(kr, cc) / ELEM;
                if aligned {
                    let valid = gk < k && gc < n;
                    // SAFETY: as for A (n % 8 == 0).
                    unsafe { async_copy::copy16_zfill_at(tiles.offset(dst), b, if valid { (gk * n + gc) as usize } else { 0 }, valid) };
                } else {
                    for e in 0..8 {
                        let v = if gk < k && gc + e < n { unsafe { b.get((gk * n + gc + e) as usize) } } else { 0 };
                        // SAFETY: as for A.
                        unsafe { smem.set((lead + dst + e) as usize, v) };
                    }
                }
            }
            async_copy::commit();
        }};
    }

    let (wg, wtid) = (tid / 128, tid % 128);
    let mut acc = [0.0f32; 64];
    for s in 0..S - 1 {
        if s < steps {
            load!(s, s);
        } else {
            async_copy::commit();
        }
    }
    for kt in 0..steps {
        async_copy::wait_pending(S - 2);
        wgmma::fence_proxy_async();
        // SAFETY: reached by every thread of the block (block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        let next = kt + S - 1;
        if next < steps {
            load!(next % S, next);
        } else {
            async_copy::commit();
        }
        let stage = tiles.offset((kt % S) * STAGE).addr();
        let a_desc = wgmma::descriptor_sw128(stage + wg * 64 * 128, 16, wgmma::SW128_ATOM_BYTES);
        let b_desc = wgmma::descriptor_sw128(stage + BM * BK * ELEM, B_BLOCK_BYTES, wgmma::SW128_ATOM_BYTES);
        // SAFETY: warpgroup-uniform (every thread runs every step); the stage's tiles were written and
        // fenced before the barrier; the descriptors name 1024-byte-aligned tiles of the region.
        unsafe {
            wgmma::fence();
            for ks in 0..BK / 16 {
                // k16 slice `ks`: 32 bytes along A's rows, 16 K-rows (2048 bytes) down B.
                O::mma(&mut acc, a_desc + ((ks * 32) >> 4) as u64, b_desc + ((ks * 2048) >> 4) as u64, true);
            }
            wgmma::commit_group();
            wgmma::wait_group(0);
        }
    }

    for (i, &v) in acc.iter().enumerate() {
        let (r, col) = wgmma::acc_position(wtid, i as u32);
        let (r, col) = (row0 + wg * 64 + r, col0 + col);
        if r < m && col < n {
            // SAFETY: r < m and col < n.
            unsafe { c.set((r * n + col) as usize, v) }
        }
    }
}

kernel! {
    /// Kernel 14 on BF16 inputs, `f32` output (sm_90a): 128×128×64 tiles, 2 warpgroups of
    /// `wgmma.m64n128k16`, 4 `cp.async` stages.
    ///
    /// # Safety
    /// As [`wgmma_gemm`].
    pub unsafe fn matmul_wgmma_bf16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { wgmma_gemm::<Bf16>(a, b, c, m, n, k) }
    }
}

kernel! {
    /// Kernel 14 on FP16 inputs, `f32` output (sm_90a): as [`matmul_wgmma_bf16`].
    ///
    /// # Safety
    /// As [`wgmma_gemm`].
    pub unsafe fn matmul_wgmma_f16(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
        // SAFETY: forwarded contract.
        unsafe { wgmma_gemm::<F16>(a, b, c, m, n, k) }
    }
}
