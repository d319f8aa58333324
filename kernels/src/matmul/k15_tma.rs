//! Kernel 15: `wgmma` fed by the TMA copy engine, with a producer warpgroup and two consumer
//! warpgroups synchronised by `mbarrier`s (warp specialisation, sm_90a).
//!
//! **What it fixes in kernel 14**: there all 256 threads issue `cp.async` for every tile (hundreds of
//! address computations and copy instructions per K-step, next to the accumulators in the same
//! registers), and one block barrier per K-step makes both warpgroups wait for the slowest thread's
//! copies. Here one thread of a third warpgroup asks the TMA engine for each tile as a box (one
//! instruction per 8–16 KiB, the 128-byte swizzle and the zero fill at the edges done by the engine),
//! and the consumers wait only for *their* stage's bytes on its "full" barrier; the producer waits
//! only for a stage's "empty" barrier before refilling it. No block barrier after the start. The
//! producer gives registers back (`setmaxnreg.dec` to 40) and the consumers take them (232), which
//! the `m64n256` accumulators (128 floats per thread) need.
//!
//! **Tiling**: as kernel 14's 128×N tile: `BK` = 128 bytes of K (64 BF16/FP16, 32 TF32 elements),
//! consumer warpgroup `w` (threads `128 (w + 1) ..`) computes rows `64w .. 64w + 64` with `BK / K`
//! `wgmma`s per K-step.
//!
//! **Shared memory**: `S` stages of A `[128][BK]` (one TMA box of `BK × 128`) and B: N-major
//! 64-column blocks `[BK][64]` for BF16/FP16 (`N / 64` boxes of `64 × BK`), K-major `[N][BK]` for TF32
//! (one box of `BK × N` from the prepared `Bᵀ`), all in the 128-byte swizzle layout of [`wgmma`]
//! (the TMA writes it), aligned to 1024 bytes (1 KiB of slack); then `S` "full" and `S` "empty"
//! barriers.
//!
//! **Pipeline**: K-step `t` uses stage `t % S` in round `t / S`. Producer: wait for the stage's
//! "empty" phase of round `t / S − 1` (parity `(t / S + 1) % 2`: a fresh barrier's previous phase
//! counts as complete), announce the stage's bytes on "full" (`arrive.expect_tx`), issue the boxes.
//! Consumers: wait for "full" of parity `(t / S) % 2`, issue the `wgmma`s, commit, wait until one
//! group is pending (step `t − 1` is then done) and release step `t − 1`'s stage: lane 0 of each of
//! the 8 consumer warps arrives on its "empty" barrier (8 arrivals per phase).
//!
//! **TF32**: A is the caller's `f32`; each consumer loads its A fragments with `ldmatrix`, rounds
//! them to nearest TF32 (`cvt.rna.tf32.f32`) and issues the `wgmma`s with A from registers
//! ([`super::k14_wgmma::Tf32RegsN256`]), so A needs no pass on the host (unless its rows must be
//! padded: K not a multiple of 4) and no extra shared-memory traffic; ptxas does not keep those registers for the asynchronous read, so each step's group
//! completes before the next step loads A (`Pipeline::consume`). `B` is the host's `Bᵀ`, rounded.
//!
//! **Edges**: any M, N, K for which the host could build the tensor maps (rows 16-byte aligned: K a
//! multiple of 8 for 16-bit types, of 4 for TF32; N a multiple of 8 for N-major B): the TMA fills the
//! parts of boxes outside the matrices with zeros; only in-range outputs are stored.
//!
//! Measurements: `docs/ladder/k15-tma.md`.
use super::k14_wgmma::{ASlice, WgmmaTile};
use crate::activation::Fused;
use crate::device::async_copy::SharedPtr;
use crate::device::mem::{Float2, Float4, Half4, View};
use crate::device::shared::SharedTiles;
use crate::device::tma::{self, TensorMap};
use crate::device::{atomic, cluster, mbarrier, thread, warpgroup, wgmma};
use crate::launch::TileConfig;

/// Rows of the tile one consumer warpgroup computes (the `m64` of every `wgmma`): a block tile is
/// `64·C` rows for `C` consumer warpgroups (2: the 128-row tiles; 1: the 64-row tiles).
pub(crate) const WG_ROWS: u32 = 64;
/// Bytes of K per tile row: one 128-byte swizzle row.
pub(crate) const ROW_BYTES: u32 = 128;
/// Registers per thread of the producer and of the two consumer warpgroups after `setmaxnreg`
/// (128 · 40 + 256 · 232 = 64512 ≤ 65536). With one consumer warpgroup the block's 256 threads have
/// 255 registers each without it.
pub(crate) const PRODUCER_REGS: u32 = 40;
pub(crate) const CONSUMER_REGS: u32 = 232;
/// A consumer's registers with three consumer warpgroups (192-row tiles): 128 · 40 + 384 · 152 =
/// 63488 ≤ 65536.
pub(crate) const CONSUMER_REGS_3: u32 = 152;

/// The producer warpgroup's side of the register split of a block with `C` consumer warpgroups:
/// `setmaxnreg.dec` where two or three consumers need more than an even share (128- and 192-row
/// tiles), nothing with one (256 threads have 255 registers each).
///
/// # Safety
/// The 128 threads of the producer warpgroup, converged, once.
#[inline(always)]
pub(crate) unsafe fn release_producer_registers<const C: u32>() {
    if C >= 2 {
        // SAFETY: the caller's contract; 128·40 + 256·232 and 128·40 + 384·152 ≤ 65536.
        unsafe { warpgroup::release_registers::<PRODUCER_REGS>() };
    }
}

/// A consumer warpgroup's side of the split ([`release_producer_registers`]).
///
/// # Safety
/// The 128 threads of one consumer warpgroup, converged, once.
#[inline(always)]
pub(crate) unsafe fn claim_consumer_registers<const C: u32>() {
    const { assert!(C <= 3, "at most three consumer warpgroups") };
    // SAFETY (both): the caller's contract; the producer releases its share.
    if C == 2 {
        unsafe { warpgroup::claim_registers::<CONSUMER_REGS>() };
    } else if C == 3 {
        unsafe { warpgroup::claim_registers::<CONSUMER_REGS_3>() };
    }
}

/// `wgmma` instructions per K-step: 128 bytes of K.
const K_INSTRUCTIONS: u32 = 4;

/// Bytes the B descriptor advances per instruction of tile `O`: K rows down a K-major `Bᵀ`, K rows
/// of 128 bytes down an N-major B.
#[inline(always)]
const fn b_step<O: WgmmaTile>() -> u32 {
    if O::B_K_MAJOR {
        O::K * core::mem::size_of::<O::Elem>() as u32
    } else {
        O::K * ROW_BYTES
    }
}

/// Barrier bytes per stage: "full" and "empty".
const BARRIER_BYTES: u32 = 16;

/// Bytes of one stage: A's `bm` rows and B's `bn` columns, each 128 bytes of K; B's columns in whole
/// 64-column blocks (the N-major boxes: a 160- or 224-wide tile loads its last block whole and its
/// `wgmma`s read half of it).
const fn stage_bytes(bm: u32, bn: u32) -> u32 {
    (bm + bn.next_multiple_of(64)) * ROW_BYTES
}

/// The launch of a kernel-15 entry with `bm × bn` tiles (`bm` = 64 per consumer warpgroup),
/// `stages` stages and `elem`-byte elements: a producer warpgroup and `bm / 64` consumer warpgroups
/// (one block per SM: with two consumers ptxas compiles for 65536 / 384 registers and `setmaxnreg`
/// moves them), the stages, one atom of alignment slack, the barriers and the epilogue's staging
/// (`staging_bytes`: 128 bytes a row); sm_90a; TMA operands;
/// 4-byte (TF32) entries take `Bᵀ` prepared and round `A` themselves.
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    let bytes = stages * stage_bytes(bm, bn) + wgmma::SW128_ATOM_BYTES + BARRIER_BYTES * stages + staging_bytes(bm);
    let threads = 128 * (1 + bm / WG_ROWS);
    let cfg = TileConfig::new(bm, bn, ROW_BYTES / elem, threads, bytes).min_blocks_per_sm(1).sm90a().tma().chained();
    if elem == 4 {
        cfg.tf32_operands().rounds_a()
    } else {
        cfg
    }
}

/// The TMA box (inner, outer elements) of A's tensor map for `cfg`: `BK × 128`, one swizzle row of K
/// for each of the tile's rows.
pub const fn a_box(cfg: TileConfig) -> [u32; 2] {
    [cfg.bk, cfg.bm]
}

/// The TMA box of `C`'s tensor map (`f32`, the 128-byte swizzle): one consumer warp's staged chunk,
/// 32 columns (128 bytes) × 16 rows (the epilogue stores chunk by chunk).
pub const fn c_box() -> [u32; 2] {
    [STAGE_COLS, 16]
}

/// The TMA box of B's tensor map for `cfg`: N-major `64 × BK` (one 128-byte row of N, `BK` rows of K;
/// `bn / 64` of them per stage), or K-major `BK × bn` over the prepared `Bᵀ` (TF32, FP8).
pub const fn b_box(cfg: TileConfig) -> [u32; 2] {
    if cfg.b_k_major() {
        // A cluster's blocks each load their share of the rows (multicast into all).
        [cfg.bk, cfg.bn / if cfg.cluster > 1 { cfg.cluster } else { 1 }]
    } else {
        // 128 bytes of N are BK elements for the 2-byte types.
        [cfg.bk, cfg.bk]
    }
}

/// The shared-memory pipeline of kernels 15 and 16: `S` stages of tiles from a 1024-byte boundary,
/// then each stage's "full" and "empty" barrier, fed by one producer thread and drained by `C`
/// consumer warpgroups (`64·C`-row tiles). Global K-step `g` (counted across the tiles a block
/// computes) uses stage `g % S` in round `g / S`.
///
/// With `P > 1` (kernel 24) the block is one of a cluster of `P` blocks along M that share B's tile:
/// each block's producer loads its A and every `P`-th of B's 64-column boxes, multicast into the same
/// stage of every block of the cluster, so a stage is free only once the consumers of all `P` blocks
/// have released it (each consumer warp arrives on the "empty" barrier of every block).
#[derive(Clone, Copy)]
pub(crate) struct Pipeline<const S: u32, const C: u32, const P: u32 = 1> {
    /// Shared address of stage 0.
    tiles: u32,
    /// Bytes of one stage.
    stage: u32,
    /// The stages through a generic pointer, for the register loads of A (TF32, [`ASlice`]).
    halves: View<u16>,
    /// The epilogue's staging areas, one per consumer warp ([`store`]).
    staging: View<f32>,
}

impl<const S: u32, const C: u32, const P: u32> Pipeline<S, C, P> {
    /// Rows of the block tile.
    pub(crate) const BM: u32 = WG_ROWS * C;
    /// Arrivals that release a stage: lane 0 of each consumer warp of each block of the cluster.
    const CONSUMER_WARPS: u32 = 4 * C * P;

    /// Carves the pipeline of `bn`-wide tiles out of the block's shared memory and initialises its
    /// barriers (thread 0; `full_arrivals` complete a phase of a stage's "full" barrier: 1 for the
    /// TMA's one producing thread), followed by a block barrier: every thread of the block calls it once.
    ///
    /// # Safety
    /// The launch provides [`config`]`(64·C, bn, S, _)`'s shared bytes; every thread of the block
    /// calls it; with `P > 1` the launch has clusters of `P` blocks, every thread of each calls it
    /// (the barrier is then the cluster's, which publishes the barriers to the peers).
    #[inline(always)]
    pub(crate) unsafe fn setup(bn: u32, full_arrivals: u32) -> Self {
        let stage = stage_bytes(Self::BM, bn);
        let region = S * stage + wgmma::SW128_ATOM_BYTES + BARRIER_BYTES * S + staging_bytes(Self::BM);
        // SAFETY: the launch provides `region` bytes of shared memory (`config`).
        let smem = unsafe { SharedTiles::<u8>::new().tile(region as usize) };
        // SAFETY: `smem` is this block's shared memory.
        let base = unsafe { SharedPtr::new(smem, 0) }.addr();
        let lead = (wgmma::SW128_ATOM_BYTES - base % wgmma::SW128_ATOM_BYTES) % wgmma::SW128_ATOM_BYTES;
        // SAFETY: the stages' S·stage bytes from `lead` (1024-aligned) lie inside the region.
        let halves = unsafe { View::new(smem.ptr(lead as usize).cast::<u16>(), (S * stage / 2) as usize) };
        // The staging follows the stages, 1024-byte aligned (stages of whole atoms): each warp's area
        // is a box the TMA stores from in the 128-byte swizzle. The barriers follow it.
        let staged_at = (lead + S * stage) as usize;
        // SAFETY: staging_bytes(BM) from `staged_at` end at most at the region's end (lead < one atom).
        let staging = unsafe { View::new(smem.ptr(staged_at).cast::<f32>(), (staging_bytes(Self::BM) / 4) as usize) };
        let p = Self { tiles: base + lead, stage, halves, staging };
        const { assert!(staging_bytes(Self::BM).is_multiple_of(wgmma::SW128_ATOM_BYTES)) };
        if thread::thread_idx_x() == 0 {
            for s in 0..S {
                // SAFETY: 8-byte slots after the tiles, inside the region; the barrier below precedes use.
                unsafe {
                    mbarrier::init(p.full(s), full_arrivals);
                    mbarrier::init(p.empty(s), Self::CONSUMER_WARPS);
                }
            }
            // The TMA engine (the async proxy) must see the initialised barriers, and with a
            // cluster so must the peers' arrivals and multicast copies.
            wgmma::fence_proxy_async();
            if P > 1 {
                cluster::fence_mbarrier_init();
            }
        }
        // SAFETY: reached by every thread of the block (of every block of the cluster), once (the
        // caller's contract).
        unsafe {
            if P > 1 {
                cluster::sync();
            } else {
                thread::sync_threads();
            }
        }
        p
    }

    /// Releases stage `s` (lane 0 of a consumer warp, its reads of the stage complete): an arrival
    /// on its "empty" barrier in every block of the cluster.
    ///
    /// # Safety
    /// Lane 0 of a consumer warp, once per consumed step; the stage's `wgmma`s are complete.
    #[inline(always)]
    unsafe fn arrive_empty(self, s: u32) {
        // SAFETY: initialised with 4·C·P arrivals per phase; each consumer warp of each block
        // arrives once per step on each block's barrier; the peers run until their producers have
        // seen every release ([`Pipeline::drain`]).
        unsafe {
            mbarrier::arrive(self.empty(s));
            if P > 1 {
                let rank = cluster::rank();
                for r in (0..P).filter(|&r| r != rank) {
                    mbarrier::arrive_cluster(cluster::map_shared(self.empty(s), r));
                }
            }
        }
    }

    /// The producer's last wait with a cluster: until every stage's last round has been released by
    /// the consumers of every block (`steps` global K-steps loaded in all), so that no peer arrives
    /// on this block's barriers after it exits.
    ///
    /// # Safety
    /// The producing thread, after loading its `steps` steps.
    #[inline(always)]
    pub(crate) unsafe fn drain(self, steps: u32) {
        for g in steps..steps + S {
            // SAFETY: initialised barriers; the phase before round g / S completes once all of the
            // stage's consumers released its last use (a stage never used answers at once).
            unsafe { mbarrier::wait_parity(self.empty(g % S), (g / S + 1) % 2) };
        }
    }

    /// Consumer warpgroup `cw`'s calling warp's staging area for [`store`]: the view, and its shared
    /// address (1024-byte aligned).
    #[inline(always)]
    pub(crate) fn warp_staging(self, cw: u32) -> Staging {
        let warp = cw * 4 + thread::thread_idx_x() % 128 / 32;
        // SAFETY: warp < BM / 16 areas of WARP_STAGE_FLOATS in the staging view.
        let view = unsafe { self.staging.sub((warp * WARP_STAGE_FLOATS) as usize, WARP_STAGE_FLOATS as usize) };
        Staging { view, addr: self.tiles + S * self.stage + warp * WARP_STAGE_FLOATS * 4 }
    }

    /// The stages' bytes as elements of `T` (2 or 4 bytes): a producer that copies the operands
    /// itself (kernel 23) addresses them so.
    #[inline(always)]
    fn stages<T: Copy>(self) -> View<T> {
        let e = core::mem::size_of::<T>();
        // SAFETY: the stages' bytes in this block's shared memory (`halves`), read as T: whole
        // 1024-byte atoms, so T-aligned and a whole number of T.
        unsafe { View::new(self.halves.ptr(0).cast::<T>(), self.halves.len() * 2 / e) }
    }

    /// Stage `s`'s first byte as the destination of `T`-element `cp.async` copies (a producer that
    /// copies the operands itself: kernel 23).
    ///
    /// # Safety
    /// `s < S`; called from this block (its shared memory).
    #[inline(always)]
    pub(crate) unsafe fn stage_ptr<T: Copy + Default>(self, s: u32) -> SharedPtr<T> {
        // SAFETY: stage s starts inside the stages (s < S, the caller's contract).
        unsafe { SharedPtr::new(self.stages::<T>(), (s * self.stage) as usize / core::mem::size_of::<T>()) }
    }

    /// Stores `v` as element `i` (of `T`) of stage `s`: a producer's element-wise copy where rows are
    /// not 16-byte aligned.
    ///
    /// # Safety
    /// `s < S` and `i` inside the stage; no consumer reads the stage until its "full" phase.
    #[inline(always)]
    pub(crate) unsafe fn stage_store<T: Copy>(self, s: u32, i: u32, v: T) {
        // SAFETY: element i of stage s lies in the stages (the caller's contract).
        unsafe { self.stages::<T>().set((s * self.stage) as usize / core::mem::size_of::<T>() + i as usize, v) }
    }

    /// Stage `s`'s "full" barrier: its bytes have landed.
    #[inline(always)]
    pub(crate) fn full(self, s: u32) -> u32 {
        self.tiles + S * self.stage + staging_bytes(Self::BM) + 8 * s
    }

    /// Stage `s`'s "empty" barrier: its consumers are done with it.
    #[inline(always)]
    pub(crate) fn empty(self, s: u32) -> u32 {
        self.tiles + S * self.stage + staging_bytes(Self::BM) + 8 * (S + s)
    }

    /// The producer (one thread): loads K-tiles `first_step .. first_step + steps` of the output tile
    /// at `(row0, col0)` as global K-steps `g0 ..`, each into its stage once the consumers released the
    /// stage's previous round; `depth` says which matrix of a stack the boxes come from ([`Depth`]).
    ///
    /// # Safety
    /// One thread of the block; the maps as [`tma_gemm`] states (of `D`'s rank); the consumers consume
    /// the same global steps in the same order ([`Pipeline::consume`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn produce<O: WgmmaTile, D: Depth>(
        self,
        map_a: *const TensorMap,
        map_b: *const TensorMap,
        row0: u32,
        col0: u32,
        depth: D,
        first_step: u32,
        steps: u32,
        g0: u32,
    ) {
        let elem = core::mem::size_of::<O::Elem>() as u32;
        let bk = ROW_BYTES / elem;
        for t in 0..steps {
            let g = g0 + t;
            let (s, round) = (g % S, g / S);
            let (dst, k0) = (self.tiles + s * self.stage, ((first_step + t) * bk) as i32);
            // SAFETY: the barriers are initialised; the stage is free once its "empty" phase of the
            // previous round completed (all consumer warps released it; a fresh barrier's previous
            // phase counts as complete); the boxes fill exactly the stage's bytes announced on "full"
            // (A's BK × BM, B's BK × bn), at 1024-aligned offsets.
            unsafe {
                mbarrier::wait_parity(self.empty(s), (round + 1) % 2);
                mbarrier::arrive_expect_tx(self.full(s), self.stage);
                depth.load_a(dst, map_a, k0, row0 as i32, self.full(s));
                let b = dst + Self::BM * ROW_BYTES;
                if P > 1 && O::B_K_MAJOR {
                    // `Bᵀ`'s rows shared by the cluster: this block loads its `N / P` of them (the map's
                    // box, `b_box`) into all blocks.
                    const { assert!(P == 1 || !D::STACKED, "a cluster shares the boxes of 2-D maps only") };
                    const { assert!(P == 1 || (O::N / P).is_multiple_of(8), "a share of Bᵀ is whole 8-row swizzle atoms") };
                    let (share, rank) = (O::N / P, cluster::rank());
                    let all = ((1u32 << P) - 1) as u16;
                    tma::load_2d_multicast(b + rank * share * ROW_BYTES, map_b, k0, (col0 + rank * share) as i32, self.full(s), all);
                } else if P > 1 {
                    // B's boxes shared by the cluster: this block loads every P-th into all blocks.
                    const { assert!(P == 1 || !D::STACKED, "a cluster shares the boxes of 2-D maps only") };
                    let (per_row, rank) = (ROW_BYTES / elem, cluster::rank());
                    let all = ((1u32 << P) - 1) as u16;
                    let mut j = rank;
                    while j < O::N.div_ceil(per_row) {
                        tma::load_2d_multicast(b + j * bk * ROW_BYTES, map_b, (col0 + j * per_row) as i32, k0, self.full(s), all);
                        j += P;
                    }
                } else if O::B_K_MAJOR {
                    depth.load_b(b, map_b, k0, col0 as i32, self.full(s));
                } else {
                    let per_row = ROW_BYTES / elem;
                    for j in 0..O::N.div_ceil(per_row) {
                        depth.load_b(b + j * bk * ROW_BYTES, map_b, (col0 + j * per_row) as i32, k0, self.full(s));
                    }
                }
            }
        }
    }

    /// A consumer warpgroup (`cw` < `C`: rows `64·cw ..` of the tile): `acc += ` the products of
    /// global K-steps `g0 .. g0 + steps`, releasing each stage once its `wgmma`s are complete.
    ///
    /// With A from shared memory, one group stays in flight throughout: step `g`'s `wgmma`s are
    /// issued, then the wait for all but one group completes step `g − 1`, whose stage is released.
    /// With A from registers (TF32) the tensor core reads a step's A registers until its group
    /// completes, and ptxas does not keep them for it (measured: with one group in flight the next
    /// step's `ldmatrix` overwrote them, and every multi-step product was wrong), so each step's
    /// group completes before the next step loads A. The other consumer warpgroup's `wgmma`s fill
    /// the tensor core meanwhile.
    ///
    /// # Safety
    /// Warpgroup-uniform: all 128 threads of a consumer warpgroup; the producer loads the same steps.
    #[inline(always)]
    pub(crate) unsafe fn consume<O: WgmmaTile>(self, acc: &mut O::Acc, cw: u32, steps: u32, g0: u32) {
        // SAFETY: forwarded contract.
        unsafe { self.consume_then::<O>(acc, cw, steps, g0, || {}) }
    }

    /// [`Pipeline::consume`], calling `issued` once every step's `wgmma`s are issued and every
    /// stage's bytes have landed, before the last group completes (kernel 31 hands the tensor core to
    /// the other consumer there, so its first products queue behind this one's last).
    ///
    /// # Safety
    /// As [`Pipeline::consume`].
    #[inline(always)]
    pub(crate) unsafe fn consume_then<O: WgmmaTile>(self, acc: &mut O::Acc, cw: u32, steps: u32, g0: u32, issued: impl FnOnce()) {
        // SAFETY (both loops): warpgroup-uniform (the caller's contract; the bounds are uniform);
        // `issue` waits for each stage's bytes; a stage is released, and a step's A registers
        // reused, only after a wait_group shows its wgmmas complete.
        unsafe {
            if O::A_IN_REGISTERS {
                for t in 0..steps {
                    self.issue::<O>(acc, cw, g0 + t);
                    wgmma::wait_group(0);
                    self.release(g0 + t);
                }
                issued();
            } else {
                self.consume_in_flight::<O>(acc, cw, steps, g0, issued);
            }
        }
    }

    /// [`Pipeline::consume`] with A from shared memory: one group in flight throughout. (Written out
    /// rather than through `issue` / `release`: in that form ptxas serialised the 16-bit kernel 15's
    /// `wgmma`s — C7515, "non wgmma instructions defining accumulator registers" — and it ran 2–3 %
    /// slower.)
    ///
    /// # Safety
    /// As [`Pipeline::consume`].
    #[inline(always)]
    unsafe fn consume_in_flight<O: WgmmaTile>(self, acc: &mut O::Acc, cw: u32, steps: u32, g0: u32, issued: impl FnOnce()) {
        let bk = ROW_BYTES / core::mem::size_of::<O::Elem>() as u32;
        let b_step = b_step::<O>();
        let lane0 = thread::thread_idx_x().is_multiple_of(32);
        for t in 0..steps {
            let g = g0 + t;
            let s = g % S;
            let (a, b_desc) = self.operands::<O>(cw, s);
            // SAFETY: warpgroup-uniform (the caller's contract); the stage's bytes have landed once
            // "full" completes its phase of round g / S; the descriptors name 1024-aligned tiles of the
            // region. Step g − 1's stage is released only after wait_group(1) shows its wgmmas complete.
            unsafe {
                mbarrier::wait_parity(self.full(s), (g / S) % 2);
                wgmma::fence();
                for ks in 0..bk / O::K {
                    O::mma(acc, O::a_feed(a, ks), b_desc + ((ks * b_step) >> 4) as u64);
                }
                wgmma::commit_group();
                wgmma::wait_group(1);
                if t > 0 && lane0 {
                    self.arrive_empty((g - 1) % S);
                }
            }
        }
        issued();
        // SAFETY: warpgroup-uniform; every group must land before the accumulators are read, and then
        // the last step's stage is free.
        unsafe {
            wgmma::wait_group(0);
            if steps > 0 && lane0 {
                self.arrive_empty((g0 + steps - 1) % S);
            }
        }
    }

    /// One warpgroup's sums of both 64-row slices of a 128-row tile (`C = 2`, A from shared memory):
    /// each step's `wgmma`s for slice 0 into `acc[0]` and slice 1 into `acc[1]` as one group, one
    /// group in flight as in [`Pipeline::consume`], each step's stage released with two arrivals per
    /// warp (the "empty" barrier counts the four warps of each slice); `issued` runs once every step's
    /// `wgmma`s are issued, before the last group completes (kernel 31's 128-row units).
    ///
    /// # Safety
    /// As [`Pipeline::consume`]; `C = 2` and A read from shared memory (not TF32); the block's other
    /// consumer warpgroup consumes none of these steps.
    #[inline(always)]
    pub(crate) unsafe fn consume_both_then<O: WgmmaTile>(self, acc: &mut [O::Acc; 2], steps: u32, g0: u32, issued: impl FnOnce()) {
        let bk = ROW_BYTES / core::mem::size_of::<O::Elem>() as u32;
        let b_step = b_step::<O>();
        let lane0 = thread::thread_idx_x().is_multiple_of(32);
        let [acc0, acc1] = acc;
        for t in 0..steps {
            let g = g0 + t;
            let s = g % S;
            let (a0, b_desc) = self.operands::<O>(0, s);
            let (a1, _) = self.operands::<O>(1, s);
            // SAFETY: warpgroup-uniform (the caller's contract); the stage's bytes have landed once
            // "full" completes its phase of round g / S; step g − 1's stage is released only after
            // wait_group(1) shows its wgmmas complete, with both slices' arrivals.
            unsafe {
                mbarrier::wait_parity(self.full(s), (g / S) % 2);
                wgmma::fence();
                for ks in 0..bk / O::K {
                    let b = b_desc + ((ks * b_step) >> 4) as u64;
                    O::mma(acc0, O::a_feed(a0, ks), b);
                    O::mma(acc1, O::a_feed(a1, ks), b);
                }
                wgmma::commit_group();
                wgmma::wait_group(1);
                if t > 0 && lane0 {
                    self.arrive_empty((g - 1) % S);
                    self.arrive_empty((g - 1) % S);
                }
            }
        }
        issued();
        // SAFETY: warpgroup-uniform; every group lands before the accumulators are read, and then the
        // last step's stage is free.
        unsafe {
            wgmma::wait_group(0);
            if steps > 0 && lane0 {
                self.arrive_empty((g0 + steps - 1) % S);
                self.arrive_empty((g0 + steps - 1) % S);
            }
        }
    }

    /// Global K-step `g` of consumer warpgroup `cw`: waits until its stage is "full", forms A's
    /// operands (for TF32: loaded into registers and rounded), then `wgmma.fence` (ordering those
    /// registers and the accumulators before the products), the four `wgmma`s and a commit.
    ///
    /// # Safety
    /// Warpgroup-uniform; the producer loads step `g`; the stage is not released before the group
    /// completes.
    #[inline(always)]
    pub(crate) unsafe fn issue<O: WgmmaTile>(self, acc: &mut O::Acc, cw: u32, g: u32) {
        // Four instructions per K-step for every tile (64 BF16/FP16 with k16, 32 TF32 with k8).
        const { assert!(ROW_BYTES / core::mem::size_of::<O::Elem>() as u32 / O::K == K_INSTRUCTIONS) };
        let b_step = b_step::<O>();
        let s = g % S;
        let (a, b_desc) = self.operands::<O>(cw, s);
        // SAFETY: the stage's bytes have landed once "full" completes its phase of round g / S; the
        // slice and the descriptors name 1024-aligned tiles of the region; warpgroup-uniform (the
        // caller's contract). Register-fed A: ptxas does not keep the registers for the tensor core's
        // asynchronous read, so nothing may be written into them until the wait_group after this
        // step (the caller's), and between the four wgmmas nothing writes them either (only the
        // uniform B descriptors change): a property of the compiled code, which `tests/ptx.rs`
        // (`register_fed_wgmma_keeps_its_a_registers`) checks in the SASS.
        unsafe {
            mbarrier::wait_parity(self.full(s), (g / S) % 2);
            let feeds: [O::AFeed; K_INSTRUCTIONS as usize] = core::array::from_fn(|ks| O::a_feed(a, ks as u32));
            wgmma::fence();
            for (ks, &feed) in feeds.iter().enumerate() {
                O::mma(acc, feed, b_desc + ((ks as u32 * b_step) >> 4) as u64);
            }
            wgmma::commit_group();
        }
    }

    /// Stage `s`'s operands for consumer warpgroup `cw`: its 64-row A slice and B's descriptor (a
    /// `BK × N` N-major tile in 64-column blocks, or K-major `Bᵀ`).
    #[inline(always)]
    pub(crate) fn operands<O: WgmmaTile>(self, cw: u32, s: u32) -> (ASlice, u64) {
        let elem = core::mem::size_of::<O::Elem>() as u32;
        let b_lbo = if O::B_K_MAJOR { 16 } else { ROW_BYTES / elem * ROW_BYTES };
        let at = self.tiles + s * self.stage;
        let slice = cw * 64 * ROW_BYTES;
        let a = ASlice::new(at + slice, self.halves, ((s * self.stage + slice) / 2) as usize);
        (a, wgmma::descriptor_sw128(at + Self::BM * ROW_BYTES, b_lbo, wgmma::SW128_ATOM_BYTES))
    }

    /// Releases global K-step `g`'s stage: lane 0 of each consumer warp arrives on its "empty"
    /// barrier (`4·C` arrivals per phase).
    ///
    /// # Safety
    /// Warpgroup-uniform; step `g`'s `wgmma`s are complete.
    #[inline(always)]
    pub(crate) unsafe fn release(self, g: u32) {
        if thread::thread_idx_x().is_multiple_of(32) {
            // SAFETY: lane 0 of a consumer warp, once per step; the step's wgmmas are complete.
            unsafe { self.arrive_empty(g % S) };
        }
    }
}

/// Columns of the output tile a consumer warp stages at a time in the epilogue ([`store`]).
pub(crate) const STAGE_COLS: u32 = 32;
/// Floats of one consumer warp's staging area: its 16 rows × [`STAGE_COLS`] columns.
const WARP_STAGE_FLOATS: u32 = 16 * STAGE_COLS;

/// Shared bytes of the epilogue's staging for a `bm`-row tile: one [`WARP_STAGE_FLOATS`] area per
/// consumer warp (16 rows each).
pub(crate) const fn staging_bytes(bm: u32) -> u32 {
    bm / 16 * WARP_STAGE_FLOATS * 4
}

/// `C`'s map for the stores of a block of `NC` consumer warpgroups: the TMA stores the tiles of two
/// (0.79–0.87 of the threads' stores' time on shallow K, `docs/results/2026-12-04-stream-k-fixup/tma-store-2004287`);
/// one warpgroup's tiles (64 rows) ran 1.06× slower so, and three have no registers to spare for
/// it (ptxas spilled 48 bytes): their threads store.
#[inline(always)]
pub(crate) fn c_map_for<const NC: u32>(map_c: *const TensorMap) -> *const TensorMap {
    if NC == 2 {
        map_c
    } else {
        core::ptr::null()
    }
}

/// Which matrix of a stack a piece of work reads and writes: none ([`Flat`], 2-D maps and one `C`), or
/// one layer of 3-D maps and its own rows of `C` (kernel 26's `Stacked`: the batch of a strided-batched
/// product, the group of a grouped one).
pub trait Depth: Copy {
    /// Whether the maps are 3-D.
    const STACKED: bool;

    /// Loads A's box at `(k0, row0)` ([`tma::load_2d`]'s contract).
    ///
    /// # Safety
    /// As [`tma::load_2d`], `map` of this depth's rank.
    unsafe fn load_a(self, dst: u32, map: *const TensorMap, k0: i32, row0: i32, bar: u32);

    /// Loads B's box at `(c0, c1)` ([`tma::load_2d`]'s contract).
    ///
    /// # Safety
    /// As [`tma::load_2d`], `map` of this depth's rank.
    unsafe fn load_b(self, dst: u32, map: *const TensorMap, c0: i32, c1: i32, bar: u32);

    /// Where the piece's output lies in `C` (an `m`-row product's): the element its matrix starts
    /// at, and the rows it may store below.
    fn output(self, m: u32) -> (usize, u32);
}

/// 2-D maps, one `C` of `m` rows.
#[derive(Clone, Copy)]
pub struct Flat;

impl Depth for Flat {
    const STACKED: bool = false;

    #[inline(always)]
    unsafe fn load_a(self, dst: u32, map: *const TensorMap, k0: i32, row0: i32, bar: u32) {
        // SAFETY: forwarded contract.
        unsafe { tma::load_2d(dst, map, k0, row0, bar) }
    }

    #[inline(always)]
    unsafe fn load_b(self, dst: u32, map: *const TensorMap, c0: i32, c1: i32, bar: u32) {
        // SAFETY: forwarded contract.
        unsafe { tma::load_2d(dst, map, c0, c1, bar) }
    }

    #[inline(always)]
    fn output(self, m: u32) -> (usize, u32) {
        (0, m)
    }
}

/// The launch arguments of every TMA entry (kernels 15, 16, 22, 24), in the entries' order: A's and
/// B's tensor maps, `C`'s (or null: the threads store), `C`, the stream-K kernels' counters (or
/// null), and the shape.
#[derive(Clone, Copy)]
pub struct TmaArgs {
    pub map_a: *const TensorMap,
    pub map_b: *const TensorMap,
    pub map_c: *const TensorMap,
    pub c: *mut f32,
    pub flags: *mut u32,
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

/// A consumer warp's staging area: the floats, and their shared address for the TMA.
#[derive(Clone, Copy)]
pub(crate) struct Staging {
    pub(crate) view: View<f32>,
    pub(crate) addr: u32,
}

/// Where accumulator `(r, col)` (`r` < 16, `col` < [`STAGE_COLS`]) of a warp's chunk lies in its
/// staging area: rows of 32 floats (128 bytes) whose 4-column (16-byte) groups are permuted by
/// `r % 8` — the TMA's 128-byte swizzle on a 1024-byte aligned area, so that a [`tma::store_2d`]
/// reads the chunk as it is; the fragments' pair writes (eight rows, the same columns) land in eight
/// different groups, all 32 banks, and a row's reads stay a permutation of them.
#[inline(always)]
const fn staged(r: u32, col: u32) -> usize {
    (r * STAGE_COLS + (((col / 4) ^ (r % 8)) * 4) + col % 4) as usize
}

/// Stores consumer warpgroup `cw`'s accumulators of the output tile at `(row0, col0)` into `c`
/// (`m × n`, row-major), or with `accumulate` (a split of K, kernel 16) adds them atomically; only
/// in-range elements.
///
/// Each warp stages its 16 rows through shared memory ([`staged`]), [`STAGE_COLS`] columns at a
/// time, then stores them by rows: consecutive lanes write consecutive columns, 16 bytes each where
/// `n` is a multiple of 4 (rows 16-byte aligned), 8 where it is even, 4 otherwise (adds alike:
/// `red.global.add.v4.f32`, `.v2`, scalar). The fragments themselves hold column pairs of eight rows per instruction,
/// which with odd `n` could only be stored element by element: Nsight Compute measured that epilogue
/// at 0.66 TB/s (12540×4297×16 BF16, L2-bound at 69 %, DRAM at 15 %).
///
/// # Safety
/// `c` holds `m·n` floats; `stage` is this warp's [`WARP_STAGE_FLOATS`]-float area of shared memory
/// (16-byte aligned) and no other warp's; called by the 128 threads of a consumer warpgroup after
/// [`Pipeline::consume`], converged.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn store<O: WgmmaTile>(
    acc: &O::Acc,
    c: View<f32>,
    map_c: *const TensorMap,
    staging: Staging,
    m: u32,
    n: u32,
    row0: u32,
    col0: u32,
    cw: u32,
    accumulate: bool,
) {
    if accumulate {
        // C's zeroing may still run (the host queues a split launch as its dependent).
        crate::device::dependent_launch::wait_for_prior_grids();
    }
    let wtid = thread::thread_idx_x() % 128;
    let lane = wtid % 32;
    let stage = staging.view;
    // This warp's rows of the tile: 16 from `first`.
    let first = row0 + cw * WG_ROWS + 16 * (wtid / 32);
    // Stored by the TMA where C has a map (rows of whole 16-byte units) and the tile is stored, not
    // added.
    let by_tma = !map_c.is_null() && !accumulate;
    let width = if n.is_multiple_of(4) {
        4
    } else if n.is_multiple_of(2) {
        2
    } else {
        1
    };
    // Accumulators 16j .. 16j + 16 are columns 32j .. 32j + 32 (`acc_position`), as whole chunks: no
    // index can fail, so no bounds-check branch (a panic call) enters the kernel. One loop per path,
    // each simple enough to unroll: the accumulators stay in registers.
    let chunks = acc.as_ref().as_chunks::<16>().0;
    if by_tma {
        for (j, chunk) in chunks.iter().enumerate() {
            // SAFETY: this warp's area, the previous chunk read out of it (the wait below).
            unsafe { stage_chunk(chunk, lane, stage) };
            // SAFETY: every lane's writes fenced for the copy engine, then the warp's barrier; one lane
            // copies the staged 16 × 32 box (the TMA drops what lies outside C) and waits until it
            // has read the area before the warp writes the next chunk into it.
            unsafe {
                tma::fence_shared_to_async();
                thread::sync_warp();
                if lane == 0 {
                    tma::store_2d(map_c, (col0 + STAGE_COLS * j as u32) as i32, first as i32, staging.addr);
                    tma::commit_stores();
                    tma::wait_stores_read();
                }
                thread::sync_warp();
            }
        }
        return;
    }
    for (j, chunk) in chunks.iter().enumerate() {
        // SAFETY: this warp's area, the previous chunk read out of it (the barrier below).
        unsafe { stage_chunk(chunk, lane, stage) };
        // SAFETY: every lane of the warp, once per chunk (the loop is warp-uniform).
        unsafe { thread::sync_warp() };
        let col = col0 + STAGE_COLS * j as u32;
        // SAFETY: the area holds the chunk (the barrier above); c as the caller states; `width`
        // divides n.
        unsafe {
            match width {
                4 => store_rows::<4>(c, stage, m, n, first, col, accumulate),
                2 => store_rows::<2>(c, stage, m, n, first, col, accumulate),
                _ => store_rows::<1>(c, stage, m, n, first, col, accumulate),
            }
        }
        // SAFETY: as above; the next chunk overwrites the area only after every lane read it.
        unsafe { thread::sync_warp() };
    }
}

/// Stores consumer warpgroup `cw`'s accumulators of the output tile at `(row0, col0)` into `c`
/// (`m × n` 16-bit bit patterns, row-major: FP16 where `F16`, BF16 otherwise), each rounded to
/// nearest once; only in-range elements. As [`store`]'s threads store: each warp stages its 16 rows
/// as `f32` ([`staged`]), then each lane rounds `W` consecutive columns and writes them in one store
/// — 8 bytes where `n` is a multiple of 4, 2 bytes an element otherwise (rows of odd length are not
/// 4-byte aligned).
///
/// # Safety
/// `c` holds `m·n` 16-bit elements; otherwise as [`store`] (no `accumulate`: 16-bit partial sums
/// are not added).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn store_half<O: WgmmaTile, const F16: bool>(
    acc: &O::Acc,
    c: View<u16>,
    staging: Staging,
    m: u32,
    n: u32,
    row0: u32,
    col0: u32,
    cw: u32,
) {
    let wtid = thread::thread_idx_x() % 128;
    let lane = wtid % 32;
    let stage = staging.view;
    let first = row0 + cw * WG_ROWS + 16 * (wtid / 32);
    let chunks = acc.as_ref().as_chunks::<16>().0;
    for (j, chunk) in chunks.iter().enumerate() {
        // SAFETY: this warp's area, the previous chunk read out of it (the barrier below).
        unsafe { stage_chunk(chunk, lane, stage) };
        // SAFETY: every lane of the warp, once per chunk (the loop is warp-uniform).
        unsafe { thread::sync_warp() };
        let col = col0 + STAGE_COLS * j as u32;
        // SAFETY: the area holds the chunk (the barrier above); c as the caller states.
        unsafe {
            if n.is_multiple_of(4) {
                store_rows_half::<4, F16>(c, stage, m, n, first, col);
            } else {
                store_rows_half::<1, F16>(c, stage, m, n, first, col);
            }
        }
        // SAFETY: as above; the next chunk overwrites the area only after every lane read it.
        unsafe { thread::sync_warp() };
    }
}

/// One staged chunk of [`store_half`]: the warp's 16 rows × [`STAGE_COLS`] columns from
/// `(first, col)`, `W` consecutive columns per lane (4 or 1).
///
/// # Safety
/// As [`store_half`], with the chunk staged; `n` a multiple of `W`.
#[inline(always)]
unsafe fn store_rows_half<const W: u32, const F16: bool>(c: View<u16>, stage: View<f32>, m: u32, n: u32, first: u32, col: u32) {
    use crate::device::math::{f32_to_bf16_bits, f32_to_f16_bits, f32x4_to_bf16x4, f32x4_to_f16x4};
    let round = if F16 { f32_to_f16_bits } else { f32_to_bf16_bits };
    let round4 = if F16 { f32x4_to_f16x4 } else { f32x4_to_bf16x4 };
    // SAFETY: `at` names W elements in range of c, 2·W-byte aligned (as the allocation is), `from`
    // W staged floats aligned alike (`for_each_staged_row`'s contract).
    for_each_staged_row::<W>(m, n, first, col, |at, from| unsafe {
        if W == 4 {
            c.set4(at, Half4(round4(stage.get4(from).0)));
        } else {
            c.set(at, round(stage.get(from)));
        }
    });
}

/// Stores consumer warpgroup `cw`'s accumulators of the output tile at `(row0, col0)` into `c`
/// (`m × n` elements, row-major, of the type `out` names: `f32`, BF16 or FP16 as
/// `k27_fused::out`'s codes), each finished as `act(α·sum + bias)` ([`Fused`]) and then rounded
/// once; only in-range elements. As [`store`]'s threads store, one chunk loop for every output type
/// (`out` is branched on per row write: three loops would each unroll the accumulators, and LLVM then
/// keeps them in local memory): 4 consecutive columns a lane where `n` is a multiple of 4, 1 otherwise.
///
/// # Safety
/// `c` holds `m·n` elements of `out`'s type; `fused` was made for the `m × n` output; otherwise as
/// [`store`] (no `accumulate`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn store_finished<O: WgmmaTile, const PREFETCH: bool>(
    acc: &O::Acc,
    c: *mut f32,
    staging: Staging,
    (m, n): (u32, u32),
    (row0, col0): (u32, u32),
    cw: u32,
    out: u32,
    finish: (Fused, f32),
) {
    let wtid = thread::thread_idx_x() % 128;
    let lane = wtid % 32;
    let stage = staging.view;
    let first = row0 + cw * WG_ROWS + 16 * (wtid / 32);
    let len = (m * n) as usize;
    // SAFETY: the caller's C, as floats or as 16-bit elements (the one `out` names is written).
    let (c32, c16) = unsafe { (View::new(c, len), View::new(c.cast::<u16>(), len)) };
    // 4 consecutive columns a lane where rows are 16-byte aligned, else 1: this lane's column in
    // every chunk is `chunk's first + cc`.
    let wide = n.is_multiple_of(4);
    let cc = if wide { 4 * (lane % (STAGE_COLS / 4)) } else { lane };
    // With `PREFETCH`, the column biases of a chunk are loaded while the chunk before it is finished:
    // each chunk waits on its own loads otherwise, 8 global-memory latencies a 256-column tile
    // (kernel 27's 128×256 tile at 0.885–0.966 of its time with bias and GELU; kernel 31, whose store overlaps the
    // other warpgroup's `wgmma`s, ran 1–13 % slower with it and loads them as it goes).
    let bias_from = |col: u32| -> [f32; 4] {
        if col >= n {
            return [0.0; 4];
        }
        // SAFETY: col < n, and with `wide` col and n multiples of 4: col + 4 <= n.
        unsafe {
            if wide {
                finish.0.column_bias::<4>(col)
            } else {
                [finish.0.column_bias::<1>(col)[0], 0.0, 0.0, 0.0]
            }
        }
    };
    let chunks = acc.as_ref().as_chunks::<16>().0;
    let mut bias = if PREFETCH { bias_from(col0 + cc) } else { [0.0; 4] };
    for (j, chunk) in chunks.iter().enumerate() {
        // SAFETY: this warp's area, the previous chunk read out of it (the barrier below).
        unsafe { stage_chunk(chunk, lane, stage) };
        // SAFETY: every lane of the warp, once per chunk (the loop is warp-uniform).
        unsafe { thread::sync_warp() };
        let col = col0 + STAGE_COLS * j as u32;
        let next = if PREFETCH && j + 1 < chunks.len() { bias_from(col + STAGE_COLS + cc) } else { [0.0; 4] };
        // SAFETY: the area holds the chunk (the barrier above); C and the epilogue as the caller states.
        unsafe {
            if wide {
                store_rows_finished::<4>((c32, c16), stage, (m, n), (first, col), PREFETCH.then_some(bias), out, finish);
            } else {
                store_rows_finished::<1>((c32, c16), stage, (m, n), (first, col), PREFETCH.then_some([bias[0]]), out, finish);
            }
        }
        bias = next;
        // SAFETY: as above; the next chunk overwrites the area only after every lane read it.
        unsafe { thread::sync_warp() };
    }
}

/// One staged chunk of [`store_finished`]: `W` consecutive columns a lane (4 or 1), the same columns
/// on each of the lane's rows — their biases are read once (`bias`, loaded before, or here when
/// `None`), a row's once per row.
///
/// # Safety
/// As [`store_finished`], with the chunk staged; `n` a multiple of `W`.
#[inline(always)]
unsafe fn store_rows_finished<const W: usize>(
    (c32, c16): (View<f32>, View<u16>),
    stage: View<f32>,
    (m, n): (u32, u32),
    (first, col): (u32, u32),
    bias: Option<[f32; W]>,
    out: u32,
    (fused, alpha): (Fused, f32),
) {
    use crate::device::math::{f32x2_to_bf16x2, f32x2_to_f16x2, fma};
    use crate::device::unroll::{keep_rolled, opaque};
    use crate::matmul::k27_fused::out as format;
    let w = W as u32;
    let lane = thread::thread_idx_x() % 32;
    let per_row = STAGE_COLS / w;
    let cc = w * (lane % per_row);
    let col = col + cc;
    if col >= n {
        return;
    }
    // SAFETY: col + W <= n (n a multiple of W).
    let bias = bias.unwrap_or_else(|| unsafe { fused.column_bias::<W>(col) });
    // Two finished values rounded and packed at once (one `cvt` for both).
    let pack = |lo: f32, hi: f32| if out == format::F16 { f32x2_to_f16x2(lo, hi) } else { f32x2_to_bf16x2(lo, hi) };
    // `for_each_staged_row`'s walk, kept a loop: unrolled, its body (the activation inlined, once
    // per element) made the chunk loop too large to unroll, and the accumulators went to local memory.
    let mut q = 0;
    while q < opaque(16 / w) {
        keep_rolled();
        let r = w * q + lane / per_row;
        let row = first + r;
        q += 1;
        if row >= m {
            continue;
        }
        // SAFETY: row < m.
        let row_bias = unsafe { fused.row_bias(row) };
        let (at, from) = ((row * n + col) as usize, staged(r, cc));
        // SAFETY: `at` names W elements in range of C, aligned to W elements (as the allocation
        // is; n a multiple of W), `from` W staged floats aligned alike (`staged`).
        unsafe {
            if W == 4 {
                let v = stage.get4(from).0;
                let v: [f32; 4] = core::array::from_fn(|i| fused.activate_inline(fma(alpha, v[i], bias[i] + row_bias)));
                if out == format::F32 {
                    c32.set4(at, Float4(v));
                } else {
                    let (lo, hi) = (pack(v[0], v[1]), pack(v[2], v[3]));
                    c16.set4(at, Half4([lo as u16, (lo >> 16) as u16, hi as u16, (hi >> 16) as u16]));
                }
            } else {
                let v = fused.activate_inline(fma(alpha, stage.get(from), bias[0] + row_bias));
                if out == format::F32 {
                    c32.set(at, v);
                } else {
                    c16.set(at, pack(v, 0.0) as u16);
                }
            }
        }
    }
}

/// The in-range pieces of one staged chunk, as [`store_rows`] and [`store_rows_half`] write them:
/// the warp's 16 rows × [`STAGE_COLS`] columns from `(first, col)`, `W` rows per pass and `W`
/// consecutive columns per lane; `write(at, from)` gets the element index in `C` (`m × n`,
/// row-major; in range, and with `n` a multiple of `W` the first of `W` in range and `W`-aligned) and
/// the staged index ([`staged`]: `W`-aligned within the area).
#[inline(always)]
fn for_each_staged_row<const W: u32>(m: u32, n: u32, first: u32, col: u32, mut write: impl FnMut(usize, usize)) {
    let lane = thread::thread_idx_x() % 32;
    let per_row = STAGE_COLS / W;
    for q in 0..16 / W {
        let (r, cc) = (W * q + lane / per_row, W * (lane % per_row));
        let (gr, gc) = (first + r, col + cc);
        if gr >= m || gc >= n {
            continue;
        }
        write((gr * n + gc) as usize, staged(r, cc));
    }
}

/// Writes this lane's 16 accumulators of one chunk (32 columns of the warp's 16 rows) into the warp's
/// staging area at their [`staged`] places.
///
/// # Safety
/// `stage` is this warp's staging area, which no lane of the warp reads meanwhile.
#[inline(always)]
unsafe fn stage_chunk(chunk: &[f32; 16], lane: u32, stage: View<f32>) {
    for (p, &[v0, v1]) in chunk.as_chunks::<2>().0.iter().enumerate() {
        let (r, col) = wgmma::acc_position(lane, 2 * p as u32);
        let (v0, v1) = (wgmma::settled(v0), wgmma::settled(v1));
        // SAFETY: r < 16, col + 1 < 32 and col even: in the area, 8-byte aligned (the swizzle moves
        // whole 4-column groups).
        unsafe { stage.set2(staged(r, col), Float2([v0, v1])) };
    }
}

/// One staged chunk of [`store`]: the warp's 16 rows × [`STAGE_COLS`] columns from `(first, col)`,
/// `W` rows per instruction and `W` consecutive columns per lane.
///
/// # Safety
/// As [`store`], with the chunk staged; `n` a multiple of `W`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn store_rows<const W: u32>(c: View<f32>, stage: View<f32>, m: u32, n: u32, first: u32, col: u32, accumulate: bool) {
    // SAFETY: `at` names W elements in range of c, W·4-byte aligned (as the allocation is), `from` W
    // staged floats aligned alike (`for_each_staged_row`'s contract); the caller's for the rest.
    for_each_staged_row::<W>(m, n, first, col, |at, from| unsafe {
        match (W, accumulate) {
            (4, true) => atomic::add_f32x4(c, at, stage.get4(from).0),
            (4, false) => c.set4(at, stage.get4(from)),
            (2, true) => atomic::add_f32x2(c, at, stage.get2(from).0),
            (2, false) => c.set2(at, stage.get2(from)),
            (_, true) => atomic::add_f32(c, at, stage.get(from)),
            (_, false) => c.set(at, stage.get(from)),
        }
    });
}

/// `C = A·B` with `wgmma` tile `O`, `NC` consumer warpgroups (block tile `64·NC × O::N`) and `S`
/// stages, one output tile per
/// block (see the module documentation); A and B are read through the tensor maps, which the host
/// built with [`a_box`] / [`b_box`] boxes and the 128-byte swizzle over `A` (`m × k`, row-major) and
/// `B` (`k × n` row-major, or the prepared `Bᵀ`, `n × k`, when `O::B_K_MAJOR`).
///
/// # Safety
/// `map_a`, `map_b` are valid tensor maps in global memory as described, over buffers of `m·k` and
/// `k·n` elements that stay unchanged during the launch; `c` holds `m·n` floats; the launch has
/// [`config`]`(64·NC, O::N, S, size_of::<O::Elem>())`'s threads and shared bytes and a
/// `⌈n/N⌉ × ⌈m/(64·NC)⌉` grid; sm_90a; `args.map_c` is null or a tensor map of `C` ([`c_box`] boxes, the
/// 128-byte swizzle, `f32`), through which the tiles are stored. `args.flags` is unused: every TMA entry
/// takes the stream-K kernels' counters (kernels 22 and 24), so that the host launches them all alike.
#[inline(always)]
pub unsafe fn tma_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs) {
    let TmaArgs { map_a, map_b, map_c, c, m, n, k, .. } = args;
    // SAFETY: the launch's shared memory (the caller's contract); every thread calls it.
    let pipe = unsafe { Pipeline::<S, NC>::setup(O::N, 1) };
    // After the setup, which so overlaps the end of the launch before (never the zeroing's dependent).
    crate::device::dependent_launch::follow_prior(false);
    let steps = k.div_ceil(ROW_BYTES / core::mem::size_of::<O::Elem>() as u32);
    let (row0, col0) = (thread::block_idx_y() * Pipeline::<S, NC>::BM, thread::block_idx_x() * O::N);
    let (tid, wg) = (thread::thread_idx_x(), thread::thread_idx_x() / 128);
    if wg == 0 {
        // SAFETY: warpgroup 0, all 128 threads, converged (the branch is warpgroup-uniform).
        unsafe { release_producer_registers::<NC>() };
        if tid == 0 {
            // SAFETY: one thread; the maps are valid (the caller's contract); the consumers consume
            // the same steps.
            unsafe {
                tma::prefetch(map_a);
                tma::prefetch(map_b);
                pipe.produce::<O, Flat>(map_a, map_b, row0, col0, Flat, 0, steps, 0);
            }
        }
        return;
    }
    // SAFETY: each consumer warpgroup, all 128 threads, converged.
    unsafe { claim_consumer_registers::<NC>() };
    let mut acc = O::ZERO;
    // SAFETY: warpgroup-uniform; the producer loads these steps; c holds m·n floats.
    unsafe {
        pipe.consume::<O>(&mut acc, wg - 1, steps, 0);
        store::<O>(
            &acc,
            View::new(c, (m * n) as usize),
            c_map_for::<NC>(map_c),
            pipe.warp_staging(wg - 1),
            m,
            n,
            row0,
            col0,
            wg - 1,
            false,
        );
    }
}

/// Declares a TMA kernel entry (kernels 15 and 16) and its launch constant: `$gemm` is the generic
/// kernel (`tma_gemm`, `persistent_gemm`); the calling module's `config` gives the launch.
macro_rules! tma_entry {
    ($gemm:ident, $name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, $doc:literal) => {
        tma_entry!($gemm, $name, $config, $tile, $elem, stages $s, consumers 2, $doc);
    };
    ($gemm:ident, $name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, consumers $c:literal, $doc:literal) => {
        tma_entry!($gemm, $name, $config, $tile, $elem, stages $s, consumers $c, launch config, $doc);
    };
    ($gemm:ident, $name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, launch $launch:ident, $doc:literal) => {
        tma_entry!($gemm, $name, $config, $tile, $elem, stages $s, consumers 2, launch $launch, $doc);
    };
    // `launch`: the module's function that gives the entry's `TileConfig` (`config` unless named).
    ($gemm:ident, $name:ident, $config:ident, $tile:ident, $elem:ty, stages $s:literal, consumers $c:literal, launch $launch:ident, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig =
            $launch(WG_ROWS * $c, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, core::mem::size_of::<$elem>() as u32);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            #[doc = concat!("As [`", stringify!($gemm), "`], with the launch its `TileConfig` constant states.")]
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
            ) {
                // SAFETY: forwarded contract.
                unsafe { $gemm::<super::k14_wgmma::$tile, $s, $c>(TmaArgs { map_a, map_b, map_c, c, flags, m, n, k }) }
            }
        }
    };
}

tma_entry!(tma_gemm, matmul_tma_bf16_128x256, TMA_BF16_128X256, Bf16N256, u16, stages 4,
    "Kernel 15 on BF16 inputs, `f32` output (sm_90a): 128×256×64 tiles, TMA producer + 2 `m64n256k16` \
     consumer warpgroups, 4 stages (193 KiB).");
tma_entry!(tma_gemm, matmul_tma_f16_128x256, TMA_F16_128X256, F16N256, u16, stages 4,
    "Kernel 15 on FP16 inputs, `f32` output (sm_90a): as [`matmul_tma_bf16_128x256`].");
tma_entry!(tma_gemm, matmul_tma_tf32_128x256, TMA_TF32_128X256, Tf32RegsN256, f32, stages 4,
    "Kernel 15 in TF32, `f32` output (sm_90a): `a` as the caller holds it (each consumer loads its A \
     fragments into registers with `ldmatrix` and rounds them, `wgmma` with A from registers), `b` prepared by the host as `Bᵀ` rounded (`n × k`, [`crate::tf32_operands`]); \
     128×256×32 tiles, `m64n256k8`, 4 stages.");
tma_entry!(tma_gemm, matmul_tma_bf16_128x128, TMA_BF16_128X128, Bf16N128, u16, stages 6,
    "Kernel 15 on BF16 inputs, `f32` output (sm_90a), 128×128×64 tiles (`m64n128k16`), 6 stages: one tile \
     per block, for products of a few dozen to a few hundred tiles, where kernel 16's unit loop costs more \
     than it hides.");
tma_entry!(tma_gemm, matmul_tma_f16_128x128, TMA_F16_128X128, F16N128, u16, stages 6,
    "Kernel 15 on FP16 inputs, `f32` output (sm_90a), 128×128 tiles: as [`matmul_tma_bf16_128x128`].");
tma_entry!(tma_gemm, matmul_tma_bf16_64x128, TMA_BF16_64X128, Bf16N128, u16, stages 9, consumers 1,
    "Kernel 15 on BF16 inputs, `f32` output (sm_90a), 64×128×64 tiles (one consumer warpgroup), 9 stages: \
     one tile per block, for small products (512³–1024³: 16–64 tiles of 128×128).");
tma_entry!(tma_gemm, matmul_tma_f16_64x128, TMA_F16_64X128, F16N128, u16, stages 9, consumers 1,
    "Kernel 15 on FP16 inputs, `f32` output (sm_90a), 64×128 tiles: as [`matmul_tma_bf16_64x128`].");
tma_entry!(tma_gemm, matmul_tma_tf32_64x128, TMA_TF32_64X128, Tf32RegsN128, f32, stages 9, consumers 1,
    "Kernel 15 in TF32 (A rounded in registers, `Bᵀ` prepared: as [`matmul_tma_tf32_128x256`]), `f32` \
     output (sm_90a), 64×128×32 tiles, 9 stages.");
