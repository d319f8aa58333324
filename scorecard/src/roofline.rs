//! The roofline plots (SVG), one per precision of the run (`roofline-fp32.svg`, `roofline-tf32.svg`,
//! …), each at the run's largest size of that precision.
//!
//! The roof is the measured device copy bandwidth times the arithmetic intensity, capped at the
//! precision's ceiling: the FP32 peak from the clocks, or for the tensor-core precisions the
//! measured `wgmma` issue rate (the `mma.sync` rate dashed below it, the datasheet's dense peak dotted
//! above). The points are the ladder, not every tile configuration: per rung (a kernel file, e.g.
//! every `streamk-*` tile), the fastest configuration, beside `Auto` and cuBLAS of the same precision
//! (and in FP32 the `vec_add` bandwidth kernels); each is labelled on the plot, so the legend holds
//! only the roofs and the marker kinds. A point's x is FLOPs ÷ the global bytes its kernel issues
//! (`traffic::global_bytes`; cuBLAS at the least traffic of reading A and B and writing C once).
use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use tessera::Precision;

use crate::plot::{leader_end, legend_corner, needs_leader, place_labels, text_width, Rect};
use crate::report::{cublas_key, Scorecard};
use crate::summary::auto_key;
use crate::Fail;

/// What a point is, and so how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The fastest configuration of one rung of the ladder.
    Kernel,
    Auto,
    Cublas,
    /// A bandwidth kernel (`vec_add`): 1 FLOP per 12 bytes.
    Bandwidth,
}

/// One labelled point.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub label: String,
    /// FLOP per byte of counted global traffic.
    pub intensity: f64,
    pub gflops: f64,
    pub kind: Kind,
}

const PRECISION_WORDS: [&str; 5] = ["fp32", "tf32", "bf16", "f16", "fp16"];

/// The rung of the ladder a kernel's key belongs to: its words up to the first that is a tile (digits
/// and `x` alone: `128x256x16`, `4`), without precision words: `streamk-128x256x16` → `streamk`,
/// `mma-pipe-bf16-128x256` → `mma-pipe`, `few-cols-4` → `few-cols`, `dbuf-128x256x16-rolled` → `dbuf`,
/// `blocktile-1d` → `blocktile-1d`.
pub fn rung(key: &str) -> String {
    let tile = |w: &str| w.starts_with(|c: char| c.is_ascii_digit()) && w.chars().all(|c| c.is_ascii_digit() || c == 'x');
    key.split('-').take_while(|w| !tile(w)).filter(|w| !PRECISION_WORDS.contains(w)).collect::<Vec<_>>().join("-")
}

/// A key without its precision word, for a plot that is all one precision: `tma-bf16-128x256` →
/// `tma-128x256`.
pub fn short_label(key: &str) -> String {
    key.split('-').filter(|w| !PRECISION_WORDS.contains(w)).collect::<Vec<_>>().join("-")
}

/// The points of `precision`'s roofline and the size they were measured at (the run's largest size,
/// by FLOPs, with GPU rows of that precision): the fastest row of each rung, `Auto` and cuBLAS of the
/// precision, and in FP32 the Rust `vec_add` kernels. `Auto`'s other rows (its padded path, tuned on
/// request), the CUDA C twins and the CPU are left out. `None` without such rows. A row without
/// counted traffic gets intensity 0 (the plot leaves it out).
pub fn points(card: &Scorecard, precision: Precision) -> Option<(String, Vec<Point>)> {
    let (auto, cublas) = (auto_key(precision), cublas_key(precision));
    let gpu_row = |r: &&crate::report::Row| r.precision == precision.label() && !r.key.starts_with("cpu") && !r.key.starts_with("cuda-c");
    let largest = card.rows.iter().filter(gpu_row).max_by(|a, b| {
        let f = |r: &crate::report::Row| r.m as f64 * r.n as f64 * r.k as f64;
        f(a).total_cmp(&f(b))
    })?;
    let size = largest.size.clone();
    let mut out: Vec<Point> = Vec::new();
    let mut rungs: Vec<String> = Vec::new();
    for r in card.rows.iter().filter(gpu_row).filter(|r| r.size == size) {
        let (label, kind) = if r.key == auto {
            ("Auto".to_string(), Kind::Auto)
        } else if r.key == cublas {
            ("cuBLAS".to_string(), Kind::Cublas)
        } else if r.key.starts_with("auto-") || r.key.starts_with("cublas") {
            continue;
        } else {
            (short_label(&r.key), Kind::Kernel)
        };
        let point = Point { label, intensity: r.flop_per_byte.unwrap_or_default(), gflops: r.gflops, kind };
        if kind != Kind::Kernel {
            out.push(point);
            continue;
        }
        match rungs.iter().position(|g| *g == rung(&r.key)) {
            Some(i) => {
                // The rung's point is the i-th kernel point.
                let slot = out.iter_mut().filter(|p| p.kind == Kind::Kernel).nth(i).expect("one point per rung");
                if point.gflops > slot.gflops {
                    *slot = point;
                }
            }
            None => {
                rungs.push(rung(&r.key));
                out.push(point);
            }
        }
    }
    if precision == Precision::Fp32 {
        for b in card.bandwidth.iter().filter(|b| b.name.starts_with("vec_add") && b.name.contains("(Rust)")) {
            let label = if b.name.contains("float4") { "vec_add float4" } else { "vec_add" };
            out.push(Point { label: label.into(), intensity: 1.0 / 12.0, gflops: b.gb_per_s / 12.0, kind: Kind::Bandwidth });
        }
    }
    (!out.is_empty()).then_some((size, out))
}

/// A horizontal ceiling of a tensor-core roofline.
struct Ceiling {
    what: String,
    gflops: f64,
    style: Dash,
}

#[derive(Clone, Copy, PartialEq)]
enum Dash {
    Solid,
    Dashed,
    Dotted,
}

const ROOF: RGBColor = RGBColor(0, 0, 0);
const KERNEL: RGBColor = RGBColor(55, 126, 184);
const AUTO: RGBColor = RGBColor(228, 26, 28);
const CUBLAS: RGBColor = RGBColor(77, 77, 77);
const BANDWIDTH: RGBColor = RGBColor(77, 175, 74);
const LEADER: RGBColor = RGBColor(150, 150, 150);
const FONT: f64 = 13.0;

/// The roofs of `precision` in `card`, highest measured one first (it caps the slope).
fn ceilings(card: &Scorecard, precision: Precision) -> Vec<Ceiling> {
    let label = precision.label();
    if precision == Precision::Fp32 {
        return card
            .peak_fp32_gflops
            .map(|p| Ceiling { what: format!("FP32 peak {:.1} TFLOP/s (clocks × FMA units)", p / 1e3), gflops: p, style: Dash::Solid })
            .into_iter()
            .collect();
    }
    let mut measured: Vec<(String, f64)> = Vec::new();
    if let Some(w) = card.wgmma_ceiling_gflops(label) {
        measured.push(("wgmma".into(), w));
    }
    if let Some(m) = card.mma_ceiling_gflops(label) {
        measured.push(("mma.sync".into(), m));
    }
    measured.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut out: Vec<Ceiling> = measured
        .into_iter()
        .enumerate()
        .map(|(i, (name, g))| Ceiling {
            what: format!("{name} issue rate {:.0} TFLOP/s (measured)", g / 1e3),
            gflops: g,
            style: if i == 0 { Dash::Solid } else { Dash::Dashed },
        })
        .collect();
    if let Some(p) = card.datasheet_peak_gflops(label) {
        out.push(Ceiling { what: format!("datasheet dense peak {:.0} TFLOP/s", p / 1e3), gflops: p, style: Dash::Dotted });
    }
    out
}

/// Writes one roofline per precision of `card` into `dir` (`roofline-<precision>.svg`) and returns
/// their paths. Needs the measured peak and copy bandwidth (a GPU run with `--vec-len` > 0).
pub fn write_svgs(card: &Scorecard, dir: &Path) -> Result<Vec<PathBuf>, Fail> {
    let mut written = Vec::new();
    for p in card.precisions() {
        let path = dir.join(format!("roofline-{}.svg", p.label()));
        if write_svg(card, p, &path)? {
            written.push(path);
        }
    }
    Ok(written)
}

/// Writes `precision`'s roofline to `path`; `false` (nothing written) when the run has no points or
/// no roof for it.
pub fn write_svg(card: &Scorecard, precision: Precision, path: &Path) -> Result<bool, Fail> {
    let Some(bw) = card.copy_gb_per_s else { return Err("no measured copy bandwidth in this scorecard: no roofline".into()) };
    let Some((size, mut pts)) = points(card, precision) else { return Ok(false) };
    pts.retain(|p| p.intensity > 0.0);
    if pts.is_empty() {
        return Ok(false);
    }
    let roofs = ceilings(card, precision);
    let Some(cap) = roofs.first().map(|c| c.gflops) else { return Ok(false) };
    let upper = precision.label().to_uppercase();
    // Labels are placed in this order: Auto and cuBLAS first, then the fastest first.
    pts.sort_by(|a, b| {
        (a.kind != Kind::Auto, a.kind != Kind::Cublas)
            .cmp(&(b.kind != Kind::Auto, b.kind != Kind::Cublas))
            .then(b.gflops.total_cmp(&a.gflops))
    });

    // In TFLOP/s: FP32 from 0.05 to 3× its peak, the tensor-core precisions up to 3× their highest roof.
    let tflops = |g: f64| g / 1e3;
    let top = roofs.iter().map(|c| c.gflops).chain(pts.iter().map(|p| p.gflops)).fold(0.0, f64::max);
    let bottom = pts.iter().map(|p| p.gflops).fold(f64::INFINITY, f64::min);
    let (y0, y1) = (tflops(bottom) / 3.0, tflops(top) * 3.0);
    let x_lo = pts.iter().map(|p| p.intensity).fold(f64::INFINITY, f64::min).min(cap / bw) / 3.0;
    let x_hi = pts.iter().map(|p| p.intensity).fold(0.0, f64::max).max(cap / bw) * 4.0;

    let root = SVGBackend::new(path, (1000, 660)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top_part, foot) = root.split_vertically(634);
    let title = format!("{upper} roofline — {} — matmul {size}", card.device.clone().unwrap_or_default());
    let mut chart = ChartBuilder::on(&top_part)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d((x_lo..x_hi).log_scale(), (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("arithmetic intensity (FLOP per byte of counted global traffic)")
        .y_desc("TFLOP/s")
        .x_label_formatter(&|v| short_number(*v))
        .y_label_formatter(&|v| short_number(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;

    // The roofs: the bandwidth slope capped at the highest ceiling, then the other ceilings' flat parts.
    // Labels keep off them: every roof's course, sampled, is kept clear.
    let slope: Vec<(f64, f64)> = log_steps(x_lo, x_hi).map(|x| (x, tflops((x * bw).min(cap)))).collect();
    let mut keep_clear: Vec<Rect> = slope.iter().map(|p| Rect::around(chart.backend_coord(p), 2)).collect();
    chart.draw_series(LineSeries::new(slope, ROOF.stroke_width(2)))?;
    for c in roofs.iter().skip(1) {
        let from = (c.gflops / bw).max(x_lo);
        keep_clear.extend(log_steps(from, x_hi).map(|x| Rect::around(chart.backend_coord(&(x, tflops(c.gflops))), 2)));
        let flat = vec![(from, tflops(c.gflops)), (x_hi, tflops(c.gflops))];
        match c.style {
            Dash::Dashed => chart.draw_series(DashedLineSeries::new(flat, 8, 5, ROOF.stroke_width(1)))?,
            _ => chart.draw_series(DashedLineSeries::new(flat, 2, 4, ROOF.stroke_width(1)))?,
        };
    }

    // Points, then their labels where they cover nothing.
    let anchors: Vec<(i32, i32)> = pts.iter().map(|p| chart.backend_coord(&(p.intensity, tflops(p.gflops)))).collect();
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let area = Rect { x0: xr.start, y0: yr.start, x1: xr.end, y1: yr.end };
    let mut legend: Vec<(String, LegendMark)> = Vec::new();
    legend.push((format!("roof: {bw:.0} GB/s (measured copy) × intensity,\ncapped at {}", roofs[0].what), LegendMark::Line(Dash::Solid)));
    for c in roofs.iter().skip(1) {
        legend.push((c.what.clone(), LegendMark::Line(c.style)));
    }
    for (kind, what) in [
        (Kind::Kernel, "tessera kernel: the fastest tile of each rung".to_string()),
        (Kind::Auto, format!("Auto ({upper})")),
        (Kind::Cublas, format!("cuBLAS {upper}")),
        (Kind::Bandwidth, "vec_add (bandwidth kernel)".to_string()),
    ] {
        if pts.iter().any(|p| p.kind == kind) {
            legend.push((what, LegendMark::Point(kind)));
        }
    }
    let legend_w = legend.iter().flat_map(|(t, _)| t.lines()).map(|l| text_width(l, 12.0)).max().unwrap_or(0) + 44;
    let legend_lines = legend.iter().map(|(t, _)| t.lines().count() as i32).sum::<i32>();
    let legend_box = legend_corner(area, (legend_w, 8 + 18 * legend_lines), 8, &anchors);
    let texts: Vec<String> = pts.iter().map(|p| format!("{} {}", p.label, short_number(tflops(p.gflops)))).collect();
    let sizes: Vec<(i32, i32)> = texts.iter().map(|t| (text_width(t, FONT), FONT as i32 + 3)).collect();
    keep_clear.push(legend_box);
    let spots = place_labels(&anchors, &sizes, area, &keep_clear);
    // Leaders, then the labels' backgrounds (the roofs pass under them), the markers, the texts: a
    // label left of its point is right-aligned, so that it ends next to it whatever the font.
    for (&at, spot) in anchors.iter().zip(&spots) {
        if needs_leader(spot, at) {
            root.draw(&PathElement::new(vec![at, leader_end(spot, at)], LEADER.stroke_width(1)))?;
        }
    }
    for ((&at, spot), text) in anchors.iter().zip(&spots).zip(&texts) {
        // Only behind the text (0.55 em a character, narrower than the place kept for it).
        let w = (text.chars().count() as f64 * FONT * 0.55) as i32 + 2;
        let (x0, x1) = if spot.x1 <= at.0 { (spot.x1 - w, spot.x1) } else { (spot.x0, spot.x0 + w) };
        root.draw(&Rectangle::new([(x0, spot.y0 + 1), (x1, spot.y1 - 1)], WHITE.mix(0.75).filled()))?;
    }
    for (p, &at) in pts.iter().zip(&anchors) {
        root.draw(&marker(p.kind, at))?;
    }
    for ((p, &at), (text, spot)) in pts.iter().zip(&anchors).zip(texts.iter().zip(&spots)) {
        let font = ("sans-serif", FONT).into_font().color(&colour(p.kind));
        if spot.x1 <= at.0 {
            let style = font.pos(Pos::new(HPos::Right, VPos::Top));
            root.draw(&Text::new(text.clone(), (spot.x1 - 1, spot.y0 + 1), style))?;
        } else {
            root.draw(&Text::new(text.clone(), (spot.x0 + 1, spot.y0 + 1), font))?;
        }
    }
    draw_legend(&root, legend_box, &legend)?;
    foot.draw(&Text::new(
        "Counted traffic is what a kernel issues to global memory; points above the slope are served by L1/L2. TFLOP/s as measured, one run.",
        (16, 6),
        ("sans-serif", 12),
    ))?;
    root.present()?;
    Ok(true)
}

/// What a legend line shows.
#[derive(Clone, Copy)]
enum LegendMark {
    Line(Dash),
    Point(Kind),
}

fn colour(kind: Kind) -> RGBColor {
    match kind {
        Kind::Kernel => KERNEL,
        Kind::Auto => AUTO,
        Kind::Cublas => CUBLAS,
        Kind::Bandwidth => BANDWIDTH,
    }
}

/// A point's marker at `at`: kernels as circles, `Auto` as a larger circle, cuBLAS as a square,
/// bandwidth kernels as triangles.
fn marker<DB: DrawingBackend>(kind: Kind, at: (i32, i32)) -> DynElement<'static, DB, (i32, i32)> {
    let c = colour(kind).filled();
    match kind {
        Kind::Kernel => Circle::new(at, 5, c).into_dyn(),
        Kind::Auto => Circle::new(at, 7, c).into_dyn(),
        Kind::Cublas => Rectangle::new([(at.0 - 6, at.1 - 6), (at.0 + 6, at.1 + 6)], c).into_dyn(),
        Kind::Bandwidth => Polygon::new(vec![(at.0, at.1 - 7), (at.0 - 6, at.1 + 5), (at.0 + 6, at.1 + 5)], c).into_dyn(),
    }
}

fn draw_legend(root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>, at: Rect, lines: &[(String, LegendMark)]) -> Result<(), Fail> {
    root.draw(&Rectangle::new([(at.x0, at.y0), (at.x1, at.y1)], WHITE.mix(0.92).filled()))?;
    root.draw(&Rectangle::new([(at.x0, at.y0), (at.x1, at.y1)], RGBColor(120, 120, 120).stroke_width(1)))?;
    let mut y = at.y0 + 15;
    for (text, mark) in lines {
        let (x0, x1) = (at.x0 + 8, at.x0 + 32);
        match mark {
            LegendMark::Line(Dash::Solid) => root.draw(&PathElement::new(vec![(x0, y), (x1, y)], ROOF.stroke_width(2)))?,
            LegendMark::Line(d) => {
                let (on, off) = if *d == Dash::Dashed { (6, 4) } else { (2, 3) };
                let mut x = x0;
                while x < x1 {
                    root.draw(&PathElement::new(vec![(x, y), ((x + on).min(x1), y)], ROOF.stroke_width(1)))?;
                    x += on + off;
                }
            }
            LegendMark::Point(k) => root.draw(&marker(*k, ((x0 + x1) / 2, y)))?,
        }
        for line in text.lines() {
            root.draw(&Text::new(line.to_string(), (x1 + 6, y - 7), ("sans-serif", 12)))?;
            y += 18;
        }
    }
    Ok(())
}

/// 200 steps evenly spaced on a log axis from `lo` to `hi`.
fn log_steps(lo: f64, hi: f64) -> impl Iterator<Item = f64> {
    (0..=200).map(move |i| lo * (hi / lo).powf(i as f64 / 200.0))
}

/// A number as a reader writes it: 3 significant figures at most, no trailing zeros
/// (`0.083`, `4.8`, `49.7`, `512`, `1365`).
pub fn short_number(v: f64) -> String {
    let a = v.abs();
    let s = if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Bandwidth, Check, Row};
    use tessera::MatmulShape;

    #[test]
    fn rungs_and_labels() {
        assert_eq!(rung("streamk-128x256x16"), "streamk");
        assert_eq!(rung("dbuf-128x256x16-rolled"), "dbuf");
        assert_eq!(rung("async-64x64x16-s3"), "async");
        assert_eq!(rung("mma-pipe-bf16-128x256"), "mma-pipe");
        assert_eq!(rung("few-cols-4"), "few-cols");
        assert_eq!(rung("naive"), "naive");
        assert_eq!(rung("blocktile-1d"), "blocktile-1d");
        assert_eq!(rung("blocktile-2d"), "blocktile-2d");
        assert_eq!(rung("persistent-tf32-128x128"), "persistent");
        assert_eq!(short_label("tma-bf16-128x256"), "tma-128x256");
        assert_eq!(short_label("streamk-64x64x16"), "streamk-64x64x16");
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short_number(49.748), "49.7");
        assert_eq!(short_number(0.0833), "0.083");
        assert_eq!(short_number(1365.3), "1365");
        assert_eq!(short_number(4.0), "4");
        assert_eq!(short_number(0.5), "0.5");
    }

    /// One point per rung (its fastest tile), Auto and cuBLAS, at the largest size only; the CUDA C
    /// twin, the CPU and Auto's tuned row are left out; FP32 adds the Rust vec_adds.
    #[test]
    fn points_are_the_ladder_at_the_largest_size() {
        let big = MatmulShape { m: 4096, n: 4096, k: 4096 };
        let small = MatmulShape { m: 512, n: 512, k: 512 };
        let f = Precision::Fp32;
        let row = |s, key: &str, ms| Row::new(s, f, key, key, ms, Check::Ok, Some(1e9));
        let mut card = Scorecard::new();
        card.rows = vec![
            row(small, "naive", 0.01),
            row(big, "naive", 30.0),
            row(big, "streamk-128x128x16", 3.0),
            row(big, "streamk-128x256x16", 2.8),
            row(big, "streamk-64x64x16", 3.5),
            row(big, "dbuf-128x256x16", 3.1),
            row(big, "dbuf-128x256x16-rolled", 3.4),
            row(big, "auto-fp32", 2.8),
            row(big, "auto-fp32-tuned", 2.7),
            row(big, "cuda-c-naive", 30.0),
            row(big, "cpu", 100.0),
            row(big, "cublas", 2.7),
            Row::new(big, Precision::Bf16, "auto-bf16", "auto-bf16", 0.2, Check::Ok, Some(1e9)),
        ];
        card.bandwidth.push(Bandwidth {
            name: "vec_add float4 grid-stride (Rust)".into(),
            elements: 1,
            bytes: 12.0,
            ms: 1.0,
            gb_per_s: 4000.0,
            pct_of_copy: None,
            check: Check::Ok,
        });
        card.bandwidth.push(Bandwidth {
            name: "vec_add one thread per element (CUDA C)".into(),
            elements: 1,
            bytes: 12.0,
            ms: 1.0,
            gb_per_s: 3000.0,
            pct_of_copy: None,
            check: Check::Ok,
        });
        card.finish();
        let (size, pts) = points(&card, f).expect("points");
        assert_eq!(size, "4096³");
        let labels: Vec<&str> = pts.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["naive", "streamk-128x256x16", "dbuf-128x256x16", "Auto", "cuBLAS", "vec_add float4"]);
        let auto = pts.iter().find(|p| p.kind == Kind::Auto).unwrap();
        assert!((auto.gflops - big.flops() / 2.8e-3 / 1e9).abs() < 1e-6);
        assert!((auto.intensity - big.flops() / 1e9).abs() < 1e-9);
        assert_eq!(pts.last().unwrap().kind, Kind::Bandwidth);
        assert!((pts.last().unwrap().gflops - 4000.0 / 12.0).abs() < 1e-9);
        // BF16: Auto alone at its only size; no vec_add.
        let (_, bf16) = points(&card, Precision::Bf16).expect("bf16 points");
        assert_eq!(bf16.len(), 1);
        assert!(points(&card, Precision::Tf32).is_none());
    }

    /// The SVG of a small card: a file per precision with its labels in it, and the legend within
    /// the twelve lines a reader can take in.
    #[test]
    fn writes_one_labelled_svg_per_precision() {
        let big = MatmulShape { m: 2048, n: 2048, k: 2048 };
        let mut card = Scorecard::new();
        card.device = Some("Test GPU".into());
        card.peak_fp32_gflops = Some(60_000.0);
        card.copy_gb_per_s = Some(4000.0);
        card.mma_ceilings.push(crate::report::MmaCeiling {
            precision: "bf16".into(),
            tflops: 640.0,
            blocks: 1,
            iters: 1,
            ms: 1.0,
            source: "m".into(),
        });
        for (p, key, ms) in [
            (Precision::Fp32, "naive", 4.0),
            (Precision::Fp32, "tiled", 2.0),
            (Precision::Fp32, "auto-fp32", 0.4),
            (Precision::Fp32, "cublas", 0.35),
            (Precision::Bf16, "tma-bf16-128x256", 0.03),
            (Precision::Bf16, "auto-bf16", 0.03),
            (Precision::Bf16, "cublas-bf16", 0.028),
        ] {
            card.rows.push(Row::new(big, p, key, key, ms, Check::Ok, Some(5e7)));
        }
        card.finish();
        let dir = std::env::temp_dir().join(format!("roofline-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let written = write_svgs(&card, &dir).unwrap();
        assert_eq!(written, [dir.join("roofline-fp32.svg"), dir.join("roofline-bf16.svg")]);
        let fp32 = std::fs::read_to_string(&written[0]).unwrap();
        for label in ["naive ", "tiled ", "Auto ", "cuBLAS ", "FP32 peak 60.0 TFLOP/s"] {
            assert!(fp32.contains(label), "{label} missing");
        }
        let bf16 = std::fs::read_to_string(&written[1]).unwrap();
        assert!(bf16.contains("tma-128x256 ") && bf16.contains("mma.sync issue rate 640 TFLOP/s"), "labels missing");
        let _ = std::fs::remove_dir_all(dir);
    }
}
