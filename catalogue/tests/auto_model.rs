//! `Algo::Auto`'s FP32 model against the measured calibration table (`tests/data/auto-calibration.csv`:
//! every FP32 kernel's time on the shapes of two H200 scorecard runs, with the split-K slice count each
//! launch used; `docs/tuning.md` says which runs and which shapes were held out of the fit).
use std::collections::BTreeMap;

use tessera_catalogue::{tuning, Algo, MatmulShape};

struct Row {
    algo: Algo,
    splits: u32,
    us: f64,
}

/// The table, by shape; `held` is true for the shapes the constants were not fitted on.
fn table() -> BTreeMap<(u32, u32, u32), (bool, Vec<Row>)> {
    let mut out: BTreeMap<(u32, u32, u32), (bool, Vec<Row>)> = BTreeMap::new();
    for line in include_str!("data/auto-calibration.csv").lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| f[i].parse::<u32>().unwrap();
        let algo = Algo::from_label(f[3]).unwrap_or_else(|| panic!("unknown kernel {}", f[3]));
        let entry = out.entry((num(0), num(1), num(2))).or_insert((f[6] == "1", Vec::new()));
        entry.1.push(Row { algo, splits: num(4), us: f[5].parse().unwrap() });
    }
    out
}

/// A shape, whether it was held out, the pick ÷ best ratio, and the fastest time (µs).
type PickRatio = ((u32, u32, u32), bool, f64, f64);

/// Per shape: the measured time of the kernel the model ranks first (among the measured rows, at
/// their measured slice counts) over the fastest measured one, and that fastest time (µs).
fn pick_ratios() -> Vec<PickRatio> {
    table()
        .into_iter()
        .map(|((m, n, k), (held, rows))| {
            let shape = MatmulShape { m, n, k };
            let predicted = |r: &Row| tuning::predict_us(r.algo, shape, r.splits, tuning::SMS).unwrap();
            let pick =
                rows.iter().filter(|r| tuning::is_candidate(r.algo, shape)).min_by(|a, b| predicted(a).total_cmp(&predicted(b))).unwrap();
            let best = rows.iter().map(|r| r.us).fold(f64::INFINITY, f64::min);
            ((m, n, k), held, best / pick.us, best)
        })
        .collect()
}

#[test]
fn the_table_covers_every_fp32_kernel_and_holds_shapes_out() {
    let t = table();
    assert!(t.len() >= 60, "{} shapes", t.len());
    assert!(t.values().filter(|(held, _)| *held).count() >= 10);
    for kernel in tessera_catalogue::MATMUL_KERNELS.iter().filter(|k| k.precision == tessera_catalogue::Precision::Fp32) {
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
/// (160×1×2030, a known miss at 0.436 until the blocks adding into a tile were priced
/// (`tuning::ADDS_DEPTH_US`), now picks kernel 19 at 1.000.)
const KNOWN_MISSES: [((u32, u32, u32), f64); 2] = [((10891, 62, 312), 0.75), ((3, 16, 608), 0.55)];

#[test]
fn the_model_picks_the_measured_best_within_tolerance() {
    // The stated tolerance (docs/tuning.md): the model's first choice measured at least 0.95 of the
    // fastest kernel on three shapes in four, 0.80 on every shape where the fastest takes 20 µs or
    // more, 0.70 on the launch-bound rest (4–6 µs launches, where run-to-run noise is of that order);
    // geometric mean at least 0.95 on the fitted shapes and on the held-out ones.
    let ratios = pick_ratios();
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
