//! Kernel 14: Hopper's warpgroup MMA (`wgmma.mma_async`, sm_90a) fed by a `cp.async` pipeline.
//!
//! **What it fixes in kernel 13**: `mma.sync` makes every warp load its fragments from shared memory
//! into registers (`ldmatrix`) and issue one 16×8 `mma` per instruction; at its best it runs at about
//! 62 % of the `mma.sync` ceiling, and that ceiling is about 80 % of cuBLAS on this GPU. Here a
//! warpgroup (4 warps) issues one `m64nNk16` (`k8` for TF32) per instruction and the tensor core reads
//! both operands straight from shared memory through descriptors: no fragment loads, no register
//! copies of A and B, 16–32× the work per instruction of `m16n8k16`.
//!
//! **Tiling**: a `128 × N` block tile (N = 128 or 256, the instruction's N), `BK` = 128 bytes of K
//! (64 BF16/FP16 or 32 TF32 elements: one swizzle row); 2 warpgroups (256 threads), warpgroup `w`
//! computes rows `64w .. 64w + 64` with four `wgmma`s per K-step (`N / 2` `f32` accumulators per
//! thread).
//!
//! **Shared memory**: `S` stages of A `[128][BK]` (K-major) and B, both in the 128-byte swizzle
//! layout of [`wgmma`] (atoms of 8 rows × 128 bytes, aligned to 1024 bytes: the kernel aligns its
//! region's start up, the launch gives 1 KiB of slack). B is `[BK][N]` N-major in 64-column blocks
//! for BF16/FP16 (our row-major `B`, the `wgmma` transpose flag), `[N][BK]` K-major for TF32 (which
//! `wgmma` takes K-major only: the host passes `Bᵀ`, see [`crate::tf32_operands`]). `cp.async` writes
//! chunk `c` of row `r` at chunk `c ^ (r % 8)`, which is the hardware's address swizzle.
//!
//! **Pipeline and barriers**: `S - 1 - DEPTH` tiles in flight; per K-step: wait for tile `kt`,
//! `fence.proxy.async` (the tensor core reads through the async proxy), one block barrier, issue the
//! next tile into the stage whose `wgmma`s have completed, then `wgmma.fence`, four `wgmma`s, commit,
//! and wait until at most `DEPTH` groups are pending (`DEPTH = 1`: the tensor core works on step `kt`
//! while the threads wait, fence and issue for step `kt + 1`).
//!
//! **Edges**: any M, N, K: `cp.async` zero-fill when rows are 16-byte aligned, guarded element stores
//! otherwise; only in-range outputs are stored.
//!
//! Measurements: `docs/ladder/k14-wgmma.md`.
use super::mma_tile::shared_bytes;
use crate::device::async_copy::{self, SharedPtr};
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::{mma, thread, wgmma};
use crate::launch::TileConfig;

/// One `wgmma` shape and operand type of kernel 14.
pub trait WgmmaTile {
    /// The element type in memory: raw `u16` bits (BF16, FP16), `f32` (TF32) or FP8 bytes (`u8`).
    type Elem: Copy + Default;
    /// N of the instruction, which is also the block tile's width.
    const N: u32;
    /// K of one instruction (16; 8 for TF32, 32 for FP8).
    const K: u32;
    /// Whether B is read K-major (`Bᵀ`, `N × K`: TF32, FP8) rather than N-major (our row-major `B`).
    const B_K_MAJOR: bool;
    /// This thread's accumulators (`N / 2` floats).
    type Acc: Copy + AsRef<[f32]> + AsMut<[f32]>;
    /// All-zero accumulators.
    const ZERO: Self::Acc;
    /// How A reaches the tensor core: a shared-memory descriptor (`u64`), or this thread's fragment
    /// registers (`[u32; 4]`, the tiles that round TF32 on the way).
    type AFeed: Copy;
    /// Whether [`WgmmaTile::AFeed`] is registers, which the tensor core reads asynchronously.
    const A_IN_REGISTERS: bool;

    /// A's operand of instruction `ks` (K elements `ks·K ..`) of one K-step, whose 64-row A slice for
    /// this warpgroup is `a`.
    ///
    /// # Safety
    /// `a` describes a 1024-aligned, 128-byte-swizzled slice of 64 rows × 128 bytes in this block's
    /// shared memory whose bytes have landed; `ks < 128 / (K · size_of::<Elem>())`; warpgroup-uniform
    /// (the register form is a warp-collective `ldmatrix`).
    unsafe fn a_feed(a: ASlice, ks: u32) -> Self::AFeed;

    /// `acc += A·B` on one 64×N×K tile (see [`wgmma::mma_m64n128k16_bf16`]).
    ///
    /// # Safety
    /// As [`wgmma::mma_m64n128k16_bf16`]; for register-fed tiles also as
    /// [`wgmma::mma_m64n256k8_tf32_regs`]: A's registers are not written before a `wait_group`
    /// covers the instruction.
    unsafe fn mma(acc: &mut Self::Acc, a: Self::AFeed, b: u64);
}

/// A warpgroup's 64-row slice of A in one stage, in the two ways the tiles read it.
#[derive(Clone, Copy)]
pub struct ASlice {
    /// The slice's descriptor: its unswizzled shared address, 128-byte-swizzled rows, 8-row groups
    /// 1024 bytes apart (what the tensor core reads from shared memory).
    pub desc: u64,
    /// The same bytes through a generic pointer (what `ldmatrix` reads): elements `at ..` of `halves`.
    pub halves: View<u16>,
    /// The slice's first element in `halves`.
    pub at: usize,
}

impl ASlice {
    /// The slice at unswizzled shared address `addr` (1024-aligned), element `at` of `halves`.
    #[inline(always)]
    pub fn new(addr: u32, halves: View<u16>, at: usize) -> Self {
        Self { desc: wgmma::descriptor_sw128(addr, 16, wgmma::SW128_ATOM_BYTES), halves, at }
    }
}

/// A's descriptor for instruction `ks` of a K-step whose slice is `a` (`step` bytes of K per
/// instruction).
#[inline(always)]
fn a_descriptor(a: ASlice, ks: u32, step: u32) -> u64 {
    a.desc + ((ks * step) >> 4) as u64
}

/// This thread's TF32 A fragment of instruction `ks` (K `8ks .. 8ks + 8`) from the swizzled slice
/// `a`, rounded to nearest TF32: one `ldmatrix.x4` (lane `l` names row `16w + l % 8 + 8·((l / 8) % 2)`,
/// 16-byte chunk `2ks + l / 16` of it, at chunk `c ^ (row % 8)`: the swizzle), then
/// `cvt.rna.tf32.f32` on each word ([`wgmma::a_fragment_position`]'s layout).
///
/// # Safety
/// As [`WgmmaTile::a_feed`].
#[inline(always)]
unsafe fn a_fragment_tf32(a: ASlice, ks: u32) -> [u32; 4] {
    let tid = thread::thread_idx_x() % 128;
    let (warp, lane) = (tid / 32, tid % 32);
    let row = 16 * warp + lane % 8 + 8 * ((lane / 8) % 2);
    let chunk = (2 * ks + lane / 16) ^ (row % 8);
    // SAFETY: row < 64 and chunk < 8: inside the slice (64 × 128 bytes), 16-byte aligned; the
    // caller's contract for the rest.
    let words = unsafe { mma::ldmatrix_x4(a.halves, a.at + ((row * 128 + chunk * 16) / 2) as usize) };
    words.map(|w| mma::to_tf32(f32::from_bits(w)))
}

macro_rules! wgmma_tile {
    ($name:ident, $elem:ty, $n:literal, $k:literal, $b_k_major:literal, $mma:path, $doc:literal) => {
        #[doc = $doc]
        pub struct $name;

        impl WgmmaTile for $name {
            type Elem = $elem;
            const N: u32 = $n;
            const K: u32 = $k;
            const B_K_MAJOR: bool = $b_k_major;
            type Acc = [f32; $n / 2];
            const ZERO: Self::Acc = [0.0; $n / 2];
            type AFeed = u64;
            const A_IN_REGISTERS: bool = false;

            #[inline(always)]
            unsafe fn a_feed(a: ASlice, ks: u32) -> u64 {
                a_descriptor(a, ks, $k * core::mem::size_of::<$elem>() as u32)
            }

            #[inline(always)]
            unsafe fn mma(acc: &mut Self::Acc, a: u64, b: u64) {
                // SAFETY: forwarded contract.
                unsafe { $mma(acc, a, b, true) }
            }
        }
    };
    ($name:ident, registers, $n:literal, $mma:path, $doc:literal) => {
        #[doc = $doc]
        pub struct $name;

        impl WgmmaTile for $name {
            type Elem = f32;
            const N: u32 = $n;
            const K: u32 = 8;
            const B_K_MAJOR: bool = true;
            type Acc = [f32; $n / 2];
            const ZERO: Self::Acc = [0.0; $n / 2];
            type AFeed = [u32; 4];
            const A_IN_REGISTERS: bool = true;

            #[inline(always)]
            unsafe fn a_feed(a: ASlice, ks: u32) -> [u32; 4] {
                // SAFETY: forwarded contract.
                unsafe { a_fragment_tf32(a, ks) }
            }

            #[inline(always)]
            unsafe fn mma(acc: &mut Self::Acc, a: [u32; 4], b: u64) {
                // SAFETY: forwarded contract.
                unsafe { $mma(acc, a, b, true) }
            }
        }
    };
}

wgmma_tile!(Bf16N128, u16, 128, 16, false, wgmma::mma_m64n128k16_bf16, "BF16, `m64n128k16`, B N-major.");
wgmma_tile!(F16N128, u16, 128, 16, false, wgmma::mma_m64n128k16_f16, "FP16, `m64n128k16`, B N-major.");
wgmma_tile!(Bf16N192, u16, 192, 16, false, wgmma::mma_m64n192k16_bf16, "BF16, `m64n192k16`, B N-major.");
wgmma_tile!(F16N192, u16, 192, 16, false, wgmma::mma_m64n192k16_f16, "FP16, `m64n192k16`, B N-major.");
wgmma_tile!(
    Bf16N160,
    u16,
    160,
    16,
    false,
    wgmma::mma_m64n160k16_bf16,
    "BF16, `m64n160k16`, B N-major (the third 64-column block half read)."
);
wgmma_tile!(
    F16N160,
    u16,
    160,
    16,
    false,
    wgmma::mma_m64n160k16_f16,
    "FP16, `m64n160k16`, B N-major (the third 64-column block half read)."
);
wgmma_tile!(
    Bf16N224,
    u16,
    224,
    16,
    false,
    wgmma::mma_m64n224k16_bf16,
    "BF16, `m64n224k16`, B N-major (the fourth 64-column block half read)."
);
wgmma_tile!(
    F16N224,
    u16,
    224,
    16,
    false,
    wgmma::mma_m64n224k16_f16,
    "FP16, `m64n224k16`, B N-major (the fourth 64-column block half read)."
);
wgmma_tile!(Bf16N256, u16, 256, 16, false, wgmma::mma_m64n256k16_bf16, "BF16, `m64n256k16`, B N-major.");
wgmma_tile!(F16N256, u16, 256, 16, false, wgmma::mma_m64n256k16_f16, "FP16, `m64n256k16`, B N-major.");
wgmma_tile!(E4m3N128, u8, 128, 32, true, wgmma::mma_m64n128k32_e4m3, "FP8 E4M3, `m64n128k32`, B K-major (`Bᵀ`): kernel 25.");
wgmma_tile!(E5m2N128, u8, 128, 32, true, wgmma::mma_m64n128k32_e5m2, "FP8 E5M2, `m64n128k32`, B K-major (`Bᵀ`): kernel 25.");
wgmma_tile!(E4m3N256, u8, 256, 32, true, wgmma::mma_m64n256k32_e4m3, "FP8 E4M3, `m64n256k32`, B K-major (`Bᵀ`): kernel 25.");
wgmma_tile!(E5m2N256, u8, 256, 32, true, wgmma::mma_m64n256k32_e5m2, "FP8 E5M2, `m64n256k32`, B K-major (`Bᵀ`): kernel 25.");
wgmma_tile!(Tf32N128, f32, 128, 8, true, wgmma::mma_m64n128k8_tf32, "TF32, `m64n128k8`, B K-major (`Bᵀ`).");
wgmma_tile!(Tf32N256, f32, 256, 8, true, wgmma::mma_m64n256k8_tf32, "TF32, `m64n256k8`, B K-major (`Bᵀ`).");
wgmma_tile!(
    Tf32RegsN128,
    registers,
    128,
    wgmma::mma_m64n128k8_tf32_regs,
    "TF32, `m64n128k8`, A rounded to nearest on its way into registers (the caller's `f32`), B K-major (`Bᵀ`)."
);
wgmma_tile!(
    Tf32RegsN256,
    registers,
    256,
    wgmma::mma_m64n256k8_tf32_regs,
    "TF32, `m64n256k8`, A rounded to nearest on its way into registers (the caller's `f32`), B K-major (`Bᵀ`)."
);

const BM: u32 = 128;
/// Bytes of K per tile row: one 128-byte swizzle row.
const ROW_BYTES: u32 = 128;
/// Threads: two warpgroups.
const NT: u32 = 256;

/// The launch of a kernel-14 entry with `bn`-wide tiles, `stages` stages and `elem`-byte elements:
/// 256 threads, the stages plus one atom of alignment slack, sm_90a; 4-byte (TF32) entries take
/// prepared operands.
pub const fn config(bn: u32, stages: u32, elem: u32) -> TileConfig {
    let bk = ROW_BYTES / elem;
    let cfg = TileConfig::new(BM, bn, bk, NT, shared_bytes(BM, bn, bk, stages, elem, 0) + wgmma::SW128_ATOM_BYTES).sm90a();
    if elem == 4 {
        cfg.tf32_operands()
    } else {
        cfg
    }
}

/// Byte offset, within a K-major tile, of 16-byte chunk `c` (0..8) of row `r`: swizzled.
#[inline(always)]
pub(crate) const fn k_major_chunk(r: u32, c: u32) -> u32 {
    r * ROW_BYTES + ((c ^ (r % 8)) * 16)
}

/// Byte offset, within an N-major B tile of `bk` K-rows, of 16-byte chunk `cc` of K-row `kr`:
/// 64-column block `cc / 8` (`bk · 128` bytes each, the descriptor's LBO), swizzled within it.
#[inline(always)]
pub(crate) const fn n_major_chunk(kr: u32, cc: u32, bk: u32) -> u32 {
    (cc / 8) * bk * ROW_BYTES + kr * ROW_BYTES + (((cc % 8) ^ (kr % 8)) * 16)
}

/// `C = A·B` with `wgmma` tile `O` (block tile `128 × O::N`), `S` stages, and `DEPTH` (0 or 1)
/// `wgmma` groups left in flight across K-steps (see the module documentation).
///
/// # Safety
/// `a` holds `m·k` elements, `b` `k·n` (`Bᵀ`, `n × k`, when `O::B_K_MAJOR`), `c` `m·n` floats (products
/// fit in `u32`); the launch has [`config`]`(O::N, S, size_of::<O::Elem>())`'s 256 threads and shared
/// bytes and a `⌈n/N⌉ × ⌈m/128⌉` grid; sm_90a.
#[inline(always)]
pub unsafe fn wgmma_gemm<O: WgmmaTile<AFeed = u64>, const S: u32, const DEPTH: u32>(
    a: *const O::Elem,
    b: *const O::Elem,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    const { assert!(DEPTH <= 1 && S >= DEPTH + 2) };
    let elem = core::mem::size_of::<O::Elem>() as u32;
    let (bn, bk, per_chunk) = (O::N, ROW_BYTES / elem, 16 / elem);
    let stage_len = BM * bk + bk * bn;
    // Tiles issued ahead of the one computed.
    let ahead = S - 1 - DEPTH;
    // SAFETY: the caller passes buffers of these sizes.
    let (a, b, c) = unsafe { super::matrices(a, b, c, m, n, k) };
    let region = (S * stage_len + wgmma::SW128_ATOM_BYTES / elem) as usize;
    // SAFETY: the launch provides `region` elements of shared memory (`config`).
    let smem = unsafe { SharedTiles::<O::Elem>::new().tile(region) };
    // SAFETY: `smem` is this block's shared memory.
    let base = unsafe { SharedPtr::new(smem, 0) };
    // Tiles start at the first 1024-byte boundary of the region (elements `lead ..` of `smem`).
    let lead = ((wgmma::SW128_ATOM_BYTES - base.addr() % wgmma::SW128_ATOM_BYTES) % wgmma::SW128_ATOM_BYTES) / elem;
    let tiles = base.offset(lead);
    let tid = thread::thread_idx_x();
    let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * bn);
    // Rows of A (K long) and of B (N long, or K long for Bᵀ) 16-byte aligned: whole-chunk copies.
    let aligned = k.is_multiple_of(per_chunk) && (O::B_K_MAJOR || n.is_multiple_of(per_chunk));
    let steps = k.div_ceil(bk);

    // Copies the 16-byte chunk at global element `src` of `view` (valid or zero) into the tile element
    // `dst`: `cp.async` when rows are aligned, else element by element, each guarded by `in_range(e)`.
    macro_rules! chunk {
        ($view:expr, $src:expr, $dst:expr, $valid:expr, $in_range:expr) => {
            if aligned {
                // SAFETY: dst is a 16-byte chunk of the stage; the source chunk is in range when valid
                // (aligned rows: a chunk is wholly inside or outside), index 0 otherwise (nothing read).
                unsafe { async_copy::copy16_zfill_at(tiles.offset($dst), $view, if $valid { $src as usize } else { 0 }, $valid) };
            } else {
                for e in 0..per_chunk {
                    // SAFETY: read only when in range.
                    let v = if $in_range(e) { unsafe { $view.get(($src + e) as usize) } } else { O::Elem::default() };
                    // SAFETY: lead + dst + e lies in the region.
                    unsafe { smem.set((lead + $dst + e) as usize, v) };
                }
            }
        };
    }
    // Loads K-tile `$kt` into stage `$s` and commits one copy group. A macro, not a closure: a
    // closure call put its captured views in local memory (a 184-byte stack frame).
    macro_rules! load {
        ($s:expr, $kt:expr) => {{
            let (sa, k0) = ($s * stage_len, $kt * bk);
            let sb = sa + BM * bk;
            for i in 0..(BM * 8) / NT {
                let q = tid + i * NT;
                let (r, ch) = (q / 8, q % 8);
                let (gr, gk) = (row0 + r, k0 + ch * per_chunk);
                chunk!(a, gr * k + gk, sa + k_major_chunk(r, ch) / elem, gr < m && gk < k, |e| gr < m && gk + e < k);
            }
            if O::B_K_MAJOR {
                // Bᵀ: N rows of K, like A.
                for i in 0..(bn * 8) / NT {
                    let q = tid + i * NT;
                    let (r, ch) = (q / 8, q % 8);
                    let (gn, gk) = (col0 + r, k0 + ch * per_chunk);
                    chunk!(b, gn * k + gk, sb + k_major_chunk(r, ch) / elem, gn < n && gk < k, |e| gn < n && gk + e < k);
                }
            } else {
                let chunks = bn / per_chunk;
                for i in 0..(bk * chunks) / NT {
                    let q = tid + i * NT;
                    let (kr, cc) = (q / chunks, q % chunks);
                    let (gk, gc) = (k0 + kr, col0 + cc * per_chunk);
                    chunk!(b, gk * n + gc, sb + n_major_chunk(kr, cc, bk) / elem, gk < k && gc < n, |e| gk < k && gc + e < n);
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
    // Per instruction: K elements along a K-major row; K rows down an N-major B.
    let (a_step, b_step) = (O::K * elem, if O::B_K_MAJOR { O::K * elem } else { O::K * ROW_BYTES });
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
        let a_desc = wgmma::descriptor_sw128(stage + wg * 64 * ROW_BYTES, 16, wgmma::SW128_ATOM_BYTES);
        let b_lbo = if O::B_K_MAJOR { 16 } else { bk * ROW_BYTES };
        let b_desc = wgmma::descriptor_sw128(stage + BM * ROW_BYTES, b_lbo, wgmma::SW128_ATOM_BYTES);
        // SAFETY: warpgroup-uniform (every thread runs every step); the stage's tiles were written and
        // fenced before the barrier; the descriptors name 1024-byte-aligned tiles of the region.
        unsafe {
            wgmma::fence();
            for ks in 0..bk / O::K {
                O::mma(&mut acc, a_desc + ((ks * a_step) >> 4) as u64, b_desc + ((ks * b_step) >> 4) as u64);
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
    ($name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, depth $d:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = config(<$tile as WgmmaTile>::N, $s, core::mem::size_of::<$elem>() as u32);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`wgmma_gemm`], with the launch its `TileConfig` constant states.
            pub unsafe fn $name(a: *const $elem, b: *const $elem, c: *mut f32, m: u32, n: u32, k: u32) {
                // SAFETY: forwarded contract.
                unsafe { wgmma_gemm::<$tile, $s, $d>(a, b, c, m, n, k) }
            }
        }
    };
}

wgmma_entry!(matmul_wgmma_bf16_128x256, WGMMA_BF16_128X256, Bf16N256, u16, stages 4, depth 1,
    "Kernel 14 on BF16 inputs, `f32` output (sm_90a): 128×256×64 tiles, 2 warpgroups of `m64n256k16`, \
     4 stages (193 KiB), one `wgmma` group in flight.");
wgmma_entry!(matmul_wgmma_f16_128x256, WGMMA_F16_128X256, F16N256, u16, stages 4, depth 1,
    "Kernel 14 on FP16 inputs, `f32` output (sm_90a): as [`matmul_wgmma_bf16_128x256`].");
wgmma_entry!(matmul_wgmma_bf16_128x128, WGMMA_BF16_128X128, Bf16N128, u16, stages 3, depth 1,
    "Kernel 14 on BF16 inputs, `f32` output (sm_90a): 128×128×64 tiles, `m64n128k16`, 3 stages \
     (97 KiB: 2 blocks per SM), one `wgmma` group in flight: for outputs too small for 128×256 tiles.");
wgmma_entry!(matmul_wgmma_f16_128x128, WGMMA_F16_128X128, F16N128, u16, stages 3, depth 1,
    "Kernel 14 on FP16 inputs, `f32` output (sm_90a): as [`matmul_wgmma_bf16_128x128`].");
wgmma_entry!(matmul_wgmma_tf32_128x256, WGMMA_TF32_128X256, Tf32N256, f32, stages 4, depth 1,
    "Kernel 14 in TF32 on `f32` inputs prepared by the host ([`crate::tf32_operands`]: `a` rounded to \
     TF32, `b` = `Bᵀ` rounded, `n × k`), `f32` output (sm_90a): 128×256×32 tiles, `m64n256k8`, 4 stages.");
