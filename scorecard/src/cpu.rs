//! CPU baselines: a multi-core SGEMM — OpenBLAS's `cblas_sgemm` from the library numpy ships, loaded
//! at run time (`--cpu-blas`), or else faer's parallel GEMM — on all cores or `--cpu-threads`; numpy's
//! SGEMM measured by `scripts/cpu-sgemm-numpy.py` in the same run (the anchor); and, at small sizes,
//! the naive loop.
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
    let mut c = zeroed(m, n);
    let lhs = MatRef::from_row_major_slice(&a.data, m, k);
    let rhs = MatRef::from_row_major_slice(&b.data, k, n);
    let dst = MatMut::from_row_major_slice_mut(&mut c.data, m, n);
    let par = if threads <= 1 { Par::Seq } else { Par::rayon(threads) };
    matmul(dst, Accum::Replace, lhs, rhs, 1.0f32, par);
    c
}

/// OpenBLAS's `cblas_sgemm`, bound at run time from the shared library numpy's wheels ship
/// (`numpy.libs/libscipy_openblas64_*.so`: 64-bit integers, every symbol `scipy_`-prefixed and
/// `64_`-suffixed). No crate binds that build, and linking OpenBLAS at build time would tie every
/// build to a system library; `libloading` opens it only when the scorecard is asked to.
pub struct OpenBlas {
    sgemm: Sgemm,
    set_threads: unsafe extern "C" fn(i32),
    /// Keeps the library mapped while the function pointers above are used.
    _lib: libloading::Library,
}

/// `cblas_sgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)` with 64-bit
/// integers.
type Sgemm = unsafe extern "C" fn(i32, i32, i32, i64, i64, i64, f32, *const f32, i64, *const f32, i64, f32, *mut f32, i64);

/// CBLAS's enumerators: row-major storage, no transpose.
const CBLAS_ROW_MAJOR: i32 = 101;
const CBLAS_NO_TRANS: i32 = 111;

impl OpenBlas {
    /// Opens the library at `path` and resolves `scipy_cblas_sgemm64_` and
    /// `scipy_openblas_set_num_threads64_`.
    pub fn load(path: &std::path::Path) -> Result<Self, crate::Fail> {
        // SAFETY: loading a shared library runs its initialisers; this is OpenBLAS, whose
        // initialisers only set up its thread pool.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| format!("cannot load {}: {e}", path.display()))?;
        // SAFETY: the symbols have these C signatures in scipy-openblas (cblas.h with 64-bit blasint).
        let (sgemm, set_threads) = unsafe {
            let sgemm = *lib.get::<Sgemm>(b"scipy_cblas_sgemm64_\0").map_err(|e| format!("{}: {e}", path.display()))?;
            let set = *lib
                .get::<unsafe extern "C" fn(i32)>(b"scipy_openblas_set_num_threads64_\0")
                .map_err(|e| format!("{}: {e}", path.display()))?;
            (sgemm, set)
        };
        Ok(Self { sgemm, set_threads, _lib: lib })
    }

    /// `C = A·B` on `threads` threads.
    pub fn sgemm(&self, a: &HostMatrix, b: &HostMatrix, threads: usize) -> HostMatrix {
        let (m, k, n) = (a.rows, a.cols, b.cols);
        let mut c = zeroed(m, n);
        let (mi, ni, ki) = (m as i64, n as i64, k as i64);
        // SAFETY: row-major A (m×k, lda = k), B (k×n, ldb = n), C (m×n, ldc = n) are exactly these
        // slices; OpenBLAS reads A and B and writes C within them.
        unsafe {
            (self.set_threads)(threads as i32);
            (self.sgemm)(
                CBLAS_ROW_MAJOR,
                CBLAS_NO_TRANS,
                CBLAS_NO_TRANS,
                mi,
                ni,
                ki,
                1.0,
                a.data.as_ptr(),
                ki,
                b.data.as_ptr(),
                ni,
                0.0,
                c.data.as_mut_ptr(),
                ni,
            );
        }
        c
    }
}

/// The multi-core SGEMM a row measures.
#[derive(Clone, Copy)]
pub enum Baseline<'a> {
    Faer,
    OpenBlas(&'a OpenBlas),
}

impl Baseline<'_> {
    fn run(self, a: &HostMatrix, b: &HostMatrix, threads: usize) -> HostMatrix {
        match self {
            Baseline::Faer => sgemm(a, b, threads),
            Baseline::OpenBlas(blas) => blas.sgemm(a, b, threads),
        }
    }

    /// The row's name.
    pub fn name(self, threads: usize) -> String {
        match self {
            Baseline::Faer => faer_name(threads),
            Baseline::OpenBlas(_) => format!("CPU OpenBLAS sgemm, numpy's library ({threads} threads)"),
        }
    }
}

/// An `m × n` output: zeroed pages from the allocator (`calloc`), so the pages are first touched by the
/// GEMM's own threads as it writes, as numpy's `a @ b` output is, not by one thread before it.
fn zeroed(m: usize, n: usize) -> HostMatrix {
    HostMatrix { rows: m, cols: n, data: vec![0.0; m * n] }
}

/// The faer baseline's row name.
pub fn faer_name(threads: usize) -> String {
    format!("CPU faer 0.24 ({threads} threads)")
}

/// Times the CPU rows for one shape: the median of `repeat` runs after a warm-up (1 if a run exceeds 2 s).
#[allow(clippy::too_many_arguments)] // the shape, the run's settings, the row's key and its operands
pub fn measure(
    baseline: Baseline,
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
    let mut result = Some(baseline.run(a, b, threads));
    let mut times = Vec::new();
    for _ in 0..repeat {
        let t = Instant::now();
        result = Some(baseline.run(a, b, threads));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if times[0] > 2000.0 {
            break;
        }
    }
    let check = result.map(|c| reference.check(Precision::Fp32, &c)).unwrap_or(Check::Skipped);
    rows.push(Row::new(shape, Precision::Fp32, &baseline.name(threads), key, median(&mut times), check, None));
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
