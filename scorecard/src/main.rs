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

use std::path::PathBuf;

use clap::Parser;
use tessera::MatmulShape;

/// Any failure of a scorecard run, reported as its message.
pub type Fail = Box<dyn std::error::Error + Send + Sync>;

/// One matmul problem: its random operands and the sampled reference every result is checked against.
pub struct Problem {
    pub shape: MatmulShape,
    pub a: tessera::HostMatrix,
    pub b: tessera::HostMatrix,
    pub reference: report::SampledReference,
}

impl Problem {
    fn new(shape: MatmulShape) -> Self {
        let (a, b) = cpu::operands(shape, 7);
        let reference = report::SampledReference::new(&a, &b);
        Problem { shape, a, b, reference }
    }
}

/// Where the kernels run.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Gpu,
    Cpu,
}

/// Command-line options.
#[derive(Parser, Debug)]
#[command(version, about = "tessera scorecard: Rust GPU matmul kernels beside CPU, CUDA C and cuBLAS")]
pub struct Args {
    /// Matmul sizes: `N` for N×N×N or `MxNxK`, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024,2048,4096")]
    sizes: Vec<String>,
    /// Rust kernels to run (default: all), comma-separated labels such as `naive,tiled`.
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
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
    /// Skip the multi-core CPU baseline above this many FLOPs (it is slow on small machines).
    #[arg(long, default_value_t = 2.0 * 8192.0 * 8192.0 * 8192.0)]
    cpu_max_flops: f64,
}

/// Parses `N` or `MxNxK`.
fn parse_size(s: &str) -> Result<MatmulShape, String> {
    let parts: Vec<u32> = s.split(['x', '×']).map(|p| p.trim().parse::<u32>().map_err(|e| format!("bad size `{s}`: {e}"))).collect::<Result<_, _>>()?;
    let (m, n, k) = match parts[..] {
        [n] => (n, n, n),
        [m, n, k] => (m, n, k),
        _ => return Err(format!("bad size `{s}`: use N or MxNxK")),
    };
    MatmulShape::check((m as usize, k as usize), (k as usize, n as usize), (m as usize, n as usize)).map_err(|e| e.to_string())
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
    let shapes: Vec<MatmulShape> = args.sizes.iter().map(|s| parse_size(s)).collect::<Result<_, String>>()?;
    if shapes.iter().any(|s| s.m == 0 || s.n == 0 || s.k == 0) {
        return Err("sizes must be at least 1 in every dimension".into());
    }
    if args.device == Device::Cpu {
        return emulated::run(args, &shapes);
    }
    let repeat = args.repeat.max(1);
    let mut card = report::Scorecard::new();

    eprintln!("[scorecard] operands and sampled f64 references for {} sizes…", shapes.len());
    let problems: Vec<Problem> = shapes.iter().map(|&shape| Problem::new(shape)).collect();
    eprintln!("[scorecard] CPU baseline ({} threads)…", cpu::threads());
    for (i, p) in problems.iter().enumerate() {
        eprintln!("[scorecard] {}/{} CPU {}", i + 1, problems.len(), report::shape_label(p.shape));
        card.rows.extend(cpu::measure(p.shape, repeat, args.cpu_max_flops, &p.reference, (&p.a, &p.b)));
    }

    match tessera::Gpu::new(0) {
        Err(e) => {
            eprintln!("[scorecard] GPU part skipped: {e}");
            card.gpu_skipped = Some(e.to_string());
        }
        Ok(g) => gpu::measure_all(&g, &problems, args, repeat, &mut card)?,
    }

    card.finish();
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    std::fs::write(args.out.join("scorecard.json"), serde_json::to_string_pretty(&card)?)?;
    write_outputs(&card, args)?;
    if card.rows.iter().any(|r| r.check == report::Check::Failed) {
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
