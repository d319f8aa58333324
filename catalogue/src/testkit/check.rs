//! The checks every suite (emulator, GPU parity, properties, scorecard) applies to a result: the f64
//! reference of the inputs rounded to the precision's format, compared element by element within the
//! precision's tolerance rule ([`Precision::tolerance`], derived in [`crate::precision`]).
use crate::precision::{OutputFormat, Precision, C_TOL};
use crate::testkit::matrix::HostMatrix;
use crate::testkit::reference::{self, Mismatch, ReferenceProduct};

/// Checks a row-major result `got` against `reference` (the f64 product of the rounded inputs)
/// element by element with [`Precision::tolerance`]. NaN never passes; the lengths must agree.
pub fn check_product(precision: Precision, got: &[f32], reference: &ReferenceProduct) -> Result<(), Mismatch> {
    reference::check_elements(got, reference, |k, abs_sum| precision.tolerance(k, abs_sum))
}

/// [`check_product`] for a result written in `output`: the product's tolerance, plus the output's
/// own rounding of the value (`u_out · (|value| + tol)`, [`OutputFormat::unit_roundoff`]).
pub fn check_product_out(precision: Precision, output: OutputFormat, got: &[f32], reference: &ReferenceProduct) -> Result<(), Mismatch> {
    reference::check_elements_valued(got, reference, |k, abs_sum, value| {
        let tol = precision.tolerance(k, abs_sum);
        tol + output.unit_roundoff() * (value.abs() + tol)
    })
}

/// The largest slope of the fused activations (GELU's, 1.129 at x ≈ 2.4; SiLU's 1.100, ReLU's 1):
/// how much an error in the sum can grow through the activation.
pub const ACTIVATION_SLOPE: f64 = 1.13;

/// The activations' own error in f32, in units of `ε₃₂ · (|y| + 1)` (libm's `expf`, `tanhf`, `erff`
/// are within a few ulps; the formulas add a few roundings).
pub const ACTIVATION_ULPS: f64 = 16.0;

/// Checks a result of a fused epilogue, `got = out(act(α·A·B + bias))`, against `reference` (the f64
/// product of the rounded inputs, `α` applied) and the bias `bias(row, col)`: the product's tolerance
/// carried through the activation ([`ACTIVATION_SLOPE`]), the activation's own f32 error
/// ([`ACTIVATION_ULPS`]), then the output's rounding ([`OutputFormat::unit_roundoff`]). The one rule
/// for every fused epilogue.
pub fn check_epilogue(
    precision: Precision,
    output: OutputFormat,
    activation: crate::Activation,
    bias: impl Fn(usize, usize) -> f64,
    got: &[f32],
    reference: &ReferenceProduct,
) -> Result<(), Mismatch> {
    let (m, n) = (reference.rows, reference.cols);
    if got.len() != m * n || reference.value.len() != m * n {
        return Err(Mismatch::shape());
    }
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (idx, &g) in got.iter().enumerate() {
        let (row, col) = (idx / n, idx % n);
        let y = activation.reference(reference.value[idx] + bias(row, col));
        let tol = ACTIVATION_SLOPE * precision.tolerance(reference.k, reference.abs_sum[idx])
            + ACTIVATION_ULPS * f64::from(f32::EPSILON) * (y.abs() + 1.0);
        let tol = tol + output.unit_roundoff() * (y.abs() + tol);
        if !approx::abs_diff_eq!(f64::from(g), y, epsilon = tol) {
            count += 1;
            first.get_or_insert(Mismatch { row, col, got: g, expected: y, tolerance: tol, mismatches: 0 });
        }
    }
    match first {
        None => Ok(()),
        Some(f) => Err(Mismatch { mismatches: count, ..f }),
    }
}

/// Checks `got = a · b` computed in `precision`: the f64 reference of the inputs rounded to the
/// precision's format, compared element by element with [`Precision::tolerance`]. The one check every
/// suite (emulator, GPU parity, properties, scorecard) applies to a product of any precision.
pub fn check_in(precision: Precision, a: &HostMatrix, b: &HostMatrix, got: &HostMatrix) -> Result<(), Mismatch> {
    let round =
        |m: &HostMatrix| HostMatrix { rows: m.rows, cols: m.cols, data: m.data.iter().map(|&x| precision.round_input(x)).collect() };
    let reference = reference::matmul_reference(&round(a), &round(b));
    if (got.rows, got.cols) != (reference.rows, reference.cols) {
        return Err(Mismatch::shape());
    }
    check_product(precision, &got.data, &reference)
}

/// The GEMM tolerance of one element: `α·(A·B)` carries the product's error ([`Precision::tolerance`],
/// scaled by `|α|`), and the epilogue `α·T + β·C` in f32 adds at most a few f32 roundings of the terms
/// it combines, allowed for as `C_TOL · ε₃₂ · (|α|·Σ|a'·b'| + |β·c|)`: both in the one rule, written
/// here once. `abs_sum` is `Σ|a'·b'|` (0 when `α = 0`), `beta_c` is `|β·c|` (0 when `β = 0`).
pub fn gemm_tolerance(precision: Precision, k: usize, alpha: f64, abs_sum: f64, beta_c: f64) -> f64 {
    let epilogue = C_TOL * f64::from(f32::EPSILON) * (alpha.abs() * abs_sum + beta_c);
    let product = if alpha == 0.0 { 0.0 } else { alpha.abs() * (precision.tolerance(k, abs_sum) - f64::from(f32::MIN_POSITIVE)) };
    product + epilogue + f64::from(f32::MIN_POSITIVE)
}

/// Checks a GEMM result `got` (dense row-major, `m × n`) against the f64 reference
/// `α·op(A)'·op(B)' + β·C₀`, where `'` is rounding to `precision`'s input format and `op_a` (m×k),
/// `op_b` (k×n) are the operands *after* `op` (dense row-major). BLAS's rules hold in the reference
/// too: with `α = 0` the operands are not read (they may hold NaN), with `β = 0` `c0` is not read.
/// Each element must lie within [`gemm_tolerance`]; NaN never passes.
pub fn check_gemm(
    precision: Precision,
    alpha: f32,
    op_a: &HostMatrix,
    op_b: &HostMatrix,
    beta: f32,
    c0: &HostMatrix,
    got: &HostMatrix,
) -> Result<(), Mismatch> {
    let (m, n, k) = (op_a.rows, op_b.cols, op_a.cols);
    if op_b.rows != k || (c0.rows, c0.cols) != (m, n) || (got.rows, got.cols) != (m, n) || got.data.len() != m * n {
        return Err(Mismatch::shape());
    }
    let round =
        |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| precision.round_input(v)).collect() };
    let product = (alpha != 0.0).then(|| reference::matmul_reference(&round(op_a), &round(op_b)));
    let (alpha64, beta64) = (f64::from(alpha), f64::from(beta));
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (idx, &g) in got.data.iter().enumerate() {
        let (ab, abs_sum) = product.as_ref().map_or((0.0, 0.0), |p| (p.value[idx], p.abs_sum[idx]));
        let bc = if beta == 0.0 { 0.0 } else { beta64 * f64::from(c0.data[idx]) };
        let expected = alpha64 * ab + bc;
        let tol = gemm_tolerance(precision, k, alpha64, abs_sum, bc.abs());
        if !approx::abs_diff_eq!(f64::from(g), expected, epsilon = tol) {
            count += 1;
            first.get_or_insert(Mismatch { row: idx / n, col: idx % n, got: g, expected, tolerance: tol, mismatches: 0 });
        }
    }
    match first {
        None => Ok(()),
        Some(f) => Err(Mismatch { mismatches: count, ..f }),
    }
}
