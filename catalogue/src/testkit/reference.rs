//! The CPU reference every GPU result is checked against, and the tolerance rule.
//!
//! The reference accumulates in f64. A float32 dot product of length K carries rounding error that
//! grows with K; the rule below bounds it per element by `C_TOL · √K · ε₃₂ · Σ|aᵢₖ·bₖⱼ|` (plus a tiny
//! absolute floor), the usual probabilistic bound for K rounded additions with a safety factor. It is
//! tight enough to catch one missing or doubled term of a K = 4096 dot product (≈ 1/4096 of Σ|a·b|
//! on random data, about 8× above the bound).
pub use crate::precision::C_TOL;
use crate::testkit::matrix::HostMatrix;

/// `A · B` in f64, plus `Σ|a·b|` per element (the scale of each element's rounding error).
pub struct ReferenceProduct {
    pub rows: usize,
    pub cols: usize,
    pub k: usize,
    pub value: Vec<f64>,
    pub abs_sum: Vec<f64>,
}

/// Computes the reference product (i-k-j loop order, so the inner loop streams rows of `B`).
///
/// Panics if `a.cols != b.rows` (a test-setup error, not user input).
pub fn matmul_reference(a: &HostMatrix, b: &HostMatrix) -> ReferenceProduct {
    assert_eq!(a.cols, b.rows, "reference: inner dimensions differ");
    let (m, n, k) = (a.rows, b.cols, a.cols);
    let mut value = vec![0.0f64; m * n];
    let mut abs_sum = vec![0.0f64; m * n];
    for i in 0..m {
        let (row_v, row_a) = (&mut value[i * n..(i + 1) * n], &mut abs_sum[i * n..(i + 1) * n]);
        for p in 0..k {
            let aip = a.data[i * k + p] as f64;
            let b_row = &b.data[p * n..(p + 1) * n];
            for j in 0..n {
                let prod = aip * b_row[j] as f64;
                row_v[j] += prod;
                row_a[j] += prod.abs();
            }
        }
    }
    ReferenceProduct { rows: m, cols: n, k, value, abs_sum }
}

/// The first element outside tolerance, with the worst relative error seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    pub row: usize,
    pub col: usize,
    pub got: f32,
    pub expected: f64,
    pub tolerance: f64,
    pub mismatches: usize,
}

impl Mismatch {
    /// The result has another shape than the reference (every element counts as a mismatch).
    pub fn shape() -> Self {
        Mismatch { row: 0, col: 0, got: f32::NAN, expected: f64::NAN, tolerance: 0.0, mismatches: usize::MAX }
    }
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} element(s) out of tolerance; first at ({}, {}): got {}, expected {} (tolerance {:.3e})",
            self.mismatches, self.row, self.col, self.got, self.expected, self.tolerance
        )
    }
}

/// The tolerance for one element whose products sum to `abs_sum` in absolute value.
pub fn tolerance(k: usize, abs_sum: f64) -> f64 {
    C_TOL * (k.max(1) as f64).sqrt() * f32::EPSILON as f64 * abs_sum + f64::from(f32::MIN_POSITIVE)
}

/// Checks `got` against `reference` element by element (NaN never passes; shapes must agree).
pub fn check_matmul(got: &HostMatrix, reference: &ReferenceProduct) -> Result<(), Mismatch> {
    if (got.rows, got.cols) != (reference.rows, reference.cols) {
        return Err(Mismatch::shape());
    }
    check_elements(&got.data, reference, tolerance)
}

/// Checks the row-major `got` against `reference` element by element, each within
/// `tolerance(k, Σ|a·b|)`; NaN (in `got` or the reference) never passes, and the lengths must agree.
/// The one comparison loop behind [`check_matmul`] and the per-precision checks.
pub fn check_elements(got: &[f32], reference: &ReferenceProduct, tolerance: impl Fn(usize, f64) -> f64) -> Result<(), Mismatch> {
    check_elements_valued(got, reference, |k, abs_sum, _| tolerance(k, abs_sum))
}

/// [`check_elements`] with a tolerance that also sees the reference value (`tolerance(k, Σ|a·b|,
/// value)`): for results rounded to a narrower output format, whose error scales with the value.
pub fn check_elements_valued(
    got: &[f32],
    reference: &ReferenceProduct,
    tolerance: impl Fn(usize, f64, f64) -> f64,
) -> Result<(), Mismatch> {
    if got.len() != reference.value.len() || got.len() != reference.rows * reference.cols {
        return Err(Mismatch::shape());
    }
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (idx, (&g, (&v, &s))) in got.iter().zip(reference.value.iter().zip(&reference.abs_sum)).enumerate() {
        let tol = tolerance(reference.k, s, v);
        if !approx::abs_diff_eq!(g as f64, v, epsilon = tol) {
            count += 1;
            first.get_or_insert(Mismatch {
                row: idx / reference.cols,
                col: idx % reference.cols,
                got: g,
                expected: v,
                tolerance: tol,
                mismatches: 0,
            });
        }
    }
    match first {
        None => Ok(()),
        Some(m) => Err(Mismatch { mismatches: count, ..m }),
    }
}

/// The naive single-threaded f32 loop: the CPU baseline of the seed's scorecard ("CPU" row).
pub fn matmul_cpu_naive(a: &HostMatrix, b: &HostMatrix) -> HostMatrix {
    assert_eq!(a.cols, b.rows, "matmul_cpu_naive: inner dimensions differ");
    HostMatrix::from_fn(a.rows, b.cols, |i, j| (0..a.cols).map(|p| a.get(i, p) * b.get(p, j)).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_matches_hand_worked_product() {
        let a = HostMatrix::new(2, 3, vec![1., 2., 3., 4., 5., 6.]).unwrap();
        let b = HostMatrix::new(3, 2, vec![7., 8., 9., 10., 11., 12.]).unwrap();
        let r = matmul_reference(&a, &b);
        assert_eq!(r.value, vec![58., 64., 139., 154.]);
        assert_eq!(r.abs_sum, vec![58., 64., 139., 154.]);
    }

    #[test]
    fn f32_naive_loop_passes_its_own_tolerance() {
        let (a, b) = (HostMatrix::random(33, 257, 1), HostMatrix::random(257, 19, 2));
        check_matmul(&matmul_cpu_naive(&a, &b), &matmul_reference(&a, &b)).unwrap();
    }

    #[test]
    fn a_missing_term_is_caught() {
        let k = 4096;
        let (a, b) = (HostMatrix::random(4, k, 3), HostMatrix::random(k, 4, 4));
        let r = matmul_reference(&a, &b);
        // Drop the last product from every element, as an off-by-one loop bound would.
        let short = HostMatrix::from_fn(4, 4, |i, j| (0..k - 1).map(|p| a.get(i, p) * b.get(p, j)).sum());
        let err = check_matmul(&short, &r).unwrap_err();
        assert!(err.mismatches >= 8, "only {} of 16 elements flagged", err.mismatches);
    }

    #[test]
    fn nan_never_passes() {
        let a = HostMatrix::new(1, 1, vec![1.0]).unwrap();
        let r = matmul_reference(&a, &a);
        assert!(check_matmul(&HostMatrix::new(1, 1, vec![f32::NAN]).unwrap(), &r).is_err());
    }

    #[test]
    fn tolerance_grows_with_k() {
        assert!(tolerance(4096, 1.0) > tolerance(16, 1.0));
        assert!((tolerance(4, 1.0) - (C_TOL * 2.0 * f32::EPSILON as f64 + f32::MIN_POSITIVE as f64)).abs() < 1e-20);
    }
}
