//! Launch dimensions: the grid rule of every kernel, from its catalogue geometry and the shape.
use tessera_kernels::{pack, tf32_operands, vec_add_vec4};

use crate::algo::MatmulKernel;
use crate::shape::{MatmulShape, ShapeError};
use crate::target::Target;
use crate::tuning;

/// Grid, block and dynamic shared memory of one launch (the fields of `cuLaunchKernel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaunchDims {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    pub shared_bytes: u32,
}

impl MatmulKernel {
    /// The launch of this kernel for `shape` on `target`: `⌈N/bn⌉ × ⌈M/bm⌉` blocks of the kernel's
    /// tile, times [`MatmulKernel::splits`] along z (persistent kernels: one block per SM at most;
    /// stream-K: [`tuning::stream_k_blocks`]), with the kernel's threads and shared memory.
    pub fn launch(&self, shape: MatmulShape, target: Target) -> LaunchDims {
        let (algo, cfg, sms) = (self.algo, self.config, target.sms);
        if cfg.persistent {
            // One block per SM, at most one per work unit (a tile, or a K slice of one): each block
            // walks units; gridDim.y carries the number of slices per tile.
            let splits = tuning::splits_on(algo, shape, sms);
            let units = shape.n.div_ceil(cfg.bn) * shape.m.div_ceil(cfg.bm) * splits;
            let grid = (units.clamp(1, sms.max(1)).div_ceil(splits), splits, 1);
            return LaunchDims { grid, block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
        }
        if cfg.stream_k {
            let grid = (tuning::stream_k_blocks(algo, shape, sms), 1, 1);
            return LaunchDims { grid, block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
        }
        LaunchDims {
            grid: (shape.n.div_ceil(cfg.bn), shape.m.div_ceil(cfg.bm), tuning::splits_on(algo, shape, sms)),
            block: (cfg.block.0, cfg.block.1, 1),
            shared_bytes: cfg.shared_bytes,
        }
    }

    /// Blocks that share one output tile along K on `target`: the model's slice count for split-K
    /// kernels (`gridDim.z`), [`crate::tc_model::best_splits`] for the persistent kernel (`gridDim.y`),
    /// 1 for every other kernel.
    pub fn splits(&self, shape: MatmulShape, target: Target) -> u32 {
        tuning::splits_on(self.algo, shape, target.sms)
    }

    /// Whether the launch [`MatmulKernel::launch`] plans adds into `C` (split-K's and stream-K's
    /// atomic partial sums), so `C` must be zeroed first: every split-K and stream-K kernel, except
    /// kernel 18 (`stores_unsplit`) launched with one slice, and the persistent kernel when it splits K.
    pub fn accumulates_into_c(&self, shape: MatmulShape, target: Target) -> bool {
        let t = self.config;
        let sliced = || self.splits(shape, target) > 1;
        (t.split_k && (!t.stores_unsplit || sliced())) || t.stream_k || (t.persistent && sliced())
    }
}

/// The launch of the one-element-per-thread kernels (`vec_add`, `iterated_fma`) for `n` elements:
/// `block` threads per block, `⌈n / block⌉` blocks. [`ShapeError::TooLarge`] (naming `op`) past the
/// grid limit.
pub fn elementwise(op: &'static str, n: usize, block: u32) -> Result<LaunchDims, ShapeError> {
    let blocks = u32::try_from(n.div_ceil(block.max(1) as usize))
        .ok()
        .filter(|&b| b <= i32::MAX as u32)
        .ok_or_else(|| ShapeError::TooLarge { op, detail: format!("{n} elements exceed the grid limit") })?;
    Ok(LaunchDims { grid: (blocks, 1, 1), block: (block, 1, 1), shared_bytes: 0 })
}

/// The launch of `tf32_round` over a `rows × cols` matrix: the pack walk's ([`tiles`]).
pub fn tf32_round(rows: u32, cols: u32) -> LaunchDims {
    tiles(rows as usize, cols as usize, tf32_operands::shared_bytes())
}

/// The launch of `tf32_transpose_round` of a `rows × cols` matrix: the pack walk's over its
/// `cols × rows` result ([`tiles`]), with the shared tile of the transposition.
pub fn tf32_transpose(rows: u32, cols: u32) -> LaunchDims {
    tiles(cols as usize, rows as usize, tf32_operands::shared_bytes())
}

/// The launch of `pad_b16` over a `rows × cols` matrix: the pack walk's ([`tiles`]).
pub fn pad_b16(rows: u32, cols: u32) -> LaunchDims {
    tiles(rows as usize, cols as usize, pack::shared_bytes(2))
}

/// The launch of `copy_padded_f32` over an `out_rows × out_cols` result: the pack walk's tiles
/// ([`tiles`]), without shared memory.
pub fn copy_padded_f32(out_rows: u32, out_cols: u32) -> LaunchDims {
    tiles(out_rows as usize, out_cols as usize, 0)
}

/// The launch of the grid-stride `vec_add_vec4` for `n` floats on a GPU with `sms` SMs: enough
/// blocks for one float4 per thread, but at most `BLOCKS_PER_SM` per SM, so the threads loop over
/// the rest. Always at least one block.
pub fn grid_stride(n: usize, sms: u32) -> LaunchDims {
    let block = vec_add_vec4::BLOCK;
    let wanted = n.div_ceil(4).div_ceil(block as usize).max(1);
    let blocks = wanted.min(sms.max(1) as usize * vec_add_vec4::BLOCKS_PER_SM as usize) as u32;
    LaunchDims { grid: (blocks, 1, 1), block: (block, 1, 1), shared_bytes: 0 }
}

/// The launch of the tile-walking kernels (`pack_b32`, `pack_b16`, `pad_b16`, `copy_padded_f32`, `gemm_epilogue`,
/// `gemm_scale`, the TF32 preparation) over a `rows × cols` result: one block per `TILE × TILE` tile, capped at the grid
/// limits (the kernels loop over the tiles past them), with `shared_bytes` of dynamic shared memory.
pub fn tiles(rows: usize, cols: usize, shared_bytes: u32) -> LaunchDims {
    let tile = pack::TILE as usize;
    let x = cols.div_ceil(tile).clamp(1, i32::MAX as usize) as u32;
    let y = rows.div_ceil(tile).clamp(1, 65_535) as u32;
    LaunchDims { grid: (x, y, 1), block: (pack::BLOCK.0, pack::BLOCK.1, 1), shared_bytes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Algo;

    const H: Target = Target::H200;

    fn k(algo: Algo) -> &'static MatmulKernel {
        algo.kernel().expect("a concrete kernel")
    }

    #[test]
    fn matmul_launch_covers_odd_shapes() {
        let s = MatmulShape { m: 17, n: 33, k: 9 };
        let tiled = k(Algo::Tiled).launch(s, H);
        assert_eq!(tiled.grid, (3, 2, 1));
        assert_eq!(tiled.block, (16, 16, 1));
        assert_eq!(tiled.shared_bytes, 2048);
        assert_eq!(k(Algo::Naive).launch(s, H).shared_bytes, 0);
        // k07's hard-won figure, now derived: (8·132 + 8·128)·4.
        assert_eq!(k(Algo::Warptile).launch(s, H).shared_bytes, 8_320);
    }

    #[test]
    fn split_k_launches_slices_along_z() {
        let s = MatmulShape { m: 256, n: 4096, k: 4096 };
        let z = k(Algo::SplitK128x128x16).splits(s, H);
        assert!(z > 1);
        assert_eq!(k(Algo::SplitK128x128x16).launch(s, H).grid, (32, 2, z));
        assert!(k(Algo::SplitK128x128x16).accumulates_into_c(s, H));
        assert!(!k(Algo::Dbuf128x128x16).accumulates_into_c(s, H));
        assert_eq!(k(Algo::Dbuf128x128x16).splits(s, H), 1);
    }

    #[test]
    fn stream_k_launches_the_blocks_that_fit_at_once() {
        let s = |m, n, k| MatmulShape { m, n, k };
        // 64×64 tiles, four blocks per SM (the launch bound): 528 blocks for 64 tiles × 32 steps.
        let small = k(Algo::StreamK64x64x16).launch(s(512, 512, 512), H);
        assert_eq!((small.grid, small.block), ((132 * 4, 1, 1), (128, 1, 1)));
        // One block per SM for the 128×256 tile; never more blocks than K-steps.
        assert_eq!(k(Algo::StreamK128x256x16).launch(s(4096, 4096, 4096), H).grid, (132, 1, 1));
        assert_eq!(k(Algo::StreamK128x256x16).launch(s(4096, 4096, 4096), Target::new(114, true)).grid, (114, 1, 1));
        assert_eq!(k(Algo::StreamK128x128x16).launch(s(100, 100, 40), H).grid, (3, 1, 1));
        assert_eq!(k(Algo::StreamK128x128x16).launch(s(1, 1, 0), H).grid, (1, 1, 1));
        assert!(k(Algo::StreamK128x128x16).accumulates_into_c(s(4096, 4096, 4096), H));
        assert_eq!(k(Algo::StreamK128x128x16).splits(s(4096, 4096, 4096), H), 1);
    }

    #[test]
    fn grid_stride_caps_at_eight_blocks_per_sm() {
        assert_eq!(grid_stride(1, 132).grid, (1, 1, 1));
        assert_eq!(grid_stride(1024, 132).grid, (1, 1, 1));
        assert_eq!(grid_stride(1025, 132).grid, (2, 1, 1));
        assert_eq!(grid_stride(1 << 26, 132).grid, (132 * 8, 1, 1));
        assert_eq!(grid_stride(1 << 26, 0).grid, (8, 1, 1));
    }

    #[test]
    fn tiles_cover_the_result_and_cap_the_grid() {
        assert_eq!(tiles(1, 1, 0).grid, (1, 1, 1));
        assert_eq!(tiles(33, 65, 4224).grid, (3, 2, 1));
        assert_eq!(tiles(33, 65, 4224).block, (32, 8, 1));
        assert_eq!(tiles(1 << 24, 1, 0).grid, (1, 65_535, 1));
    }

    #[test]
    fn elementwise_rounds_up() {
        assert_eq!(elementwise("t", 1, 256).unwrap().grid, (1, 1, 1));
        assert_eq!(elementwise("t", 257, 256).unwrap().grid, (2, 1, 1));
        assert!(elementwise("t", usize::MAX, 256).is_err());
    }
}
