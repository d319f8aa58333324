//! `Algo::Auto`'s tensor-core model (`tc_model`) against the measured table
//! (`tests/data/tc-calibration.csv`: every TMA kernel's time on 16 shapes in TF32, BF16 and FP16 on the
//! H200, and on 11 short-K shapes whose time is mostly the epilogue in BF16 and TF32, with the K slices
//! each launch used; `docs/tuning.md` says which run, and what the constants were fitted to).
use std::collections::BTreeMap;

use tessera_catalogue::select::{tc_model, tuning};
use tessera_catalogue::{Algo, MatmulShape};

struct Row {
    algo: Algo,
    splits: u32,
    us: f64,
}

/// The table, by (precision label, shape).
fn table() -> BTreeMap<(String, u32, u32, u32), Vec<Row>> {
    let mut out: BTreeMap<(String, u32, u32, u32), Vec<Row>> = BTreeMap::new();
    for line in include_str!("data/tc-calibration.csv").lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| f[i].parse::<u32>().unwrap();
        let algo = Algo::from_label(f[0]).unwrap_or_else(|| panic!("unknown kernel {}", f[0]));
        let precision = format!("{:?}", algo.precision().unwrap());
        out.entry((precision, num(1), num(2), num(3))).or_default().push(Row { algo, splits: num(4), us: f[5].parse().unwrap() });
    }
    out
}

fn predicted(r: &Row, shape: MatmulShape) -> f64 {
    tc_model::predict_us(r.algo, shape, r.splits, tuning::SMS).unwrap()
}

#[test]
fn the_model_predicts_the_measured_times_within_its_stated_error() {
    let mut errors: Vec<f64> = Vec::new();
    for ((p, m, n, k), rows) in table() {
        let shape = MatmulShape { m, n, k };
        for r in &rows {
            let e = (predicted(r, shape) / r.us).ln().abs();
            println!("{p} {m}×{n}×{k} {:?} ×{}: predicted {:.1} µs, measured {:.1} µs", r.algo, r.splits, predicted(r, shape), r.us);
            errors.push(e);
        }
    }
    errors.sort_by(f64::total_cmp);
    let (median, p90) = (errors[errors.len() / 2], errors[errors.len() * 9 / 10]);
    println!("|log(predicted / measured)|: median {median:.3}, 90th percentile {p90:.3} over {} rows", errors.len());
    assert!(errors.len() >= 140, "the table lost rows: {}", errors.len());
    assert!(median < 0.08, "median |log| {median:.3}");
    assert!(p90 < 0.30, "90th percentile |log| {p90:.3}");
}

#[test]
fn the_kernel_the_model_ranks_first_is_near_the_fastest_measured() {
    // Among the measured rows (at their measured slice counts): the model's first choice over the
    // fastest, per shape and precision. One known miss: 3000³, where kernel 16 ran 17–47 % slower
    // than predicted on both tiles (kernel 15 as predicted) — unexplained, documented in
    // docs/tuning.md.
    let mut worst = (1.0f64, String::new());
    let mut ratios = Vec::new();
    for ((p, m, n, k), rows) in table() {
        let shape = MatmulShape { m, n, k };
        let pick = rows.iter().min_by(|a, b| predicted(a, shape).total_cmp(&predicted(b, shape))).unwrap();
        let best = rows.iter().map(|r| r.us).fold(f64::INFINITY, f64::min);
        let ratio = best / pick.us;
        println!("{p} {m}×{n}×{k}: ranks {:?} first, {ratio:.3} of the fastest", pick.algo);
        if (m, n, k) != (3000, 3000, 3000) && ratio < worst.0 {
            worst = (ratio, format!("{p} {m}×{n}×{k}"));
        }
        ratios.push(ratio);
    }
    let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    println!("geometric mean {geomean:.3}; lowest (3000³ aside) {:.3} at {}", worst.0, worst.1);
    assert!(geomean > 0.95, "geometric mean {geomean:.3}");
    assert!(worst.0 > 0.85, "{:.3} at {}", worst.0, worst.1);
}
