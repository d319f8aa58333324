//! Kernel 26: many products in one launch — strided-batched (`C_i = A_i·B_i` for every matrix `i` of
//! a batch) and grouped (a mixture-of-experts layer: group `g`'s rows of A times its own `B_g`) — on
//! kernel 16's persistent pipeline (sm_90a).
//!
//! **Why one launch**: 256 products of 128×128×128 are 256 launches of one tile each, each a few
//! microseconds of launch and pipeline start for a fraction of a microsecond of work; and a grouped
//! layer's groups are as many as its experts, of sizes known only when the tokens are routed. Here
//! every product's tiles are units of one walk ([`GroupUnits`]): the grid is one block per SM, and a
//! block's producer loads the next unit's operands — of whichever product — while its consumers
//! store the last.
//!
//! **Stacks of matrices through 3-D tensor maps**: B is a stack (`batch × K × N`, or the groups'
//! weights `G × K × N`) and each unit asks the TMA for its boxes in layer `b` of it
//! ([`tma::load_3d`]); the edges of every matrix zero-fill as in 2-D (K not a multiple of the
//! K-step reads zeros past its own K, never the next matrix's rows). A is a stack for a batch
//! (layer 0 for all when it is broadcast, stride 0) and one matrix for groups: the **contiguous
//! layout** of DeepGEMM — group `g` owns rows `offsets[g] .. offsets[g+1]` of A and of `C`, any
//! number of them, zero included. A tile that runs past its group's last row computes the next
//! group's rows too, and stores only its own ([`Layer`]'s row bound): `C` is stored by the threads,
//! row by row, never by a TMA box that would cross into another group.
//!
//! **Finished sums**: each entry has a twin (`*_finished`) whose store finishes every sum as kernel
//! 27's does — `α`, a bias, an activation, `C` in `f32`, BF16 or FP16 ([`grouped_finished_gemm`]): a
//! mixture-of-experts layer's activation and 16-bit output in the same launch.
//!
//! Everything else — stages, barriers, warpgroups, the swizzle, the stores — is kernel 16's.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{self, Depth, TmaArgs, WG_ROWS};
use super::k16_persistent::{tile_origin, walk_gemm, Fix, Piece, Plain, TmaFeed, Walk};
use super::k27_fused::Finished;
use crate::activation::Fused;
use crate::device::mem::View;
use crate::device::thread;
use crate::device::tma::{self, TensorMap};
use crate::launch::TileConfig;

/// The launch of a kernel-26 entry: kernel 16's (one block per SM, at most one per unit).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k15_tma::config(bm, bn, stages, elem).persistent()
}

/// The products of one launch: `count` matrices of a batch (`offsets` null: each `m × n`, `C`'s
/// `c_stride` elements apart, A's and B's layer `i`, or layer 0 where `a_batched` / `b_batched` is 0),
/// or `count` groups (`offsets`: `count + 1` row offsets into A and `C`, non-decreasing, the last at
/// most `m`; group `g` multiplies by B's layer `g`).
#[derive(Clone, Copy)]
pub struct Groups {
    pub offsets: *const u32,
    pub count: u32,
    pub a_batched: u32,
    pub b_batched: u32,
    pub c_stride: usize,
}

/// One unit's matrices: A's layer `a` and B's layer `b` (3-D maps), and its output, `C`'s element
/// `at` on, rows below `end`.
#[derive(Clone, Copy)]
pub struct Layer {
    a: u32,
    b: u32,
    at: usize,
    end: u32,
}

impl Depth for Layer {
    const STACKED: bool = true;

    #[inline(always)]
    unsafe fn load_a(self, dst: u32, map: *const TensorMap, k0: i32, row0: i32, bar: u32) {
        // SAFETY: forwarded contract (a 3-D map).
        unsafe { tma::load_3d(dst, map, k0, row0, self.a as i32, bar) }
    }

    #[inline(always)]
    unsafe fn load_b(self, dst: u32, map: *const TensorMap, c0: i32, c1: i32, bar: u32) {
        // SAFETY: forwarded contract (a 3-D map).
        unsafe { tma::load_3d(dst, map, c0, c1, self.b as i32, bar) }
    }

    #[inline(always)]
    fn output(self, m: u32) -> (usize, u32) {
        // Never past `m`: a group's bound comes from the caller's offsets.
        (self.at, if self.end < m { self.end } else { m })
    }
}

/// Kernel 26's walk: the units (output tiles) of every product in turn — product `i`'s
/// `⌈rows_i / bm⌉ × tiles_n` tiles in kernel 16's grouped order — and block `x` takes units `x`,
/// `x + gridDim.x`, …; a block's cursor moves through the products as its units do.
#[derive(Clone, Copy)]
pub struct GroupUnits {
    groups: Groups,
    /// Tile rows of one matrix of a batch.
    tiles_m: u32,
    tiles_n: u32,
    bm: u32,
    bn: u32,
    steps: u32,
    /// The next unit of this block, and the distance to the one after.
    u: u32,
    stride: u32,
    /// The product the cursor is in, its first unit, its unit count, its tile rows, its first and
    /// last row.
    g: u32,
    first: u32,
    units: u32,
    group_tiles_m: u32,
    begin: u32,
    end: u32,
}

impl GroupUnits {
    /// The walk of the block that takes units `u`, `u + stride`, ….
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn at(groups: Groups, tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32, u: u32, stride: u32) -> Self {
        let (g, first, units, group_tiles_m, begin, end) = (0, 0, 0, 0, 0, 0);
        let mut walk = GroupUnits { groups, tiles_m, tiles_n, bm, bn, steps, u, stride, g, first, units, group_tiles_m, begin, end };
        if groups.count > 0 {
            walk.enter(0);
        }
        walk
    }

    /// Moves the cursor's bounds to product `g` (< `count`).
    #[inline(always)]
    fn enter(&mut self, g: u32) {
        let (begin, end, tiles_m) = if self.groups.offsets.is_null() {
            (0, u32::MAX, self.tiles_m)
        } else {
            // SAFETY: `count + 1` offsets (the entry's contract), g < count.
            let (begin, end) = unsafe {
                let offsets = View::from_const(self.groups.offsets, self.groups.count as usize + 1);
                (offsets.get(g as usize), offsets.get(g as usize + 1))
            };
            (begin, end, end.saturating_sub(begin).div_ceil(self.bm))
        };
        (self.g, self.units, self.group_tiles_m, self.begin, self.end) = (g, tiles_m * self.tiles_n, tiles_m, begin, end);
    }
}

impl Walk for GroupUnits {
    type Args = Groups;
    type Depth = Layer;

    #[inline(always)]
    fn start(groups: Groups, tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        Self::at(groups, tiles_m, tiles_n, bm, bn, steps, thread::block_idx_x(), thread::grid_dim_x().max(1))
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece<Layer>> {
        // A batch's products all have `units` units: the product of unit `u` is `u / units`, reached
        // at once. Stepped product by product, a block's cursor passed every product once — 512
        // products of 64³ ran 4.7× their price, the walk's integer chain its limit (ncu:
        // `docs/results/2026-12-05-h100-refits/call6-05b198c`). Groups differ in size: stepped.
        if self.groups.offsets.is_null() && self.units > 0 && self.u - self.first >= self.units {
            let g = self.u / self.units;
            if g >= self.groups.count {
                return None;
            }
            (self.g, self.first) = (g, g * self.units);
        }
        while self.u - self.first >= self.units {
            if self.g + 1 >= self.groups.count {
                return None;
            }
            self.first += self.units;
            self.enter(self.g + 1);
        }
        let (row, col0) = tile_origin(self.u - self.first, self.group_tiles_m, self.tiles_n, self.bm, self.bn);
        self.u += self.stride;
        let g = self.g;
        let layer = if self.groups.offsets.is_null() {
            Layer { a: g * self.groups.a_batched, b: g * self.groups.b_batched, at: g as usize * self.groups.c_stride, end: self.end }
        } else {
            Layer { a: 0, b: g, at: 0, end: self.end }
        };
        Some(Piece { row0: self.begin + row, col0, kb: 0, ke: self.steps, adds: false, fix: Fix::Alone, depth: layer })
    }
}

/// `C_i = A_i·B_i` for every product of `groups`, as [`super::k16_persistent::persistent_gemm`]
/// computes one.
///
/// # Safety
/// A's map is 3-D: `(k, rows, layers)` with one layer for groups (then `m` rows, the offsets' range)
/// or `count` layers of `m` rows (one where `a_batched` is 0); B's `(n, k, layers)`, `count` layers
/// (one where `b_batched` is 0); both as [`k15_tma::tma_gemm`]'s otherwise. `c` holds every product's
/// output: `(count - 1)·c_stride + m·n` floats for a batch (the products' outputs apart), `m·n` for
/// groups; `groups.offsets` null or `count + 1` non-decreasing `u32`s, the last at most `m`. The grid
/// is any number of blocks (one per SM is the intent), one cluster each, the launch as
/// [`k15_tma::tma_gemm`]'s.
#[inline(always)]
pub unsafe fn grouped_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs, groups: Groups) {
    let TmaArgs { map_a, map_b, c, m, n, k, .. } = args;
    // SAFETY: forwarded contract; C is stored by the threads (no map: a box could cross a group).
    unsafe {
        walk_gemm::<O, S, NC, 1, GroupUnits, TmaFeed, Plain>(
            TmaFeed { map_a, map_b },
            groups,
            Plain,
            core::ptr::null(),
            c,
            core::ptr::null_mut(),
            m,
            n,
            k,
        )
    }
}

/// [`grouped_gemm`] with every sum finished in the store as kernel 27 finishes them: `D = act(α·A·B +
/// bias)`, `D` in `out`'s type (`k27_fused::out`). The bias is per column (`n` values, the same for
/// every product) or per row (`m` values: each matrix's rows of a batch, the grouped A's rows).
///
/// # Safety
/// As [`grouped_gemm`], with `c` holding every product's output in `out`'s type (`c_stride` in its
/// elements) and `bias` what `epilogue`'s bias kind needs ([`Fused::new`] of `m × n`).
#[inline(always)]
pub unsafe fn grouped_finished_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    args: TmaArgs,
    groups: Groups,
    (alpha, out): (f32, u32),
    bias: *const f32,
    epilogue: u32,
) {
    let TmaArgs { map_a, map_b, c, m, n, k, .. } = args;
    // SAFETY: the bias as the caller states.
    let fused = unsafe { Fused::new(bias, epilogue, m, n) };
    // SAFETY: forwarded contract; C is stored by the threads (no map: a box could cross a group).
    unsafe {
        walk_gemm::<O, S, NC, 1, GroupUnits, TmaFeed, Finished>(
            TmaFeed { map_a, map_b },
            groups,
            Finished::new(fused, alpha, out),
            core::ptr::null(),
            c,
            core::ptr::null_mut(),
            m,
            n,
            k,
        )
    }
}

/// Declares a kernel-26 entry, its finishing twin and their launch constant.
macro_rules! grouped_entry {
    ($name:ident / $twin:ident, $config:ident, $tile:ident, stages $s:literal, consumers $c:literal, $doc:literal) => {
        #[doc = concat!("The launch of [`", stringify!($name), "`].")]
        pub const $config: TileConfig = config(WG_ROWS * $c, <super::k14_wgmma::$tile as WgmmaTile>::N, $s, 2);

        kernel! {
            #[doc = $doc]
            ///
            /// # Safety
            /// As [`grouped_gemm`], with the launch its `TileConfig` constant states.
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $name(
                map_a: *const TensorMap,
                map_b: *const TensorMap,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                offsets: *const u32,
                count: u32,
                a_batched: u32,
                b_batched: u32,
                c_stride: usize,
            ) {
                let args = TmaArgs { map_a, map_b, map_c: core::ptr::null(), c, flags: core::ptr::null_mut(), m, n, k };
                // SAFETY: forwarded contract.
                unsafe {
                    grouped_gemm::<super::k14_wgmma::$tile, $s, $c>(args, Groups { offsets, count, a_batched, b_batched, c_stride })
                }
            }
        }

        kernel! {
            #[doc = concat!("[`", stringify!($name), "`] finishing each sum in its store: `act(α·A·B + bias)`, `C` in `f32`, BF16 or FP16.")]
            ///
            /// # Safety
            /// As [`grouped_finished_gemm`], with the launch its `TileConfig` constant states.
            #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
            pub unsafe fn $twin(
                map_a: *const TensorMap,
                map_b: *const TensorMap,
                c: *mut f32,
                m: u32,
                n: u32,
                k: u32,
                offsets: *const u32,
                count: u32,
                a_batched: u32,
                b_batched: u32,
                c_stride: usize,
                alpha: f32,
                out: u32,
                bias: *const f32,
                epilogue: u32,
            ) {
                let args = TmaArgs { map_a, map_b, map_c: core::ptr::null(), c, flags: core::ptr::null_mut(), m, n, k };
                let groups = Groups { offsets, count, a_batched, b_batched, c_stride };
                // SAFETY: forwarded contract.
                unsafe { grouped_finished_gemm::<super::k14_wgmma::$tile, $s, $c>(args, groups, (alpha, out), bias, epilogue) }
            }
        }
    };
}

grouped_entry!(matmul_grouped_bf16_128x128 / matmul_grouped_bf16_128x128_finished, GROUPED_BF16_128X128, Bf16N128, stages 6, consumers 2,
    "Kernel 26 on BF16 inputs, `f32` output (sm_90a): a batch or groups of products in one launch, \
     kernel 16's 128×128×64 tiles, 6 stages.");
grouped_entry!(matmul_grouped_f16_128x128 / matmul_grouped_f16_128x128_finished, GROUPED_F16_128X128, F16N128, stages 6, consumers 2,
    "Kernel 26 on FP16 inputs: as [`matmul_grouped_bf16_128x128`].");
grouped_entry!(matmul_grouped_bf16_128x256 / matmul_grouped_bf16_128x256_finished, GROUPED_BF16_128X256, Bf16N256, stages 4, consumers 2,
    "Kernel 26 on BF16 inputs, `f32` output (sm_90a): kernel 16's 128×256×64 tiles, 4 stages, for \
     products of many large tiles.");
grouped_entry!(matmul_grouped_f16_128x256 / matmul_grouped_f16_128x256_finished, GROUPED_F16_128X256, F16N256, stages 4, consumers 2,
    "Kernel 26 on FP16 inputs: as [`matmul_grouped_bf16_128x256`].");
grouped_entry!(matmul_grouped_bf16_64x128 / matmul_grouped_bf16_64x128_finished, GROUPED_BF16_64X128, Bf16N128, stages 9, consumers 1,
    "Kernel 26 on BF16 inputs, `f32` output (sm_90a): 64-row tiles (one consumer warpgroup), 9 stages, \
     for products of few rows (small groups, small matrices of a batch).");
grouped_entry!(matmul_grouped_f16_64x128 / matmul_grouped_f16_64x128_finished, GROUPED_F16_64X128, F16N128, stages 9, consumers 1,
    "Kernel 26 on FP16 inputs: as [`matmul_grouped_bf16_64x128`].");

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unit of a walk with `blocks` blocks, as (block, group, row0, col0, layer), for the
    /// host-side checks below (the walk reads only the grid from the thread context).
    fn units(groups: Groups, m: u32, n: u32, bm: u32, bn: u32, blocks: u32) -> std::vec::Vec<(u32, u32, u32, Layer)> {
        let mut out = std::vec::Vec::new();
        for b in 0..blocks {
            let mut w = GroupUnits::at(groups, m.div_ceil(bm), n.div_ceil(bn), bm, bn, 1, b, blocks);
            while let Some(p) = w.next() {
                out.push((w.g, p.row0, p.col0, p.depth));
            }
        }
        out
    }

    #[test]
    fn groups_cover_their_rows_once_and_store_none_of_their_neighbours() {
        // Groups of 0, 1, 128, 129, 0, 300 rows (the last two zero-row groups at the end).
        let offsets = [0u32, 0, 1, 129, 258, 258, 558, 558];
        let (n, bm, bn) = (300, 128, 128);
        let groups = Groups { offsets: offsets.as_ptr(), count: 7, a_batched: 0, b_batched: 1, c_stride: 0 };
        for blocks in [1, 3, 132] {
            let mut covered = std::vec![0u32; 558 * n as usize];
            for (g, row0, col0, layer) in units(groups, 558, n, bm, bn, blocks) {
                assert_eq!((layer.a, layer.b, layer.at), (0, g, 0));
                let (at, end) = layer.output(558);
                assert_eq!((at, end), (0, offsets[g as usize + 1]));
                assert!(row0 >= offsets[g as usize] && row0 < end, "group {g}: tile at row {row0}");
                for r in row0..(row0 + bm).min(end) {
                    for c in col0..(col0 + bn).min(n) {
                        covered[(r * n + c) as usize] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&x| x == 1), "{blocks} blocks: an element stored {:?} times", covered.iter().max());
        }
    }

    #[test]
    fn a_batch_walks_each_matrix_at_its_own_layers_and_output() {
        let (m, n, bm, bn, count) = (200, 130, 128, 128, 5);
        let groups = Groups { offsets: core::ptr::null(), count, a_batched: 0, b_batched: 1, c_stride: 30_000 };
        let all = units(groups, m, n, bm, bn, 4);
        assert_eq!(all.len() as u32, count * 2 * 2);
        for (g, row0, _, layer) in all {
            assert_eq!((layer.a, layer.b, layer.output(m)), (0, g, (g as usize * 30_000, m)));
            assert!(row0 < m);
        }
        assert!(units(Groups { count: 0, ..groups }, m, n, bm, bn, 4).is_empty());
    }

    /// A batch's walk jumps to the product of each unit: every tile of every product exactly once,
    /// whether a block's stride is shorter than a product's units or spans many products.
    #[test]
    fn a_batch_takes_every_tile_once_for_any_grid() {
        for (m, n, count) in [(64u32, 64u32, 512u32), (200, 330, 7), (128, 128, 1)] {
            let (bm, bn) = (128, 128);
            let groups = Groups { offsets: core::ptr::null(), count, a_batched: 1, b_batched: 1, c_stride: (m * n) as usize };
            let per = m.div_ceil(bm) * n.div_ceil(bn);
            for blocks in [1, 2, 3, 132, 1000] {
                let mut seen = std::vec![0u32; (count * per) as usize];
                for (g, row0, col0, layer) in units(groups, m, n, bm, bn, blocks) {
                    assert_eq!((layer.a, layer.b, layer.at), (g, g, g as usize * (m * n) as usize));
                    seen[(g * per + (row0 / bm) * n.div_ceil(bn) + col0 / bn) as usize] += 1;
                }
                assert!(seen.iter().all(|&x| x == 1), "{count} × {m}×{n}, {blocks} blocks: {:?}", seen.iter().max());
            }
        }
    }
}
