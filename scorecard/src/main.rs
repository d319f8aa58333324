//! `scorecard`: runs every matmul kernel and the baselines at the chosen sizes, checks each result
//! against the CPU reference, and prints and writes the table CPU → naive → tiled → … → cuBLAS.
//!
//! All GPU figures of one run come from the same process, so ratios (÷ cuBLAS, ÷ CUDA C, ÷ copy
//! bandwidth) are meaningful even when absolute clocks drift between runs.
mod cpu;
mod emulated;
mod gpu;
mod plot;
mod report;
mod roofline;
mod sizes;
mod summary;
mod traffic;
mod variants;

use std::path::PathBuf;

use clap::Parser;
use tessera::catalogue::registry::algo::{case_label, matmul_cases};
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
    /// The operands of `shape` and the references of `sampled_rows` rows of their product.
    fn new(shape: MatmulShape, precisions: &[Precision], sampled_rows: usize) -> Self {
        let (a, b) = cpu::operands(shape, 7);
        let reference = report::SampledReference::new(&a, &b, precisions, sampled_rows);
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

/// A plot the run writes (`--plots`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plot {
    /// `roofline-<precision>.svg`, one per precision (needs the GPU's peak and the measured copy bandwidth).
    Roofline,
    /// `sizes.svg`: TFLOP/s of `Auto` and cuBLAS against the size of square products (needs two square sizes).
    Sizes,
    /// No plot.
    None,
}

/// The sizes of a run without `--sizes`.
pub const DEFAULT_SIZES: [&str; 3] = ["1024", "2048", "4096"];

/// The sizes of `--sweep` without `--sizes`: squares from 256 to 16384, powers of two and sizes between
/// them (multiples of 128 and round decimal sizes), 18 in all.
pub const SWEEP_SIZES: [u32; 18] =
    [256, 384, 512, 768, 1000, 1024, 1536, 2000, 2048, 3000, 3072, 4096, 5000, 6144, 8192, 10000, 12288, 16384];

/// Timed rounds of one shape: `--repeat`, but in the size sweep at most 3 above 2·4096³ FLOPs, where
/// a product takes milliseconds (16384³ in FP32: ~170 ms) and its median moves little between rounds.
pub fn rounds(shape: MatmulShape, repeat: usize, sweep: bool) -> usize {
    let repeat = repeat.max(1);
    if sweep && shape.flops() > 2.0 * 4096f64.powi(3) {
        repeat.min(3)
    } else {
        repeat
    }
}

/// Command-line options.
#[derive(Parser, Debug)]
#[command(version, about = "tessera scorecard: Rust GPU matmul kernels beside CPU, CUDA C and cuBLAS")]
pub struct Args {
    /// Matmul sizes: `N` for N×N×N or `MxNxK`, comma-separated (default: 1024,2048,4096; with
    /// `--sweep`: 256,384,512,768,1000,1024,1536,2000,2048,3000,3072,4096,5000,6144,8192,10000,12288,16384).
    #[arg(long, value_delimiter = ',')]
    sizes: Vec<String>,
    /// The size sweep: square sizes from 256 to 16384 (`--sizes` to choose others), `Auto` and cuBLAS
    /// of the same precision only (no other kernel unless `--kernels` names it; no CPU baseline, no
    /// CUDA C), in every precision of `--precisions`; 16 sampled rows per check, at most 3 timed
    /// rounds above 4096³; writes `sizes.svg` (and no roofline unless `--plots` asks).
    #[arg(long)]
    sweep: bool,
    /// Plots to write, comma-separated: `roofline` (one per precision), `sizes`, or `none` (default:
    /// both; with `--sweep`, or re-plotting a sweep, `sizes` only). Each is written only where the
    /// run has its data.
    #[arg(long, value_enum, value_delimiter = ',')]
    plots: Vec<Plot>,
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
    /// Do not measure: re-render scorecard.md, summary.md and the plots into --out from this
    /// scorecard.json.
    #[arg(long)]
    replot: Option<PathBuf>,
    /// Scorecards (JSON, comma-separated) of runs with `--random-shapes`: `summary.md` gives `Auto` ÷
    /// cuBLAS over their random shapes, pooled, and `random.md` a line per run.
    #[arg(long, value_delimiter = ',')]
    random_runs: Vec<PathBuf>,
    /// Threads of the CPU baseline (faer), comma-separated; 0: every core. The first is the baseline
    /// the × CPU column divides by; the others add rows (`cpu-t<N>`) to see how faer scales.
    #[arg(long, value_delimiter = ',', default_value = "0")]
    cpu_threads: Vec<usize>,
    /// numpy's SGEMM as measured by `scripts/cpu-sgemm-numpy.py` on this machine (its JSON output):
    /// added as the CPU anchor row beside the baseline at the sizes it measured.
    #[arg(long)]
    cpu_anchor_json: Option<PathBuf>,
    /// Also run this many random shapes (`tessera_catalogue::testkit::random::matmul_shapes`: M, N, K
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
    /// Also measure the FP8 `wgmma` ceilings (E4M3, E5M2: `wgmma_rate`, `m64n256k32`) beside the
    /// datasheet's dense FP8 peak (the FP8 GEMM itself is measured by the `fp8` binary).
    #[arg(long)]
    fp8_ceilings: bool,
    /// Skip the multi-core CPU baseline above this many FLOPs (it is slow on small machines).
    #[arg(long, default_value_t = 2.0 * 8192.0 * 8192.0 * 8192.0)]
    cpu_max_flops: f64,
    /// `Auto` by its model alone: no row tuned on request (which times `Auto`'s shortlist on each
    /// shape's first product) and no FP32 padded-copies row: a report of the model in less device time.
    #[arg(long)]
    model_only: bool,
}

/// Parses `N` or `MxNxK`.
fn parse_size(s: &str) -> Result<MatmulShape, String> {
    let MatmulShape { m, n, k } = s.parse()?;
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
/// (`auto` matches every `auto-<p>`). An empty `--kernels` keeps them all. A label that names no
/// case of any precision is an error (a typo, or an executable built without that kernel), as is a
/// filter that keeps none; a label of another precision only keeps nothing.
pub fn select_cases(kernels: &[String], precisions: &[Precision]) -> Result<Vec<(Algo, Precision)>, String> {
    let every = matmul_cases();
    let unknown: Vec<&str> =
        kernels.iter().filter(|k| !every.iter().any(|&(a, p)| **k == case_label(a, p) || **k == a.label())).map(String::as_str).collect();
    if !unknown.is_empty() {
        return Err(format!("--kernels names no kernel of this build: {}", unknown.join(", ")));
    }
    let cases: Vec<(Algo, Precision)> = every.into_iter().filter(|(_, p)| precisions.contains(p)).collect();
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

/// A scorecard.json, its derived columns filled.
fn load(json: &std::path::Path) -> Result<report::Scorecard, Fail> {
    let text = std::fs::read_to_string(json).map_err(|e| format!("cannot read {}: {e}", json.display()))?;
    let mut card: report::Scorecard = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    card.finish();
    Ok(card)
}

/// The sizes of the run: `--sizes`, or the default of the mode.
fn sizes_of(args: &Args) -> Vec<String> {
    match (args.sizes.is_empty(), args.sweep) {
        (false, _) => args.sizes.clone(),
        (true, false) => DEFAULT_SIZES.iter().map(|s| s.to_string()).collect(),
        (true, true) => SWEEP_SIZES.iter().map(|n| n.to_string()).collect(),
    }
}

fn run(args: &Args) -> Result<(), Fail> {
    let random_runs: Vec<report::Scorecard> = args.random_runs.iter().map(|p| load(p)).collect::<Result<_, _>>()?;
    if let Some(json) = &args.replot {
        return write_outputs(&load(json)?, &random_runs, args);
    }
    let mut shapes: Vec<MatmulShape> = sizes_of(args).iter().map(|s| parse_size(s)).collect::<Result<_, String>>()?;
    let random = (args.random_shapes > 0).then(|| args.seed.unwrap_or_else(|| tessera::catalogue::testkit::random::run_seed(0x5ca1e)));
    if let Some(seed) = random {
        eprintln!("[scorecard] {} random shapes, seed {seed} (--seed {seed} replays them)", args.random_shapes);
        shapes.extend(tessera::catalogue::testkit::random::matmul_shapes(args.random_shapes, seed, args.random_max_flops));
    }
    if shapes.iter().any(|s| s.m == 0 || s.n == 0 || s.k == 0) {
        return Err("sizes must be at least 1 in every dimension".into());
    }
    let precisions = parse_precisions(&args.precisions)?;
    // The sweep runs Auto alone (beside cuBLAS) unless --kernels names others.
    let kernels = if args.sweep && args.kernels.is_empty() { vec!["auto".to_string()] } else { args.kernels.clone() };
    let cases = select_cases(&kernels, &precisions)?;
    // Only the precisions with a case left after `--kernels` get references, ceilings and cuBLAS rows.
    let precisions: Vec<Precision> = precisions.into_iter().filter(|p| cases.iter().any(|(_, q)| q == p)).collect();
    if args.device == Device::Cpu {
        return emulated::run(args, &shapes, &cases);
    }
    let repeat = args.repeat.max(1);
    let mut card = report::Scorecard::new();
    card.random_shapes = random.map(|seed| report::RandomShapes { count: args.random_shapes, seed, max_flops: args.random_max_flops });
    card.size_sweep = args.sweep;

    let labels: Vec<&str> = precisions.iter().map(|p| p.label()).collect();
    eprintln!("[scorecard] operands and sampled f64 references ({}) for {} sizes…", labels.join(", "), shapes.len());
    let sampled = if args.sweep { report::SWEEP_SAMPLED_ROWS } else { report::SAMPLED_ROWS };
    let problems: Vec<Problem> = shapes.iter().map(|&shape| Problem::new(shape, &precisions, sampled)).collect();
    if args.sweep {
        eprintln!("[scorecard] CPU baseline skipped: the size sweep measures Auto and cuBLAS only");
    } else if precisions.contains(&Precision::Fp32) {
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
    // Every row is in scorecard.json now: the partial rows of a run cut short are not needed.
    let partial = args.out.join(gpu::PARTIAL_ROWS);
    if partial.exists() {
        std::fs::remove_file(&partial).map_err(|e| format!("cannot remove {}: {e}", partial.display()))?;
    }
    write_outputs(&card, &random_runs, args)?;
    if card.rows.iter().any(|r| r.check == report::Check::Failed)
        || card.gemm_variants.iter().any(|v| v.check == report::Check::Failed || v.cublas_check == report::Check::Failed)
    {
        return Err("some results did not match the CPU reference (see the `check` column)".into());
    }
    Ok(())
}

/// The plots to write for `card`: `--plots`, or by default both (a sweep: `sizes.svg` only).
pub fn plots_for(asked: &[Plot], sweep: bool) -> Vec<Plot> {
    match asked {
        [] if sweep => vec![Plot::Sizes],
        [] => vec![Plot::Roofline, Plot::Sizes],
        _ => asked.iter().copied().filter(|p| *p != Plot::None).collect(),
    }
}

/// Prints the table and writes into `--out`: scorecard.md (every row), summary.md (`Auto` beside
/// cuBLAS, with the random shapes of `random`), random.md (with random-shape runs) and the plots of
/// `--plots` that the data allows.
fn write_outputs(card: &report::Scorecard, random: &[report::Scorecard], args: &Args) -> Result<(), Fail> {
    let md = card.markdown();
    println!("{md}");
    let out = &args.out;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    std::fs::write(out.join("scorecard.md"), md)?;
    let random: Vec<&report::Scorecard> = random.iter().collect();
    std::fs::write(out.join("summary.md"), summary::summary_markdown(card, &random))?;
    let mut written = vec!["scorecard.md".to_string(), "summary.md".to_string()];
    let runs: Vec<&report::Scorecard> = std::iter::once(card).chain(random.iter().copied()).collect();
    let lines = summary::random_runs_markdown(&runs);
    if !lines.is_empty() {
        std::fs::write(out.join("random.md"), lines)?;
        written.push("random.md".into());
    }
    for plot in plots_for(&args.plots, card.size_sweep) {
        match plot {
            Plot::Roofline if card.peak_fp32_gflops.is_some() && card.copy_gb_per_s.is_some() => {
                for p in roofline::write_svgs(card, out)? {
                    written.push(p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default());
                }
            }
            Plot::Roofline => {
                eprintln!("[scorecard] no roofline: it needs the GPU's peak and the measured copy bandwidth (a GPU run with --vec-len > 0)")
            }
            Plot::Sizes => {
                if sizes::write_svg(card, &out.join("sizes.svg"))? {
                    written.push("sizes.svg".into());
                } else if card.size_sweep {
                    eprintln!("[scorecard] no sizes.svg: no precision has two square sizes with both Auto and cuBLAS");
                }
            }
            Plot::None => {}
        }
    }
    eprintln!("[scorecard] wrote {}: {}", out.display(), written.join(", "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_rows_keep_each_row_as_a_line_of_json() {
        let out = std::env::temp_dir().join(format!("tessera-partial-rows-{}", std::process::id()));
        let mut partial = gpu::PartialRows::create(&out).unwrap();
        let shape = MatmulShape { m: 3, n: 5, k: 7 };
        for (key, ms) in [("auto-bf16", 0.25), ("cublas-bf16", 0.5)] {
            partial.append(&report::Row::new(shape, Precision::Bf16, key, key, ms, report::Check::Ok, None)).unwrap();
        }
        let text = std::fs::read_to_string(out.join(gpu::PARTIAL_ROWS)).unwrap();
        let rows: Vec<report::Row> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.iter().map(|r| (r.key.as_str(), r.ms, r.m)).collect::<Vec<_>>(), [("auto-bf16", 0.25, 3), ("cublas-bf16", 0.5, 3)]);
        // Created again (the next run into the same folder), it starts empty.
        drop(gpu::PartialRows::create(&out).unwrap());
        assert_eq!(std::fs::read_to_string(out.join(gpu::PARTIAL_ROWS)).unwrap(), "");
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn kernels_filter_refuses_labels_this_build_does_not_have() {
        let labels = |ks: &[&str]| ks.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let bf16 = [Precision::Bf16];
        let chosen = select_cases(&labels(&["auto", "mma-splitk-bf16-16x128"]), &bf16).unwrap();
        assert_eq!(chosen, [(Algo::MmaSplitKBf16Rows16, Precision::Bf16), (Algo::Auto, Precision::Bf16)]);
        // A kernel of another precision keeps nothing, and is no error beside one that keeps a case.
        assert_eq!(select_cases(&labels(&["auto", "mma-splitk-tf32-128x32"]), &bf16).unwrap(), [(Algo::Auto, Precision::Bf16)]);
        let err = select_cases(&labels(&["auto", "mma-splitk-bf16-16x999", "no-such"]), &bf16).unwrap_err();
        assert!(err.contains("mma-splitk-bf16-16x999, no-such") && !err.contains("auto,"), "{err}");
        assert!(select_cases(&labels(&["mma-splitk-tf32-128x32"]), &bf16).is_err());
    }

    #[test]
    fn sweep_sizes_run_from_256_to_16384_with_sizes_that_are_not_powers_of_two() {
        assert_eq!((SWEEP_SIZES[0], SWEEP_SIZES[SWEEP_SIZES.len() - 1]), (256, 16384));
        assert!(SWEEP_SIZES.windows(2).all(|w| w[0] < w[1]));
        assert!(SWEEP_SIZES.iter().filter(|n| !n.is_power_of_two()).count() >= 8);
        // Every one is a shape the scorecard accepts.
        for n in SWEEP_SIZES {
            let s = parse_size(&n.to_string()).unwrap();
            assert_eq!((s.m, s.n, s.k), (n, n, n));
        }
    }

    #[test]
    fn the_sweep_times_fewer_rounds_only_on_large_products() {
        let sq = |n: u32| MatmulShape { m: n, n, k: n };
        assert_eq!(rounds(sq(4096), 5, true), 5);
        assert_eq!(rounds(sq(5000), 5, true), 3);
        assert_eq!(rounds(sq(16384), 2, true), 2);
        assert_eq!(rounds(sq(16384), 5, false), 5);
        assert_eq!(rounds(sq(256), 0, true), 1);
    }

    #[test]
    fn sizes_and_plots_by_mode() {
        let parse = |extra: &[&str]| Args::parse_from([&["scorecard"], extra].concat());
        assert_eq!(sizes_of(&parse(&[])), DEFAULT_SIZES);
        assert_eq!(sizes_of(&parse(&["--sweep"])).len(), SWEEP_SIZES.len());
        assert_eq!(sizes_of(&parse(&["--sweep", "--sizes", "300,600"])), ["300", "600"]);
        assert_eq!(plots_for(&parse(&[]).plots, false), [Plot::Roofline, Plot::Sizes]);
        assert_eq!(plots_for(&parse(&["--sweep"]).plots, true), [Plot::Sizes]);
        assert_eq!(plots_for(&parse(&["--plots", "none"]).plots, false), []);
        assert_eq!(plots_for(&parse(&["--sweep", "--plots", "roofline,sizes"]).plots, true), [Plot::Roofline, Plot::Sizes]);
    }
}
