//! `sizes.svg`: TFLOP/s against the size of square products (n × n times n × n, log axes), a line per
//! precision for `Auto` (solid) and one for cuBLAS of the same precision (dashed, the same colour):
//! where tessera stands, at a glance. The data is [`crate::summary::size_series`]; a run of
//! `--sweep` gives it from 256 to 16384, sizes that are not powers of two included.
use std::path::Path;

use plotters::prelude::*;
use tessera::Precision;

use crate::report::Scorecard;
use crate::roofline::short_number;
use crate::summary::{size_series, SizeSeries};
use crate::Fail;

/// A colour per precision, the same for `Auto` and cuBLAS.
pub fn colour(p: Precision) -> RGBColor {
    match p {
        Precision::Fp32 => RGBColor(31, 119, 180),
        Precision::Tf32 => RGBColor(255, 127, 14),
        Precision::Bf16 => RGBColor(44, 160, 44),
        Precision::Fp16 => RGBColor(214, 39, 40),
        Precision::Fp8E4m3 => RGBColor(148, 103, 189),
        Precision::Fp8E5m2 => RGBColor(140, 86, 75),
    }
}

/// The outline of a marker of radius `r` around (0, 0), by precision, so that lines on top of each
/// other (BF16 and FP16, say) still show both: FP32 a circle (`None`), TF32 a square, BF16 a triangle,
/// FP16 a diamond. `Auto`'s markers are filled, cuBLAS's hollow.
pub fn outline(p: Precision, r: i32) -> Option<Vec<(i32, i32)>> {
    match p {
        Precision::Fp32 => None,
        Precision::Tf32 => Some(vec![(1 - r, 1 - r), (r - 1, 1 - r), (r - 1, r - 1), (1 - r, r - 1)]),
        Precision::Bf16 => Some(vec![(0, -r - 1), (r, r - 1), (-r, r - 1)]),
        Precision::Fp16 => Some(vec![(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)]),
        // Not measured yet (no FP8 GEMM): an inverted triangle each.
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => Some(vec![(0, r + 1), (r, 1 - r), (-r, 1 - r)]),
    }
}

/// The outline closed (its first point again at the end), for a hollow marker.
fn closed(v: &[(i32, i32)]) -> Vec<(i32, i32)> {
    v.iter().chain(v.first()).copied().collect()
}

/// The axes' ranges: sizes (a little beyond the smallest and largest) and TFLOP/s (from a third of
/// the least rate to twice the highest), for log scales.
pub fn ranges(series: &[SizeSeries]) -> Option<((f64, f64), (f64, f64))> {
    let ns = series.iter().flat_map(|s| s.points.iter().map(|p| f64::from(p.n)));
    let rates = series.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.auto_tflops, p.cublas_tflops]));
    let (n_lo, n_hi) = ns.fold((f64::INFINITY, 0.0f64), |(lo, hi), n| (lo.min(n), hi.max(n)));
    let (r_lo, r_hi) = rates.filter(|r| *r > 0.0).fold((f64::INFINITY, 0.0f64), |(lo, hi), r| (lo.min(r), hi.max(r)));
    (n_hi > 0.0 && r_hi > 0.0).then_some(((n_lo / 1.15, n_hi * 1.15), (r_lo / 3.0, r_hi * 2.0)))
}

/// Writes `sizes.svg` from `card`; `false` (nothing written) when no precision has two square sizes
/// with both `Auto` and cuBLAS.
pub fn write_svg(card: &Scorecard, path: &Path) -> Result<bool, Fail> {
    let series = size_series(card);
    let Some(((x0, x1), (y0, y1))) = ranges(&series) else { return Ok(false) };
    let root = SVGBackend::new(path, (1100, 620)).into_drawing_area();
    root.fill(&WHITE)?;
    let (plot, panel) = root.split_horizontally(820);
    let what = if card.size_sweep { "the size sweep" } else { "the run's square sizes" };
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("Square matmul n×n×n on {} — {what}", card.device.clone().unwrap_or_default()), ("sans-serif", 19))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d((x0..x1).log_scale().base(2.0), (y0..y1).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("n (log scale)")
        .y_desc("TFLOP/s (log scale)")
        .x_labels(8)
        .x_label_formatter(&|v| format!("{}", v.round()))
        .y_label_formatter(&|v| short_number(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    for s in &series {
        let c = colour(s.precision);
        let auto: Vec<(f64, f64)> = s.points.iter().map(|p| (f64::from(p.n), p.auto_tflops)).collect();
        let cublas: Vec<(f64, f64)> = s.points.iter().map(|p| (f64::from(p.n), p.cublas_tflops)).collect();
        chart.draw_series(LineSeries::new(auto.clone(), c.stroke_width(3)))?;

        chart.draw_series(DashedLineSeries::new(cublas.clone(), 9, 6, c.stroke_width(2)))?;
        for (points, r, filled) in [(&auto, 5, true), (&cublas, 4, false)] {
            let at = points.iter().copied();
            match (outline(s.precision, r), filled) {
                (None, true) => chart.draw_series(at.map(|p| Circle::new(p, r, c.filled())))?,
                (None, false) => chart.draw_series(at.map(|p| Circle::new(p, r, c.stroke_width(1))))?,
                (Some(v), true) => chart.draw_series(at.map(|p| EmptyElement::at(p) + Polygon::new(v.clone(), c.filled())))?,
                (Some(v), false) => chart.draw_series(at.map(|p| EmptyElement::at(p) + PathElement::new(closed(&v), c.stroke_width(1))))?,
            };
        }
    }

    // The legend panel: per precision, its two lines and what Auto ÷ cuBLAS comes to.
    panel.draw(&Text::new("solid: tessera Auto", (10, 40), ("sans-serif", 14)))?;
    panel.draw(&Text::new("dashed: cuBLAS, same precision", (10, 60), ("sans-serif", 14)))?;
    for (i, s) in series.iter().enumerate() {
        let c = colour(s.precision);
        let y = 100 + 118 * i as i32;
        let upper = s.precision.label().to_uppercase();
        panel.draw(&Text::new(upper.clone(), (10, y), ("sans-serif", 16).into_font().color(&c)))?;
        panel.draw(&PathElement::new(vec![(12, y + 30), (52, y + 30)], c.stroke_width(3)))?;
        match outline(s.precision, 5) {
            None => panel.draw(&Circle::new((32, y + 30), 5, c.filled()))?,
            Some(v) => panel.draw(&(EmptyElement::at((32, y + 30)) + Polygon::new(v, c.filled())))?,
        }
        panel.draw(&Text::new(format!("{upper} Auto"), (60, y + 23), ("sans-serif", 13)))?;
        let mut x = 12;
        while x < 52 {
            panel.draw(&PathElement::new(vec![(x, y + 50), ((x + 9).min(52), y + 50)], c.stroke_width(2)))?;
            x += 15;
        }
        panel.draw(&Text::new(format!("{upper} cuBLAS"), (60, y + 43), ("sans-serif", 13)))?;
        let ratios: Vec<f64> = s.points.iter().map(|p| p.auto_tflops / p.cublas_tflops).collect();
        let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let last = s.points.last().expect("two points at least");
        panel.draw(&Text::new(format!("Auto ÷ cuBLAS: {geomean:.2} (geomean),"), (12, y + 64), ("sans-serif", 12)))?;
        panel.draw(&Text::new(
            format!("{:.2} at n = {} ({} TFLOP/s)", last.auto_tflops / last.cublas_tflops, last.n, short_number(last.auto_tflops)),
            (12, y + 80),
            ("sans-serif", 12),
        ))?;
    }
    root.present()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Check, Row};
    use tessera::MatmulShape;

    fn sweep() -> Scorecard {
        let mut card = Scorecard::new();
        card.device = Some("Test GPU".into());
        card.size_sweep = true;
        for n in [256u32, 1000, 4096] {
            let s = MatmulShape { m: n, n, k: n };
            let ms = s.flops() / 1e12 / 50.0 * 1e3; // 50 TFLOP/s
            for (p, auto, cublas) in [(Precision::Fp32, "auto-fp32", "cublas"), (Precision::Bf16, "auto-bf16", "cublas-bf16")] {
                card.rows.push(Row::new(s, p, auto, auto, ms, Check::Ok, None));
                card.rows.push(Row::new(s, p, cublas, cublas, ms / 2.0, Check::Ok, None));
            }
        }
        card.finish();
        card
    }

    #[test]
    fn markers_differ_by_precision() {
        let shapes: Vec<Option<usize>> = Precision::ALL.iter().map(|&p| outline(p, 5).map(|v| v.len())).collect();
        assert_eq!(shapes, [None, Some(4), Some(3), Some(4)]);
        assert_ne!(outline(Precision::Tf32, 5), outline(Precision::Fp16, 5));
        assert_eq!(closed(&[(0, 0), (1, 0), (0, 1)]), [(0, 0), (1, 0), (0, 1), (0, 0)]);
    }

    #[test]
    fn ranges_cover_every_point_with_room() {
        let series = size_series(&sweep());
        let ((x0, x1), (y0, y1)) = ranges(&series).unwrap();
        assert!(x0 < 256.0 && x1 > 4096.0 && x0 > 200.0);
        // Auto 50, cuBLAS 100 TFLOP/s.
        assert!((y0 - 50.0 / 3.0).abs() < 1e-6 && (y1 - 200.0).abs() < 1e-6, "{y0} {y1}");
        assert!(ranges(&[]).is_none());
    }

    #[test]
    fn writes_a_line_per_precision() {
        let path = std::env::temp_dir().join(format!("sizes-test-{}.svg", std::process::id()));
        assert!(write_svg(&sweep(), &path).unwrap());
        let svg = std::fs::read_to_string(&path).unwrap();
        for text in
            ["FP32 Auto", "FP32 cuBLAS", "BF16 Auto", "BF16 cuBLAS", "Auto ÷ cuBLAS: 0.50 (geomean),", "0.50 at n = 4096 (50 TFLOP/s)"]
        {
            assert!(svg.contains(text), "{text} missing");
        }
        let _ = std::fs::remove_file(path);
        // Nothing to draw: no file.
        let empty = std::env::temp_dir().join(format!("sizes-empty-{}.svg", std::process::id()));
        assert!(!write_svg(&Scorecard::new(), &empty).unwrap());
        assert!(!empty.exists());
    }
}
