//! `Algo::Auto`'s FP32 model against the measured calibration table (`src/select/auto-calibration.csv`:
//! every FP32 kernel's time on the shapes of two H200 scorecard runs, with the split-K slice count each
//! launch used; `docs/tuning.md` says which runs and which shapes were held out of the fit).
use std::collections::BTreeMap;

use tessera_catalogue::select::{residuals, tuning};
use tessera_catalogue::{Algo, MatmulShape};

struct Row {
    algo: Algo,
    splits: u32,
    us: f64,
}

/// The table, by shape; `held` is true for the shapes the constants were not fitted on.
fn table() -> BTreeMap<(u32, u32, u32), (bool, Vec<Row>)> {
    let mut out: BTreeMap<(u32, u32, u32), (bool, Vec<Row>)> = BTreeMap::new();
    for r in residuals::measured() {
        let entry = out.entry((r.shape.m, r.shape.n, r.shape.k)).or_insert((r.held_out, Vec::new()));
        entry.1.push(Row { algo: r.algo, splits: r.splits, us: r.us });
    }
    out
}

/// A shape, whether it was held out, the pick ÷ best ratio, and the fastest time (µs).
type PickRatio = ((u32, u32, u32), bool, f64, f64);

/// How a test ranks the measured rows of one shape.
#[derive(Clone, Copy, PartialEq)]
enum Ranking {
    /// The time model alone (`tuning::predict_us`).
    Model,
    /// The model × its measured residuals near the shape, the shape's own rows left out
    /// (`tessera_catalogue::select::residuals`): how `Auto` does on a shape it was not calibrated on.
    ResidualsLeavingOut,
}

/// Per shape: the measured time of the kernel ranked first (among the measured rows, at their
/// measured slice counts) over the fastest measured one, and that fastest time (µs).
fn pick_ratios(ranking: Ranking) -> Vec<PickRatio> {
    table()
        .into_iter()
        .map(|((m, n, k), (held, rows))| {
            let shape = MatmulShape { m, n, k };
            let near = tuning::residuals().near(shape, true);
            let ranked = |r: &Row| {
                let model = tuning::predict_us(r.algo, shape, r.splits, tuning::SMS).unwrap();
                if ranking == Ranking::Model {
                    model
                } else {
                    model * near.factor(r.algo)
                }
            };
            let pick = rows.iter().filter(|r| tuning::is_candidate(r.algo, shape)).min_by(|a, b| ranked(a).total_cmp(&ranked(b))).unwrap();
            let best = rows.iter().map(|r| r.us).fold(f64::INFINITY, f64::min);
            ((m, n, k), held, best / pick.us, best)
        })
        .collect()
}

/// Geometric mean of the ratios, and how many are below 0.95.
fn summary(ratios: &[PickRatio]) -> (f64, usize) {
    let geomean = (ratios.iter().map(|x| x.2.ln()).sum::<f64>() / ratios.len() as f64).exp();
    (geomean, ratios.iter().filter(|x| x.2 < 0.95).count())
}

#[test]
fn the_table_covers_every_fp32_kernel_and_holds_shapes_out() {
    let t = table();
    assert!(t.len() >= 60, "{} shapes", t.len());
    assert!(t.values().filter(|(held, _)| *held).count() >= 10);
    // Kernel 29 (finishing its sums) is never a plain product's pick: it takes kernel 8's constants.
    let plain = |k: &&tessera_catalogue::MatmulKernel| k.precision == tessera_catalogue::Precision::Fp32 && !k.config.fused_epilogue;
    for kernel in tessera_catalogue::MATMUL_KERNELS.iter().filter(plain) {
        assert!(t.values().any(|(_, rows)| rows.iter().any(|r| r.algo == kernel.algo)), "{} never measured", kernel.label);
    }
}

#[test]
fn the_model_predicts_measured_times() {
    // |log(predicted / measured)| over every candidate's row: median and 90th percentile, fitted and
    // held-out rows.
    for held_out in [false, true] {
        let mut errors: Vec<f64> = table()
            .into_iter()
            .filter(|(_, (held, _))| *held == held_out)
            .flat_map(|((m, n, k), (_, rows))| {
                let shape = MatmulShape { m, n, k };
                // The kernels `Auto` weighs there (kernel 19's rows on wider outputs are measured, not priced).
                rows.into_iter()
                    .filter(move |r| tuning::is_candidate(r.algo, shape))
                    .map(move |r| (tuning::predict_us(r.algo, shape, r.splits, tuning::SMS).unwrap() / r.us).ln().abs())
            })
            .collect();
        errors.sort_by(f64::total_cmp);
        let (median, p90) = (errors[errors.len() / 2], errors[errors.len() * 9 / 10]);
        println!("held out {held_out}: {} rows, median |log error| {median:.3}, 90th percentile {p90:.3}", errors.len());
        assert!(median < 0.12, "median |log error| {median:.3}");
        assert!(p90 < 0.40, "90th percentile {p90:.3}");
    }
}

/// Shapes where the model's first choice is known to miss the bound below (docs/tuning.md, "Where it
/// misses"), each checked against its own floor instead. Held out: 10891×62×312 (seed 41081), short
/// K on many rows with N unaligned, `async-64x64x16-s3` 28.5 µs against `splitk-64x64x16`'s 22.5;
/// 3×16×608 (seed 41132), kernel 19 at one slice priced 4.6 µs and taking 8.0 against kernel 18's
/// 4.9 — its rows exponent prices a block of 3 rows as faster than one warp streaming K alone is.
/// 4224×10628×4 (seed 41172), K = 4 on a 45 M-output product, where storing `C` is the time:
/// `warptile` priced 56.0 µs, measured 68.6, against `conflict-free`'s 54.5 (with the measured
/// residuals, the shape left out, `Auto` picks well: the last test).
/// (160×1×2030, a known miss at 0.436 until the blocks adding into a tile were priced
/// (`tuning::ADDS_DEPTH_US`), now picks kernel 19 at 1.000.)
const KNOWN_MISSES: [((u32, u32, u32), f64); 3] = [((10891, 62, 312), 0.75), ((3, 16, 608), 0.55), ((4224, 10628, 4), 0.75)];

#[test]
fn the_model_picks_the_measured_best_within_tolerance() {
    // The stated tolerance (docs/tuning.md): the model's first choice measured at least 0.95 of the
    // fastest kernel on three shapes in four, 0.80 on every shape where the fastest takes 20 µs or
    // more, 0.70 on the launch-bound rest (4–6 µs launches, where run-to-run noise is of that order);
    // geometric mean at least 0.95 on the fitted shapes and on the held-out ones.
    let ratios = pick_ratios(Ranking::Model);
    for (shape, held, r, best) in &ratios {
        println!("{shape:?}{}: pick / best {r:.3} (best {best:.1} µs)", if *held { " (held out)" } else { "" });
    }
    let close = ratios.iter().filter(|x| x.2 >= 0.95).count();
    assert!(close * 4 >= ratios.len() * 3, "{close} of {} within 5 %", ratios.len());
    let known = |shape: &(u32, u32, u32)| KNOWN_MISSES.iter().any(|(s, _)| s == shape);
    for (shape, _, r, best) in ratios.iter().filter(|x| !known(&x.0)) {
        assert!(*r >= if *best >= 20.0 { 0.80 } else { 0.70 }, "{shape:?}: {r:.3} of the best ({best:.1} µs)");
    }
    for (miss, floor) in KNOWN_MISSES {
        let r = ratios.iter().find(|x| x.0 == miss).map(|x| x.2);
        assert!(r.is_some(), "known miss {miss:?} is not in the table");
        assert!(r.is_some_and(|r| r >= floor), "{miss:?}: a known miss got worse: {r:?} of the best");
    }
    for held_out in [false, true] {
        let part: Vec<f64> = ratios.iter().filter(|x| x.1 == held_out).map(|x| x.2).collect();
        let geomean = (part.iter().map(|r| r.ln()).sum::<f64>() / part.len() as f64).exp();
        println!("held out {held_out}: {} shapes, geometric mean {geomean:.3}", part.len());
        assert!(geomean >= 0.95, "held out {held_out}: geometric mean {geomean:.3}");
    }
}

#[test]
fn measured_residuals_improve_the_picks_on_shapes_they_have_not_seen() {
    // Each shape ranked by the model × its residuals on the *other* calibrated shapes (leave one
    // out): fewer picks below 0.95 of the fastest than the model alone — by a quarter at least — a
    // geometric mean no lower, and no shape below the floors of the test above.
    let (model, corrected) = (pick_ratios(Ranking::Model), pick_ratios(Ranking::ResidualsLeavingOut));
    let ((model_mean, model_below), (mean, below)) = (summary(&model), summary(&corrected));
    println!(
        "{} shapes: model alone {model_mean:.4}, {model_below} below 0.95; with residuals (left out) {mean:.4}, {below} below 0.95",
        model.len()
    );
    for (shape, _, r, best) in corrected.iter().filter(|x| x.2 < 0.95) {
        println!("{shape:?}: pick / best {r:.3} (best {best:.1} µs)");
    }
    assert!(below * 4 <= model_below * 3, "{below} below 0.95 with residuals, {model_below} without");
    assert!(mean >= model_mean, "geometric mean {mean:.4} with residuals, {model_mean:.4} without");
    for (shape, _, r, best) in &corrected {
        assert!(*r >= if *best >= 20.0 { 0.80 } else { 0.60 }, "{shape:?}: {r:.3} of the best ({best:.1} µs)");
    }
}

#[test]
fn the_tuning_shortlist_holds_a_kernel_near_the_best_on_shapes_it_has_not_seen() {
    use tessera_catalogue::select::shortlist::{shortlist, Candidate};
    use tessera_catalogue::Choice;
    // Tuning on request times `shortlist`'s candidates and keeps the fastest. Each table shape priced
    // as `Auto` would price it with its own rows left out (model × residuals of the other shapes),
    // the shortlist's rule applied to its measured kernels (every FP32 kernel with constants, the pick
    // first): the fastest of the shortlist must be within 0.95 of the fastest measured kernel.
    let (mut shapes, mut timed, mut worst) = (0, 0, (1.0f64, (0, 0, 0)));
    for ((m, n, k), (_, rows)) in table() {
        let shape = MatmulShape { m, n, k };
        let near = tuning::residuals().near(shape, true);
        let priced: Vec<(Candidate, f64)> = rows
            .iter()
            .map(|r| {
                let us = tuning::predict_us(r.algo, shape, r.splits, tuning::SMS).unwrap() * near.factor(r.algo);
                (Candidate { choice: Choice::Kernel(r.algo), expected_us: us }, r.us)
            })
            .collect();
        let pick = priced
            .iter()
            .filter(|(c, _)| matches!(c.choice, Choice::Kernel(a) if tuning::is_candidate(a, shape)))
            .min_by(|a, b| a.0.expected_us.total_cmp(&b.0.expected_us))
            .unwrap()
            .0
            .choice;
        let list = shortlist(pick, priced.iter().map(|x| x.0).collect());
        let measured = |c: &Candidate| priced.iter().find(|x| x.0.choice == c.choice).unwrap().1;
        let fastest_listed = list.iter().map(measured).fold(f64::INFINITY, f64::min);
        let best = rows.iter().map(|r| r.us).fold(f64::INFINITY, f64::min);
        (shapes, timed) = (shapes + 1, timed + list.len());
        if best / fastest_listed < worst.0 {
            worst = (best / fastest_listed, (m, n, k));
        }
    }
    println!(
        "{shapes} shapes, {:.2} candidates timed per shape, lowest fastest-listed / best {:.3} at {:?}",
        timed as f64 / shapes as f64,
        worst.0,
        worst.1
    );
    assert!(worst.0 >= 0.95, "{:?}: the shortlist's fastest at {:.3} of the best", worst.1, worst.0);
    assert!(timed <= 4 * shapes, "{timed} candidates over {shapes} shapes: tuning should time a few");
}
