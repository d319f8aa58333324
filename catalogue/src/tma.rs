//! The TMA tensor maps a kernel-15 launch needs: one per operand, described from the shape and the
//! kernel's own boxes (`k15_tma::a_box` / `b_box`), checked before anything is encoded or launched.
//! The host crate encodes them with the driver (`cuTensorMapEncodeTiled`), the emulator with
//! [`TensorMap::host_model`](tessera_kernels::device::tma::TensorMap::host_model) — both from this.
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::k15_tma;

use crate::error::ShapeError;
use crate::shape::MatmulShape;

/// Alignment the TMA engine needs of a tensor's base address and of its row stride, in bytes.
pub const ALIGN: u64 = 16;

/// One operand's 2-D tensor map: a row-major matrix of `dims[1]` rows of `dims[0]` elements of
/// `elem_bytes`, rows `row_stride` bytes apart, copied in boxes of `boxdim` (inner, outer) with the
/// 128-byte swizzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TmaOperand {
    /// `"A"` or `"B"` (`"Bᵀ"` for the prepared TF32 operand), for messages.
    pub name: &'static str,
    pub elem_bytes: u32,
    pub dims: [u64; 2],
    pub row_stride: u64,
    pub boxdim: [u32; 2],
}

/// The two tensor maps of a TMA kernel (`config.tma`) with `elem_bytes`-byte inputs on `shape`: A
/// (`m × k`), and B (`k × n`, N-major) or, for prepared TF32 operands, `Bᵀ` (`n × k`). Refused with
/// [`ShapeError::Unaligned`] when a row is not a multiple of 16 bytes (the TMA's stride rule: K a
/// multiple of 8 for 2-byte types, of 4 for `f32`; N likewise for N-major B).
pub fn operands(config: TileConfig, shape: MatmulShape, elem_bytes: u32) -> Result<[TmaOperand; 2], ShapeError> {
    let (m, n, k, e) = (shape.m as u64, shape.n as u64, shape.k as u64, elem_bytes as u64);
    let a = TmaOperand { name: "A", elem_bytes, dims: [k, m], row_stride: k * e, boxdim: k15_tma::a_box(config) };
    let b = if config.tf32_operands {
        TmaOperand { name: "Bᵀ", elem_bytes, dims: [k, n], row_stride: k * e, boxdim: k15_tma::b_box(config) }
    } else {
        TmaOperand { name: "B", elem_bytes, dims: [n, k], row_stride: n * e, boxdim: k15_tma::b_box(config) }
    };
    for op in [a, b] {
        if !op.row_stride.is_multiple_of(ALIGN) {
            return Err(ShapeError::Unaligned {
                op: "matmul (TMA kernel)",
                detail: format!(
                    "rows of {} are {} bytes, the TMA needs a multiple of {ALIGN} ({} must be a multiple of {})",
                    op.name,
                    op.row_stride,
                    if op.name == "B" { "N" } else { "K" },
                    ALIGN / e
                ),
            });
        }
    }
    Ok([a, b])
}

/// Whether a TMA kernel with `elem_bytes`-byte inputs can run `shape` ([`operands`] accepts it).
pub fn fits(config: TileConfig, shape: MatmulShape, elem_bytes: u32) -> bool {
    operands(config, shape, elem_bytes).is_ok()
}

/// The smallest shape at least `shape` in every dimension that a kernel with `config` takes on
/// `elem_bytes`-byte inputs: `shape` itself for non-TMA kernels; N and K rounded up to whole 16-byte
/// rows for TMA ones (M too, so the transposed product a column-major GEMM runs fits as well).
pub fn runnable_shape(config: TileConfig, shape: MatmulShape, elem_bytes: u32) -> MatmulShape {
    if !config.tma {
        return shape;
    }
    let per_row = (ALIGN as u32) / elem_bytes;
    MatmulShape { m: shape.m.next_multiple_of(per_row), n: shape.n.next_multiple_of(per_row), k: shape.k.next_multiple_of(per_row) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{Algo, MATMUL_KERNELS};

    #[test]
    fn boxes_are_within_the_tma_limits_and_fill_128_byte_swizzle_rows() {
        for k in MATMUL_KERNELS.iter().filter(|k| k.config.tma) {
            let elem = if k.config.tf32_operands { 4 } else { 2 };
            let [a, b] = operands(k.config, MatmulShape { m: 256, n: 512, k: 128 }, elem).unwrap();
            for op in [a, b] {
                assert!(op.boxdim.iter().all(|&d| (1..=256).contains(&d)), "{}: box {:?}", k.label, op.boxdim);
                assert_eq!(op.boxdim[0] * elem, 128, "{}: {} box rows must be one 128-byte swizzle row", k.label, op.name);
            }
        }
    }

    #[test]
    fn unaligned_rows_are_refused_with_the_dimension_to_fix() {
        let cfg = Algo::TmaBf16.config().unwrap();
        let s = |m, n, k| MatmulShape { m, n, k };
        assert!(fits(cfg, s(1, 8, 8), 2));
        assert!(fits(cfg, s(1000, 1032, 520), 2));
        let err = operands(cfg, s(64, 64, 100), 2).unwrap_err().to_string();
        assert!(err.contains("K must be a multiple of 8"), "{err}");
        let err = operands(cfg, s(64, 100, 64), 2).unwrap_err().to_string();
        assert!(err.contains("N must be a multiple of 8"), "{err}");
        let tf32 = Algo::TmaTf32.config().unwrap();
        assert!(fits(tf32, s(64, 101, 64), 4), "Bᵀ's rows are K long: N is free");
        assert!(!fits(tf32, s(64, 64, 102), 4));
        assert_eq!(runnable_shape(cfg, s(130, 132, 36), 2), s(136, 136, 40));
        assert!(fits(cfg, runnable_shape(cfg, s(1, 1, 1), 2), 2));
        let fp32 = Algo::Dbuf128x256x16.config().unwrap();
        assert_eq!(runnable_shape(fp32, s(130, 132, 36), 4), s(130, 132, 36));
    }
}
