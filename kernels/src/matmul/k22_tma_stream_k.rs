//! Kernel 22: kernel 16's pipeline walked stream-K — the K-steps of every output tile, dealt out
//! evenly to one block per SM (sm_90a).
//!
//! **What it fixes in kernel 16**: kernel 16's blocks walk whole tiles, so the last round of a
//! product is as long as a full one however few tiles it holds (3000³: 288 tiles of 128×256 on 132
//! SMs are 2.2 rounds, run as 3; 1536³: 72 tiles fill 55 % of one), and its split-K cuts every tile
//! into the same number of slices, which rounds the same way. Here, as in kernel 17 for the CUDA
//! cores, the `tiles × ⌈K/BK⌉` K-steps of the whole product, numbered tile by tile in kernel 16's
//! grouped order, are cut into `G = gridDim.x` runs of equal length (to one step): block `b` takes
//! steps `⌊b·total/G⌋ .. ⌊(b+1)·total/G⌋` — the end of one tile, whole tiles, the start of another
//! (after whole tiles in data-parallel rounds: [`StreamK`]).
//!
//! **The fix-up**: a whole tile is stored. Of a tile that several runs share, the piece that ends its
//! K range — the first piece of a run — stores its partial sum into `C` and publishes it on the
//! tile's counters (`k16_persistent::Fix`); the others — each the last piece of an earlier run, so
//! long after — wait for that and add theirs into `C` through the same staged epilogue. `C` needs no
//! zeroing, and no block waits on a block that waits. A tile shared by three runs or more gets its
//! additions in any order, so its last bits may differ between runs, within the reference tolerance.
//!
//! **Everything else** is kernel 16's body (`k16_persistent::walk_gemm`): only the walk differs.
//! Kernel 24's stream-K entries walk the same way over its pairs of tiles (`StreamK<2>`).
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{Flat, TmaArgs, WG_ROWS};
use super::k16_persistent::{self, tile_origin, Fix, Piece, Walk};
use crate::device::tma::TensorMap;
use crate::device::{cluster, thread};
use crate::launch::TileConfig;

/// The launch of a kernel-22 entry: kernel 16's, stream-K (the grid is one block per SM, at most one
/// per K-step of the product, all resident at once).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k16_persistent::config(bm, bn, stages, elem).stream_k()
}

/// Counters the stream-K walk of a grid of `blocks` blocks may name ([`StreamK`]): two shared tiles
/// per block at most, one counter per consumer warp (three consumer warpgroups at most).
pub const fn flag_words(blocks: u32) -> u32 {
    2 * blocks * 4 * 3
}

/// `C = A·B` as [`k16_persistent::persistent_gemm`], each block taking an equal run of the product's
/// K-steps ([`StreamK`]).
///
/// # Safety
/// As [`k16_persistent::persistent_gemm`], with a grid of any size along x that is resident at once
/// (one block per SM is the intent), and `flags` [`flag_words`]`(gridDim.x)` zeroed `u32` (the launch
/// leaves them zero).
#[inline(always)]
pub unsafe fn stream_k_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_tma::<O, S, NC, 1, StreamK<1>>(args) }
}

/// The walk of a block of a `P`-block cluster among `G = gridDim.x / P` clusters, over units of `P`
/// vertically adjacent tiles (one tile for `P = 1`; kernel 24's pairs for 2), each block computing
/// its rank's tile of a unit: whole units `c, c + G, … < dp_end` first (the data-parallel rounds, as
/// kernel 16 walks them, `c` the cluster), then the cluster's run of K-steps of the last units'
/// steps, numbered unit by unit (the stream-K part). Runs go to the clusters in reverse (run `r` to
/// cluster `G − 1 − r`): a run starts with the end of a unit, which it publishes, and ends with the
/// start of another, which waits for its end — published by a lower cluster, which the CPU executor
/// has run already.
#[derive(Clone, Copy)]
pub struct StreamK<const P: u32> {
    units_m: u32,
    tiles_n: u32,
    bm: u32,
    bn: u32,
    steps: u32,
    rank: u32,
    dp_next: u32,
    dp_end: u32,
    clusters: u32,
    /// The stream part's K-steps, and this cluster's run of them.
    total: u64,
    next: u64,
    end: u64,
}

impl<const P: u32> StreamK<P> {
    /// Steps `⌊b·total/g⌋ .. ⌊(b+1)·total/g⌋` of `total`: run `b` among `g`.
    #[inline(always)]
    pub fn run(total: u64, b: u32, g: u32) -> (u64, u64) {
        let g = u64::from(g.max(1));
        (total * u64::from(b) / g, total * (u64::from(b) + 1) / g)
    }

    /// The run among `g` that holds step `x < total` of `total` (the last whose start is at most `x`).
    #[inline(always)]
    pub fn run_of(x: u64, total: u64, g: u32) -> u64 {
        ((x + 1) * u64::from(g.max(1))).div_ceil(total.max(1)) - 1
    }

    /// Units of the stream-K part among `units` on `g` clusters: none when the units fill whole
    /// rounds, else the last partial round and one full round before it (each cluster then runs
    /// between one and two units' steps), all of them when there are fewer.
    #[inline(always)]
    pub fn stream_tiles(units: u32, g: u32) -> u32 {
        let g = g.max(1);
        if units.is_multiple_of(g) {
            0
        } else {
            let part = units % g + g;
            if part < units {
                part
            } else {
                units
            }
        }
    }
}

impl<const P: u32> Walk for StreamK<P> {
    type Args = ();
    type Depth = Flat;

    #[inline(always)]
    fn start(_: (), tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        let units_m = tiles_m.div_ceil(P);
        let (units, clusters) = (units_m * tiles_n, (thread::grid_dim_x() / P).max(1));
        let c = thread::block_idx_x() / P;
        let dp_end = units - Self::stream_tiles(units, clusters);
        let total = u64::from(units - dp_end) * u64::from(steps);
        let (next, end) = Self::run(total, clusters - 1 - c, clusters);
        let rank = if P > 1 { cluster::rank() } else { 0 };
        StreamK { units_m, tiles_n, bm, bn, steps, rank, dp_next: c, dp_end, clusters, total, next, end }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        if self.steps == 0 {
            return None;
        }
        let origin = |unit: u32, s: &Self| {
            let (row0, col0) = tile_origin(unit, s.units_m, s.tiles_n, P * s.bm, s.bn);
            (row0 + s.rank * s.bm, col0)
        };
        if self.dp_next < self.dp_end {
            let (row0, col0) = origin(self.dp_next, self);
            self.dp_next += self.clusters;
            return Some(Piece { row0, col0, kb: 0, ke: self.steps, adds: false, fix: Fix::Alone, depth: Flat });
        }
        if self.next >= self.end {
            return None;
        }
        let steps = u64::from(self.steps);
        let (unit, kb) = ((self.next / steps) as u32, (self.next % steps) as u32);
        let ke = if self.end - self.next < steps - u64::from(kb) { kb + (self.end - self.next) as u32 } else { self.steps };
        self.next += u64::from(ke - kb);
        let (row0, col0) = origin(self.dp_end + unit, self);
        let flag = unit * P + self.rank;
        let fix = if kb == 0 && ke == self.steps {
            Fix::Alone
        } else if ke == self.steps {
            Fix::Publish { flag }
        } else {
            let first = u64::from(unit) * steps;
            let runs = Self::run_of(first + steps - 1, self.total, self.clusters) - Self::run_of(first, self.total, self.clusters);
            Fix::Await { flag, sharers: runs as u32 + 1 }
        };
        Some(Piece { row0, col0, kb, ke, adds: false, fix, depth: Flat })
    }
}

tma_entry!(stream_k_gemm, matmul_streamk_tma_bf16_128x256, STREAMK_TMA_BF16_128X256, Bf16N256, u16, stages 4,
    "Kernel 22 on BF16 inputs, `f32` output (sm_90a): kernel 16's 128×256×64 tiles and 4 stages, walked \
     stream-K.");
tma_entry!(stream_k_gemm, matmul_streamk_tma_f16_128x256, STREAMK_TMA_F16_128X256, F16N256, u16, stages 4,
    "Kernel 22 on FP16 inputs, `f32` output (sm_90a): as [`matmul_streamk_tma_bf16_128x256`].");
tma_entry!(stream_k_gemm, matmul_streamk_tma_tf32_128x256, STREAMK_TMA_TF32_128X256, Tf32RegsN256, f32, stages 4,
    "Kernel 22 in TF32 (A rounded in registers, `Bᵀ` prepared: as kernel 15's TF32 entry), `f32` output \
     (sm_90a), 128×256×32 tiles, 4 stages.");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runs_cover_every_step_once() {
        for (total, g) in [(0u64, 132u32), (7, 132), (1728, 132), (13_536, 132), (u64::from(u32::MAX) * 40, 132), (5, 1)] {
            let mut at = 0;
            for b in 0..g {
                let (s, e) = StreamK::<1>::run(total, b, g);
                assert_eq!(s, at, "{total} over {g}: block {b}");
                assert!(e >= s && e - s <= total / u64::from(g) + 1);
                at = e;
            }
            assert_eq!(at, total);
        }
    }

    #[test]
    fn run_of_finds_the_run_holding_each_step() {
        for (total, g) in [(7u64, 132u32), (1728, 132), (13_536, 66), (5, 1), (200, 7)] {
            for b in 0..g {
                let (s, e) = StreamK::<1>::run(total, b, g);
                for x in s..e {
                    assert_eq!(StreamK::<1>::run_of(x, total, g), u64::from(b), "step {x} of {total} over {g}");
                }
            }
        }
    }

    #[test]
    fn the_stream_k_part_is_the_last_partial_round_and_one_before_it() {
        assert_eq!(StreamK::<1>::stream_tiles(72, 132), 72);
        assert_eq!(StreamK::<1>::stream_tiles(264, 132), 0);
        assert_eq!(StreamK::<1>::stream_tiles(288, 132), 156);
        assert_eq!(StreamK::<1>::stream_tiles(800, 132), 140);
        assert_eq!(StreamK::<1>::stream_tiles(0, 132), 0);
        assert_eq!(StreamK::<1>::stream_tiles(9, 4), 5);
    }

    #[test]
    fn the_entries_are_stream_k_and_persistent() {
        for cfg in [STREAMK_TMA_BF16_128X256, STREAMK_TMA_F16_128X256, STREAMK_TMA_TF32_128X256] {
            assert!(cfg.stream_k && cfg.persistent && cfg.tma && cfg.bm == 2 * WG_ROWS && cfg.bn == 256);
        }
    }
}
