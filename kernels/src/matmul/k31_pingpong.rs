//! Kernel 31: kernel 27 on a ping-pong schedule — two consumer warpgroups take alternate 64-row
//! tiles, so that one finishes its sums (`α`, bias, activation, a 16-bit `C`) while the other's
//! `wgmma`s run (sm_90a).
//!
//! **What it fixes in kernel 27**: there both consumer warpgroups share each 128-row tile, so they
//! reach the epilogue together and the tensor cores idle while the activation is computed and the
//! tile stored — on the H200 GELU into BF16 cost 14–29 % over the plain product
//! (`docs/results/2026-12-05-fused-wide`). Here a unit of the walk is a 64×N tile (kernel 16's
//! 64-row pipeline: a 64-row A box per stage, four arrivals free a stage) and consumer warpgroup
//! `w` takes units `w, w + 2, …` of the block's walk, each whole (a 64×256 tile is 128 accumulators a
//! thread, as a 128×256 tile's half is in kernel 27).
//!
//! **The order of the main loops**: a warpgroup that skips its partner's unit waits on stages the
//! producer fills for steps ahead of it; an `mbarrier`'s parity wait tells only even phases from odd
//! ones, so waiting more than one round ahead of a stage's loads would read a stale phase. So the
//! main loops take turns (an order barrier per warpgroup, CUTLASS's ping-pong): warpgroup `w` starts
//! unit `i`'s main loop once its partner has issued every `wgmma` of unit `i − 1`'s (the partner's
//! last products still completing, every stage of its unit landed), then signals the partner once it
//! has issued its own, and finishes its sums while the partner computes. One main loop issues at a
//! time; every epilogue overlaps the other warpgroup's main loop.
//!
//! **Everything else is kernel 16's and 27's**: the producer (`TmaFeed`, unchanged: it loads the
//! units in order), the stages, the finishing store (`k15_tma::store_finished`, each warpgroup through
//! its own staging area). New entries beside kernel 27's: measured against them before `Auto` prices
//! them as two consumers (`tc_model` sees 64-row tiles).
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{self, Depth, Flat, Pipeline, Staging, TmaArgs, ROW_BYTES, WG_ROWS};
use super::k16_persistent::{Feed, Finish, Plain, TmaFeed, Walk, WorkUnits};
use super::k24_cluster::{ClusterUnits, CLUSTER};
use super::k27_fused::Finished;
use crate::activation::Fused;
use crate::device::async_copy::SharedPtr;
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::tma::TensorMap;
use crate::device::{mbarrier, thread};
use crate::launch::TileConfig;

/// Bytes of the two order barriers.
const TURN_BYTES: u32 = 16;
/// Bytes past the pipeline's region of a launch of `bm`-row units: with 64-row units the second
/// warpgroup's staging area (the pipeline has one warpgroup's) and the barriers; with 128-row units
/// the barriers (the pipeline stages for both).
const fn extra_bytes(bm: u32) -> u32 {
    if bm == WG_ROWS {
        k15_tma::staging_bytes(WG_ROWS) + TURN_BYTES
    } else {
        TURN_BYTES
    }
}

/// `base` (a launch of kernel 16 or 27 with `bm`-row tiles) as kernel 31's: two consumer warpgroups
/// (384 threads: a second one for 64-row units, which `base` has for 128-row ones) and
/// [`extra_bytes`].
const fn ping_pong(base: TileConfig, bm: u32) -> TileConfig {
    TileConfig { block: (384, 1), shared_bytes: base.shared_bytes + extra_bytes(bm), ..base }.ping_pong()
}

/// The launch of a kernel-31 entry that finishes its sums on `bm`-row units (64 or 128): kernel 27's
/// launch of that tile, two consumers.
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    ping_pong(super::k27_fused::config(bm, bn, stages, elem), bm)
}

/// The launch of a kernel-31 entry that stores plain `f32` sums on `bm`-row units (64 or 128):
/// kernel 16's launch of that tile, two consumers (`k15_tma::tma_entry!`'s launch signature).
pub const fn plain_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    ping_pong(super::k16_persistent::config(bm, bn, stages, elem), bm)
}

/// [`config`] in kernel 24's clusters of two blocks along M sharing B's tiles (multicast).
pub const fn pairs_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// [`plain_config`] in kernel 24's clusters of two blocks along M sharing B's tiles (multicast).
pub const fn plain_pairs_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    plain_config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// The order barriers after the pipeline's region (`base` bytes), and with 64-row units (`C = 1`) the
/// second warpgroup's staging area (its calling warp's part): `(staging, turn)` where `turn[w]` (8
/// bytes each) completes a phase when warpgroup `1 − w` has issued a main loop. With 128-row units
/// (`C = 2`) no staging: each warpgroup stages through the pipeline's area of its own four warps.
///
/// # Safety
/// The launch provides `base + extra_bytes(64·C)` bytes of dynamic shared memory.
#[inline(always)]
unsafe fn extra<const C: u32>(base: u32) -> (Option<Staging>, [u32; 2]) {
    let mut tiles = SharedTiles::<u8>::new();
    // SAFETY: the launch's bytes (the caller's contract): the pipeline's region first.
    let _ = unsafe { tiles.tile(base as usize) };
    let staging = (C == 1).then(|| {
        // SAFETY: the launch's bytes: the staging area follows the pipeline's region.
        let staging = unsafe { tiles.tile(k15_tma::staging_bytes(WG_ROWS) as usize) };
        // SAFETY: the view is this block's shared memory.
        let s_addr = unsafe { SharedPtr::new(staging, 0).addr() };
        let warp = thread::thread_idx_x() % 128 / 32;
        let floats = k15_tma::staging_bytes(WG_ROWS) / 4 / 4;
        // SAFETY: warp < 4 areas of `floats` floats in the staging tile (16-byte aligned: the pipeline's
        // region is a whole number of 16-byte units from the 16-byte aligned start).
        let view = unsafe { View::new(staging.ptr((warp * floats * 4) as usize).cast::<f32>(), floats as usize) };
        Staging { view, addr: s_addr + warp * floats * 4 }
    });
    // SAFETY: the launch's bytes: the barriers come last.
    let bars = unsafe { tiles.tile(TURN_BYTES as usize) };
    // SAFETY: the view is this block's shared memory.
    let b_addr = unsafe { SharedPtr::new(bars, 0).addr() };
    (staging, [b_addr, b_addr + 8])
}

/// `D = act(α·A·B + bias)` as kernel 27 computes it, on the ping-pong schedule over `64·C`-row units
/// of walk `W`: [`WorkUnits`] for blocks of their own (`P = 1`), or kernel 24's [`ClusterUnits`] in
/// clusters of `P` = [`CLUSTER`] blocks along M, each block's producer loading its A and half of the
/// pair's shared B tile, multicast into both.
///
/// # Safety
/// As [`super::k27_fused::fused_gemm`] with `64·C`-row tiles (A's map with boxes of those rows), the
/// launch [`config`]`(64·C, ..)`'s (384 threads, its shared bytes), the grid any number of blocks (one
/// per SM is the intent), `gridDim.y = 1`; `C` 1 or 2; with `P > 1` launched [`pairs_config`]'s way
/// (clusters of `P` blocks along `x`, `gridDim.x` a multiple of it).
#[inline(always)]
pub unsafe fn pingpong_gemm<O: WgmmaTile, const S: u32, const C: u32, const P: u32, W: Walk<Args = (), Depth = Flat>>(
    args: TmaArgs,
    alpha: f32,
    out: u32,
    bias: *const f32,
    epilogue: u32,
) {
    // SAFETY: the bias as the caller states.
    let finish = Finished::<false>::new(unsafe { Fused::new(bias, epilogue, args.m, args.n) }, alpha, out);
    // SAFETY: forwarded contract.
    unsafe { pingpong::<O, S, C, P, W, Finished<false>>(args, finish) }
}

/// `C = A·B` as kernel 16 computes it (plain `f32` sums, stored by the threads; with `gridDim.y > 1`
/// K slices added into the zeroed `C`), on the ping-pong schedule over `64·C`-row units.
///
/// # Safety
/// As [`super::k16_persistent::persistent_gemm`] with `64·C`-row tiles (A's map with boxes of those
/// rows) and the launch [`plain_config`]`(64·C, ..)`'s; `C` 1 or 2 (`tma_entry!`'s signature).
#[inline(always)]
pub unsafe fn pingpong_plain_gemm<O: WgmmaTile, const S: u32, const C: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { pingpong::<O, S, C, 1, WorkUnits, Plain>(args, Plain) }
}

/// [`pingpong_plain_gemm`] in kernel 24's clusters of two blocks along M sharing B's tiles.
///
/// # Safety
/// As [`pingpong_plain_gemm`], one K slice (`gridDim.y = 1`), launched [`plain_pairs_config`]'s way.
#[inline(always)]
pub unsafe fn pingpong_plain_pairs_gemm<O: WgmmaTile, const S: u32, const C: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { pingpong::<O, S, C, CLUSTER, ClusterUnits<CLUSTER>, Plain>(args, Plain) }
}

/// The ping-pong body: kernel 16's producer over `64·C`-row units of walk `W` (in clusters of `P`
/// blocks sharing B's tiles where `P > 1`), two consumer warpgroups taking them in turn, each unit's
/// sums through `finish` (a 128-row unit as two 64-row slices).
///
/// # Safety
/// As [`pingpong_gemm`] or [`pingpong_plain_gemm`] for `Fin`, whose own arguments are valid; with
/// `P > 1` as their pairs' entries.
#[inline(always)]
unsafe fn pingpong<O: WgmmaTile, const S: u32, const C: u32, const P: u32, W: Walk<Args = (), Depth = Flat>, Fin: Finish>(
    args: TmaArgs,
    finish: Fin,
) {
    let TmaArgs { map_a, map_b, c, m, n, k, .. } = args;
    let bm = WG_ROWS * C;
    let base = k15_tma::config(bm, O::N, S, core::mem::size_of::<O::Elem>() as u32).shared_bytes;
    // SAFETY: the launch's bytes (the caller's contract).
    let (own_staging, turn) = unsafe { extra::<C>(base) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: 8-byte slots of this block's shared memory; the pipeline's setup below ends with a
        // block barrier before any use. One arrival per thread of a consumer warpgroup.
        unsafe {
            mbarrier::init(turn[0], 128);
            mbarrier::init(turn[1], 128);
        }
    }
    // SAFETY: the launch's shared memory (the pipeline's region first) and clusters of P blocks;
    // every thread calls it (with P > 1 its barrier is the cluster's, which also publishes the
    // order barriers initialised above).
    let pipe = unsafe { Pipeline::<S, C, P>::setup(O::N, TmaFeed::FULL_ARRIVALS) };
    let steps = k.div_ceil(ROW_BYTES / core::mem::size_of::<O::Elem>() as u32);
    let walk = W::start((), m.div_ceil(bm), n.div_ceil(O::N), bm, O::N, steps);
    crate::device::dependent_launch::follow_prior(walk.follows_zeroing());
    let wg = thread::thread_idx_x() / 128;
    if wg == 0 {
        // SAFETY: warpgroup 0, all 128 threads, converged; two consumer warpgroups claim the rest.
        unsafe {
            k15_tma::release_producer_registers::<2>();
            TmaFeed { map_a, map_b }.produce::<O, S, C, P, W>(pipe, walk);
        }
        return;
    }
    // SAFETY: each consumer warpgroup, all 128 threads, converged.
    unsafe { k15_tma::claim_consumer_registers::<2>() };
    let me = wg - 1;
    // 64-row units: warpgroup 0 stages through the pipeline's area, warpgroup 1 through its own;
    // 128-row units: each through the pipeline's area of its own warps.
    let staging = match own_staging {
        Some(own) if me == 1 => own,
        _ => pipe.warp_staging(if C == 1 { 0 } else { me }),
    };
    // This warpgroup's turn and its partner's (selected once: an array indexed by `me` went to the stack).
    let (my_turn, partner_turn) = if me == 0 { (turn[0], turn[1]) } else { (turn[1], turn[0]) };
    let (mut walk, mut g, mut unit, mut mine) = (walk, 0, 0u32, 0u32);
    while let Some(p) = walk.next() {
        let steps = p.ke - p.kb;
        if unit % 2 == me {
            // This warpgroup's `mine`-th unit: its turn comes when the partner has issued its
            // previous main loop (warpgroup 0's first unit has none before it).
            if unit > 0 {
                // SAFETY: an initialised barrier; the partner arrives once per main loop it runs, and
                // it runs the unit before this one.
                unsafe { mbarrier::wait_parity(my_turn, if me == 0 { (mine - 1) % 2 } else { mine % 2 }) };
            }
            // The partner's turn comes once this unit's last `wgmma`s are issued: its products queue
            // behind them while they complete. Every stage of this unit has landed by then, so the
            // partner's waits are at most one round ahead of the loads.
            // SAFETY: the partner's barrier, one arrival per thread of this warpgroup per main loop.
            let hand_over = || unsafe { mbarrier::arrive(partner_turn) };
            let (at, rows) = p.depth.output(m);
            // SAFETY (both arms): warpgroup-uniform (the walk is block-uniform); the producer loads
            // these steps. C holds the unit's rows of n elements of the finish's type (the caller's
            // contract), zeroed where a K slice adds (plain sums; finished ones are never split); this
            // warpgroup's own staging area, each slice's store done with it before the next; the
            // threads store (no map).
            unsafe {
                if C == 1 {
                    let mut acc = O::ZERO;
                    pipe.consume_then::<O>(&mut acc, 0, steps, g, hand_over);
                    finish.store::<O>(&acc, c, at, core::ptr::null(), staging, (rows, n), (p.row0, p.col0), 0, p.adds);
                } else {
                    let mut acc = [O::ZERO, O::ZERO];
                    pipe.consume_both_then::<O>(&mut acc, steps, g, hand_over);
                    let [top, bottom] = &acc;
                    finish.store::<O>(top, c, at, core::ptr::null(), staging, (rows, n), (p.row0, p.col0), 0, p.adds);
                    finish.store::<O>(bottom, c, at, core::ptr::null(), staging, (rows, n), (p.row0, p.col0), 1, p.adds);
                }
            }
            mine += 1;
        }
        g += steps;
        unit += 1;
    }
}

/// Declares a kernel-31 entry (kernel 27's arguments; `map_c` and `flags` unused) and its launch:
/// units of `64·C` rows.
macro_rules! pingpong_entry {
    ($name:ident, $config:ident, $tile:ident, stages $s:literal, consumers $c:literal, $doc:literal) => {
        fused_entry!(@entry $name, $config = config(WG_ROWS * $c, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, 2),
            pingpong_gemm::<super::k14_wgmma::$tile, $s, $c, 1, WorkUnits>, "As [`pingpong_gemm`]", $doc);
    };
}

pingpong_entry!(matmul_pingpong_bf16_64x256, PINGPONG_BF16_64X256, Bf16N256, stages 5, consumers 1,
    "Kernel 31 on BF16 inputs (sm_90a): kernel 27's finishing store on 64×256×64 tiles, two consumer \
     warpgroups taking alternate tiles (the ping-pong schedule), 5 stages.");
pingpong_entry!(matmul_pingpong_f16_64x256, PINGPONG_F16_64X256, F16N256, stages 5, consumers 1,
    "Kernel 31 on FP16 inputs: as [`matmul_pingpong_bf16_64x256`].");
pingpong_entry!(matmul_pingpong_bf16_128x128, PINGPONG_BF16_128X128, Bf16N128, stages 6, consumers 2,
    "Kernel 31 on BF16 inputs (sm_90a): kernel 27's finishing store on 128×128×64 tiles, each warpgroup \
     taking whole alternate tiles (two `m64n128` slices a step), 6 stages.");
pingpong_entry!(matmul_pingpong_f16_128x128, PINGPONG_F16_128X128, F16N128, stages 6, consumers 2,
    "Kernel 31 on FP16 inputs: as [`matmul_pingpong_bf16_128x128`].");

fused_entry!(@entry matmul_pingpong_pairs_bf16_128x128, PINGPONG_PAIRS_BF16_128X128 = pairs_config(128, 128, 6, 2),
    pingpong_gemm::<super::k14_wgmma::Bf16N128, 6, 2, CLUSTER, ClusterUnits<CLUSTER>>, "As [`pingpong_gemm`]",
    "Kernel 31 on BF16 inputs (sm_90a): [`matmul_pingpong_bf16_128x128`] in clusters of two blocks along M \
     whose B tiles are shared (each loads half, multicast into both): per block 128 + 64 rows a step.");
fused_entry!(@entry matmul_pingpong_pairs_f16_128x128, PINGPONG_PAIRS_F16_128X128 = pairs_config(128, 128, 6, 2),
    pingpong_gemm::<super::k14_wgmma::F16N128, 6, 2, CLUSTER, ClusterUnits<CLUSTER>>, "As [`pingpong_gemm`]",
    "Kernel 31 on FP16 inputs: as [`matmul_pingpong_pairs_bf16_128x128`].");

tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_bf16_64x256, PINGPONG_PLAIN_BF16_64X256, Bf16N256, u16, stages 5, consumers 1,
    launch plain_config,
    "Kernel 31 on BF16 inputs, `f32` output (sm_90a): kernel 16's product on 64×256×64 tiles, two consumer \
     warpgroups taking alternate tiles (each tile's `f32` store behind the other's `wgmma`s), 5 stages.");
tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_f16_64x256, PINGPONG_PLAIN_F16_64X256, F16N256, u16, stages 5, consumers 1,
    launch plain_config, "Kernel 31 on FP16 inputs, `f32` output: as [`matmul_pingpong_plain_bf16_64x256`].");
tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_bf16_128x128, PINGPONG_PLAIN_BF16_128X128, Bf16N128, u16, stages 6, consumers 2,
    launch plain_config,
    "Kernel 31 on BF16 inputs, `f32` output (sm_90a): kernel 16's product on 128×128×64 tiles, each warpgroup \
     taking whole alternate tiles, 6 stages.");
tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_f16_128x128, PINGPONG_PLAIN_F16_128X128, F16N128, u16, stages 6, consumers 2,
    launch plain_config, "Kernel 31 on FP16 inputs, `f32` output: as [`matmul_pingpong_plain_bf16_128x128`].");
tma_entry!(pingpong_plain_pairs_gemm, matmul_pingpong_plain_pairs_bf16_128x128, PINGPONG_PLAIN_PAIRS_BF16_128X128, Bf16N128, u16,
    stages 6, consumers 2, launch plain_pairs_config,
    "Kernel 31 on BF16 inputs, `f32` output (sm_90a): [`matmul_pingpong_plain_bf16_128x128`] in clusters of two \
     blocks along M sharing B's tiles.");
tma_entry!(pingpong_plain_pairs_gemm, matmul_pingpong_plain_pairs_f16_128x128, PINGPONG_PLAIN_PAIRS_F16_128X128, F16N128, u16,
    stages 6, consumers 2, launch plain_pairs_config,
    "Kernel 31 on FP16 inputs, `f32` output: as [`matmul_pingpong_plain_pairs_bf16_128x128`].");
