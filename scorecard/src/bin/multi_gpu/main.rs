//! `multi-gpu`: tessera's GEMM across the GPUs of one host and past 2³¹ elements per matrix.
//!
//! Stages (`--stages`, in this order):
//! - `link`: NCCL broadcast and send, and the copy engines' peer copy, of `--link-bytes` from GPU 0;
//! - `scaling`: `--sizes`³ in each of `--precisions` with the operands on GPU 0 and `C` ending on
//!   GPU 0: `MultiGpu::matmul` on one GPU against all GPUs, wall time of each whole call after
//!   warm-up (transfers included), interleaved repetitions, medians; the result checked by sampling
//!   against the f64 reference and element by element against the one-GPU result;
//! - `big-single`: a `--big-single`³ FP32 product on GPU 0 alone (`Gpu::matmul`, cut into blocks);
//! - `big-multi`: a `--big-multi`² FP32 product from host memory over all GPUs, larger than one GPU.
//!
//! Progress goes to stderr; `multi-gpu.json` and `multi-gpu.md` are rewritten into `--out` after
//! every stage (a run cut short keeps what it measured).
mod model;
mod operands;
mod report;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use tessera::catalogue::plan::blocks::{BlockPlan, GemmDims, Limits};
use tessera::catalogue::plan::distribute::{DistOptions, DistPlan, Origin};
use tessera::catalogue::select::model_choice;
use tessera::catalogue::Target;
use tessera::{bf16, f16, Algo, DeviceElement, DeviceMatrix, GpuTimer, HostMatrix, MultiGpu, Precision};

use operands::{check_samples, compare_full, generate, sample_points};
use report::{BigRow, DeviceRow, LinkRow, Report, ScalingRow};

type Fail = Box<dyn std::error::Error + Send + Sync>;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Link,
    Scaling,
    BigSingle,
    BigMulti,
}

#[derive(Parser, Debug)]
#[command(about = "tessera multi-GPU: distributed GEMM scaling, link bandwidth, products past 2^31 elements")]
struct Args {
    /// Folder for multi-gpu.json and multi-gpu.md.
    #[arg(long, default_value = "multi-gpu-out")]
    out: PathBuf,
    /// GPUs to use (default: all visible).
    #[arg(long)]
    gpus: Option<usize>,
    /// Stages to run, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "link,scaling,big-single,big-multi")]
    stages: Vec<Stage>,
    /// Bytes per transfer of the link stage.
    #[arg(long, default_value_t = 1 << 30)]
    link_bytes: usize,
    /// Timed transfers per link measurement.
    #[arg(long, default_value_t = 5)]
    link_reps: usize,
    /// Square sizes of the scaling stage.
    #[arg(long, value_delimiter = ',', default_value = "16384")]
    sizes: Vec<usize>,
    /// Precisions of the scaling stage: fp32, tf32, bf16, fp16.
    #[arg(long, value_delimiter = ',', default_value = "fp32,bf16")]
    precisions: Vec<String>,
    /// Timed calls per configuration of the scaling stage.
    #[arg(long, default_value_t = 7)]
    reps: usize,
    /// Untimed calls first.
    #[arg(long, default_value_t = 2)]
    warmup: usize,
    /// Size of the one-GPU product past 2³¹ elements.
    #[arg(long, default_value_t = 60_000)]
    big_single: usize,
    /// Size of the product from the host over all GPUs.
    #[arg(long, default_value_t = 110_000)]
    big_multi: usize,
    /// Entries of C sampled against the f64 reference in each product.
    #[arg(long, default_value_t = 300)]
    samples: usize,
    /// Chunks B travels in along K.
    #[arg(long, default_value_t = DistOptions::default().b_chunks)]
    b_chunks: usize,
    /// Rows of the lead band each receiving GPU computes chunk by chunk.
    #[arg(long, default_value_t = DistOptions::default().lead_rows)]
    lead_rows: usize,
    /// Bands the remaining rows are computed and returned in.
    #[arg(long, default_value_t = DistOptions::default().return_pieces)]
    return_pieces: usize,
    /// GPU 0 computes its own rows at once instead of after its sends (the scaling stage measures
    /// both orders; waiting is the default).
    #[arg(long)]
    root_at_once: bool,
    /// Do not measure: re-render the time model from this run's multi-gpu.json into --out.
    #[arg(long)]
    model_from: Option<PathBuf>,
}

/// Prints a progress line with the seconds since the start.
fn say(t0: Instant, msg: impl AsRef<str>) {
    eprintln!("[multi-gpu {:>7.1} s] {}", t0.elapsed().as_secs_f64(), msg.as_ref());
}

fn main() {
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // Before any thread or NCCL call: NVLink multicast stays off on shared hosts.
        std::env::set_var("NCCL_NVLS_ENABLE", "0");
    }
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), Fail> {
    let t0 = Instant::now();
    let options = DistOptions {
        b_chunks: args.b_chunks,
        lead_rows: args.lead_rows,
        return_pieces: args.return_pieces,
        limits: Limits::KERNELS,
        root_waits_for_sends: !args.root_at_once,
    };
    if let Some(path) = &args.model_from {
        return model_from(path, args, options);
    }
    let count = match args.gpus {
        Some(n) => n,
        None => tessera::device_count()?,
    };
    let report_fn: tessera::multi::Progress = Arc::new(move |line| say(t0, line));
    let multi = MultiGpu::new(count)?.with_options(options).with_progress(report_fn);
    let mut report = Report { options: format!("{options:?}"), nccl_version: tessera::comm::nccl_version().ok(), ..Report::default() };
    for (i, gpu) in multi.gpus().iter().enumerate() {
        let info = gpu.info()?;
        report.devices.push(DeviceRow {
            ordinal: i,
            name: info.name,
            sms: info.sm_count,
            memory_gib: info.total_memory_bytes as f64 / (1u64 << 30) as f64,
        });
    }
    say(t0, format!("{} GPU(s), NCCL {:?}", multi.len(), report.nccl_version));
    std::fs::create_dir_all(&args.out)?;
    let write = |r: &Report| -> Result<(), Fail> {
        std::fs::write(args.out.join("multi-gpu.json"), serde_json::to_string_pretty(r)?)?;
        std::fs::write(args.out.join("multi-gpu.md"), r.markdown())?;
        Ok(())
    };
    for stage in &args.stages {
        say(t0, format!("stage {stage:?}"));
        let outcome = match stage {
            Stage::Link => link(&multi, args, t0).map(|l| report.link = l),
            Stage::Scaling => scaling(&multi, args, t0, &mut report),
            Stage::BigSingle => big_single(&multi, args, t0).map(|r| report.big.push(r)),
            Stage::BigMulti => big_multi(&multi, args, t0).map(|r| report.big.push(r)),
        };
        let bad: Vec<String> = report
            .big
            .iter()
            .filter(|r| r.samples.failures > 0)
            .map(|r| format!("{}: {} sample(s) out of tolerance", r.label, r.samples.failures))
            .collect();
        for f in bad {
            if !report.failures.contains(&f) {
                report.failures.push(f);
            }
        }
        if let Err(e) = outcome {
            say(t0, format!("stage {stage:?} failed: {e}"));
            report.failures.push(format!("{stage:?}: {e}"));
        }
        write(&report)?;
    }
    println!("{}", report.markdown());
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} failure(s): see {}", report.failures.len(), args.out.join("multi-gpu.md").display()).into())
    }
}

fn link(multi: &MultiGpu, args: &Args, t0: Instant) -> Result<Option<LinkRow>, Fail> {
    if multi.len() < 2 {
        say(t0, "link stage skipped: one GPU");
        return Ok(None);
    }
    let r = multi.link_bandwidth(args.link_bytes, args.link_reps)?;
    say(t0, format!("broadcast {:.1} GB/s, send {:?} GB/s, peer copy {:?} GB/s", r.broadcast_gb_s, r.send_gb_s, r.peer_copy_gb_s));
    Ok(Some(LinkRow {
        bytes: r.bytes,
        reps: r.reps,
        broadcast_gb_s: r.broadcast_gb_s,
        send_gb_s: r.send_gb_s,
        peer_copy_gb_s: r.peer_copy_gb_s,
    }))
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn scaling(multi: &MultiGpu, args: &Args, t0: Instant, report: &mut Report) -> Result<(), Fail> {
    let one = MultiGpu::new(1)?;
    // The other order of GPU 0's work: its matmul after B has left, or at once.
    let other = MultiGpu::new(multi.len())?
        .with_options(DistOptions { root_waits_for_sends: !multi.options().root_waits_for_sends, ..multi.options() });
    for label in &args.precisions {
        let precision = Precision::ALL.into_iter().find(|p| p.label() == label).ok_or_else(|| format!("unknown precision `{label}`"))?;
        for &size in &args.sizes {
            say(t0, format!("scaling {label} {size}³: operands"));
            let (a, b) = (generate(size, size, 1), generate(size, size, 2));
            let trio = [multi, &one, &other];
            let row = match precision {
                Precision::Fp32 | Precision::Tf32 => scaling_typed::<f32>(trio, precision, &a, &b, args, t0)?,
                Precision::Bf16 => scaling_typed::<bf16>(trio, precision, &a, &b, args, t0)?,
                Precision::Fp16 => scaling_typed::<f16>(trio, precision, &a, &b, args, t0)?,
                Precision::Fp8E4m3 | Precision::Fp8E5m2 => return Err(format!("{label}: no FP8 GEMM kernel yet").into()),
            };
            let mut row = row;
            if let Some(link) = &report.link {
                let sms = multi.gpu(0)?.sm_count() as usize;
                let inputs = model_inputs(&row, precision, link, sms, multi.options());
                let (waits, at_once) = if multi.options().root_waits_for_sends {
                    (row.scaling, row.other_order_scaling)
                } else {
                    (row.other_order_scaling, row.scaling)
                };
                row.model = Some(report::ModelRow::new(inputs, row.gpus, waits, at_once));
            }
            say(
                t0,
                format!(
                    "scaling {label} {size}³: 1 GPU {:.2} ms, {} GPUs {:.2} ms: {:.3}×",
                    row.one_gpu_median_ms, row.gpus, row.all_gpus_median_ms, row.scaling
                ),
            );
            if row.samples.failures > 0 || row.versus_one_gpu.failures > 0 || row.other_order_versus_one_gpu.failures > 0 {
                report.failures.push(format!("scaling {label} {size}³: {:?} / {:?}", row.samples, row.versus_one_gpu));
            }
            report.scaling.push(row);
        }
    }
    Ok(())
}

/// The model's inputs from a scaling row, the link rates, the SM count and the plan options.
fn model_inputs(row: &ScalingRow, precision: Precision, link: &LinkRow, sms: usize, options: DistOptions) -> model::Inputs {
    let n = row.size;
    let shape = tessera::MatmulShape { m: n as u32, n: n as u32, k: n as u32 };
    let tile = model_choice(shape, precision, Target::new(sms as u32, true))
        .kernel()
        .config()
        .map_or((128, 128), |t| (t.bm as usize, t.bn as usize));
    let waves = (n.div_ceil(tile.0) * n.div_ceil(tile.1)).div_ceil(sms.max(1));
    model::Inputs {
        size: n,
        input_bytes: if precision.takes_f32() { 4 } else { 2 },
        kernel_ms: row.kernel_only_ms,
        overhead_ms: (row.one_gpu_median_ms - row.kernel_only_ms).max(0.0),
        wave_ms: row.kernel_only_ms / waves.max(1) as f64,
        broadcast_gb_s: link.broadcast_gb_s,
        send_gb_s: link.send_gb_s.first().copied().unwrap_or(link.broadcast_gb_s),
        lead_rows: options.lead_rows,
        b_chunks: options.b_chunks,
        return_pieces: options.return_pieces,
        root_waits_for_sends: options.root_waits_for_sends,
    }
}

/// Re-renders the model from a run's `multi-gpu.json` (its measurements, this build's model and the
/// plan options given on the command line) into `--out/multi-gpu-model.md`.
fn model_from(path: &std::path::Path, args: &Args, options: DistOptions) -> Result<(), Fail> {
    let run: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let num = |v: &serde_json::Value| v.as_f64().ok_or("a number is missing in the run's JSON");
    let link = &run["link"];
    let link = LinkRow {
        bytes: link["bytes"].as_u64().unwrap_or(0) as usize,
        reps: link["reps"].as_u64().unwrap_or(0) as usize,
        broadcast_gb_s: num(&link["broadcast_gb_s"])?,
        send_gb_s: vec![num(&link["send_gb_s"][0])?],
        peer_copy_gb_s: Vec::new(),
    };
    let sms = run["devices"][0]["sms"].as_u64().ok_or("no SM count in the run's JSON")? as usize;
    let mut md = format!("# The time model on the measurements of `{}`\n\n", path.display());
    for r in run["scaling"].as_array().ok_or("no scaling rows in the run's JSON")? {
        let label = r["precision"].as_str().unwrap_or("?");
        let precision = Precision::ALL.into_iter().find(|p| p.label() == label).ok_or("unknown precision")?;
        let other_waits = r["other_order"].as_str().is_some_and(|o| o.ends_with("true"));
        let (scaling, other) = (num(&r["scaling"])?, num(&r["other_order_scaling"])?);
        let (waits, at_once) = if other_waits { (other, scaling) } else { (scaling, other) };
        let size = r["size"].as_u64().ok_or("no size")? as usize;
        let kernel_ms = num(&r["kernel_only_ms"])?;
        let one_gpu_median_ms = num(&r["one_gpu_median_ms"])?;
        let gpus = r["gpus"].as_u64().unwrap_or(2) as usize;
        let n = size;
        let shape = tessera::MatmulShape { m: n as u32, n: n as u32, k: n as u32 };
        let tile = model_choice(shape, precision, Target::new(sms as u32, true))
            .kernel()
            .config()
            .map_or((128, 128), |t| (t.bm as usize, t.bn as usize));
        let waves = (n.div_ceil(tile.0) * n.div_ceil(tile.1)).div_ceil(sms.max(1));
        let inputs = model::Inputs {
            size,
            input_bytes: if precision.takes_f32() { 4 } else { 2 },
            kernel_ms,
            overhead_ms: (one_gpu_median_ms - kernel_ms).max(0.0),
            wave_ms: kernel_ms / waves.max(1) as f64,
            broadcast_gb_s: link.broadcast_gb_s,
            send_gb_s: link.send_gb_s[0],
            lead_rows: options.lead_rows,
            b_chunks: options.b_chunks,
            return_pieces: options.return_pieces,
            root_waits_for_sends: options.root_waits_for_sends,
        };
        md.push_str(&report::ModelRow::new(inputs, gpus, waits, at_once).markdown(label));
        md.push('\n');
    }
    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("multi-gpu-model.md"), &md)?;
    println!("{md}");
    Ok(())
}

/// `[all GPUs, one GPU, all GPUs with the other root order]`.
fn scaling_typed<T: DeviceElement>(
    [multi, one, other]: [&MultiGpu; 3],
    precision: Precision,
    a: &HostMatrix,
    b: &HostMatrix,
    args: &Args,
    t0: Instant,
) -> Result<ScalingRow, Fail> {
    let size = a.rows;
    let root = multi.gpu(0)?;
    let (da, db) = (DeviceMatrix::<T>::from_host(root, a)?, DeviceMatrix::<T>::from_host(root, b)?);
    let (mut c1, mut cn) = (DeviceMatrix::<f32>::zeros(root, size, size)?, DeviceMatrix::<f32>::zeros(root, size, size)?);
    let call = |m: &MultiGpu, c: &mut DeviceMatrix| -> Result<f64, Fail> {
        let t = Instant::now();
        if precision == Precision::Tf32 {
            // TF32 takes f32 inputs: T is f32 here.
            let (fa, fb) = (as_f32(&da)?, as_f32(&db)?);
            m.matmul_tf32(Algo::Auto, fa, fb, c)?;
        } else {
            m.matmul(Algo::Auto, &da, &db, c)?;
        }
        Ok(t.elapsed().as_secs_f64() * 1e3)
    };
    let mut co = DeviceMatrix::<f32>::zeros(root, size, size)?;
    for _ in 0..args.warmup {
        call(one, &mut c1)?;
        call(multi, &mut cn)?;
        call(other, &mut co)?;
    }
    say(t0, format!("scaling {}: timing {} interleaved reps", precision.label(), args.reps));
    let (mut one_ms, mut all_ms, mut other_ms) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..args.reps.max(1) {
        one_ms.push(call(one, &mut c1)?);
        all_ms.push(call(multi, &mut cn)?);
        other_ms.push(call(other, &mut co)?);
    }
    let other_check = compare_full(precision, a, b, &co.to_host(root)?.data, &c1.to_host(root)?.data);
    let timeline = if precision == Precision::Tf32 {
        Vec::new()
    } else {
        let mut ct = DeviceMatrix::<f32>::zeros(root, size, size)?;
        multi.matmul_traced(Algo::Auto, &da, &db, &mut ct)?.gpus.into_iter().map(|g| (g.gpu, g.marks)).collect()
    };
    let mut ck = DeviceMatrix::<f32>::zeros(root, size, size)?;
    let timer = GpuTimer::new(root)?;
    let kernel_only_ms = timer.time_ms(root, 1, args.reps.max(1), || {
        if precision == Precision::Tf32 {
            root.matmul_tf32(Algo::Auto, as_f32(&da)?, as_f32(&db)?, &mut ck)
        } else {
            root.matmul(Algo::Auto, &da, &db, &mut ck)
        }
    })?;
    say(t0, "scaling: checking the results");
    let (h1, hn) = (c1.to_host(root)?, cn.to_host(root)?);
    let points = sample_points(size, size, args.samples);
    let got: Vec<f32> = points.iter().map(|&(r, c)| hn.get(r, c)).collect();
    let samples = check_samples(precision, a, b, &points, &got);
    let versus_one_gpu = compare_full(precision, a, b, &hn.data, &h1.data);
    let flops = 2.0 * (size as f64).powi(3);
    let (one_med, all_med) = (median(&one_ms), median(&all_ms));
    Ok(ScalingRow {
        precision: precision.label().into(),
        size,
        gpus: multi.len(),
        start: "A, B on GPU 0".into(),
        end: "C on GPU 0".into(),
        one_gpu_ms: one_ms,
        all_gpus_ms: all_ms,
        one_gpu_median_ms: one_med,
        all_gpus_median_ms: all_med,
        kernel_only_ms,
        scaling: one_med / all_med,
        other_order: format!("root_waits_for_sends = {}", other.options().root_waits_for_sends),
        other_order_median_ms: median(&other_ms),
        other_order_scaling: one_med / median(&other_ms),
        other_order_ms: other_ms,
        other_order_versus_one_gpu: other_check,
        one_gpu_tflops: flops / one_med / 1e9,
        all_gpus_tflops: flops / all_med / 1e9,
        samples,
        versus_one_gpu,
        model: None,
        timeline,
    })
}

/// `m` as an `f32` matrix (TF32 runs take `f32` inputs; the caller only asks when `T` is `f32`).
fn as_f32<T: DeviceElement>(m: &DeviceMatrix<T>) -> Result<&DeviceMatrix<f32>, tessera::Error> {
    (m as &dyn std::any::Any)
        .downcast_ref::<DeviceMatrix<f32>>()
        .ok_or(tessera::Error::InvalidArgument { op: "multi-gpu", detail: "TF32 needs f32 operands".into() })
}

fn big_single(multi: &MultiGpu, args: &Args, t0: Instant) -> Result<BigRow, Fail> {
    let n = args.big_single;
    let root = multi.gpu(0)?;
    let start = Instant::now();
    say(t0, format!("big-single {n}³ FP32: generating {:.1} GB of operands", 8.0 * (n * n) as f64 / 1e9));
    let (a, b) = (generate(n, n, 3), generate(n, n, 4));
    let generate_s = start.elapsed().as_secs_f64();
    say(t0, "big-single: uploading");
    let t = Instant::now();
    let (da, db) = (DeviceMatrix::<f32>::from_host(root, &a)?, DeviceMatrix::<f32>::from_host(root, &b)?);
    let mut dc = DeviceMatrix::<f32>::zeros(root, n, n)?;
    root.synchronize()?;
    let upload_s = t.elapsed().as_secs_f64();
    let dims = GemmDims { m: n, n, k: n };
    let align = root.planner_for(Algo::Auto, Precision::Fp32).align()?;
    let blocks = BlockPlan::new(dims, Limits::KERNELS, align).blocks();
    say(t0, format!("big-single: computing ({blocks} blocks)"));
    let t = Instant::now();
    root.matmul(Algo::Auto, &da, &db, &mut dc)?;
    root.synchronize()?;
    let compute_s = t.elapsed().as_secs_f64();
    say(t0, format!("big-single: {compute_s:.2} s, {:.1} TFLOP/s; sampling", dims.flops() / compute_s / 1e12));
    let points = sample_points(n, n, args.samples);
    let got = points
        .iter()
        .map(|&(r, c)| dc.buffer().to_host_range(root, r * n + c..r * n + c + 1).map(|v| v[0]))
        .collect::<Result<Vec<_>, _>>()?;
    let samples = check_samples(Precision::Fp32, &a, &b, &points, &got);
    say(t0, format!("big-single: {samples:?}"));
    let row = BigRow {
        label: "one GPU".into(),
        m: n,
        n,
        k: n,
        gpus: 1,
        origin: "host (uploaded first)".into(),
        operand_bytes: 12.0 * (n * n) as f64,
        gpu_memory_bytes: root.info()?.total_memory_bytes as f64,
        generate_s,
        upload_s,
        compute_s,
        total_s: start.elapsed().as_secs_f64(),
        tflops: dims.flops() / compute_s / 1e12,
        blocks_per_gpu: vec![blocks],
        per_gpu_upload_s: Vec::new(),
        per_gpu_done_s: Vec::new(),
        samples,
    };
    Ok(row)
}

fn big_multi(multi: &MultiGpu, args: &Args, t0: Instant) -> Result<BigRow, Fail> {
    let n = args.big_multi;
    let memory = multi.gpu(0)?.info()?.total_memory_bytes as f64;
    let operand_bytes = 12.0 * (n * n) as f64;
    say(
        t0,
        format!("big-multi {n}² FP32 on {} GPUs: A+B+C = {:.1} GB, one GPU holds {:.1} GB", multi.len(), operand_bytes / 1e9, memory / 1e9),
    );
    let start = Instant::now();
    let (a, b) = (generate(n, n, 5), generate(n, n, 6));
    let generate_s = start.elapsed().as_secs_f64();
    say(t0, format!("big-multi: operands generated in {generate_s:.1} s; uploading and computing"));
    let dims = GemmDims { m: n, n, k: n };
    let align = multi.gpus()[0].planner_for(Algo::Auto, Precision::Fp32).align()?;
    let plan = DistPlan::new(dims, multi.len(), Origin::Host, align, multi.options());
    let t = Instant::now();
    let rows = multi.matmul_host_in(Precision::Fp32, Algo::Auto, &a, &b)?;
    let compute_s = t.elapsed().as_secs_f64();
    say(t0, format!("big-multi: done in {compute_s:.1} s ({:.1} TFLOP/s incl. uploads); sampling", dims.flops() / compute_s / 1e12));
    let points = sample_points(n, n, args.samples);
    let got = rows.sample(multi, &points)?;
    let samples = check_samples(Precision::Fp32, &a, &b, &points, &got);
    say(t0, format!("big-multi: {samples:?}"));
    let row = BigRow {
        label: format!("{} GPUs", multi.len()),
        m: n,
        n,
        k: n,
        gpus: multi.len(),
        origin: "host (uploads overlapped)".into(),
        operand_bytes,
        gpu_memory_bytes: memory,
        generate_s,
        upload_s: rows.parts.iter().map(|p| p.upload_s).fold(0.0, f64::max),
        compute_s,
        total_s: start.elapsed().as_secs_f64(),
        tflops: dims.flops() / compute_s / 1e12,
        blocks_per_gpu: plan.gpus.iter().map(|g| g.steps.len()).collect(),
        per_gpu_upload_s: rows.parts.iter().map(|p| p.upload_s).collect(),
        per_gpu_done_s: rows.parts.iter().map(|p| p.done_s).collect(),
        samples,
    };
    Ok(row)
}
