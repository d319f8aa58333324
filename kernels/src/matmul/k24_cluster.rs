//! Kernel 24: kernel 16 in clusters of two blocks that share B's tile — each block loads half of it
//! and the TMA multicasts every half into both (sm_90a).
//!
//! **What it fixes in kernel 16**: there every block reads its own A rows and B columns from L2 each
//! K-step — a 128×256 tile reads 384 rows of 128 bytes for 128·256 outputs, and at 700 TFLOP/s the
//! 132 SMs together pull about 8 TB/s out of L2. Where the rows start off a 32-byte sector (a row
//! pitch of 16 mod 32 bytes: every K of 8 mod 16 in 16-bit types, 3000³, 5000³) each row costs L2
//! another sector and another line, and the tensor cores fall to 0.6–0.7 of their rate; packing
//! aligned copies first costs a pass over both operands. Here two blocks of a cluster compute
//! vertically adjacent tiles (rows `row0` and `row0 + bm`, the same columns), whose B tiles are
//! the same: each block's producer loads its A and every other 64-column box of B with
//! `.multicast::cluster`, which lands in the same stage of both blocks and completes the bytes on
//! both blocks' "full" barriers. Per block that is 128 + 128 rows a step instead of 128 + 256: two
//! thirds of the L2 traffic.
//!
//! **What it costs**: a stage is free for the next round only when the consumers of *both* blocks
//! have released it (each consumer warp arrives on the "empty" barrier of both), so the two blocks
//! run in lockstep, a stage apart at most; the barriers are published to the peer by a cluster
//! barrier before the first copy, and a block's producer waits, before it exits, until every release
//! its peer owes it has arrived. The cluster is the kernel's own (`.reqnctapercluster 2`, from
//! [`TileConfig::cluster`]); the grid is pairs of blocks, one per SM, walking tile pairs in kernel
//! 16's grouped order ([`ClusterUnits`]). Where M has an odd number of tiles the last pair's second
//! tile lies below the matrix: its block loads zeros for A (the TMA fills what lies outside), its half
//! of B for its peer, and stores nothing.
//!
//! **Quads** (`cluster4-*` entries): clusters of 2×2 blocks, two tiles along M by two along N. The
//! blocks of a column share B as the pairs do; the blocks of a row share A, each loading 64 of the
//! tile's 128 rows, multicast into both. Per block that is 64 + 128 rows a step for a 128×256 tile: half
//! of kernel 16's, and the A rows off a sector that still cost the pairs (`tc_model`'s
//! `CLUSTER_WIDE_A_PITCH_SHARE`) are halved too. The lockstep now spans four blocks, and the
//! GPU keeps fewer of them resident (whole quads per GPC).
//!
//! **Everything else** is kernel 16's body (`k16_persistent::walk_gemm` with `P` = 2 or 4): the
//! pipeline, the consumers, the staged epilogue.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::WG_ROWS;
use super::k16_persistent::{self, tile_origin, Piece, TmaFeed, Walk};
use crate::device::tma::TensorMap;
use crate::device::{cluster, thread};
use crate::launch::TileConfig;

/// Blocks per cluster: two tiles along M share one B tile.
pub const CLUSTER: u32 = 2;
/// Blocks per quad: 2 × 2 tiles, each pair along M sharing B and each pair along N sharing A.
pub const QUAD: u32 = 4;

/// The launch of a kernel-24 entry: kernel 16's, in clusters of [`CLUSTER`] blocks along `x` (the
/// grid is whole clusters, one block per SM).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k16_persistent::config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// The launch of a quad entry: kernel 16's, in clusters of 2 × 2 blocks ([`QUAD`] along `x`).
pub const fn quad_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k16_persistent::config(bm, bn, stages, elem).clustered_2d(2, 2)
}

/// `C = A·B` as [`k16_persistent::persistent_gemm`], by clusters of two blocks sharing B's tiles.
///
/// # Safety
/// As [`k16_persistent::persistent_gemm`] with one K slice (`gridDim.y = 1`), launched in clusters of
/// [`CLUSTER`] blocks along `x` (the entry's `.reqnctapercluster`; `gridDim.x` a multiple of it).
#[inline(always)]
pub unsafe fn cluster_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    map_a: *const TensorMap,
    map_b: *const TensorMap,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_gemm::<O, S, NC, CLUSTER, 1, ClusterUnits<CLUSTER, 1>, TmaFeed>(TmaFeed { map_a, map_b }, c, m, n, k) }
}

/// `C = A·B` as [`cluster_gemm`], by quads: clusters of 2 × 2 blocks, the pairs along M sharing B's
/// tiles and the pairs along N sharing A's.
///
/// # Safety
/// As [`cluster_gemm`], launched in clusters of [`QUAD`] blocks along `x` (`gridDim.x` a multiple of
/// it), A's tensor map with boxes of half the tile's rows ([`super::k15_tma::a_box`]).
#[inline(always)]
pub unsafe fn quad_gemm<O: WgmmaTile, const S: u32, const NC: u32>(
    map_a: *const TensorMap,
    map_b: *const TensorMap,
    c: *mut f32,
    m: u32,
    n: u32,
    k: u32,
) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_gemm::<O, S, NC, QUAD, 2, ClusterUnits<QUAD, 2>, TmaFeed>(TmaFeed { map_a, map_b }, c, m, n, k) }
}

/// The walk of a block of a `P`-block cluster of `P / Q` tiles along M by `Q` along N: the clusters
/// take groups of tiles (`⌈tiles_m / (P/Q)⌉ × ⌈tiles_n / Q⌉` of them, kernel 16's grouped order over
/// `(P/Q)·bm × Q·bn` tiles) in turn, cluster `blockIdx.x / P` the groups `c, c + gridDim.x / P, …`;
/// the block of rank `r` computes the group's tile `r % (P/Q)` along M, `r / (P/Q)` along N (possibly
/// outside the matrix: it then loads zeros and its share of the operands for its peers, and stores
/// nothing).
#[derive(Clone, Copy)]
pub struct ClusterUnits<const P: u32, const Q: u32> {
    groups_m: u32,
    groups_n: u32,
    bm: u32,
    bn: u32,
    steps: u32,
    rank: u32,
    /// The next group of this cluster, and the distance to the one after.
    u: u32,
    stride: u32,
}

impl<const P: u32, const Q: u32> ClusterUnits<P, Q> {
    /// Tiles of a group along M.
    const ALONG_M: u32 = P / Q;
}

impl<const P: u32, const Q: u32> Walk for ClusterUnits<P, Q> {
    #[inline(always)]
    fn start(tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        let (u, stride) = (thread::block_idx_x() / P, (thread::grid_dim_x() / P).max(1));
        let (groups_m, groups_n) = (tiles_m.div_ceil(Self::ALONG_M), tiles_n.div_ceil(Q));
        ClusterUnits { groups_m, groups_n, bm, bn, steps, rank: cluster::rank(), u, stride }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        if self.u >= self.groups_m * self.groups_n {
            return None;
        }
        let (row0, col0) = tile_origin(self.u, self.groups_m, self.groups_n, Self::ALONG_M * self.bm, Q * self.bn);
        self.u += self.stride;
        // The rank is below P: with one block along N it is the block's place along M.
        let (rm, rn) = if Q == 1 { (self.rank, 0) } else { (self.rank % Self::ALONG_M, self.rank / Self::ALONG_M) };
        Some(Piece { row0: row0 + rm * self.bm, col0: col0 + rn * self.bn, kb: 0, ke: self.steps, adds: false })
    }
}

tma_entry!(cluster_gemm, matmul_cluster_bf16_128x256, CLUSTER_BF16_128X256, Bf16N256, u16, stages 4,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a): kernel 16's 128×256×64 tiles and 4 stages in clusters of \
     two blocks whose B tiles are shared (each loads half, multicast into both).");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x256, CLUSTER_F16_128X256, F16N256, u16, stages 4,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a): as [`matmul_cluster_bf16_128x256`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_128x192, CLUSTER_BF16_128X192, Bf16N192, u16, stages 5,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 128×192×64 tiles, 5 stages (B's three 64-column boxes: \
     two from the first block, one from the second).");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x192, CLUSTER_F16_128X192, F16N192, u16, stages 5,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 128×192 tiles: as [`matmul_cluster_bf16_128x192`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_128x128, CLUSTER_BF16_128X128, Bf16N128, u16, stages 6,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 128×128×64 tiles, 6 stages.");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x128, CLUSTER_F16_128X128, F16N128, u16, stages 6,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 128×128 tiles: as [`matmul_cluster_bf16_128x128`].");
tma_entry!(quad_gemm, matmul_cluster4_bf16_128x256, CLUSTER4_BF16_128X256, Bf16N256, u16, stages 4, launch quad_config,
    "Kernel 24's quads on BF16 inputs, `f32` output (sm_90a): 128×256×64 tiles, 4 stages, clusters of 2 × 2 \
     blocks sharing B's tiles along M and A's along N (each loads half of each, multicast).");
tma_entry!(quad_gemm, matmul_cluster4_f16_128x256, CLUSTER4_F16_128X256, F16N256, u16, stages 4, launch quad_config,
    "Kernel 24's quads on FP16 inputs, `f32` output (sm_90a): as [`matmul_cluster4_bf16_128x256`].");
tma_entry!(quad_gemm, matmul_cluster4_bf16_128x192, CLUSTER4_BF16_128X192, Bf16N192, u16, stages 5, launch quad_config,
    "Kernel 24's quads on BF16 inputs, `f32` output (sm_90a): 128×192×64 tiles, 5 stages.");
tma_entry!(quad_gemm, matmul_cluster4_f16_128x192, CLUSTER4_F16_128X192, F16N192, u16, stages 5, launch quad_config,
    "Kernel 24's quads on FP16 inputs, `f32` output (sm_90a): as [`matmul_cluster4_bf16_128x192`].");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entries_are_persistent_tma_kernels_in_pairs() {
        for cfg in [
            CLUSTER_BF16_128X256,
            CLUSTER_F16_128X256,
            CLUSTER_BF16_128X192,
            CLUSTER_F16_128X192,
            CLUSTER_BF16_128X128,
            CLUSTER_F16_128X128,
        ] {
            assert!(cfg.persistent && cfg.tma && !cfg.stream_k && !cfg.tf32_operands, "{cfg:?}");
            assert_eq!((cfg.cluster, cfg.cluster_n, cfg.bm), (2, 1, 128), "{cfg:?}");
            assert!(cfg.shared_bytes <= 227 * 1024, "{cfg:?}");
        }
    }

    #[test]
    fn the_quads_are_two_by_two_and_load_half_of_a() {
        for cfg in [CLUSTER4_BF16_128X256, CLUSTER4_F16_128X256, CLUSTER4_BF16_128X192, CLUSTER4_F16_128X192] {
            assert!(cfg.persistent && cfg.tma && !cfg.stream_k && !cfg.tf32_operands, "{cfg:?}");
            assert_eq!((cfg.cluster, cfg.cluster_n, cfg.bm), (QUAD, 2, 128), "{cfg:?}");
            assert_eq!(super::super::k15_tma::a_box(cfg), [cfg.bk, 64], "{cfg:?}");
        }
    }

    #[test]
    fn a_quads_walk_covers_every_tile_once() {
        // The walk's arithmetic on the host: groups of 2 × 2 tiles, ranks to tiles.
        for (tm, tn) in [(1u32, 1u32), (3, 5), (8, 2), (9, 7), (17, 1)] {
            let (gm, gn) = (tm.div_ceil(2), tn.div_ceil(2));
            let mut seen = std::vec![0u32; (tm * tn) as usize];
            for u in 0..gm * gn {
                let (r0, c0) = tile_origin(u, gm, gn, 2, 2);
                for rank in 0..QUAD {
                    let (r, c) = (r0 + rank % 2, c0 + rank / 2);
                    if r < tm && c < tn {
                        seen[(r * tn + c) as usize] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&v| v == 1), "{tm}×{tn}: {seen:?}");
        }
    }
}
