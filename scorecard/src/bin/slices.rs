//! `slices`: named split-K and persistent kernels at K slice counts the caller chooses
//! (`GemmParams::k_slices`) beside `Auto` and cuBLAS, BF16 inputs, `f32` `C`, one process, the same
//! operands: the measurements a refit of the models' slice counts needs (`tc_model::MAX_SPLITS`, fitted
//! on outputs of 10⁵–10⁶ elements, and tiny outputs with a long K).
//!
//! Per shape, CUDA events around a batch of launches after a warm-up (no synchronize inside), the
//! median of `--repeat` batches; each result checked first on sampled rows against the f64 reference
//! (`Precision::tolerance`). A slice count a kernel cannot take is recorded with the refusal. Each
//! named run carries the models' price of it on this GPU's SMs (`predicted_ms`: `tc_model` for the TMA
//! kernels, `tuning` for the others), to refit against. One JSON object per shape on stdout and in
//! `--out`.
use std::cell::RefCell;

use clap::Parser;
use tessera::catalogue::precision::Precision;
use tessera::catalogue::select::{tc_model, tuning};
use tessera::catalogue::MatmulShape;
use tessera::{Algo, DeviceMatrix, GemmParams, GpuTimer, MatrixMut, MatrixRef};
use tessera_anchors::Cublas;

#[path = "../bin_common.rs"]
mod bin_common;
use bin_common::{bf16_operands, gpu_or_skip, median_ms, parse_shape, worst_sampled, Fail};

#[derive(Parser, Debug)]
#[command(about = "named kernels at chosen K slice counts beside Auto and cuBLAS (BF16, f32 C), same process")]
struct Args {
    /// Shapes `MxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "184x37x15336,512x6x1568,128x128x16384")]
    shapes: Vec<String>,
    /// Kernels timed at each slice count (split-K or persistent ones), by label.
    #[arg(long, value_delimiter = ',', default_value = "persistent-bf16-64x128,persistent-bf16-128x128,mma-splitk-bf16-128x32")]
    kernels: Vec<String>,
    /// K slice counts.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4,6,8,12,16,24,32,48")]
    slices: Vec<u32>,
    /// Timed batches per run (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Rows of each product checked against the f64 reference.
    #[arg(long, default_value_t = 3)]
    sampled_rows: usize,
    /// Where to write the JSON lines.
    #[arg(long, default_value = "slices.jsonl")]
    out: String,
}

/// The worst error ÷ tolerance over the sampled `rows` of `got` (`m × n`) against `a · b` in f64.
fn sampled(got: &[f32], a: &[f32], b: &[f32], (n, k): (usize, usize), rows: &[usize]) -> f64 {
    worst_sampled(got, (a, b), (n, k), rows, |_, v, abs, got| ((got - v).abs(), Precision::Bf16.tolerance(k, abs)))
}

fn main() -> Result<(), Fail> {
    let args = Args::parse();
    let Some(gpu) = gpu_or_skip() else { return Ok(()) };
    let gpu = &gpu;
    let blas = Cublas::new(gpu)?;
    let timer = GpuTimer::new(gpu)?;
    let kernels: Vec<Algo> =
        args.kernels.iter().map(|l| Algo::from_label(l).ok_or_else(|| format!("no kernel `{l}`"))).collect::<Result<_, _>>()?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    for s in &args.shapes {
        let (m, n, k) = parse_shape(s)?;
        let (ah, bh, a, b) = bf16_operands(gpu, m, n, k)?;
        let c = RefCell::new(DeviceMatrix::<f32>::zeros(gpu, m, n)?);
        let rows: Vec<usize> = (0..args.sampled_rows.min(m)).map(|i| i * (m - 1) / args.sampled_rows.saturating_sub(1).max(1)).collect();
        let gemm = |params: &GemmParams| -> Result<(), Fail> {
            let mut c = c.borrow_mut();
            let (ar, br) = (MatrixRef::row_major(a.buffer(), m, k), MatrixRef::row_major(b.buffer(), k, n));
            Ok(gpu.gemm(params, ar, br, MatrixMut::row_major(c.buffer_mut(), m, n))?)
        };
        let mut row = serde_json::json!({ "m": m, "n": n, "k": k, "precision": "bf16" });
        eprintln!("{m}×{n}×{k}");
        let mut runs: Vec<(String, GemmParams)> = vec![("tessera_auto".into(), GemmParams::new())];
        for &algo in &kernels {
            runs.extend(args.slices.iter().map(|&s| (format!("{}_x{s}", algo.label()), GemmParams::new().algo(algo).k_slices(s))));
        }
        // The models' price of a named run (µs → ms), on this GPU's SMs.
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        let price = |params: &GemmParams| -> Option<f64> {
            let (algo, slices) = (params.algo, params.k_slices?);
            let tma = algo.config().is_some_and(|c| c.tma || c.producer_copies);
            let us = if tma {
                tc_model::predict_us(algo, shape, slices, gpu.sm_count())
            } else {
                tuning::predict_us(algo, shape, slices, gpu.sm_count())
            };
            us.map(|us| us / 1e3)
        };
        // One run's JSON: its median time and checked error, or the refusal.
        let timed = |name: &str, run: &dyn Fn() -> Result<(), Fail>| -> Result<serde_json::Value, Fail> {
            if let Err(e) = run() {
                return Ok(serde_json::json!({ "refused": e.to_string() }));
            }
            gpu.synchronize()?;
            let err = sampled(&c.borrow().to_vec(gpu)?, &ah, &bh, (n, k), &rows);
            let ms = median_ms(gpu, &timer, args.repeat, run)?;
            eprintln!("  {name:<32} {:>9.2} µs  error/tol {err:.3}{}", ms * 1e3, if err > 1.0 { "  FAILS" } else { "" });
            Ok(serde_json::json!({ "ms": ms, "error_over_tolerance": err }))
        };
        row["cublas"] = timed("cublas", &|| Ok(blas.gemm_bf16(a.buffer(), b.buffer(), c.borrow_mut().buffer_mut(), m, n, k)?))?;
        for (name, params) in &runs {
            let mut entry = timed(name, &|| gemm(params))?;
            if let Some(ms) = price(params) {
                entry["predicted_ms"] = serde_json::json!(ms);
            }
            row[name.as_str()] = entry;
        }
        println!("{row}");
        use std::io::Write;
        writeln!(out, "{row}")?;
    }
    Ok(())
}
