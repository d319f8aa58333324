//! The scorecard's rows, the derived columns (speedup, % of cuBLAS, % of peak), Markdown and JSON.
use serde::{Deserialize, Serialize};
use tessera::catalogue::testkit::check::check_product;
use tessera::reference::{matmul_reference, ReferenceProduct};
use tessera::{HostMatrix, MatmulShape, Precision};

/// The precision named `label` ("fp32", "tf32", "bf16", "fp16").
pub fn precision_from_label(label: &str) -> Option<Precision> {
    Precision::ALL.into_iter().find(|p| p.label() == label)
}

fn fp32_label() -> String {
    "fp32".into()
}

/// Whether a result matched the f64 CPU reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    Ok,
    Failed,
    Skipped,
}

/// One measured implementation at one size.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub size: String,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub name: String,
    /// Stable key: `cpu`, `cpu-naive`, `naive`, `tiled`, …, `auto-fp32`, `mma-pipe-bf16-128x256`,
    /// `auto-bf16`, …, `cuda-c-naive`, `cublas` (FP32), `cublas-tf32`, `cublas-bf16`, `cublas-fp16`.
    pub key: String,
    /// The precision the product ran in: `fp32`, `tf32`, `bf16`, `fp16` (older scorecards: `fp32`).
    #[serde(default = "fp32_label")]
    pub precision: String,
    pub ms: f64,
    pub gflops: f64,
    /// Counted global-memory bytes (see `traffic::global_bytes`), when known.
    pub global_bytes: Option<f64>,
    pub flop_per_byte: Option<f64>,
    pub check: Check,
    pub speedup_vs_cpu: Option<f64>,
    /// 100 × cuBLAS time ÷ this time, against cuBLAS **of the same precision** at the same size.
    pub pct_of_cublas: Option<f64>,
    /// % of the FP32 peak (FP32 rows only).
    pub pct_of_peak: Option<f64>,
    /// % of the measured `mma.sync` ceiling of the row's precision (TF32, BF16, FP16 rows).
    #[serde(default)]
    pub pct_of_mma_ceiling: Option<f64>,
    /// % of the measured `wgmma` ceiling of the row's precision (TF32, BF16, FP16 rows, sm_90a).
    #[serde(default)]
    pub pct_of_wgmma_ceiling: Option<f64>,
    /// CUDA C time ÷ Rust time for the same algorithm (> 1: the Rust kernel is faster), Rust rows only.
    pub vs_cuda_c: Option<f64>,
    /// What a Rust row ran (`tessera::Gpu::plan`'s one-line description: the kernel entry, its grid,
    /// K slices, copies), where it is one launch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// The time the models expected of that kernel on this GPU's SMs
    /// (`tessera::catalogue::select::expected_us`), µs: measured ÷ expected without replaying the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_us: Option<f64>,
}

impl Row {
    pub fn new(shape: MatmulShape, precision: Precision, name: &str, key: &str, ms: f64, check: Check, global_bytes: Option<f64>) -> Self {
        Row {
            precision: precision.label().into(),
            size: shape_label(shape),
            m: shape.m,
            n: shape.n,
            k: shape.k,
            name: name.into(),
            key: key.into(),
            ms,
            gflops: shape.flops() / (ms * 1e-3) / 1e9,
            global_bytes,
            flop_per_byte: global_bytes.map(|b| shape.flops() / b),
            check,
            speedup_vs_cpu: None,
            pct_of_cublas: None,
            pct_of_peak: None,
            pct_of_mma_ceiling: None,
            pct_of_wgmma_ceiling: None,
            vs_cuda_c: None,
            plan: None,
            expected_us: None,
        }
    }
}

/// Bandwidth figures for the vec_add section.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bandwidth {
    pub name: String,
    pub elements: usize,
    pub bytes: f64,
    pub ms: f64,
    pub gb_per_s: f64,
    pub pct_of_copy: Option<f64>,
    pub check: Check,
}

/// The measured `mma.sync` rate of one precision: the tensor-core roof of its section.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MmaCeiling {
    /// `tf32`, `bf16`, `fp16`.
    pub precision: String,
    pub tflops: f64,
    /// Blocks of 256 threads per launch, iterations per warp, median ms of one launch.
    pub blocks: u32,
    pub iters: u32,
    pub ms: f64,
    /// Where the figure comes from, e.g. "measured, mma_rate_bf16".
    pub source: String,
}

/// The measured `wgmma` rate of one precision (sm_90a): the roof of a GEMM built on `wgmma`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WgmmaCeiling {
    /// `tf32`, `bf16`, `fp16`.
    pub precision: String,
    /// The fastest configuration's rate.
    pub tflops: f64,
    /// Its blocks of 128 threads (one warpgroup each), warpgroups per SM, groups of 4 `wgmma`s per
    /// warpgroup, median ms of one launch.
    pub blocks: u32,
    pub warpgroups_per_sm: u32,
    pub iters: u32,
    pub ms: f64,
    /// Where the figure comes from, e.g. "measured, wgmma_rate_bf16".
    pub source: String,
    /// Every configuration measured: (warpgroups per SM, TFLOP/s).
    pub tried: Vec<(u32, f64)>,
}

/// A datasheet figure: the dense tensor-core peak of one precision, and its source.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PeakFigure {
    pub precision: String,
    pub tflops: f64,
    pub source: String,
}

/// One variant at one size and precision.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VariantRow {
    pub size: String,
    pub precision: String,
    /// `op(A) op(B)`: "NN", "NT", "TN", "TT".
    pub ops: String,
    /// "row-major" or "column-major" (all three matrices).
    pub layout: String,
    /// The passes `Gpu::gemm` adds around the matmul kernel (from the catalogue's plan).
    pub extra: String,
    pub ms: f64,
    pub tflops: f64,
    /// The plain `Gpu::matmul` (Auto, same precision, same size), measured in this section.
    pub matmul_ms: f64,
    /// cuBLAS GemmEx with the same transposes, layouts and precision.
    pub cublas_ms: f64,
    pub cublas_tflops: f64,
    pub check: Check,
    /// cuBLAS's result against the same sampled reference.
    pub cublas_check: Check,
}

/// Everything one run measured.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Scorecard {
    pub device: Option<String>,
    pub compute_capability: Option<String>,
    pub sm_count: Option<u32>,
    pub sm_clock_mhz: Option<f64>,
    pub peak_fp32_gflops: Option<f64>,
    pub copy_gb_per_s: Option<f64>,
    /// The measured `mma.sync` ceilings, one per tensor-core precision of the run.
    #[serde(default)]
    pub mma_ceilings: Vec<MmaCeiling>,
    /// The measured `wgmma` ceilings (sm_90a devices), one per tensor-core precision of the run.
    #[serde(default)]
    pub wgmma_ceilings: Vec<WgmmaCeiling>,
    /// The datasheet's dense tensor-core peaks of the device (known devices only: the H200).
    #[serde(default)]
    pub datasheet_peaks: Vec<PeakFigure>,
    pub gpu_skipped: Option<String>,
    pub rows: Vec<Row>,
    pub bandwidth: Vec<Bandwidth>,
    /// `--gemm-variants`: `Gpu::gemm` with transposes and layouts beside matmul and cuBLAS.
    #[serde(default)]
    pub gemm_variants: Vec<VariantRow>,
    /// `--cpu-anchor-json`: what the numpy script reported (BLAS, threads), for the CPU section.
    #[serde(default)]
    pub cpu_anchor: Option<String>,
    /// `--random-shapes`: how many, their seed and FLOP cap (the shapes are among the rows).
    #[serde(default)]
    pub random_shapes: Option<RandomShapes>,
    /// How the matmul rows were timed (`--timing`): `queued` or `paced`; absent in runs before the
    /// option (paced).
    #[serde(default)]
    pub timing: Option<String>,
    /// `--timing queued`: batches timed, and those the host had not finished queueing when the
    /// hold ended (timed with launch gaps, see `tessera::QueuedTimer`).
    #[serde(default)]
    pub queued_batches: usize,
    #[serde(default)]
    pub unheld_batches: usize,
    /// `--sweep`: the size sweep (square sizes, `Auto` and cuBLAS of each precision only).
    #[serde(default)]
    pub size_sweep: bool,
}

/// The random shapes of a run (`tessera_catalogue::testkit::random::matmul_shapes`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct RandomShapes {
    pub count: usize,
    pub seed: u64,
    pub max_flops: f64,
}

pub fn shape_label(s: MatmulShape) -> String {
    if s.m == s.n && s.n == s.k {
        format!("{}³", s.m)
    } else {
        format!("{}×{}×{}", s.m, s.n, s.k)
    }
}

/// The f64 references of a few evenly spread rows of `A·B` (64 in a normal run, [`SWEEP_SAMPLED_ROWS`]
/// in the size sweep; the full reference of a 4096³ product would take a minute of CPU), one per
/// precision of the run, each over the inputs rounded to that
/// precision's format (`Precision::round_input`), computed once per shape and checked against every
/// implementation of that precision with `Precision::tolerance`.
pub struct SampledReference {
    picks: Vec<usize>,
    references: Vec<(Precision, ReferenceProduct)>,
}

impl SampledReference {
    /// The references of `rows` evenly spread rows (all of them when `A` has no more).
    pub fn new(a: &HostMatrix, b: &HostMatrix, precisions: &[Precision], rows: usize) -> Self {
        let picks = sampled_rows(a.rows, rows);
        let mut unique: Vec<Precision> = Vec::new();
        for &p in precisions {
            if !unique.contains(&p) {
                unique.push(p);
            }
        }
        // Every (precision, row) on its own task: each row of the reference reads all of `B` (at 8192³,
        // 8192² f64 multiply-adds), so rows spread over the cores rather than one thread per precision.
        // Row by row through `matmul_reference` gives the same f64 values as all rows in one call.
        use rayon::prelude::*;
        let references = unique
            .par_iter()
            .map(|&p| {
                let b_rounded = HostMatrix { rows: b.rows, cols: b.cols, data: b.data.par_iter().map(|&x| p.round_input(x)).collect() };
                let rows: Vec<ReferenceProduct> = picks
                    .par_iter()
                    .map(|&r| matmul_reference(&HostMatrix::from_fn(1, a.cols, |_, c| p.round_input(a.get(r, c))), &b_rounded))
                    .collect();
                let value = rows.iter().flat_map(|r| r.value.iter().copied()).collect();
                let abs_sum = rows.iter().flat_map(|r| r.abs_sum.iter().copied()).collect();
                (p, ReferenceProduct { rows: picks.len(), cols: b.cols, k: a.cols, value, abs_sum })
            })
            .collect();
        Self { picks, references }
    }

    /// Whether the sampled rows of `got` (a product computed in `precision`) are within tolerance of
    /// the reference of the inputs rounded to `precision`. A precision without a reference fails loudly.
    pub fn check(&self, precision: Precision, got: &HostMatrix) -> Check {
        let Some((_, reference)) = self.references.iter().find(|(p, _)| *p == precision) else {
            eprintln!("[scorecard] check failed: no {} reference was computed", precision.label());
            return Check::Failed;
        };
        let got_rows: Vec<f32> = self.picks.iter().flat_map(|&r| (0..got.cols).map(move |c| (r, c))).map(|(r, c)| got.get(r, c)).collect();
        match check_product(precision, &got_rows, reference) {
            Ok(()) => Check::Ok,
            Err(e) => {
                eprintln!("[scorecard] check failed ({}): {e}", precision.label());
                Check::Failed
            }
        }
    }
}

/// Rows of the sampled reference in a normal run.
pub const SAMPLED_ROWS: usize = 64;
/// Rows of the sampled reference in the size sweep: at 16384³ each row of the f64 reference reads all
/// of `B` (1 GiB), so 16 rows keep the check to seconds (16 × 16384 outputs checked per product).
pub const SWEEP_SAMPLED_ROWS: usize = 16;

/// `want` row indices evenly spread over `0..rows`, first and last included (every row when there
/// are no more than `want`).
pub fn sampled_rows(rows: usize, want: usize) -> Vec<usize> {
    if rows <= want || want <= 1 {
        return (0..rows.min(want)).collect();
    }
    (0..want).map(|i| i * (rows - 1) / (want - 1)).collect()
}

/// Whether a row is one of tessera's Rust kernels (not CPU, CUDA C or cuBLAS).
pub fn is_rust(r: &Row) -> bool {
    !r.key.starts_with("cpu") && !r.key.starts_with("cuda-c") && !r.key.starts_with("cublas")
}

/// The key of the cuBLAS row of `precision` ("cublas" for FP32, as in older scorecards).
pub fn cublas_key(precision: Precision) -> String {
    match precision {
        Precision::Fp32 => "cublas".into(),
        p => format!("cublas-{}", p.label()),
    }
}

impl Scorecard {
    pub fn new() -> Self {
        Self::default()
    }

    /// The measured `mma.sync` ceiling of `precision` in GFLOP/s, when this run has one.
    pub fn mma_ceiling_gflops(&self, precision: &str) -> Option<f64> {
        self.mma_ceilings.iter().find(|c| c.precision == precision).map(|c| c.tflops * 1e3)
    }

    /// The measured `wgmma` ceiling of `precision` in GFLOP/s, when this run has one.
    pub fn wgmma_ceiling_gflops(&self, precision: &str) -> Option<f64> {
        self.wgmma_ceilings.iter().find(|c| c.precision == precision).map(|c| c.tflops * 1e3)
    }

    /// The datasheet's dense peak of `precision` in GFLOP/s, when known for this device.
    pub fn datasheet_peak_gflops(&self, precision: &str) -> Option<f64> {
        self.datasheet_peaks.iter().find(|c| c.precision == precision).map(|c| c.tflops * 1e3)
    }

    /// Fills the derived columns from the rows of the same size (and precision).
    pub fn finish(&mut self) {
        // Per size and precision, the seed's order: CPU → the Rust ladder → CUDA C twins → cuBLAS.
        let mut sizes: Vec<String> = Vec::new();
        for r in &self.rows {
            if !sizes.contains(&r.size) {
                sizes.push(r.size.clone());
            }
        }
        let rank = |r: &Row| match r.key.as_str() {
            "cpu-naive" => 1,
            k if k.starts_with("cpu") => 0,
            k if k.starts_with("cublas") => 4,
            k if k.starts_with("cuda-c") => 3,
            _ => 2,
        };
        let precision_rank = |r: &Row| Precision::ALL.iter().position(|p| p.label() == r.precision).unwrap_or(0);
        // Stable sort: the ladder keeps its measured (ladder) order.
        self.rows.sort_by_key(|r| (sizes.iter().position(|s| *s == r.size), precision_rank(r), rank(r)));
        let snapshot = self.rows.clone();
        let find = |size: &str, key: &str| snapshot.iter().find(|r| r.size == size && r.key == key).cloned();
        let ceilings: Vec<(String, f64)> = self.mma_ceilings.iter().map(|c| (c.precision.clone(), c.tflops * 1e3)).collect();
        let wgmma: Vec<(String, f64)> = self.wgmma_ceilings.iter().map(|c| (c.precision.clone(), c.tflops * 1e3)).collect();
        for row in &mut self.rows {
            let cpu = find(&row.size, "cpu");
            let cublas = precision_from_label(&row.precision).and_then(|p| find(&row.size, &cublas_key(p)));
            let fp32 = row.precision == "fp32";
            row.speedup_vs_cpu = cpu.map(|c| c.ms / row.ms);
            row.pct_of_cublas = cublas.map(|c| 100.0 * c.ms / row.ms);
            row.pct_of_peak = self.peak_fp32_gflops.filter(|_| fp32 && !row.key.starts_with("cpu")).map(|p| 100.0 * row.gflops / p);
            row.pct_of_mma_ceiling = ceilings.iter().find(|(p, _)| *p == row.precision).map(|(_, c)| 100.0 * row.gflops / c);
            row.pct_of_wgmma_ceiling = wgmma.iter().find(|(p, _)| *p == row.precision).map(|(_, c)| 100.0 * row.gflops / c);
            if is_rust(row) {
                row.vs_cuda_c = find(&row.size, &format!("cuda-c-{}", row.key)).map(|c| c.ms / row.ms);
            }
        }
        if let Some(copy) = self.copy_gb_per_s {
            for bw in &mut self.bandwidth {
                bw.pct_of_copy = Some(100.0 * bw.gb_per_s / copy);
            }
        }
    }

    /// The precisions that have rows, widest first.
    pub fn precisions(&self) -> Vec<Precision> {
        Precision::ALL.into_iter().filter(|p| self.rows.iter().any(|r| r.precision == p.label() && !r.key.starts_with("cpu"))).collect()
    }

    /// Per size: the best Rust kernel of `precision` (fastest Rust row of it) and its share of cuBLAS
    /// of the same precision.
    pub fn best_rust(&self, precision: Precision) -> Vec<(String, Row, Option<f64>)> {
        self.fastest_per_size(precision, is_rust).into_iter().map(|(size, r)| (size, r.clone(), r.pct_of_cublas)).collect()
    }

    /// The fastest catalogue kernel of each size in `precision` (Rust rows other than `Auto`'s:
    /// `auto-…`, its padded path and its tuned row are not kernels of the catalogue).
    pub fn best_kernel(&self, precision: Precision) -> Vec<(String, Row)> {
        let kernel = |r: &Row| is_rust(r) && !r.key.starts_with("auto-");
        self.fastest_per_size(precision, kernel).into_iter().map(|(size, r)| (size, r.clone())).collect()
    }

    /// Per size, in the order sizes first appear: the fastest row of `precision` that `keep` accepts.
    fn fastest_per_size(&self, precision: Precision, keep: impl Fn(&Row) -> bool) -> Vec<(String, &Row)> {
        let mut out: Vec<(String, &Row)> = Vec::new();
        for r in self.rows.iter().filter(|r| keep(r) && r.precision == precision.label()) {
            match out.iter_mut().find(|(size, _)| *size == r.size) {
                Some(entry) if entry.1.gflops < r.gflops => entry.1 = r,
                Some(_) => {}
                None => out.push((r.size.clone(), r)),
            }
        }
        out
    }

    /// `Auto` in `precision` over the run's sizes: [`Scorecard::auto_summary_of`] its row.
    pub fn auto_summary(&self, precision: Precision) -> Option<String> {
        self.auto_summary_of(precision, &format!("auto-{}", precision.label()), "Auto")
    }

    /// The rows keyed `key` over the run's sizes: the geometric mean and the minimum (with its size) of
    /// them ÷ cuBLAS, the minimum of them ÷ the best catalogue kernel ([`Scorecard::best_kernel`]), how
    /// many sizes fall below 0.60 of cuBLAS and below 0.95 of the best kernel — Auto's acceptance
    /// figures (docs/tuning.md). `None` without such rows or cuBLAS rows.
    pub fn auto_summary_of(&self, precision: Precision, key: &str, what: &str) -> Option<String> {
        let best = self.best_kernel(precision);
        let mut vs_cublas: Vec<(String, f64)> = Vec::new();
        let mut vs_best: Vec<(String, f64)> = Vec::new();
        for r in self.rows.iter().filter(|r| r.key == key) {
            vs_cublas.push((r.size.clone(), r.pct_of_cublas? / 100.0));
            if let Some((_, b)) = best.iter().find(|(size, _)| *size == r.size) {
                vs_best.push((r.size.clone(), r.gflops / b.gflops));
            }
        }
        let min = |v: &[(String, f64)]| v.iter().cloned().min_by(|a, b| a.1.total_cmp(&b.1));
        let (worst_size, worst) = min(&vs_cublas)?;
        let geomean = (vs_cublas.iter().map(|(_, r)| r.ln()).sum::<f64>() / vs_cublas.len() as f64).exp();
        let below = vs_cublas.iter().filter(|(_, r)| *r < 0.60).count();
        // A run of Auto alone (the suite through `--kernels auto-fp32`) has no kernel rows to compare with.
        let vs_kernels = match min(&vs_best) {
            Some((size, lowest)) => {
                let below_best = vs_best.iter().filter(|(_, r)| *r < 0.95).count();
                format!("; {what} ÷ the best catalogue kernel of each size: lowest {lowest:.3} ({size}), {below_best} below 0.95")
            }
            None => String::new(),
        };
        Some(format!(
            "{what} over these {} sizes: geometric mean **{geomean:.3}** of cuBLAS, lowest {worst:.3} ({worst_size}), {below} below 0.60{vs_kernels}.\n",
            vs_cublas.len()
        ))
    }

    /// Geometric mean over sizes of (best Rust kernel ÷ cuBLAS) in `precision`, when every size has a
    /// cuBLAS row of it.
    pub fn geomean_best_vs_cublas(&self, precision: Precision) -> Option<f64> {
        let ratios: Vec<f64> = self.best_rust(precision).iter().map(|(_, _, pct)| pct.map(|p| p / 100.0)).collect::<Option<_>>()?;
        (!ratios.is_empty()).then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
    }

    /// The table in Markdown: the FP32 section (a summary line per size, CPU → naive → tiled → … best
    /// → cuBLAS, then every row), a section per tensor-core precision (its kernels beside cuBLAS of
    /// the same precision and the measured `mma.sync` ceiling), then the bandwidth section.
    pub fn markdown(&self) -> String {
        let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map(f).unwrap_or_else(|| "—".into());
        let mut s = String::new();
        if let Some(dev) = &self.device {
            s += &format!(
                "Device: **{dev}** (sm_{}, {} SMs, {} MHz) — FP32 peak {} GFLOP/s, device copy {} GB/s (measured)\n\n",
                self.compute_capability.clone().unwrap_or_default(),
                self.sm_count.unwrap_or(0),
                opt(self.sm_clock_mhz, &|v| format!("{v:.0}")),
                opt(self.peak_fp32_gflops, &|v| format!("{v:.0}")),
                opt(self.copy_gb_per_s, &|v| format!("{v:.0}")),
            );
        }
        if !self.mma_ceilings.is_empty() {
            s += "Tensor-core ceilings (`mma.sync` issue rate, all SMs, CUDA events):\n\n| precision | TFLOP/s | blocks × 256 threads | iters | ms per launch | source |\n|---|---:|---:|---:|---:|---|\n";
            for c in &self.mma_ceilings {
                s += &format!(
                    "| {} | {:.1} | {} | {} | {:.2} | {} |\n",
                    c.precision.to_uppercase(),
                    c.tflops,
                    c.blocks,
                    c.iters,
                    c.ms,
                    c.source
                );
            }
            s += "\n";
        }
        s += &self.ceilings_markdown();
        if let Some(why) = &self.gpu_skipped {
            s += &format!("**GPU part skipped**: {why}. Only the CPU baseline was measured.\n\n");
        }
        let gf = |size: &str, key: &str| {
            self.rows.iter().find(|r| r.size == size && r.key == key).map(|r| format!("{:.0}", r.gflops)).unwrap_or_else(|| "—".into())
        };
        let has_fp32 = self.rows.iter().any(|r| r.precision == "fp32");
        if has_fp32 {
            let fp32 = Precision::Fp32;
            s += "## FP32\n\n";
            for cpu in self.rows.iter().filter(|r| r.key == "cpu") {
                if let Some(np) = self.rows.iter().find(|r| r.key == "cpu-numpy" && r.size == cpu.size) {
                    s += &format!(
                        "CPU baseline at {}: {} {:.0} GFLOP/s = **{:.3}** × numpy's SGEMM ({}) {:.0} GFLOP/s, same machine, same run; \
                         the × CPU column is against it.\n\n",
                        cpu.size,
                        cpu.name,
                        cpu.gflops,
                        cpu.gflops / np.gflops,
                        self.cpu_anchor.as_deref().unwrap_or("numpy"),
                        np.gflops
                    );
                }
            }
            let best = self.best_rust(fp32);
            if !best.is_empty() {
                s += "| size | CPU | naive | tiled | best Rust kernel | cuBLAS | best ÷ cuBLAS |\n|---|---:|---:|---:|---|---:|---:|\n";
                for (size, row, pct) in &best {
                    s += &format!(
                        "| {size} | {} | {} | {} | {} {:.0} | {} | {} |\n",
                        gf(size, "cpu"),
                        gf(size, "naive"),
                        gf(size, "tiled"),
                        row.name,
                        row.gflops,
                        gf(size, "cublas"),
                        opt(*pct, &|v| format!("{:.3}", v / 100.0)),
                    );
                }
                if let Some(g) = self.geomean_best_vs_cublas(fp32) {
                    s += &format!("\nGeometric mean of best Rust kernel ÷ cuBLAS over these sizes: **{g:.3}**.\n");
                }
                if let Some(line) = self.auto_summary(fp32) {
                    s += &format!("\n{line}");
                }
                if let Some(line) = self.auto_summary_of(fp32, "auto-fp32-tuned", "Auto tuned on request") {
                    s += &format!("\n{line}");
                }
                if let Some(t) = &self.timing {
                    s += &format!(
                        "\nTiming: `{t}`{}.\n",
                        if t == "queued" {
                            format!(" (each batch queued behind a hold before its first event: GPU time of launches back to back; {} of {} batches not held)", self.unheld_batches, self.queued_batches)
                        } else {
                            " (launches timed as the host queues them)".to_string()
                        }
                    );
                }
                if let Some(r) = self.random_shapes {
                    s += &format!(
                        "\nThe last {} sizes are random (`--random-shapes {} --seed {}`, 2·M·N·K ≤ {:.3e}).\n",
                        r.count, r.count, r.seed, r.max_flops
                    );
                }
                s += "\nGFLOP/s, all from one run. Every row:\n\n";
            }
            s += "| size | implementation | precision | GFLOP/s | ms | × CPU | % cuBLAS | % peak | ÷ CUDA C | FLOP/B | check |\n";
            s += "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
            for r in self.rows.iter().filter(|r| r.precision == "fp32") {
                s += &format!(
                    "| {} | {} | {} | {:.0} | {:.3} | {} | {} | {} | {} | {} | {:?} |\n",
                    r.size,
                    r.name,
                    r.precision.to_uppercase(),
                    r.gflops,
                    r.ms,
                    opt(r.speedup_vs_cpu, &|v| format!("{v:.1}×")),
                    opt(r.pct_of_cublas, &|v| format!("{v:.1}%")),
                    opt(r.pct_of_peak, &|v| format!("{v:.1}%")),
                    opt(r.vs_cuda_c, &|v| format!("{v:.3}")),
                    opt(r.flop_per_byte, &|v| format!("{v:.2}")),
                    r.check,
                );
            }
        }
        for p in self.precisions().into_iter().filter(|p| *p != Precision::Fp32) {
            let (label, upper) = (p.label(), p.label().to_uppercase());
            let ceiling = self.mma_ceiling_gflops(label);
            s += &format!("\n## {upper} (tensor cores, f32 accumulation and output)\n\n");
            let wgmma = self.wgmma_ceiling_gflops(label);
            let peak = self.datasheet_peak_gflops(label);
            s += &match self.mma_ceilings.iter().find(|c| c.precision == label) {
                Some(c) => format!(
                    "`mma.sync` ceiling: **{:.1} TFLOP/s** ({}). Ratios are against cuBLAS {upper} (`cublasGemmEx`) and this ceiling: \
                     the roof of a kernel built on `mma.sync` (kernels 11–13); the `wgmma` kernels (14) and cuBLAS on sm_90 \
                     can pass it.\n\n",
                    c.tflops, c.source
                ),
                None => format!("No `mma.sync` ceiling measured for {upper}. Ratios are against cuBLAS {upper} (`cublasGemmEx`).\n\n"),
            };
            if let Some(c) = self.wgmma_ceilings.iter().find(|c| c.precision == label) {
                s += &format!(
                    "`wgmma` ceiling: **{:.1} TFLOP/s** ({}, {} warpgroup(s) per SM): the roof of a kernel built on `wgmma` (kernel 14 on){}.\n\n",
                    c.tflops,
                    c.source,
                    c.warpgroups_per_sm,
                    opt(peak, &|p| format!("; the datasheet's dense peak is {:.1} TFLOP/s ({:.3} of it measured)", p / 1e3, c.tflops * 1e3 / p))
                );
            }
            let best = self.best_rust(p);
            let ck = cublas_key(p);
            if !best.is_empty() {
                s += &format!(
                    "| size | best Rust kernel | TFLOP/s | cuBLAS {upper} TFLOP/s | best ÷ cuBLAS | best ÷ mma ceiling | cuBLAS ÷ mma ceiling | best ÷ wgmma ceiling | cuBLAS ÷ wgmma ceiling | best ÷ datasheet peak |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                );
                for (size, row, pct) in &best {
                    let cublas = self.rows.iter().find(|r| r.size == *size && r.key == ck).map(|r| r.gflops);
                    s += &format!(
                        "| {size} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} |\n",
                        row.name,
                        row.gflops / 1e3,
                        opt(cublas, &|v| format!("{:.1}", v / 1e3)),
                        opt(*pct, &|v| format!("{:.3}", v / 100.0)),
                        opt(ceiling, &|c| format!("{:.3}", row.gflops / c)),
                        opt(cublas.zip(ceiling).map(|(c, m)| c / m), &|v| format!("{v:.3}")),
                        opt(wgmma, &|c| format!("{:.3}", row.gflops / c)),
                        opt(cublas.zip(wgmma).map(|(c, m)| c / m), &|v| format!("{v:.3}")),
                        opt(peak, &|p| format!("{:.3}", row.gflops / p)),
                    );
                }
                if let Some(g) = self.geomean_best_vs_cublas(p) {
                    s += &format!("\nGeometric mean of best Rust {upper} kernel ÷ cuBLAS {upper} over these sizes: **{g:.3}**.\n");
                }
                s += "\nEvery row:\n\n";
            }
            s += &format!("| size | implementation | precision | TFLOP/s | ms | ÷ cuBLAS {upper} | ÷ mma ceiling | ÷ wgmma ceiling | FLOP/B | check |\n");
            s += "|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
            for r in self.rows.iter().filter(|r| r.precision == label) {
                s += &format!(
                    "| {} | {} | {} | {:.1} | {:.3} | {} | {} | {} | {} | {:?} |\n",
                    r.size,
                    r.name,
                    upper,
                    r.gflops / 1e3,
                    r.ms,
                    opt(r.pct_of_cublas, &|v| format!("{:.3}", v / 100.0)),
                    opt(r.pct_of_mma_ceiling, &|v| format!("{:.3}", v / 100.0)),
                    opt(r.pct_of_wgmma_ceiling, &|v| format!("{:.3}", v / 100.0)),
                    opt(r.flop_per_byte, &|v| format!("{v:.2}")),
                    r.check,
                );
            }
        }
        s += &crate::summary::sweep_markdown(self);
        s += &variants_markdown(&self.gemm_variants);
        if !self.bandwidth.is_empty() {
            s += "\n| bandwidth | elements | GB/s | ms | % of device copy | check |\n|---|---:|---:|---:|---:|---|\n";
            for b in &self.bandwidth {
                s += &format!(
                    "| {} | {} | {:.0} | {:.4} | {} | {:?} |\n",
                    b.name,
                    b.elements,
                    b.gb_per_s,
                    b.ms,
                    opt(b.pct_of_copy, &|v| format!("{v:.1}%")),
                    b.check
                );
            }
        }
        s
    }
}

impl Scorecard {
    /// The ceilings beside the hardware's limit: per tensor-core precision, the datasheet's dense
    /// peak, the measured `wgmma` and `mma.sync` rates and their fractions of it (empty without
    /// `wgmma` ceilings or datasheet figures).
    fn ceilings_markdown(&self) -> String {
        if self.wgmma_ceilings.is_empty() && self.datasheet_peaks.is_empty() {
            return String::new();
        }
        let opt = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map(f).unwrap_or_else(|| "—".into());
        let mut s = String::from(
            "Tensor-core ceilings beside the datasheet (`wgmma` issue rate: `wgmma_rate`, one warpgroup per block, back-to-back \
             `m64n256k16` / `m64n256k8` / `m64n256k32` (FP8) on a fixed shared tile, all SMs, CUDA events; the fastest of 1–3 warpgroups per SM):\n\n\
             | precision | datasheet dense peak TFLOP/s | `wgmma` TFLOP/s | `wgmma` ÷ peak | `mma.sync` TFLOP/s | `mma.sync` ÷ peak | `wgmma` by warpgroups per SM | iters | ms per launch |\n\
             |---|---:|---:|---:|---:|---:|---|---:|---:|\n",
        );
        let mut labels: Vec<&str> = self.wgmma_ceilings.iter().map(|c| c.precision.as_str()).collect();
        for p in self.datasheet_peaks.iter().map(|p| p.precision.as_str()).chain(self.mma_ceilings.iter().map(|c| c.precision.as_str())) {
            if !labels.contains(&p) {
                labels.push(p);
            }
        }
        for label in labels {
            let peak = self.datasheet_peak_gflops(label).map(|g| g / 1e3);
            let w = self.wgmma_ceilings.iter().find(|c| c.precision == label);
            let m = self.mma_ceilings.iter().find(|c| c.precision == label).map(|c| c.tflops);
            s += &format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                label.to_uppercase(),
                opt(peak, &|v| format!("{v:.1}")),
                opt(w.map(|c| c.tflops), &|v| format!("{v:.1}")),
                opt(w.map(|c| c.tflops).zip(peak).map(|(a, b)| a / b), &|v| format!("{v:.3}")),
                opt(m, &|v| format!("{v:.1}")),
                opt(m.zip(peak).map(|(a, b)| a / b), &|v| format!("{v:.3}")),
                w.map(|c| c.tried.iter().map(|(n, t)| format!("{n}: {t:.1}")).collect::<Vec<_>>().join(", ")).unwrap_or_else(|| "—".into()),
                opt(w.map(|c| f64::from(c.iters)), &|v| format!("{v:.0}")),
                opt(w.map(|c| c.ms), &|v| format!("{v:.2}")),
            );
        }
        let sources: Vec<&str> = {
            let mut v: Vec<&str> = self.datasheet_peaks.iter().map(|p| p.source.as_str()).collect();
            v.dedup();
            v
        };
        if !sources.is_empty() {
            s += &format!("\nDatasheet figures: {}.\n", sources.join("; "));
        }
        s + "\n"
    }
}

/// The GEMM variants section in Markdown (empty without variants).
fn variants_markdown(rows: &[VariantRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\n## GEMM variants (`Gpu::gemm`: transposes and layouts)\n\n\
         `C = op(A)·op(B)` (α = 1, β = 0) with every matrix in the layout shown. tessera's time includes its extra passes \
         (packs into scratch, epilogue) and their scratch allocation; ÷ matmul is the plain `Gpu::matmul` (Auto) time over \
         this one; cuBLAS is `cublasGemmEx` with the same transposes, layouts and precision (it transposes natively).\n\n\
         | size | precision | op(A) op(B) | layout | extra passes | TFLOP/s | ÷ matmul | cuBLAS TFLOP/s | ÷ cuBLAS same op | check | cuBLAS check |\n\
         |---|---|---|---|---|---:|---:|---:|---:|---|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {} | {} | {:.1} | {:.3} | {:.1} | {:.3} | {:?} | {:?} |\n",
            r.size,
            r.precision.to_uppercase(),
            r.ops,
            r.layout,
            r.extra,
            r.tflops,
            r.matmul_ms / r.ms,
            r.cublas_tflops,
            r.cublas_ms / r.ms,
            r.check,
            r.cublas_check
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_rows_spread_evenly_with_both_ends() {
        assert_eq!(sampled_rows(5, 16), [0, 1, 2, 3, 4]);
        assert_eq!(sampled_rows(100, 4), [0, 33, 66, 99]);
        assert_eq!(sampled_rows(16384, 16).last(), Some(&16383));
        assert_eq!(sampled_rows(10, 1), [0]);
        assert!(sampled_rows(10, 0).is_empty());
    }

    /// The reference built row by row on many threads is the catalogue's reference of the sampled
    /// rows, value for value, in each precision; and its check passes the exact product and fails one
    /// wrong element.
    #[test]
    fn sampled_reference_is_the_reference_of_its_rows() {
        let (a, b) = (HostMatrix::random(70, 33, 1), HostMatrix::random(33, 20, 2));
        let precisions = [Precision::Fp32, Precision::Bf16, Precision::Fp32];
        let s = SampledReference::new(&a, &b, &precisions, 16);
        assert_eq!(s.picks, sampled_rows(70, 16));
        assert_eq!(s.references.len(), 2);
        for (p, got) in &s.references {
            let round =
                |m: &HostMatrix| HostMatrix { rows: m.rows, cols: m.cols, data: m.data.iter().map(|&x| p.round_input(x)).collect() };
            let rows = HostMatrix::from_fn(s.picks.len(), a.cols, |r, c| a.get(s.picks[r], c));
            let want = matmul_reference(&round(&rows), &round(&b));
            assert_eq!((got.rows, got.cols, got.k), (want.rows, want.cols, want.k));
            assert_eq!(got.value, want.value);
            assert_eq!(got.abs_sum, want.abs_sum);
        }
        let full = matmul_reference(&a, &b);
        let mut c = HostMatrix { rows: 70, cols: 20, data: full.value.iter().map(|&v| v as f32).collect() };
        assert_eq!(s.check(Precision::Fp32, &c), Check::Ok);
        c.data[s.picks[3] * 20 + 7] += 0.5;
        assert_eq!(s.check(Precision::Fp32, &c), Check::Failed);
    }

    /// Auto's summary: geometric mean and minimum against cuBLAS, the sizes under 0.60, and the
    /// minimum against the best Rust kernel of each size.
    #[test]
    fn auto_summary_reports_what_issue_14_asks() {
        let (s1, s2) = (MatmulShape { m: 100, n: 100, k: 100 }, MatmulShape { m: 64, n: 3000, k: 7 });
        let row = |shape, key: &str, ms| Row::new(shape, Precision::Fp32, key, key, ms, Check::Ok, None);
        let mut card = Scorecard::new();
        card.rows = vec![
            row(s1, "auto-fp32", 2.0),
            row(s1, "dbuf-128x256x16", 1.0),
            row(s1, "cublas", 1.0),
            row(s2, "auto-fp32", 1.0),
            row(s2, "auto-fp32-tuned", 0.9),
            row(s2, "tiled", 1.0),
            row(s2, "cublas", 0.5),
        ];
        card.finish();
        let line = card.auto_summary(Precision::Fp32).expect("auto and cuBLAS rows");
        // Auto ÷ cuBLAS: 0.5 and 0.5 → geomean 0.5, both below 0.60; ÷ best: 0.5 at 100³, 1.0 at the other.
        assert!(line.contains("**0.500**") && line.contains("2 below"), "{line}");
        assert!(line.contains("lowest 0.500 (100³)") && line.contains("1 below 0.95"), "{line}");
        assert!(card.auto_summary(Precision::Bf16).is_none());
        // Auto's own rows are not kernels: the tuned row is measured against `tiled` at s2, not itself.
        let tuned = card.auto_summary_of(Precision::Fp32, "auto-fp32-tuned", "Tuned").expect("a tuned row");
        assert!(tuned.contains("Tuned over these 1 sizes") && tuned.contains("lowest 1.111"), "{tuned}");
        // Without kernel rows (Auto run alone) the line still gives the figures against cuBLAS.
        card.rows.retain(|r| r.key.starts_with("auto-") || r.key == "cublas");
        let alone = card.auto_summary(Precision::Fp32).expect("auto and cuBLAS rows");
        assert!(alone.contains("**0.500**") && !alone.contains("catalogue kernel"), "{alone}");
    }

    /// The BF16 section reports the best kernel against cuBLAS, the `mma.sync` and `wgmma` ceilings and
    /// the datasheet peak; the ceilings table puts both rates beside the peak.
    #[test]
    fn ceilings_beside_the_datasheet_peak() {
        let shape = MatmulShape { m: 4096, n: 4096, k: 4096 };
        // 2·4096³ FLOPs in 0.25 ms: 549.8 TFLOP/s; cuBLAS in 0.2 ms: 687.2.
        let row = |key: &str, ms| Row::new(shape, Precision::Bf16, key, key, ms, Check::Ok, None);
        let mut card = Scorecard::new();
        card.rows = vec![row("wgmma-bf16-128x256", 0.25), row("cublas-bf16", 0.2)];
        card.mma_ceilings.push(MmaCeiling {
            precision: "bf16".into(),
            tflops: 640.0,
            blocks: 1056,
            iters: 1,
            ms: 60.0,
            source: "m".into(),
        });
        card.wgmma_ceilings.push(WgmmaCeiling {
            precision: "bf16".into(),
            tflops: 800.0,
            blocks: 264,
            warpgroups_per_sm: 2,
            iters: 1,
            ms: 60.0,
            source: "measured, wgmma_rate_bf16".into(),
            tried: vec![(1, 700.0), (2, 800.0), (3, 790.0)],
        });
        card.datasheet_peaks.push(PeakFigure { precision: "bf16".into(), tflops: 1000.0, source: "datasheet".into() });
        card.finish();
        let best = 2.0 * 4096f64.powi(3) / 0.25e-3 / 1e9;
        assert!((card.rows[0].pct_of_wgmma_ceiling.unwrap() - 100.0 * best / 800e3).abs() < 1e-9);
        let md = card.markdown();
        assert!(md.contains("| BF16 | 1000.0 | 800.0 | 0.800 | 640.0 | 0.640 | 1: 700.0, 2: 800.0, 3: 790.0 |"), "{md}");
        // best ÷ cuBLAS 0.800, ÷ mma 0.859, cuBLAS ÷ mma 1.074, ÷ wgmma 0.687, cuBLAS ÷ wgmma 0.859, ÷ peak 0.550.
        let line = format!(
            "| 4096³ | wgmma-bf16-128x256 | {:.1} | {:.1} | 0.800 | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            best / 1e3,
            best / 0.8 / 1e3,
            best / 640e3,
            best / 0.8 / 640e3,
            best / 800e3,
            best / 0.8 / 800e3,
            best / 1000e3
        );
        assert!(md.contains(&line), "{line}\n{md}");
        assert!(md.contains("`wgmma` ceiling: **800.0 TFLOP/s** (measured, wgmma_rate_bf16, 2 warpgroup(s) per SM)"), "{md}");
    }
}
