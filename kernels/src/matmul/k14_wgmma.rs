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

/// One `wgmma` shape and operand type of kernel 14: `m64nNk16` on 16-bit inputs stored as raw bits.
pub trait WgmmaTile {
    /// N of the instruction, which is also the block tile's width.
    const N: u32;
    /// This thread's accumulators (`N / 2` floats).
    type Acc: Copy + AsRef<[f32]>;
    /// All-zero accumulators.
    const ZERO: Self::Acc;

    /// `acc += A·B` on one 64×N×16 tile (see [`wgmma::mma_m64n128k16_bf16`]).
    ///
    /// # Safety
    /// As [`wgmma::mma_m64n128k16_bf16`].
    unsafe fn mma(acc: &mut Self::Acc, a: u64, b: u64);
}

macro_rules! wgmma_tile {
    ($name:ident, $n:literal, $mma:path, $doc:literal) => {
        #[doc = $doc]
        pub struct $name;

        impl WgmmaTile for $name {
            const N: u32 = $n;
            type Acc = [f32; $n / 2];
            const ZERO: Self::Acc = [0.0; $n / 2];

            #[inline(always)]
            unsafe fn mma(acc: &mut Self::Acc, a: u64, b: u64) {
                // SAFETY: forwarded contract.
                unsafe { $mma(acc, a, b, true) }
            }
        }
    };
}

wgmma_tile!(Bf16N128, 128, wgmma::mma_m64n128k16_bf16, "BF16, `m64n128k16`.");
wgmma_tile!(F16N128, 128, wgmma::mma_m64n128k16_f16, "FP16, `m64n128k16`.");
wgmma_tile!(Bf16N256, 256, wgmma::mma_m64n256k16_bf16, "BF16, `m64n256k16`.");
wgmma_tile!(F16N256, 256, wgmma::mma_m64n256k16_f16, "FP16, `m64n256k16`.");

const BM: u32 = 128;
const BK: u32 = 64;
/// Threads: two warpgroups.
const NT: u32 = 256;
/// Bytes of one 16-bit element.
const ELEM: u32 = 2;
/// Bytes of one 64-column block of B (`BK` rows of 128 bytes): the N-major descriptor's LBO.
const B_BLOCK_BYTES: u32 = BK * 128;

/// The launch of a kernel-14 entry with `bn`-wide tiles and `stages` stages: 256 threads, the stages
/// plus one atom of alignment slack, sm_90a.
pub const fn config(bn: u32, stages: u32) -> TileConfig {
    TileConfig::new(BM, bn, BK, NT, shared_bytes(BM, bn, BK, stages, ELEM, 0) + wgmma::SW128_ATOM_BYTES).sm90a()
}

/// Byte offset, within a stage's A tile, of 16-byte chunk `c` (0..8) of row `r`: swizzled.
#[inline(always)]
const fn a_chunk(r: u32, c: u32) -> u32 {
    r * 128 + ((c ^ (r % 8)) * 16)
}

/// Byte offset, within a stage's B tile, of 16-byte chunk `cc` of K-row `kr`: 64-column block
/// `cc / 8`, swizzled within it.
#[inline(always)]
const fn b_chunk(kr: u32, cc: u32) -> u32 {
    (cc / 8) * B_BLOCK_BYTES + kr * 128 + (((cc % 8) ^ (kr % 8)) * 16)
}

/// `C = A·B` with `wgmma` tile `O` (block tile `128 × O::N`), `S` stages, and `DEPTH` (0 or 1)
/// `wgmma` groups left in flight across K-steps (see the module documentation).
///
/// # Safety
/// `a` holds `m·k`, `b` `k·n` 16-bit elements, `c` `m·n` floats (products fit in `u32`); the launch has
/// [`config`]`(O::N, S)`'s 256 threads and shared bytes and a `⌈n/N⌉ × ⌈m/128⌉` grid; sm_90a.
#[inline(always)]
pub unsafe fn wgmma_gemm<O: WgmmaTile, const S: u32, const DEPTH: u32>(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
    const { assert!(DEPTH <= 1 && S >= DEPTH + 2) };
    let bn = O::N;
    let stage_len = BM * BK + BK * bn;
    // Tiles issued ahead of the one computed.
    let ahead = S - 1 - DEPTH;
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) =
        unsafe { (View::from_const(a, (m * k) as usize), View::from_const(b, (k * n) as usize), View::new(c, (m * n) as usize)) };
    let region = (S * stage_len + wgmma::SW128_ATOM_BYTES / ELEM) as usize;
    // SAFETY: the launch provides `region` elements of shared memory (CONFIG).
    let smem = unsafe { SharedTiles::<u16>::new().tile(region) };
    // SAFETY: `smem` is this block's shared memory.
    let base = unsafe { SharedPtr::new(smem, 0) };
    // Tiles start at the first 1024-byte boundary of the region (elements `lead ..` of `smem`).
    let lead = ((wgmma::SW128_ATOM_BYTES - base.addr() % wgmma::SW128_ATOM_BYTES) % wgmma::SW128_ATOM_BYTES) / ELEM;
    let tiles = base.offset(lead);
    let tid = thread::thread_idx_x();
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * bn);
    let aligned = k.is_multiple_of(8) && n.is_multiple_of(8);
    let steps = k.div_ceil(BK);

    // Loads K-tile `$kt` into stage `$s` and commits one copy group. A macro, not a closure: a
    // closure call put its captured views in local memory (a 184-byte stack frame).
    macro_rules! load {
        ($s:expr, $kt:expr) => {{
            let (sa, k0) = ($s * stage_len, $kt * BK);
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
            for i in 0..(BK * bn / 8) / NT {
                let q = tid + i * NT;
                let (kr, cc) = (q / (bn / 8), q % (bn / 8));
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
    let mut acc = O::ZERO;
    for s in 0..ahead {
        if s < steps {
            load!(s, s);
        } else {
            async_copy::commit();
        }
    }
    for kt in 0..steps {
        // Tile kt has landed once at most `ahead - 1` younger copy groups are pending.
        async_copy::wait_pending(ahead - 1);
        wgmma::fence_proxy_async();
        // SAFETY: reached by every thread of the block (block-uniform loop bounds).
        unsafe { thread::sync_threads() };
        // The stage of tile kt + ahead was last read by step kt + ahead - S = kt - 1 - DEPTH, whose
        // wgmmas every warpgroup has waited for (wait_group(DEPTH) at the end of step kt - 1, then
        // the barrier above).
        let next = kt + ahead;
        if next < steps {
            load!(next % S, next);
        } else {
            async_copy::commit();
        }
        let stage = tiles.offset((kt % S) * stage_len).addr();
        let a_desc = wgmma::descriptor_sw128(stage + wg * 64 * 128, 16, wgmma::SW128_ATOM_BYTES);
        let b_desc = wgmma::descriptor_sw128(stage + BM * BK * ELEM, B_BLOCK_BYTES, wgmma::SW128_ATOM_BYTES);
        // SAFETY: warpgroup-uniform (every thread runs every step); the stage's tiles were written and
        // fenced before the barrier; the descriptors name 1024-byte-aligned tiles of the region.
        unsafe {
            wgmma::fence();
            for ks in 0..BK / 16 {
                // k16 slice `ks`: 32 bytes along A's rows, 16 K-rows (2048 bytes) down B.
                O::mma(&mut acc, a_desc + ((ks * 32) >> 4) as u64, b_desc + ((ks * 2048) >> 4) as u64);
            }
            wgmma::commit_group();
            wgmma::wait_group(DEPTH);
        }
    }
    // SAFETY: warpgroup-uniform; every group must land before the accumulators are read.
    unsafe { wgmma::wait_group(0) };

    for (i, &v) in acc.as_ref().iter().enumerate() {
        let (r, col) = wgmma::acc_position(wtid, i as u32);
        let (r, col) = (row0 + wg * 64 + r, col0 + col);
        if r < m && col < n {
            // SAFETY: r < m and col < n.
            unsafe { c.set((r * n + col) as usize, v) }
        }
    }
}

/// Declares a kernel-14 entry and its launch constant.
macro_rules! wgmma_entry {
    ($name:ident, $config:ident, $tile:ident, stages $s:literal, depth $d:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = config(<$tile as WgmmaTile>::N, $s);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`wgmma_gemm`], with the launch its `TileConfig` constant states.
            pub unsafe fn $name(a: *const u16, b: *const u16, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { wgmma_gemm::<$tile, $s, $d>(a, b, c, m, n, k) }
            }
        }
    };
}

wgmma_entry!(matmul_wgmma_bf16_128x256, WGMMA_BF16_128X256, Bf16N256, stages 4, depth 1,
    "Kernel 14 on BF16 inputs, `f32` output (sm_90a): 128×256×64 tiles, 2 warpgroups of `m64n256k16`, \
     4 stages (193 KiB), one `wgmma` group in flight.");
wgmma_entry!(matmul_wgmma_f16_128x256, WGMMA_F16_128X256, F16N256, stages 4, depth 1,
    "Kernel 14 on FP16 inputs, `f32` output (sm_90a): as [`matmul_wgmma_bf16_128x256`].");
wgmma_entry!(matmul_wgmma_bf16_128x128, WGMMA_BF16_128X128, Bf16N128, stages 3, depth 1,
    "Kernel 14 on BF16 inputs, `f32` output (sm_90a): 128×128×64 tiles, `m64n128k16`, 3 stages \
     (97 KiB: 2 blocks per SM), one `wgmma` group in flight: for outputs too small for 128×256 tiles.");
wgmma_entry!(matmul_wgmma_f16_128x128, WGMMA_F16_128X128, F16N128, stages 3, depth 1,
    "Kernel 14 on FP16 inputs, `f32` output (sm_90a): as [`matmul_wgmma_bf16_128x128`].");
