//! Prints the tensor-core models' view of shapes, as CSV: every TMA kernel of each precision with the
//! K slices it would launch (`tc_model::best_splits`) and its predicted time, every kernel that reads
//! its operands in place with the slices it would launch (`tuning::splits_on`) and its predicted time (`select::expected_us`, as the
//! scorecard records beside each Rust row), and the kernel
//! `Auto` picks among them all (`select::model_choice` on the H200). The model is deterministic: a run at a commit gives the plans the scorecard
//! launched at that commit, to set beside measured times when fitting its constants (`docs/tuning.md`).
//!
//!     cargo run -p tessera-catalogue --example tc_plans -- --sizes 3000,64x4096x4096 [--precisions bf16,tf32]
use tessera_catalogue::select::{expected_us, model_choice, tc_model, tuning};
use tessera_catalogue::{MatmulShape, Precision, Target, MATMUL_KERNELS};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let mut shapes = Vec::new();
    for size in value("--sizes").ok_or("--sizes is required")?.split(',').filter(|s| !s.is_empty()) {
        shapes.push(size.parse::<MatmulShape>()?);
    }
    let mut precisions = Vec::new();
    for p in value("--precisions").unwrap_or_else(|| "bf16,fp16,tf32".into()).split(',') {
        precisions.push(match p {
            "bf16" => Precision::Bf16,
            "fp16" => Precision::Fp16,
            "tf32" => Precision::Tf32,
            "fp8e4m3" => Precision::Fp8E4m3,
            "fp8e5m2" => Precision::Fp8E5m2,
            other => return Err(format!("no tensor-core precision `{other}`")),
        });
    }
    println!("m,n,k,precision,kernel,splits,predicted_us,auto,in_place");
    for s in shapes {
        for &p in &precisions {
            let auto = model_choice(s, p, Target::H200).kernel();
            for kernel in MATMUL_KERNELS.iter().filter(|k| k.precision == p) {
                let splits = if kernel.config.tma || kernel.config.producer_copies {
                    tc_model::best_splits(kernel.algo, s, tuning::SMS).0
                } else {
                    tuning::splits_on(kernel.algo, s, tuning::SMS)
                };
                let us = match expected_us(kernel.algo, s, Target::H200) {
                    Some(us) => us,
                    None if kernel.config.tma || kernel.config.producer_copies => f64::INFINITY,
                    None => continue,
                };
                let picked = u8::from(auto == kernel.algo);
                // Whether the TMA kernels read both operands in place (no copy of rows off a sector).
                let in_place = tc_model::best_packing(kernel.algo, s, splits, tuning::SMS).map_or(1, |(pk, _)| u8::from(pk.in_place()));
                println!("{},{},{},{},{},{splits},{us:.2},{picked},{in_place}", s.m, s.n, s.k, p.label(), kernel.label);
            }
        }
    }
    Ok(())
}
