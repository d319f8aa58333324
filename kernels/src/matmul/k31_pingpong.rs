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
use super::k15_tma::{self, Depth, Pipeline, Staging, TmaArgs, ROW_BYTES, WG_ROWS};
use super::k16_persistent::{Feed, Finish, Plain, TmaFeed, Walk, WorkUnits};
use super::k27_fused::Finished;
use crate::activation::Fused;
use crate::device::async_copy::SharedPtr;
use crate::device::mem::View;
use crate::device::shared::SharedTiles;
use crate::device::tma::TensorMap;
use crate::device::{mbarrier, thread};
use crate::launch::TileConfig;

/// Bytes of one warpgroup's staging and the two order barriers, past kernel 27's 64-row pipeline.
const EXTRA_BYTES: u32 = k15_tma::staging_bytes(WG_ROWS) + 16;

/// `base` (a 64-row launch of kernel 16 or 27) with a second consumer warpgroup (384 threads), its
/// staging area and the two order barriers.
const fn with_second_consumer(base: TileConfig) -> TileConfig {
    TileConfig { block: (384, 1), shared_bytes: base.shared_bytes + EXTRA_BYTES, ..base }.ping_pong()
}

/// The launch of a kernel-31 entry that finishes its sums: kernel 27's 64-row launch, two consumers.
pub const fn config(bn: u32, stages: u32, elem: u32) -> TileConfig {
    with_second_consumer(super::k27_fused::config(WG_ROWS, bn, stages, elem))
}

/// The launch of a kernel-31 entry that stores plain `f32` sums: kernel 16's 64-row launch, two
/// consumers (`bm` is the tile's 64 rows: `k15_tma::tma_entry!`'s launch signature).
pub const fn plain_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    with_second_consumer(super::k16_persistent::config(bm, bn, stages, elem))
}

/// The second warpgroup's staging area and the order barriers, after the pipeline's region (`base`
/// bytes): `(staging, turn)` where `turn[w]` (8 bytes each) completes a phase when warpgroup `1 − w`
/// has finished a main loop.
///
/// # Safety
/// The launch provides `base + EXTRA_BYTES` bytes of dynamic shared memory.
#[inline(always)]
unsafe fn extra(base: u32) -> (Staging, [u32; 2]) {
    let mut tiles = SharedTiles::<u8>::new();
    // SAFETY: the launch's bytes (the caller's contract): the pipeline's region, then ours.
    let (_, staging, bars) = unsafe { (tiles.tile(base as usize), tiles.tile(k15_tma::staging_bytes(WG_ROWS) as usize), tiles.tile(16)) };
    // SAFETY: the views are this block's shared memory.
    let (s_addr, b_addr) = unsafe { (SharedPtr::new(staging, 0).addr(), SharedPtr::new(bars, 0).addr()) };
    let warp = thread::thread_idx_x() % 128 / 32;
    let floats = k15_tma::staging_bytes(WG_ROWS) / 4 / 4;
    // SAFETY: warp < 4 areas of `floats` floats in the staging tile (16-byte aligned: the pipeline's
    // region is a whole number of 16-byte units from the 16-byte aligned start).
    let view = unsafe { View::new(staging.ptr((warp * floats * 4) as usize).cast::<f32>(), floats as usize) };
    (Staging { view, addr: s_addr + warp * floats * 4 }, [b_addr, b_addr + 8])
}

/// `D = act(α·A·B + bias)` as kernel 27 computes it, on the ping-pong schedule.
///
/// # Safety
/// As [`super::k27_fused::fused_gemm`] with 64-row tiles: A's map with 64-row boxes, the launch
/// [`config`]'s (384 threads, its shared bytes), the grid any number of blocks (one per SM is the
/// intent), `gridDim.y = 1`.
#[inline(always)]
pub unsafe fn pingpong_gemm<O: WgmmaTile, const S: u32>(args: TmaArgs, alpha: f32, out: u32, bias: *const f32, epilogue: u32) {
    // SAFETY: the bias as the caller states.
    let finish = Finished::new(unsafe { Fused::new(bias, epilogue, args.m, args.n) }, alpha, out);
    // SAFETY: forwarded contract.
    unsafe { pingpong::<O, S, Finished>(args, finish) }
}

/// `C = A·B` as kernel 16 computes it (plain `f32` sums, stored by the threads; with `gridDim.y > 1`
/// K slices added into the zeroed `C`), on the ping-pong schedule.
///
/// # Safety
/// As [`super::k16_persistent::persistent_gemm`] with 64-row tiles (A's map with 64-row boxes) and
/// the launch [`plain_config`]'s; `C = 1` (the tile's one 64-row slice; `tma_entry!`'s signature).
#[inline(always)]
pub unsafe fn pingpong_plain_gemm<O: WgmmaTile, const S: u32, const C: u32>(args: TmaArgs) {
    const { assert!(C == 1, "a ping-pong unit is one 64-row tile") };
    // SAFETY: forwarded contract.
    unsafe { pingpong::<O, S, Plain>(args, Plain) }
}

/// The ping-pong body: kernel 16's producer over 64-row units, two consumer warpgroups taking them in
/// turn, each unit's sums through `finish`.
///
/// # Safety
/// As [`pingpong_gemm`] or [`pingpong_plain_gemm`] for `Fin`, whose own arguments are valid.
#[inline(always)]
unsafe fn pingpong<O: WgmmaTile, const S: u32, Fin: Finish>(args: TmaArgs, finish: Fin) {
    let TmaArgs { map_a, map_b, c, m, n, k, .. } = args;
    let base = k15_tma::config(WG_ROWS, O::N, S, core::mem::size_of::<O::Elem>() as u32).shared_bytes;
    // SAFETY: the launch's bytes (the caller's contract).
    let (own_staging, turn) = unsafe { extra(base) };
    if thread::thread_idx_x() == 0 {
        // SAFETY: 8-byte slots of this block's shared memory; the pipeline's setup below ends with a
        // block barrier before any use. One arrival per thread of a consumer warpgroup.
        unsafe {
            mbarrier::init(turn[0], 128);
            mbarrier::init(turn[1], 128);
        }
    }
    // SAFETY: the launch's shared memory (the pipeline's region first); every thread calls it.
    let pipe = unsafe { Pipeline::<S, 1>::setup(O::N, TmaFeed::FULL_ARRIVALS) };
    let steps = k.div_ceil(ROW_BYTES / core::mem::size_of::<O::Elem>() as u32);
    let walk = WorkUnits::start((), m.div_ceil(WG_ROWS), n.div_ceil(O::N), WG_ROWS, O::N, steps);
    let wg = thread::thread_idx_x() / 128;
    if wg == 0 {
        // SAFETY: warpgroup 0, all 128 threads, converged; two consumer warpgroups claim the rest.
        unsafe {
            k15_tma::release_producer_registers::<2>();
            TmaFeed { map_a, map_b }.produce::<O, S, 1, 1, WorkUnits>(pipe, walk);
        }
        return;
    }
    // SAFETY: each consumer warpgroup, all 128 threads, converged.
    unsafe { k15_tma::claim_consumer_registers::<2>() };
    let me = wg - 1;
    // Warpgroup 0 stages through the pipeline's area, warpgroup 1 through its own.
    let staging = if me == 0 { pipe.warp_staging(0) } else { own_staging };
    // This warpgroup's turn and its partner's (selected once: an array indexed by `me` went to the stack).
    let (my_turn, partner_turn) = if me == 0 { (turn[0], turn[1]) } else { (turn[1], turn[0]) };
    let (mut walk, mut g, mut unit, mut mine) = (walk, 0, 0u32, 0u32);
    while let Some(p) = walk.next() {
        let steps = p.ke - p.kb;
        if unit % 2 == me {
            // This warpgroup's `mine`-th unit: its turn comes when the partner's previous main loop
            // is done (warpgroup 0's first unit has none before it).
            if unit > 0 {
                // SAFETY: an initialised barrier; the partner arrives once per main loop it runs, and
                // it runs the unit before this one.
                unsafe { mbarrier::wait_parity(my_turn, if me == 0 { (mine - 1) % 2 } else { mine % 2 }) };
            }
            let mut acc = O::ZERO;
            // The partner's turn comes once this unit's last `wgmma`s are issued: its products queue
            // behind them while they complete. Every stage of this unit has landed by then, so the
            // partner's waits are at most one round ahead of the loads.
            // SAFETY: the partner's barrier, one arrival per thread of this warpgroup per main loop.
            let hand_over = || unsafe { mbarrier::arrive(partner_turn) };
            // SAFETY: warpgroup-uniform (the walk is block-uniform); the producer loads these steps;
            // the stage's A slice is the only one (64-row stages: slice 0).
            unsafe { pipe.consume_then::<O>(&mut acc, 0, steps, g, hand_over) };
            let (at, rows) = p.depth.output(m);
            // SAFETY: C holds the unit's rows of n elements of the finish's type (the caller's
            // contract), zeroed where a K slice adds (plain sums; finished ones are never split);
            // this warpgroup's own staging area; the threads store (no map).
            unsafe { finish.store::<O>(&acc, c, at, core::ptr::null(), staging, (rows, n), (p.row0, p.col0), 0, p.adds) };
            mine += 1;
        }
        g += steps;
        unit += 1;
    }
}

/// Declares a kernel-31 entry (kernel 27's arguments; `map_c` and `flags` unused) and its launch.
macro_rules! pingpong_entry {
    ($name:ident, $config:ident, $tile:ident, stages $s:literal, $doc:literal) => {
        fused_entry!(@entry $name, $config = config(<super::k14_wgmma::$tile as WgmmaTile>::N, $s, 2),
            pingpong_gemm::<super::k14_wgmma::$tile, $s>, "As [`pingpong_gemm`]", $doc);
    };
}

pingpong_entry!(matmul_pingpong_bf16_64x256, PINGPONG_BF16_64X256, Bf16N256, stages 5,
    "Kernel 31 on BF16 inputs (sm_90a): kernel 27's finishing store on 64×256×64 tiles, two consumer \
     warpgroups taking alternate tiles (the ping-pong schedule), 5 stages.");
pingpong_entry!(matmul_pingpong_f16_64x256, PINGPONG_F16_64X256, F16N256, stages 5,
    "Kernel 31 on FP16 inputs: as [`matmul_pingpong_bf16_64x256`].");

tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_bf16_64x256, PINGPONG_PLAIN_BF16_64X256, Bf16N256, u16, stages 5, consumers 1,
    launch plain_config,
    "Kernel 31 on BF16 inputs, `f32` output (sm_90a): kernel 16's product on 64×256×64 tiles, two consumer \
     warpgroups taking alternate tiles (each tile's `f32` store behind the other's `wgmma`s), 5 stages.");
tma_entry!(pingpong_plain_gemm, matmul_pingpong_plain_f16_64x256, PINGPONG_PLAIN_F16_64X256, F16N256, u16, stages 5, consumers 1,
    launch plain_config, "Kernel 31 on FP16 inputs, `f32` output: as [`matmul_pingpong_plain_bf16_64x256`].");
