//! `grouped`: kernels 26 and 28 (a batch or groups of products in one launch) beside cuBLAS in the
//! same process, on the same operands: `cublasGemmStridedBatchedEx` (what `torch.bmm` runs) for a
//! batch, and one `cublasGemmEx` per group on one stream for grouped products. BF16 or FP16 inputs
//! (kernel 26), or FP32 batches (kernel 28); `f32` output, and for a 16-bit batch `Auto` again with `C`
//! in the inputs' type (`tessera_auto_out16`, and each tile's `_out16` row: what `torch.bmm` and
//! `_grouped_mm` write), for batches and grouped products.
//!
//! Per case, CUDA events around a batch of launches after a warm-up (no synchronize inside), the
//! median of `--repeat` batches, for tessera `Auto`, each of kernel 26's tiles of the precision, and
//! the cuBLAS anchor. Each result is checked first on sampled rows of the first and last products
//! against the f64 reference within the precision's rule (`Precision::tolerance`).
//!
//! Cases: `--batched COUNTxMxNxK,…` and `--grouped GxMxNxK,…` (G groups whose rows, random with
//! `--seed` and any of them possibly 0, sum to M). One JSON object per case on stdout and in `--out`.
use std::cell::RefCell;

use clap::Parser;
use tessera::catalogue::plan::grouped::Stack;
use tessera::catalogue::precision::Precision;
use tessera::catalogue::registry::grouped::{GroupedAlgo, GROUPED_KERNELS};
use tessera::{bf16, f16, DeviceBuffer, DeviceMatrix, GemmEpilogue, Gpu, GpuTimer, MatrixStack, MatrixStackMut, OutputElement};
use tessera_anchors::cublas_ex::GemmExInput;
use tessera_anchors::Cublas;

#[path = "../bin_common.rs"]
mod bin_common;
use bin_common::Fail;

/// A 16-bit `C` read back as `f32`.
type ReadBack<'a> = dyn Fn() -> Result<Vec<f32>, Fail> + 'a;

/// One implementation's run of the case into the shared `C`.
type Run<'a> = Box<dyn Fn() -> Result<(), Fail> + 'a>;

#[derive(Parser, Debug)]
#[command(about = "kernel 26 (batched and grouped products) beside cuBLAS, same process")]
struct Args {
    /// Batches `COUNTxMxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "64x512x512x64,256x128x128x128,8x2048x2048x2048")]
    batched: Vec<String>,
    /// Grouped products `GxMxNxK` (M: the rows of all groups), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "8x16384x4096x7168,64x16384x4096x7168,8x16384x7168x2048,64x16384x7168x2048")]
    grouped: Vec<String>,
    /// `bf16`, `f16`, or `f32` (batches only: kernel 28).
    #[arg(long, default_value = "bf16")]
    precision: String,
    /// Seed of the operands and of the groups' sizes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Timed batches per implementation (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Where to write the JSON lines.
    #[arg(long, default_value = "grouped.jsonl")]
    out: String,
}

/// A xorshift stream for the operands and the groups' sizes.
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
}

fn parse4(s: &str) -> Result<[usize; 4], Fail> {
    let v: Vec<usize> = s.split('x').map(str::parse).collect::<Result<_, _>>()?;
    v.try_into().map_err(|_| format!("case `{s}`: expected AxBxCxD").into())
}

/// `groups` offsets from 0 to `m`: cut points drawn uniformly, so sizes vary widely and some may be 0.
fn offsets(rng: &mut Rng, groups: usize, m: usize) -> Vec<u32> {
    let mut cuts: Vec<u32> = (0..groups - 1).map(|_| (rng.next() % (m as u64 + 1)) as u32).collect();
    cuts.sort_unstable();
    std::iter::once(0).chain(cuts).chain(std::iter::once(m as u32)).collect()
}

/// The products to check: (first row of A and C, matrix of B, A's first element) for sampled rows.
struct Sample {
    a_row: Vec<f32>,
    b: Vec<f32>,
    c_at: usize,
}

/// The worst `|got − reference| / tolerance` over the samples (≤ 1 passes).
fn worst(p: Precision, samples: &[Sample], got: &[f32], n: usize, k: usize) -> f64 {
    worst_rounded(p, samples, got, n, k, 0.0)
}

/// [`worst`] for an output rounded once more with unit roundoff `u` (a 16-bit `C`): the tolerance
/// plus `u·|reference|`.
fn worst_rounded(p: Precision, samples: &[Sample], got: &[f32], n: usize, k: usize, u: f64) -> f64 {
    let mut worst = 0.0f64;
    for s in samples {
        for col in 0..n {
            let (mut v, mut abs) = (0.0f64, 0.0f64);
            for i in 0..k {
                let t = f64::from(s.a_row[i]) * f64::from(s.b[i * n + col]);
                v += t;
                abs += t.abs();
            }
            let err = (f64::from(got[s.c_at + col]) - v).abs();
            worst = worst.max(if err.is_nan() { f64::INFINITY } else { err / (p.tolerance(k, abs) + u * v.abs()) });
        }
    }
    worst
}

/// The median time (ms) of `--repeat` batches of `run` ([`bin_common::median_ms`]).
fn median_ms(gpu: &Gpu, args: &Args, timer: &GpuTimer, run: &dyn Fn() -> Result<(), Fail>) -> Result<f64, Fail> {
    bin_common::median_ms(gpu, timer, args.repeat, run)
}

/// One timed result as the JSON lines carry it, and its line on stderr.
fn result(name: &str, ms: f64, flops: f64, err: f64) -> serde_json::Value {
    eprintln!("  {name:<24} {ms:>9.4} ms {:>8.1} TFLOP/s  error/tol {err:.3}{}", flops / ms / 1e9, if err > 1.0 { "  FAILS" } else { "" });
    serde_json::json!({ "ms": ms, "tflops": flops / ms / 1e9, "error_over_tolerance": err })
}

/// Times `runs` (each checked first against `samples`) and returns the JSON fields.
fn measure(
    gpu: &Gpu,
    args: &Args,
    c: &RefCell<DeviceBuffer<f32>>,
    runs: &[(String, Run<'_>)],
    check: impl Fn(&[f32]) -> f64,
    flops: f64,
) -> Result<serde_json::Value, Fail> {
    let timer = GpuTimer::new(gpu)?;
    let mut row = serde_json::Map::new();
    for (name, run) in runs {
        gpu.stream().memset_zeros(c.borrow_mut().as_cuda_slice_mut())?;
        run()?;
        gpu.synchronize()?;
        let err = check(&c.borrow().to_host(gpu)?);
        let ms = median_ms(gpu, args, &timer, run)?;
        row.insert(name.clone(), result(name, ms, flops, err));
    }
    Ok(serde_json::Value::Object(row))
}

fn batched<T: OutputElement + GemmExInput>(
    gpu: &Gpu,
    blas: &Cublas,
    args: &Args,
    rng: &mut Rng,
    from: fn(f32) -> T,
    case: [usize; 4],
) -> Result<serde_json::Value, Fail> {
    let p = T::PRECISION;
    let [count, m, n, k] = case;
    let (sa, sb, sc) = (
        Stack { count, rows: m, cols: k, stride: m * k },
        Stack { count, rows: k, cols: n, stride: k * n },
        Stack { count, rows: m, cols: n, stride: m * n },
    );
    let (ah, bh): (Vec<f32>, Vec<f32>) =
        ((0..count * m * k).map(|_| p.round_input(rng.unit())).collect(), (0..count * k * n).map(|_| p.round_input(rng.unit())).collect());
    let a = DeviceBuffer::from_host(gpu, &ah.iter().map(|&x| from(x)).collect::<Vec<T>>())?;
    let b = DeviceBuffer::from_host(gpu, &bh.iter().map(|&x| from(x)).collect::<Vec<T>>())?;
    let c = RefCell::new(DeviceBuffer::<f32>::zeros(gpu, count * m * n)?);
    let samples: Vec<Sample> = [(0, 0), (count - 1, m - 1)]
        .iter()
        .map(|&(i, r)| Sample {
            a_row: ah[i * m * k + r * k..][..k].to_vec(),
            b: bh[i * k * n..][..k * n].to_vec(),
            c_at: i * m * n + r * n,
        })
        .collect();
    let tessera = |algo: GroupedAlgo| -> Run<'_> {
        let (a, b, c) = (&a, &b, &c);
        Box::new(move || {
            Ok(gpu.matmul_batched(
                algo,
                MatrixStack::dense(a, count, m, k),
                MatrixStack::dense(b, count, k, n),
                MatrixStackMut::dense(&mut c.borrow_mut(), count, m, n),
            )?)
        })
    };
    let mut runs: Vec<(String, Run<'_>)> = vec![("tessera_auto".into(), tessera(GroupedAlgo::Auto))];
    runs.extend(GROUPED_KERNELS.iter().filter(|kl| kl.precision == p).map(|kl| (format!("tessera_{}", kl.label), tessera(kl.algo))));
    let (ar, br) = (&a, &b);
    runs.push(("cublas".into(), Box::new(|| Ok(blas.gemm_strided_batched((ar, sa), (br, sb), (&mut c.borrow_mut(), sc), p)?))));
    let flops = 2.0 * (count * m * n * k) as f64;
    let mut times = measure(gpu, args, &c, &runs, |got| worst(p, &samples, got, n, k), flops)?;
    if p != Precision::Fp32 {
        // `C` in the inputs' type, as `torch.bmm` writes it: half of the f32 output's bytes; `Auto`
        // and every tile (kernel 26's finishing twins, kernel 30's 16-bit store).
        let algos = [(String::from("tessera_auto_out16"), GroupedAlgo::Auto)]
            .into_iter()
            .chain(GROUPED_KERNELS.iter().filter(|kl| kl.precision == p).map(|kl| (format!("tessera_{}_out16", kl.label), kl.algo)));
        for (name, algo) in algos {
            times[name.as_str()] = out16(gpu, args, (&a, &b), [count, m, n, k], &samples, flops, (algo, &name))?;
        }
    }
    let chosen = gpu_choice(&times);
    Ok(
        serde_json::json!({ "kind": "batched", "precision": p.label(), "count": count, "m": m, "n": n, "k": k, "times": times, "tessera_auto_over_cublas": ratio(&times, "tessera_auto", "cublas"), "best_tile": chosen }),
    )
}

/// `algo` with `C` in `T` (BF16 or FP16: kernel 26's finishing twins or kernel 30's 16-bit store,
/// each sum rounded once), timed as [`measure`] times the others and checked on the same samples
/// within the precision's rule plus the output's rounding (half an ulp of the value); `name` its row.
#[allow(clippy::too_many_arguments)] // the batch's operands and shape, and the row's kernel and name
fn out16<T: OutputElement>(
    gpu: &Gpu,
    args: &Args,
    (a, b): (&DeviceBuffer<T>, &DeviceBuffer<T>),
    [count, m, n, k]: [usize; 4],
    samples: &[Sample],
    flops: f64,
    (algo, name): (GroupedAlgo, &str),
) -> Result<serde_json::Value, Fail> {
    let c = RefCell::new(DeviceBuffer::<T>::zeros(gpu, count * m * n)?);
    let plain = GemmEpilogue::new();
    let run = || -> Result<(), Fail> {
        Ok(gpu.matmul_batched_with(
            algo,
            &plain,
            MatrixStack::dense(a, count, m, k),
            MatrixStack::dense(b, count, k, n),
            MatrixStackMut::dense(&mut c.borrow_mut(), count, m, n),
        )?)
    };
    let got = || -> Result<Vec<f32>, Fail> { Ok(c.borrow().to_host(gpu)?.into_iter().map(T::to_f32).collect()) };
    rounded_run::<T>(gpu, args, (&run, &got), samples, (n, k), flops, name)
}

/// `run` (a product into a 16-bit `C`, read back by `got`) checked on the samples within the
/// precision's rule plus the output's rounding, then timed: its row `name`.
fn rounded_run<T: OutputElement>(
    gpu: &Gpu,
    args: &Args,
    (run, got): (&dyn Fn() -> Result<(), Fail>, &ReadBack<'_>),
    samples: &[Sample],
    (n, k): (usize, usize),
    flops: f64,
    name: &str,
) -> Result<serde_json::Value, Fail> {
    run()?;
    gpu.synchronize()?;
    let err = worst_rounded(T::PRECISION, samples, &got()?, n, k, T::FORMAT.unit_roundoff());
    let ms = median_ms(gpu, args, &GpuTimer::new(gpu)?, run)?;
    Ok(result(name, ms, flops, err))
}

/// The grouped product of `algo` with `C` in `T`, timed and checked as [`out16`] does a batch's.
#[allow(clippy::too_many_arguments)] // the groups' operands and shape, and the row's kernel and name
fn grouped_out16<T: OutputElement>(
    gpu: &Gpu,
    args: &Args,
    (a, b): (&DeviceMatrix<T>, &DeviceBuffer<T>),
    [groups, m, n, k]: [usize; 4],
    offsets: &[u32],
    samples: &[Sample],
    flops: f64,
    (algo, name): (GroupedAlgo, &str),
) -> Result<serde_json::Value, Fail> {
    let c = RefCell::new(DeviceMatrix::<T>::zeros(gpu, m, n)?);
    let plain = GemmEpilogue::new();
    let run = || -> Result<(), Fail> {
        Ok(gpu.matmul_grouped_with(algo, &plain, a, MatrixStack::dense(b, groups, k, n), offsets, &mut c.borrow_mut())?)
    };
    let got = || -> Result<Vec<f32>, Fail> { Ok(c.borrow().to_vec(gpu)?.into_iter().map(T::to_f32).collect()) };
    rounded_run::<T>(gpu, args, (&run, &got), samples, (n, k), flops, name)
}

fn grouped<T: OutputElement + GemmExInput>(
    gpu: &Gpu,
    blas: &Cublas,
    args: &Args,
    rng: &mut Rng,
    from: fn(f32) -> T,
    case: [usize; 4],
) -> Result<serde_json::Value, Fail> {
    let p = T::PRECISION;
    let [groups, m, n, k] = case;
    let offs = offsets(rng, groups, m);
    let sb = Stack { count: groups, rows: k, cols: n, stride: k * n };
    let (ah, bh): (Vec<f32>, Vec<f32>) =
        ((0..m * k).map(|_| p.round_input(rng.unit())).collect(), (0..groups * k * n).map(|_| p.round_input(rng.unit())).collect());
    let a = DeviceMatrix::from_slice(gpu, m, k, &ah.iter().map(|&x| from(x)).collect::<Vec<T>>())?;
    let b = DeviceBuffer::from_host(gpu, &bh.iter().map(|&x| from(x)).collect::<Vec<T>>())?;
    let c = RefCell::new(DeviceBuffer::<f32>::zeros(gpu, m * n)?);
    // The first row of the first non-empty group and the last row of the last.
    let first = offs.windows(2).position(|w| w[1] > w[0]).unwrap_or(0);
    let last = offs.windows(2).rposition(|w| w[1] > w[0]).unwrap_or(0);
    let samples: Vec<Sample> = [(first, offs[first] as usize), (last, offs[last + 1] as usize - 1)]
        .iter()
        .map(|&(g, r)| Sample { a_row: ah[r * k..][..k].to_vec(), b: bh[g * k * n..][..k * n].to_vec(), c_at: r * n })
        .collect();
    let tessera = |algo: GroupedAlgo| -> Run<'_> {
        let (a, b, c, offs) = (&a, &b, &c, &offs);
        Box::new(move || {
            // The output as a matrix over the shared buffer: taken out and put back around the call.
            let buf = std::mem::replace(&mut *c.borrow_mut(), DeviceBuffer::zeros(gpu, 0)?);
            let mut out = DeviceMatrix::from_buffer(m, n, buf)?;
            let r = gpu.matmul_grouped(algo, a, MatrixStack::dense(b, groups, k, n), offs, &mut out);
            *c.borrow_mut() = out.into_buffer();
            Ok(r?)
        })
    };
    let mut runs: Vec<(String, Run<'_>)> = vec![("tessera_auto".into(), tessera(GroupedAlgo::Auto))];
    // Kernel 26's tiles: kernels 28 and 30 run batches only.
    let tiles = GROUPED_KERNELS.iter().filter(|kl| kl.precision == p && !kl.host.pointers());
    runs.extend(tiles.map(|kl| (format!("tessera_{}", kl.label), tessera(kl.algo))));
    let (ar, br, or) = (&a, &b, &offs);
    runs.push(("cublas_loop".into(), Box::new(|| Ok(blas.gemm_grouped_loop(ar.buffer(), (br, sb), or, &mut c.borrow_mut())?))));
    let flops = 2.0 * (m * n * k) as f64;
    let mut times = measure(gpu, args, &c, &runs, |got| worst(p, &samples, got, n, k), flops)?;
    // `C` in the inputs' type, as torch's `_grouped_mm` writes it (groups are 16-bit only): `Auto` and
    // each of kernel 26's finishing twins.
    let algos = [(String::from("tessera_auto_out16"), GroupedAlgo::Auto)].into_iter().chain(
        GROUPED_KERNELS
            .iter()
            .filter(|kl| kl.precision == p && !kl.host.pointers())
            .map(|kl| (format!("tessera_{}_out16", kl.label), kl.algo)),
    );
    for (name, algo) in algos {
        times[name.as_str()] = grouped_out16(gpu, args, (&a, &b), [groups, m, n, k], &offs, &samples, flops, (algo, &name))?;
    }
    let rows: Vec<u32> = offs.windows(2).map(|w| w[1] - w[0]).collect();
    Ok(
        serde_json::json!({ "kind": "grouped", "precision": p.label(), "groups": groups, "m": m, "n": n, "k": k, "group_rows": rows, "times": times, "tessera_auto_over_cublas": ratio(&times, "tessera_auto", "cublas_loop"), "best_tile": gpu_choice(&times) }),
    )
}

/// `anchor ÷ name` time (how many times faster `name` ran).
fn ratio(times: &serde_json::Value, name: &str, anchor: &str) -> Option<f64> {
    Some(times[anchor]["ms"].as_f64()? / times[name]["ms"].as_f64()?)
}

/// The fastest of tessera's named tiles.
fn gpu_choice(times: &serde_json::Value) -> Option<String> {
    times
        .as_object()?
        .iter()
        .filter(|(k, _)| k.starts_with("tessera_") && *k != "tessera_auto")
        .min_by(|x, y| x.1["ms"].as_f64().unwrap_or(f64::INFINITY).total_cmp(&y.1["ms"].as_f64().unwrap_or(f64::INFINITY)))
        .map(|(k, _)| k.clone())
}

fn run<T: OutputElement + GemmExInput>(gpu: &Gpu, args: &Args, from: fn(f32) -> T, out: &mut impl std::io::Write) -> Result<(), Fail> {
    let blas = Cublas::new(gpu)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ args.seed);
    // `--batched ""` or `--grouped ""` runs none of that kind.
    for s in args.batched.iter().filter(|s| !s.is_empty()) {
        eprintln!("batched {s} ({})", T::PRECISION.label());
        let row = batched(gpu, &blas, args, &mut rng, from, parse4(s)?)?;
        println!("{row}");
        writeln!(out, "{row}")?;
    }
    // Grouped products run BF16 and FP16 only (kernel 26); FP32 batches run kernel 28.
    let cases: &[String] = if T::PRECISION == Precision::Fp32 { &[] } else { &args.grouped };
    for s in cases.iter().filter(|s| !s.is_empty()) {
        eprintln!("grouped {s} ({})", T::PRECISION.label());
        let row = grouped(gpu, &blas, args, &mut rng, from, parse4(s)?)?;
        println!("{row}");
        writeln!(out, "{row}")?;
    }
    Ok(())
}

fn main() -> Result<(), Fail> {
    let args = Args::parse();
    let Some(gpu) = bin_common::gpu_or_skip() else { return Ok(()) };
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out)?);
    match args.precision.as_str() {
        "bf16" => run(&gpu, &args, bf16::from_f32, &mut out),
        "f16" => run(&gpu, &args, f16::from_f32, &mut out),
        "f32" => run(&gpu, &args, |x| x, &mut out),
        other => Err(format!("--precision {other}: bf16, f16 or f32 (batches only)").into()),
    }
}
