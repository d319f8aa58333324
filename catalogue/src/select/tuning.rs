//! `Algo::Auto`: which kernel configuration to run for a shape.
//!
//! FP32: a **time model**, not a lookup ([`predict_us`], [`least_expected_on`]). Every FP32 kernel of the
//! catalogue is a candidate; the model estimates its time on the shape from what the launch gives the
//! GPU — blocks per SM (from the kernel's threads, shared memory and registers), the busiest SM's
//! share of the grid (waves and the last wave's fill), K-steps per block, alignment, split-K's slice
//! count and its zeroing of `C`, a fixed cost per launch — with a few constants per kernel fitted to
//! measured runs (`scripts/fit-auto-model.py`, `docs/tuning.md`); each prediction is then corrected by
//! the model's measured residuals on the calibrated shapes nearest the product ([`residuals`],
//! [`crate::select::residuals`]) and `Auto` runs the minimum ([`expected_us`]). Split-K kernels get the slice
//! count the model finds fastest ([`splits_on`]). Deterministic and offline: the same shape and SM
//! count always give the same kernel.
//!
//! Tensor-core precisions on Hopper: a time model of the TMA kernels ([`crate::select::tc_model`], through
//! [`crate::select::model_choice`]).
use std::sync::OnceLock;

use crate::precision::Precision;
use crate::registry::algo::{Algo, MATMUL_KERNELS};
use crate::select::residuals::{measured, Neighbourhood, Residuals};
use crate::shape::MatmulShape;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::mma_tile::piece_bytes;

/// SMs of the H200 the constants were measured on: the default where the caller does not know the
/// GPU (the host passes the real count).
pub const SMS: u32 = 132;

/// The FP32 kernel of least [`expected_us`] on `shape` on `sms` SMs, and that time (split-K kernels
/// at their best slice count; ties go to the earlier kernel of the catalogue): FP32 `Auto`'s pick in
/// place ([`crate::select::model_choice`]). Never a TF32 or other lower-precision kernel.
pub fn least_expected_on(shape: MatmulShape, sms: u32) -> (Algo, f64) {
    let near = residuals().near(shape, false);
    let mut best = (Algo::Tiled, f64::INFINITY);
    for kernel in MATMUL_KERNELS.iter().filter(|k| plain_candidate(k, shape)) {
        if let Some(t) = expected_at_best_splits(kernel.algo, shape, sms, &near) {
            if t < best.1 {
                best = (kernel.algo, t);
            }
        }
    }
    best
}

/// The time `Auto` expects of `algo` on `shape` on `sms` SMs at the slice count the model prices
/// fastest, corrected by the residuals of `near` (the neighbourhood of `shape`, searched once by the
/// caller for all its kernels); `None` for a kernel without constants.
pub fn expected_at_best_splits(algo: Algo, shape: MatmulShape, sms: u32, near: &Neighbourhood<'_>) -> Option<f64> {
    let (config, cost) = (algo.config()?, cost(algo)?);
    Some(best_splits(config, cost, shape, |s| predict(config, cost, shape, s, sms)).1 * near.factor(algo))
}

/// The time model's residuals on the calibration table ([`crate::select::residuals::TABLE`]), each row
/// priced by [`predict_us`] on the H200's [`SMS`] (rows of kernels `Auto` does not weigh at that shape
/// left out); built on first use (about 20 000 predictions, milliseconds).
pub fn residuals() -> &'static Residuals {
    static RESIDUALS: OnceLock<Residuals> = OnceLock::new();
    RESIDUALS.get_or_init(|| {
        Residuals::new(measured(), |algo, shape, splits| is_candidate(algo, shape).then(|| predict_us(algo, shape, splits, SMS)).flatten())
    })
}

/// The time `Auto` expects of `algo` on `shape` at `splits` slices on `sms` SMs: [`predict_us`] × the
/// factor of its measured residuals on the calibrated shapes nearest `shape`
/// ([`crate::select::residuals::Neighbourhood::factor`]; measured on the H200, applied as a factor on any SM
/// count). `None` for a kernel without constants.
pub fn expected_us(algo: Algo, shape: MatmulShape, splits: u32, sms: u32) -> Option<f64> {
    Some(predict_us(algo, shape, splits, sms)? * residuals().near(shape, false).factor(algo))
}

/// Products of at most this many rows are kernel 18's (`few-rows`) to compete for: one block row of it
/// holds them all (more would read `B` once per 16 rows, where kernel 10's tiles win: 24×289×1285,
/// 32×4096×512 and 64×2048×2048 in `docs/results/2026-12-01-few-rows`). Its steps take longer with the
/// rows it computes (`Cost::rows_exponent`).
pub const FEW_ROWS_MAX_M: u32 = tessera_kernels::matmul::k18_few_rows::ROWS;
/// As [`FEW_ROWS_MAX_M`] for kernel 18's 16-bit entries: the rows of one of their passes.
pub const FEW_ROWS_HALF_MAX_M: u32 = tessera_kernels::matmul::k18_few_rows::ROWS_HALF;

/// Products of at most this many columns are kernel 19's (`few-cols-4`) to compete for, over
/// `⌈N / 4⌉` of its 4-column blocks, each reading `A` again ([`Cost::read_gb_per_s`] prices that). Wider
/// than that, tiles that read `A` once per 32 or 64 columns win (`docs/tuning.md`).
pub const FEW_COLS_MAX_N: u32 = 32;

/// Whether `kernel` is one FP32 `Auto` weighs for a plain product of `shape` ([`is_candidate`]):
/// not kernel 29, which finishes its sums — a finishing product's alone (`select::finishing_pick`).
pub fn plain_candidate(kernel: &crate::MatmulKernel, shape: MatmulShape) -> bool {
    kernel.precision == Precision::Fp32 && !kernel.config.fused_epilogue && is_candidate(kernel.algo, shape)
}

/// Whether `Auto` weighs `algo` for `shape`: every kernel up to its [`Cost::max_rows`] and
/// [`Cost::max_cols`] (kernel 18: [`FEW_ROWS_MAX_M`] rows; kernel 19: [`FEW_COLS_MAX_N`] columns).
pub fn is_candidate(algo: Algo, shape: MatmulShape) -> bool {
    cost(algo).is_none_or(|c| shape.m <= c.max_rows && shape.n <= c.max_cols)
}

/// Split-K's blocks per output tile (`gridDim.z`) for the kernel `algo` on `shape` on `sms` SMs: the slice count of least predicted time for a kernel the model
/// knows (slices of at least its [`Cost::min_slice_steps`] K-steps, at most [`MAX_SPLITS`]); the one-wave
/// rule [`splits`] for a split-K kernel it does not; [`crate::select::tc_model::best_splits`] for the persistent kernel
/// (`gridDim.y`); 1 for a kernel that does not split K.
pub fn splits_on(algo: Algo, shape: MatmulShape, sms: u32) -> u32 {
    match (algo.config(), cost(algo)) {
        (Some(t), _) if t.persistent && !t.stream_k => crate::select::tc_model::best_splits(algo, shape, sms).0,
        (Some(t), Some(c)) if t.split_k => best_splits(t, c, shape, |s| predict_us(algo, shape, s, sms).unwrap_or(f64::INFINITY)).0,
        (Some(t), None) if t.split_k => splits(shape, t.bm, t.bn),
        _ => 1,
    }
}

/// Stream-K's grid (kernels 17 and 22, `gridDim.x`) for `algo` on `shape` on `sms` SMs: the blocks that fit
/// on the GPU at once ([`blocks_per_sm`] with the kernel's registers; its launch bound without
/// constants), at most one per K-step of the whole product (`tiles·⌈K/BK⌉`, a tile's steps at least
/// one); 1 for a kernel that is not stream-K.
pub fn stream_k_blocks(algo: Algo, shape: MatmulShape, sms: u32) -> u32 {
    let Some(t) = algo.config().filter(|t| t.stream_k) else { return 1 };
    let resident = cost(algo).map_or(t.min_blocks_per_sm.max(1), |c| blocks_per_sm(t, c.registers));
    let steps = u64::from(shape.m.div_ceil(t.bm)) * u64::from(shape.n.div_ceil(t.bn)) * u64::from(shape.k.div_ceil(t.bk).max(1));
    (u64::from(sms.max(1) * resident)).min(steps).max(1) as u32
}

/// Split-K's one-wave rule (the rule before the model; kept for split-K kernels the model has no
/// constants for): as many slices as keep the grid within one wave of [`SMS`] blocks, and at least 64
/// of K per slice; 1 when the tiles already fill the GPU.
pub fn splits(shape: MatmulShape, bm: u32, bn: u32) -> u32 {
    let tiles = shape.m.div_ceil(bm) * shape.n.div_ceil(bn);
    (SMS / tiles.max(1)).min(shape.k / 64).max(1)
}

/// The fitted constants of one FP32 kernel in [`predict_us`] (microseconds on the H200; fitted by
/// `scripts/fit-auto-model.py`, see `docs/tuning.md`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Fixed time of one block: prologue and epilogue (split-K's atomic adds are a GPU-wide cost,
    /// [`ATOMIC_ADDS_PER_US`]).
    pub block_us: f64,
    /// Time of one K-step of one block running alone on its SM.
    pub step_us: f64,
    /// How many of the kernel's blocks one SM runs at the speed of one (1 ..= blocks per SM): the
    /// latency the SM hides by running blocks side by side.
    pub overlap: f64,
    /// Factor on `step_us` when N or K is not a multiple of 4 (16-byte vector loads off).
    pub unaligned: f64,
    /// Outputs per µs the whole GPU writes when N is not a multiple of 4, so that rows of `C` are not
    /// 16-byte aligned and the epilogue stores element by element (split-K: unused, its adds are
    /// [`ATOMIC_ADDS_PER_US`]). A GPU-wide rate, like the atomics: on short-K, large outputs the
    /// stores are the kernel's time (3192×15638×16: `conflict-free` 136 µs, `blocktile-1d`, whose
    /// stores coalesce along rows, 106).
    pub unaligned_stores_per_us: f64,
    /// Registers per thread (`ptxas -v`, sm_90): with threads and shared memory, the blocks per SM.
    pub registers: u32,
    /// Exponent `ρ` of the block's rows of `C` in its K-step time (`step_us · rows^ρ`, rows =
    /// `min(M − row0, bm)`): 0 for the tile kernels, whose steps compute the whole tile whatever M;
    /// kernel 18's steps skip the rows past M, so they take longer the more rows it has.
    pub rows_exponent: f64,
    /// Split-K's fewest K-steps per slice ([`MIN_SLICE_STEPS`]; kernel 18's: one — its steps have no
    /// pipeline to fill and its slices add few rows of `C`). Not fitted.
    pub min_slice_steps: u32,
    /// The most rows of `C` for which `Auto` weighs the kernel ([`is_candidate`]; kernel 18's:
    /// [`FEW_ROWS_MAX_M`], its 16-bit entries [`FEW_ROWS_HALF_MAX_M`]); `u32::MAX` for the rest. Not fitted.
    pub max_rows: u32,
    /// The most columns of `C` for which `Auto` weighs the kernel (kernel 19's: [`FEW_COLS_MAX_N`]);
    /// `u32::MAX` for the rest. Not fitted.
    pub max_cols: u32,
    /// How many K-steps of the kernel's loop LLVM unrolls into one (kernel 1: 4, then a loop over the
    /// rest; `host/ptx/tessera.ptx`): the model's steps are `⌊steps/u⌋ + steps mod u`, each costing
    /// one `step_us` — the loop waits on its loads once per unrolled group and once per left-over step
    /// (launch-bound 51×89×5: `naive` 2.2 µs against `tiled` 2.0; 5×8952×4: 2.3 against 2.6). Not fitted.
    pub unroll: u32,
    /// The rate at which the kernel's blocks read `A` and `B` (GB/s on the H200's [`SMS`] SMs, in
    /// proportion on others; fitted): their time is no less than [`read_bytes`] at it. Kernels 18
    /// and 19 stream one operand once per block row or column and compute little on it; infinite (no
    /// floor) for the tile kernels, whose time the model's steps price.
    pub read_gb_per_s: f64,
    /// Factor on `step_us` for the K-steps of pieces that kernel 17's 128×256 and 64×64 entries run
    /// through `k08_double_buffer::accumulate_interior` (slot offsets computed once, no range
    /// checks), a share of the steps [`interior_share`] gives; fitted for those two, 1 for the rest.
    pub interior: f64,
    /// Elements of the kernel's inputs per 16-byte vector load: 4 for `f32` (FP32, TF32), 8 for the
    /// 16-bit types. `N` and `K` multiples of it are aligned rows (`unaligned` prices the others).
    pub vector: u32,
    /// The rate at which the whole GPU stores `C` from this kernel's registers (GB/s, N a multiple
    /// of 4): [`STORE_GB_PER_S`] for the tile kernels' 16-byte stores, [`TC_STORE_GB_PER_S`] for
    /// the tensor-core fragments' 8-byte ones.
    pub store_gb_per_s: f64,
    /// Factor on `step_us` where N = 1 (fitted for kernel 19's 16-bit entries, whose GEMV body
    /// computes one column where the others compute four; 1 for the rest).
    pub gemv: f64,
    /// The rate (GB/s) below which the kernel never reads 16-bit rows that are not 16-byte aligned,
    /// element by element: the DRAM floor's rate for such rows. [`ODD_ROWS_GB_PER_S`] for the
    /// kernels measured there; [`ZERO_GB_PER_S`] (no floor of its own) for kernel 18's 16-bit entries
    /// (groups of eight rows of element loads in flight since session 57) and kernel 19's,
    /// whose loop streams such rows at the rate its steps price (1.6–2.0 TB/s on an H200 since
    /// d1836bb, `docs/results/2026-12-06-s46/k5-d1836bb`; floored at 820 GB/s, `Auto` priced
    /// 1505×4×13967 at 53 µs where it ran 23).
    pub odd_rows_gb_per_s: f64,
    /// Exponent `φ` of the launch's fill in its read floor where the operands stream from DRAM
    /// ([`DRAM_STREAM_BYTES`]): the blocks read them at `read_gb_per_s · fill^φ`, `fill = min(1, blocks /
    /// (SMs · blocks per SM))` — a block keeps a fixed number of bytes in flight, so few blocks cannot
    /// reach the GPU's rate (kernel 18's 16-bit entries, fitted: 90 blocks of 1×11421×3514 read `B` at
    /// 1.0 TB/s on an H100, 251 blocks of 1×32001×4096 at 2.6). 0 (the floor whatever the fill) for
    /// the rest.
    pub read_fill_exponent: f64,
}

/// Fixed time of one kernel launch, back to back on a stream (fitted).
pub const LAUNCH_US: f64 = 1.744;
/// Split-K's zeroing of `C` before its launch: a fixed cost (fitted) plus `4·M·N` bytes written at
/// [`ZERO_GB_PER_S`]. Fitted while the launch queued behind a memset; it now overlaps the zeroing
/// (1–2.5 µs sooner, `docs/results/2026-12-06-s50`), which is not priced: taking it off moved picks
/// onto tiles the model prices low, and they ran slower.
pub const ZERO_LAUNCH_US: f64 = 2.257;
/// The cost of a launch that adds into `C` per block adding into each output tile — split-K's slices,
/// stream-K's blocks per tile (`G / tiles`) — × the tile's share of rows (`min(M, BM) / BM`), where N
/// and K are multiples of 4 (fitted): on deep K over few tiles, dozens to hundreds of blocks add into
/// the same rows of `C`, and the time grows with them beyond what each block's own work and the
/// GPU-wide atomic rate account for (56×14×8744: `streamk-64x64x16`'s 528 blocks on one 64×64 tile,
/// 15.1 µs measured against 10.0 priced without it; split-K at 16–128 slices on full tiles priced
/// 4–6 % low; `docs/tuning.md`).
pub const ADDS_DEPTH_US: f64 = 0.0078;
/// As [`ADDS_DEPTH_US`] where N or K is not a multiple of 4 (fitted).
pub const ADDS_DEPTH_UNALIGNED_US: f64 = 0.0338;

/// [`ADDS_DEPTH_US`]'s term: `blocks_per_tile` blocks adding into each tile of `bm` rows.
fn adds_depth_us(shape: MatmulShape, bm: u32, blocks_per_tile: f64, aligned: bool) -> f64 {
    let depth = blocks_per_tile * f64::from(shape.m.min(bm)) / f64::from(bm.max(1));
    depth * if aligned { ADDS_DEPTH_US } else { ADDS_DEPTH_UNALIGNED_US }
}
/// The rate at which the whole GPU stores `C` with 16-byte stores (N a multiple of 4; kernels that
/// store their tiles rather than add them), fitted: a GPU-wide cost beside the blocks' own, which
/// shows on short-K, large outputs (6912×2160×16: 60 MB of `C` for 0.6 MB of `A` and `B`).
pub const STORE_GB_PER_S: f64 = 7444.0;
/// As [`STORE_GB_PER_S`] for the in-place tensor-core kernels (11–14, 20), whose threads store `C`
/// as the `mma` fragments lie: pairs of columns, a warp's store 8 rows × 32 bytes. The median of
/// five short-K products whose time is their stores (K 8–33, 2.8–14 MB of `C`; 0.8–1.4 TB/s;
/// `docs/results/2026-12-02-widened/report/held-out`): priced at the 16-byte rate, `Auto` ran them
/// at twice its prediction (3000×1000×8 BF16: 16.6 µs, predicted 6.9).
pub const TC_STORE_GB_PER_S: f64 = 1009.0;
/// The write rate of zeroing `C`: the H200's measured device copy rate, 4187 GB/s (docs/results/2026-11-30-fp32-padded-probe: 4.19 TB/s).
pub const ZERO_GB_PER_S: f64 = 4187.0;
/// Split-K's reduction, `M·N·S` atomic adds into `C`, at this rate over the whole GPU (fitted) where
/// N is not a multiple of 4 (one `red.global.add.f32` per add, a row of `C` at a time: the kernels'
/// by-rows twin entries): a GPU-wide cost, not a block's — in one wave every block adds its tile at
/// about the same time, so 256×4096×4096, 1024³ and 8192×128×8192 at four slices of a 128×256 tile
/// (4.2 M adds each) paid the same ~30 µs whatever their K when every add was scalar. Stream-K's
/// partial tiles add at the same rates. (119151 per µs before the by-rows adds, when a warp's adds
/// hit 8 rows 16 bytes apart; stream-K's pieces then also paid 0.05 µs each for their serial adds
/// into one tile, a term the refit with the by-rows adds set to zero and which is gone.)
pub const ATOMIC_ADDS_PER_US: f64 = 607136.0;
/// As [`ATOMIC_ADDS_PER_US`] where N is a multiple of 4: four adds per `red.global.add.v4.f32`
/// (fitted).
pub const ATOMIC_ADDS_V4_PER_US: f64 = 1038707.0;
/// Split-K's fewest K-steps per slice (the default of [`Cost::min_slice_steps`]): below it a slice's fixed costs (pipeline fill, the atomic adds of
/// a whole tile, slices of one tile finishing together on the same lines of `C`) outweigh its work,
/// and the model under-predicts them (512³ at 8 slices of 4 steps on `splitk-128x128x16`: 24 µs
/// measured, 14 predicted; `docs/tuning.md`).
pub const MIN_SLICE_STEPS: u32 = 8;
/// Split-K's most slices per output tile.
pub const MAX_SPLITS: u32 = 128;

/// The read rate that floors kernel 20's 64-row 16-bit entries ([`Cost::read_gb_per_s`]: `A` once per
/// column of tiles, `B` once): their steps price a wave's compute, and with several slices over a wide
/// `B` they ran at this rate instead (4×4096×11008 at 8 slices: priced 27.8 µs, measured 35.8). Fitted
/// on session 49's decode tuning set (M 4–64 against 5120×5120, 11008×4096 and 4096×11008, 1–8 slices,
/// H100: `docs/results/2026-12-06-s49/c2-64bfd90`), none of issue 34's shapes: median |log error| of
/// these entries 0.105 → 0.066 (90th percentile 0.33 → 0.14), the pick among every timed kernel 0.945
/// → 0.961 of the fastest in geometric mean. Over the tuned-on-request lines of sessions 42–48
/// (`docs/results/2026-12-06-s50/analysis/floor.md`) the 16 lines whose pick it moves — 32 and 64
/// rows against 4096×14336 weights, 2574×120×3684 — ran 1.023× (H200) and 1.026× (H100) faster in
/// geometric mean (0.92–1.11).
pub const MMA_SPLITK_ROWS64_READ_GB_PER_S: f64 = 3000.0;

/// The model's constants of a kernel: every FP32 kernel, and the tensor-core kernels that read their
/// operands in place; `None` for the others (the TMA kernels: [`crate::select::tc_model`]) and `Auto`.
pub fn cost(algo: Algo) -> Option<Cost> {
    let fitted = fitted_cost(algo);
    match algo {
        Algo::MmaSplitKBf16Rows64 | Algo::MmaSplitKF16Rows64 => {
            fitted.map(|c| Cost { read_gb_per_s: MMA_SPLITK_ROWS64_READ_GB_PER_S, ..c })
        }
        _ => fitted,
    }
}

/// [`cost`] as fitted, before the floors fitted apart from it.
fn fitted_cost(algo: Algo) -> Option<Cost> {
    let c = |block_us, step_us, overlap, unaligned, unaligned_stores_per_us, registers| {
        let (rows_exponent, min_slice_steps, max_rows, max_cols, unroll, read_gb_per_s, interior, vector, store_gb_per_s, gemv) =
            (0.0, MIN_SLICE_STEPS, u32::MAX, u32::MAX, 1, f64::INFINITY, 1.0, 4, STORE_GB_PER_S, 1.0);
        let (odd_rows_gb_per_s, read_fill_exponent) = (ODD_ROWS_GB_PER_S, 0.0);
        Some(Cost {
            block_us,
            step_us,
            overlap,
            unaligned,
            unaligned_stores_per_us,
            registers,
            rows_exponent,
            min_slice_steps,
            max_rows,
            max_cols,
            unroll,
            read_gb_per_s,
            interior,
            vector,
            store_gb_per_s,
            gemv,
            odd_rows_gb_per_s,
            read_fill_exponent,
        })
    };
    // Kernel 17's entries with an interior path: their steps there (`Cost::interior`, fitted).
    let interior = |cost: Option<Cost>, interior| cost.map(|c| Cost { interior, ..c });
    // Kernel 1: its K loop unrolled by LLVM (`Cost::unroll`).
    let unrolled = |cost: Option<Cost>, unroll| cost.map(|c| Cost { unroll, ..c });
    // Kernel 18: steps that take longer the more rows of C its block has (`rows_exponent`, fitted),
    // slices of one step, one block row of C (`min_slice_steps`, `max_rows`), the rate it reads at.
    let few_rows = |cost: Option<Cost>, rows_exponent, read_gb_per_s| {
        cost.map(|c| Cost { rows_exponent, min_slice_steps: 1, max_rows: FEW_ROWS_MAX_M, read_gb_per_s, ..c })
    };
    // Kernel 19: the same up to `FEW_COLS_MAX_N` columns; its warps past M skip their rows.
    let few_cols = |cost: Option<Cost>, rows_exponent, read_gb_per_s| {
        cost.map(|c| Cost { rows_exponent, min_slice_steps: 1, max_cols: FEW_COLS_MAX_N, read_gb_per_s, ..c })
    };
    // The tensor-core kernels that read their operands in place (11–13, 14's 16-bit entries, 20):
    // the width of their inputs' vector loads (`Cost::vector`) and their fragments' store rate.
    let tc = |cost: Option<Cost>, vector| cost.map(|c| Cost { vector, store_gb_per_s: TC_STORE_GB_PER_S, ..c });
    // Kernel 19's 16-bit entries: their one-column body where N = 1 (`Cost::gemv`, fitted); rows of
    // `A` that are not 16-byte aligned streamed by their loop, not floored (`Cost::odd_rows_gb_per_s`).
    let gemv = |cost: Option<Cost>, gemv| cost.map(|c| Cost { gemv, odd_rows_gb_per_s: ZERO_GB_PER_S, ..c });
    // Kernel 21: 16-bit inputs, the tile kernels' stores.
    let widened = |cost: Option<Cost>| cost.map(|c| Cost { vector: 8, ..c });
    // Kernel 18's 16-bit entries: weighed up to the rows of one pass (a block of more makes a second
    // pass over its slice of `B`, which the tensor-core tiles beat); rows of `B` that are not 16-byte
    // aligned streamed by their groups of element loads at the rate the steps price
    // (`Cost::unaligned`), not floored.
    // The fill of the launch slows their read floor (`Cost::read_fill_exponent`, fitted).
    let one_pass = |cost: Option<Cost>, read_fill_exponent| {
        cost.map(|c| Cost { max_rows: FEW_ROWS_HALF_MAX_M, odd_rows_gb_per_s: ZERO_GB_PER_S, read_fill_exponent, ..c })
    };
    match algo {
        // COSTS-BEGIN (scripts/fit-auto-model.py --print-rust)
        Algo::Naive => unrolled(c(0.046, 0.1507, 2.60, 1.00, 1945158.0, 32), 4),
        Algo::Tiled => c(0.016, 0.3262, 2.43, 1.02, 2342633.0, 32),
        Algo::Blocktile1d => c(0.046, 0.6202, 1.45, 1.00, 2118012.0, 75),
        Algo::Blocktile2d => c(0.544, 1.4681, 1.00, 1.00, 127246.0, 140),
        Algo::Vectorized => c(1.059, 1.1132, 1.14, 1.03, 148027.0, 123),
        Algo::ConflictFree => c(0.738, 1.0494, 1.24, 1.05, 573278.0, 123),
        Algo::Warptile => c(0.718, 1.0517, 1.25, 1.14, 1512904.0, 123),
        Algo::Dbuf128x128x8 => c(0.759, 0.8770, 1.14, 1.09, 231959.0, 127),
        Algo::Dbuf128x128x16 => c(0.954, 1.6234, 1.00, 1.08, 1345593.0, 149),
        // Kernel 29: this tile's main loop with a store that finishes its sums — its constants (not fitted on
        // its own runs; the epilogue unpriced) and its own registers.
        Algo::FusedF32 => c(0.954, 1.6234, 1.00, 1.08, 1345593.0, 128),
        Algo::Dbuf128x64x16 => c(0.957, 1.4498, 1.69, 1.14, 3261090.0, 159),
        Algo::Dbuf64x64x16 => c(0.275, 0.6697, 1.48, 1.16, 2490730.0, 109),
        Algo::Dbuf128x256x16 => c(1.642, 2.9432, 1.00, 1.10, 1238259.0, 253),
        Algo::Dbuf128x256x16Rolled => c(1.609, 3.4641, 1.00, 1.07, 1243454.0, 224),
        Algo::Async64x64x16s3 => c(0.251, 0.6594, 1.43, 1.11, 1567943.0, 118),
        Algo::SplitK128x128x16 => c(1.000, 1.6238, 1.00, 1.10, 1000000.0, 143),
        Algo::SplitK64x64x16 => c(0.212, 0.6286, 1.37, 1.21, 1000000.0, 111),
        Algo::SplitK128x32x16 => c(0.190, 0.7217, 1.41, 1.25, 1000000.0, 121),
        Algo::SplitK32x128x16 => c(0.244, 0.5746, 1.28, 1.26, 1000000.0, 117),
        Algo::SplitK128x256x16 => c(2.401, 2.9339, 1.00, 1.09, 1000000.0, 249),
        Algo::SplitK256x128x16 => c(2.386, 3.1198, 1.00, 1.08, 1000000.0, 255),
        Algo::StreamK128x128x16 => c(0.974, 1.6865, 1.17, 1.10, 1228578.0, 126),
        Algo::StreamK128x256x16 => interior(c(2.656, 3.0959, 1.00, 1.09, 1626912.0, 255), 0.901),
        Algo::StreamK64x64x16 => interior(c(0.315, 0.6581, 1.48, 1.18, 1210412.0, 128), 0.967),
        Algo::FewRows => few_rows(c(0.324, 0.2413, 1.35, 1.36, 348297.0, 128), 0.691, 2502.0),
        // Kernel 19's `f32` entry: fitted before its shared body (K a multiple of 8, 28805ca) and its
        // branch-free odd-K loop (d1836bb), both faster (docs/results/2026-12-06-s46); not refitted yet.
        Algo::FewCols4 => few_cols(c(1.732, 0.1283, 1.64, 1.23, 122635.0, 128), 0.493, 2525.0),
        // COSTS-END
        // Tensor-core kernels on their operands in place, `Auto`'s candidates beside the TMA kernels
        // (scripts/fit-tc-small.py on docs/results/2026-12-02-tc-small/train and train-k20; the FP16 entries take
        // their BF16 twins' constants: the same code at the same instruction rate). The 16-bit entries'
        // `unaligned` (odd rows, element by element): 1-D refits, the other constants held, on ten shapes
        // of docs/results/2026-12-04-narrow-pieces/tune-37e1373 (`OD`).
        // TC-COSTS-BEGIN
        Algo::MmaNaiveBf16 | Algo::MmaNaiveF16 => tc(c(0.183, 0.3019, 1.86, 1.00, 1000000.0, 32), 8),
        Algo::MmaSharedBf16 | Algo::MmaSharedF16 => tc(c(0.542, 0.7837, 1.33, 2.96, 1000000.0, 64), 8),
        Algo::MmaPipeBf16x128 | Algo::MmaPipeF16x128 => tc(c(3.236, 0.5096, 1.00, 6.04, 1000000.0, 231), 8),
        Algo::MmaPipeBf16x256 | Algo::MmaPipeF16x256 => tc(c(3.873, 0.7912, 3.77, 3.66, 1000000.0, 234), 8),
        Algo::WgmmaBf16Narrow | Algo::WgmmaF16Narrow => tc(c(1.209, 0.7707, 1.00, 3.50, 1000000.0, 127), 8),
        Algo::WgmmaBf16 | Algo::WgmmaF16 => tc(c(2.613, 0.9730, 3.31, 4.00, 1000000.0, 220), 8),
        Algo::MmaNaiveTf32 => tc(c(0.020, 0.3048, 1.94, 1.00, 1000000.0, 32), 4),
        Algo::MmaSharedTf32 => tc(c(0.990, 1.1244, 1.14, 1.41, 1000000.0, 98), 4),
        Algo::MmaPipeTf32 => tc(c(4.771, 0.9286, 1.00, 2.46, 1000000.0, 242), 4),
        Algo::MmaSplitKBf16Rows16 | Algo::MmaSplitKF16Rows16 => tc(c(0.565, 0.5615, 1.68, 5.66, 1000000.0, 80), 8),
        Algo::MmaSplitKBf16Rows64 | Algo::MmaSplitKF16Rows64 => tc(c(1.915, 0.3578, 1.46, 5.08, 1000000.0, 166), 8),
        Algo::MmaSplitKTf32Rows16 => tc(c(1.115, 0.3840, 1.26, 2.93, 1000000.0, 68), 4),
        Algo::MmaSplitKTf32Rows64 => tc(c(3.033, 0.7229, 1.35, 2.16, 1000000.0, 166), 4),
        // Kernel 20's 128×32 entries (scripts/fit-tc-small.py --kernels; the FP16 entry takes BF16's). The
        // 16-bit ones refitted in session 47 on the times `Auto` tuned on request measured for them (H200,
        // seeds 20271241/42: 53 launches, docs/results/2026-12-06-s47/analysis): held out (seeds
        // 20271250/51, 37 launches) median |log error| 0.21 → 0.09 — the old constants (c32-a492d79) priced
        // them 1.2× fast; TF32's from docs/results/2026-12-03-thin/c32-a492d79 (24 shapes of ≤ 32 columns).
        Algo::MmaSplitKBf16Cols32 | Algo::MmaSplitKF16Cols32 => tc(c(0.943, 0.6121, 1.25, 4.00, 1000000.0, 111), 8),
        Algo::MmaSplitKTf32Cols32 => tc(c(1.673, 0.4956, 1.00, 1.10, 1000000.0, 101), 4),
        // Kernel 20's 128×64 entries (scripts/fit-tc-small.py --kernels on docs/results/2026-12-03-widened-streamk/
        // c64-d3baf5c: 24 BF16 shapes of 33–64 columns, 6 held out; the FP16 entry takes BF16's).
        Algo::MmaSplitKBf16Cols64 | Algo::MmaSplitKF16Cols64 => tc(c(1.719, 0.6133, 1.26, 3.38, 1000000.0, 72), 8),
        // TC-COSTS-END
        // Kernel 21 (16-bit inputs on the CUDA cores; scripts/fit-tc-small.py --kernels on
        // docs/results/2026-12-02-widened/{train,train-k22}: 37 BF16 shapes of 1–20 µs at the slices `tc_plans`
        // printed; the FP16 entries take their BF16 twins' time constants, each its own registers).
        // WIDENED-COSTS-BEGIN
        Algo::WidenedBf16 => widened(c(0.076, 0.9495, 1.51, 1.33, 1000000.0, 115)),
        Algo::WidenedF16 => widened(c(0.076, 0.9495, 1.51, 1.33, 1000000.0, 121)),
        Algo::WidenedBf16Cols32 => widened(c(0.213, 0.8715, 1.43, 1.34, 1000000.0, 113)),
        Algo::WidenedF16Cols32 => widened(c(0.213, 0.8715, 1.43, 1.34, 1000000.0, 121)),
        Algo::WidenedBf16Rows32 => widened(c(0.000, 1.0848, 1.54, 1.32, 1000000.0, 115)),
        Algo::WidenedF16Rows32 => widened(c(0.000, 1.0848, 1.54, 1.32, 1000000.0, 125)),
        // Its stream-K entries: scripts/fit-auto-model.py --only widened-streamk-bf16-64x64 (kernel 17's
        // formula) on docs/results/2026-12-03-widened-streamk/train-95db21c, 56 BF16 shapes.
        Algo::WidenedStreamKBf16 => widened(c(0.391, 1.2897, 2.48, 1.25, 1343836.0, 127)),
        Algo::WidenedStreamKF16 => widened(c(0.391, 1.2897, 2.48, 1.25, 1343836.0, 128)),
        // WIDENED-COSTS-END
        // Kernel 21 on kernel 8's 128×128×8 tile (scripts/fit-tc-small.py --kernels widened-bf16-128x128 on
        // docs/results/2026-12-05-s42/a/tune-bf16: 19 BF16 store-bound shapes, K 4–704; the FP16 entry takes
        // BF16's time constants, its own registers).
        Algo::WidenedBf16Wide => widened(c(0.962, 1.2474, 1.61, 1.00, 1000000.0, 123)),
        Algo::WidenedF16Wide => widened(c(0.962, 1.2474, 1.61, 1.00, 1000000.0, 126)),
        // Kernels 18 and 19 on 16-bit inputs widened as they are used (scripts/fit-few-16.py; the FP16
        // entries take their BF16 twins' time constants, each its own registers); the read floor counts
        // 2-byte elements. Kernel 18's entries (groups of eight rows of B, passes of eight rows of C:
        // session 57) fitted with their fill exponent (`scripts/fit-few-16.py --fill`) on session 47's 28
        // training shapes (seed 47018) and 10 few-row products against B rows of odd length and their
        // aligned twins, BF16 and FP16 pooled, the rows of one pass (M ≤ 8), measured on an H100
        // (docs/results/2026-12-07-s57/a-de5edf8/{train,oddn}-new): held-out median |log error| 0.11
        // (0.17 refitted with no fill term, 0.15 with the old loop's constants) on the 8 of session 47's
        // 12 other shapes with M ≤ 8 (`held-new`). Kernel 19's entries (one
        // predicated loop, the one-column GEMV body: 9e810bc) refitted with `gemv` on 24 training shapes
        // of ≤ 32 columns, BF16 and FP16 pooled, measured on an H100
        // (docs/results/2026-12-06-s45/k2-9e810bc/new-train; no H200 was lent): held-out median
        // |log error| 0.13 (32-row) and 0.20 (K-split) on 15 other shapes (`new-held`). Where K is no
        // multiple of 8 the kernel then ran 1.5–3.5× slower than `unaligned` ≈ 1 says; since d1836bb it runs
        // about as priced (docs/results/2026-12-06-s46/k5-d1836bb) — not refitted on it yet.
        // FEW-16-COSTS-BEGIN
        Algo::FewRowsBf16 => one_pass(widened(few_rows(c(0.000, 0.3726, 2.61, 1.94, 348297.0, 128), 0.339, 2475.3)), 0.706),
        Algo::FewRowsF16 => one_pass(widened(few_rows(c(0.000, 0.3726, 2.61, 1.94, 348297.0, 128), 0.339, 2475.3)), 0.706),
        Algo::FewColsBf16 => gemv(widened(few_cols(c(0.432, 0.3823, 4.49, 1.06, 122635.0, 128), 0.334, 3504.0)), 0.163),
        Algo::FewColsF16 => gemv(widened(few_cols(c(0.432, 0.3823, 4.49, 1.06, 122635.0, 128), 0.334, 3504.0)), 0.163),
        Algo::FewColsKsplitBf16 => gemv(widened(few_cols(c(2.163, 0.0928, 4.59, 1.00, 122635.0, 128), 0.275, 5050.0)), 0.050),
        Algo::FewColsKsplitF16 => gemv(widened(few_cols(c(2.163, 0.0928, 4.59, 1.00, 122635.0, 128), 0.275, 5050.0)), 0.050),
        // Kernel 2's 16-bit entries take the FP32 entry's constants (the same body; elements half the
        // bytes, widened as staged): only the registers are their own.
        Algo::TiledBf16 => widened(c(0.016, 0.3262, 2.43, 1.02, 2342633.0, 32)),
        Algo::TiledF16 => widened(c(0.016, 0.3262, 2.43, 1.02, 2342633.0, 32)),
        // FEW-16-COSTS-END
        _ => None,
    }
}

/// Blocks of a kernel one SM holds at once (H200 / sm_90: 64 Ki registers allocated per warp in
/// units of 256, 228 KiB of shared memory with 1 KiB reserved per block, 2048 threads, 32 blocks).
pub fn blocks_per_sm(config: TileConfig, registers: u32) -> u32 {
    let threads = config.threads().max(1);
    let warps = threads.div_ceil(32);
    let per_warp = (registers.max(1) * 32).div_ceil(256) * 256;
    let by_registers = (65_536 / per_warp) / warps;
    let by_shared = 233_472 / (config.shared_bytes + 1024);
    (2048 / threads).min(32).min(by_registers).min(by_shared).max(1)
}

/// The model's time, in microseconds, of one launch of `algo` (a concrete FP32 kernel) on `shape` with
/// `splits` slices of K, on a GPU of `sms` SMs; `None` for a kernel without constants.
///
/// With `b` blocks per SM at once and `q` = `overlap`: a block alone takes
/// `T = block_us + step_us·steps` (× `unaligned` on the steps when N or K is not a multiple of 4);
/// `x ≤ b` blocks side by side take `T·max(1, x/q)`. The busiest SM gets `⌈tiles·splits / sms⌉`
/// blocks: full rounds of `b`, then the last, partial one. Plus [`LAUNCH_US`], and for split-K the
/// zeroing of `C` and its `M·N·S` atomic adds ([`ATOMIC_ADDS_PER_US`]); the stores of `C` at
/// [`STORE_GB_PER_S`], where N is not a multiple of 4 at the kernel's `unaligned_stores_per_us` —
/// never faster than aligned rows (a fitted rate above [`STORE_GB_PER_S`]'s is cut to it). Stream-K kernels:
/// their own walk (`predict_stream_k`); `splits` is unused.
pub fn predict_us(algo: Algo, shape: MatmulShape, splits: u32, sms: u32) -> Option<f64> {
    let (t, mut c) = (algo.config()?, cost(algo)?);
    if algo.precision() == Some(Precision::Fp32) {
        return Some(predict(t, c, shape, splits, sms));
    }
    if let Some(factor) = narrow_step(t, c, shape) {
        c.unaligned = factor;
    }
    let us = predict(t, c, shape, splits, sms);
    Some(us.max(LAUNCH_US + dram_floor_us(t, c, shape, sms) + split_terms_us(t, c, shape, splits)))
}

/// A batch on kernel 28 or 30 priced from its single-product kernel's model ([`predict_us`] of kernel
/// 8's, 13's or 20's tile) on the batch stacked into one product: `single` that price at the batch's
/// K, `fixed` at one K-step (what does not grow with K: the launch, the pipeline's ramp, the store
/// of `C`). Kernel 30 runs the K-steps at [`BATCH_STEP_SHARE`] of their single-product price and the
/// rest at [`batch_fixed_share`] of it — a batch's blocks hide each other's ramps and stores, which
/// one product's single wave of tiles cannot — and a 16-bit `C` (`c16`) scales that rest by
/// [`batch_c16_fixed`] (half the store's bytes, rounded as they are staged). Fitted on the H200's
/// eight tuning batches (`docs/results/2026-12-05-pingpong-pairs/call1-ce006c7`: 512 × 64³ to 4 ×
/// 4096×1024×1024, root-mean-square log error 0.12 and 0.15 by tile) with issue 36's three batches
/// held out (predicted ÷ measured 0.93–1.11 and 0.91–1.12 there, where one factor on the whole price
/// had 0.75 at 8 × 2048³: kernel 30 priced below kernel 26 on large products). Kernel 28 keeps its
/// single-product price (not measured).
pub fn batch_us(algo: crate::registry::grouped::GroupedAlgo, single: f64, fixed: f64, c16: bool) -> f64 {
    use crate::registry::grouped::GroupedAlgo;
    if !matches!(algo, GroupedAlgo::MmaBf16 | GroupedAlgo::MmaBf16Rows64 | GroupedAlgo::MmaF16 | GroupedAlgo::MmaF16Rows64) {
        return single;
    }
    let rest = batch_fixed_share(algo) * fixed.min(single) * if c16 { batch_c16_fixed(algo) } else { 1.0 };
    BATCH_STEP_SHARE * (single - fixed).max(0.0) + rest
}

/// Kernel 30's K-steps over the batch at this share of their single-product price ([`batch_us`]).
pub const BATCH_STEP_SHARE: f64 = 0.68;

/// Kernel 30's K-independent time over the batch at this share of its single-product price
/// ([`batch_us`]): 0.34 on the 128×128 tile, 0.46 on 64×128.
pub fn batch_fixed_share(algo: crate::registry::grouped::GroupedAlgo) -> f64 {
    use crate::registry::grouped::GroupedAlgo;
    match algo {
        GroupedAlgo::MmaBf16Rows64 | GroupedAlgo::MmaF16Rows64 => 0.46,
        _ => 0.34,
    }
}

/// Kernel 30's K-independent time with a 16-bit `C` over its time with an `f32` one ([`batch_us`]):
/// 0.62 on the 128×128 tile, 0.54 on 64×128 — the medians over the eight BF16 tuning batches, each
/// tile both ways (`docs/results/2026-12-05-h100-refits/call5-164f345`; that share of each batch's
/// `f32` time from the fit above); the report set (issue 36's three batches and three drawn after)
/// held out.
pub fn batch_c16_fixed(algo: crate::registry::grouped::GroupedAlgo) -> f64 {
    use crate::registry::grouped::GroupedAlgo;
    match algo {
        GroupedAlgo::MmaBf16Rows64 | GroupedAlgo::MmaF16Rows64 => 0.54,
        _ => 0.62,
    }
}

/// Kernel 26's finishing twin's time writing a 16-bit `C` (no epilogue) over the plain entry's with an
/// `f32` `C`: it stores through the slower finishing path (1.10 on 128×128, 1.17 on 128×256, 1.30 on
/// 64×128; the medians over the eight BF16 tuning batches of `docs/results/2026-12-05-h100-refits/call5-164f345`,
/// 0.99–1.62). On `tc_model::predict_products_us`'s `f32` price this weighs kernel 26 against kernel
/// 30's 16-bit store ([`batch_us`]).
pub fn finished_c16_over_f32(algo: crate::registry::grouped::GroupedAlgo) -> f64 {
    use crate::registry::grouped::GroupedAlgo;
    match algo {
        GroupedAlgo::Bf16 | GroupedAlgo::F16 => 1.10,
        GroupedAlgo::Bf16Wide | GroupedAlgo::F16Wide => 1.17,
        GroupedAlgo::Bf16Rows64 | GroupedAlgo::F16Rows64 => 1.30,
        _ => 1.0,
    }
}

/// Factor on an in-place tensor-core kernel's K-step time where its rows are not 16-byte aligned but
/// are copied in two 8-byte `cp.async` pieces per 16-byte chunk ([`narrow_pieces`]), in place of its
/// fitted `unaligned` factor (which prices the element-by-element loads of odd 16-bit rows). The median
/// of measured ÷ predicted-as-aligned over kernels 12, 13 and 20 on ten BF16 shapes with K and N
/// multiples of 4 (`docs/results/2026-12-02-tc-small-squares/narrow`: 1.05–1.35 by kernel).
pub const TC_NARROW_STEP_8: f64 = 1.2;
/// As [`TC_NARROW_STEP_8`] for four 4-byte pieces per chunk: the 1-D fit over kernels 12, 13 and 20
/// on twenty BF16 shapes with K and N even (`docs/results/2026-12-04-narrow-pieces/tune-37e1373`:
/// 1.72, median |log error| 0.12), and 1.65 for TF32's odd rows (seven shapes, 2026-12-02).
pub const TC_NARROW_STEP_4: f64 = 1.7;

/// Whether `shape`'s rows are 16-byte aligned for inputs of `vector` elements per 16 bytes: N (B's
/// and C's rows) and K (A's rows) multiples of it. The kernels copy such rows in whole 16-byte chunks.
pub fn rows_aligned(shape: MatmulShape, vector: u32) -> bool {
    shape.n.is_multiple_of(vector) && shape.k.is_multiple_of(vector)
}

/// The narrowest piece size, in bytes, of `shape`'s two operands' rows with inputs of `c.vector`
/// elements per 16 bytes: 8 where K and N are multiples of 8 bytes, 4 where of 4 bytes, `None` for
/// 16-byte rows (whole chunks) and odd 16-bit rows (element by element). Kernels with narrow copies
/// take each operand's own ([`piece_bytes`], the kernels' rule).
pub fn narrow_pieces(c: Cost, shape: MatmulShape) -> Option<u32> {
    let (n, k, elem) = (shape.n, shape.k, 16 / c.vector);
    if rows_aligned(shape, c.vector) {
        return None;
    }
    [8, 4].into_iter().find(|w| n.is_multiple_of(w / elem) && k.is_multiple_of(w / elem))
}

/// The K-step factor of an in-place kernel with narrow copies on `shape`, `None` for other kernels:
/// each operand's factor for its own pieces ([`piece_bytes`]: 1 for 16-byte pieces,
/// [`TC_NARROW_STEP_8`], [`TC_NARROW_STEP_4`], the entry's `unaligned` element by element), weighted
/// by its share of a K-tile's loads (`BM` rows of A against `BN` columns of B). Where both operands
/// take the same pieces this is the factor the constants were fitted with.
fn narrow_step(t: TileConfig, c: Cost, shape: MatmulShape) -> Option<f64> {
    if !t.narrow_copies {
        return None;
    }
    let elem = 16 / c.vector.max(1);
    let factor = |piece| match piece {
        16 => 1.0,
        8 => TC_NARROW_STEP_8,
        4 => TC_NARROW_STEP_4,
        _ => c.unaligned,
    };
    let (a, b) = (f64::from(t.bm), f64::from(t.bn));
    Some((a * factor(piece_bytes(shape.k, elem)) + b * factor(piece_bytes(shape.n, elem))) / (a + b))
}

/// The least time a tensor-core kernel that reads its operands in place can take reading `A` and
/// `B` once from DRAM (`16 / Cost::vector`-byte elements) at the device copy rate ([`ZERO_GB_PER_S`],
/// in proportion to `sms`): the memory-bound floor of products with a few rows against large weights
/// (16×14336×4096 BF16 moves 117 MB: 28 µs at 4.19 TB/s), where the fitted steps alone price
/// kernel 20 below what DRAM allows.
fn dram_floor_us(t: TileConfig, c: Cost, shape: MatmulShape, sms: u32) -> f64 {
    let (m, n, k) = (f64::from(shape.m), f64::from(shape.n), f64::from(shape.k));
    let elem = f64::from(16 / c.vector.max(1));
    // Element by element: each operand of a kernel with narrow copies on its own rows; the others
    // load both operands one way. Kernel 19 (a column limit) streams A's rows, in 16-byte loads where
    // K allows whatever N.
    let (a_odd, b_odd) = if t.narrow_copies {
        let elem = 16 / c.vector.max(1);
        (piece_bytes(shape.k, elem) == 0, piece_bytes(shape.n, elem) == 0)
    } else {
        let aligned = if c.max_cols != u32::MAX { shape.k.is_multiple_of(c.vector) } else { rows_aligned(shape, c.vector) };
        let element_wise = elem == 2.0 && !aligned && narrow_pieces(c, shape).is_none();
        (element_wise, element_wise)
    };
    let per_us = |odd: bool| (if odd { c.odd_rows_gb_per_s } else { ZERO_GB_PER_S }) * 1e3 * f64::from(sms.max(1)) / f64::from(SMS);
    elem * m * k / per_us(a_odd) + elem * k * n / per_us(b_odd)
}

/// The fastest rate (GB/s) at which an in-place kernel read odd 16-bit rows (element by element) on a
/// tuning set of ten few-row products with B of 54–250 MB (`docs/results/2026-12-04-fitted-tiles/
/// oddrows-e83f078`): kernel 20's 64×128 tile 0.56–0.82 TB/s, its 16×128 0.32–0.69, kernel 18
/// 0.20–0.73, kernel 21's 32×128 0.36–0.59 — where the TMA kernels on a packed copy moved the same
/// bytes twice over and still finished first. The floor of `dram_floor_us` for such rows
/// ([`Cost::odd_rows_gb_per_s`], kernel 19's 16-bit entries aside).
pub const ODD_ROWS_GB_PER_S: f64 = 820.0;

/// The split-K terms of [`predict`] (zeroing `C`, the atomic adds, the slices adding into a tile),
/// or storing `C`, for a launch of `splits` slices.
fn split_terms_us(t: TileConfig, c: Cost, shape: MatmulShape, splits: u32) -> f64 {
    let splits = u64::from(splits.max(1));
    let (m, n) = (u64::from(shape.m), u64::from(shape.n));
    let aligned = rows_aligned(shape, c.vector);
    if t.split_k && (splits > 1 || !t.stores_unsplit) {
        zeroing_us(shape) + atomic_us(shape, (m * n * splits) as f64) + adds_depth_us(shape, t.bm, splits as f64, aligned)
    } else {
        stores_us(c, shape)
    }
}

fn predict(t: TileConfig, c: Cost, shape: MatmulShape, splits: u32, sms: u32) -> f64 {
    if t.stream_k {
        return predict_stream_k(t, c, shape, sms);
    }
    let (m, n, k) = (u64::from(shape.m), u64::from(shape.n), u64::from(shape.k));
    let splits = u64::from(splits.max(1));
    let tiles = m.div_ceil(u64::from(t.bm)) * n.div_ceil(u64::from(t.bn));
    let bk = u64::from(t.bk.max(1));
    // Kernel 10's slice: ⌈K / S⌉ rounded up to BK.
    let steps = k.div_ceil(splits).div_ceil(bk);
    let unroll = u64::from(c.unroll.max(1));
    let steps = steps / unroll + steps % unroll;
    let aligned = rows_aligned(shape, c.vector);
    // The busiest block's rows: a whole tile, unless M is smaller (only kernel 18's time sees it).
    let rows = m.min(u64::from(t.bm)).max(1) as f64;
    let step = c.step_us * rows.powf(c.rows_exponent) * if aligned { 1.0 } else { c.unaligned } * if shape.n == 1 { c.gemv } else { 1.0 };
    let alone = c.block_us + step * steps as f64;
    let resident = u64::from(blocks_per_sm(t, c.registers));
    let q = c.overlap.clamp(1.0, resident as f64);
    let per_sm = (tiles * splits).div_ceil(u64::from(sms.max(1)));
    let (full, rest) = (per_sm / resident, per_sm % resident);
    let mut blocks_us = full as f64 * alone * resident as f64 / q;
    if rest > 0 {
        blocks_us += alone * (rest as f64 / q).max(1.0);
    }
    // The read rate was fitted on the H200's SMS SMs; each SM issues its share of the loads, at the
    // full rate once the launch fills them (`Cost::read_fill_exponent`).
    let bytes = read_bytes(t, shape, 16 / c.vector.max(1));
    let read_us = bytes / (read_rate(c, bytes, tiles * splits, resident, sms) * 1e3 * f64::from(sms.max(1)) / f64::from(SMS));
    // Split-K kernels add into zeroed C, except one that stores when launched with one slice.
    LAUNCH_US + blocks_us.max(read_us) + split_terms_us(t, c, shape, splits as u32)
}

/// Operands of more bytes than this stream from DRAM in a launch, fewer stay in the L2 from one launch
/// to the next: half the L2, whose two partitions each cache what the SMs beside them read (NVIDIA's
/// A100 whitepaper), so that operands every SM reads are held twice. Kernel 18's 16-bit fit was the
/// same with any bound from 25 to 40 MB (no training shape between).
pub const DRAM_STREAM_BYTES: f64 = crate::select::tc_model::L2_BYTES / 2.0;

/// The rate (GB/s on [`SMS`] SMs) at which a launch of `blocks` blocks, `resident` of them to an SM,
/// reads `bytes` of `A` and `B`: [`Cost::read_gb_per_s`], where the bytes stream from DRAM
/// ([`DRAM_STREAM_BYTES`]) times the launch's fill of the SMs to the power
/// [`Cost::read_fill_exponent`].
fn read_rate(c: Cost, bytes: f64, blocks: u64, resident: u64, sms: u32) -> f64 {
    if bytes <= DRAM_STREAM_BYTES {
        return c.read_gb_per_s;
    }
    let fill = (blocks as f64 / (f64::from(sms.max(1)) * resident.max(1) as f64)).min(1.0);
    c.read_gb_per_s * fill.powf(c.read_fill_exponent)
}

/// Bytes of `A` and `B` a launch of tile `t` reads, of `elem_bytes`-byte elements: `A` once per block
/// column, `B` once per block row (`elem_bytes·(M·K·⌈N/BN⌉ + K·N·⌈M/BM⌉)`); the floor
/// [`Cost::read_gb_per_s`] puts on its blocks' time.
pub fn read_bytes(t: TileConfig, shape: MatmulShape, elem_bytes: u32) -> f64 {
    let (m, n, k) = (f64::from(shape.m), f64::from(shape.n), f64::from(shape.k));
    f64::from(elem_bytes) * (m * k * f64::from(shape.n.div_ceil(t.bn.max(1))) + k * n * f64::from(shape.m.div_ceil(t.bm.max(1))))
}

/// Storing `C` (kernels that store rather than add it): `4·M·N` bytes at the kernel's [`Cost::store_gb_per_s`]; where N
/// is not a multiple of 4, `M·N` outputs at the kernel's `unaligned_stores_per_us`, but never in less
/// time than aligned rows (the fit left `blocktile-1d`'s unaligned rate above the aligned one: its
/// stores coalesce along rows either way, and the steps' `unaligned` factor 1.00 did not make up
/// for it).
fn stores_us(c: Cost, shape: MatmulShape) -> f64 {
    let mn = f64::from(shape.m) * f64::from(shape.n);
    let aligned = 4.0 * mn / (c.store_gb_per_s * 1e3);
    if shape.n.is_multiple_of(4) {
        aligned
    } else {
        (mn / c.unaligned_stores_per_us).max(aligned)
    }
}

/// Zeroing `C` before a kernel that adds into it: [`ZERO_LAUNCH_US`] plus `4·M·N` bytes at
/// [`ZERO_GB_PER_S`].
fn zeroing_us(shape: MatmulShape) -> f64 {
    ZERO_LAUNCH_US + 4.0 * f64::from(shape.m) * f64::from(shape.n) / (ZERO_GB_PER_S * 1e3)
}

/// `adds` atomic additions into `C` over the whole GPU: [`ATOMIC_ADDS_V4_PER_US`] where N is a
/// multiple of 4 (the kernels add four columns at once), [`ATOMIC_ADDS_PER_US`] otherwise.
fn atomic_us(shape: MatmulShape, adds: f64) -> f64 {
    adds / if shape.n.is_multiple_of(4) { ATOMIC_ADDS_V4_PER_US } else { ATOMIC_ADDS_PER_US }
}

/// How kernel 17 (stream-K) divides a product among `blocks` blocks: the kernel's own walk
/// (`⌊i·total/G⌋` bounds over the `tiles·⌈K/bk⌉` K-steps, numbered tile by tile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StreamKWalk {
    /// Output tiles.
    pub tiles: u64,
    /// The blocks the walk was made for (at most one per K-step; 0 for an empty product).
    pub blocks: u64,
    /// The most pieces (runs of one tile's K-steps) any block has.
    pub most_pieces: u64,
    /// The most K-steps any block has (the runs differ by at most one).
    pub most_steps: u64,
    /// Pieces that are a whole tile (stored).
    pub whole: u64,
    /// Pieces that are part of a tile (added atomically into `C`).
    pub partial: u64,
}

/// Kernel 17's walk of `shape` on `blocks` blocks (clamped to one per K-step), tile `t`.
pub fn stream_k_walk(t: TileConfig, shape: MatmulShape, blocks: u64) -> StreamKWalk {
    let tiles = u64::from(shape.m.div_ceil(t.bm.max(1))) * u64::from(shape.n.div_ceil(t.bn.max(1)));
    let per_tile = u64::from(shape.k.div_ceil(t.bk.max(1)).max(1));
    let total = tiles * per_tile;
    let blocks = blocks.max(1).min(total);
    let mut walk = StreamKWalk { tiles, blocks, ..StreamKWalk::default() };
    if blocks == 0 {
        return walk;
    }
    walk.most_steps = total.div_ceil(blocks);
    for b in 0..blocks {
        let (begin, end) = (b * total / blocks, (b + 1) * total / blocks);
        let (first, last) = (begin / per_tile, (end - 1) / per_tile);
        let pieces = last - first + 1;
        walk.most_pieces = walk.most_pieces.max(pieces);
        // The first piece is partial unless it starts and ends on the tile's bounds; the last (when
        // another) unless it ends on one; the pieces between are whole tiles.
        let first_partial = !begin.is_multiple_of(per_tile) || end < (first + 1) * per_tile;
        let last_partial = last > first && !end.is_multiple_of(per_tile);
        let partial = u64::from(first_partial) + u64::from(last_partial);
        walk.partial += partial;
        walk.whole += pieces - partial;
    }
    walk
}

/// The share of a stream-K launch's K-steps in interior pieces, those kernel 17 runs through
/// `accumulate_interior` where its entry has one (`Cost::interior`): tiles wholly inside `C`
/// (`⌊M/BM⌋·⌊N/BN⌋` of the tiles) where N is a multiple of 4 and K of BK; 0 elsewhere (where K is not
/// a multiple of BK only pieces that end before the last K-step qualify: not priced).
pub fn interior_share(t: TileConfig, shape: MatmulShape) -> f64 {
    let (bm, bn) = (u64::from(t.bm.max(1)), u64::from(t.bn.max(1)));
    let (m, n) = (u64::from(shape.m), u64::from(shape.n));
    let tiles = m.div_ceil(bm) * n.div_ceil(bn);
    if !t.stream_k || tiles == 0 || shape.k == 0 || !shape.n.is_multiple_of(4) || !shape.k.is_multiple_of(t.bk.max(1)) {
        return 0.0;
    }
    ((m / bm) * (n / bn)) as f64 / tiles as f64
}

/// Stream-K (kernel 17) on `G` = [`stream_k_blocks`] blocks, all resident at once: the most pieces
/// (one `block_us` each) and K-steps of any block ([`stream_k_walk`]; the [`interior_share`] of them
/// at `interior` × the step), its SM's `b` blocks side by side (`× max(1, b/q)`), plus the launch, the zeroing of `C` and the atomic adds of every piece that
/// is not a whole tile (a tile's share of `M·N` each). An empty product costs the launch.
fn predict_stream_k(t: TileConfig, c: Cost, shape: MatmulShape, sms: u32) -> f64 {
    let resident = blocks_per_sm(t, c.registers);
    let walk = stream_k_walk(t, shape, u64::from(sms.max(1) * resident));
    if walk.tiles == 0 {
        return LAUNCH_US;
    }
    let (m, n) = (u64::from(shape.m), u64::from(shape.n));
    let aligned = rows_aligned(shape, 4);
    let step_us = c.step_us * if aligned { 1.0 } else { c.unaligned } * (1.0 - interior_share(t, shape) * (1.0 - c.interior));
    let q = c.overlap.clamp(1.0, f64::from(resident));
    let sm_blocks = walk.blocks.div_ceil(u64::from(sms.max(1))) as f64;
    let busiest = walk.most_pieces as f64 * c.block_us + walk.most_steps as f64 * step_us;
    let mut us = LAUNCH_US + busiest * (sm_blocks / q).max(1.0) + zeroing_us(shape);
    us += adds_depth_us(shape, t.bm, walk.blocks as f64 / walk.tiles as f64, aligned);
    us += atomic_us(shape, walk.partial as f64 * (m * n) as f64 / walk.tiles as f64);
    if !shape.n.is_multiple_of(4) {
        us += (m * n) as f64 / c.unaligned_stores_per_us;
    }
    us
}

/// Split-K's slice counts the model tries: every count up to 8, then steps of about a quarter.
const SPLIT_CANDIDATES: [u32; 24] = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128];

/// The slice count of least time `price(slices)` and that time (1 and the kernel's time for a kernel
/// that does not split K).
fn best_splits(t: TileConfig, c: Cost, shape: MatmulShape, price: impl Fn(u32) -> f64) -> (u32, f64) {
    if !t.split_k {
        return (1, price(1));
    }
    let most = (shape.k / (c.min_slice_steps.max(1) * t.bk.max(1))).clamp(1, MAX_SPLITS);
    let mut best = (1, price(1));
    for s in SPLIT_CANDIDATES.into_iter().filter(|&s| s > 1 && s <= most) {
        let us = price(s);
        if us < best.1 {
            best = (s, us);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::model_choice;
    use crate::target::Target;
    use tessera_kernels::launch::TileConfig;

    #[test]
    fn splits_fill_one_wave_with_slices_of_at_least_64() {
        let s = |m, n, k| MatmulShape { m, n, k };
        assert_eq!(splits(s(256, 4096, 4096), 128, 128), 2); // 64 tiles → 128 blocks
        assert_eq!(splits(s(512, 512, 512), 64, 64), 2); // 64 tiles
        assert_eq!(splits(s(512, 512, 512), 128, 128), 8); // 16 tiles → 8, K / 64 = 8
        assert_eq!(splits(s(130, 70, 300), 128, 128), 4); // 2 tiles → 66, capped by K / 64 = 4
        assert_eq!(splits(s(4096, 4096, 4096), 128, 128), 1); // 1024 tiles: already full
        assert_eq!(splits(s(64, 64, 63), 64, 64), 1); // K too short to split
    }

    #[test]
    fn tensor_core_auto_takes_tma_kernels_for_large_products_in_place_ones_for_tiny_ones() {
        let s = |m, n, k| MatmulShape { m, n, k };
        let (big, odd) = (s(4096, 4096, 4096), s(1000, 1037, 519));
        assert_eq!(model_choice(big, Precision::Bf16, Target::new(SMS, true)).kernel(), Algo::PersistentBf16);
        assert_eq!(model_choice(big, Precision::Fp16, Target::new(SMS, true)).kernel(), Algo::PersistentF16);
        assert_eq!(model_choice(big, Precision::Tf32, Target::new(SMS, true)).kernel(), Algo::PersistentTf32);
        // Products with work for the tensor cores run a TMA kernel on Hopper (unaligned rows read
        // from padded copies); products of a few microseconds a kernel on the operands in place (a
        // TMA kernel's fixed costs are most of its time there). Always of the precision asked for
        // (TF32's tiny products in exact FP32, more precise); split-K only in kernel 16.
        let tiny = [s(1, 1, 1), s(4, 5, 3), s(96, 8, 8), s(344, 140, 4)];
        // (512³ runs either way: kernel 20 and kernel 16 measured within 5 % of each other.)
        for shape in [big, odd, s(8192, 128, 8192), s(4096, 4100, 4100), s(1000, 1037, 518)].into_iter().chain(tiny) {
            for p in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
                let algo = model_choice(shape, p, Target::new(SMS, true)).kernel();
                let tma = algo.config().is_some_and(|c| c.tma || c.producer_copies);
                assert_eq!(tma, !tiny.contains(&shape), "{p:?} {shape:?}: {algo:?}");
                let exact = p == Precision::Tf32 && tiny.contains(&shape) && algo.precision() == Some(Precision::Fp32);
                assert!(algo.precision() == Some(p) || exact, "{p:?} {shape:?}: {algo:?}");
                assert!(splits_on(algo, shape, SMS) == 1 || algo.config().is_some_and(|c| c.persistent));
            }
        }
        for p in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
            let portable = model_choice(big, p, Target::new(SMS, false)).kernel();
            assert!(portable.config().is_some_and(|c| !c.sm90a), "{p:?} picked {portable:?} without sm_90a");
            assert_eq!(portable.precision(), Some(p));
        }
        // The default (`resolve_for`) is this library's target, Hopper.
        assert_eq!(model_choice(big, Precision::Bf16, Target::H200).kernel(), Algo::PersistentBf16);
        assert_eq!(model_choice(big, Precision::Fp32, Target::H200).kernel(), least_expected_on(big, SMS).0);
    }

    fn s(m: u32, n: u32, k: u32) -> MatmulShape {
        MatmulShape { m, n, k }
    }

    #[test]
    fn persistent_launches_follow_the_models_split_count() {
        let s = |m, n, k| MatmulShape { m, n, k };
        for (shape, sms) in [(s(4096, 4096, 4096), SMS), (s(256, 4096, 4096), SMS), (s(8192, 128, 8192), SMS), (s(256, 4096, 4096), 64)] {
            let splits = crate::select::tc_model::best_splits(Algo::PersistentBf16, shape, sms).0;
            let launch = Algo::PersistentBf16.kernel().unwrap().launch(shape, Target::new(sms, true));
            let units = shape.m.div_ceil(128) * shape.n.div_ceil(256) * splits;
            assert_eq!(launch.grid.1, splits, "{shape:?} on {sms} SMs");
            let (blocks, busy) = (launch.grid.0 * launch.grid.1, units.min(sms));
            assert!(blocks >= busy && blocks < busy + splits, "{shape:?}: {blocks} blocks for {units} units");
            assert_eq!(Algo::PersistentBf16.kernel().unwrap().accumulates_into_c(shape, Target::new(sms, true)), splits > 1, "{shape:?}");
        }
        // A GPU of 114 SMs: every SM a block, in as many K slices as the model splits 4096³ into there.
        let splits_114 = crate::select::tc_model::best_splits(Algo::PersistentBf16, s(4096, 4096, 4096), 114).0;
        assert_eq!(
            Algo::PersistentBf16.kernel().unwrap().launch(s(4096, 4096, 4096), Target::new(114, true)).grid,
            (114 / splits_114, splits_114, 1)
        );
        assert!(!Algo::PersistentBf16.kernel().unwrap().accumulates_into_c(s(4096, 4096, 4096), Target::H200));
        // The narrow tile (128×128): twice the tiles of the wide one, the same launch rule.
        for algo in [Algo::PersistentBf16Narrow, Algo::PersistentF16Narrow, Algo::PersistentTf32Narrow] {
            let cfg = algo.config().unwrap();
            assert_eq!((cfg.bm, cfg.bn, cfg.block, cfg.persistent), (128, 128, (384, 1), true), "{algo:?}");
            for (shape, sms) in [(s(4096, 4096, 4096), SMS), (s(512, 512, 512), SMS), (s(256, 4096, 4096), SMS), (s(8192, 128, 8192), 64)] {
                let splits = crate::select::tc_model::best_splits(algo, shape, sms).0;
                let launch = algo.kernel().unwrap().launch(shape, Target::new(sms, true));
                let units = shape.m.div_ceil(128) * shape.n.div_ceil(128) * splits;
                assert_eq!((launch.grid.1, launch.grid.2, launch.block, launch.shared_bytes), (splits, 1, (384, 1, 1), cfg.shared_bytes));
                let (blocks, busy) = (launch.grid.0 * launch.grid.1, units.min(sms));
                assert!(blocks >= busy && blocks < busy + splits, "{algo:?} {shape:?}: {blocks} blocks for {units} units");
                assert_eq!(algo.kernel().unwrap().accumulates_into_c(shape, Target::new(sms, true)), splits > 1, "{algo:?} {shape:?}");
            }
            // 1024 tiles: one block per SM, unsplit; 512³ is 16 tiles of 128×128 (8 of 128×256).
            assert_eq!(algo.kernel().unwrap().launch(s(4096, 4096, 4096), Target::new(114, true)).grid, (114, 1, 1));
            assert!(!algo.kernel().unwrap().accumulates_into_c(s(4096, 4096, 4096), Target::H200));
            assert_eq!(algo.kernel().unwrap().launch(s(512, 512, 512), Target::H200).grid.0, 16);
        }
    }

    #[test]
    fn stream_k_walk_covers_every_step_once() {
        let t = Algo::StreamK128x128x16.config().unwrap();
        // 300×520×136: 3 × 5 tiles of 9 K-steps (135 steps).
        let shape = s(300, 520, 136);
        let one = stream_k_walk(t, shape, 1);
        assert_eq!((one.tiles, one.blocks, one.most_pieces, one.most_steps, one.whole, one.partial), (15, 1, 15, 135, 15, 0));
        let seven = stream_k_walk(t, shape, 7);
        // Runs of 19 or 20 steps: each cuts one or two tiles.
        assert_eq!((seven.blocks, seven.most_steps), (7, 20));
        assert!(seven.partial > 0 && seven.whole > 0 && seven.whole + seven.partial <= 15 + 2 * 7);
        // More blocks than steps: one per step, every piece partial.
        let many = stream_k_walk(t, shape, 1000);
        assert_eq!((many.blocks, many.most_steps, many.whole, many.partial), (135, 1, 0, 135));
        assert_eq!(stream_k_walk(t, s(0, 5, 5), 132), StreamKWalk::default());
        assert_eq!(stream_k_blocks(Algo::StreamK128x128x16, s(0, 5, 5), SMS), 1);
    }

    #[test]
    fn fp32_and_in_place_tensor_core_kernels_have_constants_and_only_they() {
        for kernel in MATMUL_KERNELS {
            let in_place =
                kernel.precision != Precision::Fp32 && !kernel.config.tma && !kernel.config.producer_copies && !kernel.config.tf32_operands;
            assert_eq!(cost(kernel.algo).is_some(), kernel.precision == Precision::Fp32 || in_place, "{}", kernel.label);
            // 16-bit inputs load 8 to a 16-byte vector, f32 ones 4.
            if let Some(c) = cost(kernel.algo) {
                assert_eq!(c.vector, 16 / kernel.precision.input_bytes(), "{}", kernel.label);
            }
        }
        assert!(cost(Algo::Auto).is_none());
    }

    #[test]
    fn blocks_per_sm_follow_registers_threads_and_shared_memory() {
        let occ = |a: Algo| blocks_per_sm(a.config().unwrap(), cost(a).unwrap().registers);
        assert_eq!(occ(Algo::Dbuf128x256x16), 1); // 255 registers × 256 threads: the whole file
        assert_eq!(occ(Algo::Dbuf64x64x16), 4); // its launch bound
        assert_eq!(occ(Algo::SplitK128x32x16), 4);
        assert_eq!(occ(Algo::Warptile), 2); // 125 → 128 registers × 256 threads
        assert_eq!(occ(Algo::Tiled), 8); // 2048 threads per SM
                                         // Shared memory alone: 100 KiB blocks, two per SM.
        let big = TileConfig::new(64, 64, 16, 128, 100 * 1024);
        assert_eq!(blocks_per_sm(big, 32), 2);
    }

    #[test]
    fn the_model_grows_with_the_work_and_shrinks_with_more_sms() {
        for kernel in MATMUL_KERNELS.iter().filter(|k| k.precision == Precision::Fp32) {
            let t = |shape, sms| predict_us(kernel.algo, shape, 1, sms).unwrap();
            for (small, big) in [
                (s(1024, 1024, 1024), s(1024, 1024, 2048)),
                (s(1024, 1024, 1024), s(2048, 1024, 1024)),
                (s(1024, 1024, 1024), s(1024, 2048, 1024)),
                (s(1, 1, 1), s(8192, 8192, 8192)),
            ] {
                assert!(t(small, SMS) <= t(big, SMS), "{}: {small:?} vs {big:?}", kernel.label);
            }
            assert!(t(s(4096, 4096, 4096), 264) < t(s(4096, 4096, 4096), 132), "{}", kernel.label);
            // Unaligned rows never make a kernel faster.
            assert!(t(s(1000, 1000, 1000), SMS) <= t(s(1000, 1001, 1000), SMS), "{}", kernel.label);
            assert!(t(s(1, 1, 1), SMS) >= LAUNCH_US);
        }
    }

    #[test]
    fn split_k_slices_fill_the_gpu_and_respect_their_bounds() {
        // Deep K, small output: many slices (the one-wave rule gave 1 here: 109 tiles of 64×64).
        let skinny = s(6960, 32, 8288);
        assert!(splits_on(Algo::SplitK64x64x16, skinny, SMS) >= 4);
        assert!(splits_on(Algo::SplitK128x32x16, skinny, SMS) >= 4);
        // Short K cannot split (slices of at least MIN_SLICE_STEPS K-steps).
        assert_eq!(splits_on(Algo::SplitK64x64x16, s(64, 64, 63), SMS), 1);
        for shape in [s(16, 16, 4088), s(48, 893, 8768), s(1, 1, 16384), s(3, 5, 1 << 20)] {
            for algo in [Algo::SplitK64x64x16, Algo::SplitK128x128x16, Algo::SplitK32x128x16] {
                let n = splits_on(algo, shape, SMS);
                let bk = algo.config().unwrap().bk;
                assert!((1..=MAX_SPLITS).contains(&n), "{shape:?}");
                assert!(n == 1 || shape.k / n >= MIN_SLICE_STEPS * bk, "{shape:?}: {n} slices");
                // The chosen count is the model's minimum over the counts it tries.
                let chosen = predict_us(algo, shape, n, SMS).unwrap();
                for other in SPLIT_CANDIDATES.into_iter().filter(|&c| c <= (shape.k / (MIN_SLICE_STEPS * bk)).max(1)) {
                    assert!(chosen <= predict_us(algo, shape, other, SMS).unwrap(), "{shape:?}: {n} vs {other}");
                }
            }
        }
        // Non-split kernels: always one slice.
        assert_eq!(splits_on(Algo::Dbuf64x64x16, skinny, SMS), 1);
        assert_eq!(Algo::Dbuf64x64x16.kernel().unwrap().launch(skinny, Target::H200).grid.2, 1);
        assert_eq!(
            Algo::SplitK64x64x16.kernel().unwrap().launch(skinny, Target::H200).grid.2,
            splits_on(Algo::SplitK64x64x16, skinny, SMS)
        );
    }

    #[test]
    fn session_12_terms_price_what_they_say() {
        let t = |algo, shape, splits| predict_us(algo, shape, splits, SMS).unwrap();
        // Kernel 1's loop, unrolled by four: K = 7 is four steps (one group, three left over), K = 8 two.
        assert!(t(Algo::Naive, s(64, 64, 7), 1) > t(Algo::Naive, s(64, 64, 8), 1));
        assert_eq!(cost(Algo::Naive).unwrap().unroll, 4);
        // Kernel 19 reads A once per 4-column block: at 16 columns never less than the read floor, and
        // the floor grows with the block columns (the H200's rate, in proportion to the SMs).
        let (fc, big) = (cost(Algo::FewCols4).unwrap(), s(3712, 16, 8927));
        let cfg = Algo::FewCols4.config().unwrap();
        assert!(t(Algo::FewCols4, big, 1) >= read_bytes(cfg, big, 4) / (fc.read_gb_per_s * 1e3));
        assert!(read_bytes(cfg, big, 4) > 3.9 * read_bytes(cfg, s(3712, 4, 8927), 4));
        assert!(
            is_candidate(Algo::FewCols4, s(100, FEW_COLS_MAX_N, 100)) && !is_candidate(Algo::FewCols4, s(100, FEW_COLS_MAX_N + 1, 100))
        );
        // The tile kernels have no read floor.
        assert!(cost(Algo::Dbuf128x256x16).unwrap().read_gb_per_s.is_infinite());
        // Kernel 20's 64-row 16-bit entries read at most MMA_SPLITK_ROWS64_READ_GB_PER_S; its other
        // entries are not floored.
        let wide = s(4, 4096, 11008);
        let cfg = Algo::MmaSplitKBf16Rows64.config().unwrap();
        assert!(t(Algo::MmaSplitKBf16Rows64, wide, 8) >= read_bytes(cfg, wide, 2) / (MMA_SPLITK_ROWS64_READ_GB_PER_S * 1e3));
        assert_eq!(cost(Algo::MmaSplitKF16Rows64).unwrap().read_gb_per_s, MMA_SPLITK_ROWS64_READ_GB_PER_S);
        assert!(cost(Algo::MmaSplitKBf16Rows16).unwrap().read_gb_per_s.is_infinite());
        // Blocks adding into one tile: split-K's slices cost the depth term on top of their adds,
        // more for N or K unaligned, in proportion to the tile's rows.
        let (aligned, unaligned) = (s(64, 64, 4096), s(64, 64, 4095));
        assert!((adds_depth_us(aligned, 64, 32.0, true) - 32.0 * ADDS_DEPTH_US).abs() < 1e-12);
        assert!(adds_depth_us(unaligned, 64, 32.0, false) > adds_depth_us(aligned, 64, 32.0, true));
        assert!((adds_depth_us(s(16, 64, 4096), 64, 32.0, true) - 8.0 * ADDS_DEPTH_US).abs() < 1e-12);
    }

    #[test]
    fn interior_steps_are_priced_where_kernel_17_takes_its_interior_path() {
        let cfg = Algo::StreamK128x256x16.config().unwrap();
        // Every tile inside C, N and K multiples of 4 and of BK: all steps; 1000×1000 leaves 7 of 8
        // block rows and 3 of 4 block columns whole; K not a multiple of 16, N not of 4, or a tile
        // kernel: none.
        assert_eq!(interior_share(cfg, s(4096, 4096, 4096)), 1.0);
        assert!((interior_share(cfg, s(1000, 1000, 4096)) - 21.0 / 32.0).abs() < 1e-12);
        assert_eq!(interior_share(cfg, s(4096, 4096, 4100)), 0.0);
        assert_eq!(interior_share(cfg, s(4096, 4098, 4096)), 0.0);
        assert_eq!(interior_share(cfg, s(100, 100, 4096)), 0.0);
        assert_eq!(interior_share(Algo::Dbuf128x256x16.config().unwrap(), s(4096, 4096, 4096)), 0.0);
        // The two entries with the path are priced below 1 there; the rest at 1.
        for algo in [Algo::StreamK128x256x16, Algo::StreamK64x64x16] {
            let c = cost(algo).unwrap();
            assert!(c.interior < 1.0, "{algo:?}");
            let plain = Cost { interior: 1.0, ..c };
            let shape = s(4096, 4096, 4096);
            assert!(predict(algo.config().unwrap(), c, shape, 1, SMS) < predict(algo.config().unwrap(), plain, shape, 1, SMS));
            let edge = s(4096, 4096, 4100);
            assert_eq!(predict(algo.config().unwrap(), c, edge, 1, SMS), predict(algo.config().unwrap(), plain, edge, 1, SMS));
        }
        assert_eq!(cost(Algo::StreamK128x128x16).unwrap().interior, 1.0);
    }

    #[test]
    fn one_slice_of_kernel_18_stores_c_and_pays_no_zeroing() {
        let (t, c) = (Algo::FewRows.config().unwrap(), cost(Algo::FewRows).unwrap());
        let adding = TileConfig { stores_unsplit: false, ..t };
        for shape in [s(4, 10768, 172), s(3, 1001, 77)] {
            let mn = f64::from(shape.m) * f64::from(shape.n);
            let stores = stores_us(c, shape);
            let gap = predict(adding, c, shape, 1, SMS) - predict(t, c, shape, 1, SMS);
            let aligned = rows_aligned(shape, 4);
            let adds = zeroing_us(shape) + atomic_us(shape, mn) + adds_depth_us(shape, t.bm, 1.0, aligned);
            assert!((gap - (adds - stores)).abs() < 1e-9, "{shape:?}: {gap}");
            // Several slices add into C like kernel 10's: the same price either way.
            assert_eq!(predict(adding, c, shape, 3, SMS), predict(t, c, shape, 3, SMS));
            assert_eq!(
                Algo::FewRows.kernel().unwrap().accumulates_into_c(shape, Target::H200),
                splits_on(Algo::FewRows, shape, SMS) > 1,
                "{shape:?}"
            );
        }
        // Kernel 18 is weighed up to its block's rows, and slices of one K-step are among its options.
        assert!(is_candidate(Algo::FewRows, s(16, 4096, 4096)) && !is_candidate(Algo::FewRows, s(17, 4096, 4096)));
        assert_eq!((c.min_slice_steps, c.max_rows), (1, FEW_ROWS_MAX_M));
        assert!(splits_on(Algo::FewRows, s(1, 256, 4096), SMS) > 4096 / (MIN_SLICE_STEPS * t.bk));
    }

    #[test]
    fn auto_is_the_least_expected_fp32_kernel_and_deterministic() {
        for shape in [s(1, 1, 1), s(8, 8, 16), s(4096, 4096, 4096), s(6960, 32, 8288), s(1000, 1037, 519), s(11, 2285, 1430)] {
            let picked = least_expected_on(shape, SMS).0;
            assert_eq!(picked.precision(), Some(Precision::Fp32));
            let t = |a: Algo| expected_us(a, shape, splits_on(a, shape, SMS), SMS).unwrap();
            for kernel in MATMUL_KERNELS.iter().filter(|k| plain_candidate(k, shape)) {
                assert!(t(picked) <= t(kernel.algo), "{shape:?}: {} over {}", picked.label(), kernel.label);
            }
            assert_eq!(model_choice(shape, Precision::Fp32, Target::H200).kernel(), picked);
        }
        // Tiny products are launch-bound: one launch, no zeroing pass.
        for shape in [s(1, 1, 1), s(8, 8, 16), s(16, 128, 16)] {
            let t = least_expected_on(shape, SMS).0.config().unwrap();
            assert!(!t.split_k && !t.stream_k, "{shape:?}");
        }
        // Empty products have a plan too (the host returns before launching it): no panic, finite.
        for shape in [s(0, 3, 4), s(3, 0, 4), s(0, 0, 0), s(3, 4, 0)] {
            let picked = least_expected_on(shape, SMS).0;
            assert!(predict_us(picked, shape, splits_on(picked, shape, SMS), SMS).unwrap().is_finite(), "{shape:?}");
            for kernel in MATMUL_KERNELS.iter().filter(|k| k.precision == Precision::Fp32) {
                assert!(predict_us(kernel.algo, shape, 1, SMS).unwrap().is_finite(), "{shape:?}: {}", kernel.label);
                let _ = kernel.algo.kernel().unwrap().launch(shape, Target::H200);
            }
        }
        // The big square runs a large tile (128×128 or 128×256: whole, split along K, or stream-K),
        // never the small ones made for filling the GPU.
        for shape in [s(4096, 4096, 4096), s(8192, 8192, 8192)] {
            let t = least_expected_on(shape, SMS).0.config().unwrap();
            assert!(t.bm * t.bn >= 128 * 128, "{shape:?}: {:?}", least_expected_on(shape, SMS).0);
        }
    }

    #[test]
    fn the_sm_count_is_a_parameter() {
        // Fewer SMs: a grid that was one partial wave becomes several, and the plan may change;
        // whatever it is, it is the minimum for that device.
        let shape = s(512, 512, 4096);
        for sms in [16, 66, 132, 264] {
            let picked = least_expected_on(shape, sms).0;
            let t = |a: Algo| expected_us(a, shape, splits_on(a, shape, sms), sms).unwrap();
            for kernel in MATMUL_KERNELS.iter().filter(|k| plain_candidate(k, shape)) {
                assert!(t(picked) <= t(kernel.algo));
            }
        }
        assert_eq!(model_choice(shape, Precision::Fp32, Target::new(SMS, true)).kernel(), least_expected_on(shape, SMS).0);
    }

    #[test]
    fn tensor_core_auto_takes_the_caller_precision() {
        let s = MatmulShape { m: 4096, n: 4096, k: 4096 };
        for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
            let algo = model_choice(s, p, Target::H200).kernel();
            assert_eq!(algo.precision(), Some(p), "{p:?} → {}", algo.label());
        }
        // f32 data never silently runs in TF32.
        assert_eq!(model_choice(s, Precision::Fp32, Target::H200).kernel().precision(), Some(Precision::Fp32));
    }

    #[test]
    fn narrow_rows_are_copied_in_the_widest_pieces() {
        let s = |m, n, k| MatmulShape { m, n, k };
        let (b16, f32c) = (cost(Algo::MmaPipeBf16x128).unwrap(), cost(Algo::MmaPipeTf32).unwrap());
        assert_eq!(narrow_pieces(b16, s(64, 1024, 1024)), None, "16-byte rows take the 16-byte copies");
        assert_eq!(narrow_pieces(b16, s(64, 1028, 516)), Some(8), "K and N multiples of 4: 8-byte pieces");
        assert_eq!(narrow_pieces(b16, s(64, 1030, 516)), Some(4), "K and N even: 4-byte pieces");
        assert_eq!(narrow_pieces(b16, s(64, 1031, 516)), None, "N = 1031: element by element");
        assert_eq!(narrow_pieces(f32c, s(64, 1030, 6)), Some(8), "f32, K and N even: 8-byte pieces");
        assert_eq!(narrow_pieces(f32c, s(64, 1029, 7)), Some(4), "f32 rows of any length: 4-byte pieces");
        // Priced between the aligned rows and the element-by-element ones (kernel 13, BF16).
        let t = |n, k| predict_us(Algo::MmaPipeBf16x128, s(512, n, k), 1, SMS).unwrap();
        assert!(t(2048, 2048) < t(2052, 2052) && t(2052, 2052) < t(2050, 2050) && t(2050, 2050) < t(2051, 2051));
    }

    #[test]
    fn each_operand_is_priced_for_its_own_pieces() {
        let s = |m, n, k| MatmulShape { m, n, k };
        assert_eq!([piece_bytes(1024, 2), piece_bytes(1028, 2), piece_bytes(1030, 2), piece_bytes(1031, 2)], [16, 8, 4, 0]);
        assert_eq!([piece_bytes(1031, 4), piece_bytes(1030, 4)], [4, 8], "f32 rows never load element by element");
        // Kernel 20's 16×128 tile: an odd K leaves only A (16 of a K-tile's 144 rows and columns)
        // element by element, so it costs far less than both operands odd and more than neither.
        let t = |n, k| predict_us(Algo::MmaSplitKBf16Rows16, s(16, n, k), 1, SMS).unwrap();
        assert!(t(8192, 4096) < t(8192, 4095) && t(8192, 4095) < t(8191, 4095), "{} {} {}", t(8192, 4096), t(8192, 4095), t(8191, 4095));
        // An odd N (B's rows) costs the wide-B tile more than an odd K does.
        assert!(t(8191, 4096) > t(8192, 4095));
        // The floor reads only the odd operand at the element-by-element rate.
        let (tile, c) = (Algo::MmaSplitKBf16Rows16.config().unwrap(), cost(Algo::MmaSplitKBf16Rows16).unwrap());
        let floor = |n, k| dram_floor_us(tile, c, s(16, n, k), SMS);
        assert!(floor(8192, 4096) < floor(8192, 4095) && floor(8192, 4095) < floor(8191, 4096) && floor(8191, 4096) < floor(8191, 4095));
    }

    #[test]
    fn in_place_tensor_core_kernels_are_priced_at_their_slices_and_above_dram() {
        let s = |m, n, k| MatmulShape { m, n, k };
        for shape in [s(1, 4096, 4096), s(16, 14336, 4096), s(64, 4096, 14336), s(300, 300, 9000)] {
            for algo in [Algo::MmaSplitKBf16Rows16, Algo::MmaSplitKBf16Rows64, Algo::MmaSplitKTf32Rows16] {
                let (t, c) = (algo.config().unwrap(), cost(algo).unwrap());
                let us = predict_us(algo, shape, splits_on(algo, shape, SMS), SMS).unwrap();
                assert!(us >= LAUNCH_US + dram_floor_us(t, c, shape, SMS), "{algo:?} {shape:?}: {us}");
            }
            // What `Auto` weighs for the in-place kernels is the launch it plans.
            let (algo, us) = crate::select::in_place_pick(shape, Precision::Bf16, Target::H200).unwrap();
            assert_eq!(us, predict_us(algo, shape, splits_on(algo, shape, SMS), SMS).unwrap(), "{algo:?} {shape:?}");
        }
    }

    /// The in-place tensor-core kernels store `C` as `mma` fragments, at [`TC_STORE_GB_PER_S`]: on a
    /// short-K product with a large output no such kernel is priced below those stores; kernels 2, 18,
    /// 19 and 21 on 16-bit inputs (the CUDA cores) store as the tile kernels do, at [`STORE_GB_PER_S`].
    #[test]
    fn fragment_stores_price_short_k_products() {
        let shape = MatmulShape { m: 3000, n: 1000, k: 8 };
        let stores = 4.0 * 3000.0 * 1000.0 / (TC_STORE_GB_PER_S * 1e3);
        let in_place = MATMUL_KERNELS.iter().filter(|k| k.precision != Precision::Fp32 && cost(k.algo).is_some());
        for kernel in in_place {
            let c = cost(kernel.algo).unwrap();
            let us = predict_us(kernel.algo, shape, 1, SMS).unwrap();
            if ["widened", "few-", "tiled-"].iter().any(|p| kernel.label.starts_with(p)) {
                assert_eq!(c.store_gb_per_s, STORE_GB_PER_S, "{}", kernel.label);
            } else {
                assert_eq!(c.store_gb_per_s, TC_STORE_GB_PER_S, "{}", kernel.label);
                assert!(us > LAUNCH_US + stores, "{}: {us} µs", kernel.label);
            }
        }
    }
}
