//! The roofline plot (SVG): the device's bandwidth slope and FP32 ceiling, and each GPU kernel of the
//! largest measured size as a point at its arithmetic intensity (counted global bytes ÷ FLOPs, from
//! `Algo::global_bytes`; cuBLAS at the minimum traffic of reading A and B and writing C once).
use std::path::Path;

use plotters::prelude::*;

use crate::report::Scorecard;
use crate::Fail;

/// Colours cycled over the kernels.
const PALETTE: [RGBColor; 8] = [
    RGBColor(228, 26, 28),
    RGBColor(55, 126, 184),
    RGBColor(77, 175, 74),
    RGBColor(152, 78, 163),
    RGBColor(255, 127, 0),
    RGBColor(166, 86, 40),
    RGBColor(247, 129, 191),
    RGBColor(80, 80, 80),
];

/// Writes the roofline of `card` to `path`. Needs the measured peak and copy bandwidth (a GPU run).
pub fn write_svg(card: &Scorecard, path: &Path) -> Result<(), Fail> {
    let (Some(peak), Some(bw)) = (card.peak_fp32_gflops, card.copy_gb_per_s) else {
        return Err("no GPU figures in this scorecard: nothing to plot".into());
    };
    // The largest size measured: one point per implementation.
    let largest = card.rows.iter().filter(|r| !r.key.starts_with("cpu")).max_by(|a, b| {
        let fa = a.m as f64 * a.n as f64 * a.k as f64;
        fa.total_cmp(&(b.m as f64 * b.n as f64 * b.k as f64))
    });
    let size = largest.map(|r| r.size.clone()).unwrap_or_default();
    let mut points: Vec<(String, f64, f64)> = card
        .rows
        .iter()
        .filter(|r| r.size == size && !r.key.starts_with("cpu"))
        .filter_map(|r| Some((r.name.clone(), r.flop_per_byte?, r.gflops)))
        .collect();
    // vec_add: 1 FLOP per 12 bytes.
    for b in card.bandwidth.iter().filter(|b| b.name.starts_with("vec_add")) {
        points.push((format!("{} ({} floats)", b.name, b.elements), 1.0 / 12.0, b.gb_per_s / 12.0));
    }

    let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("Roofline — {} — matmul {size}", card.device.clone().unwrap_or_default());
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((0.02f64..2000f64).log_scale(), (50f64..200_000f64).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("arithmetic intensity (FLOP per byte of counted global traffic)")
        .y_desc("GFLOP/s")
        .draw()?;

    let ridge = peak / bw;
    let roof = (0..=200).map(|i| {
        let x = 0.02 * (2000.0f64 / 0.02).powf(i as f64 / 200.0);
        (x, (x * bw).min(peak))
    });
    chart
        .draw_series(LineSeries::new(roof, BLACK.stroke_width(2)))?
        .label(format!("roof: {bw:.0} GB/s (measured copy) × intensity, capped at {peak:.0} GFLOP/s FP32 peak (ridge {ridge:.1} FLOP/B)"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));

    for (i, (name, x, y)) in points.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        chart
            .draw_series(std::iter::once(Circle::new((*x, *y), 6, color.filled())))?
            .label(format!("{name}: {y:.0} GFLOP/s at {x:.2} FLOP/B"))
            .legend(move |(lx, ly)| Circle::new((lx + 10, ly), 5, color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.draw(&Text::new(
        "Counted traffic is what a kernel issues to global memory; points above the slope are served by L1/L2.",
        (90, 582),
        ("sans-serif", 12),
    ))?;
    root.present()?;
    Ok(())
}
