//! Operands for the multi-GPU runs: generated in parallel from the catalogue's hashed stream (any
//! element computable alone), and the checks: sampled entries against an f64 dot product, and a full
//! comparison of two results within the tolerance rule.
use rayon::prelude::*;
use tessera::catalogue::testkit::random::hashed;
use tessera::{HostMatrix, Precision};

/// A `rows × cols` matrix of `hashed(seed, i)`, filled by all cores (first touch of the pages too).
pub fn generate(rows: usize, cols: usize, seed: u64) -> HostMatrix {
    let len = rows * cols;
    let mut data = vec![0f32; len];
    const CHUNK: usize = 1 << 20;
    data.par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
        let base = (c * CHUNK) as u64;
        chunk.iter_mut().enumerate().for_each(|(i, x)| *x = hashed(seed, base + i as u64));
    });
    HostMatrix { rows, cols, data }
}

/// `count` points spread over a `rows × cols` matrix (the corners, then a deterministic scatter).
pub fn sample_points(rows: usize, cols: usize, count: usize) -> Vec<(usize, usize)> {
    let mut pts = vec![(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)];
    pts.extend((0..count.saturating_sub(4)).map(|i| {
        let h = |salt: u64| (hashed(0xC0FFEE + salt, i as u64) as f64 + 1.0) / 2.0;
        (((h(1) * rows as f64) as usize).min(rows - 1), ((h(2) * cols as f64) as usize).min(cols - 1))
    }));
    pts.truncate(count.max(1));
    pts
}

/// The worst sampled error as a fraction of its tolerance, and how many samples exceed it.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct SampleCheck {
    pub samples: usize,
    pub worst_error_over_tolerance: f64,
    pub failures: usize,
}

/// Checks `got[i]` against `Σₚ a'[r][p]·b'[p][c]` in f64 (inputs rounded to `precision`) for each
/// point, with [`Precision::tolerance`].
pub fn check_samples(precision: Precision, a: &HostMatrix, b: &HostMatrix, points: &[(usize, usize)], got: &[f32]) -> SampleCheck {
    let k = a.cols;
    let ratios: Vec<f64> = points
        .par_iter()
        .zip(got)
        .map(|(&(r, c), &g)| {
            let (mut sum, mut abs) = (0f64, 0f64);
            for p in 0..k {
                let t = f64::from(precision.round_input(a.data[r * k + p])) * f64::from(precision.round_input(b.data[p * b.cols + c]));
                sum += t;
                abs += t.abs();
            }
            let err = (f64::from(g) - sum).abs();
            if err.is_nan() {
                f64::INFINITY
            } else {
                err / precision.tolerance(k, abs)
            }
        })
        .collect();
    SampleCheck {
        samples: points.len(),
        worst_error_over_tolerance: ratios.iter().copied().fold(0.0, f64::max),
        failures: ratios.iter().filter(|&&r| r > 1.0).count(),
    }
}

/// Two results of the same product compared element by element: each is within `tol(k, Σ|a·b|)` of
/// the exact product, so they may differ by twice that. `Σ|a'·b'|` is bounded by `‖a'ᵢ‖₂·‖b'ⱼ‖₂`
/// (Cauchy–Schwarz), computed once per row and column, which makes the check affordable on every
/// element (it is at most 4/3 looser than the exact sum on uniform operands).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct FullComparison {
    pub elements: usize,
    /// max |x − y| ÷ (2·tol) over all elements (≤ 1 passes).
    pub worst_difference_over_tolerance: f64,
    pub failures: usize,
    /// Elements bit-identical in both results.
    pub identical: usize,
}

pub fn compare_full(precision: Precision, a: &HostMatrix, b: &HostMatrix, x: &[f32], y: &[f32]) -> FullComparison {
    let (m, n, k) = (a.rows, b.cols, a.cols);
    let row_norm: Vec<f64> = (0..m)
        .into_par_iter()
        .map(|r| a.data[r * k..(r + 1) * k].iter().map(|&v| f64::from(precision.round_input(v)).powi(2)).sum::<f64>().sqrt())
        .collect();
    let mut col_sq = vec![0f64; n];
    for p in 0..k {
        for (c, s) in col_sq.iter_mut().enumerate() {
            *s += f64::from(precision.round_input(b.data[p * n + c])).powi(2);
        }
    }
    let col_norm: Vec<f64> = col_sq.iter().map(|s| s.sqrt()).collect();
    let (worst, failures, identical) = x
        .par_chunks(n)
        .zip(y.par_chunks(n))
        .enumerate()
        .map(|(r, (xr, yr))| {
            let mut acc = (0f64, 0usize, 0usize);
            for c in 0..n {
                let tol = 2.0 * precision.tolerance(k, row_norm[r] * col_norm[c]);
                let d = (f64::from(xr[c]) - f64::from(yr[c])).abs();
                let ratio = if d.is_nan() { f64::INFINITY } else { d / tol };
                acc.0 = acc.0.max(ratio);
                acc.1 += usize::from(ratio > 1.0);
                acc.2 += usize::from(xr[c].to_bits() == yr[c].to_bits());
            }
            acc
        })
        .reduce(|| (0.0, 0, 0), |p, q| (p.0.max(q.0), p.1 + q.1, p.2 + q.2));
    FullComparison { elements: m * n, worst_difference_over_tolerance: worst, failures, identical }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_of_an_exact_product_pass_and_a_wrong_one_fails() {
        let (a, b) = (generate(20, 300, 1), generate(300, 10, 2));
        let c = tessera::reference::matmul_reference(&a, &b);
        let pts = sample_points(20, 10, 30);
        let exact: Vec<f32> = pts.iter().map(|&(r, col)| c.value[r * 10 + col] as f32).collect();
        assert_eq!(check_samples(Precision::Fp32, &a, &b, &pts, &exact).failures, 0);
        let mut wrong = exact.clone();
        wrong[7] += 0.01;
        assert_eq!(check_samples(Precision::Fp32, &a, &b, &pts, &wrong).failures, 1);
    }

    #[test]
    fn full_comparison_catches_one_bad_element() {
        let (a, b) = (generate(16, 512, 3), generate(512, 8, 4));
        let c: Vec<f32> = tessera::reference::matmul_reference(&a, &b).value.iter().map(|&v| v as f32).collect();
        let same = compare_full(Precision::Fp32, &a, &b, &c, &c);
        assert_eq!((same.failures, same.identical), (0, 128));
        let mut off = c.clone();
        off[100] += 0.05;
        assert_eq!(compare_full(Precision::Fp32, &a, &b, &c, &off).failures, 1);
        assert!(sample_points(5, 7, 300).iter().all(|&(r, c)| r < 5 && c < 7));
    }
}
