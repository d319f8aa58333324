//! Launch dimensions: the grid rule of every kernel, from its catalogue geometry and the shape (a
//! matmul kernel's launch, which takes the model's K slices, is planned in [`crate::plan::kernel_launch`]).
use tessera_kernels::{pack, tf32_operands, vec_add_vec4, zero_fill};

use crate::shape::ShapeError;

/// Grid, block and dynamic shared memory of one launch: the device crate's type, which user kernel
/// crates export too.
pub use tessera_kernels::device::launch::LaunchDims;

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

/// The launch of an FP8 conversion (`tessera_kernels::fp8`) of `n` elements: one thread per pair.
/// [`ShapeError::TooLarge`] past the grid limit.
pub fn fp8_convert(n: usize) -> Result<LaunchDims, ShapeError> {
    elementwise("convert to FP8", n.div_ceil(tessera_kernels::fp8::PER_THREAD), tessera_kernels::fp8::BLOCK)
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

/// The launch of a transposing pack (`pack_b8`: an FP8 `B` into `Bᵀ`) of a `rows × cols` matrix of
/// `elem_bytes`-byte elements: the pack walk's over its `cols × rows` result ([`tiles`]), with the
/// shared tile of the transposition.
pub fn pack_transpose(rows: u32, cols: u32, elem_bytes: u32) -> LaunchDims {
    tiles(cols as usize, rows as usize, pack::shared_bytes(elem_bytes))
}

/// The launch of `pad_b16` of a `rows × cols` matrix into rows `ld` elements apart on a GPU of `sms`
/// SMs: for rows of whole vector units on both sides (`cols`, `ld` multiples of 8: 16-byte units;
/// of 4: 8-byte ones), or destination rows of whole 16-byte units (`ld` a multiple of 8: the
/// kernel's shifted path, `⌈cols / 8⌉` units a row), enough blocks for one unit per thread, at most
/// [`vec_add_vec4::BLOCKS_PER_SM`] per SM (the kernel's grid-stride loop takes the rest); otherwise
/// the pack walk's ([`tiles`]). The pack's block and shared memory either way.
pub fn pad_b16(rows: u32, cols: u32, ld: u32, sms: u32) -> LaunchDims {
    // Whole 16- or 8-byte units on both sides, or 16-byte destination units assembled from shifted
    // source words (`ld` a multiple of 8): one thread a unit. Otherwise the pack walk's tiles.
    let unit = [8, 4].into_iter().find(|&u| cols.is_multiple_of(u) && ld.is_multiple_of(u));
    let units_per_row = match unit {
        Some(u) => cols / u,
        None if ld.is_multiple_of(8) => cols.div_ceil(8),
        None => return tiles(rows as usize, cols as usize, pack::shared_bytes(2)),
    };
    let threads = (pack::BLOCK.0 * pack::BLOCK.1) as usize;
    let wanted = (rows as usize * units_per_row as usize).div_ceil(threads).max(1);
    let blocks = wanted.min(sms.max(1) as usize * vec_add_vec4::BLOCKS_PER_SM as usize) as u32;
    LaunchDims { grid: (blocks, 1, 1), block: (pack::BLOCK.0, pack::BLOCK.1, 1), shared_bytes: pack::shared_bytes(2) }
}

/// The launch of `zero_f32` over `n` floats on a GPU of `sms` SMs: one quad per thread, at most two
/// blocks per SM (the grid-stride loop takes the rest), so that every block is resident at once and
/// the split launch queued as its dependent starts as soon as they have all begun.
pub fn zero_f32(n: usize, sms: u32) -> LaunchDims {
    let block = zero_fill::BLOCK;
    let wanted = n.div_ceil(4).div_ceil(block as usize).max(1);
    let blocks = wanted.min(2 * sms.max(1) as usize) as u32;
    LaunchDims { grid: (blocks, 1, 1), block: (block, 1, 1), shared_bytes: 0 }
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

    #[test]
    fn zero_f32_keeps_its_grid_resident() {
        assert_eq!(zero_f32(1, 132).grid, (1, 1, 1));
        assert_eq!(zero_f32(1025, 132).grid, (2, 1, 1));
        assert_eq!(zero_f32(64 * 4096, 132).grid, (256, 1, 1));
        assert_eq!(zero_f32(1 << 26, 132).grid, (264, 1, 1));
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
