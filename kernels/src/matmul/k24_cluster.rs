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
//! **Everything else** is kernel 16's body (`k16_persistent::walk_gemm` with `P = 2`): the pipeline,
//! the consumers, the staged epilogue.
use super::k14_wgmma::WgmmaTile;
use super::k15_tma::{Flat, TmaArgs, WG_ROWS};
use super::k16_persistent::{self, tile_origin, Fix, Piece, Walk};
use super::k22_tma_stream_k::StreamK;
use crate::device::tma::TensorMap;
use crate::device::{cluster, thread};
use crate::launch::TileConfig;

/// Blocks per cluster: two tiles along M share one B tile.
pub const CLUSTER: u32 = 2;

/// The launch of a kernel-24 entry: kernel 16's, in clusters of [`CLUSTER`] blocks along `x` (the
/// grid is whole clusters, one block per SM).
pub const fn config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    k16_persistent::config(bm, bn, stages, elem).clustered(CLUSTER)
}

/// `C = A·B` as [`k16_persistent::persistent_gemm`], by clusters of two blocks sharing B's tiles.
///
/// # Safety
/// As [`k16_persistent::persistent_gemm`] with one K slice (`gridDim.y = 1`), launched in clusters of
/// [`CLUSTER`] blocks along `x` (the entry's `.reqnctapercluster`; `gridDim.x` a multiple of it).
#[inline(always)]
pub unsafe fn cluster_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_tma::<O, S, NC, CLUSTER, ClusterUnits<CLUSTER>>(args) }
}

/// The launch of a kernel-24 stream-K entry: the pairs' launch, walking [`StreamK`]`<2>` (whole
/// clusters, all resident at once, at most one per K-step of the product).
pub const fn stream_k_config(bm: u32, bn: u32, stages: u32, elem: u32) -> TileConfig {
    config(bm, bn, stages, elem).stream_k()
}

/// `C = A·B` as [`cluster_gemm`], the clusters walking the pairs of tiles stream-K ([`StreamK`]`<2>`:
/// whole pairs in rounds, then equal runs of the last pairs' K-steps, both blocks of a cluster on the
/// same steps so that B's multicast holds): the rounds of pairs that fill the GPU badly are evened
/// out (2200³: 108 pairs of 128×192 tiles on 66 clusters), the shared tiles fixed up through the
/// counters in `flags` as in kernel 22.
///
/// # Safety
/// As [`cluster_gemm`], with the grid resident at once and `flags` holding
/// [`super::k22_tma_stream_k::flag_words`]`(gridDim.x)` zeroed `u32` (the launch leaves them zero).
#[inline(always)]
pub unsafe fn cluster_stream_k_gemm<O: WgmmaTile, const S: u32, const NC: u32>(args: TmaArgs) {
    // SAFETY: forwarded contract.
    unsafe { k16_persistent::walk_tma::<O, S, NC, CLUSTER, StreamK<CLUSTER>>(args) }
}

/// The walk of a block of a `P`-block cluster: the clusters take groups of `P` vertically adjacent
/// tiles (`⌈tiles_m / P⌉ × tiles_n` of them, kernel 16's grouped order over `P·bm`-row tiles) in turn,
/// cluster `blockIdx.x / P` the groups `c, c + gridDim.x / P, …`; the block of rank `r` computes the
/// group's tile `r` (rows `row0 + r·bm`, possibly below the matrix).
#[derive(Clone, Copy)]
pub struct ClusterUnits<const P: u32> {
    tiles_m: u32,
    tiles_n: u32,
    bm: u32,
    bn: u32,
    steps: u32,
    rank: u32,
    /// The next group of this cluster, and the distance to the one after.
    u: u32,
    stride: u32,
}

impl<const P: u32> Walk for ClusterUnits<P> {
    type Args = ();
    type Depth = Flat;

    #[inline(always)]
    fn start(_: (), tiles_m: u32, tiles_n: u32, bm: u32, bn: u32, steps: u32) -> Self {
        let (u, stride) = (thread::block_idx_x() / P, (thread::grid_dim_x() / P).max(1));
        ClusterUnits { tiles_m: tiles_m.div_ceil(P), tiles_n, bm, bn, steps, rank: cluster::rank(), u, stride }
    }

    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        if self.u >= self.tiles_m * self.tiles_n {
            return None;
        }
        let (row0, col0) = tile_origin(self.u, self.tiles_m, self.tiles_n, P * self.bm, self.bn);
        self.u += self.stride;
        Some(Piece { row0: row0 + self.rank * self.bm, col0, kb: 0, ke: self.steps, adds: false, fix: Fix::Alone, depth: Flat })
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
tma_entry!(cluster_gemm, matmul_cluster_bf16_192x192, CLUSTER_BF16_192X192, Bf16N192, u16, stages 4, consumers 3,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 192×192×64 tiles (three consumer warpgroups), 4 stages: \
     per block 192 rows of A and 96 of B a step for 192·192 outputs.");
tma_entry!(cluster_gemm, matmul_cluster_f16_192x192, CLUSTER_F16_192X192, F16N192, u16, stages 4, consumers 3,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 192×192 tiles: as [`matmul_cluster_bf16_192x192`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_64x128, CLUSTER_BF16_64X128, Bf16N128, u16, stages 9, consumers 1,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 64×128×64 tiles (one consumer warpgroup), 9 stages: \
     per block 64 rows of A and 64 of B a step, for products of few 128-row tiles.");
tma_entry!(cluster_gemm, matmul_cluster_f16_64x128, CLUSTER_F16_64X128, F16N128, u16, stages 9, consumers 1,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 64×128 tiles: as [`matmul_cluster_bf16_64x128`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_64x256, CLUSTER_BF16_64X256, Bf16N256, u16, stages 5, consumers 1,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 64×256×64 tiles (one consumer warpgroup), 5 stages.");
tma_entry!(cluster_gemm, matmul_cluster_f16_64x256, CLUSTER_F16_64X256, F16N256, u16, stages 5, consumers 1,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 64×256 tiles: as [`matmul_cluster_bf16_64x256`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_128x128, CLUSTER_BF16_128X128, Bf16N128, u16, stages 6,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 128×128×64 tiles, 6 stages.");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x128, CLUSTER_F16_128X128, F16N128, u16, stages 6,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 128×128 tiles: as [`matmul_cluster_bf16_128x128`].");

tma_entry!(cluster_gemm, matmul_cluster_bf16_128x160, CLUSTER_BF16_128X160, Bf16N160, u16, stages 5,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 128×160×64 tiles, 5 stages: the width between 128 and 192 \
     that fills the SMs' rounds where neither does (B's third 64-column box loaded whole, half of it used).");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x160, CLUSTER_F16_128X160, F16N160, u16, stages 5,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 128×160 tiles: as [`matmul_cluster_bf16_128x160`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_128x224, CLUSTER_BF16_128X224, Bf16N224, u16, stages 4,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 128×224×64 tiles, 4 stages: between 192 and 256 (B's \
     fourth 64-column box loaded whole, half of it used).");
tma_entry!(cluster_gemm, matmul_cluster_f16_128x224, CLUSTER_F16_128X224, F16N224, u16, stages 4,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 128×224 tiles: as [`matmul_cluster_bf16_128x224`].");
tma_entry!(cluster_gemm, matmul_cluster_bf16_192x160, CLUSTER_BF16_192X160, Bf16N160, u16, stages 4, consumers 3,
    "Kernel 24 on BF16 inputs, `f32` output (sm_90a), 192×160×64 tiles (three consumer warpgroups), 4 stages.");
tma_entry!(cluster_gemm, matmul_cluster_f16_192x160, CLUSTER_F16_192X160, F16N160, u16, stages 4, consumers 3,
    "Kernel 24 on FP16 inputs, `f32` output (sm_90a), 192×160 tiles: as [`matmul_cluster_bf16_192x160`].");
tma_entry!(cluster_stream_k_gemm, matmul_cluster_sk_bf16_128x256, CLUSTER_SK_BF16_128X256, Bf16N256, u16, stages 4,
    launch stream_k_config,
    "Kernel 24 walked stream-K on BF16 inputs, `f32` output (sm_90a): the 128×256 pairs' K-steps dealt out \
     evenly to the clusters, the shared tiles fixed up through the counters in `flags`.");
tma_entry!(cluster_stream_k_gemm, matmul_cluster_sk_f16_128x256, CLUSTER_SK_F16_128X256, F16N256, u16, stages 4,
    launch stream_k_config,
    "Kernel 24 walked stream-K on FP16 inputs, `f32` output (sm_90a): as [`matmul_cluster_sk_bf16_128x256`].");
tma_entry!(cluster_stream_k_gemm, matmul_cluster_sk_bf16_128x192, CLUSTER_SK_BF16_128X192, Bf16N192, u16, stages 5,
    launch stream_k_config,
    "Kernel 24 walked stream-K on BF16 inputs, `f32` output (sm_90a), 128×192 pairs, 5 stages.");
tma_entry!(cluster_stream_k_gemm, matmul_cluster_sk_f16_128x192, CLUSTER_SK_F16_128X192, F16N192, u16, stages 5,
    launch stream_k_config,
    "Kernel 24 walked stream-K on FP16 inputs, `f32` output (sm_90a), 128×192 pairs: as [`matmul_cluster_sk_bf16_128x192`].");

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
            CLUSTER_BF16_192X192,
            CLUSTER_F16_192X192,
            CLUSTER_BF16_64X128,
            CLUSTER_F16_64X128,
            CLUSTER_BF16_64X256,
            CLUSTER_F16_64X256,
            CLUSTER_BF16_128X160,
            CLUSTER_F16_128X160,
            CLUSTER_BF16_128X224,
            CLUSTER_F16_128X224,
            CLUSTER_BF16_192X160,
            CLUSTER_F16_192X160,
        ] {
            assert!(cfg.persistent && cfg.tma && !cfg.stream_k && !cfg.tf32_operands, "{cfg:?}");
            assert_eq!(cfg.cluster, 2, "{cfg:?}");
            assert_eq!(cfg.block.0, 128 * (1 + cfg.bm / 64), "{cfg:?}");
            assert!(cfg.bm == 128 || cfg.bm == 64 || (cfg.bm == 192 && (cfg.bn == 160 || cfg.bn == 192)), "{cfg:?}");
            assert!(cfg.shared_bytes <= 227 * 1024, "{cfg:?}");
        }
    }

    #[test]
    fn the_stream_k_entries_are_the_pairs_walked_stream_k() {
        for (sk, pairs) in [
            (CLUSTER_SK_BF16_128X256, CLUSTER_BF16_128X256),
            (CLUSTER_SK_F16_128X256, CLUSTER_F16_128X256),
            (CLUSTER_SK_BF16_128X192, CLUSTER_BF16_128X192),
            (CLUSTER_SK_F16_128X192, CLUSTER_F16_128X192),
        ] {
            assert_eq!(sk, pairs.stream_k(), "{sk:?}");
        }
    }
}
