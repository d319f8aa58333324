//! What the scorecard's single-purpose binaries (`fused`, `grouped`, `slices`) share, included by each
//! (`#[path = "../bin_common.rs"] mod bin_common;`): the GPU or a loud skip, a shape argument, seeded
//! BF16 operands, and the median of timed batches.
use tessera::{bf16, DeviceMatrix, Gpu, GpuTimer};

/// Any error a binary reports.
pub type Fail = Box<dyn std::error::Error + Send + Sync>;

/// GPU 0, or `None` after printing "skipped: no CUDA device" (a machine without one).
pub fn gpu_or_skip() -> Option<Gpu> {
    match Gpu::new(0) {
        Ok(g) => Some(g),
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            None
        }
    }
}

/// A shape argument `MxNxK`.
#[allow(dead_code)] // `grouped` takes four dimensions
pub fn parse_shape(s: &str) -> Result<(usize, usize, usize), Fail> {
    let v: Vec<usize> = s.split('x').map(str::parse).collect::<Result<_, _>>()?;
    match v[..] {
        [m, n, k] => Ok((m, n, k)),
        _ => Err(format!("shape `{s}`: expected MxNxK").into()),
    }
}

/// Seeded random operands A (`m × k`) and B (`k × n`) whose values BF16 holds exactly: as `f32` (for
/// the f64 reference) and as BF16 matrices on the GPU.
#[allow(clippy::type_complexity, dead_code)] // `grouped` makes its own stacks
pub fn bf16_operands(
    gpu: &Gpu,
    m: usize,
    n: usize,
    k: usize,
) -> Result<(Vec<f32>, Vec<f32>, DeviceMatrix<bf16>, DeviceMatrix<bf16>), Fail> {
    let round = |v: Vec<f32>| -> Vec<f32> { v.into_iter().map(|x| bf16::from_f32(x).to_f32()).collect() };
    let (ah, bh) =
        (round(tessera::catalogue::testkit::random::operands(m * k, 1)), round(tessera::catalogue::testkit::random::operands(k * n, 2)));
    let to16 = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<bf16>>();
    let (a, b) = (DeviceMatrix::from_slice(gpu, m, k, &to16(&ah))?, DeviceMatrix::from_slice(gpu, k, n, &to16(&bh))?);
    Ok((ah, bh, a, b))
}

/// The median time (ms) of `repeat` batches of `run`, each about 20 ms of work after two untimed
/// runs (CUDA events around the batch, no synchronize inside).
pub fn median_ms(gpu: &Gpu, timer: &GpuTimer, repeat: usize, run: &dyn Fn() -> Result<(), Fail>) -> Result<f64, Fail> {
    let once = timer.time_ms(gpu, 1, 1, run)?;
    let iters = ((20.0 / once.max(1e-3)) as usize).clamp(3, 2000);
    let mut times: Vec<f64> = (0..repeat.max(1)).map(|_| timer.time_ms(gpu, 2, iters, run)).collect::<Result<_, _>>()?;
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}

/// The worst error ÷ tolerance over the sampled `rows` of `got` (`m × n`), `check(column, sum, sum of
/// |terms|, got)` giving each element's `(error, tolerance)`, `sum` the f64 product of its row of `a`
/// (`m × k`) and column of `b` (`k × n`, both row-major); a NaN error counts as infinite.
#[allow(dead_code)] // `grouped` checks each product at its own offsets
pub fn worst_sampled(
    got: &[f32],
    (a, b): (&[f32], &[f32]),
    (n, k): (usize, usize),
    rows: &[usize],
    check: impl Fn(usize, f64, f64, f64) -> (f64, f64),
) -> f64 {
    let mut worst = 0.0f64;
    for &r in rows {
        for c in 0..n {
            let (mut v, mut abs) = (0.0f64, 0.0f64);
            for i in 0..k {
                let t = f64::from(a[r * k + i]) * f64::from(b[i * n + c]);
                v += t;
                abs += t.abs();
            }
            let (err, tol) = check(c, v, abs, f64::from(got[r * n + c]));
            worst = worst.max(if err.is_nan() { f64::INFINITY } else { err / tol });
        }
    }
    worst
}
