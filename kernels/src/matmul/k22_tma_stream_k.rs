//! Kernel 22: kernel 16's pipeline walked stream-K — the K-steps of every output tile, dealt out
//! evenly to one block per SM (sm_90a).
//!
//! **What it fixes in kernel 16**: kernel 16's blocks walk whole tiles, so the last round of a
//! product is as long as a full one however few tiles it holds (3000³: 288 tiles of 128×256 on 132
//! SMs are 2.2 rounds, run as 3; 1536³: 72 tiles fill 55 % of one), and its split-K cuts every tile
//! into the same number of slices, which rounds the same way. Here, as in kernel 17 for the CUDA
//! cores, the `tiles × ⌈K/BK⌉` K-steps of the whole product, numbered tile by tile in kernel 16's
//! grouped order, are cut into `G = gridDim.x` runs of equal length (to one step): block `b` takes
//! steps `⌊b·total/G⌋ .. ⌊(b+1)·total/G⌋` — the end of one tile, whole tiles, the start of another.
//! A whole tile is stored; a piece of a tile is added into `C` (zeroed by the host), through the same
//! staged epilogue.
//!
//! **Everything else** is kernel 16's body (`k16_persistent::walk_gemm`): only the walk differs.
//! The partial sums of a split tile arrive in any order, so its last bits may differ between runs,
//! within the reference tolerance.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::WG_ROWS;
use super::k16_persistent::{self, tile_origin, Piece, TmaFeed, Walk};
use crate::device::thread;
use crate::device::tma::TensorMap;
use crate::launch::TileConfig;

/// The launch of a kernel-22 entry: kernel 16's, stream-K (the grid is one block per SM, at most one
/// per K-step of the product; `C` zeroed first).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k16_persistent::config(bm, bn, stages, elem).stream_k()
}

/// `C = A·B` as [`k16_persistent::persistent_gemm`], each block taking an equal run of the product's
/// K-steps ([`StreamK`]).
///
/// # Safety
/// As [`k16_persistent::persistent_gemm`], with a grid of any size along x (one block per SM is the
/// intent) and `C` zeroed first.
#[inline(always)]
pub unsafe fn stream_k_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    map_a: *const TensorMap,
    map_b: *const TensorMap,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_gemm::<O, S, NC, 1, StreamK, TmaFeed>(TmaFeed { map_a, map_b }, c, m, n, k) }
}

/// Block `blockIdx.x`'s work among `G = gridDim.x`: whole tiles `dp_next, dp_next + G, … < dp_end`
/// first (the data-parallel rounds, as kernel 16 walks them), then its run of K-steps `next .. end` of
/// the last tiles' steps, numbered tile by tile (the stream-K part).
#[derive(Clone, Copy)]
pub struct StreamK {
    tiles_m: u32,
    tiles_n: u32,
    bm: u32,
    bn: u32,
    steps: u32,
    dp_next: u32,
    dp_end: u32,
    blocks: u32,
    next: u64,
    end: u64,
}

impl StreamK {
    /// Steps `⌊b·total/g⌋ .. ⌊(b+1)·total/g⌋` of `total`: block `b`'s run among `g`.
    #[inline(always)]
    pub fn run(total: u64, b: u32, g: u32) -> (u64, u64) {
        let g = u64::from(g.max(1));
        (total * u64::from(b) / g, total * (u64::from(b) + 1) / g)
    }

    /// Tiles of the stream-K part among `tiles` on `g` blocks: none when the tiles fill whole rounds,
    /// else the last partial round and one full round before it (each block then runs between one and
    /// two tiles' steps), all of them when there are fewer.
    #[inline(always)]
    pub fn stream_tiles(tiles: u32, g: u32) -> u32 {
        let g = g.max(1);
        if tiles.is_multiple_of(g) {
            0
        } else {
            let part = tiles % g + g;
            if part < tiles {
                part
            } else {
                tiles
            }
        }
    }
}

impl Walk for StreamK {
    #[inline(always)]
    fn start(tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        let (tiles, blocks, b) = (tiles_m * tiles_n, thread::grid_dim_x().max(1), thread::block_idx_x());
        let dp_end = tiles - StreamK::stream_tiles(tiles, blocks);
        let total = u64::from(tiles - dp_end) * u64::from(steps);
        let (next, end) = StreamK::run(total, b, blocks);
        let first = u64::from(dp_end) * u64::from(steps);
        StreamK { tiles_m, tiles_n, bm, bn, steps, dp_next: b, dp_end, blocks, next: first + next, end: first + end }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        if self.steps == 0 {
            return None;
        }
        if self.dp_next < self.dp_end {
            let (row0, col0) = tile_origin(self.dp_next, self.tiles_m, self.tiles_n, self.bm, self.bn);
            self.dp_next += self.blocks;
            return Some(Piece { row0, col0, kb: 0, ke: self.steps, adds: false });
        }
        if self.next >= self.end {
            return None;
        }
        let steps = u64::from(self.steps);
        let (tile, kb) = ((self.next / steps) as u32, (self.next % steps) as u32);
        let ke = if self.end - self.next < steps - u64::from(kb) { kb + (self.end - self.next) as u32 } else { self.steps };
        self.next += u64::from(ke - kb);
        let (row0, col0) = tile_origin(tile, self.tiles_m, self.tiles_n, self.bm, self.bn);
        Some(Piece { row0, col0, kb, ke, adds: kb != 0 || ke != self.steps })
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
                let (s, e) = StreamK::run(total, b, g);
                assert_eq!(s, at, "{total} over {g}: block {b}");
                assert!(e >= s && e - s <= total / u64::from(g) + 1);
                at = e;
            }
            assert_eq!(at, total);
        }
    }

    #[test]
    fn the_stream_k_part_is_the_last_partial_round_and_one_before_it() {
        assert_eq!(StreamK::stream_tiles(72, 132), 72);
        assert_eq!(StreamK::stream_tiles(264, 132), 0);
        assert_eq!(StreamK::stream_tiles(288, 132), 156);
        assert_eq!(StreamK::stream_tiles(800, 132), 140);
        assert_eq!(StreamK::stream_tiles(0, 132), 0);
        assert_eq!(StreamK::stream_tiles(9, 4), 5);
    }

    #[test]
    fn the_entries_are_stream_k_and_persistent() {
        for cfg in [STREAMK_TMA_BF16_128X256, STREAMK_TMA_F16_128X256, STREAMK_TMA_TF32_128X256] {
            assert!(cfg.stream_k && cfg.persistent && cfg.tma && cfg.bm == 2 * WG_ROWS && cfg.bn == 256);
        }
    }
}
