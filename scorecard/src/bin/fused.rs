//! `fused`: kernel 27 (a product finishing its sums in the kernel: `act(A·B + bias)`, a 16-bit `C`)
//! beside the same product without an epilogue and beside cuBLAS, in one process, on the same
//! operands: `y = GELU(x·w + bias)` with `y` in BF16 (a linear layer), its identity with BF16 out,
//! tessera's plain `Auto` (`f32` out) and cuBLAS `GemmEx` (`f32` out). torch's fused
//! `_addmm_activation` (cuBLASLt's GELU epilogue) is timed in the same lease by
//! `scripts/fused_torch_anchor.py`.
//!
//! Per shape, CUDA events around a batch of launches after a warm-up (no synchronize inside), the
//! median of `--repeat` batches. `--kernels` times named kernel-27 tiles (and kernel 31) on the same product too. Each result is checked first on sampled rows against the f64
//! reference through the epilogue rule (`check_epilogue`'s tolerance). One JSON object per shape on
//! stdout and in `--out`; `epilogue_cost` is fused ÷ plain time − 1.
use std::cell::RefCell;

use clap::Parser;
use tessera::catalogue::precision::Precision;
use tessera::catalogue::testkit::check::{ACTIVATION_SLOPE, ACTIVATION_ULPS};
use tessera::{bf16, Activation, Algo, BiasKind, DeviceBuffer, DeviceMatrix, FusedParams, GpuTimer, OutputFormat};
use tessera_anchors::Cublas;

#[path = "../bin_common.rs"]
mod bin_common;
use bin_common::{bf16_operands, gpu_or_skip, median_ms, parse_shape, worst_sampled, Fail};

/// One implementation's product into its `C`.
type Run<'a> = Box<dyn Fn() -> Result<(), Fail> + 'a>;

#[derive(Parser, Debug)]
#[command(about = "kernel 27 (fused bias + GELU, BF16 out) beside the plain product and cuBLAS, same process")]
struct Args {
    /// Shapes `MxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "8192x4096x4096,8192x14336x4096,4096x4096x4096")]
    shapes: Vec<String>,
    /// Timed batches per implementation (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Rows of each product checked against the f64 reference.
    #[arg(long, default_value_t = 3)]
    sampled_rows: usize,
    /// Kernels that finish their sums also timed by name on the same product (bias + GELU into BF16),
    /// beside `Auto`'s pick: how its model ranks kernel 27's tiles, and kernel 31's ping-pong schedule.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "fused-bf16-128x256,fused-bf16-128x192,fused-bf16-128x128,pingpong-bf16-128x128,pingpong-pairs-bf16-128x128"
    )]
    kernels: Vec<String>,
    /// Where to write the JSON lines.
    #[arg(long, default_value = "fused.jsonl")]
    out: String,
}

/// The worst error ÷ tolerance over the sampled rows of `got` (`m × n`), for `act(a·b + bias)`
/// written in `out` (the epilogue rule of `check_epilogue`).
#[allow(clippy::too_many_arguments)]
fn sampled(
    got: &[f32],
    a: &[f32],
    b: &[f32],
    bias: &[f32],
    (n, k): (usize, usize),
    rows: &[usize],
    act: Activation,
    out: OutputFormat,
) -> f64 {
    let p = Precision::Bf16;
    worst_sampled(got, (a, b), (n, k), rows, |c, v, abs, got| {
        let y = act.reference(v + f64::from(bias[c]));
        let tol = ACTIVATION_SLOPE * p.tolerance(k, abs) + ACTIVATION_ULPS * f64::from(f32::EPSILON) * (y.abs() + 1.0);
        let tol = tol + out.unit_roundoff() * (y.abs() + tol);
        ((got - y).abs(), tol)
    })
}

fn main() -> Result<(), Fail> {
    let args = Args::parse();
    let Some(gpu) = gpu_or_skip() else { return Ok(()) };
    let gpu = &gpu;
    let blas = Cublas::new(gpu)?;
    let timer = GpuTimer::new(gpu)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    for s in &args.shapes {
        let (m, n, k) = parse_shape(s)?;
        let (ah, bh, a, b) = bf16_operands(gpu, m, n, k)?;
        let bias_h: Vec<f32> = (0..n).map(|j| ((j * 7 % 11) as f32 - 5.0) * 0.25).collect();
        let bias = DeviceBuffer::from_host(gpu, &bias_h)?;
        let c32 = RefCell::new(DeviceMatrix::<f32>::zeros(gpu, m, n)?);
        let c16 = RefCell::new(DeviceMatrix::<bf16>::zeros(gpu, m, n)?);
        let gelu = FusedParams::new().bias(BiasKind::PerColumn, &bias).activation(Activation::GeluTanh);
        let zero = vec![0.0f32; n];
        let named: Vec<(Algo, FusedParams<'_>)> = args
            .kernels
            .iter()
            .map(|label| Algo::from_label(label).map(|algo| (algo, gelu.algo(algo))).ok_or_else(|| format!("no kernel `{label}`")))
            .collect::<Result<_, _>>()?;
        let mut runs: Vec<(&str, Activation, OutputFormat, &[f32], Run<'_>)> = vec![
            (
                "tessera_gelu_bf16",
                Activation::GeluTanh,
                OutputFormat::Bf16,
                &bias_h,
                Box::new(|| Ok(gpu.matmul_fused(&gelu, &a, &b, &mut c16.borrow_mut())?)),
            ),
            (
                "tessera_bf16_out",
                Activation::Identity,
                OutputFormat::Bf16,
                &zero,
                Box::new(|| Ok(gpu.matmul_fused(&FusedParams::new(), &a, &b, &mut c16.borrow_mut())?)),
            ),
            (
                "tessera_plain",
                Activation::Identity,
                OutputFormat::F32,
                &zero,
                Box::new(|| Ok(gpu.matmul(Algo::Auto, &a, &b, &mut c32.borrow_mut())?)),
            ),
            (
                "cublas",
                Activation::Identity,
                OutputFormat::F32,
                &zero,
                Box::new(|| Ok(blas.gemm_bf16(a.buffer(), b.buffer(), c32.borrow_mut().buffer_mut(), m, n, k)?)),
            ),
        ];
        for (algo, params) in &named {
            let run: Run<'_> = Box::new(|| Ok(gpu.matmul_fused(params, &a, &b, &mut c16.borrow_mut())?));
            runs.push((algo.label(), Activation::GeluTanh, OutputFormat::Bf16, &bias_h, run));
        }
        let rows: Vec<usize> = (0..args.sampled_rows.min(m)).map(|i| i * (m - 1) / args.sampled_rows.saturating_sub(1).max(1)).collect();
        let mut row = serde_json::json!({ "m": m, "n": n, "k": k, "precision": "bf16" });
        eprintln!("{m}×{n}×{k}");
        for (name, act, format, bias_used, run) in &runs {
            run()?;
            gpu.synchronize()?;
            let got: Vec<f32> = match format {
                OutputFormat::F32 => c32.borrow().to_vec(gpu)?,
                _ => c16.borrow().to_vec(gpu)?.iter().map(|x| x.to_f32()).collect(),
            };
            let err = sampled(&got, &ah, &bh, bias_used, (n, k), &rows, *act, *format);
            let ms = median_ms(gpu, &timer, args.repeat, run)?;
            let tflops = 2.0 * (m * n * k) as f64 / ms / 1e9;
            row[*name] = serde_json::json!({ "ms": ms, "tflops": tflops, "error_over_tolerance": err });
            eprintln!("  {name:<20} {ms:>9.4} ms {tflops:>7.1} TFLOP/s  error/tol {err:.3}{}", if err > 1.0 { "  FAILS" } else { "" });
        }
        let ms = |name: &str| row[name]["ms"].as_f64().unwrap_or(f64::NAN);
        let (cost, over) = (ms("tessera_gelu_bf16") / ms("tessera_plain") - 1.0, ms("cublas") / ms("tessera_gelu_bf16"));
        row["epilogue_cost"] = serde_json::json!(cost);
        row["gelu_bf16_over_cublas_f32"] = serde_json::json!(over);
        println!("{row}");
        use std::io::Write;
        writeln!(out, "{row}")?;
    }
    Ok(())
}
