//! `scorecard`: runs every matmul kernel and the baselines at the chosen sizes, checks each result
//! against the CPU reference, and prints and writes the table CPU → naive → tiled → … → cuBLAS.
//!
//! All GPU figures of one run come from the same process, so ratios (÷ cuBLAS, ÷ CUDA C, ÷ copy
//! bandwidth) are meaningful even when absolute clocks drift between runs.
mod cpu;
mod emulated;
mod gpu;
mod report;
mod roofline;
mod traffic;
mod variants;

use std::path::PathBuf;

use clap::Parser;
use tessera::catalogue::algo::{case_label, matmul_cases};
use tessera::{Algo, MatmulShape, Precision};

/// Any failure of a scorecard run, reported as its message.
pub type Fail = Box<dyn std::error::Error + Send + Sync>;

/// One matmul problem: its random operands and the sampled references (one per precision of the run)
/// every result is checked against.
pub struct Problem {
    pub shape: MatmulShape,
    pub a: tessera::HostMatrix,
    pub b: tessera::HostMatrix,
    pub reference: report::SampledReference,
}

impl Problem {
    fn new(shape: MatmulShape, precisions: &[Precision]) -> Self {
        let (a, b) = cpu::operands(shape, 7);
        let reference = report::SampledReference::new(&a, &b, precisions);
        Problem { shape, a, b, reference }
    }
}

/// Where the kernels run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Gpu,
    Cpu,
}

/// How a batch of launches is timed (`--timing`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// The batch queued behind a hold before the first event (`tessera::QueuedTimer`): the GPU's
    /// time for the launches back to back, also where one launch is shorter than queueing it.
    Queued,
    /// Events around launches as the host queues them (`tessera::GpuTimer`): where one launch takes
    /// the GPU less time than the host takes to queue it, the host's launch rate.
    Paced,
}

impl Timing {
    pub fn label(self) -> &'static str {
        match self {
            Timing::Queued => "queued",
            Timing::Paced => "paced",
        }
    }
}

/// Command-line options.
#[derive(Parser, Debug)]
#[command(version, about = "tessera scorecard: Rust GPU matmul kernels beside CPU, CUDA C and cuBLAS")]
pub struct Args {
    /// Matmul sizes: `N` for N×N×N or `MxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024,2048,4096")]
    sizes: Vec<String>,
    /// Rust kernels to run (default: all), comma-separated labels such as `naive,tiled`,
    /// `mma-pipe-bf16-128x256`, `auto-bf16` (`auto` alone: Auto in every precision of the run).
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
    /// Precisions to run, comma-separated: `fp32,tf32,bf16,fp16` (the default: all). Each runs its
    /// kernels beside cuBLAS of the same precision; FP32 also the CPU baseline and the CUDA C twins.
    #[arg(long, value_delimiter = ',', default_value = "fp32,tf32,bf16,fp16")]
    precisions: Vec<String>,
    /// How the matmul rows are timed: `queued` (the default: GPU time, launches back to back) or
    /// `paced` (at the host's launch rate where that is slower).
    #[arg(long, value_enum, default_value_t = Timing::Queued)]
    timing: Timing,
    /// Timed repetitions per measurement; the median is reported.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Folder for scorecard.json and scorecard.md.
    #[arg(long, default_value = "scorecard-out")]
    out: PathBuf,
    /// Elements for the vec_add / copy bandwidth section (0 skips it).
    #[arg(long, default_value_t = 1 << 26)]
    vec_len: usize,
    /// `gpu` measures (the default); `cpu` runs the kernels' source on the CPU executor instead —
    /// emulation for teaching, clearly labelled, not a performance figure (small sizes only).
    #[arg(long, value_enum, default_value_t = Device::Gpu)]
    device: Device,
    /// Do not measure: re-render scorecard.md and roofline.svg into --out from this scorecard.json.
    #[arg(long)]
    replot: Option<PathBuf>,
    /// Threads of the CPU baseline (faer), comma-separated; 0: every core. The first is the baseline
    /// the × CPU column divides by; the others add rows (`cpu-t<N>`) to see how faer scales.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    cpu_threads: Vec<usize>,
    /// numpy's SGEMM as measured by `scripts/cpu-sgemm-numpy.py` on this machine (its JSON output):
    /// added as the CPU anchor row beside the baseline at the sizes it measured.
    #[arg(long)]
    cpu_anchor_json: Option<PathBuf>,
    /// Also run this many random shapes (`tessera_catalogue::random::matmul_shapes`: M, N, K
    /// log-uniform in 1..16384 with random alignment), after `--sizes`; the seed is printed.
    #[arg(long, default_value_t = 0)]
    random_shapes: usize,
    /// The seed of `--random-shapes` (default: drawn at run time, `TESSERA_SEED` to replay).
    #[arg(long)]
    seed: Option<u64>,
    /// `--random-shapes` redraws a shape while `2·M·N·K` exceeds this.
    #[arg(long, default_value_t = 2.0 * 4096.0 * 4096.0 * 4096.0)]
    random_max_flops: f64,
    /// OpenBLAS as numpy's wheels ship it (`numpy.libs/libscipy_openblas64_*.so`): when given, the
    /// CPU baseline (the × CPU column) is its `cblas_sgemm`, and faer is measured beside it
    /// (`cpu-faer`); without it the baseline is faer.
    #[arg(long)]
    cpu_blas: Option<PathBuf>,
    /// Also measure `Gpu::gemm` with transposes and layouts (NN, NT, TN, TT row-major; NN, NT
    /// column-major) beside matmul and cuBLAS with the same transposes, at each size and precision.
    #[arg(long)]
    gemm_variants: bool,
    /// Skip the multi-core CPU baseline above this many FLOPs (it is slow on small machines).
    #[arg(long, default_value_t = 2.0 * 8192.0 * 8192.0 * 8192.0)]
    cpu_max_flops: f64,
}

/// Parses `N` or `MxNxK`.
fn parse_size(s: &str) -> Result<MatmulShape, String> {
    let parts: Vec<u32> =
        s.split(['x', '×']).map(|p| p.trim().parse::<u32>().map_err(|e| format!("bad size `{s}`: {e}"))).collect::<Result<_, _>>()?;
    let (m, n, k) = match parts[..] {
        [n] => (n, n, n),
        [m, n, k] => (m, n, k),
        _ => return Err(format!("bad size `{s}`: use N or MxNxK")),
    };
    MatmulShape::check((m as usize, k as usize), (k as usize, n as usize), (m as usize, n as usize)).map_err(|e| e.to_string())
}

/// The precisions of `--precisions`, widest first, without repeats.
fn parse_precisions(labels: &[String]) -> Result<Vec<Precision>, String> {
    let mut out = Vec::new();
    for l in labels {
        let p = report::precision_from_label(l.trim()).ok_or_else(|| format!("unknown precision `{l}`: use fp32, tf32, bf16, fp16"))?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err("--precisions is empty".into());
    }
    out.sort_by_key(|p| Precision::ALL.iter().position(|q| q == p));
    Ok(out)
}

/// The (kernel, precision) cases of the run: every case of the catalogue (each kernel in its
/// precision, `Auto` in each) whose precision is in `precisions` and whose label is in `--kernels`
/// (`auto` matches every `auto-<p>`). An empty `--kernels` keeps them all; a filter that keeps none
/// is an error naming the labels it could have matched.
pub fn select_cases(kernels: &[String], precisions: &[Precision]) -> Result<Vec<(Algo, Precision)>, String> {
    let cases: Vec<(Algo, Precision)> = matmul_cases().into_iter().filter(|(_, p)| precisions.contains(p)).collect();
    let wanted = |a: Algo, p: Precision| kernels.is_empty() || kernels.iter().any(|k| *k == case_label(a, p) || *k == a.label());
    let chosen: Vec<(Algo, Precision)> = cases.iter().copied().filter(|&(a, p)| wanted(a, p)).collect();
    if chosen.is_empty() {
        let labels: Vec<String> = cases.iter().map(|&(a, p)| case_label(a, p)).collect();
        return Err(format!("--kernels matched none of the cases of these precisions: {}", labels.join(", ")));
    }
    Ok(chosen)
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), Fail> {
    if let Some(json) = &args.replot {
        let text = std::fs::read_to_string(json).map_err(|e| format!("cannot read {}: {e}", json.display()))?;
        let mut card: report::Scorecard = serde_json::from_str(&text)?;
        card.finish();
        return write_outputs(&card, args);
    }
    let mut shapes: Vec<MatmulShape> = args.sizes.iter().map(|s| parse_size(s)).collect::<Result<_, String>>()?;
    let random = (args.random_shapes > 0).then(|| args.seed.unwrap_or_else(|| tessera::catalogue::random::run_seed(0x5ca1e)));
    if let Some(seed) = random {
        eprintln!("[scorecard] {} random shapes, seed {seed} (--seed {seed} replays them)", args.random_shapes);
        shapes.extend(tessera::catalogue::random::matmul_shapes(args.random_shapes, seed, args.random_max_flops));
    }
    if shapes.iter().any(|s| s.m == 0 || s.n == 0 || s.k == 0) {
        return Err("sizes must be at least 1 in every dimension".into());
    }
    let precisions = parse_precisions(&args.precisions)?;
    let cases = select_cases(&args.kernels, &precisions)?;
    // Only the precisions with a case left after `--kernels` get references, ceilings and cuBLAS rows.
    let precisions: Vec<Precision> = precisions.into_iter().filter(|p| cases.iter().any(|(_, q)| q == p)).collect();
    if args.device == Device::Cpu {
        return emulated::run(args, &shapes, &cases);
    }
    let repeat = args.repeat.max(1);
    let mut card = report::Scorecard::new();
    card.random_shapes = random.map(|seed| report::RandomShapes { count: args.random_shapes, seed, max_flops: args.random_max_flops });

    let labels: Vec<&str> = precisions.iter().map(|p| p.label()).collect();
    eprintln!("[scorecard] operands and sampled f64 references ({}) for {} sizes…", labels.join(", "), shapes.len());
    let problems: Vec<Problem> = shapes.iter().map(|&shape| Problem::new(shape, &precisions)).collect();
    if precisions.contains(&Precision::Fp32) {
        let threads: Vec<usize> = args.cpu_threads.iter().map(|&t| cpu::threads(t)).collect();
        let blas = args.cpu_blas.as_deref().map(cpu::OpenBlas::load).transpose()?;
        let baseline = blas.as_ref().map_or(cpu::Baseline::Faer, cpu::Baseline::OpenBlas);
        eprintln!("[scorecard] CPU baseline ({}, {threads:?} threads)…", baseline.name(threads[0]));
        for (i, p) in problems.iter().enumerate() {
            eprintln!("[scorecard] {}/{} CPU {}", i + 1, problems.len(), report::shape_label(p.shape));
            for (j, &t) in threads.iter().enumerate() {
                let key = if j == 0 { "cpu".to_string() } else { format!("cpu-t{t}") };
                card.rows.extend(cpu::measure(baseline, p.shape, repeat, args.cpu_max_flops, t, &key, &p.reference, (&p.a, &p.b)));
            }
            if blas.is_some() {
                // faer beside OpenBLAS: the pure-Rust baseline a build without the library gets.
                let t = threads[0];
                card.rows.extend(cpu::measure(
                    cpu::Baseline::Faer,
                    p.shape,
                    repeat,
                    args.cpu_max_flops,
                    t,
                    "cpu-faer",
                    &p.reference,
                    (&p.a, &p.b),
                ));
            }
        }
        if let Some(path) = &args.cpu_anchor_json {
            let (rows, anchor) = cpu::numpy_rows(path, &shapes)?;
            card.rows.extend(rows);
            card.cpu_anchor = Some(anchor);
        }
    } else {
        eprintln!("[scorecard] CPU baseline skipped: FP32 is not among --precisions");
    }

    match tessera::Gpu::new(0) {
        Err(e) => {
            eprintln!("[scorecard] GPU part skipped: {e}");
            card.gpu_skipped = Some(e.to_string());
        }
        Ok(g) => {
            gpu::measure_all(&g, &problems, &cases, &precisions, args, repeat, &mut card)?;
            if args.gemm_variants {
                card.gemm_variants = variants::measure(&g, &problems, &precisions, repeat)?;
            }
        }
    }

    card.finish();
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    std::fs::write(args.out.join("scorecard.json"), serde_json::to_string_pretty(&card)?)?;
    write_outputs(&card, args)?;
    if card.rows.iter().any(|r| r.check == report::Check::Failed)
        || card.gemm_variants.iter().any(|v| v.check == report::Check::Failed || v.cublas_check == report::Check::Failed)
    {
        return Err("some results did not match the CPU reference (see the `check` column)".into());
    }
    Ok(())
}

/// Prints the table and writes scorecard.md and (with GPU figures) roofline.svg into `--out`.
fn write_outputs(card: &report::Scorecard, args: &Args) -> Result<(), Fail> {
    let md = card.markdown();
    println!("{md}");
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    std::fs::write(args.out.join("scorecard.md"), md)?;
    if card.peak_fp32_gflops.is_some() && card.copy_gb_per_s.is_some() {
        roofline::write_svg(card, &args.out.join("roofline.svg"))?;
        eprintln!("[scorecard] wrote {}/scorecard.{{json,md}} and roofline.svg", args.out.display());
    } else {
        eprintln!(
            "[scorecard] wrote {}/scorecard.{{json,md}} (no roofline: it needs the GPU's peak and the measured copy bandwidth, i.e. a GPU run with --vec-len > 0)",
            args.out.display()
        );
    }
    Ok(())
}
