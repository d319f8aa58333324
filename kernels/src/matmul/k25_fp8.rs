//! Kernel 25: FP8 (E4M3, E5M2) on kernel 16's persistent TMA pipeline, its sums promoted into `f32`
//! every K-step, scaled per tensor or per block (sm_90a).
//!
//! **What is new beside kernel 16**: the operands are one byte each, so a 128-byte swizzle row holds
//! 128 elements of K and each K-step is four `m64nNk32` instructions. FP8 `wgmma` reads both operands
//! K-major: `A` as the caller holds it (`M × K`, row-major), `B` as `Bᵀ` (`N × K`), which the host
//! transposes first (`crate::pack::pack_b8`) unless the caller gives it so.
//!
//! **Promotion**: Hopper's tensor core adds FP8 products in an accumulator narrower than `f32`
//! (DeepSeek-V3's report measured about 14 bits kept), and the loss grows with K when a whole product
//! accumulates there. The promoted entries give each K-step (128 elements of K) fresh accumulators,
//! wait for its group, and add the partial sums into `f32` registers — DeepGEMM's recipe; the tensor
//! core's rounding then touches only 128-long sums. That costs the overlap of one step's `wgmma`s with
//! the next (the block's other consumer warpgroup fills the tensor core meanwhile) and 64 more
//! registers per thread, so the promoted tiles are 128×128 and 64×128 (a 128×256 one would need 192
//! accumulator registers; ptxas allocates 168 to each of 384 threads). The `*_fast` entries
//! accumulate the whole K range in the tensor core (kernel 16's loop, one group in flight, 128×256
//! tiles): the caller's explicit choice, never `Auto`'s.
//!
//! **Scales** (per tensor, as torch's `_scaled_mm`): `C = scale_a · scale_b · A·B`, the two scales
//! read from device memory (null: 1), applied to the `f32` sums once before the store. **Block
//! scales** (the `*_blocks` entries, DeepSeek-V3's recipe): one scale per row of A and 128 elements
//! of K (`scale_a`, `m × ⌈k/128⌉`), one per 128 × 128 block of `Bᵀ` (`scale_b`, `⌈n/128⌉ × ⌈k/128⌉`),
//! both row-major. A K-step is one block of K and a 128-wide tile one block of N, so each step's
//! promotion weighs its partial sums by `scale_a[row][step] · scale_b[tile][step]`: the two rows a
//! thread's accumulators cover, loaded before the step's group is awaited.
//!
//! **Output**: `f32`, or BF16 from the promoted entries (`out_bf16`: the `f32` sums, scaled, rounded
//! once to nearest as they are stored, `k15_tma::store_half`; then one slice per tile, never added
//! into).
//!
//! **Epilogue** (`bias`, `epilogue`: `crate::activation`): `act(scale · sum + bias)` on each element
//! before its store, bias per column or per row, activation ReLU, GELU (tanh or erf) or SiLU.
//!
//! **Edges**: as kernel 15's, with K a multiple of 16 (rows of whole 16-byte units, the TMA's rule;
//! the host refuses other K).
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{self, Pipeline, TmaArgs, ROW_BYTES};
use super::k16_persistent::{Feed, TmaFeed, Walk, WorkUnits};
use super::k24_cluster::{ClusterUnits, CLUSTER};
use super::k27_fused;
use crate::activation::Fused;
use crate::device::mem::View;
use crate::device::tma::TensorMap;
use crate::device::{thread, wgmma};
use crate::launch::TileConfig;

/// The launch of a kernel-25 entry: kernel 16's with one-byte elements, taking FP8 operands, its
/// sums finished in its store (the fused epilogue, a BF16 `C`).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    super::k16_persistent::config(bm, bn, stages, elem).fp8_operands().fused_epilogue()
}

/// The launch of a `*_fast` entry: kernel 16's on FP8 operands, accumulating in the tensor core's
/// FP8 path, storing `f32` only.
pub const fn fast_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    super::k16_persistent::config(bm, bn, stages, elem).fp8_operands().unpromoted()
}

/// The launch of a `*_blocks` entry: [`config`], taking block scales.
pub const fn blocks_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    config(bm, bn, stages, elem).fp8_block_scales()
}

/// The walk of the `*_pairs` entries: kernel 24's pairs of tiles along M.
type Pairs = ClusterUnits<CLUSTER>;

/// The launch of a `*_pairs` entry: [`config`] in kernel 24's clusters of two blocks along M that
/// share `Bᵀ`'s tile (each loads half its rows, multicast into both).
pub const fn pairs_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// The launch of a `*_blocks_pairs` entry: [`pairs_config`], taking block scales.
pub const fn blocks_pairs_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    pairs_config(bm, bn, stages, elem).fp8_block_scales()
}

/// A per-tensor scale: the `f32` at `p`, or 1 where `p` is null.
///
/// # Safety
/// `p` is null or valid for one `f32`.
#[inline(always)]
unsafe fn scale_at(p: *const f32) -> f32 {
    if p.is_null() {
        1.0
    } else {
        // SAFETY: one float (the caller's contract).
        unsafe { View::from_const(p, 1).get(0) }
    }
}

/// How an entry sums and scales (the `MODE` of [`fp8_gemm`]).
pub mod mode {
    /// Promoted into `f32` every K-step, per-tensor scales.
    pub const PROMOTED: u32 = 0;
    /// The whole K range in the tensor core's FP8 accumulator, per-tensor scales.
    pub const UNPROMOTED: u32 = 1;
    /// Promoted every K-step, each step weighed by its block scales.
    pub const BLOCK_SCALED: u32 = 2;
}

/// Elements of K (and columns of `Bᵀ`'s rows) one block scale covers: one K-step, one 128-wide tile.
pub const SCALE_BLOCK: u32 = 128;

/// One consumer thread's view of the block scales: its two rows' scales of A, its tile's of `Bᵀ`.
#[derive(Clone, Copy)]
struct BlockScales {
    a: View<f32>,
    b: View<f32>,
    /// The first scale of the thread's two rows (`r·blocks`, rows past `m` clamped to `m − 1`).
    rows: [u32; 2],
    /// The first scale of the tile's block of `Bᵀ`.
    tile: u32,
}

impl BlockScales {
    /// The weights of K-block `kb` for the thread's two rows: `scale_a[row][kb] · scale_b[tile][kb]`.
    ///
    /// # Safety
    /// `kb < ⌈k/128⌉`; the views hold the scales [`fp8_gemm`]'s contract states.
    #[inline(always)]
    unsafe fn weights(self, kb: u32) -> [f32; 2] {
        // SAFETY: rows < m and tile < ⌈n/128⌉ (clamped by the constructor), kb < ⌈k/128⌉.
        unsafe {
            let b = self.b.get((self.tile + kb) as usize);
            [self.a.get((self.rows[0] + kb) as usize) * b, self.a.get((self.rows[1] + kb) as usize) * b]
        }
    }
}

/// Consumer warpgroup `cw`'s sums of global K-steps `g0 .. g0 + steps` (K-blocks `kb0 ..`), promoted:
/// each step's four `wgmma`s into fresh accumulators, the group awaited, the stage released, the
/// partial sums added into `acc` in `f32` — weighed by the step's block scales where `scales` has them.
///
/// # Safety
/// As `Pipeline::consume`: warpgroup-uniform; the producer loads these steps; `scales` as
/// [`BlockScales::weights`] for K-blocks `kb0 .. kb0 + steps`.
#[inline(always)]
unsafe fn consume_promoted<O: WgmmaTile, const S: u32, const NC: u32, const P: u32>(
    pipe: Pipeline<S, NC, P>,
    acc: &mut O::Acc,
    cw: u32,
    (steps, g0, kb0): (u32, u32, u32),
    scales: Option<BlockScales>,
) {
    for t in 0..steps {
        let mut part = O::ZERO;
        // Loaded before the wait: their latency hides behind the step's products.
        // SAFETY: kb0 + t < ⌈k/128⌉ (the caller's contract).
        let w = scales.map_or([1.0; 2], |s| unsafe { s.weights(kb0 + t) });
        // SAFETY: warpgroup-uniform (the caller's contract); the step's group completes (wait 0)
        // before its stage is released and before its accumulators are read.
        unsafe {
            pipe.issue::<O>(&mut part, cw, g0 + t);
            wgmma::wait_group(0);
            pipe.release(g0 + t);
        }
        // Accumulators 4j, 4j + 1 lie in the thread's first row, 4j + 2, 4j + 3 in its second
        // (`wgmma::acc_position`).
        for (i, (sum, &p)) in acc.as_mut().iter_mut().zip(part.as_ref()).enumerate() {
            *sum =
                if scales.is_some() { crate::device::math::fma(wgmma::settled(p), w[(i % 4) / 2], *sum) } else { *sum + wgmma::settled(p) };
        }
    }
}

/// `C = scale_a · scale_b · A·B` with FP8 tile `O` (`B` given as `Bᵀ`), `NC` consumer warpgroups and
/// `S` stages, one persistent block per SM walking `W`'s pieces — kernel 16's work units (split-K
/// slices add into a zeroed `C`) or, with `P = 2`, kernel 24's pairs of tiles sharing `Bᵀ`'s — summing
/// and scaling as `MODE` says ([`mode`], the module documentation).
///
/// # Safety
/// As [`super::k16_persistent::persistent_gemm`], with `map_b` over `Bᵀ` (`n × k` bytes, boxes of
/// `k15_tma::b_box`) and the launch of [`config`]`(64·NC, O::N, S, 1)` (or [`fast_config`],
/// [`blocks_config`]; with `P = 2` [`pairs_config`] or [`blocks_pairs_config`]: clusters of two
/// blocks along `x`, one K slice); `scale_a`,
/// `scale_b` null or valid for one `f32` each — for [`mode::BLOCK_SCALED`] valid for `m·⌈k/128⌉` and
/// `⌈n/128⌉·⌈k/128⌉` floats, with `O::N = 128`. With `out_bf16 != 0` (not [`mode::UNPROMOTED`]:
/// it writes `f32` only), `C` is `m·n` BF16 elements (`args.c` points at them), `args.map_c` is null
/// and the grid has one slice (`gridDim.y = 1`). `fused` other than the identity (the entries'
/// `bias`, `epilogue`: [`crate::activation`]) is applied to each scaled sum before the store; then
/// too the grid has one slice.
#[inline(always)]
pub unsafe fn fp8_gemm<O: WgmmaTile, const S: u32, const NC: u32, const MODE: u32, const P: u32, W: Walk<Args = ()>>(
    args: TmaArgs,
    scale_a: *const f32,
    scale_b: *const f32,
    out_bf16: u32,
    fused: Fused,
) {
    // Two copies of the whole body, one per output type, chosen once. The unpromoted 256-wide tile
    // writes f32 only: with a BF16 store beside its 128 accumulators ptxas fenced its `wgmma`s
    // (C7519) and, with two bodies, spilled 1.7 KB and serialised them (C7511).
    // The unpromoted entries write f32 sums alone (the host asks nothing else of them).
    let fused = if MODE == mode::UNPROMOTED { Fused::none() } else { fused };
    // SAFETY (both): forwarded contract.
    unsafe {
        if out_bf16 != 0 && MODE != mode::UNPROMOTED {
            fp8_walk::<O, S, NC, MODE, true, P, W>(args, scale_a, scale_b, fused)
        } else {
            fp8_walk::<O, S, NC, MODE, false, P, W>(args, scale_a, scale_b, fused)
        }
    }
}

/// [`fp8_gemm`]'s body for one output type: BF16 where `BF16`, `f32` otherwise.
///
/// # Safety
/// As [`fp8_gemm`], with `out_bf16 = BF16 as u32`.
#[inline(always)]
unsafe fn fp8_walk<O: WgmmaTile, const S: u32, const NC: u32, const MODE: u32, const BF16: bool, const P: u32, W: Walk<Args = ()>>(
    args: TmaArgs,
    scale_a: *const f32,
    scale_b: *const f32,
    fused: Fused,
) {
    let TmaArgs { map_a, map_b, map_c, c, m, n, k, .. } = args;
    // SAFETY: the launch's shared memory and clusters of P blocks (the caller's contract); every
    // thread calls it.
    let pipe = unsafe { Pipeline::<S, NC, P>::setup(O::N, TmaFeed::FULL_ARRIVALS) };
    let bm = Pipeline::<S, NC, P>::BM;
    let steps = k.div_ceil(ROW_BYTES);
    let walk = W::start((), m.div_ceil(bm), n.div_ceil(O::N), bm, O::N, steps);
    crate::device::dependent_launch::follow_prior(walk.follows_zeroing());
    let wg = thread::thread_idx_x() / 128;
    if wg == 0 {
        // SAFETY: warpgroup 0, all 128 threads, converged; the pipeline was set up for the TMA feed.
        unsafe {
            k15_tma::release_producer_registers::<NC>();
            TmaFeed { map_a, map_b }.produce::<O, S, NC, P, W>(pipe, walk);
        }
        return;
    }
    // SAFETY: each consumer warpgroup, all 128 threads, converged.
    unsafe { k15_tma::claim_consumer_registers::<NC>() };
    const { assert!(MODE != mode::BLOCK_SCALED || O::N == SCALE_BLOCK, "a block-scaled tile is one block of Bᵀ wide") };
    let blocked = MODE == mode::BLOCK_SCALED;
    // SAFETY: null or one float each (the caller's contract), per-tensor modes only.
    let scale = if blocked { 1.0 } else { unsafe { scale_at(scale_a) * scale_at(scale_b) } };
    let blocks = k.div_ceil(SCALE_BLOCK);
    // This thread's first accumulator row within a consumer warpgroup's 64 (`wgmma::acc_position`).
    let lane_row = 16 * (thread::thread_idx_x() % 128 / 32) + thread::lane_id() / 4;
    // SAFETY: the caller passes m·n elements of C's type (f32, or BF16 with out_bf16).
    let (c32, c16) = unsafe {
        if BF16 {
            (View::new(c, 0), View::new(c.cast::<u16>(), (m * n) as usize))
        } else {
            (View::new(c, (m * n) as usize), View::new(c.cast::<u16>(), 0))
        }
    };
    let (mut walk, mut g) = (walk, 0);
    while let Some(p) = walk.next() {
        let mut acc = O::ZERO;
        let scales = blocked.then(|| {
            let row = |r: u32| (if r < m { r } else { m - 1 }) * blocks;
            let first = p.row0 + (wg - 1) * k15_tma::WG_ROWS + lane_row;
            // SAFETY: m·blocks and ⌈n/128⌉·blocks floats (the caller's contract).
            let (a, b) = unsafe {
                (View::from_const(scale_a, (m * blocks) as usize), View::from_const(scale_b, (n.div_ceil(SCALE_BLOCK) * blocks) as usize))
            };
            BlockScales { a, b, rows: [row(first), row(first + 8)], tile: p.col0 / SCALE_BLOCK * blocks }
        });
        // SAFETY: warpgroup-uniform (the walk is block-uniform); the producer loads these steps;
        // K-blocks p.kb .. p.ke < blocks.
        unsafe {
            if MODE == mode::UNPROMOTED {
                pipe.consume::<O>(&mut acc, wg - 1, p.ke - p.kb, g);
            } else {
                consume_promoted::<O, S, NC, P>(pipe, &mut acc, wg - 1, (p.ke - p.kb, g, p.kb), scales);
            }
        }
        let staging = pipe.warp_staging(wg - 1);
        if !fused.is_identity() {
            // A bias or an activation: each scaled sum finished as its staged row goes out (kernel
            // 27's store; applied to the registers, a call per element, it ran at a quarter of the
            // plain product's rate). Finishing products are never split (the caller's contract).
            let out = if BF16 { k27_fused::out::BF16 } else { k27_fused::out::F32 };
            // SAFETY: c holds m·n elements of C's type; `fused` made for m × n (the entry's); one
            // slice, so nothing is added; after the piece's last wait.
            unsafe { k15_tma::store_finished::<O, false>(&acc, c, staging, (m, n), (p.row0, p.col0), wg - 1, out, (fused, scale)) };
            g += p.ke - p.kb;
            continue;
        }
        // SAFETY: after the piece's last wait.
        unsafe { scale_sums::<O>(&mut acc, scale) };
        let map = if p.adds { core::ptr::null() } else { k15_tma::c_map_for::<NC>(map_c) };
        // SAFETY: c holds m·n elements of its type (map_c, if any, describes an f32 C), zeroed by the
        // host where the walk adds; a BF16 C is never added into (one slice: the caller's contract).
        unsafe {
            if BF16 {
                k15_tma::store_half::<O, false>(&acc, c16, staging, m, n, p.row0, p.col0, wg - 1);
            } else {
                k15_tma::store::<O>(&acc, c32, map, staging, m, n, p.row0, p.col0, wg - 1, p.adds);
            }
        }
        g += p.ke - p.kb;
    }
}

/// Scales consumer warpgroup `cw`'s sums in place (`scale · sum`, the per-tensor scales), each read
/// through [`wgmma::settled`].
///
/// # Safety
/// Called after the piece's last `wait_group`.
#[inline(always)]
unsafe fn scale_sums<O: WgmmaTile>(acc: &mut O::Acc, scale: f32) {
    for x in acc.as_mut() {
        *x = wgmma::settled(*x) * scale;
    }
}

/// Declares a kernel-25 entry and its launch constant.
macro_rules! fp8_entry {
    ($name:ident, $config:ident, $launch:ident, $tile:ident, stages $s:literal, $mode:ident, $doc:literal) => {
        fp8_entry!($name, $config, $launch, $tile, stages $s, consumers 2, $mode, walk 1 WorkUnits, $doc);
    };
    ($name:ident, $config:ident, $launch:ident, $tile:ident, stages $s:literal, consumers $c:literal, $mode:ident, $doc:literal) => {
        fp8_entry!($name, $config, $launch, $tile, stages $s, consumers $c, $mode, walk 1 WorkUnits, $doc);
    };
    ($name:ident, $config:ident, $launch:ident, $tile:ident, stages $s:literal, pairs, $mode:ident, $doc:literal) => {
        fp8_entry!($name, $config, $launch, $tile, stages $s, consumers 2, $mode, walk 2 Pairs, $doc);
    };
    ($name:ident, $config:ident, $launch:ident, $tile:ident, stages $s:literal, consumers $c:literal, $mode:ident, walk $p:literal $walk:ty, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = $launch($c * k15_tma::WG_ROWS, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, 1);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`fp8_gemm`], with the launch its `TileConfig` constant states.
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $name(
                map_a: *const TensorMap,
                map_b: *const TensorMap,
                map_c: *const TensorMap,
                c: *mut f32,
                flags: *mut u32,
                m: u32,
                n: u32,
                k: u32,
                scale_a: *const f32,
                scale_b: *const f32,
                out_bf16: u32,
                bias: *const f32,
                epilogue: u32,
            ) {
                // SAFETY: forwarded contract (the bias holds what `epilogue` names).
                unsafe {
                    fp8_gemm::<super::k14_wgmma::$tile, $s, $c, { mode::$mode }, $p, $walk>(
                        TmaArgs { map_a, map_b, map_c, c, flags, m, n, k },
                        scale_a,
                        scale_b,
                        out_bf16,
                        Fused::new(bias, epilogue, m, n),
                    )
                }
            }
        }
    };
}

fp8_entry!(matmul_fp8_e4m3_128x128, FP8_E4M3_128X128, config, E4m3N128, stages 6, PROMOTED,
    "Kernel 25 on FP8 E4M3 (`a` `m × k`, `b` the transposed `Bᵀ`, `n × k`), `f32` output scaled per tensor \
     (sm_90a): 128×128×128 tiles (`m64n128k32`), 6 stages, sums promoted into `f32` every K-step.");
fp8_entry!(matmul_fp8_e5m2_128x128, FP8_E5M2_128X128, config, E5m2N128, stages 6, PROMOTED,
    "Kernel 25 on FP8 E5M2: as [`matmul_fp8_e4m3_128x128`].");
fp8_entry!(matmul_fp8_e4m3_64x128, FP8_E4M3_64X128, config, E4m3N128, stages 9, consumers 1, PROMOTED,
    "Kernel 25 on FP8 E4M3, 64×128×128 tiles (one consumer warpgroup, 255 registers a thread), 9 stages, \
     promoted, per-tensor scales: outputs of few rows (decode) or few 128-row tiles.");
fp8_entry!(matmul_fp8_e5m2_64x128, FP8_E5M2_64X128, config, E5m2N128, stages 9, consumers 1, PROMOTED,
    "Kernel 25 on FP8 E5M2, 64×128 tiles: as [`matmul_fp8_e4m3_64x128`].");
fp8_entry!(matmul_fp8_e4m3_blocks_128x128, FP8_E4M3_BLOCKS_128X128, blocks_config, E4m3N128, stages 6, BLOCK_SCALED,
    "Kernel 25 on FP8 E4M3 with block scales (`scale_a`: `m × ⌈k/128⌉`, `scale_b`: `⌈n/128⌉ × ⌈k/128⌉`, \
     row-major), 128×128×128 tiles, each K-step's sums weighed by its scales as they are promoted.");
fp8_entry!(matmul_fp8_e5m2_blocks_128x128, FP8_E5M2_BLOCKS_128X128, blocks_config, E5m2N128, stages 6, BLOCK_SCALED,
    "Kernel 25 on FP8 E5M2 with block scales: as [`matmul_fp8_e4m3_blocks_128x128`].");
fp8_entry!(matmul_fp8_e4m3_pairs_128x128, FP8_E4M3_PAIRS_128X128, pairs_config, E4m3N128, stages 6, pairs, PROMOTED,
    "Kernel 25 on FP8 E4M3, promoted, per-tensor scales, 128×128×128 tiles in clusters of two blocks along M \
     sharing `Bᵀ`'s tile (kernel 24's pairs: each block loads half its rows, multicast into both), 6 stages.");
fp8_entry!(matmul_fp8_e5m2_pairs_128x128, FP8_E5M2_PAIRS_128X128, pairs_config, E5m2N128, stages 6, pairs, PROMOTED,
    "Kernel 25 on FP8 E5M2 in pairs: as [`matmul_fp8_e4m3_pairs_128x128`].");
fp8_entry!(matmul_fp8_e4m3_blocks_pairs_128x128, FP8_E4M3_BLOCKS_PAIRS_128X128, blocks_pairs_config, E4m3N128, stages 6, pairs, BLOCK_SCALED,
    "Kernel 25 on FP8 E4M3 with block scales, in pairs: [`matmul_fp8_e4m3_blocks_128x128`]'s scales on \
     [`matmul_fp8_e4m3_pairs_128x128`]'s clusters.");
fp8_entry!(matmul_fp8_e5m2_blocks_pairs_128x128, FP8_E5M2_BLOCKS_PAIRS_128X128, blocks_pairs_config, E5m2N128, stages 6, pairs, BLOCK_SCALED,
    "Kernel 25 on FP8 E5M2 with block scales, in pairs: as [`matmul_fp8_e4m3_blocks_pairs_128x128`].");
fp8_entry!(matmul_fp8_e4m3_fast_128x256, FP8_E4M3_FAST_128X256, fast_config, E4m3N256, stages 4, UNPROMOTED,
    "Kernel 25 on FP8 E4M3, unpromoted (the whole K range accumulated in the tensor core's FP8 path: \
     faster, less accurate; only when asked for), 128×256×128 tiles (`m64n256k32`), 4 stages.");
fp8_entry!(matmul_fp8_e5m2_fast_128x256, FP8_E5M2_FAST_128X256, fast_config, E5m2N256, stages 4, UNPROMOTED,
    "Kernel 25 on FP8 E5M2, unpromoted: as [`matmul_fp8_e4m3_fast_128x256`].");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tiles_take_as_many_stages_as_fit_one_block() {
        const MAX_SHARED: u32 = 227 * 1024;
        for (cfg, bm, bn) in [(FP8_E4M3_64X128, 64, 128), (FP8_E5M2_64X128, 64, 128)] {
            assert_eq!((cfg.bm, cfg.bn, cfg.bk, cfg.block.0), (bm, bn, 128, 256));
            assert!(cfg.shared_bytes <= MAX_SHARED, "{cfg:?}");
            let stages = cfg.shared_bytes / ((bm + bn) * 128);
            assert!(config(bm, bn, stages + 1, 1).shared_bytes > MAX_SHARED, "{cfg:?}: another stage would fit");
        }
        for (cfg, bn) in [
            (FP8_E4M3_128X128, 128),
            (FP8_E5M2_128X128, 128),
            (FP8_E4M3_BLOCKS_128X128, 128),
            (FP8_E5M2_BLOCKS_128X128, 128),
            (FP8_E4M3_PAIRS_128X128, 128),
            (FP8_E5M2_PAIRS_128X128, 128),
            (FP8_E4M3_BLOCKS_PAIRS_128X128, 128),
            (FP8_E5M2_BLOCKS_PAIRS_128X128, 128),
            (FP8_E4M3_FAST_128X256, 256),
            (FP8_E5M2_FAST_128X256, 256),
        ] {
            assert_eq!((cfg.bm, cfg.bn, cfg.bk, cfg.block.0), (128, bn, 128, 384));
            assert!(cfg.fp8_operands && cfg.b_k_major() && cfg.persistent && cfg.tma && cfg.sm90a, "{cfg:?}");
            assert!(cfg.shared_bytes <= MAX_SHARED, "{cfg:?}");
            let stages = cfg.shared_bytes / ((128 + bn) * 128);
            assert!(config(128, bn, stages + 1, 1).shared_bytes > MAX_SHARED, "{cfg:?}: another stage would fit");
        }
        const { assert!(FP8_E4M3_FAST_128X256.unpromoted && !FP8_E4M3_128X128.unpromoted) };
        const { assert!(FP8_E4M3_BLOCKS_128X128.fp8_block_scales && !FP8_E4M3_128X128.fp8_block_scales) };
        const { assert!(FP8_E4M3_PAIRS_128X128.cluster == 2 && FP8_E4M3_BLOCKS_PAIRS_128X128.fp8_block_scales) };
    }
}
