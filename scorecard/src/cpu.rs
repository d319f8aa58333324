//! CPU baselines: a multi-core SGEMM (faer's parallel GEMM on all cores, or `--cpu-threads`), numpy's
//! SGEMM measured by `scripts/cpu-sgemm-numpy.py` in the same run (the anchor: OpenBLAS), and, at small
//! sizes, the naive loop.
use std::time::Instant;

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use tessera::{HostMatrix, MatmulShape, Precision};

use crate::report::{Check, Row, SampledReference};

/// Threads the multi-core baseline uses: `requested`, or every core when 0.
pub fn threads(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
    }
}

/// Random operands for `shape` (the catalogue's generator, as every suite uses).
pub fn operands(shape: MatmulShape, seed: u64) -> (HostMatrix, HostMatrix) {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, seed.wrapping_add(1)))
}

/// `C = A·B` with faer's GEMM on `threads` threads (rayon), reading tessera's row-major data in place.
pub fn sgemm(a: &HostMatrix, b: &HostMatrix, threads: usize) -> HostMatrix {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    let mut c = HostMatrix::from_fn(m, n, |_, _| 0.0);
    let lhs = MatRef::from_row_major_slice(&a.data, m, k);
    let rhs = MatRef::from_row_major_slice(&b.data, k, n);
    let dst = MatMut::from_row_major_slice_mut(&mut c.data, m, n);
    let par = if threads <= 1 { Par::Seq } else { Par::rayon(threads) };
    matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, par);
    c
}

/// The faer baseline's row name.
pub fn faer_name(threads: usize) -> String {
    format!("CPU faer 0.24 ({threads} threads)")
}

/// Times the CPU rows for one shape: the median of `repeat` runs after a warm-up (1 if a run exceeds 2 s).
pub fn measure(
    shape: MatmulShape,
    repeat: usize,
    max_flops: f64,
    threads: usize,
    key: &str,
    reference: &SampledReference,
    (a, b): (&HostMatrix, &HostMatrix),
) -> Vec<Row> {
    let mut rows = Vec::new();
    if shape.flops() > max_flops {
        return rows;
    }
    // One untimed run: rayon's pool and faer's packing buffers start warm, as numpy's are after its warm-up.
    let mut result = Some(sgemm(a, b, threads));
    let mut times = Vec::new();
    for _ in 0..repeat {
        let t = Instant::now();
        result = Some(sgemm(a, b, threads));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if times[0] > 2000.0 {
            break;
        }
    }
    let check = result.map(|c| reference.check(Precision::Fp32, &c)).unwrap_or(Check::Skipped);
    rows.push(Row::new(shape, Precision::Fp32, &faer_name(threads), key, median(&mut times), check, None));
    if key == "cpu" && shape.flops() <= 2.0 * 512.0 * 512.0 * 512.0 {
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

/// The numpy anchor rows from the JSON `scripts/cpu-sgemm-numpy.py` printed: one per N³ size of the
/// run it measured (its median), and a line naming numpy's BLAS and threads.
pub fn numpy_rows(path: &std::path::Path, shapes: &[MatmulShape]) -> Result<(Vec<Row>, String), crate::Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(err) = json.get("error") {
        return Err(format!("{}: the numpy script failed: {err}", path.display()).into());
    }
    let blas = json.get("blas").and_then(|v| v.as_str()).unwrap_or("?");
    let threads = json.get("blas_threads").map(|v| v.to_string()).unwrap_or_else(|| "?".into());
    let anchor = format!("numpy {}, {blas}, BLAS threads {threads}", json.get("numpy").and_then(|v| v.as_str()).unwrap_or("?"));
    let mut rows = Vec::new();
    for entry in json.get("sizes").and_then(|v| v.as_array()).into_iter().flatten() {
        let (Some(n), Some(gflops)) = (entry.get("n").and_then(|v| v.as_u64()), entry.get("median_gflops").and_then(|v| v.as_f64())) else {
            continue;
        };
        let n = n as u32;
        let Some(&shape) = shapes.iter().find(|s| (s.m, s.n, s.k) == (n, n, n)) else { continue };
        let ok = entry.get("check_c00_rel_err").and_then(|v| v.as_f64()).is_some_and(|e| e < 1e-4);
        let ms = shape.flops() / (gflops * 1e9) * 1e3;
        rows.push(Row::new(
            shape,
            Precision::Fp32,
            &format!("CPU numpy SGEMM ({blas})"),
            "cpu-numpy",
            ms,
            if ok { Check::Ok } else { Check::Failed },
            None,
        ));
    }
    Ok((rows, anchor))
}

/// The median of `v` (sorted in place); `v` is never empty here.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}
