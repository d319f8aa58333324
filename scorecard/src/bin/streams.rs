//! `streams`: the copy/compute overlap demo. One job: time an element-wise map over
//! 16,000,000 floats (pinned host memory → GPU → pinned host memory) done sequentially on one stream
//! — the whole H2D copy, then the kernel, then the whole D2H copy — and pipelined over 2, 4, 8, 16
//! streams with `tessera::Pipeline`; report median ± spread and speedup, check every output equals
//! the sequential one bit for bit, and draw when each stream's copies and kernels ran.
//!
//! The kernel is `iterated_fma`; unless `--iters` is given its iteration count is calibrated so the
//! kernel takes about as long as one one-way copy (the case where overlap pays most: three equal
//! stages → up to 3×).
//!
//! Writes `streams.json`, `streams.md` (also printed) and `streams.svg` into `--out`.
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Parser;
use plotters::prelude::*;
use serde::Serialize;
use tessera::pipeline::{MapKernel, Pipeline, PipelinePlan, Trace};
use tessera::{Gpu, PinnedBuffer};

type Fail = Box<dyn std::error::Error + Send + Sync>;

#[derive(Parser, Debug)]
#[command(about = "tessera streams demo: copy/compute overlap with N CUDA streams")]
struct Args {
    /// Elements (f32) to map.
    #[arg(long, default_value_t = 16_000_000)]
    len: usize,
    /// Stream counts to try, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2,4,8,16")]
    streams: Vec<usize>,
    /// Chunks per stream to try, comma-separated (chunks = streams × this).
    #[arg(long, value_delimiter = ',', default_value = "1,4")]
    chunks_per_stream: Vec<usize>,
    /// FMAs per element; 0 calibrates so that the kernel time ≈ the one-way copy time.
    #[arg(long, default_value_t = 0)]
    iters: u32,
    /// Timed repetitions per configuration (interleaved across configurations).
    #[arg(long, default_value_t = 21)]
    reps: usize,
    /// Untimed runs of each configuration first.
    #[arg(long, default_value_t = 3)]
    warmup: usize,
    /// Folder for streams.json, streams.md and streams.svg.
    #[arg(long, default_value = "streams-out")]
    out: PathBuf,
}

#[derive(Serialize)]
struct Row {
    label: String,
    streams: usize,
    chunks: usize,
    chunk_elems: usize,
    median_ms: f64,
    /// Median absolute deviation of the repetitions.
    mad_ms: f64,
    min_ms: f64,
    max_ms: f64,
    speedup: f64,
    bit_exact_vs_sequential: bool,
    all_ms: Vec<f64>,
}

#[derive(Serialize)]
struct Stage {
    chunk: usize,
    stream: usize,
    elems: usize,
    h2d: (f64, f64),
    kernel: (f64, f64),
    d2h: (f64, f64),
}

#[derive(Serialize)]
struct Timeline {
    label: String,
    streams: usize,
    total_ms: f64,
    stages: Vec<Stage>,
}

#[derive(Serialize)]
struct Report {
    device: String,
    len: usize,
    bytes_each_way: usize,
    iters: u32,
    kernel: String,
    /// From the sequential path's traced run.
    sequential_h2d_ms: f64,
    sequential_kernel_ms: f64,
    sequential_d2h_ms: f64,
    h2d_gb_s: f64,
    d2h_gb_s: f64,
    reps: usize,
    reference_checked_elements: usize,
    rows: Vec<Row>,
    best: String,
    best_speedup: f64,
    timelines: Vec<Timeline>,
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn timeline(label: &str, streams: usize, t: &Trace) -> Timeline {
    Timeline {
        label: label.into(),
        streams,
        total_ms: t.total_ms,
        stages: t
            .chunks
            .iter()
            .map(|c| Stage { chunk: c.index, stream: c.stream, elems: c.elems, h2d: c.h2d, kernel: c.kernel, d2h: c.d2h })
            .collect(),
    }
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), Fail> {
    let gpu = Gpu::new(0)?;
    let info = gpu.info()?;
    let n = args.len;
    eprintln!("[streams] {} — {n} floats, {} MB each way", info.name, n * 4 / 1_000_000);

    let mut input = PinnedBuffer::<f32>::zeros(&gpu, n)?;
    for (i, v) in input.as_mut_slice()?.iter_mut().enumerate() {
        *v = ((i as u64 * 2_654_435_761) % 2001) as f32 / 1000.0 - 1.0; // in [-1, 1]
    }
    let mut seq_out = PinnedBuffer::<f32>::zeros(&gpu, n)?;
    let mut out = PinnedBuffer::<f32>::zeros(&gpu, n)?;
    let mut seq = Pipeline::new(&gpu, 1, n)?;

    // Calibration: the sequential path's stages at a probe iteration count; the kernel is linear in iters.
    let iters = if args.iters > 0 {
        args.iters
    } else {
        const PROBE: u32 = 512;
        let probe = MapKernel::IteratedFma { iters: PROBE, a: 0.999, b: 0.001 };
        seq.map(probe, &input, &mut seq_out)?;
        let traces = (0..3).map(|_| seq.map_traced(probe, &input, &mut seq_out)).collect::<Result<Vec<_>, _>>()?;
        let h2d = median(&traces.iter().map(|t| t.chunks[0].h2d.1 - t.chunks[0].h2d.0).collect::<Vec<_>>());
        let ker = median(&traces.iter().map(|t| t.chunks[0].kernel.1 - t.chunks[0].kernel.0).collect::<Vec<_>>());
        let it = ((PROBE as f64 * h2d / ker).round() as u32).clamp(1, 1_000_000);
        eprintln!("[streams] calibration: H2D {h2d:.3} ms, kernel {ker:.3} ms at {PROBE} iters → {it} iters");
        it
    };
    let kernel = MapKernel::IteratedFma { iters, a: 0.999, b: 0.001 };

    // The configurations: sequential first, then each streams × chunks-per-stream.
    let mut configs: Vec<(String, Pipeline)> = vec![("sequential".into(), seq)];
    for &s in &args.streams {
        for &k in &args.chunks_per_stream {
            let plan = PipelinePlan::with_chunks(n, s * k, s)?;
            configs.push((format!("{s} streams × {} chunks", plan.chunk_count()), Pipeline::new(&gpu, s, plan.chunk_elems())?));
        }
    }
    for (_, p) in configs.iter_mut() {
        for _ in 0..args.warmup {
            p.map(kernel, &input, &mut out)?;
        }
    }
    let mut times = vec![Vec::with_capacity(args.reps); configs.len()];
    for rep in 0..args.reps {
        for (i, (_, p)) in configs.iter_mut().enumerate() {
            times[i].push(p.map_timed(kernel, &input, &mut out)?);
        }
        if rep == 0 {
            eprintln!("[streams] first repetition: {:?}", times.iter().map(|t| format!("{:.3}", t[0])).collect::<Vec<_>>());
        }
    }

    // Correctness: sequential against the CPU reference on a sample, every configuration against sequential.
    configs[0].1.map(kernel, &input, &mut seq_out)?;
    let (x, want) = (input.as_slice()?, seq_out.as_slice()?);
    let step = (n / 20_000).max(1);
    let mut checked = 0;
    for i in (0..n).step_by(step) {
        if want[i].to_bits() != kernel.reference(x[i]).to_bits() {
            return Err(format!("sequential element {i}: GPU {} ≠ CPU reference {}", want[i], kernel.reference(x[i])).into());
        }
        checked += 1;
    }
    let mut exact = vec![true; configs.len()];
    for (i, (label, p)) in configs.iter_mut().enumerate().skip(1) {
        out.as_mut_slice()?.fill(f32::NAN);
        p.map(kernel, &input, &mut out)?;
        exact[i] = out.as_slice()?.iter().zip(seq_out.as_slice()?).all(|(a, b)| a.to_bits() == b.to_bits());
        if !exact[i] {
            eprintln!("[streams] MISMATCH: {label} differs from sequential");
        }
    }

    let seq_median = median(&times[0]);
    let rows: Vec<Row> = configs
        .iter()
        .zip(&times)
        .zip(&exact)
        .map(|(((label, p), t), &ok)| {
            let m = median(t);
            let dev: Vec<f64> = t.iter().map(|v| (v - m).abs()).collect();
            Row {
                label: label.clone(),
                streams: p.streams(),
                chunks: p.plan(n).map(|pl| pl.chunk_count()).unwrap_or(0),
                chunk_elems: p.chunk_elems(),
                median_ms: m,
                mad_ms: median(&dev),
                min_ms: t.iter().cloned().fold(f64::INFINITY, f64::min),
                max_ms: t.iter().cloned().fold(0.0, f64::max),
                speedup: seq_median / m,
                bit_exact_vs_sequential: ok,
                all_ms: t.clone(),
            }
        })
        .collect();
    let best = rows.iter().skip(1).max_by(|a, b| a.speedup.total_cmp(&b.speedup)).ok_or("no pipelined configuration")?;
    let best_index = rows.iter().position(|r| r.label == best.label).unwrap_or(0);

    // Timelines: the sequential path, the best configuration, and 4 streams × 4 chunks when present.
    let mut traced = vec![0, best_index];
    if let Some(i) = rows.iter().position(|r| r.streams == 4 && r.chunks == 4) {
        if !traced.contains(&i) {
            traced.insert(1, i);
        }
    }
    let mut timelines = Vec::new();
    for &i in &traced {
        let (label, p) = &mut configs[i];
        p.map(kernel, &input, &mut out)?;
        let t = p.map_traced(kernel, &input, &mut out)?;
        timelines.push(timeline(label, p.streams(), &t));
    }
    let st = &timelines[0].stages[0];
    let bytes = n * 4;
    let report = Report {
        device: format!("{} (CC {}.{}, {} SMs)", info.name, info.compute_capability.0, info.compute_capability.1, info.sm_count),
        len: n,
        bytes_each_way: bytes,
        iters,
        kernel: format!("iterated_fma: {iters} dependent FMAs per element (a = 0.999, b = 0.001)"),
        sequential_h2d_ms: st.h2d.1 - st.h2d.0,
        sequential_kernel_ms: st.kernel.1 - st.kernel.0,
        sequential_d2h_ms: st.d2h.1 - st.d2h.0,
        h2d_gb_s: bytes as f64 / (st.h2d.1 - st.h2d.0) / 1e6,
        d2h_gb_s: bytes as f64 / (st.d2h.1 - st.d2h.0) / 1e6,
        reps: args.reps,
        reference_checked_elements: checked,
        best: best.label.clone(),
        best_speedup: best.speedup,
        rows,
        timelines,
    };

    std::fs::create_dir_all(&args.out)?;
    std::fs::write(args.out.join("streams.json"), serde_json::to_string_pretty(&report)?)?;
    let md = markdown(&report);
    std::fs::write(args.out.join("streams.md"), &md)?;
    draw_svg(&report, &args.out.join("streams.svg"))?;
    println!("{md}");
    eprintln!("[streams] wrote {}/streams.{{json,md,svg}}", args.out.display());
    if exact.iter().all(|&e| e) {
        Ok(())
    } else {
        Err("a pipelined output differs from the sequential one".into())
    }
}

fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## Copy/compute overlap — {}\n", r.device);
    let _ = writeln!(s, "{} floats ({:.1} MB each way, pinned host memory); kernel {}.", r.len, r.bytes_each_way as f64 / 1e6, r.kernel);
    let _ = writeln!(
        s,
        "Sequential stages: H2D {:.3} ms ({:.1} GB/s), kernel {:.3} ms, D2H {:.3} ms ({:.1} GB/s).\n",
        r.sequential_h2d_ms, r.h2d_gb_s, r.sequential_kernel_ms, r.sequential_d2h_ms, r.d2h_gb_s
    );
    let _ = writeln!(s, "| configuration | streams | chunks | median ms | ± MAD | min–max ms | speedup | bit-exact |");
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|:---:|");
    for row in &r.rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.3} | {:.3} | {:.3}–{:.3} | {:.2}× | {} |",
            row.label,
            row.streams,
            row.chunks,
            row.median_ms,
            row.mad_ms,
            row.min_ms,
            row.max_ms,
            row.speedup,
            if row.bit_exact_vs_sequential { "yes" } else { "**NO**" }
        );
    }
    let _ = writeln!(
        s,
        "\nBest: **{}**, {:.2}× over sequential ({} repetitions each, interleaved; GPU event time).",
        r.best, r.best_speedup, r.reps
    );
    let _ = writeln!(
        s,
        "Sequential output checked against the CPU reference (f32::mul_add chain) on {} elements, bit for bit.\n",
        r.reference_checked_elements
    );
    let _ = writeln!(s, "### Timelines (H = host→device copy, K = kernel, D = device→host copy, . = idle)\n");
    let width = 100usize;
    let scale = r.timelines.iter().map(|t| t.total_ms).fold(0.0, f64::max).max(1e-9);
    let _ = writeln!(s, "```");
    for t in &r.timelines {
        let _ = writeln!(s, "{} — {:.3} ms (one column = {:.3} ms)", t.label, t.total_ms, scale / width as f64);
        for stream in 0..t.streams {
            let mut line = vec!['.'; width];
            for st in t.stages.iter().filter(|st| st.stream == stream) {
                for (span, c) in [(st.h2d, 'H'), (st.kernel, 'K'), (st.d2h, 'D')] {
                    let a = ((span.0 / scale) * width as f64).floor() as usize;
                    let b = (((span.1 / scale) * width as f64).ceil() as usize).max(a + 1).min(width);
                    for cell in line.iter_mut().take(b).skip(a.min(width - 1)) {
                        *cell = c;
                    }
                }
            }
            let _ = writeln!(s, "  s{stream:<2} |{}|", line.into_iter().collect::<String>());
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "```");
    s
}

fn draw_svg(r: &Report, path: &std::path::Path) -> Result<(), Fail> {
    let rows: usize = r.timelines.iter().map(|t| t.streams).sum();
    let height = 130 * r.timelines.len() as u32 + 24 * rows as u32 + 40;
    let root = SVGBackend::new(path, (1200, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let x_max = r.timelines.iter().map(|t| t.total_ms).fold(0.0, f64::max) * 1.02;
    let heights: Vec<u32> = r.timelines.iter().map(|t| 130 + 24 * t.streams as u32).collect();
    let mut area = root.margin(5, 5, 5, 5);
    let colors = [(RGBColor(66, 133, 244), "H2D copy"), (RGBColor(244, 160, 0), "kernel"), (RGBColor(15, 157, 88), "D2H copy")];
    for (i, t) in r.timelines.iter().enumerate() {
        let (panel, rest) = area.split_vertically(heights[i]);
        area = rest;
        let mut chart = ChartBuilder::on(&panel)
            .caption(format!("{} — {:.3} ms", t.label, t.total_ms), ("sans-serif", 18))
            .margin(6)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..x_max, -0.5..t.streams as f64 - 0.5)?;
        // Stream s is the row centred on y = streams − 1 − s (s0 on top); labels only at row centres.
        let top = t.streams as f64 - 1.0;
        let label = move |y: &f64| {
            if (y - y.round()).abs() < 1e-6 && *y >= 0.0 {
                format!("s{}", (top - y.round()) as usize)
            } else {
                String::new()
            }
        };
        chart.configure_mesh().disable_y_mesh().y_labels(t.streams + 1).y_label_formatter(&label).x_desc("ms since start").draw()?;
        for st in &t.stages {
            let y = top - st.stream as f64;
            for (span, (color, _)) in [st.h2d, st.kernel, st.d2h].into_iter().zip(colors.iter()) {
                let corners = [(span.0, y - 0.38), (span.1, y + 0.38)];
                chart.draw_series(std::iter::once(Rectangle::new(corners, color.filled())))?;
                chart.draw_series(std::iter::once(Rectangle::new(corners, WHITE.stroke_width(1))))?;
            }
        }
    }
    // Legend along the bottom.
    for (i, (color, name)) in colors.iter().enumerate() {
        let x = 80 + 160 * i as i32;
        let y = height as i32 - 24;
        root.draw(&Rectangle::new([(x, y), (x + 18, y + 14)], color.filled()))?;
        root.draw(&Text::new(name.to_string(), (x + 24, y), ("sans-serif", 15)))?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic report: stages of 1 ms each way and 1 ms of kernel, ideally pipelined.
    fn synthetic() -> Report {
        let ideal = |label: &str, streams: usize, chunks: usize| {
            let d = 1.2 / chunks as f64;
            let stages: Vec<Stage> = (0..chunks)
                .map(|c| {
                    let t = c as f64 * d;
                    Stage {
                        chunk: c,
                        stream: c % streams,
                        elems: 1000,
                        h2d: (t, t + d),
                        kernel: (t + d, t + 2.0 * d),
                        d2h: (t + 2.0 * d, t + 3.0 * d),
                    }
                })
                .collect();
            Timeline { label: label.into(), streams, total_ms: (chunks + 2) as f64 * d, stages }
        };
        let row = |label: &str, streams, chunks, ms: f64| Row {
            label: label.into(),
            streams,
            chunks,
            chunk_elems: 16_000_000 / chunks,
            median_ms: ms,
            mad_ms: 0.01,
            min_ms: ms - 0.02,
            max_ms: ms + 0.03,
            speedup: 3.6 / ms,
            bit_exact_vs_sequential: true,
            all_ms: vec![ms],
        };
        Report {
            device: "synthetic".into(),
            len: 16_000_000,
            bytes_each_way: 64_000_000,
            iters: 2000,
            kernel: "iterated_fma".into(),
            sequential_h2d_ms: 1.2,
            sequential_kernel_ms: 1.2,
            sequential_d2h_ms: 1.2,
            h2d_gb_s: 53.3,
            d2h_gb_s: 53.3,
            reps: 1,
            reference_checked_elements: 1,
            rows: vec![row("sequential", 1, 1, 3.6), row("8 streams × 32 chunks", 8, 32, 1.35)],
            best: "8 streams × 32 chunks".into(),
            best_speedup: 2.67,
            timelines: vec![ideal("sequential", 1, 1), ideal("4 streams × 4 chunks", 4, 4), ideal("8 streams × 32 chunks", 8, 32)],
        }
    }

    #[test]
    fn markdown_and_svg_render_a_synthetic_timeline() {
        let r = synthetic();
        let md = markdown(&r);
        assert!(md.contains("| 8 streams × 32 chunks | 8 | 32 | 1.350 |"), "{md}");
        assert!(md.contains("  s7  |"), "{md}");
        let dir = std::env::var_os("STREAMS_SVG_DIR").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("streams-test-{}.svg", std::process::id()));
        draw_svg(&r, &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        if std::env::var_os("STREAMS_SVG_DIR").is_none() {
            let _ = std::fs::remove_file(&path);
        }
        // One filled rectangle per stage, per chunk, per timeline: 3 × (1 + 4 + 32).
        assert!(svg.matches("<rect").count() >= 3 * 37, "{} rects", svg.matches("<rect").count());
        assert!(svg.contains("s7") && svg.contains("kernel"));
    }
}
