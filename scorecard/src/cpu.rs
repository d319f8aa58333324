//! CPU baselines: a multi-core SGEMM (matrixmultiply, all cores) and, at small sizes, the naive loop.
use std::time::Instant;

use tessera::{HostMatrix, MatmulShape, Precision};

use crate::report::{Check, Row, SampledReference};

/// Threads the multi-core baseline uses (matrixmultiply reads `MATMUL_NUM_THREADS`; we set it to all cores).
pub fn threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Random operands for `shape` (the catalogue's generator, as every suite uses).
pub fn operands(shape: MatmulShape, seed: u64) -> (HostMatrix, HostMatrix) {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, seed.wrapping_add(1)))
}

/// `C = A·B` with matrixmultiply's multithreaded SGEMM (row-major strides).
pub fn sgemm(a: &HostMatrix, b: &HostMatrix) -> HostMatrix {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    let mut c = HostMatrix::from_fn(m, n, |_, _| 0.0);
    // SAFETY: the pointers cover m·k, k·n and m·n floats with row-major strides (k,1), (n,1), (n,1),
    // exactly the extents sgemm reads and writes; `c` does not alias `a` or `b`.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.data.as_ptr(),
            k as isize,
            1,
            b.data.as_ptr(),
            n as isize,
            1,
            0.0,
            c.data.as_mut_ptr(),
            n as isize,
            1,
        );
    }
    c
}

/// Times the CPU rows for one shape: the median of `repeat` runs (1 if a run exceeds 2 s).
pub fn measure(
    shape: MatmulShape,
    repeat: usize,
    max_flops: f64,
    reference: &SampledReference,
    (a, b): (&HostMatrix, &HostMatrix),
) -> Vec<Row> {
    if std::env::var_os("MATMUL_NUM_THREADS").is_none() {
        std::env::set_var("MATMUL_NUM_THREADS", threads().to_string());
    }
    let mut rows = Vec::new();
    if shape.flops() > max_flops {
        return rows;
    }
    let mut times = Vec::new();
    let mut result = None;
    for _ in 0..repeat {
        let t = Instant::now();
        result = Some(sgemm(a, b));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if times[0] > 2000.0 {
            break;
        }
    }
    let check = result.map(|c| reference.check(Precision::Fp32, &c)).unwrap_or(Check::Skipped);
    rows.push(Row::new(
        shape,
        Precision::Fp32,
        &format!("CPU matrixmultiply ({} threads)", threads()),
        "cpu",
        median(&mut times),
        check,
        None,
    ));
    if shape.flops() <= 2.0 * 512.0 * 512.0 * 512.0 {
        let t = Instant::now();
        let c = tessera::reference::matmul_cpu_naive(a, b);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        rows.push(Row::new(
            shape,
            Precision::Fp32,
            "CPU naive loop (1 thread)",
            "cpu-naive",
            ms,
            reference.check(Precision::Fp32, &c),
            None,
        ));
    }
    rows
}

/// The median of `v` (sorted in place); `v` is never empty here.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
