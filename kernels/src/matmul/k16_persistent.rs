//! Kernel 16: kernel 15 made persistent — one block per SM walks a list of output tiles, so the TMA
//! producer loads the next tile while the consumers store the last one (sm_90a).
//!
//! **What it fixes in kernel 15**: there each block computes one tile and exits. With 193 KiB of
//! stages only one block fits an SM, so while a block's consumers write their 128×256 floats (and
//! while the next block starts, initialises its barriers and waits for its first bytes) the SM's
//! tensor cores idle: at 4096³ that is a few percent of every tile's time. Here the grid is one block
//! per SM; each block computes tiles `blockIdx.x, blockIdx.x + gridDim.x, …` and the pipeline's
//! global K-step count runs on across tiles, so the producer fills the stages for tile `i + 1` as the
//! consumers release them at the end of tile `i` and during its epilogue.
//!
//! **Tile order**: tiles are numbered in groups of [`GROUP_M`] tile rows, column by column within a
//! group (the order of CUTLASS's and Triton's grouped rasterisation): the blocks running at one time
//! share a few bands of A and B, which stay in L2.
//!
//! **The narrow tile** (`*_128x128` entries): the same kernel on 128×128 tiles (`m64n128`, 64
//! accumulators per consumer thread), for the shapes where 128×256 tiles waste the GPU: outputs of few
//! tiles (512³ is 8 tiles of 128×256 for 132 SMs, 16 of 128×128) and outputs at most 128 columns wide
//! (N = 128 fills only half of every 256-wide tile). A stage is then 32 KiB instead of 48, so 6 stages
//! fit the 227 KiB of one block instead of 4.
//!
//! **The middle tile** (`*_128x192` entries, `m64n192k16`, 96 accumulators per consumer thread, 5
//! stages): a third tile count per shape, so that one of the three fills the last wave well (3072³:
//! 288 tiles of 128×256 are 2.2 waves of 132 SMs, 576 of 128×128 4.4, 384 of 128×192 2.9).
//!
//! **The 64-row tiles** (`*_64x128`, `*_64x256`): one consumer warpgroup instead of two (256 threads,
//! no `setmaxnreg`: 255 registers each), for outputs of few rows (an LLM's decode: M ≤ 64 against
//! large weights reads B once in 64-row tiles, not twice the work in 128-row ones) and outputs of
//! few 128-row tiles (1024³: 64 tiles of 128×128 on 132 SMs, 128 of 64×128). Stages fill the block
//! as for the others (9 of 24 KiB, 5 of 40 KiB).
//!
//! **Everything else** (stages, barriers, warpgroups, `setmaxnreg`, the swizzle, the stores) is kernel
//! 15's (`k15_tma::Pipeline`, generic over the consumer warpgroups).
//!
//! Measurements: `docs/ladder/k15-tma.md`.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{self, Depth, Flat, Pipeline, TmaArgs, ROW_BYTES, WG_ROWS};
use crate::device::mem::View;
use crate::device::tma::{self, TensorMap};
use crate::device::{flag, thread};
use crate::launch::TileConfig;

/// Tile rows per group of the tile order.
pub const GROUP_M: u32 = 8;

/// The launch of a kernel-16 entry: kernel 15's, persistent (the grid is one block per SM, at most
/// one per tile).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k15_tma::config(bm, bn, stages, elem).persistent()
}

/// `(row0, col0)` of tile `i` of a `tiles_m × tiles_n` grid of `bm × bn` tiles in the grouped order.
#[inline(always)]
pub fn tile_origin(i: u32, tiles_m: u32, tiles_n: u32, bm: u32, bn: u32) -> (u32, u32) {
    // `max(1)`: never zero (a tile exists), and the compiler then drops its division-by-zero checks.
    let per_group = (GROUP_M * tiles_n).max(1);
    let first_m = (i / per_group) * GROUP_M;
    let rows = (if tiles_m - first_m < GROUP_M { tiles_m - first_m } else { GROUP_M }).max(1);
    let within = i % per_group;
    ((first_m + within % rows) * bm, (within / rows) * bn)
}

/// `C = A·B` as [`k15_tma::tma_gemm`], with each block walking work units: output tiles, or with
/// `gridDim.y = splits > 1` slices of their K range whose partial products are added atomically into
/// `C` (split-K, for outputs of too few tiles to fill the GPU).
///
/// # Safety
/// As [`k15_tma::tma_gemm`], with a grid of any size (one block per SM is the intent); `gridDim.y` is
/// the number of K slices, and `C` must be zeroed first when it is above 1.
#[inline(always)]
pub unsafe fn persistent_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { walk_tma::<O, S, NC, 1, WorkUnits>(args) }
}

/// [`walk_gemm`] of a TMA entry: walk `W` in clusters of `P` blocks, A and B through their maps.
///
/// # Safety
/// As [`walk_gemm`], with `args` the entry's arguments.
#[inline(always)]
pub(crate) unsafe fn walk_tma<O: WgmmaTile, const S: u32, const NC: u32, const P: u32, W: Walk<Args: Default>>(args: TmaArgs) {
    let TmaArgs { map_a, map_b, map_c, c, flags, m, n, k } = args;
    // SAFETY: forwarded contract.
    unsafe { walk_gemm::<O, S, NC, P, W, TmaFeed, Plain>(TmaFeed { map_a, map_b }, W::Args::default(), Plain, map_c, c, flags, m, n, k) }
}

/// One piece of a block's work: an output tile's origin, its K-steps `kb .. ke`, whether the
/// piece's partial product is added into `C` (zeroed by the host) rather than stored, its part in
/// a tile shared with other blocks without zeroing ([`Fix`]), and which matrix of a stack it is
/// ([`Depth`]: [`Flat`] but in kernel 26).
#[derive(Clone, Copy)]
pub struct Piece<D = Flat> {
    pub row0: u32,
    pub col0: u32,
    pub kb: u32,
    pub ke: u32,
    pub adds: bool,
    pub fix: Fix,
    pub depth: D,
}

/// How the pieces of one tile that several blocks share meet in `C` without zeroing it (stream-K's
/// fix-up): the piece that ends the tile's K range stores its partial sum and publishes it, warp by
/// warp, on the tile's counters; every other piece waits for that, then adds its partial sum into
/// `C`, and the last of them to finish waiting resets the counters for the next launch. Counter
/// `flag·4·NC + w` serves consumer warp `w` (warp `w` of every piece covers the same 16 rows).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Fix {
    /// A tile of its own (or split-K's atomic sums into a zeroed `C`: [`Piece::adds`]).
    Alone,
    /// Stores the tile's partial sum, then raises counter `flag` to 32 (one per lane).
    Publish { flag: u32 },
    /// Waits for counter `flag` to reach 32, adds into `C`; `sharers` pieces make up the tile.
    Await { flag: u32, sharers: u32 },
}

/// The pieces one block computes, in order: the producer and the consumers each walk their own copy.
/// Every bound depends on the launch and the shape only (block-uniform).
pub trait Walk: Copy {
    /// What the walk reads besides the shape (kernel 26's groups; `()` for one product).
    type Args: Copy;
    /// Which matrix of a stack each piece is.
    type Depth: Depth;
    /// This block's walk over `tiles_m × tiles_n` tiles of `bm × bn`, `steps` K-steps each.
    fn start(args: Self::Args, tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self;
    /// The next piece, `None` at the end.
    fn next(&mut self) -> Option<Piece<Self::Depth>>;
    /// Whether the host queued this launch right after `C`'s zeroing, as its dependent: then the
    /// launch reads A and B at once and waits only before its first add into `C`
    /// ([`follow_prior`](crate::device::dependent_launch::follow_prior)). Only walks whose every piece adds say so.
    #[inline(always)]
    fn follows_zeroing(&self) -> bool {
        false
    }
}

/// Where the producer warpgroup gets the operands from: the TMA ([`TmaFeed`], kernels 16 and 22) or
/// its own `cp.async` copies (kernel 23's `CopyFeed`).
pub(crate) trait Feed: Copy {
    /// Arrivals that complete one phase of a stage's "full" barrier.
    const FULL_ARRIVALS: u32;

    /// The producer warpgroup's whole work (after its side of the register split,
    /// [`k15_tma::release_producer_registers`]): every K-step of `walk`'s
    /// pieces loaded into `pipe`'s stages in order, global step `g` (counted across the pieces) into
    /// stage `g % S`.
    ///
    /// # Safety
    /// All 128 threads of warpgroup 0, converged; `pipe` set up with [`Feed::FULL_ARRIVALS`]; the
    /// consumers consume the same pieces' steps in the same order.
    unsafe fn produce<O: WgmmaTile, const S: u32, const NC: u32, const P: u32, W: Walk>(self, pipe: Pipeline<S, NC, P>, walk: W);
}

/// Operands read by the TMA through the tensor maps of A and B: one thread asks for each stage's
/// boxes.
#[derive(Clone, Copy)]
pub(crate) struct TmaFeed {
    pub(crate) map_a: *const TensorMap,
    pub(crate) map_b: *const TensorMap,
}

impl Feed for TmaFeed {
    const FULL_ARRIVALS: u32 = 1;

    #[inline(always)]
    unsafe fn produce<O: WgmmaTile, const S: u32, const NC: u32, const P: u32, W: Walk>(self, pipe: Pipeline<S, NC, P>, walk: W) {
        if thread::thread_idx_x() != 0 {
            return;
        }
        // SAFETY: the maps are valid (the kernel's contract).
        unsafe {
            tma::prefetch(self.map_a);
            tma::prefetch(self.map_b);
        }
        let (mut walk, mut g) = (walk, 0);
        while let Some(p) = walk.next() {
            // SAFETY: one thread; the consumers consume the same pieces' steps in the same order.
            unsafe { pipe.produce::<O, W::Depth>(self.map_a, self.map_b, p.row0, p.col0, p.depth, p.kb, p.ke - p.kb, g) };
            g += p.ke - p.kb;
        }
        if P > 1 {
            // SAFETY: the producing thread, after its g steps.
            unsafe { pipe.drain(g) };
        }
    }
}

/// How a piece's sums reach `C`: as they are, in `f32` ([`Plain`]: kernels 16, 22–24 and 26), or
/// finished first — `α`, a bias, an activation, a 16-bit `C` (kernel 27's `Finished`).
pub(crate) trait Finish: Copy {
    /// Stores consumer warpgroup `cw`'s sums `acc` of the piece whose tile starts at `origin`
    /// (row, column) into `C`: `dims.0` rows of `dims.1` elements (of this finish's type) from element
    /// `at` of `c`, through `map` where it is not null (an `f32` `C`'s map); `adds`: added into a
    /// zeroed `C` (split-K, stream-K's shared tiles), not stored.
    ///
    /// # Safety
    /// As [`k15_tma::store`], with `c + at` valid for `dims.0 · dims.1` elements of this finish's type.
    #[allow(clippy::too_many_arguments)]
    unsafe fn store<O: WgmmaTile>(
        self,
        acc: &O::Acc,
        c: *mut f32,
        at: usize,
        map: *const TensorMap,
        staging: k15_tma::Staging,
        dims: (u32, u32),
        origin: (u32, u32),
        cw: u32,
        adds: bool,
    );
}

/// The sums stored (or added) as they are, in `f32`.
#[derive(Clone, Copy)]
pub(crate) struct Plain;

impl Finish for Plain {
    #[inline(always)]
    unsafe fn store<O: WgmmaTile>(
        self,
        acc: &O::Acc,
        c: *mut f32,
        at: usize,
        map: *const TensorMap,
        staging: k15_tma::Staging,
        (rows, n): (u32, u32),
        (row0, col0): (u32, u32),
        cw: u32,
        adds: bool,
    ) {
        // SAFETY: the caller's contract: `rows · n` floats from `at`.
        let out = unsafe { View::new(c.wrapping_add(at), (rows * n) as usize) };
        // SAFETY: as above, the rest forwarded.
        unsafe { k15_tma::store::<O>(acc, out, map, staging, rows, n, row0, col0, cw, adds) }
    }
}

/// The body of kernels 16, 22, 23 and 26: the pipeline of kernel 15 over the pieces of walk `W`, fed
/// by `F`, the global K-step count running on across pieces (the producer loads the next piece while
/// the consumers store the last).
///
/// # Safety
/// As [`k15_tma::tma_gemm`] (with `feed` describing A and B), with the grid `W` expects; `C` zeroed
/// first where `W` adds; `map_c` null or `C`'s tensor map (as [`k15_tma::tma_gemm`]'s); where `W`
/// shares tiles ([`Fix`]), `flags` holds the counters its pieces name,
/// zero at the launch (the walk leaves them zero), and the grid is resident at once; `C` holds
/// every piece's output rows ([`Depth::output`]: `m·n` elements for [`Flat`] pieces) in `finish`'s
/// element type, and `finish`'s own arguments are valid ([`Finish::store`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn walk_gemm<O: WgmmaTile, const S: u32, const NC: u32, const P: u32, W: Walk, F: Feed, Fin: Finish>(
    feed: F,
    args: W::Args,
    finish: Fin,
    map_c: *const TensorMap,
    c: *mut f32,
    flags: *mut u32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: the launch's shared memory and clusters of P blocks (the caller's contract); every
    // thread calls it.
    let pipe = unsafe { Pipeline::<S, NC, P>::setup(O::N, F::FULL_ARRIVALS) };
    let bm = Pipeline::<S, NC, P>::BM;
    let steps = k.div_ceil(ROW_BYTES / core::mem::size_of::<O::Elem>() as u32);
    let walk = W::start(args, m.div_ceil(bm), n.div_ceil(O::N), bm, O::N, steps);
    crate::device::dependent_launch::follow_prior(walk.follows_zeroing());
    let wg = thread::thread_idx_x() / 128;
    if wg == 0 {
        // SAFETY: warpgroup 0, all 128 threads, converged (the branch is warpgroup-uniform); the
        // pipeline was set up for this feed.
        unsafe {
            k15_tma::release_producer_registers::<NC>();
            feed.produce::<O, S, NC, P, W>(pipe, walk);
        }
        return;
    }
    // SAFETY: each consumer warpgroup, all 128 threads, converged.
    unsafe { k15_tma::claim_consumer_registers::<NC>() };
    // This consumer warp's counter of a shared tile's `flag` (see `Fix`).
    let warp = thread::thread_idx_x() / 32 - 4;
    let counter = |flag: u32| flags.wrapping_add((flag * 4 * NC + warp) as usize);
    let (mut walk, mut g) = (walk, 0);
    while let Some(p) = walk.next() {
        let mut acc = O::ZERO;
        // SAFETY: warpgroup-uniform (the walk is block-uniform); the producer loads these steps.
        unsafe { pipe.consume::<O>(&mut acc, wg - 1, p.ke - p.kb, g) };
        if let Fix::Await { flag, .. } = p.fix {
            // SAFETY: the counter is the walk's (the caller's contract); its publishing piece starts
            // another block's run and waits on nothing.
            unsafe { flag::wait_at_least(counter(flag), 32) };
        }
        let adds = p.adds || matches!(p.fix, Fix::Await { .. });
        // A publishing piece stores with the threads' own stores, which its release covers (the
        // TMA's would still be in flight).
        let map = if p.fix == Fix::Alone { k15_tma::c_map_for::<NC>(map_c) } else { core::ptr::null() };
        let (at, rows) = p.depth.output(m);
        // SAFETY: the caller's C holds the piece's `rows` rows of n elements from `at` (map_c, if any,
        // describes them), zeroed by the host where the walk adds, stored first by the publishing
        // piece where it awaits; the finish's own contract is the walk's caller's.
        unsafe { finish.store::<O>(&acc, c, at, map, pipe.warp_staging(wg - 1), (rows, n), (p.row0, p.col0), wg - 1, adds) };
        match p.fix {
            // SAFETY (both arms): the walk's counters; every lane's stores above precede its own release.
            Fix::Publish { flag } => unsafe { flag::release_add(counter(flag), 1) },
            Fix::Await { flag, sharers } => unsafe {
                // Each awaiting warp adds 32 once all its lanes have seen the tile published: the
                // last of the tile's `sharers - 1` finds 32·(sharers - 1) and resets the counter.
                thread::sync_warp();
                if thread::lane_id() == 0 && flag::fetch_add(counter(flag), 32) == 32 * (sharers - 1) {
                    flag::store(counter(flag), 0);
                }
            },
            Fix::Alone => {}
        }
        g += p.ke - p.kb;
    }
}

/// Kernel 16's walk: `tiles_m × tiles_n` output tiles, each cut into `splits = gridDim.y` slices of
/// `per_slice` of its `steps` K-steps (the last slices may be shorter, or empty); unit `u` is slice
/// `u % splits` of tile `u / splits`, and block `(x, y)` takes units `x + gridDim.x·y`, then every
/// `gridDim.x·gridDim.y`-th.
#[derive(Clone, Copy)]
pub struct WorkUnits {
    tiles_m: u32,
    tiles_n: u32,
    /// Rows and columns of a tile.
    bm: u32,
    bn: u32,
    splits: u32,
    per_slice: u32,
    steps: u32,
    /// The next unit of this block, and the distance to the one after.
    u: u32,
    stride: u32,
}

impl Walk for WorkUnits {
    type Args = ();
    type Depth = Flat;

    #[inline(always)]
    fn start(_: (), tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        let splits = thread::grid_dim_y().max(1);
        let u = thread::block_idx_x() + thread::grid_dim_x() * thread::block_idx_y();
        let stride = (thread::grid_dim_x() * splits).max(1);
        WorkUnits { tiles_m, tiles_n, bm, bn, splits, per_slice: steps.div_ceil(splits), steps, u, stride }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        if self.u >= self.tiles_m * self.tiles_n * self.splits {
            return None;
        }
        let (row0, col0) = tile_origin(self.u / self.splits, self.tiles_m, self.tiles_n, self.bm, self.bn);
        let kb = (self.u % self.splits) * self.per_slice;
        let ke = if kb + self.per_slice < self.steps { kb + self.per_slice } else { self.steps };
        self.u += self.stride;
        Some(Piece { row0, col0, kb: kb.min(ke), ke, adds: self.splits > 1, fix: Fix::Alone, depth: Flat })
    }

    #[inline(always)]
    fn follows_zeroing(&self) -> bool {
        self.splits > 1
    }
}

tma_entry!(persistent_gemm, matmul_persistent_bf16_128x256, PERSISTENT_BF16_128X256, Bf16N256, u16, stages 4,
    "Kernel 16 on BF16 inputs, `f32` output (sm_90a): kernel 15's 128×256×64 tiles and 4 stages, one \
     persistent block per SM over the grouped tile order.");
tma_entry!(persistent_gemm, matmul_persistent_f16_128x256, PERSISTENT_F16_128X256, F16N256, u16, stages 4,
    "Kernel 16 on FP16 inputs, `f32` output (sm_90a): as [`matmul_persistent_bf16_128x256`].");
tma_entry!(persistent_gemm, matmul_persistent_tf32_128x256, PERSISTENT_TF32_128X256, Tf32RegsN256, f32, stages 4,
    "Kernel 16 in TF32 on `f32` inputs (A rounded on its way into registers, `Bᵀ` prepared: as kernel 15's TF32 entry), `f32` output (sm_90a).");
tma_entry!(persistent_gemm, matmul_persistent_bf16_128x128, PERSISTENT_BF16_128X128, Bf16N128, u16, stages 6,
    "Kernel 16 on BF16 inputs, `f32` output (sm_90a), narrow tile: 128×128×64 tiles (`m64n128k16`), 6 stages \
     (225 KiB), for outputs of few 128×256 tiles or at most 128 columns wide.");
tma_entry!(persistent_gemm, matmul_persistent_f16_128x128, PERSISTENT_F16_128X128, F16N128, u16, stages 6,
    "Kernel 16 on FP16 inputs, `f32` output (sm_90a), narrow tile: as [`matmul_persistent_bf16_128x128`].");
tma_entry!(persistent_gemm, matmul_persistent_tf32_128x128, PERSISTENT_TF32_128X128, Tf32RegsN128, f32, stages 6,
    "Kernel 16 in TF32 on `f32` inputs (as kernel 15's TF32 entry), `f32` output (sm_90a), narrow tile: 128×128×32 tiles \
     (`m64n128k8`), 6 stages.");
tma_entry!(persistent_gemm, matmul_persistent_bf16_128x192, PERSISTENT_BF16_128X192, Bf16N192, u16, stages 5,
    "Kernel 16 on BF16 inputs, `f32` output (sm_90a), 128×192×64 tiles (`m64n192k16`), 5 stages (201 KiB): \
     between the two other widths, for outputs whose tile count fills the last wave badly in both.");
tma_entry!(persistent_gemm, matmul_persistent_f16_128x192, PERSISTENT_F16_128X192, F16N192, u16, stages 5,
    "Kernel 16 on FP16 inputs, `f32` output (sm_90a), 128×192 tiles: as [`matmul_persistent_bf16_128x192`].");
tma_entry!(persistent_gemm, matmul_persistent_bf16_64x128, PERSISTENT_BF16_64X128, Bf16N128, u16, stages 9, consumers 1,
    "Kernel 16 on BF16 inputs, `f32` output (sm_90a), 64-row tiles: 64×128×64 (one consumer warpgroup, \
     `m64n128k16`), 9 stages, for outputs of few rows or few 128-row tiles.");
tma_entry!(persistent_gemm, matmul_persistent_f16_64x128, PERSISTENT_F16_64X128, F16N128, u16, stages 9, consumers 1,
    "Kernel 16 on FP16 inputs, `f32` output (sm_90a), 64×128 tiles: as [`matmul_persistent_bf16_64x128`].");
tma_entry!(persistent_gemm, matmul_persistent_tf32_64x128, PERSISTENT_TF32_64X128, Tf32RegsN128, f32, stages 9, consumers 1,
    "Kernel 16 in TF32 (as kernel 15's TF32 entry), `f32` output (sm_90a), 64×128×32 tiles, 9 stages.");
tma_entry!(persistent_gemm, matmul_persistent_bf16_64x256, PERSISTENT_BF16_64X256, Bf16N256, u16, stages 5, consumers 1,
    "Kernel 16 on BF16 inputs, `f32` output (sm_90a), 64×256×64 tiles (one consumer warpgroup, `m64n256k16`), \
     5 stages: a few rows against wide outputs.");
tma_entry!(persistent_gemm, matmul_persistent_f16_64x256, PERSISTENT_F16_64X256, F16N256, u16, stages 5, consumers 1,
    "Kernel 16 on FP16 inputs, `f32` output (sm_90a), 64×256 tiles: as [`matmul_persistent_bf16_64x256`].");
tma_entry!(persistent_gemm, matmul_persistent_tf32_64x256, PERSISTENT_TF32_64X256, Tf32RegsN256, f32, stages 5, consumers 1,
    "Kernel 16 in TF32 (as kernel 15's TF32 entry), `f32` output (sm_90a), 64×256×32 tiles, 5 stages.");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_narrow_tile_takes_as_many_stages_as_fit_one_block() {
        const MAX_SHARED: u32 = 227 * 1024;
        for (cfg, elem) in [(PERSISTENT_BF16_128X128, 2), (PERSISTENT_F16_128X128, 2), (PERSISTENT_TF32_128X128, 4)] {
            assert_eq!((cfg.bm, cfg.bn, cfg.bk * elem), (128, 128, 128));
            assert!(cfg.shared_bytes <= MAX_SHARED, "{cfg:?}");
            assert!(config(128, 128, 7, elem).shared_bytes > MAX_SHARED, "a seventh stage would fit");
        }
    }

    #[test]
    fn the_middle_tile_takes_as_many_stages_as_fit_one_block() {
        const MAX_SHARED: u32 = 227 * 1024;
        for cfg in [PERSISTENT_BF16_128X192, PERSISTENT_F16_128X192] {
            assert_eq!((cfg.bm, cfg.bn, cfg.bk * 2), (128, 192, 128));
            assert!(cfg.shared_bytes <= MAX_SHARED, "{cfg:?}");
            assert!(config(128, 192, 6, 2).shared_bytes > MAX_SHARED, "a sixth stage would fit");
        }
    }

    #[test]
    fn the_64_row_tiles_take_as_many_stages_as_fit_one_block() {
        const MAX_SHARED: u32 = 227 * 1024;
        for (cfg, bn, elem) in [
            (PERSISTENT_BF16_64X128, 128, 2),
            (PERSISTENT_TF32_64X128, 128, 4),
            (PERSISTENT_BF16_64X256, 256, 2),
            (PERSISTENT_TF32_64X256, 256, 4),
        ] {
            assert_eq!((cfg.bm, cfg.bn, cfg.bk * elem, cfg.block.0), (64, bn, 128, 256));
            assert!(cfg.shared_bytes <= MAX_SHARED, "{cfg:?}");
            let stages = cfg.shared_bytes / ((64 + bn) * 128);
            assert!(config(64, bn, stages + 1, elem).shared_bytes > MAX_SHARED, "{cfg:?}: another stage would fit");
        }
    }

    #[test]
    fn the_grouped_order_visits_every_tile_once() {
        for (tm, tn) in [(1, 1), (3, 5), (8, 2), (9, 7), (32, 16), (17, 1)] {
            let mut seen = std::vec![false; (tm * tn) as usize];
            for i in 0..tm * tn {
                let (r, c) = tile_origin(i, tm, tn, 2 * WG_ROWS, 256);
                let (r, c) = (r / (2 * WG_ROWS), c / 256);
                assert!(r < tm && c < tn, "tile {i} of {tm}×{tn} at {r},{c}");
                assert!(!std::mem::replace(&mut seen[(r * tn + c) as usize], true), "tile {r},{c} twice");
            }
        }
    }
}
