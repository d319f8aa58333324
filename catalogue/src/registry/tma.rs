//! The TMA tensor maps a kernel-15 launch needs: one per operand, described from the shape and the
//! kernel's own boxes (`k15_tma::a_box` / `b_box`), over operands whose rows are padded (to whole 128-byte lines)
//! where they are not already ([`plan`]), checked before anything is encoded or launched.
//! The host crate encodes them with the driver (`cuTensorMapEncodeTiled`), the emulator with
//! [`TensorMap::host_model`](tessera_kernels::device::tma::TensorMap::host_model) — both from this.
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::k15_tma;

use crate::error::ShapeError;
use crate::shape::MatmulShape;

/// Alignment the TMA engine needs of a tensor's base address and of its row stride, in bytes.
pub const ALIGN: u64 = 16;

/// Row stride of a padded copy, in bytes: a whole number of 128-byte lines. The TMA needs only
/// [`ALIGN`], but rows 16 bytes off a 32-byte sector ran the BF16 TMA kernels at 0.6–0.85 of their
/// rate on the H200 (`docs/results/2026-12-02-tc-shapes/call1-pitch`: 3000³ and 3016³ against 2992³,
/// 3008³ and 3040³), and a copy's leading dimension costs nothing but workspace.
pub const COPY_ROW_BYTES: u32 = 128;

/// Row strides the TMA reads at full rate (bytes): a multiple of one 32-byte sector. Operands read in
/// place whose rows are not are slower ([`crate::select::tc_model`] prices it).
pub const FAST_ROW_BYTES: u64 = 32;

/// One operand's 2-D tensor map: a row-major matrix of `dims[1]` rows of `dims[0]` elements of
/// `elem_bytes`, rows `row_stride` bytes apart, copied in boxes of `boxdim` (inner, outer) with the
/// 128-byte swizzle — or a 3-D map of a stack of such matrices ([`Layers`], kernel 26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TmaOperand {
    /// `"A"` or `"B"` (`"Bᵀ"` for the prepared TF32 operand), for messages.
    pub name: &'static str,
    pub elem_bytes: u32,
    pub dims: [u64; 2],
    pub row_stride: u64,
    pub boxdim: [u32; 2],
    /// `None` for a 2-D map; the stack of a 3-D one (boxes one matrix deep).
    pub layers: Option<Layers>,
}

/// The third dimension of a 3-D tensor map: `count` matrices, `stride` bytes apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layers {
    pub count: u64,
    pub stride: u64,
}

/// One operand as a TMA kernel reads it: `rows × cols` elements, row `r` starting `r·ld` elements in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub rows: u32,
    pub cols: u32,
    /// The leading dimension, in elements: `cols` for the matrix as the caller holds it.
    pub ld: u32,
}

impl Layout {
    /// Whether the rows are padded (`ld > cols`): the operand is read from a copy, not in place.
    pub fn padded(&self) -> bool {
        self.ld != self.cols
    }

    /// Elements the layout spans, padding included (`rows·ld`).
    pub fn elements(&self) -> u64 {
        self.rows as u64 * self.ld as u64
    }
}

/// How a TMA kernel reads its operands on one shape: A (`m × k`), and B (`k × n`, N-major) or, for
/// prepared TF32 operands, `Bᵀ` (`n × k`), each with rows a whole number of [`ALIGN`] bytes (the
/// TMA's stride rule). An operand whose rows already are is read where it lies; another is first
/// copied into a workspace with its leading dimension rounded up (the host's `pad_b16`, or the TF32
/// preparation, which writes `A'` and `Bᵀ'` that way anyway). The tensor maps keep the real
/// dimensions, so the TMA never reads the padding (it zero-fills box parts outside them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packing {
    pub a: Layout,
    pub b: Layout,
}

impl Packing {
    /// Whether both operands are read in place (no copy before the launch).
    pub fn in_place(&self) -> bool {
        !self.a.padded() && !self.b.padded()
    }

    /// Bytes of the copies of the padded operands with `elem_bytes`-byte elements: A's copy first,
    /// then B's (each a multiple of [`ALIGN`] bytes, so both start aligned in one buffer).
    pub fn copy_bytes(&self, elem_bytes: u32) -> u64 {
        [self.a, self.b].iter().filter(|l| l.padded()).map(|l| l.elements() * elem_bytes as u64).sum()
    }
}

/// The operand layouts a TMA kernel (`config.tma`) with `elem_bytes`-byte inputs reads on `shape`
/// ([`Packing`]): any shape (`MatmulShape::check` bounds every dimension, so the rounded leading
/// dimensions fit `u32`).
pub fn plan(config: TileConfig, shape: MatmulShape, elem_bytes: u32) -> Packing {
    let (per_row, per_copy_row) = ((ALIGN as u32 / elem_bytes).max(1), (COPY_ROW_BYTES / elem_bytes).max(1));
    let layout = |rows: u32, cols: u32| {
        let ld = if cols.is_multiple_of(per_row) { cols } else { cols.next_multiple_of(per_copy_row) };
        Layout { rows, cols, ld }
    };
    let b = if config.b_k_major() { layout(shape.n, shape.k) } else { layout(shape.k, shape.n) };
    Packing { a: layout(shape.m, shape.k), b }
}

/// [`plan`], with every 16-bit operand whose rows lie off a 32-byte sector ([`FAST_ROW_BYTES`])
/// packed too, into rows of whole 128-byte lines: the layouts the tensor cores read at full rate, at
/// the cost of the copies ([`crate::select::tc_model`] weighs the two). TF32's and FP8's are [`plan`]'s.
pub fn plan_aligned(config: TileConfig, shape: MatmulShape, elem_bytes: u32) -> Packing {
    let mut packing = plan(config, shape, elem_bytes);
    if config.b_k_major() {
        return packing;
    }
    let per_copy_row = (COPY_ROW_BYTES / elem_bytes).max(1);
    for l in [&mut packing.a, &mut packing.b] {
        if slow_rows(*l, elem_bytes) {
            l.ld = l.cols.next_multiple_of(per_copy_row);
        }
    }
    packing
}

/// Whether `layout`'s rows (`elem_bytes`-byte elements) lie off a 32-byte sector ([`FAST_ROW_BYTES`]).
pub fn slow_rows(layout: Layout, elem_bytes: u32) -> bool {
    !(u64::from(layout.ld) * u64::from(elem_bytes)).is_multiple_of(FAST_ROW_BYTES)
}

/// The two tensor maps of a TMA kernel (`config.tma`) with `elem_bytes`-byte inputs over the layouts
/// of `packing` (normally [`plan`]'s): A, and B (N-major) or `Bᵀ` (`config.tf32_operands`), with the
/// real dimensions and the layouts' row strides. Refused with [`ShapeError::LeadingDimension`] when a
/// leading dimension is below its row, [`ShapeError::Unaligned`] when a row stride is not a
/// multiple of 16 bytes.
pub fn operands(config: TileConfig, packing: &Packing, elem_bytes: u32) -> Result<[TmaOperand; 2], ShapeError> {
    const OP: &str = "matmul (TMA kernel)";
    let e = elem_bytes as u64;
    let b_name = if config.b_k_major() { "Bᵀ" } else { "B" };
    let ops = [("A", packing.a, k15_tma::a_box(config)), (b_name, packing.b, k15_tma::b_box(config))].map(|(name, l, boxdim)| TmaOperand {
        name,
        elem_bytes,
        dims: [l.cols as u64, l.rows as u64],
        row_stride: l.ld as u64 * e,
        boxdim,
        layers: None,
    });
    for (op, l) in ops.iter().zip([packing.a, packing.b]) {
        if l.ld < l.cols {
            return Err(ShapeError::LeadingDimension { op: OP, name: op.name, ld: l.ld as usize, min: l.cols as usize });
        }
        if !op.row_stride.is_multiple_of(ALIGN) {
            return Err(ShapeError::Unaligned {
                op: OP,
                detail: format!(
                    "rows of {} are {} bytes apart, the TMA needs a multiple of {ALIGN} (a leading dimension that is a multiple of {})",
                    op.name,
                    op.row_stride,
                    ALIGN / e.max(1)
                ),
            });
        }
    }
    Ok(ops)
}

/// `C`'s tensor map for a TMA kernel's stores ([`k15_tma::c_box`] boxes, `f32`, the 128-byte
/// swizzle), or `None` where its rows are not whole 16-byte units (`N % 4 ≠ 0`): the kernels then
/// store with their threads.
pub fn c_operand(shape: MatmulShape) -> Option<TmaOperand> {
    let row_stride = u64::from(shape.n) * 4;
    (row_stride.is_multiple_of(ALIGN) && shape.m > 0 && shape.n > 0).then_some(TmaOperand {
        name: "C",
        elem_bytes: 4,
        dims: [u64::from(shape.n), u64::from(shape.m)],
        row_stride,
        boxdim: k15_tma::c_box(),
        layers: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::algo::{Algo, MATMUL_KERNELS};

    #[test]
    fn c_is_mapped_where_its_rows_are_whole_16_byte_units() {
        let c = c_operand(MatmulShape { m: 300, n: 520, k: 7 }).unwrap();
        assert_eq!((c.dims, c.row_stride, c.boxdim[0] * c.elem_bytes), ([520, 300], 2080, 128));
        assert!(c_operand(MatmulShape { m: 300, n: 522, k: 7 }).is_none());
    }

    #[test]
    fn boxes_are_within_the_tma_limits_and_fill_128_byte_swizzle_rows() {
        for k in MATMUL_KERNELS.iter().filter(|k| k.config.tma) {
            let elem = k.precision.input_bytes();
            let packing = plan(k.config, MatmulShape { m: 256, n: 512, k: 128 }, elem);
            assert!(packing.in_place(), "{}", k.label);
            let [a, b] = operands(k.config, &packing, elem).unwrap();
            for op in [a, b] {
                assert!(op.boxdim.iter().all(|&d| (1..=256).contains(&d)), "{}: box {:?}", k.label, op.boxdim);
                assert_eq!(op.boxdim[0] * elem, 128, "{}: {} box rows must be one 128-byte swizzle row", k.label, op.name);
            }
        }
    }

    #[test]
    fn unaligned_rows_are_padded_to_128_byte_lines_and_mapped_with_the_real_dimensions() {
        let cfg = Algo::TmaBf16.config().unwrap();
        let s = |m, n, k| MatmulShape { m, n, k };
        assert!(plan(cfg, s(1, 8, 8), 2).in_place());
        assert!(plan(cfg, s(1000, 1032, 520), 2).in_place());
        // 1000 × 1037 × 519: A's rows (519) and B's (1037) both padded, to whole 128-byte lines.
        let p = plan(cfg, s(1000, 1037, 519), 2);
        assert_eq!(p.a, Layout { rows: 1000, cols: 519, ld: 576 });
        assert_eq!(p.b, Layout { rows: 519, cols: 1037, ld: 1088 });
        assert_eq!(p.copy_bytes(2), 2 * (1000 * 576 + 519 * 1088));
        let [a, b] = operands(cfg, &p, 2).unwrap();
        assert_eq!((a.dims, a.row_stride), ([519, 1000], 1152));
        assert_eq!((b.dims, b.row_stride), ([1037, 519], 2176));
        // Only B padded: the copy is B's alone.
        let p = plan(cfg, s(64, 100, 64), 2);
        assert!(!p.a.padded() && p.b.padded());
        assert_eq!(p.copy_bytes(2), 2 * 64 * 128);
        // TF32: A and Bᵀ both have K-long rows, padded where K is not a multiple of 4; N is free.
        let tf32 = Algo::TmaTf32.config().unwrap();
        assert!(plan(tf32, s(64, 101, 64), 4).in_place());
        let p = plan(tf32, s(3, 9, 13), 4);
        assert_eq!((p.a, p.b), (Layout { rows: 3, cols: 13, ld: 32 }, Layout { rows: 9, cols: 13, ld: 32 }));
        assert_eq!(operands(tf32, &p, 4).unwrap()[1].name, "Bᵀ");
    }

    #[test]
    fn aligned_plans_pack_16_bit_rows_off_a_sector_and_leave_the_others() {
        let cfg = Algo::TmaBf16.config().unwrap();
        let s = |m, n, k| MatmulShape { m, n, k };
        // 3000³ BF16: rows of 6000 bytes, 16 off a sector, in both operands.
        let p = plan_aligned(cfg, s(3000, 3000, 3000), 2);
        assert_eq!((p.a.ld, p.b.ld), (3008, 3008));
        assert!(plan(cfg, s(3000, 3000, 3000), 2).in_place());
        // 2992 and 3040: whole sectors (not whole lines): read in place either way.
        assert!(plan_aligned(cfg, s(2992, 3040, 2992), 2).in_place());
        // Only B's rows (N = 1000: 2000 bytes) are off.
        let p = plan_aligned(cfg, s(64, 1000, 1024), 2);
        assert!(!p.a.padded() && p.b.padded() && !slow_rows(p.b, 2));
        let tf32 = Algo::TmaTf32.config().unwrap();
        assert_eq!(plan_aligned(tf32, s(100, 100, 100), 4), plan(tf32, s(100, 100, 100), 4));
    }

    #[test]
    fn layouts_the_tma_cannot_read_are_refused() {
        let cfg = Algo::TmaBf16.config().unwrap();
        let mut p = plan(cfg, MatmulShape { m: 64, n: 64, k: 100 }, 2);
        p.a.ld = 100; // the caller's rows: 200 bytes apart
        let err = operands(cfg, &p, 2).unwrap_err().to_string();
        assert!(err.contains("multiple of 8"), "{err}");
        p.a.ld = 96;
        assert!(matches!(operands(cfg, &p, 2), Err(ShapeError::LeadingDimension { ld: 96, min: 100, .. })));
    }
}
