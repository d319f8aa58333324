//! The multi-GPU run's record: what was measured, as JSON and as Markdown.
use std::fmt::Write as _;

use serde::Serialize;

use crate::model::{Inputs, Prediction};
use crate::operands::{FullComparison, SampleCheck};

/// One GPU as the driver sees it.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceRow {
    pub ordinal: usize,
    pub name: String,
    pub sms: u32,
    pub memory_gib: f64,
}

/// Link rates (GB/s = 10⁹ B/s) over `bytes`-sized transfers.
#[derive(Debug, Clone, Serialize)]
pub struct LinkRow {
    pub bytes: usize,
    pub reps: usize,
    pub broadcast_gb_s: f64,
    pub send_gb_s: Vec<f64>,
    pub peer_copy_gb_s: Vec<f64>,
}

/// One GPU against all of them on the same product, end to end.
#[derive(Debug, Clone, Serialize)]
pub struct ScalingRow {
    pub precision: String,
    pub size: usize,
    pub gpus: usize,
    /// Where the timed call starts and ends.
    pub start: String,
    pub end: String,
    /// Wall time of each timed `MultiGpu::matmul` call on one GPU, then on all, in ms.
    pub one_gpu_ms: Vec<f64>,
    pub all_gpus_ms: Vec<f64>,
    pub one_gpu_median_ms: f64,
    pub all_gpus_median_ms: f64,
    /// `Gpu::matmul` alone (CUDA events, mean of the reps): the kernel time the one-GPU call wraps.
    pub kernel_only_ms: f64,
    pub scaling: f64,
    /// The same product on all GPUs with GPU 0's other order (`root_waits_for_sends` flipped).
    pub other_order: String,
    pub other_order_ms: Vec<f64>,
    pub other_order_median_ms: f64,
    pub other_order_scaling: f64,
    pub other_order_versus_one_gpu: FullComparison,
    pub one_gpu_tflops: f64,
    pub all_gpus_tflops: f64,
    pub samples: SampleCheck,
    pub versus_one_gpu: FullComparison,
    /// The time model fed with this run's measurements (when the link stage ran first).
    pub model: Option<ModelRow>,
    /// One more call on all GPUs with timing events: per GPU, what finished when (ms after the
    /// GPU's start event).
    pub timeline: Vec<(usize, Vec<(String, f64)>)>,
}

/// The model's inputs and its predictions for 1, 2, 4 and 8 GPUs in both orders of GPU 0's work,
/// beside the measured scaling of each order (at the run's GPU count).
#[derive(Debug, Clone, Serialize)]
pub struct ModelRow {
    pub inputs: Inputs,
    pub measured_gpus: usize,
    pub root_waits: Vec<Prediction>,
    pub measured_root_waits: f64,
    pub root_at_once: Vec<Prediction>,
    pub measured_root_at_once: f64,
}

impl ModelRow {
    /// Predictions from `inputs` for both orders (the `root_waits_for_sends` of `inputs` is ignored).
    pub fn new(inputs: Inputs, measured_gpus: usize, measured_root_waits: f64, measured_root_at_once: f64) -> Self {
        let of = |waits: bool| {
            let x = Inputs { root_waits_for_sends: waits, ..inputs };
            [1, 2, 4, 8].map(|g| crate::model::predict(&x, g)).to_vec()
        };
        ModelRow { inputs, measured_gpus, root_waits: of(true), measured_root_waits, root_at_once: of(false), measured_root_at_once }
    }

    /// The Markdown table of the predictions.
    pub fn markdown(&self, precision: &str) -> String {
        let i = &self.inputs;
        let mut md = format!(
            "Model for {precision} {}³ (kernel {:.2} ms, call overhead {:.2} ms, wave {:.2} ms, broadcast {:.1} GB/s, send {:.1} GB/s, lead {} rows, {} chunks of B, {} band(s) after the lead; docs/multi-gpu.md):\n\n",
            i.size, i.kernel_ms, i.overhead_ms, i.wave_ms, i.broadcast_gb_s, i.send_gb_s, i.lead_rows, i.b_chunks, i.return_pieces
        );
        md.push_str("| GPUs | GPU 0 waits for its sends: ms (GPU 0 starts at) | scaling | measured | GPU 0 computes at once: ms | scaling | measured |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (w, a) in self.root_waits.iter().zip(&self.root_at_once) {
            let measured = |m: f64| if w.gpus == self.measured_gpus { format!("{m:.3}") } else { "—".into() };
            let _ = writeln!(
                md,
                "| {} | {:.2} ({:.2}) | {:.3} | {} | {:.2} | {:.3} | {} |",
                w.gpus,
                w.ms,
                w.root_start_ms,
                w.scaling,
                measured(self.measured_root_waits),
                a.ms,
                a.scaling,
                measured(self.measured_root_at_once)
            );
        }
        md
    }
}

/// A product past 2³¹ elements per matrix.
#[derive(Debug, Clone, Serialize)]
pub struct BigRow {
    pub label: String,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub gpus: usize,
    pub origin: String,
    /// Bytes of A, B and C together, and the memory of one GPU.
    pub operand_bytes: f64,
    pub gpu_memory_bytes: f64,
    pub generate_s: f64,
    pub upload_s: f64,
    pub compute_s: f64,
    pub total_s: f64,
    pub tflops: f64,
    /// Sub-GEMMs per GPU.
    pub blocks_per_gpu: Vec<usize>,
    /// Per GPU: seconds until its last upload was issued, and until it finished (products from the host).
    pub per_gpu_upload_s: Vec<f64>,
    pub per_gpu_done_s: Vec<f64>,
    pub samples: SampleCheck,
}

/// Everything one run measured.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub devices: Vec<DeviceRow>,
    pub nccl_version: Option<i32>,
    pub options: String,
    pub link: Option<LinkRow>,
    pub scaling: Vec<ScalingRow>,
    pub big: Vec<BigRow>,
    pub failures: Vec<String>,
}

impl Report {
    /// The Markdown page of the run.
    pub fn markdown(&self) -> String {
        let mut md = String::from("# tessera multi-GPU run\n\n");
        for d in &self.devices {
            let _ = writeln!(md, "- GPU {}: {} ({} SMs, {:.1} GiB)", d.ordinal, d.name, d.sms, d.memory_gib);
        }
        let nccl = self.nccl_version.map_or("not loaded".into(), |v| format!("{}.{}.{}", v / 10000, v / 100 % 100, v % 100));
        let _ = writeln!(md, "- NCCL {nccl}; plan options: {}\n", self.options);
        if let Some(l) = &self.link {
            let _ = writeln!(md, "## Links ({:.2} GB per transfer, {} reps, host wall time)\n", l.bytes as f64 / 1e9, l.reps);
            md.push_str("| transfer | GB/s |\n|---|---:|\n");
            let _ = writeln!(md, "| NCCL broadcast from GPU 0 | {:.1} |", l.broadcast_gb_s);
            for (i, (s, p)) in l.send_gb_s.iter().zip(&l.peer_copy_gb_s).enumerate() {
                let _ = writeln!(md, "| NCCL send GPU 0 → {} | {:.1} |", i + 1, s);
                let _ = writeln!(md, "| cuMemcpyPeerAsync GPU 0 → {} (copy engines) | {:.1} |", i + 1, p);
            }
            md.push('\n');
        }
        if !self.scaling.is_empty() {
            md.push_str("## Scaling (end to end, median of the timed calls)\n\n");
            md.push_str("| precision | size | GPUs | start → end | 1 GPU ms | kernel only ms | all GPUs ms | scaling | TFLOP/s 1 → all | sampled worst err/tol | vs 1 GPU worst diff/tol (identical) | other order: ms, scaling |\n");
            md.push_str("|---|---|---:|---|---:|---:|---:|---:|---|---:|---|---|\n");
            for r in &self.scaling {
                let _ = writeln!(
                    md,
                    "| {} | {}³ | {} | {} → {} | {:.2} | {:.2} | {:.2} | **{:.3}** | {:.1} → {:.1} | {:.3} ({} fail) | {:.3} ({} fail, {:.1}% identical) | {}: {:.2}, {:.3} ({} fail) |",
                    r.precision,
                    r.size,
                    r.gpus,
                    r.start,
                    r.end,
                    r.one_gpu_median_ms,
                    r.kernel_only_ms,
                    r.all_gpus_median_ms,
                    r.scaling,
                    r.one_gpu_tflops,
                    r.all_gpus_tflops,
                    r.samples.worst_error_over_tolerance,
                    r.samples.failures,
                    r.versus_one_gpu.worst_difference_over_tolerance,
                    r.versus_one_gpu.failures,
                    100.0 * r.versus_one_gpu.identical as f64 / r.versus_one_gpu.elements.max(1) as f64,
                    r.other_order,
                    r.other_order_median_ms,
                    r.other_order_scaling,
                    r.other_order_versus_one_gpu.failures,
                );
            }
            md.push('\n');
            for r in &self.scaling {
                if let Some(model) = &r.model {
                    md.push_str(&model.markdown(&r.precision));
                    md.push('\n');
                }
            }
        }
        for r in self.scaling.iter().filter(|r| !r.timeline.is_empty()) {
            let _ = writeln!(
                md,
                "Timeline of one traced {} {}³ call (ms after each GPU's start; multi-gpu.json has every mark):\n",
                r.precision, r.size
            );
            for (g, marks) in &r.timeline {
                let pick = |prefix: &str| -> Vec<String> {
                    marks.iter().filter(|(l, _)| l.starts_with(prefix)).map(|(_, t)| format!("{t:.2}")).collect()
                };
                let _ = writeln!(
                    md,
                    "- GPU {g}: transfers done at [{}]; steps done at [{}]; bands returned at [{}]",
                    pick("transfer").join(", "),
                    pick("step").join(", "),
                    pick("band").join(", ")
                );
            }
            md.push('\n');
        }
        if !self.big.is_empty() {
            md.push_str("## Past 2³¹ elements per matrix\n\n");
            md.push_str("| product | GPUs | operands from | A+B+C GB (one GPU holds) | generate s | upload s | compute s | total s | TFLOP/s | blocks per GPU | samples: worst err/tol (fail) |\n");
            md.push_str("|---|---:|---|---|---:|---:|---:|---:|---:|---|---|\n");
            for r in &self.big {
                let _ = writeln!(
                    md,
                    "| {} ({}×{}×{}) | {} | {} | {:.1} ({:.1}) | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:?} | {} samples: {:.3} ({}) |",
                    r.label,
                    r.m,
                    r.n,
                    r.k,
                    r.gpus,
                    r.origin,
                    r.operand_bytes / 1e9,
                    r.gpu_memory_bytes / 1e9,
                    r.generate_s,
                    r.upload_s,
                    r.compute_s,
                    r.total_s,
                    r.tflops,
                    r.blocks_per_gpu,
                    r.samples.samples,
                    r.samples.worst_error_over_tolerance,
                    r.samples.failures,
                );
            }
            for r in self.big.iter().filter(|r| !r.per_gpu_done_s.is_empty()) {
                let _ = writeln!(
                    md,
                    "\n{}: per GPU, last upload issued at {:?} s, done at {:?} s.",
                    r.label, r.per_gpu_upload_s, r.per_gpu_done_s
                );
            }
            md.push('\n');
        }
        if self.failures.is_empty() {
            md.push_str("All checks passed.\n");
        } else {
            md.push_str("## Failures\n\n");
            for f in &self.failures {
                let _ = writeln!(md, "- {f}");
            }
        }
        md
    }
}
