//! `fp8`: kernel 25 (tessera's FP8 GEMM) beside cuBLASLt FP8 in the same process, on the same
//! FP8 operands and scales: E4M3 or E5M2, `A` (`m × k`) and `Bᵀ` (`n × k`, the layout both read
//! without a transposition), `f32` output.
//!
//! Per shape, CUDA events around a batch of launches after a warm-up (no synchronize inside), the
//! median of `--repeat` batches, for: tessera `Auto` (promoted, per-tensor scales), its unpromoted
//! entry (`*_fast`), its block-scaled entry (1 × 128 / 128 × 128 scales), the promoted and
//! block-scaled tiles in clusters of two sharing `Bᵀ` (`*_pairs`, by name), and cuBLASLt with
//! `FAST_ACCUM` off (promoted, torch `_scaled_mm`'s default) and on. Each result is checked first:
//! tessera's promoted and block-scaled products against the f64 reference of sampled rows within FP8's
//! rule (`Precision::tolerance`), cuBLASLt's against the same reference (reported), and the
//! unpromoted products' error reported beside them.
//!
//! Shapes: `--shapes` (`MxNxK`, K a multiple of 16) and `--random N --seed S` random ones (M, N in
//! 64..=8192, K a multiple of 16 in 256..=8192). One JSON object per shape on stdout and in `--out`.
use std::time::Instant;

use clap::Parser;
use tessera::catalogue::precision::Precision;
use tessera::float8::{F8E4M3, F8E5M2};
use tessera::{
    bf16, Activation, Algo, BiasKind, DeviceBuffer, DeviceMatrix, Fp8Format, Fp8Params, Fp8Rhs, Fp8Scales, Gpu, GpuTimer, OutputFormat,
};
use tessera_anchors::cublaslt_fp8::CublasLtFp8;

type Fail = Box<dyn std::error::Error + Send + Sync>;

/// One implementation's product into its `C` (f32 or BF16, held by the closure).
type Product<'a> = Box<dyn Fn() -> Result<(), Fail> + 'a>;

#[derive(Parser, Debug)]
#[command(about = "kernel 25 (FP8) beside cuBLASLt FP8, same process")]
struct Args {
    /// Shapes `MxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4096x4096x4096,8192x8192x8192,8192x14336x4096,8192x4096x14336")]
    shapes: Vec<String>,
    /// Random shapes besides them.
    #[arg(long, default_value_t = 0)]
    random: usize,
    /// Seed of the random shapes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `e4m3` or `e5m2`.
    #[arg(long, default_value = "e4m3")]
    format: String,
    /// Timed batches per implementation (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Rows of each product checked against the f64 reference.
    #[arg(long, default_value_t = 3)]
    sampled_rows: usize,
    /// Where to write the JSON lines.
    #[arg(long, default_value = "fp8.jsonl")]
    out: String,
    /// Names each implementation on stderr before it runs (which one a stalled run is in).
    #[arg(long)]
    verbose: bool,
}

/// A xorshift stream for the operands and the random shapes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn parse(s: &str) -> Result<(usize, usize, usize), Fail> {
    let v: Vec<usize> = s.split('x').map(str::parse).collect::<Result<_, _>>()?;
    match v[..] {
        [m, n, k] => Ok((m, n, k)),
        _ => Err(format!("shape `{s}`: expected MxNxK").into()),
    }
}

/// The f64 reference of row `r` of `scale · A·B` from the FP8 operands (`a` row-major `m × k`, `bt`
/// `n × k`, as `f32` values), with each element's `Σ|a·b|`.
fn reference_row(a: &[f32], bt: &[f32], k: usize, r: usize, scale: f64) -> (Vec<f64>, Vec<f64>) {
    let row = &a[r * k..(r + 1) * k];
    bt.chunks(k)
        .map(|col| {
            let (mut s, mut abs) = (0.0f64, 0.0f64);
            for (x, y) in row.iter().zip(col) {
                let p = f64::from(*x) * f64::from(*y);
                s += p;
                abs += p.abs();
            }
            (s * scale, abs * scale.abs())
        })
        .unzip()
}

/// The worst `|got − reference| / tolerance` over sampled rows (≤ 1 passes; the tolerance of
/// `check_product_out`: the product's, plus `output`'s rounding) and the worst `|got − reference| / Σ|a·b|`.
fn sampled_error(got: &[f32], n: usize, rows: &[(usize, Vec<f64>, Vec<f64>)], p: Precision, output: OutputFormat, k: usize) -> (f64, f64) {
    let (mut worst_tol, mut worst_rel) = (0.0f64, 0.0f64);
    for (r, value, abs) in rows {
        for c in 0..n {
            let err = (f64::from(got[r * n + c]) - value[c]).abs();
            let err = if err.is_nan() { f64::INFINITY } else { err };
            let tol = p.tolerance(k, abs[c]);
            worst_tol = worst_tol.max(err / (tol + output.unit_roundoff() * (value[c].abs() + tol)));
            worst_rel = worst_rel.max(err / abs[c].max(f64::MIN_POSITIVE));
        }
    }
    (worst_tol, worst_rel)
}

fn run<F: Fp8Format>(gpu: &Gpu, args: &Args, shapes: &[(usize, usize, usize)], out: &mut impl std::io::Write) -> Result<(), Fail> {
    let p = F::PRECISION;
    let lt = CublasLtFp8::new(gpu)?;
    let timer = GpuTimer::new(gpu)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ args.seed);
    for &(m, n, k) in shapes {
        let started = Instant::now();
        // Operands in [-1, 1) as f32, rounded to FP8 on the GPU; the host keeps the FP8 values.
        let (ah, bh): (Vec<f32>, Vec<f32>) = ((0..m * k).map(|_| rng.unit()).collect(), (0..n * k).map(|_| rng.unit()).collect());
        let (a32, b32) = (DeviceMatrix::from_slice(gpu, m, k, &ah)?, DeviceMatrix::from_slice(gpu, n, k, &bh)?);
        let (mut a, mut bt) = (DeviceMatrix::<F>::zeros(gpu, m, k)?, DeviceMatrix::<F>::zeros(gpu, n, k)?);
        gpu.convert_to_fp8(&a32, &mut a)?;
        gpu.convert_to_fp8(&b32, &mut bt)?;
        drop((a32, b32));
        let (aq, bq): (Vec<f32>, Vec<f32>) =
            (ah.iter().map(|&x| p.round_input(x)).collect(), bh.iter().map(|&x| p.round_input(x)).collect());
        let (sa, sb) = (DeviceBuffer::from_host(gpu, &[0.5f32])?, DeviceBuffer::from_host(gpu, &[2.0f32])?);
        let kb = k.div_ceil(128);
        let (bsa, bsb) =
            (DeviceBuffer::from_host(gpu, &vec![0.5f32; m * kb])?, DeviceBuffer::from_host(gpu, &vec![2.0f32; n.div_ceil(128) * kb])?);
        let c = std::cell::RefCell::new(DeviceMatrix::<f32>::zeros(gpu, m, n)?);
        let c16 = std::cell::RefCell::new(DeviceMatrix::<bf16>::zeros(gpu, m, n)?);
        let sampled: Vec<(usize, Vec<f64>, Vec<f64>)> = (0..args.sampled_rows.min(m))
            .map(|i| {
                let r = if args.sampled_rows <= 1 { 0 } else { i * (m - 1) / (args.sampled_rows - 1).max(1) };
                let (v, abs) = reference_row(&aq, &bq, k, r, 1.0);
                (r, v, abs)
            })
            .collect();
        let per_tensor = Fp8Scales::PerTensor { a: &sa, b: &sb };
        let blocks = Fp8Scales::Blocks { a: &bsa, b: &bsb };
        let (fast, blocked, pairs, blocked_pairs) = match p {
            Precision::Fp8E5m2 => (Algo::Fp8E5m2Fast, Algo::Fp8E5m2Blocks, Algo::Fp8E5m2Pairs, Algo::Fp8E5m2BlocksPairs),
            _ => (Algo::Fp8E4m3Fast, Algo::Fp8E4m3Blocks, Algo::Fp8E4m3Pairs, Algo::Fp8E4m3BlocksPairs),
        };
        let flops = 2.0 * (m * n * k) as f64;
        let mut row = serde_json::json!({ "m": m, "n": n, "k": k, "format": p.label() });
        let mut times = std::collections::BTreeMap::new();
        let (f32_out, bf16_out) = (OutputFormat::F32, OutputFormat::Bf16);
        let bias_values: Vec<f32> = (0..n).map(|j| ((j * 7 % 11) as f32 - 5.0) * 0.25).collect();
        let bias = DeviceBuffer::from_host(gpu, &bias_values)?;
        let gelu = Fp8Params::new().scales(per_tensor).bias(BiasKind::PerColumn, &bias).activation(Activation::GeluTanh);
        let cases: [(&str, OutputFormat, Product<'_>); 10] = [
            (
                "tessera_auto",
                f32_out,
                Box::new(|| Ok(gpu.matmul_fp8(&Fp8Params::new().scales(per_tensor), &a, Fp8Rhs::Bt(&bt), &mut *c.borrow_mut())?)),
            ),
            (
                "tessera_fast",
                f32_out,
                Box::new(|| {
                    Ok(gpu.matmul_fp8(&Fp8Params::new().algo(fast).scales(per_tensor), &a, Fp8Rhs::Bt(&bt), &mut *c.borrow_mut())?)
                }),
            ),
            (
                "tessera_blocks",
                f32_out,
                Box::new(|| {
                    Ok(gpu.matmul_fp8(&Fp8Params::new().algo(blocked).scales(blocks), &a, Fp8Rhs::Bt(&bt), &mut *c.borrow_mut())?)
                }),
            ),
            (
                "tessera_pairs",
                f32_out,
                Box::new(|| {
                    Ok(gpu.matmul_fp8(&Fp8Params::new().algo(pairs).scales(per_tensor), &a, Fp8Rhs::Bt(&bt), &mut *c.borrow_mut())?)
                }),
            ),
            (
                "tessera_blocks_pairs",
                f32_out,
                Box::new(|| {
                    Ok(gpu.matmul_fp8(&Fp8Params::new().algo(blocked_pairs).scales(blocks), &a, Fp8Rhs::Bt(&bt), &mut *c.borrow_mut())?)
                }),
            ),
            (
                "tessera_auto_bf16",
                bf16_out,
                Box::new(|| Ok(gpu.matmul_fp8(&Fp8Params::new().scales(per_tensor), &a, Fp8Rhs::Bt(&bt), &mut *c16.borrow_mut())?)),
            ),
            ("tessera_gelu_bf16", bf16_out, Box::new(|| Ok(gpu.matmul_fp8(&gelu, &a, Fp8Rhs::Bt(&bt), &mut *c16.borrow_mut())?))),
            ("cublaslt", f32_out, Box::new(|| Ok(lt.matmul(&a, &bt, (&sa, &sb), &mut *c.borrow_mut(), false)?))),
            ("cublaslt_fast", f32_out, Box::new(|| Ok(lt.matmul(&a, &bt, (&sa, &sb), &mut *c.borrow_mut(), true)?))),
            ("cublaslt_bf16", bf16_out, Box::new(|| Ok(lt.matmul(&a, &bt, (&sa, &sb), &mut *c16.borrow_mut(), false)?))),
        ];
        for (name, output, work) in &cases {
            if args.verbose {
                eprintln!("[fp8] {m}×{n}×{k}: {name}");
            }
            // Checked first: C zeroed (an output left unwritten shows), one product, the sampled rows.
            gpu.stream().memset_zeros(c.borrow_mut().buffer_mut().as_cuda_slice_mut())?;
            gpu.stream().memset_zeros(c16.borrow_mut().buffer_mut().as_cuda_slice_mut())?;
            if let Err(e) = work() {
                // cuBLASLt has no FP8 algorithm for some shapes (CUBLAS_STATUS_NOT_SUPPORTED): the
                // anchor is recorded as missing there, and the run goes on; tessera's own must run.
                if !name.starts_with("cublaslt") {
                    return Err(e);
                }
                row[format!("{name}_unsupported")] = serde_json::json!(e.to_string());
                continue;
            }
            gpu.synchronize()?;
            let got: Vec<f32> = match output {
                OutputFormat::Bf16 => c16.borrow().buffer().to_host(gpu)?.iter().map(|x| x.to_f32()).collect(),
                OutputFormat::F32 => c.borrow().buffer().to_host(gpu)?,
                OutputFormat::F16 => return Err("FP8 products write f32 or BF16".into()),
            };
            let (tol, rel) = if *name == "tessera_gelu_bf16" {
                // The sampled rows through the epilogue's rule (`check_epilogue`).
                let mut worst = 0.0f64;
                for (r, value, abs) in &sampled {
                    let row_ref = tessera::reference::ReferenceProduct { rows: 1, cols: n, k, value: value.clone(), abs_sum: abs.clone() };
                    let outcome = tessera::catalogue::testkit::check::check_epilogue(
                        p,
                        OutputFormat::Bf16,
                        Activation::GeluTanh,
                        |_, col| f64::from(bias_values[col]),
                        &got[r * n..(r + 1) * n],
                        &row_ref,
                    );
                    if outcome.is_err() {
                        worst = f64::INFINITY;
                    }
                }
                (worst, f64::NAN)
            } else {
                sampled_error(&got, n, &sampled, p, *output, k)
            };
            row[format!("{name}_error_over_tolerance")] = serde_json::json!(tol);
            row[format!("{name}_error_over_abs_sum")] = serde_json::json!(rel);
            if name.starts_with("tessera") && *name != "tessera_fast" && tol > 1.0 {
                return Err(format!("{name} {m}×{n}×{k}: error {tol:.3} of the tolerance on the sampled rows").into());
            }
            // Batches of about 50 ms of GPU time.
            let trial = timer.time_ms(gpu, 1, 1, work)?;
            let iters = ((50.0 / trial.max(1e-3)).ceil() as usize).clamp(3, 2000);
            let mut batch: Vec<f64> = (0..args.repeat.max(1)).map(|_| timer.time_ms(gpu, 1, iters, work)).collect::<Result<_, Fail>>()?;
            batch.sort_by(f64::total_cmp);
            let ms = batch[batch.len() / 2];
            times.insert(*name, ms);
            row[format!("{name}_us")] = serde_json::json!(ms * 1e3);
            row[format!("{name}_tflops")] = serde_json::json!(flops / (ms * 1e-3) / 1e12);
        }
        for (num, den) in [
            ("tessera_auto", "cublaslt"),
            ("tessera_fast", "cublaslt_fast"),
            ("tessera_blocks", "tessera_auto"),
            ("tessera_pairs", "cublaslt"),
            ("tessera_blocks_pairs", "tessera_auto"),
            ("tessera_blocks_pairs", "tessera_pairs"),
            ("tessera_auto", "cublaslt_fast"),
            ("tessera_auto_bf16", "cublaslt_bf16"),
            ("tessera_gelu_bf16", "tessera_auto_bf16"),
        ] {
            let ratio = times.get(den).zip(times.get(num)).map(|(d, n)| d / n);
            row[format!("{num}_over_{den}")] = serde_json::json!(ratio);
        }
        row["seconds"] = serde_json::json!(started.elapsed().as_secs_f64());
        println!("{row}");
        writeln!(out, "{row}")?;
        eprintln!(
            "[fp8] {m}×{n}×{k}: auto {:.0} TFLOP/s = {:.3} of cuBLASLt; blocks {:.3} of auto ({:.1} s)",
            flops / (times["tessera_auto"] * 1e-3) / 1e12,
            times.get("cublaslt").map_or(f64::NAN, |lt| lt / times["tessera_auto"]),
            times["tessera_auto"] / times["tessera_blocks"],
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn main() -> Result<(), Fail> {
    let args = Args::parse();
    let mut shapes: Vec<(usize, usize, usize)> =
        args.shapes.iter().filter(|s| !s.is_empty()).map(|s| parse(s)).collect::<Result<_, _>>()?;
    let mut rng = Rng(0xD1B5_4A32_D192_ED03 ^ args.seed.wrapping_mul(0x9E37_79B9));
    for _ in 0..args.random {
        let (m, n) = (64 + rng.below(8129) as usize, 64 + rng.below(8129) as usize);
        shapes.push((m, n, 16 * (16 + rng.below(497) as usize)));
    }
    let gpu = Gpu::new(0)?;
    eprintln!("[fp8] {} on {} shapes", args.format, shapes.len());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    match args.format.as_str() {
        "e4m3" => run::<F8E4M3>(&gpu, &args, &shapes, &mut out),
        "e5m2" => run::<F8E5M2>(&gpu, &args, &shapes, &mut out),
        other => Err(format!("--format {other}: e4m3 or e5m2").into()),
    }
}
