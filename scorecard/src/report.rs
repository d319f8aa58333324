//! The scorecard's rows, the derived columns (speedup, % of cuBLAS, % of peak), Markdown and JSON.
use serde::{Deserialize, Serialize};
use tessera::MatmulShape;
use tessera::reference::{check_matmul, matmul_reference, ReferenceProduct};
use tessera::HostMatrix;

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
    /// Stable key: `cpu`, `cpu-naive`, `naive`, `tiled`, …, `cuda-c-naive`, `cublas`.
    pub key: String,
    pub ms: f64,
    pub gflops: f64,
    /// Counted global-memory bytes (see `traffic::global_bytes`), when known.
    pub global_bytes: Option<f64>,
    pub flop_per_byte: Option<f64>,
    pub check: Check,
    pub speedup_vs_cpu: Option<f64>,
    pub pct_of_cublas: Option<f64>,
    pub pct_of_peak: Option<f64>,
    /// CUDA C time ÷ Rust time for the same algorithm (> 1: the Rust kernel is faster), Rust rows only.
    pub vs_cuda_c: Option<f64>,
}

impl Row {
    pub fn new(shape: MatmulShape, name: &str, key: &str, ms: f64, check: Check, global_bytes: Option<f64>) -> Self {
        Row {
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
            vs_cuda_c: None,
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

/// Everything one run measured.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Scorecard {
    pub device: Option<String>,
    pub compute_capability: Option<String>,
    pub sm_count: Option<u32>,
    pub sm_clock_mhz: Option<f64>,
    pub peak_fp32_gflops: Option<f64>,
    pub copy_gb_per_s: Option<f64>,
    pub gpu_skipped: Option<String>,
    pub rows: Vec<Row>,
    pub bandwidth: Vec<Bandwidth>,
}

pub fn shape_label(s: MatmulShape) -> String {
    if s.m == s.n && s.n == s.k { format!("{}³", s.m) } else { format!("{}×{}×{}", s.m, s.n, s.k) }
}

/// The f64 reference of up to 64 evenly spread rows of `A·B` (the full reference of a 4096³ product
/// would take a minute of CPU), computed once per shape and checked against every implementation.
pub struct SampledReference {
    picks: Vec<usize>,
    reference: ReferenceProduct,
}

impl SampledReference {
    pub fn new(a: &HostMatrix, b: &HostMatrix) -> Self {
        let picks: Vec<usize> = if a.rows <= 64 { (0..a.rows).collect() } else { (0..64).map(|i| i * (a.rows - 1) / 63).collect() };
        let a_rows = HostMatrix::from_fn(picks.len(), a.cols, |r, c| a.get(picks[r], c));
        Self { reference: matmul_reference(&a_rows, b), picks }
    }

    /// Whether the sampled rows of `got` are within tolerance.
    pub fn check(&self, got: &HostMatrix) -> Check {
        let got_rows = HostMatrix::from_fn(self.picks.len(), got.cols, |r, c| got.get(self.picks[r], c));
        match check_matmul(&got_rows, &self.reference) {
            Ok(()) => Check::Ok,
            Err(e) => {
                eprintln!("[scorecard] check failed: {e}");
                Check::Failed
            }
        }
    }
}

impl Scorecard {
    pub fn new() -> Self {
        Self::default()
    }

    /// Fills the derived columns from the rows of the same size.
    pub fn finish(&mut self) {
        // The seed's order within each size: CPU → the Rust ladder → CUDA C twins → cuBLAS.
        let mut sizes: Vec<String> = Vec::new();
        for r in &self.rows {
            if !sizes.contains(&r.size) {
                sizes.push(r.size.clone());
            }
        }
        let rank = |r: &Row| match r.key.as_str() {
            "cpu" => 0,
            "cpu-naive" => 1,
            "cublas" => 4,
            k if k.starts_with("cuda-c") => 3,
            _ => 2,
        };
        // Stable sort: the ladder keeps its measured (ladder) order.
        self.rows.sort_by_key(|r| (sizes.iter().position(|s| *s == r.size), rank(r)));
        let snapshot = self.rows.clone();
        let find = |size: &str, key: &str| snapshot.iter().find(|r| r.size == size && r.key == key).cloned();
        for row in &mut self.rows {
            let cpu = find(&row.size, "cpu");
            let cublas = find(&row.size, "cublas");
            row.speedup_vs_cpu = cpu.map(|c| c.ms / row.ms);
            row.pct_of_cublas = cublas.map(|c| 100.0 * c.ms / row.ms);
            row.pct_of_peak = self.peak_fp32_gflops.filter(|_| row.key != "cpu" && row.key != "cpu-naive").map(|p| 100.0 * row.gflops / p);
            if !row.key.starts_with("cpu") && !row.key.starts_with("cuda-c") && row.key != "cublas" {
                row.vs_cuda_c = find(&row.size, &format!("cuda-c-{}", row.key)).map(|c| c.ms / row.ms);
            }
        }
        if let Some(copy) = self.copy_gb_per_s {
            for bw in &mut self.bandwidth {
                bw.pct_of_copy = Some(100.0 * bw.gb_per_s / copy);
            }
        }
    }

    /// Per size: the best Rust kernel (fastest row that is not CPU, CUDA C or cuBLAS) and its share of cuBLAS.
    pub fn best_rust(&self) -> Vec<(String, Row, Option<f64>)> {
        let mut out: Vec<(String, Row, Option<f64>)> = Vec::new();
        for r in self.rows.iter().filter(|r| !r.key.starts_with("cpu") && !r.key.starts_with("cuda-c") && r.key != "cublas") {
            match out.iter_mut().find(|(size, _, _)| *size == r.size) {
                Some(entry) if entry.1.gflops < r.gflops => *entry = (r.size.clone(), r.clone(), r.pct_of_cublas),
                Some(_) => {}
                None => out.push((r.size.clone(), r.clone(), r.pct_of_cublas)),
            }
        }
        out
    }

    /// Geometric mean over sizes of (best Rust kernel ÷ cuBLAS), when every size has a cuBLAS row.
    pub fn geomean_best_vs_cublas(&self) -> Option<f64> {
        let ratios: Vec<f64> = self.best_rust().iter().map(|(_, _, pct)| pct.map(|p| p / 100.0)).collect::<Option<_>>()?;
        (!ratios.is_empty()).then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
    }

    /// The table in Markdown: a summary line per size (CPU → naive → tiled → … best → cuBLAS), then
    /// every row, then the bandwidth section.
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
        if let Some(why) = &self.gpu_skipped {
            s += &format!("**GPU part skipped**: {why}. Only the CPU baseline was measured.\n\n");
        }
        let best = self.best_rust();
        if !best.is_empty() {
            let gf = |size: &str, key: &str| self.rows.iter().find(|r| r.size == size && r.key == key).map(|r| format!("{:.0}", r.gflops)).unwrap_or_else(|| "—".into());
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
            if let Some(g) = self.geomean_best_vs_cublas() {
                s += &format!("\nGeometric mean of best Rust kernel ÷ cuBLAS over these sizes: **{g:.3}**.\n");
            }
            s += "\nGFLOP/s, all from one run. Every row:\n\n";
        }
        s += "| size | implementation | GFLOP/s | ms | × CPU | % cuBLAS | % peak | ÷ CUDA C | FLOP/B | check |\n";
        s += "|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
        for r in &self.rows {
            s += &format!(
                "| {} | {} | {:.0} | {:.3} | {} | {} | {} | {} | {} | {:?} |\n",
                r.size,
                r.name,
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
        if !self.bandwidth.is_empty() {
            s += "\n| bandwidth | elements | GB/s | ms | % of device copy | check |\n|---|---:|---:|---:|---:|---|\n";
            for b in &self.bandwidth {
                s += &format!("| {} | {} | {:.0} | {:.4} | {} | {:?} |\n", b.name, b.elements, b.gb_per_s, b.ms, opt(b.pct_of_copy, &|v| format!("{v:.1}%")), b.check);
            }
        }
        s
    }
}
