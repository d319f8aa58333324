//! The compact views of a run, for a reader rather than for the record:
//! - per precision, `Auto` beside cuBLAS of the same precision on the run's sizes, with the geometric
//!   mean over the random shapes of random-shape runs (README's summary tables, `summary.md`);
//! - the size sweep (square sizes: `Auto` and cuBLAS by size), the data behind `sizes.svg`;
//! - the random-shape runs, one line each.
//!
//! Every figure is a ratio or a rate of rows of the scorecards given: nothing here is measured.
use tessera::Precision;

use crate::report::{cublas_key, Row, Scorecard};

/// The key of `Auto`'s row in `precision` (`auto-fp32`, `auto-bf16`, …).
pub fn auto_key(p: Precision) -> String {
    format!("auto-{}", p.label())
}

/// The key of `Auto` tuned on request (`AutoTuning::Measured`) in `precision` (`auto-fp32-tuned`, …).
pub fn tuned_key(p: Precision) -> String {
    format!("auto-{}-tuned", p.label())
}

impl Scorecard {
    /// The sizes of the run, in the order they first appear among the rows.
    pub fn sizes(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.size) {
                out.push(r.size.clone());
            }
        }
        out
    }

    /// The random sizes of the run (`--random-shapes N`: the last N sizes; empty without).
    pub fn random_sizes(&self) -> Vec<String> {
        let sizes = self.sizes();
        let count = self.random_shapes.map_or(0, |r| r.count).min(sizes.len());
        sizes[sizes.len() - count..].to_vec()
    }

    /// The sizes given by `--sizes` (every size but the random ones).
    pub fn fixed_sizes(&self) -> Vec<String> {
        let sizes = self.sizes();
        let count = self.random_shapes.map_or(0, |r| r.count).min(sizes.len());
        sizes[..sizes.len() - count].to_vec()
    }

    /// The row keyed `key` at `size`.
    pub fn row(&self, size: &str, key: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.size == size && r.key == key)
    }

    /// For each of `sizes` that has both, in that order: the row keyed `key` and cuBLAS of `precision`.
    pub fn against_cublas(&self, precision: Precision, key: &str, sizes: &[String]) -> Vec<(&Row, &Row)> {
        let ck = cublas_key(precision);
        sizes.iter().filter_map(|s| Some((self.row(s, key)?, self.row(s, &ck)?))).collect()
    }
}

/// A ratio over several shapes: how many, the geometric mean, the lowest and its shape.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratios {
    pub count: usize,
    pub geomean: f64,
    pub lowest: f64,
    pub lowest_size: String,
}

impl Ratios {
    /// The summary of `(size, ratio)` pairs; `None` when there are none.
    pub fn of(ratios: &[(String, f64)]) -> Option<Self> {
        let (lowest_size, lowest) = ratios.iter().min_by(|a, b| a.1.total_cmp(&b.1))?.clone();
        let geomean = (ratios.iter().map(|(_, r)| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
        Some(Ratios { count: ratios.len(), geomean, lowest, lowest_size })
    }
}

/// `(size, cuBLAS time ÷ time of the row keyed `key`)` over the random sizes of every card of
/// `cards`, pooled (a ratio above 1: faster than cuBLAS).
pub fn random_ratios(cards: &[&Scorecard], precision: Precision, key: &str) -> Vec<(String, f64)> {
    cards.iter().flat_map(|c| c.against_cublas(precision, key, &c.random_sizes())).map(|(r, cu)| (r.size.clone(), cu.ms / r.ms)).collect()
}

/// One point of the size sweep: a square size and `Auto`'s and cuBLAS's rate there.
#[derive(Debug, Clone, PartialEq)]
pub struct SizePoint {
    pub n: u32,
    pub auto_tflops: f64,
    pub cublas_tflops: f64,
}

/// One precision's points of the size sweep, by size.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeSeries {
    pub precision: Precision,
    pub points: Vec<SizePoint>,
}

/// Per precision of `card`, widest first: its square sizes (M = N = K) that have both an `Auto` row
/// and a cuBLAS row of the precision, in increasing size. Precisions with fewer than two such sizes
/// are left out: they draw no line.
pub fn size_series(card: &Scorecard) -> Vec<SizeSeries> {
    let squares: Vec<String> =
        card.sizes().into_iter().filter(|s| card.rows.iter().any(|r| r.size == *s && r.m == r.n && r.n == r.k)).collect();
    let mut out = Vec::new();
    for p in Precision::ALL {
        let mut points: Vec<SizePoint> = card
            .against_cublas(p, &auto_key(p), &squares)
            .into_iter()
            .map(|(a, c)| SizePoint { n: a.m, auto_tflops: a.gflops / 1e3, cublas_tflops: c.gflops / 1e3 })
            .collect();
        points.sort_by_key(|pt| pt.n);
        if points.len() >= 2 {
            out.push(SizeSeries { precision: p, points });
        }
    }
    out
}

/// The geometric mean of `v` (`None` when empty).
fn geomean(v: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (n, sum) = v.into_iter().fold((0usize, 0.0f64), |(n, s), x| (n + 1, s + x.ln()));
    (n > 0).then(|| (sum / n as f64).exp())
}

/// The random-shape runs among `cards` in a few words: "seed 41301", "seeds 41301, 41302", or past
/// three runs "6 seeds" (`random.md` lists them).
fn seeds(cards: &[&Scorecard]) -> String {
    let s: Vec<String> = cards.iter().filter_map(|c| c.random_shapes.map(|r| r.seed.to_string())).collect();
    match s.len() {
        1 => format!("seed {}", s[0]),
        2 | 3 => format!("seeds {}", s.join(", ")),
        n => format!("{n} seeds"),
    }
}

/// The compact summary (`summary.md`): for a size sweep, `Auto` ÷ cuBLAS by size, a column per
/// precision; otherwise, per precision of `card`, a table of `Auto` beside cuBLAS of the same
/// precision on the run's own sizes (not its random ones) and their geometric mean, then the
/// geometric mean of `Auto` ÷ cuBLAS over the random shapes of `card` and of `random` pooled (and of
/// `Auto` tuned on request, where those runs have it).
pub fn summary_markdown(card: &Scorecard, random: &[&Scorecard]) -> String {
    if card.size_sweep {
        return sweep_ratio_markdown(card);
    }
    let mut runs: Vec<&Scorecard> = Vec::new();
    if card.random_shapes.is_some() {
        runs.push(card);
    }
    runs.extend(random.iter().copied().filter(|c| c.random_shapes.is_some()));
    let fixed = card.fixed_sizes();
    let mut s = String::new();
    for p in card.precisions() {
        let upper = p.label().to_uppercase();
        let pairs = card.against_cublas(p, &auto_key(p), &fixed);
        let random_rows: Vec<(&str, Ratios)> = [(auto_key(p), "`Auto`"), (tuned_key(p), "`Auto` tuned on request")]
            .into_iter()
            .filter_map(|(key, what)| Some((what, Ratios::of(&random_ratios(&runs, p, &key))?)))
            .collect();
        if pairs.is_empty() && random_rows.is_empty() {
            continue;
        }
        s += &format!("**{upper}**\n\n");
        if let Some(line) = ladder_line(card, p) {
            s += &line;
        }
        s += &format!("| shape | `Auto` TFLOP/s | cuBLAS {upper} TFLOP/s | `Auto` ÷ cuBLAS |\n|---|---:|---:|---:|\n");
        for (a, c) in &pairs {
            s += &format!("| {} | {:.1} | {:.1} | {:.3} |\n", a.size, a.gflops / 1e3, c.gflops / 1e3, c.ms / a.ms);
        }
        if let Some(g) = geomean(pairs.iter().map(|(a, c)| c.ms / a.ms)) {
            s += &format!("| geometric mean, these {} shapes | | | **{g:.3}** |\n", pairs.len());
        }
        for (what, r) in &random_rows {
            s += &format!(
                "| {what}, {} random shapes ({}), geometric mean | | | **{:.3}** (lowest {:.3}, {}) |\n",
                r.count,
                seeds(&runs),
                r.geomean,
                r.lowest,
                r.lowest_size
            );
        }
        s += "\n";
    }
    s
}

/// The ladder of `precision` in one line, at the run's largest size: each rung's fastest tile in the
/// run's (the catalogue's) order, then `Auto` and cuBLAS, TFLOP/s — the points of its roofline
/// ([`crate::roofline::points`]) without the bandwidth kernels. `None` without kernel rows.
pub fn ladder_line(card: &Scorecard, precision: Precision) -> Option<String> {
    use crate::roofline::{points, short_number, Kind};
    let (size, pts) = points(card, precision)?;
    let rungs: Vec<String> =
        pts.iter().filter(|p| p.kind == Kind::Kernel).map(|p| format!("{} {}", p.label, short_number(p.gflops / 1e3))).collect();
    if rungs.is_empty() {
        return None;
    }
    let other = |k: Kind| pts.iter().find(|p| p.kind == k).map(|p| short_number(p.gflops / 1e3));
    let mut line = format!("At {size}, each rung's fastest tile, TFLOP/s: {}", rungs.join(" · "));
    if let Some(a) = other(Kind::Auto) {
        line += &format!("; `Auto` {a}");
    }
    if let Some(c) = other(Kind::Cublas) {
        line += &format!("; cuBLAS {c}");
    }
    Some(line + ".\n\n")
}

/// Every square size of `series`, ascending, once.
fn square_sizes(series: &[SizeSeries]) -> Vec<u32> {
    let mut sizes: Vec<u32> = series.iter().flat_map(|s| s.points.iter().map(|p| p.n)).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// The size sweep's compact table: `Auto` ÷ cuBLAS of the same precision, a row per square size and
/// a column per precision, and the geometric mean of each column (empty without a sweep's data).
pub fn sweep_ratio_markdown(card: &Scorecard) -> String {
    let series = size_series(card);
    if series.is_empty() {
        return String::new();
    }
    let sizes = square_sizes(&series);
    let heads: Vec<String> = series.iter().map(|s| s.precision.label().to_uppercase()).collect();
    let mut s = format!(
        "`Auto` ÷ cuBLAS of the same precision on square matrices (n × n times n × n):\n\n| n | {} |\n|---:|{}\n",
        heads.join(" | "),
        "---:|".repeat(heads.len())
    );
    for n in &sizes {
        let cells: Vec<String> = series
            .iter()
            .map(|se| se.points.iter().find(|p| p.n == *n).map_or("—".into(), |p| format!("{:.3}", p.auto_tflops / p.cublas_tflops)))
            .collect();
        s += &format!("| {n} | {} |\n", cells.join(" | "));
    }
    let means: Vec<String> = series
        .iter()
        .map(|se| geomean(se.points.iter().map(|p| p.auto_tflops / p.cublas_tflops)).map_or("—".into(), |g| format!("**{g:.3}**")))
        .collect();
    s + &format!("| geometric mean | {} |\n", means.join(" | "))
}

/// The size sweep in full (the scorecard's Markdown): per square size and precision, `Auto`'s and
/// cuBLAS's TFLOP/s and their ratio (empty without two square sizes of `Auto` and cuBLAS).
pub fn sweep_markdown(card: &Scorecard) -> String {
    let series = size_series(card);
    if series.is_empty() {
        return String::new();
    }
    let sizes = square_sizes(&series);
    let mut s = String::from("\n## `Auto` and cuBLAS by size (square matrices)\n\n");
    if card.size_sweep {
        s += "The size sweep (`--sweep`): `Auto` and cuBLAS of the same precision only, TFLOP/s.\n\n";
    } else {
        s += "The run's square sizes: `Auto` and cuBLAS of the same precision, TFLOP/s.\n\n";
    }
    s += "| n |";
    for se in &series {
        let u = se.precision.label().to_uppercase();
        s += &format!(" {u} `Auto` | {u} cuBLAS | {u} ÷ |");
    }
    s += "\n|---:|";
    s += &"---:|---:|---:|".repeat(series.len());
    s += "\n";
    for n in &sizes {
        s += &format!("| {n} |");
        for se in &series {
            s += &match se.points.iter().find(|p| p.n == *n) {
                Some(p) => format!(" {:.1} | {:.1} | {:.3} |", p.auto_tflops, p.cublas_tflops, p.auto_tflops / p.cublas_tflops),
                None => " — | — | — |".into(),
            };
        }
        s += "\n";
    }
    s
}

/// One line per random-shape run of `cards` (those without random shapes are skipped): its seed,
/// its random shapes, and `Auto` ÷ cuBLAS over them (`Auto` tuned on request beside it where
/// the run has it).
pub fn random_runs_markdown(cards: &[&Scorecard]) -> String {
    let mut s = String::new();
    for c in cards {
        let Some(rs) = c.random_shapes else { continue };
        for p in c.precisions() {
            let Some(auto) = Ratios::of(&random_ratios(&[c], p, &auto_key(p))) else { continue };
            if s.is_empty() {
                s += "| seed | precision | random shapes | `Auto` ÷ cuBLAS, geometric mean | lowest | `Auto` tuned on request ÷ cuBLAS |\n\
                      |---:|---|---:|---:|---|---:|\n";
            }
            let tuned = Ratios::of(&random_ratios(&[c], p, &tuned_key(p)));
            s += &format!(
                "| {} | {} | {} | {:.3} | {:.3} ({}) | {} |\n",
                rs.seed,
                p.label().to_uppercase(),
                auto.count,
                auto.geomean,
                auto.lowest,
                auto.lowest_size,
                tuned.map_or("—".into(), |t| format!("{:.3}", t.geomean))
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Check, RandomShapes};
    use tessera::MatmulShape;

    fn row(shape: (u32, u32, u32), p: Precision, key: &str, ms: f64) -> Row {
        Row::new(MatmulShape { m: shape.0, n: shape.1, k: shape.2 }, p, key, key, ms, Check::Ok, None)
    }

    /// Two fixed sizes and two random ones in FP32, one fixed size in BF16.
    fn card() -> Scorecard {
        let mut c = Scorecard::new();
        let f = Precision::Fp32;
        c.rows = vec![
            row((1024, 1024, 1024), f, "auto-fp32", 2.0),
            row((1024, 1024, 1024), f, "cublas", 1.0),
            row((1024, 1024, 1024), f, "tiled", 8.0),
            row((1024, 1024, 1024), Precision::Bf16, "auto-bf16", 0.5),
            row((1024, 1024, 1024), Precision::Bf16, "cublas-bf16", 0.4),
            row((64, 64, 64), f, "auto-fp32", 1.0),
            row((64, 64, 64), f, "cublas", 1.0),
            // The random shapes: Auto at 2.0 and 0.5 of cuBLAS, tuned at 2.0 and 1.0.
            row((3, 700, 50), f, "auto-fp32", 1.0),
            row((3, 700, 50), f, "auto-fp32-tuned", 1.0),
            row((3, 700, 50), f, "cublas", 2.0),
            row((900, 9, 4000), f, "auto-fp32", 4.0),
            row((900, 9, 4000), f, "auto-fp32-tuned", 2.0),
            row((900, 9, 4000), f, "cublas", 2.0),
        ];
        c.random_shapes = Some(RandomShapes { count: 2, seed: 41301, max_flops: 1e12 });
        c.finish();
        c
    }

    #[test]
    fn random_sizes_are_the_last_count_sizes() {
        let c = card();
        assert_eq!(c.sizes(), ["1024³", "64³", "3×700×50", "900×9×4000"]);
        assert_eq!(c.random_sizes(), ["3×700×50", "900×9×4000"]);
        assert_eq!(c.fixed_sizes(), ["1024³", "64³"]);
        let mut none = card();
        none.random_shapes = None;
        assert!(none.random_sizes().is_empty());
        assert_eq!(none.fixed_sizes().len(), 4);
    }

    #[test]
    fn seeds_in_a_few_words() {
        let with = |seed| {
            let mut c = Scorecard::new();
            c.random_shapes = Some(RandomShapes { count: 1, seed, max_flops: 1.0 });
            c
        };
        let cards: Vec<Scorecard> = (1..=4).map(with).collect();
        let refs: Vec<&Scorecard> = cards.iter().collect();
        assert_eq!(seeds(&refs[..1]), "seed 1");
        assert_eq!(seeds(&refs[..3]), "seeds 1, 2, 3");
        assert_eq!(seeds(&refs), "4 seeds");
    }

    #[test]
    fn ratios_give_the_geometric_mean_and_the_lowest() {
        let r = Ratios::of(&[("a".into(), 2.0), ("b".into(), 0.5), ("c".into(), 1.0)]).unwrap();
        assert_eq!((r.count, r.lowest, r.lowest_size.as_str()), (3, 0.5, "b"));
        assert!((r.geomean - 1.0).abs() < 1e-12);
        assert!(Ratios::of(&[]).is_none());
    }

    #[test]
    fn summary_tables_per_precision_with_the_random_rows() {
        let c = card();
        let md = summary_markdown(&c, &[]);
        // FP32: Auto 0.5 of cuBLAS at 1024³ and 1.0 at 64³ (geomean 0.707); random shapes pooled:
        // Auto 2.0 and 0.5 (geomean 1.0, lowest 0.5 at 900×9×4000), tuned 2.0 and 1.0 (1.414).
        assert!(md.contains("**FP32**"), "{md}");
        let at_1024 =
            format!("| 1024³ | {:.1} | {:.1} | 0.500 |", 2.0 * 1024f64.powi(3) / 2e-3 / 1e12, 2.0 * 1024f64.powi(3) / 1e-3 / 1e12);
        assert!(md.contains(&at_1024), "{at_1024}\n{md}");
        assert!(md.contains("| geometric mean, these 2 shapes | | | **0.707** |"), "{md}");
        assert!(md.contains("| `Auto`, 2 random shapes (seed 41301), geometric mean | | | **1.000** (lowest 0.500, 900×9×4000) |"), "{md}");
        assert!(
            md.contains(
                "| `Auto` tuned on request, 2 random shapes (seed 41301), geometric mean | | | **1.414** (lowest 1.000, 900×9×4000) |"
            ),
            "{md}"
        );
        // The random shapes are not among the fixed ones.
        assert!(!md.contains("| 3×700×50 |"), "{md}");
        // BF16: its own table, 0.8 of cuBLAS, and no random row (the random run has no BF16 rows).
        assert!(md.contains("**BF16**") && md.contains("| geometric mean, these 1 shapes | | | **0.800** |"), "{md}");
        assert_eq!(md.matches("random shapes").count(), 2, "{md}");
        // The ladder line: the run's largest FP32 size with kernel rows is 1024³ (`tiled`).
        let tiled = 2.0 * 1024f64.powi(3) / 8e-3 / 1e12;
        let n = crate::roofline::short_number;
        let line = format!(
            "At 1024³, each rung's fastest tile, TFLOP/s: tiled {}; `Auto` {}; cuBLAS {}.",
            n(tiled),
            n(tiled * 4.0),
            n(tiled * 8.0)
        );
        assert!(md.contains(&line), "{line}\n{md}");
        // BF16 has no kernel rows: no ladder line.
        assert_eq!(md.matches("each rung's fastest tile").count(), 1, "{md}");
    }

    #[test]
    fn random_rows_pool_other_runs() {
        let mut main = card();
        main.random_shapes = None;
        main.rows.retain(|r| r.m == 1024 || r.m == 64);
        let other = card();
        let mut third = card();
        third.random_shapes = Some(RandomShapes { count: 1, seed: 41302, max_flops: 1e12 });
        // third's only random shape is 900×9×4000 (Auto 0.5): three shapes pooled, geomean 0.5^(1/3)·…
        let md = summary_markdown(&main, &[&other, &third]);
        let g = (2.0f64 * 0.5 * 0.5).powf(1.0 / 3.0);
        assert!(md.contains(&format!("`Auto`, 3 random shapes (seeds 41301, 41302), geometric mean | | | **{g:.3}**")), "{md}");
        let lines = random_runs_markdown(&[&main, &other, &third]);
        assert!(lines.contains("| 41301 | FP32 | 2 | 1.000 | 0.500 (900×9×4000) | 1.414 |"), "{lines}");
        assert!(lines.contains("| 41302 | FP32 | 1 | 0.500 | 0.500 (900×9×4000) | 1.000 |"), "{lines}");
    }

    #[test]
    fn size_series_keeps_squares_with_both_rows_in_size_order() {
        let mut c = Scorecard::new();
        let b = Precision::Bf16;
        c.rows = vec![
            row((4096, 4096, 4096), b, "auto-bf16", 0.25),
            row((4096, 4096, 4096), b, "cublas-bf16", 0.2),
            row((1000, 1000, 1000), b, "auto-bf16", 0.01),
            row((1000, 1000, 1000), b, "cublas-bf16", 0.01),
            // Not square, no cuBLAS, or a single size: no point.
            row((4096, 4096, 256), b, "auto-bf16", 0.1),
            row((4096, 4096, 256), b, "cublas-bf16", 0.1),
            row((2048, 2048, 2048), b, "auto-bf16", 0.1),
            row((2048, 2048, 2048), Precision::Fp32, "auto-fp32", 1.0),
            row((2048, 2048, 2048), Precision::Fp32, "cublas", 1.0),
        ];
        c.finish();
        let s = size_series(&c);
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(s[0].precision, b);
        let ns: Vec<u32> = s[0].points.iter().map(|p| p.n).collect();
        assert_eq!(ns, [1000, 4096]);
        let p = &s[0].points[1];
        assert!((p.auto_tflops - 2.0 * 4096f64.powi(3) / 0.25e-3 / 1e12).abs() < 1e-9);
        assert!((p.auto_tflops / p.cublas_tflops - 0.8).abs() < 1e-12);
        let md = sweep_ratio_markdown(&c);
        assert!(md.contains("| n | BF16 |") && md.contains("| 1000 | 1.000 |") && md.contains("| 4096 | 0.800 |"), "{md}");
        assert!(md.contains(&format!("| geometric mean | **{:.3}** |", 0.8f64.sqrt())), "{md}");
        let full = sweep_markdown(&c);
        assert!(full.contains("| 4096 | 549.8 | 687.2 | 0.800 |"), "{full}");
        // A sweep's summary is the ratio table.
        c.size_sweep = true;
        assert_eq!(summary_markdown(&c, &[]), md);
    }
}
