//! Problem shapes and their checks.
pub use crate::error::ShapeError;
use crate::registry::algo::MATMUL_KERNELS;

/// The kernels index with 32-bit arithmetic: each matrix holds at most this many elements.
pub const MAX_MATRIX_ELEMENTS: usize = i32::MAX as usize;
/// The largest grid y/z dimension CUDA allows.
pub const MAX_GRID_Y: u32 = 65_535;

/// The smallest block tile height of any kernel whose row tiles are the grid's `y`: the one that
/// needs the most block rows (kernels with their rows along `x` have room for any M of 32-bit
/// indexing; their columns along `y` are checked as they are planned).
const MIN_BLOCK_ROWS: u32 = {
    let mut i = 0;
    let mut min = u32::MAX;
    while i < MATMUL_KERNELS.len() {
        if !MATMUL_KERNELS[i].config.rows_on_x && MATMUL_KERNELS[i].config.bm < min {
            min = MATMUL_KERNELS[i].config.bm;
        }
        i += 1;
    }
    min
};

impl std::str::FromStr for MatmulShape {
    type Err = String;

    /// `N` (N×N×N) or `MxNxK` (`×` also), as the scorecard's and the examples' `--sizes` take them;
    /// the dimensions as written (no product checks: [`MatmulShape::check`] does those).
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<u32> =
            s.split(['x', '×']).map(|p| p.trim().parse::<u32>().map_err(|e| format!("bad size `{s}`: {e}"))).collect::<Result<_, _>>()?;
        match parts[..] {
            [n] => Ok(MatmulShape { m: n, n, k: n }),
            [m, n, k] => Ok(MatmulShape { m, n, k }),
            _ => Err(format!("bad size `{s}`: use N or MxNxK")),
        }
    }
}

/// That `A (a_rows×a_cols) · B (b_rows×b_cols) → C (c_rows×c_cols)` is a product: the inner
/// dimensions agree and `C` is `a_rows × b_cols` ([`ShapeError::Mismatch`] otherwise). The first
/// check of [`MatmulShape::check`] and of `GemmDims::check` (any size).
pub(crate) fn check_agreement(a: (usize, usize), b: (usize, usize), c: (usize, usize)) -> Result<(), ShapeError> {
    const OP: &str = "matmul";
    if a.1 != b.0 {
        return Err(ShapeError::Mismatch {
            op: OP, detail: format!("A is {}×{} but B is {}×{} (A.cols ≠ B.rows)", a.0, a.1, b.0, b.1)
        });
    }
    if c != (a.0, b.1) {
        return Err(ShapeError::Mismatch { op: OP, detail: format!("C is {}×{} but A·B is {}×{}", c.0, c.1, a.0, b.1) });
    }
    Ok(())
}

/// A checked `C[m×n] = A[m×k] · B[k×n]` problem size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatmulShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
}

impl MatmulShape {
    /// Validates `A (a_rows×a_cols) · B (b_rows×b_cols) → C (c_rows×c_cols)`.
    ///
    /// Errors: [`ShapeError::Mismatch`] when the inner dimensions or `C` disagree,
    /// [`ShapeError::TooLarge`] when a matrix exceeds [`MAX_MATRIX_ELEMENTS`] or any kernel's grid limit.
    pub fn check(a: (usize, usize), b: (usize, usize), c: (usize, usize)) -> Result<Self, ShapeError> {
        const OP: &str = "matmul";
        check_agreement(a, b, c)?;
        for (name, (r, col)) in [("A", a), ("B", b), ("C", c)] {
            let elems = r.saturating_mul(col);
            if elems > MAX_MATRIX_ELEMENTS {
                return Err(ShapeError::TooLarge {
                    op: OP,
                    detail: format!("{name} is {r}×{col}: more than {MAX_MATRIX_ELEMENTS} elements"),
                });
            }
        }
        // Each dimension is at most one matrix's element count (≤ i32::MAX), so the casts are exact.
        let shape = MatmulShape { m: a.0 as u32, n: b.1 as u32, k: a.1 as u32 };
        if shape.m.div_ceil(MIN_BLOCK_ROWS) > MAX_GRID_Y {
            return Err(ShapeError::TooLarge { op: OP, detail: format!("M = {} needs more than {MAX_GRID_Y} block rows", shape.m) });
        }
        Ok(shape)
    }

    /// Floating-point operations: one multiply and one add per `(i, j, k)`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// The fewest bytes any algorithm must move: read A and B once, write C once (f32).
    pub fn min_bytes(&self) -> f64 {
        let (m, n, k) = (self.m as f64, self.n as f64, self.k as f64);
        4.0 * (m * k + k * n + m * n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_compatible_shapes() {
        let s = MatmulShape::check((17, 9), (9, 33), (17, 33)).unwrap();
        assert_eq!((s.m, s.n, s.k), (17, 33, 9));
        assert_eq!(s.flops(), 2.0 * 17.0 * 33.0 * 9.0);
        assert_eq!(MatmulShape { m: 1024, n: 1024, k: 1024 }.min_bytes(), 12.0 * 1024.0 * 1024.0);
    }

    #[test]
    fn rejects_inner_mismatch_and_wrong_output() {
        assert!(matches!(MatmulShape::check((4, 5), (6, 7), (4, 7)), Err(ShapeError::Mismatch { .. })));
        assert!(matches!(MatmulShape::check((4, 5), (5, 7), (7, 4)), Err(ShapeError::Mismatch { .. })));
    }

    #[test]
    fn rejects_oversized_and_overflowing() {
        assert!(matches!(MatmulShape::check((1 << 16, 1 << 16), (1 << 16, 1), (1 << 16, 1)), Err(ShapeError::TooLarge { .. })));
        assert!(matches!(MatmulShape::check((usize::MAX, 2), (2, 1), (usize::MAX, 1)), Err(ShapeError::TooLarge { .. })));
        // 2^20 rows × 1 column fits in i32 elements but needs 65,536 > 65,535 block rows of 16.
        assert_eq!(MIN_BLOCK_ROWS, 16);
        assert!(matches!(MatmulShape::check((1 << 20, 1), (1, 1), (1 << 20, 1)), Err(ShapeError::TooLarge { .. })));
    }
}
