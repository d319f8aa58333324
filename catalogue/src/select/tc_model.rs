//! `Algo::Auto` for the tensor cores on Hopper: a time model of the TMA kernels (15: one output tile
//! per block; 16: persistent, split-K over `gridDim.y`), in every tile width the catalogue has.
//!
//! A TMA kernel keeps one block per SM (its stages fill the shared memory), so the model follows one
//! SM: its work units (`tiles · splits`, dealt round-robin: `⌈units / SMs⌉` rounds), each `steps`
//! K-steps of `2·bm·bn·bk` FLOPs at the SM's share of the sustained tensor-core rate, then its
//! epilogue (the consumers store the tile before they start the next: its floats at the SM's share of
//! the epilogue's measured rate, or split-K's partial sums at its share of the L2's rate of column-pair
//! adds), plus a unit's fixed cost (barriers, the first loads'
//! round trip; kernel 16 pays it once, its producer loading ahead across units). Beside the SM's time:
//! the whole GPU's, where the operands' bytes must come from DRAM at least once. Plus
//! the host's stream work around the launch: the launch itself, zeroing `C` for split-K, preparing
//! TF32 operands (`Bᵀ` rounded; `A` rounded too only where its rows must be padded, the kernels
//! rounding it in registers otherwise), packing a 16-bit operand whose rows are not whole
//! 16-byte units.
//!
//! Constants: the sustained rates are the persistent kernel's at 8192³ in the scorecard; the others
//! are fitted by hand to the suite's shapes (`docs/tuning.md`, with the run they come from).
use crate::precision::Precision;
use crate::registry::algo::{Algo, MATMUL_KERNELS};
use crate::registry::tma::{self, Packing};
use crate::shape::MatmulShape;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::k16_persistent::tile_origin;
use tessera_kernels::matmul::k22_tma_stream_k::StreamK;

/// SMs the sustained rates were measured on (the H200).
const RATE_SMS: f64 = 132.0;

/// Sustained tensor-core rate of the 256-wide tile on the whole H200 (TFLOP/s = 10⁶ FLOP/µs): kernel
/// 16's at 8192³ (the kernel alone; TF32's preparation is counted apart).
pub fn sustained_tflops(precision: Precision) -> f64 {
    match precision {
        Precision::Bf16 => 712.0,
        Precision::Fp16 => 687.0,
        Precision::Tf32 => 382.0,
        // Provisional until kernel 25 is measured: cuBLASLt's FP8 rate on the large LLM shapes
        // (1,269–1,329 TFLOP/s, issue 35), less a tenth for the promotion's lost overlap. It only
        // weighs kernel 25's split-K against its fixed costs.
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => 1150.0,
        // No tensor-core kernel.
        Precision::Fp32 => 0.0,
    }
}

/// Rate of a tile narrower than 256 columns relative to the 256-wide one, where each block loads
/// its own B tile: measured on aligned squares (GPU time per 256-wide step's products) 0.83–0.93 for
/// 128×192 and 0.84–0.89 for 128×128 in three runs (`docs/results/2026-12-02-staged-epilogue`,
/// `2026-12-03-cluster/tune`, `2026-12-03-refit/tune`) — the 192-wide tile no faster than the
/// 128-wide one, so not a loss of A's re-reads (which would leave 192 a third of 128's loss).
pub const NARROW_RATE: f64 = 0.90;

/// Rate of a `bn`-wide tile relative to the 256-wide one ([`NARROW_RATE`] below 256). Where a
/// cluster multicasts B (`b_shared`, kernel 24) the 192-wide tile runs at the 256-wide one's rate:
/// 0.93–0.99 of kernel 16's 256-wide rate in the same runs, as kernel 24's own 256-wide tile
/// (0.92–1.00), both before [`CLUSTER_STEP_US`].
pub fn tile_rate(bn: u32, b_shared: bool) -> f64 {
    if bn >= 256 || (b_shared && bn >= 192) {
        1.0
    } else if b_shared && bn >= 160 {
        SHARED_160_RATE
    } else {
        NARROW_RATE
    }
}

/// [`tile_rate`] of kernel 24's 160-wide tiles (B multicast, its third 64-column box loaded whole):
/// fitted on the tuning set `docs/results/2026-12-04-fitted-tiles/tune-*` (14 BF16 shapes, none of
/// the report's), measured ÷ priced time of the 128×160 and 192×160 tiles against the 128×192 and
/// 192×192 ones: 0.93 and 0.95. The 224-wide tiles measured 0.97 of the 256-wide rate there and are
/// priced at it.
pub const SHARED_160_RATE: f64 = 0.94;

/// A 64-row tile (one consumer warpgroup) against a 128-row tile of the same width: one warpgroup
/// keeps at most one group of `wgmma`s in flight while it waits for the last (none for register-fed
/// TF32, which waits for each step's group), where two warpgroups fill each other's waits. The wait
/// is a fixed time per K-step against a step's products (∝ `bn`): rate `1 / (1 + c·256/bn)`, `c`
/// fitted at 6144³ (`docs/results/2026-12-02-tc-shapes/call2-train`: BF16 64×256 at 0.84 of 128×256,
/// 64×128 at 0.67 of 128×128; TF32 0.70 and 0.59).
pub const ONE_CONSUMER_WAIT: f64 = 0.19;
/// [`ONE_CONSUMER_WAIT`] for A fed from registers (TF32): the whole step's latency is exposed.
pub const ONE_CONSUMER_WAIT_REGISTERS: f64 = 0.43;

/// Two consumer warpgroups fed A from registers (TF32) on a tile narrower than 256 columns, in a launch
/// of at least [`NARROW_REGISTER_ROUNDS`] rounds of units: each step's A fragments, loaded into
/// registers, serve half the `wgmma` work of the 256-wide tile's; rate `(1 + c) / (1 + c·256/bn)`
/// against the 256-wide tile's. Fitted on the tuned-on-request lines of the H200 random runs (seeds
/// 20271205/06, 20271241/42, 20271250/51: the 128×128 tile's time over the 128×256 tile's, measured
/// in the same line, against the priced ratio): that ratio's median |log error| 0.089 → 0.041; held
/// out, the H100 runs of sessions 43–48: 0.106 → 0.047 (`docs/results/2026-12-06-s48`). Where the
/// outputs are small (one round) the 128×128 tile ran a little faster than that ratio prices (median
/// 0.95 of it), so one-round launches keep the old rate.
pub const NARROW_REGISTER_WAIT: f64 = 0.15;
/// The fewest rounds of units over the SMs where [`NARROW_REGISTER_WAIT`] prices.
pub const NARROW_REGISTER_ROUNDS: f64 = 2.0;

/// [`NARROW_REGISTER_WAIT`]'s factor on a `bm × bn` tile's rate (1 where it does not apply).
pub fn narrow_register_rate(bm: u32, bn: u32, a_in_registers: bool, rounds: f64) -> f64 {
    if !a_in_registers || consumer_warpgroups(bm) < 2 || rounds < NARROW_REGISTER_ROUNDS {
        return 1.0;
    }
    let c = NARROW_REGISTER_WAIT;
    (1.0 + c) / (1.0 + c * 256.0 / f64::from(bn.max(1)))
}

/// Consumer warpgroups of a `bm`-row tile: each owns 64 rows (`wgmma`'s M).
pub fn consumer_warpgroups(bm: u32) -> u32 {
    bm / 64
}

/// The rate factor of a `bm × bn` tile's consumers ([`ONE_CONSUMER_WAIT`]): 1 for two consumer
/// warpgroups (128 rows).
pub fn consumer_rate(bm: u32, bn: u32, a_in_registers: bool) -> f64 {
    if consumer_warpgroups(bm) >= 2 {
        return 1.0;
    }
    let c = if a_in_registers { ONE_CONSUMER_WAIT_REGISTERS } else { ONE_CONSUMER_WAIT };
    1.0 / (1.0 + c * 256.0 / f64::from(bn.max(1)))
}

/// The tensor cores' rate lost per operand read in place with rows off a 32-byte sector
/// ([`crate::registry::tma::FAST_ROW_BYTES`]), per tile row or column that reads it: a factor
/// `1 − PITCH_LOSS · (1/bn for A, + 1/bm for B)`. Fitted on BF16 3000³ and 3016³ against the aligned
/// 2992³, 3008³ and 3040³ (kernel 16, 128×128 and 128×256 tiles: 0.60 and 0.72 of the aligned rate;
/// `docs/results/2026-12-02-tc-shapes/call1-pitch`); 5000³ against 5008³ held out (predicted 0.71
/// for 128×256, measured 0.71). Measured with 256-byte L2 promotion; the host now asks for 128 on such
/// rows, which lose less, but a refit on large squares alone misprices the small ones (`docs/tuning.md`).
pub const PITCH_LOSS: f64 = 24.7;

/// The factor on the tensor cores' rate of a `bm × bn` tile when A (`a_slow`) and B (`b_slow`) are
/// read in place with rows off a 32-byte sector ([`PITCH_LOSS`]).
pub fn pitch_rate(bm: u32, bn: u32, a_slow: bool, b_slow: bool) -> f64 {
    let loss = PITCH_LOSS * (f64::from(u8::from(a_slow)) / f64::from(bn.max(1)) + f64::from(u8::from(b_slow)) / f64::from(bm.max(1)));
    (1.0 - loss).max(0.25)
}
/// Kernel 24's extra time per K-step on its 192- and 256-wide tiles: the two blocks of a cluster
/// wait for each other's releases before a stage is refilled. Fitted on both tuning runs
/// (`docs/results/2026-12-03-cluster/tune`, `2026-12-03-refit/tune`; aligned squares: 0.00–0.06 µs
/// on the 256-wide tile against kernel 16's, median 0.045).
pub const CLUSTER_STEP_US: f64 = 0.04;
/// [`CLUSTER_STEP_US`] on the 128-wide tile, whose shorter step hides less of the wait (aligned:
/// 0.044–0.09 µs against kernel 16's 128×128; fitted on both runs' every shape, mean log error of
/// the tile against kernel 16's 128×256 −0.03 and +0.02).
pub const CLUSTER_NARROW_STEP_US: f64 = 0.07;
/// Kernel 24's one-consumer 256-wide tile (64×256 pairs) against the rate its parts price
/// ([`consumer_rate`], [`CLUSTER_STEP_US`]): with one consumer warpgroup the pair's waits for each
/// other's releases are not hidden behind a second one. Fitted on session 47's BF16 squares timed by
/// name (`docs/results/2026-12-06-s47/e-02fe438/squares-report-by-name`, 1000³–5000³): the tile's
/// measured ÷ priced time over the geometric mean of kernel 24's other tiles' at the same shape,
/// 1.15–1.38, geometric mean 1.215. Held out, session 53's six shapes
/// (`docs/results/2026-12-07-s53/f-1a62311/tiles`, 1320³–2600³ and 1400×2800×1400): 1.08–1.40,
/// geometric mean 1.20.
pub const CLUSTER_ONE_CONSUMER_RATE: f64 = 0.82;
/// Share of [`PITCH_LOSS`] for A that kernel 24's 256-wide tile pays: its A rows off a sector cost
/// 0.00–0.09 of the rate against aligned neighbours (median 0.045; 3592/3584, 5128/5120, 7176/7168,
/// 1304/1296, 2504/2512, 3016/3008, 4424/4416, 6152/6144), where the 192- and 128-wide tiles pay
/// the whole term (0.14–0.16 and 0.13–0.27 measured; 0.13 and 0.19 priced).
pub const CLUSTER_WIDE_A_PITCH_SHARE: f64 = 0.5;

/// Fixed time of one kernel launch back to back on a stream.
pub const LAUNCH_US: f64 = 2.0;
/// A work unit's fixed time: barrier setup and the first stages' round trip (fitted with the
/// epilogue's rates below).
pub const UNIT_US: f64 = 0.5;
/// Kernel 16's extra fixed time against kernel 15 (its unit loop and tile order; measured with one
/// unit per block: 512³–2048³ ran 1.5–2 µs slower than kernel 15; refitted with the epilogue's rates).
pub const PERSISTENT_US: f64 = 1.05;
/// GPU time per block of the first wave where a unit is at most [`SHORT_UNIT_STEPS`] K-steps: on
/// such short K every TMA kernel ran longer than priced by 0.4 µs plus 0.018–0.027 µs per block
/// started (kernels 15, 16 and 24 fitted apart on 154 rows of
/// `docs/results/2026-12-04-narrow-pieces/best-85c9f99`, K ≤ 64; residual spread 1.8 → 1.4 µs), and
/// by about as much with five waves of blocks as with one (2532×7248×52): each SM's first unit
/// starts with an empty pipeline that one or two steps cannot hide. On deeper K the calibration table
/// (`tests/data/tc-calibration.csv`) says nothing of the kind: priced there too, the model's median
/// error grew from 0.076 to 0.105. The intercept stays in [`LAUNCH_US`].
pub const BLOCK_START_US: f64 = 0.02;
/// GPU time a launch of three consumer warpgroups (192-row tiles, whose epilogue the threads store)
/// takes beyond its price where its units are at most [`TMA_STORE_STEPS`] deep: kernel 24's 192×160
/// and 192×192 tiles ran a median 3.2 and 4.75 µs over it on a shallow-K tuning set of 10 BF16
/// shapes (K = 16–64, one K-step; `docs/results/2026-12-04-fitted-tiles/shallow-54aacca`), whatever
/// their rounds; on deep K the calibration and tuning sets show no such excess.
pub const THREE_CONSUMER_SHALLOW_US: f64 = 3.75;
/// The deepest unit (K-steps) [`BLOCK_START_US`] is priced on.
pub const SHORT_UNIT_STEPS: u32 = 2;
/// Split-K's column pairs the L2 adds per microsecond (the staged epilogue adds 16, 8 or 4 bytes per
/// lane by N's alignment, `red.global.add.v4.f32` where it can; fitted with the epilogue's rates).
pub const ATOMIC_PAIRS_PER_US: f64 = 1_420_000.0;
/// Bytes per microsecond the whole GPU stores `C` at in the TMA kernels' epilogue (each consumer
/// warp's rows staged through shared memory, then stored 16, 8 or 4 bytes per lane by N's alignment),
/// by kernel (15: one tile per block; 16: persistent) and the stores' width. Fitted with [`UNIT_US`],
/// [`PERSISTENT_US`] and [`ATOMIC_PAIRS_PER_US`] (the tensor cores' rates held) on the calibration
/// table's rows of 27 shapes (20 fitted, 7 held out) (`docs/tuning.md`, "The staged epilogue";
/// `docs/results/2026-12-02-staged-epilogue/measure`: 16 shapes in three precisions and 11 short-K
/// products of each alignment of N): 16-byte rows near DRAM's 4.2 TB/s, 8- and 4-byte rows at half.
pub fn epilogue_bytes_per_us(persistent: bool, n: u32) -> f64 {
    thread_stores_bytes_per_us(persistent, n)
}

/// How many times faster than [`epilogue_bytes_per_us`] the TMA stores the tiles of two consumer
/// warpgroups where `C`'s rows are 16-byte units (`k15_tma::c_map_for`), on units of at most
/// [`TMA_STORE_STEPS`]. Fitted on two sets measured with the TMA's stores: the 12 shallow-K BF16
/// tuning products of `docs/results/2026-12-04-stream-k-fixup/tma-store-2004287` (60 launches of
/// kernels 15, 16 and 24 on 128-row tiles: measured ÷ predicted a median 0.81 at 1.0, 0.92 at 1.4,
/// 0.99 at 1.8) and the calibration table's 43 shallow rows of those kernels, measured again in
/// `calib-90ed892` (the table's median error 0.079 at 1.0, 0.075 at 1.4, 0.085 at 1.8).
pub const TMA_STORE_SPEEDUP: f64 = 1.4;

/// Deepest work unit (K-steps) whose stores [`TMA_STORE_SPEEDUP`] prices: on deep K the TMA's stores
/// measured no faster than the threads' (8192³ and 4096³ within a lease's spread of `squares-all-b54aa9f`,
/// `tma-store-2004287/large`): there the stores are a small share, written while the next tile's
/// stages load; on shallow K they are most of the time, and the TMA writes them without holding
/// the consumers.
pub const TMA_STORE_STEPS: u32 = 8;

/// The epilogue's rate for a launch of `cfg` on `shape` whose units are `steps` K-steps deep,
/// storing its tiles (not split-K's additions): [`epilogue_bytes_per_us`], times
/// [`TMA_STORE_SPEEDUP`] where the TMA stores them and the units are shallow ([`TMA_STORE_STEPS`]),
/// at most [`OFF_SECTOR_DRAM_STORE_BYTES_PER_US`] where `C` outgrows the L2 with rows off a sector.
pub fn store_bytes_per_us(cfg: TileConfig, shape: MatmulShape, steps: u32) -> f64 {
    let n = shape.n;
    let rate = thread_stores_bytes_per_us(cfg.persistent, n);
    // Two consumer warpgroups: 128-row tiles.
    let rate = if cfg.tma && cfg.bm == 128 && n.is_multiple_of(4) && steps <= TMA_STORE_STEPS { rate * TMA_STORE_SPEEDUP } else { rate };
    let c_bytes = 4.0 * f64::from(shape.m) * f64::from(n);
    if n.is_multiple_of(4) && !n.is_multiple_of(8) && c_bytes > L2_BYTES {
        rate.min(OFF_SECTOR_DRAM_STORE_BYTES_PER_US)
    } else {
        rate
    }
}

/// Bytes per microsecond the TMA kernels store a `C` larger than the L2 at where its rows are
/// 16-byte units but not whole 32-byte sectors (N a multiple of 4, not of 8): every other row starts
/// mid-sector, and the L2 writes those partial sectors back to DRAM. Measured on the store-bound
/// tuning set (`docs/results/2026-12-05-s42/a/tune-bf16`, every 128-row TMA tile by name, K of 4–40):
/// 5555×4444×8 and 20000×1500×32 (rows of 17,776 and 6,000 bytes, 99 and 120 MB of `C`) ran at 1.5–2.1
/// TB/s of `C` on every tile, where the products whose rows are whole sectors (8192×8192×16,
/// 12000×3000×20, 4000×6000×4, 6912×2160×16: 60–268 MB) ran at 2.2–3.4, as priced; a `C` inside the
/// L2 (1500×1500×12: 6,000-byte rows) ran at its price.
pub const OFF_SECTOR_DRAM_STORE_BYTES_PER_US: f64 = 2.0e6;

fn thread_stores_bytes_per_us(persistent: bool, n: u32) -> f64 {
    let width = if n.is_multiple_of(4) {
        4
    } else if n.is_multiple_of(2) {
        2
    } else {
        1
    };
    match (persistent, width) {
        (true, 4) => 3.9e6,
        (true, 2) => 2.0e6,
        (true, _) => 1.77e6,
        (false, 4) => 3.55e6,
        (false, 2) => 2.57e6,
        (false, _) => 2.34e6,
    }
}
/// The model's time (µs) of a kernel-26 launch of `cfg` in `precision` (`crate::plan::grouped`): products
/// of `rows` rows each, `n` columns and depth `k`, reading `operand_bytes` of A and B, on a GPU of
/// `sms` SMs. Kernel 16's model with every product's tiles as units of one walk: the rounds of units
/// over the SMs at kernel 16's K-step time and epilogue (the threads' stores: a tile may end inside a
/// group), against the operands' DRAM time (combined as [`BOUND_POWER`] says). Not yet calibrated on kernel 26's own runs:
/// it ranks its tiles as it ranks kernel 16's.
pub fn predict_products_us(
    cfg: TileConfig,
    precision: Precision,
    rows: impl Iterator<Item = u32>,
    n: u32,
    k: u32,
    operand_bytes: f64,
    sms: u32,
) -> f64 {
    let tiles_n = n.div_ceil(cfg.bn);
    let (mut tiles, mut outputs) = (0u64, 0.0);
    for r in rows {
        tiles += u64::from(r.div_ceil(cfg.bm)) * u64::from(tiles_n);
        outputs += f64::from(r) * f64::from(n);
    }
    if tiles == 0 {
        return LAUNCH_US;
    }
    let steps = k.div_ceil(cfg.bk).max(1);
    let rounds = tiles.div_ceil(u64::from(sms.max(1))) as f64;
    let per_sm = sustained_tflops(precision) * 1e6 / RATE_SMS * tile_rate(cfg.bn, false) * consumer_rate(cfg.bm, cfg.bn, false);
    let step_us = 2.0 * f64::from(cfg.bm) * f64::from(cfg.bn) * f64::from(cfg.bk) / per_sm;
    let busy = tiles.min(u64::from(sms.max(1))) as f64;
    let epilogue_us = 4.0 * outputs / tiles as f64 / (epilogue_bytes_per_us(true, n) / busy);
    let sm_us = PERSISTENT_US + UNIT_US + rounds * (f64::from(steps) * step_us + epilogue_us);
    let start_us = if steps <= SHORT_UNIT_STEPS { BLOCK_START_US * busy } else { 0.0 };
    LAUNCH_US + start_us + bound(sm_us, operand_bytes / OPERAND_BYTES_PER_US)
}

/// A fused epilogue's (bias, activation) factor on a product's time on kernel 27's tiles, whose
/// consumers finish a tile while the tensor cores wait: bias + GELU into BF16 over the plain product on
/// the same tile measured 1.08–1.29 (median 1.18; 128×256 and 128×128 at 4096³, 8192×4096×4096,
/// 8192×14336×4096, `docs/results/2026-12-05-pingpong-pairs/call1-ce006c7`, H200); then the
/// biases' prefetch (`k15_tma::store_finished`) ran kernel 27's 128×256 tile at 0.885–0.966 of its
/// time before, mean 0.933, on 2048×8192×1024, 3000×5000×2000, 4096³ and 6144²×3072 (H100, both
/// builds interleaved in one lease, `docs/results/2026-12-05-s40/prefetch-h100`): 1.18 × 0.933.
pub const FUSED_SERIAL: f64 = 1.10;
/// The same factor on kernel 31's ping-pong tiles, where one warpgroup's epilogue runs under the
/// other's main loop: 1.036 and 1.057 over the plain ping-pong entry at 4096³ and 8192×14336×4096
/// (the same run).
pub const FUSED_OVERLAPPED: f64 = 1.05;

/// Whether `Auto` weighs a kernel-31 entry: its 128-row units in blocks of their own only. Its
/// 64 × 256 units ran bias + GELU into BF16 at 0.83–0.91 of the 128 × 128 units' rate on every shape
/// measured (and below kernel 27's 128 × 256 tile: 527–536 TFLOP/s against 579–589, the same run) —
/// 1.67× the L2 bytes per product of a 128 × 256 tile, where [`predict_us`] prices them as kernel
/// 16's 64 × 256 tile. Its pairs (clusters of two) by name until measured.
pub fn ping_pong_in_auto(cfg: TileConfig) -> bool {
    cfg.ping_pong && cfg.bm >= 128 && cfg.cluster == 1
}

/// The factor [`predict_us`]'s price of a finishing entry takes for a `fused` epilogue on `shape`:
/// [`FUSED_SERIAL`] on kernel 27's tiles; on kernel 31's ping-pong, each block's last unit finishes
/// with nothing left to overlap, so `(s + (r − 1)·o) / r` for `r` rounds of units per SM, the serial
/// share `s` and the overlapped `o` ([`FUSED_OVERLAPPED`]). FP8's entries (priced as measured) and a
/// plain 16-bit store keep 1.
pub fn finishing_share(cfg: TileConfig, fused: bool, shape: MatmulShape, sms: u32) -> f64 {
    if !fused || cfg.fp8_operands {
        return 1.0;
    }
    if !cfg.ping_pong {
        return FUSED_SERIAL;
    }
    let units = u64::from(shape.m.div_ceil(cfg.bm)) * u64::from(shape.n.div_ceil(cfg.bn));
    let rounds = units.div_ceil(u64::from(sms.max(1))).max(1) as f64;
    (FUSED_SERIAL + (rounds - 1.0) * FUSED_OVERLAPPED) / rounds
}

/// DRAM bytes per microsecond the TMA streams operands at when the kernel is bound by them. First
/// fitted at 2.9 TB/s on 8192×128×8192 and 128×8192×8192 BF16 (128 MB operands); refitted on decode
/// (`docs/results/2026-12-02-tc-small-squares/diagnosis`: kernel 16's 64×128 tile read
/// 16×14336×4096's and 16×4096×14336's 117 MB at 3.5–3.7 TB/s, where 2.9 priced it 20 % slow and
/// sent 32–64 rows to kernel 20); the calibration table (`catalogue/tests/tc_model.rs`) stays within
/// its stated error.
pub const OPERAND_BYTES_PER_US: f64 = 3.6e6;
/// Bytes per microsecond of the element-wise stream kernels around the launch (zeroing `C`, the TF32
/// preparation, packing): the Rust `vec_add`'s measured rate.
pub const STREAM_BYTES_PER_US: f64 = 3.34e6;
/// Bytes per microsecond (read and written) a 16-bit operand's packing into rows of whole sectors
/// costs the product that reads the copy: kernel 16's best tiles at 2504³, 3016³, 4424³ and 6152³
/// (packed) against 2512³, 3008³, 4416³ and 6144³ (in place), their extra time over the copies'
/// bytes — 1.5–3.7 TB/s, median 2.25 (`docs/results/2026-12-03-cluster/tune`), below the element-wise
/// kernels' [`STREAM_BYTES_PER_US`]. Applied to copies of more than [`L2_BYTES`] (every pair above
/// copies 25–150 MB per operand): a smaller copy is still in L2 when the product reads it (the
/// calibration table's short-K and mid-size rows keep [`STREAM_BYTES_PER_US`]), and to copies that more
/// than one row (B) or column (A) of tiles reads: a copy one row of tiles streams once cost the rate
/// of the copy alone (`docs/results/2026-12-04-fitted-tiles/oddrows-e83f078`: B's copies of 0.2–0.5 GB
/// for 1–32 rows, the TMA kernels at 0.74–0.85 of their price at 2.25, 0.95–1.05 at the stream rate).
pub const PACK_BYTES_PER_US: f64 = 2.25e6;
/// The H200's L2 cache (50 MiB): a packed copy beyond it reaches the product from DRAM.
pub const L2_BYTES: f64 = 50.0 * 1024.0 * 1024.0;
/// A stream operation before the launch (a memset, a preparation or packing kernel): its gap.
pub const STREAM_OP_US: f64 = 2.0;
/// Most K slices kernel 16 splits a tile into; slices keep at least [`MIN_SLICE_STEPS`] K-steps. Up to
/// 6 slices the model prices kernel 16's split launches within a few percent (measured ÷ predicted
/// 0.98–1.11 by slice count, BF16 and TF32); from 7 to 14 they ran 1.14–1.66× their price, deep K
/// over few tiles, every tile (`docs/results/2026-12-04-cluster-tiles/deep-8c6987e`: 112 launches; a
/// per-sum or per-unit term explains little of it). So no more than 6, where the price holds.
pub const MAX_SPLITS: u32 = 6;
/// Most K slices where the tiles alone fill every SM: one (no split). Slices of the same tile add
/// into it at the same time, a cost the atomic rate does not price. Up to session 46 two were allowed;
/// against the unsplit TMA kernels timed beside them on the same shape (`Auto` tuned on request,
/// random seeds 20271241/42/50/51 on the H200), split launches ran a median 1.39× their price where
/// the tiles fill the SMs (23 launches, all in two slices) and 1.05× where they do not (88). With
/// one, `Auto`'s pick moves on 8 of ~500 cells (`docs/results/2026-12-06-s47`), each one measured
/// faster there: 15724×2473×1278 BF16/FP16 1.46×, TF32 1.26× (H200), 2304³ BF16 1.30× (H100).
pub const MAX_SPLITS_MANY_TILES: u32 = 1;
/// Fewest K-steps per slice: below, a slice's fixed costs outweigh its work.
pub const MIN_SLICE_STEPS: u32 = 4;
/// Most K slices kernel 16 splits a tile into where every slice of every tile runs in one round of
/// the SMs (tiles × slices ≤ SMs) and each keeps [`MIN_ONE_ROUND_SLICE_STEPS`] K-steps: tiny outputs
/// over a deep K, which [`MAX_SPLITS`] leaves on a few SMs. Measured by name
/// (`docs/results/2026-12-05-s42/d`, `slices`): 184×37×15336 BF16 on the 128×128 tile ran 26.1 µs in
/// 6 slices and 14.6–15.2 in 24–32 (cuBLAS 16.6), 128×128×16384 19.8 in 6 and 9.1–10.3 in 24–48;
/// measured ÷ predicted 0.89–1.16 for 8–32 slices of at least 8 K-steps in one round, 1.2–1.5 for
/// slices of 3–5 steps (72×16×3923, 120×152×1786, 512×6×1568: no gain past 4 slices there).
pub const MAX_SPLITS_ONE_ROUND: u32 = 32;
/// Fewest K-steps per slice beyond [`MAX_SPLITS`] (see [`MAX_SPLITS_ONE_ROUND`]).
pub const MIN_ONE_ROUND_SLICE_STEPS: u32 = 8;

/// Kernel 22's time beyond the model's terms on small products, per launch and per packed operand:
/// on 56 BF16 products of 2–160 µs (`docs/results/2026-12-03-widened-streamk/train-95db21c`), its
/// measured time exceeded the prediction by a median 1.13 µs without packed operands, 2.46 with one
/// and 3.34 with two, where kernels 15 and 16 on the same launches' copies stayed within 0.1–0.6 µs
/// (kernel 16 0.07 without copies). Fitted as a fixed term and a term per packed operand, both
/// 1.1 µs; the cause (the zeroing launch, then the copies, then a grid of blocks on one tile each
/// starting mid-tile) is not separated.
pub const STREAM_K_FIXED_US: f64 = 1.1;
/// Kernel 22's time per operand packed before it, beyond the copy's own (see [`STREAM_K_FIXED_US`]).
pub const STREAM_K_PACK_US: f64 = 1.1;

/// Bytes per microsecond one SM's producer warpgroup copies into the stages in kernel 23 (`cp.async`
/// instead of the TMA), whatever the rows' alignment: a K-step takes at least a stage's bytes at this
/// rate. Fitted on `docs/results/2026-12-03-copy-fed/tune` (BF16: 1000³–7000³, 3008³, 4096³ and
/// three rectangles, every tile of kernels 16 and 23): 4096³ ran at 41–60 GB/s per SM, kernel 23 at
/// 0.62 of kernel 16's time there — the TMA, not the tensor cores, is what feeds them at full rate.
pub const COPY_FEED_BYTES_PER_US: f64 = COPY_FEED_GB_PER_S * 1e3;
/// [`COPY_FEED_BYTES_PER_US`] in GB/s.
pub const COPY_FEED_GB_PER_S: f64 = 50.0;

/// The launch of a kernel the model covers: the TMA kernels (15, 16, 22) and kernel 23, which shares
/// their pipeline.
fn pipelined_config(algo: Algo) -> Option<TileConfig> {
    algo.config().filter(|c| c.tma || c.producer_copies)
}

/// The model's time (µs) of TMA kernel `algo` on `shape` with `splits` K slices (kernel 16; 1 for
/// kernel 15) on a GPU of `sms` SMs, host-side stream work included; `None` for other kernels.
pub fn predict_us(algo: Algo, shape: MatmulShape, splits: u32, sms: u32) -> Option<f64> {
    Some(best_packing(algo, shape, splits, sms)?.1)
}

/// The operand layouts of TMA kernel `algo` on `shape` with `splits` K slices of least predicted
/// time — the TMA's minimum ([`tma::plan`]) or with rows off a sector packed too
/// ([`tma::plan_aligned`]) — and that time; `None` for other kernels.
pub fn best_packing(algo: Algo, shape: MatmulShape, splits: u32, sms: u32) -> Option<(Packing, f64)> {
    let cfg = pipelined_config(algo)?;
    let elem = algo.kernel()?.precision.input_bytes();
    let minimum = tma::plan(cfg, shape, elem);
    if cfg.producer_copies {
        // Kernel 23 reads the operands in place: rows that are not whole 16-byte units (which the
        // TMA's layouts pad) it copies element by element, and is not priced there.
        let unaligned = minimum.a.padded() || minimum.b.padded();
        return Some((minimum, if unaligned { f64::INFINITY } else { predict_packed_us(algo, shape, splits, sms, minimum)? }));
    }
    let aligned = tma::plan_aligned(cfg, shape, elem);
    let us = predict_packed_us(algo, shape, splits, sms, minimum)?;
    if aligned == minimum {
        return Some((minimum, us));
    }
    let aligned_us = predict_packed_us(algo, shape, splits, sms, aligned)?;
    Some(if aligned_us < us { (aligned, aligned_us) } else { (minimum, us) })
}

/// [`predict_us`] with the operands read in the layouts of `packing` (the padded ones copied first).
pub fn predict_packed_us(algo: Algo, shape: MatmulShape, splits: u32, sms: u32, packing: Packing) -> Option<f64> {
    let cfg = pipelined_config(algo)?;
    let precision = algo.kernel()?.precision;
    let (m, n, k) = (f64::from(shape.m), f64::from(shape.n), f64::from(shape.k));
    let splits = if cfg.persistent && cfg.cluster == 1 { splits.max(1) } else { 1 };
    // Kernel 24's clusters take groups of `cluster` tiles along M (the last group's extra tiles
    // computed too) on whole clusters of SMs.
    let cluster = cfg.cluster.max(1);
    let tiles = shape.m.div_ceil(cfg.bm).div_ceil(cluster) * cluster * shape.n.div_ceil(cfg.bn);
    let steps = shape.k.div_ceil(cfg.bk).div_ceil(splits).max(1);
    let units = tiles * splits;
    let rounds = f64::from(units.div_ceil((sms / cluster * cluster).max(1)));
    let elem_bytes = precision.input_bytes();
    // TF32's Bᵀ is the host's copy; its rows follow K as A's do.
    let pitch = if cfg.producer_copies {
        1.0
    } else {
        // Kernel 24 multicasts B's boxes (one L2 read for both blocks): its B rows lose nothing
        // measurable off a sector (`docs/results/2026-12-03-cluster/tune`), its A rows
        // [`CLUSTER_WIDE_A_PITCH_SHARE`] of kernel 16's on the 256-wide tile, all of it on the others.
        let b_slow = cluster == 1 && tma::slow_rows(packing.b, elem_bytes);
        let rate = pitch_rate(cfg.bm, cfg.bn, tma::slow_rows(packing.a, elem_bytes), b_slow);
        if cluster > 1 && cfg.bn >= 256 {
            1.0 - CLUSTER_WIDE_A_PITCH_SHARE * (1.0 - rate)
        } else {
            rate
        }
    };
    let mut consumers = consumer_rate(cfg.bm, cfg.bn, cfg.tf32_operands) * narrow_register_rate(cfg.bm, cfg.bn, cfg.tf32_operands, rounds);
    if cluster > 1 && consumer_warpgroups(cfg.bm) < 2 && cfg.bn >= 256 {
        consumers *= CLUSTER_ONE_CONSUMER_RATE;
    }
    let per_sm = sustained_tflops(precision) * 1e6 / RATE_SMS * tile_rate(cfg.bn, cluster > 1) * consumers * pitch;
    let mut step_us = 2.0 * f64::from(cfg.bm) * f64::from(cfg.bn) * f64::from(cfg.bk) / per_sm;
    if cluster > 1 {
        step_us += if cfg.bn >= 192 { CLUSTER_STEP_US } else { CLUSTER_NARROW_STEP_US };
    }
    if cfg.producer_copies {
        let stage_bytes = f64::from(cfg.bm + cfg.bn) * f64::from(cfg.bk) * f64::from(elem_bytes);
        step_us = step_us.max(stage_bytes / COPY_FEED_BYTES_PER_US);
    }
    // The epilogue holds the consumers (the next unit's products wait for it): a unit's in-range
    // outputs (on average) stored at this SM's share of the epilogue's rate, or with split-K added
    // at its share of the L2's atomic rate.
    let (busy, outputs) = (f64::from(units.min(sms.max(1))), m * n / f64::from(tiles.max(1)));
    let epilogue_us = if splits > 1 {
        outputs / 2.0 / (ATOMIC_PAIRS_PER_US / busy)
    } else {
        4.0 * outputs / (store_bytes_per_us(cfg, shape, steps) / busy)
    };
    let work = rounds * (f64::from(steps) * step_us + epilogue_us);
    let sm_us = if cfg.stream_k {
        stream_k_sm_us(
            cfg,
            shape,
            elem_bytes,
            sms,
            step_us,
            4.0 * outputs / store_bytes_per_us(cfg, shape, shape.k.div_ceil(cfg.bk)),
            outputs / 2.0 / ATOMIC_PAIRS_PER_US,
        )
    } else if cfg.persistent {
        PERSISTENT_US + UNIT_US + work
    } else {
        rounds * UNIT_US + work
    };
    let elem = f64::from(elem_bytes);
    let gpu_us = elem * (m * k + k * n) / OPERAND_BYTES_PER_US;
    let mut host_us = LAUNCH_US;
    if splits > 1 {
        // Split-K's slices add into a zeroed `C` (the stream-K kernels store first: no zeroing),
        // priced as the memset it was: the launch's overlap of it is not (`tuning::ZERO_LAUNCH_US`).
        host_us += STREAM_OP_US + 4.0 * m * n / STREAM_BYTES_PER_US;
    }
    if cfg.stream_k {
        let packed = [packing.a, packing.b].iter().filter(|l| l.padded()).count();
        host_us += STREAM_K_FIXED_US + STREAM_K_PACK_US * packed as f64;
    }
    if cfg.fp8_operands {
        // B transposed into Bᵀ (one byte read, one written per element); A read in place.
        host_us += STREAM_OP_US + 2.0 * k * n / STREAM_BYTES_PER_US;
    } else if cfg.tf32_operands {
        // Read f32, write f32: B into Bᵀ, and A too unless the kernel rounds it and reads it in place.
        host_us += STREAM_OP_US + 8.0 * k * n / STREAM_BYTES_PER_US;
        if !cfg.rounds_a || packing.a.padded() {
            host_us += STREAM_OP_US + 8.0 * m * k / STREAM_BYTES_PER_US;
        }
    } else {
        // A (m × k) and B (k × n) padded by the packing are copied first.
        // A's copy is read by every column of tiles, B's by every row of them.
        let readers = [shape.n.div_ceil(cfg.bn), shape.m.div_ceil(cfg.bm)];
        for (l, readers) in [packing.a, packing.b].iter().zip(readers).filter(|(l, _)| l.padded()) {
            let bytes = 2.0 * elem * f64::from(l.rows) * f64::from(l.cols);
            let rate = if bytes > L2_BYTES && readers > 1 { PACK_BYTES_PER_US } else { STREAM_BYTES_PER_US };
            host_us += STREAM_OP_US + bytes / rate;
        }
    }
    let start_us = if steps <= SHORT_UNIT_STEPS { BLOCK_START_US * busy } else { 0.0 };
    let start_us =
        start_us + if cfg.tma && consumer_warpgroups(cfg.bm) >= 3 && steps <= TMA_STORE_STEPS { THREE_CONSUMER_SHALLOW_US } else { 0.0 };
    Some(host_us + start_us + bound(sm_us, gpu_us))
}

/// Bytes per microsecond the stream-K part of kernel 22 reads its stages at when its operands'
/// working set exceeds the L2 ([`stream_working_set`]): its blocks run at different K offsets, so
/// none shares a stage another block brought into the L2, and each K-step waits for DRAM. Fitted on
/// the stream parts that measured slower than kernel 16's steps (`docs/results/2026-12-03-refit/tune`
/// and `2026-12-03-cluster/tune`: 4416³, 6144³, 7168³, 8192³, 6152³, 8192×4096×4096,
/// 2048×12288×4096, 3072×6144×8192, TF32 5120³ and 6144×3072×4096): 132 stages of 48 KiB per step at
/// 4.1–5.9 TB/s, median 4.6 — DRAM's rate with a few L2 hits. Working sets within the L2 ran their
/// stream parts at kernel 16's rate (3584³, 5120³, 12288×2048×3072, 6144×3072×4096 BF16).
pub const STREAM_K_DRAM_BYTES_PER_US: f64 = 4.6e6;

/// What the whole GPU may read between two blocks of kernel 22's stream part reading the same panel
/// (`lag` K-steps of 132 stages) for the second still to find it in the L2: 64 MiB, between the lags
/// measured reused (10 steps of 48 KiB stages, 65 MB: TF32 and BF16 5000³, BF16 5120³) and not (11
/// and more: 2048×12288×4096, 4416³, 7168³); TF32 5120³ (10 steps) ran from DRAM all the same.
pub const STREAM_K_REUSE_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// Bytes of A's rows and B's columns the stream-K part of kernel 22 reads: the last `part` tiles in
/// kernel 16's grouped order (`tile_origin`), every row tile and column tile among them read over
/// the whole K depth.
pub fn stream_working_set(cfg: TileConfig, shape: MatmulShape, part: u32, elem_bytes: u32) -> f64 {
    // Kernel 24's units are `cluster` tiles tall.
    let bm = cfg.bm * cfg.cluster.max(1);
    let (tiles_m, tiles_n) = (shape.m.div_ceil(bm).max(1), shape.n.div_ceil(cfg.bn).max(1));
    let tiles = tiles_m * tiles_n;
    let (mut rows, mut cols) = (vec![false; tiles_m as usize], vec![false; tiles_n as usize]);
    for i in tiles - part.min(tiles)..tiles {
        let (r, c) = tile_origin(i, tiles_m, tiles_n, 1, 1);
        rows[r as usize] = true;
        cols[c as usize] = true;
    }
    let count = |v: &[bool]| v.iter().filter(|&&x| x).count() as f64;
    let a = (count(&rows) * f64::from(bm)).min(f64::from(shape.m));
    let b = (count(&cols) * f64::from(cfg.bn)).min(f64::from(shape.n));
    (a + b) * f64::from(shape.k) * f64::from(elem_bytes)
}

/// Kernel 22's busiest SM: on `G = min(SMs, tiles·steps)` blocks, the data-parallel rounds of whole
/// tiles (each stored: `store_us` of the whole GPU's time for one tile, shared by the `G` blocks),
/// then a run of `⌈part·steps / G⌉` K-steps of the stream-K part (`StreamK::stream_tiles`), which
/// crosses `⌈run / steps⌉ + 1` tiles at most — whole ones stored, the two at its ends added (`add_us`
/// likewise) — plus kernel 16's fixed costs once. The stream part's steps take at least `G` stages
/// from DRAM ([`STREAM_K_DRAM_BYTES_PER_US`]) when its working set exceeds the L2.
fn stream_k_sm_us(cfg: TileConfig, shape: MatmulShape, elem_bytes: u32, sms: u32, step_us: f64, store_us: f64, add_us: f64) -> f64 {
    // Kernel 24's stream-K entries walk units of `p` tiles on clusters of `p` SMs.
    let p = cfg.cluster.max(1);
    let tiles = shape.m.div_ceil(cfg.bm).div_ceil(p) * shape.n.div_ceil(cfg.bn);
    let steps = shape.k.div_ceil(cfg.bk).max(1);
    let steps_total = u64::from(tiles) * u64::from(steps);
    let g = steps_total.clamp(1, u64::from((sms / p).max(1))) as u32;
    let part = StreamK::<1>::stream_tiles(tiles, g);
    let (blocks, steps) = (f64::from(g * p), f64::from(steps));
    let dp_rounds = f64::from((tiles - part) / g);
    let dp_us = dp_rounds * (steps * step_us + store_us * blocks);
    if part == 0 {
        return PERSISTENT_US + UNIT_US + dp_us;
    }
    let run = (f64::from(part) * steps / f64::from(g)).ceil();
    if run < f64::from(STREAM_K_MIN_RUN_STEPS) {
        return f64::INFINITY;
    }
    // Block b + 1 walks the tiles after block b's, `lag` K-steps behind or ahead of it on the tile
    // that shares its panel; the L2 still holds what b read if the GPU read little enough since.
    // A block's own bytes of a stage: its A rows, and its share of B's columns where the cluster
    // multicasts them (kernel 24: each block of a pair loads half).
    let stage_bytes = (f64::from(cfg.bm) + f64::from(cfg.bn) / f64::from(p)) * f64::from(cfg.bk) * f64::from(elem_bytes);
    let lag = (run % steps).min(steps - run % steps);
    // The lag first: it is arithmetic, the working set walks the part's tiles.
    let from_dram = lag * blocks * stage_bytes > STREAM_K_REUSE_BYTES && stream_working_set(cfg, shape, part, elem_bytes) > L2_BYTES;
    let stream_step_us = if from_dram { step_us.max(blocks * stage_bytes / STREAM_K_DRAM_BYTES_PER_US) } else { step_us };
    let pieces = ((run / steps).ceil() + 1.0).min(f64::from(part));
    // A run's first piece publishes (stores) the end of a shared tile, its last adds the start of
    // another into `C`; the whole tiles between are stored.
    let ends_us = if pieces >= 2.0 { store_us + add_us } else { add_us };
    PERSISTENT_US
        + UNIT_US
        + dp_us
        + run * stream_step_us * STREAM_PART_STEP_FACTOR
        + ((pieces - 2.0).max(0.0) * store_us + ends_us) * blocks
}

/// How much longer a K-step of the stream-K part takes than one of whole tiles: runs that start and
/// end mid-tile, a store or an addition of a whole tile per piece, the publishing piece's counters.
/// Fitted on the BF16 tuning shapes of `docs/results/2026-12-04-stream-k-fixup/tune-f4a184e` (14
/// shapes, 1304³–6152³ and four rectangles): kernel 24's stream-K entries ran a median 1.10× the
/// price of its pairs walked whole (measured ÷ predicted of one over the other, 28 pairs), 1.01×
/// with this factor (0.87–1.24).
pub const STREAM_PART_STEP_FACTOR: f64 = 1.2;

/// Fewest K-steps a block's stream-K run may hold for the model to price the launch: on shorter runs
/// (small products, or shallow K, where every block holds a piece of a tile shared by many) the TMA
/// stream-K kernels ran 1.5–2.6× their price (`docs/results/2026-12-04-stream-k-fixup/small-5664ab1`:
/// 20 tuning shapes, runs of 1–5 steps; 1304³, runs of 10–13, 1.13–1.17×), where runs of 13 steps
/// and more stayed within the price (1536³, 768×3072×4096, every larger tuning shape). Such
/// launches are left to the kernels that split or widen small products (16, 20, 21).
pub const STREAM_K_MIN_RUN_STEPS: u32 = 12;

/// How the SMs' time and the operands' DRAM time combine: neither hides the other completely near
/// where they meet, so `(sm^P + dram^P)^(1/P)` rather than the larger alone — which would price every
/// tile alike once the operands bound the product, where tiles that waste rows (128-row tiles on a
/// 64-row A) measured up to 30 % slower (`call2-train`: 32×14336×4096, 64×4096×4096 BF16).
pub const BOUND_POWER: f64 = 4.0;

fn bound(sm_us: f64, dram_us: f64) -> f64 {
    (sm_us.powf(BOUND_POWER) + dram_us.powf(BOUND_POWER)).powf(1.0 / BOUND_POWER)
}

/// Kernel 16's K slices of least predicted time for `algo` on `shape` (1 ..= [`MAX_SPLITS`], slices
/// of at least [`MIN_SLICE_STEPS`] K-steps; up to [`MAX_SPLITS_ONE_ROUND`] in one round of the SMs) and that time; 1 for kernel 15 and kernels the model does
/// not cover.
pub fn best_splits(algo: Algo, shape: MatmulShape, sms: u32) -> (u32, f64) {
    let Some(cfg) = pipelined_config(algo) else { return (1, f64::INFINITY) };
    let one = predict_us(algo, shape, 1, sms).unwrap_or(f64::INFINITY);
    if !cfg.slices_k() {
        return (1, one);
    }
    let (k_steps, tiles) = (shape.k.div_ceil(cfg.bk), shape.m.div_ceil(cfg.bm) * shape.n.div_ceil(cfg.bn));
    let mut most = (k_steps / MIN_SLICE_STEPS).clamp(1, MAX_SPLITS);
    if tiles >= sms {
        most = most.min(MAX_SPLITS_MANY_TILES);
    }
    // Every slice of every tile in one round of the SMs, each deep enough: the price holds further.
    let one_round = (k_steps / MIN_ONE_ROUND_SLICE_STEPS).min(sms / tiles.max(1)).min(MAX_SPLITS_ONE_ROUND);
    let most = most.max(one_round);
    let best = (2..=most).fold((1, one), |best, s| {
        let us = predict_us(algo, shape, s, sms).unwrap_or(f64::INFINITY);
        if us < best.1 {
            (s, us)
        } else {
            best
        }
    });
    if cfg.fp8_operands && best.0 > 1 && best.1 * (1.0 + FP8_SPLIT_MIN_GAIN) > one {
        return (1, one);
    }
    best
}

/// The least predicted gain (over the unsplit launch, as a fraction of the split one's time) for
/// which an FP8 product is split over K. FP8's `f32` `C` and its BF16 `C` (never split) ran the same
/// kernel on 36 random shapes (seeds 20271205 on the H200 and 20271207 on an H100:
/// `docs/results/2026-12-05-pingpong-pairs/call3-ce006c7`, `docs/results/2026-12-05-h100-refits/call1-750fc0d`):
/// where the model split for a predicted gain of 0–5 % (six shapes) the split `f32` launch ran
/// 0.57–0.84 of the unsplit BF16 one's rate; for 15–24 % (four) 0.98–1.07. The zeroing of `C`
/// and the slices' atomic adds cost FP8's twice-as-fast K-steps more than the split-K terms,
/// fitted on the 16-bit kernels, price.
pub const FP8_SPLIT_MIN_GAIN: f64 = 0.10;

/// The TMA kernel of `precision` with the least predicted time on `shape` (its split count from
/// [`best_splits`]); ties go to the earlier kernel of the catalogue. `None` when the catalogue has no
/// TMA kernel of that precision (FP32). Operands with rows of other than whole 16-byte units are
/// packed first ([`tma::plan`]), and rows off a sector where the copies pay ([`best_packing`]):
/// [`predict_us`] counts them.
pub fn pick(shape: MatmulShape, precision: Precision, sms: u32) -> Option<Algo> {
    pick_timed(shape, precision, sms).map(|(algo, _)| algo)
}

/// [`pick`] and its predicted time (µs). Kernel 27's entries are kernel 16's with a finishing store:
/// `select::finishing_pick`'s, never this; kernel 31's (`TileConfig::ping_pong`) are priced there.
/// Kernel 25's pairs are weighed here with the unpaired tiles: priced by the model's cluster terms
/// (never fitted on them), the pick between the two matched the faster one on 24 of 28 measured
/// E4M3 shapes and never took the pairs where they ran slower (`docs/results/2026-12-05-pingpong-pairs`:
/// 24 random shapes and issue 35's four; 1.13× the unpaired tiles' speed in geometric mean).
pub fn pick_timed(shape: MatmulShape, precision: Precision, sms: u32) -> Option<(Algo, f64)> {
    MATMUL_KERNELS
        .iter()
        .filter(|k| {
            k.precision == precision
                && (k.config.tma || k.config.producer_copies)
                && !k.config.unpromoted
                && !k.config.fp8_block_scales
                && !k.config.ping_pong
                // Kernel 25's pairs where a pair's second tile has rows to compute: below two tile
                // rows its block only loads B's half for the first, and no measured shape had
                // fewer than 457 rows.
                && !(k.precision.is_fp8() && k.config.cluster > 1 && shape.m < 2 * k.config.bm)
                && (k.precision.is_fp8() || !k.config.fused_epilogue)
        })
        .map(|k| (k.algo, best_splits(k.algo, shape, sms).1))
        .min_by(|x, y| x.1.total_cmp(&y.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMS: u32 = 132;

    fn s(m: u32, n: u32, k: u32) -> MatmulShape {
        MatmulShape { m, n, k }
    }

    #[test]
    fn large_squares_run_the_persistent_kernel_unsplit() {
        for p in [Precision::Bf16, Precision::Fp16, Precision::Tf32] {
            let algo = pick(s(8192, 8192, 8192), p, SMS).unwrap();
            assert!(algo.config().unwrap().persistent, "{p:?}: {algo:?}");
            assert_eq!(best_splits(algo, s(8192, 8192, 8192), SMS).0, 1);
        }
    }

    #[test]
    fn tiles_below_one_wave_split_k_and_slices_keep_their_minimum() {
        let algo = Algo::PersistentBf16;
        let (splits, _) = best_splits(algo, s(256, 4096, 4096), SMS);
        assert!(splits > 1, "32 tiles of 64 K-steps should split");
        let (splits, _) = best_splits(algo, s(256, 4096, 256), SMS);
        assert_eq!(splits, 1, "4 K-steps: no slice of MIN_SLICE_STEPS");
        assert_eq!(best_splits(Algo::TmaBf16, s(256, 4096, 4096), SMS).0, 1, "kernel 15 does not split");
    }

    #[test]
    fn tile_rates_fall_with_the_width_and_rows_off_a_sector_cost_rate() {
        assert_eq!(tile_rate(256, false), 1.0);
        assert!((tile_rate(128, false) - NARROW_RATE).abs() < 1e-12);
        assert_eq!(tile_rate(192, false), NARROW_RATE);
        assert_eq!(tile_rate(192, true), 1.0, "B multicast: the 192-wide tile at full rate");
        assert_eq!(pitch_rate(128, 256, false, false), 1.0);
        let both = pitch_rate(128, 128, true, true);
        assert!((0.55..0.65).contains(&both), "{both}");
        assert!(pitch_rate(128, 256, true, true) > both, "wider tiles read each operand less often");
        // BF16 3000³: rows of 6000 bytes (16 off a sector) in both operands; 3008³'s are whole lines.
        let (slow, fast) = (s(3000, 3000, 3000), s(3008, 3008, 3008));
        let in_place = |shape: MatmulShape| tma::plan(Algo::PersistentBf16Narrow.config().unwrap(), shape, 2);
        let rate = |shape: MatmulShape| {
            2.0 * f64::from(shape.m).powi(3) / predict_packed_us(Algo::PersistentBf16Narrow, shape, 1, SMS, in_place(shape)).unwrap()
        };
        assert!(rate(slow) < 0.75 * rate(fast));
    }

    #[test]
    fn rows_off_a_sector_are_copied_where_the_copies_pay() {
        // 5000³ BF16: 250 GFLOP against two 50 MB copies; 64×8192×5000: 64 rows read B once.
        let (packing, _) = best_packing(Algo::PersistentBf16, s(5000, 5000, 5000), 1, SMS).unwrap();
        assert!(packing.a.padded() && packing.b.padded(), "{packing:?}");
        let (packing, _) = best_packing(Algo::PersistentBf16Rows64, s(64, 8200, 4096), 1, SMS).unwrap();
        assert!(!packing.b.padded(), "{packing:?}");
    }

    #[test]
    fn the_one_consumer_pair_gives_way_to_the_128_row_pair_where_it_ran_slower() {
        // Session 53 by name (H100): 1320³ 64×256 pairs 21.4 µs, 128×128 pairs 16.2; 1400³ 20.9, 17.6.
        for n in [1320, 1400] {
            let priced = |algo: Algo| predict_us(algo, s(n, n, n), 1, SMS).unwrap();
            assert!(priced(Algo::ClusterBf16Rows64Wide) > priced(Algo::ClusterBf16Narrow), "{n}³");
        }
    }

    #[test]
    fn the_middle_tile_takes_the_shapes_whose_last_wave_the_others_fill_badly() {
        // 3072³: 288 tiles of 128×256 (2.2 waves), 576 of 128×128 (4.4), 384 of 128×192 (2.9).
        for p in [Precision::Bf16, Precision::Fp16] {
            let algo = pick(s(3072, 3072, 3072), p, SMS).unwrap();
            assert_eq!(algo.config().unwrap().bn, 192, "{p:?}: {algo:?}");
        }
    }

    #[test]
    fn predictions_are_finite_positive_and_grow_with_k() {
        for k in MATMUL_KERNELS.iter().filter(|k| k.config.tma || k.config.producer_copies) {
            let mut last = 0.0;
            for depth in [64, 512, 4096, 32768] {
                let us = predict_us(k.algo, s(1000, 1032, depth), 1, SMS).unwrap();
                if k.precision.is_fp8() {
                    // Kernel 25's prices are provisional (`sustained_tflops`): its steps run twice
                    // as fast as the 16-bit ones the shallow-unit start term was fitted on
                    // (SHORT_UNIT_STEPS), so one deep step can cost less than that term until its
                    // own measurements refit it. Finite and positive meanwhile.
                    assert!(us.is_finite() && us > 0.0, "{}: {us} at K = {depth}", k.label);
                    continue;
                }
                if k.config.stream_k && us.is_infinite() {
                    // Runs shorter than STREAM_K_MIN_RUN_STEPS are not priced: only at shallow K.
                    assert!(depth <= 512, "{}: unpriced at K = {depth}", k.label);
                    continue;
                }
                assert!(us.is_finite() && us > last, "{}: {us} after {last} at K = {depth}", k.label);
                last = us;
            }
        }
        // Short runs: a small product with deep K (one tile of 128×256, 32 steps on 32 blocks).
        assert!(predict_us(Algo::StreamKTmaBf16, s(8, 8, 2048), 1, SMS).unwrap().is_infinite());
        assert!(predict_us(Algo::StreamKTmaBf16, s(768, 3072, 4096), 1, SMS).unwrap().is_finite());
        assert_eq!(predict_us(Algo::Dbuf128x256x16, s(64, 64, 64), 1, SMS), None);
    }
}
