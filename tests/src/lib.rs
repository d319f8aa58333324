//! Shared helpers for tessera's test suites: the one GPU, the skip rule, random inputs.
use std::sync::OnceLock;

use libtest_mimic::{Arguments, Failed, Trial};
use tessera::{DeviceMatrix, Gpu, HostMatrix};

/// The test process's GPU, opened once; `Err` holds why there is none.
pub fn gpu() -> Result<&'static Gpu, &'static str> {
    static GPU: OnceLock<Result<Gpu, String>> = OnceLock::new();
    GPU.get_or_init(|| Gpu::new(0).map_err(|e| e.to_string())).as_ref().map_err(|e| e.as_str())
}

/// A test that needs a GPU: given the GPU, it returns `Err(message)` on failure.
pub fn gpu_trial(name: impl Into<String>, body: impl FnOnce(&Gpu) -> Result<(), String> + Send + 'static) -> Trial {
    let available = gpu().is_ok();
    Trial::test(name, move || match gpu() {
        Ok(g) => body(g).map_err(Failed::from),
        Err(why) => Err(Failed::from(format!("no GPU: {why}"))),
    })
    .with_ignored_flag(!available)
}

/// Runs the trials. GPU trials on a machine without a GPU are marked ignored, with one line that says so.
pub fn run(trials: Vec<Trial>) -> ! {
    let skipped = trials.iter().filter(|t| t.has_ignored_flag()).count();
    if let Err(why) = gpu() {
        if skipped > 0 {
            println!("skipped: no CUDA device ({why}) — {skipped} GPU test(s) not run, reported as ignored");
        }
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

/// The seed of one test's operands: `TESSERA_SEED` when set (to replay a failure), otherwise fresh
/// each run; print it with any failure. The operands themselves come from the catalogue's one
/// generator (`HostMatrix::random`, `random::operands`), as in every suite.
pub use tessera::catalogue::testkit::random::run_seed as seed;

/// A `rows × cols` device matrix filled with NaN, so any element a kernel fails to write is caught.
pub fn poisoned_matrix(gpu: &Gpu, rows: usize, cols: usize) -> Result<DeviceMatrix, String> {
    let nan = HostMatrix::new(rows, cols, vec![f32::NAN; rows * cols]).map_err(|e| e.to_string())?;
    DeviceMatrix::<f32>::from_host(gpu, &nan).map_err(|e| e.to_string())
}

/// Matmul problem sizes as (M, N, K).
///
/// Besides the edge cases: (130, 132, 36) and (260, 1028, 516) have N and K multiples of 4, so the
/// float4 fast path of kernels 5–8 and 10 runs on interior blocks next to guarded edge blocks and a partial
/// last K-step; (130, 72, 300) splits K in 2 uneven slices for split-K (kernel 10), still small enough
/// for the sanitizer runs; (66, 74, 302): 16-bit rows 4-byte but not 8-byte aligned (N and K ≡ 2 mod 4),
/// the 4-byte `cp.async` pieces of kernels 12, 13 and 20; (512, 512, 512) is the smallest shape of the
/// scorecard suite. The larger
/// suite shapes are checked by the scorecard itself (sampled rows against the f64 reference).
pub const PARITY_SHAPES: [(usize, usize, usize); 10] = [
    (1, 1, 1),
    (17, 33, 9),
    (130, 132, 36),
    (130, 72, 300),
    (66, 74, 302),
    (260, 1028, 516),
    (512, 512, 512),
    (1000, 1037, 519),
    (1024, 1024, 1024),
    (4096, 64, 4096),
];

/// Extra shapes for the TMA kernels (kernels 15–16; they run the parity shapes too, most of whose
/// rows the TMA reads from padded copies): 16-byte rows throughout — a single row, partial tiles with
/// a short K-step, more K-steps than stages, K split in slices (kernel 16 on 130 × 264 × 2048: 4
/// tiles, 2–4 slices each), edges in every dimension at size, a large square — and padded ones: both
/// operands (3 × 9 × 13, 65 × 263 × 37), and K split in slices with A padded (130 × 264 × 2047; `Bᵀ`
/// too in TF32). The epilogue stores (or with split K adds) rows 16, 8 or 4 bytes at a time by N's
/// alignment: N = 262 and 263 once stored and once added in slices.
pub const TMA_PARITY_SHAPES: [(usize, usize, usize); 12] = [
    (1, 8, 8),
    (65, 264, 40),
    (64, 256, 584),
    (130, 264, 2048),
    (1000, 1032, 520),
    (2048, 2048, 2048),
    (3, 9, 13),
    (65, 263, 37),
    (130, 264, 2047),
    (66, 262, 40),
    (130, 262, 2048),
    (130, 263, 2048),
];
