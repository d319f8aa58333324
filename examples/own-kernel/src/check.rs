//! Inputs, `f64` references and the tolerances the kernels are held to — on the emulator (`tests/`)
//! and on the GPU (`src/bin/own-kernel-gpu.rs`, `scripts/torch_anchor.py`) alike.
//!
//! Tolerances, written once (ε = 2⁻²⁴, the unit roundoff). A softmax output is `e_i / Σe` with
//! `e_i = 2^((x_i − max)·log₂e)`. The subtraction and the product each round the exponent by half an
//! ulp, an absolute error of about `|x_i − max|·ε` that `exp` turns into that much relative error
//! (its condition number is its argument): `2·|x_i − max|·ε` for both. On the host `exp2` is
//! `f32::exp2` (within an ulp), and the GPU's `ex2.approx` is within 2⁻²² = 4ε. The sum of `cols`
//! terms in `f32` adds at most `cols·ε` relative in the worst order, and the division and the
//! product by its reciprocal two more ulps. So `|y − ref| ≤ (10 + cols + 4·|x_i − max|)·ε·ref + 1e-30`.
//! `SiLU(x)·y` is a handful of roundings: `16·ε·|ref|` (`ex2.approx`'s 2⁻²² is 4ε) plus `1e-30`.

/// The unit roundoff of `f32`, 2⁻²⁴.
pub const EPS: f64 = f32::EPSILON as f64 / 2.0;

/// Deterministic inputs in [−range, range] (a 64-bit LCG: the same on every machine).
pub fn inputs(n: usize, seed: u64, range: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range
        })
        .collect()
}

/// The `f64` softmax of each row of the row-major `rows × cols` matrix `x`.
pub fn softmax_reference(x: &[f32], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = vec![0.0; rows * cols];
    for r in 0..rows {
        let row = &x[r * cols..(r + 1) * cols];
        let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(f64::from(v)));
        let sum: f64 = row.iter().map(|&v| (f64::from(v) - max).exp()).sum();
        for (c, &v) in row.iter().enumerate() {
            out[r * cols + c] = (f64::from(v) - max).exp() / sum;
        }
    }
    out
}

/// `Err` naming the first element of `y` (the softmax of `x`'s rows) outside the tolerance.
pub fn check_softmax(x: &[f32], y: &[f32], cols: usize) -> Result<(), String> {
    if x.len() != y.len() || cols == 0 || !x.len().is_multiple_of(cols) {
        return Err(format!("{} inputs, {} outputs, {cols} columns", x.len(), y.len()));
    }
    let reference = softmax_reference(x, x.len() / cols, cols);
    for (r, (xr, yr)) in x.chunks(cols).zip(y.chunks(cols)).enumerate() {
        let max = xr.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
        for c in 0..cols {
            let (got, want) = (f64::from(yr[c]), reference[r * cols + c]);
            let bound = softmax_bound(cols, f64::from(max - xr[c]).abs());
            if got.is_nan() || (got - want).abs() > bound * want + 1e-30 {
                return Err(format!("row {r}, column {c}: {got} against {want}"));
            }
        }
    }
    Ok(())
}

/// The softmax's relative error bound for an element `distance` below its row's maximum.
pub fn softmax_bound(cols: usize, distance: f64) -> f64 {
    (10.0 + cols as f64 + 4.0 * distance) * EPS
}

/// `Err` naming the first element of `out` that is not `SiLU(x)·y` within the tolerance.
pub fn check_silu_mul(x: &[f32], y: &[f32], out: &[f32]) -> Result<(), String> {
    for i in 0..out.len() {
        let (a, b) = (f64::from(x[i]), f64::from(y[i]));
        let want = a * b / (1.0 + (-a).exp());
        if out[i].is_nan() || (f64::from(out[i]) - want).abs() > 16.0 * EPS * want.abs() + 1e-30 {
            return Err(format!("element {i}: {} against {want}", out[i]));
        }
    }
    Ok(())
}
