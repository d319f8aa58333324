//! The FP32 time model's measured residuals, carried to nearby shapes.
//!
//! [`crate::select::tuning::predict_us`] prices what a launch gives the GPU (waves, K-steps, alignment, the
//! adds into `C`); what it leaves out — instruction mixes, caches, the tails of a wave — shows as a
//! residual `ln(measured / predicted)` that changes slowly from shape to shape: a kernel the model
//! prices 15 % high on one deep-K, few-tile shape is priced high on its neighbours too
//! (`docs/tuning.md`, "Measured residuals"). The calibration table (`auto-calibration.csv`, beside this file, every
//! FP32 kernel timed on the H200 on each of its shapes) ships in the crate; `Auto` multiplies each
//! candidate's predicted time by the weighted mean residual of that kernel on the [`NEIGHBOURS`]
//! calibrated shapes nearest the product ([`Neighbourhood::factor`]). Deterministic and offline: the
//! table is data of the crate, nothing is measured on the user's GPU.
//!
//! Distance: Euclidean over `log2 M`, `log2 N`, `log2 K` and whether N and K are multiples of 4
//! (0 or 1 each: an unaligned neighbour counts as far as one twice as large). Weights `1 / (1 + d)`;
//! the mean is shrunk toward no correction by `n / (n + PRIOR)` for `n` neighbours, so a kernel
//! measured on few shapes moves its prediction less.
use std::collections::HashMap;

use crate::registry::algo::Algo;
use crate::shape::MatmulShape;

/// Calibrated shapes whose residuals a kernel's correction averages.
pub const NEIGHBOURS: usize = 8;

/// The shrinkage of the weighted mean toward no correction: `n / (n + PRIOR)` of it for `n` neighbours.
pub const PRIOR: f64 = 2.0;

/// The calibration table: `m,n,k,kernel,splits,us,held_out` rows (`scripts/fit-auto-model.py
/// --write-table`), `us` the H200's measured time of the kernel at that slice count.
pub const TABLE: &str = include_str!("auto-calibration.csv");

/// One measured row of [`TABLE`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// The product.
    pub shape: MatmulShape,
    /// The kernel.
    pub algo: Algo,
    /// Split-K's slices at that launch (1 for the rest).
    pub splits: u32,
    /// Its measured time, microseconds.
    pub us: f64,
    /// Whether the model's constants were fitted without this shape (`docs/tuning.md`).
    pub held_out: bool,
}

/// The rows of [`TABLE`] (lines that do not parse are left out; a test checks there are none).
pub fn measured() -> impl Iterator<Item = Measured> {
    TABLE.lines().skip(1).filter_map(parse_row)
}

fn parse_row(line: &str) -> Option<Measured> {
    let f: Vec<&str> = line.split(',').collect();
    let [m, n, k, kernel, splits, us, held] = f.as_slice() else { return None };
    Some(Measured {
        shape: MatmulShape { m: m.parse().ok()?, n: n.parse().ok()?, k: k.parse().ok()? },
        algo: Algo::from_label(kernel)?,
        splits: splits.parse().ok()?,
        us: us.parse().ok()?,
        held_out: *held == "1",
    })
}

/// Where a shape sits for [`Residuals`]' distance.
fn position(shape: MatmulShape) -> [f64; 5] {
    let log = |x: u32| f64::from(x.max(1)).log2();
    let flag = |aligned: bool| if aligned { 1.0 } else { 0.0 };
    [log(shape.m), log(shape.n), log(shape.k), flag(shape.n.is_multiple_of(4)), flag(shape.k.is_multiple_of(4))]
}

fn distance(a: &[f64; 5], b: &[f64; 5]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// One calibrated shape: its position and each kernel's residual there.
#[derive(Debug, Clone)]
struct Calibrated {
    shape: MatmulShape,
    position: [f64; 5],
    residuals: Vec<(Algo, f64)>,
}

/// The residuals of a time model on the calibration table, by shape.
#[derive(Debug, Clone, Default)]
pub struct Residuals {
    shapes: Vec<Calibrated>,
}

impl Residuals {
    /// `ln(measured / predicted)` of every row of `rows` that `predict(algo, shape, splits)` prices
    /// (`None`: left out — another precision, a kernel `Auto` does not weigh there).
    pub fn new(rows: impl IntoIterator<Item = Measured>, predict: impl Fn(Algo, MatmulShape, u32) -> Option<f64>) -> Residuals {
        let mut shapes: Vec<Calibrated> = Vec::new();
        let mut index: HashMap<MatmulShape, usize> = HashMap::new();
        for row in rows {
            let Some(predicted) = predict(row.algo, row.shape, row.splits).filter(|p| *p > 0.0 && row.us > 0.0) else { continue };
            let residual = (row.us / predicted).ln();
            let i = *index.entry(row.shape).or_insert_with(|| {
                shapes.push(Calibrated { shape: row.shape, position: position(row.shape), residuals: Vec::new() });
                shapes.len() - 1
            });
            match shapes[i].residuals.iter_mut().find(|(a, _)| *a == row.algo) {
                // A later row of the same shape and kernel replaces the earlier one.
                Some(slot) => slot.1 = residual,
                None => shapes[i].residuals.push((row.algo, residual)),
            }
        }
        Residuals { shapes }
    }

    /// Calibrated shapes.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether no shape is calibrated.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// The calibrated shapes nearest `shape`, nearest first; `leave_out` drops `shape`'s own rows
    /// (how the correction does on a shape it has not seen).
    pub fn near(&self, shape: MatmulShape, leave_out: bool) -> Neighbourhood<'_> {
        let at = position(shape);
        let mut rest: Vec<(f64, usize)> = self
            .shapes
            .iter()
            .enumerate()
            .filter(|(_, c)| !(leave_out && c.shape == shape))
            .map(|(i, c)| (distance(&at, &c.position), i))
            .collect();
        // Only the nearest few are usually needed (most kernels are measured on every shape): select
        // them, sort only those. Ties (equal distances) in table order: the same answer on every run.
        let by_distance = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let mut nearest = if rest.len() > SORTED {
            rest.select_nth_unstable_by(SORTED, by_distance);
            rest.drain(..SORTED).collect()
        } else {
            std::mem::take(&mut rest)
        };
        nearest.sort_by(by_distance);
        Neighbourhood { residuals: self, nearest, rest }
    }
}

/// The nearest shapes [`Residuals::near`] sorts; the rest are searched only for a kernel measured on
/// fewer than [`NEIGHBOURS`] of them.
const SORTED: usize = 64;

/// The calibrated shapes around one product ([`Residuals::near`]).
#[derive(Debug, Clone)]
pub struct Neighbourhood<'a> {
    residuals: &'a Residuals,
    /// The nearest shapes, nearest first: `(distance, index)`.
    nearest: Vec<(f64, usize)>,
    /// The others, unordered.
    rest: Vec<(f64, usize)>,
}

impl Neighbourhood<'_> {
    /// The factor on `algo`'s predicted time: `exp` of the weighted mean of its residuals on the
    /// [`NEIGHBOURS`] nearest shapes where it was measured (weights `1 / (1 + d)`), shrunk by
    /// `n / (n + PRIOR)`; 1 where it was never measured.
    pub fn factor(&self, algo: Algo) -> f64 {
        let residual = |i: usize| self.residuals.shapes[i].residuals.iter().find(|(a, _)| *a == algo).map(|&(_, r)| r);
        let mut found: Vec<(f64, f64)> = self.nearest.iter().filter_map(|&(d, i)| Some((d, residual(i)?))).take(NEIGHBOURS).collect();
        if found.len() < NEIGHBOURS {
            let mut more: Vec<(f64, usize, f64)> = self.rest.iter().filter_map(|&(d, i)| Some((d, i, residual(i)?))).collect();
            more.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            found.extend(more.into_iter().map(|(d, _, r)| (d, r)).take(NEIGHBOURS - found.len()));
        }
        if found.is_empty() {
            return 1.0;
        }
        let weights: f64 = found.iter().map(|(d, _)| 1.0 / (1.0 + d)).sum();
        let mean = found.iter().map(|(d, r)| r / (1.0 + d)).sum::<f64>() / weights;
        let n = found.len() as f64;
        (mean * n / (n + PRIOR)).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(m: u32, n: u32, k: u32) -> MatmulShape {
        MatmulShape { m, n, k }
    }

    fn row(shape: MatmulShape, algo: Algo, us: f64) -> Measured {
        Measured { shape, algo, splits: 1, us, held_out: false }
    }

    #[test]
    fn every_line_of_the_table_parses() {
        assert_eq!(measured().count(), TABLE.lines().count() - 1);
        assert!(measured().count() > 10_000);
    }

    #[test]
    fn a_kernel_measured_slower_than_predicted_nearby_is_corrected_upward() {
        // The model says 10 µs everywhere; `tiled` measured 20 µs on shapes near 1000³, `naive` 10.
        let rows = [s(1000, 1000, 1000), s(1024, 1000, 1000), s(1000, 1024, 1000), s(2000, 1000, 1000)]
            .into_iter()
            .flat_map(|shape| [row(shape, Algo::Tiled, 20.0), row(shape, Algo::Naive, 10.0)]);
        let residuals = Residuals::new(rows, |_, _, _| Some(10.0));
        assert_eq!(residuals.len(), 4);
        let near = residuals.near(s(1012, 1012, 1000), false);
        // Four neighbours, shrunk by 4 / (4 + PRIOR): 2^(4/6).
        let expected = (2.0f64.ln() * 4.0 / (4.0 + PRIOR)).exp();
        assert!((near.factor(Algo::Tiled) - expected).abs() < 1e-9, "{}", near.factor(Algo::Tiled));
        assert!((near.factor(Algo::Naive) - 1.0).abs() < 1e-12);
        // Never measured: no correction.
        assert_eq!(near.factor(Algo::Warptile), 1.0);
    }

    #[test]
    fn leaving_a_shape_out_drops_its_own_rows_and_keeps_order_deterministic() {
        let rows = [row(s(64, 64, 64), Algo::Tiled, 40.0), row(s(4096, 4096, 4096), Algo::Tiled, 5.0)];
        let residuals = Residuals::new(rows, |_, _, _| Some(10.0));
        let own = residuals.near(s(64, 64, 64), false).factor(Algo::Tiled);
        let without = residuals.near(s(64, 64, 64), true).factor(Algo::Tiled);
        assert!(own > 1.0 && without < 1.0, "{own} {without}");
        assert_eq!(
            residuals.near(s(100, 100, 100), false).factor(Algo::Tiled),
            residuals.near(s(100, 100, 100), false).factor(Algo::Tiled)
        );
    }

    #[test]
    fn alignment_counts_as_distance() {
        // Same sizes, one unaligned in N: the aligned query's nearest is the aligned shape.
        let rows = [row(s(512, 512, 512), Algo::Tiled, 20.0), row(s(512, 513, 512), Algo::Tiled, 5.0)];
        let residuals = Residuals::new(rows, |_, _, _| Some(10.0));
        let near = residuals.near(s(512, 516, 512), false);
        assert!(near.nearest[0].1 == 0 && near.nearest[0].0 < near.nearest[1].0);
    }
}
