//! The roofline plot (SVG): the device's bandwidth slope and FP32 ceiling, a tensor-core roof per
//! precision at its measured `mma.sync` ceiling (dashed) and `wgmma` ceiling (dotted), and each GPU kernel of the largest measured size as a point at its arithmetic intensity (counted global bytes ÷ FLOPs, from
//! `traffic::global_bytes`; cuBLAS at the minimum traffic of reading A and B and writing C once).
use std::path::Path;

use plotters::prelude::*;

use crate::report::Scorecard;
use crate::Fail;

/// Colours cycled over the kernels (12 distinct ones; CUDA C twins are drawn hollow in their Rust
/// kernel's colour order, cuBLAS as a square).
const PALETTE: [RGBColor; 12] = [
    RGBColor(228, 26, 28),
    RGBColor(55, 126, 184),
    RGBColor(77, 175, 74),
    RGBColor(152, 78, 163),
    RGBColor(255, 127, 0),
    RGBColor(166, 86, 40),
    RGBColor(247, 129, 191),
    RGBColor(80, 80, 80),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(31, 60, 120),
    RGBColor(140, 20, 60),
];

/// How a point is drawn.
#[derive(Clone, Copy)]
enum Marker {
    Filled,
    Hollow,
    Square,
}

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
    let marker = |key: &str| match key {
        "cublas" => Marker::Square,
        k if k.starts_with("cuda-c") => Marker::Hollow,
        _ => Marker::Filled,
    };
    let mut points: Vec<(String, f64, f64, Marker)> = card
        .rows
        .iter()
        .filter(|r| r.size == size && !r.key.starts_with("cpu"))
        .filter_map(|r| Some((r.name.clone(), r.flop_per_byte?, r.gflops, marker(&r.key))))
        .collect();
    // vec_add: 1 FLOP per 12 bytes.
    for b in card.bandwidth.iter().filter(|b| b.name.starts_with("vec_add")) {
        let m = if b.name.contains("CUDA C") { Marker::Hollow } else { Marker::Filled };
        points.push((format!("{} ({} floats)", b.name, b.elements), 1.0 / 12.0, b.gb_per_s / 12.0, m));
    }

    // The legend panel lists every point on its own line: the canvas grows with the number of points.
    let height = 640.max(90 + 24 * points.len() as u32);
    let full = SVGBackend::new(path, (1440, height)).into_drawing_area();
    full.fill(&WHITE)?;
    let (root, legend) = full.split_horizontally(860);
    // Room above the highest roof (the tensor-core ceilings reach several hundred TFLOP/s).
    let top =
        card.mma_ceilings.iter().map(|c| c.tflops * 1e3).chain(card.wgmma_ceilings.iter().map(|c| c.tflops * 1e3)).fold(peak, f64::max);
    let y_max = (1.5 * top).max(200_000.0);
    let title = format!("Roofline — {} — matmul {size}", card.device.clone().unwrap_or_default());
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((0.02f64..2000f64).log_scale(), (50f64..y_max).log_scale())?;
    chart.configure_mesh().x_desc("arithmetic intensity (FLOP per byte of counted global traffic)").y_desc("GFLOP/s").draw()?;

    let ridge = peak / bw;
    chart
        .draw_series(LineSeries::new(roof(bw, peak), BLACK.stroke_width(2)))?
        .label(format!("roof: {bw:.0} GB/s (measured copy) × intensity, capped at {peak:.0} GFLOP/s FP32 peak (ridge {ridge:.1} FLOP/B)"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));

    // Tensor-core roofs: the same bandwidth slope, capped at each precision's measured mma.sync rate.
    const ROOF_COLOURS: [RGBColor; 3] = [RGBColor(0, 110, 200), RGBColor(200, 90, 0), RGBColor(0, 150, 70)];
    for (i, c) in card.mma_ceilings.iter().enumerate() {
        let colour = ROOF_COLOURS[i % ROOF_COLOURS.len()];
        let cap = c.tflops * 1e3;
        // Only the flat part: the slope is the FP32 roof's.
        let flat: Vec<(f64, f64)> = roof(bw, cap).filter(|(x, _)| x * bw >= cap * 0.999).collect();
        chart
            .draw_series(DashedLineSeries::new(flat, 8, 5, colour.stroke_width(2)))?
            .label(format!("tensor-core roof {}: {:.0} TFLOP/s, mma.sync ceiling ({})", c.precision.to_uppercase(), c.tflops, c.source))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    // The wgmma roofs (sm_90a): the same colour per precision as its mma.sync roof, dotted.
    for c in &card.wgmma_ceilings {
        let i = card.mma_ceilings.iter().position(|m| m.precision == c.precision).unwrap_or(0);
        let colour = ROOF_COLOURS[i % ROOF_COLOURS.len()];
        let cap = c.tflops * 1e3;
        // Only the flat part: the slope is the FP32 roof's.
        let flat: Vec<(f64, f64)> = roof(bw, cap).filter(|(x, _)| x * bw >= cap * 0.999).collect();
        chart
            .draw_series(DashedLineSeries::new(flat, 2, 4, colour.stroke_width(2)))?
            .label(format!("tensor-core roof {}: {:.0} TFLOP/s, wgmma ceiling ({})", c.precision.to_uppercase(), c.tflops, c.source))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }

    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .draw()?;

    // Points on the chart; their legend in the right-hand panel (one line each, same colour and marker).
    let (mut rust_i, mut cuda_i) = (0, 0);
    for (row, (name, x, y, m)) in points.iter().enumerate() {
        let color = match m {
            Marker::Hollow => {
                cuda_i += 1;
                PALETTE[(cuda_i - 1) % PALETTE.len()]
            }
            _ => {
                rust_i += 1;
                // Past the palette, the colours repeat darker, so no two Rust points look the same.
                let c = PALETTE[(rust_i - 1) % PALETTE.len()];
                if rust_i > PALETTE.len() {
                    RGBColor(c.0 / 2, c.1 / 2, c.2 / 2)
                } else {
                    c
                }
            }
        };
        let style = match m {
            Marker::Hollow => color.stroke_width(2),
            _ => color.filled(),
        };
        let shape = |at: (i32, i32)| -> DynElement<'static, SVGBackend, (i32, i32)> {
            match m {
                Marker::Square => Rectangle::new([(at.0 - 5, at.1 - 5), (at.0 + 5, at.1 + 5)], style).into_dyn(),
                _ => Circle::new(at, 6, style).into_dyn(),
            }
        };
        chart.draw_series(std::iter::once(EmptyElement::at((*x, *y)) + shape((0, 0))))?;
        let ly = 60 + row as i32 * 24;
        legend.draw(&(EmptyElement::at((14, ly)) + shape((0, 0))))?;
        legend.draw(&Text::new(format!("{name}: {y:.0} GFLOP/s at {x:.2} FLOP/B"), (28, ly - 7), ("sans-serif", 13)))?;
    }
    legend.draw(&Text::new("filled: Rust kernels · hollow: CUDA C twins · square: cuBLAS", (14, 24), ("sans-serif", 13)))?;
    full.draw(&Text::new(
        "Counted traffic is what a kernel issues to global memory; points above the slope are served by L1/L2.",
        (90, height as i32 - 18),
        ("sans-serif", 12),
    ))?;
    full.present()?;
    Ok(())
}

/// A roof over the chart's intensity range (0.02 to 2000 FLOP/B, 201 points evenly spaced on the log
/// axis): `bw` GB/s × intensity, capped at `cap` GFLOP/s.
fn roof(bw: f64, cap: f64) -> impl Iterator<Item = (f64, f64)> {
    (0..=200).map(move |i| {
        let x = 0.02 * (2000.0f64 / 0.02).powf(i as f64 / 200.0);
        (x, (x * bw).min(cap))
    })
}
