//! Prints `Algo::Auto`'s FP32 plan for the shapes of a scorecard run, as CSV: every FP32 kernel with
//! the slice count it launches (split-K: the model's choice), the model's predicted time and the time
//! `Auto` expects (× the measured residuals near the shape, `tuning::expected_us`), whether
//! `Auto` runs it in place, and, where N or K is unaligned, the kernel `Auto` runs on padded copies
//! instead when the model finds that faster (`fp32_padding::choose_padding`; empty otherwise), and whether
//! tuning on request times the kernel in place (`shortlist::shortlist_on`). The model is deterministic, so this run at a commit gives the plans the
//! scorecard launched at that commit (`scripts/fit-auto-model.py` reads them).
//!
//!     cargo run -p tessera-catalogue --example plans -- --sizes 4096,1000x1037x519 --random-shapes 32 --seed 7 [--random-max-flops F]
use tessera_catalogue::select::shortlist::shortlist_on;
use tessera_catalogue::select::{fp32_padding, tuning};
use tessera_catalogue::testkit::random;
use tessera_catalogue::{Choice, MatmulShape, Precision, MATMUL_KERNELS};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let mut shapes = Vec::new();
    for size in value("--sizes").unwrap_or_default().split(',').filter(|s| !s.is_empty()) {
        shapes.push(size.parse::<MatmulShape>()?);
    }
    let count: usize = value("--random-shapes").map_or(Ok(0), |v| v.parse()).map_err(|e| format!("--random-shapes: {e}"))?;
    if count > 0 {
        let seed: u64 = value("--seed").ok_or("--random-shapes needs --seed")?.parse().map_err(|e| format!("--seed: {e}"))?;
        let max: f64 =
            value("--random-max-flops").map_or(Ok(2.0 * 4096f64.powi(3)), |v| v.parse()).map_err(|e| format!("--random-max-flops: {e}"))?;
        shapes.extend(random::matmul_shapes(count, seed, max));
    }
    println!("m,n,k,kernel,splits,predicted_us,auto,padded,expected_us,shortlisted");
    for s in shapes {
        let auto = tuning::least_expected_on(s, tuning::SMS).0;
        let padded = fp32_padding::choose_padding(s, tuning::SMS).map_or("", |p| p.algo.label());
        let listed = shortlist_on(s, tuning::SMS);
        for kernel in MATMUL_KERNELS.iter().filter(|k| k.precision == Precision::Fp32) {
            let splits = tuning::splits_on(kernel.algo, s, tuning::SMS);
            let us = tuning::predict_us(kernel.algo, s, splits, tuning::SMS).unwrap_or(f64::NAN);
            let expected = tuning::expected_us(kernel.algo, s, splits, tuning::SMS).unwrap_or(f64::NAN);
            let picked = u8::from(kernel.algo == auto);
            let timed = u8::from(listed.iter().any(|c| c.choice == Choice::Kernel(kernel.algo)));
            println!("{},{},{},{},{splits},{us:.2},{picked},{padded},{expected:.2},{timed}", s.m, s.n, s.k, kernel.label);
        }
    }
    Ok(())
}
