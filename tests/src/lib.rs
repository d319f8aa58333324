//! Shared helpers for tessera's test suites: the one GPU, the skip rule, random inputs.
use std::sync::OnceLock;

use libtest_mimic::{Arguments, Failed, Trial};
use rand::{rngs::StdRng, Rng, SeedableRng};
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

/// A seeded generator: `TESSERA_SEED` when set (to reproduce a failure), otherwise fresh each run.
/// The seed is printed so any failure can be replayed.
pub fn rng(salt: u64) -> StdRng {
    let seed = std::env::var("TESSERA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    });
    StdRng::seed_from_u64(seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Uniform values in [-1, 1): never zeros, which would hide unwritten outputs.
pub fn random_matrix(rng: &mut StdRng, rows: usize, cols: usize) -> HostMatrix {
    HostMatrix::from_fn(rows, cols, |_, _| rng.random_range(-1.0f32..1.0))
}

/// A matrix of uniform values in [-1, 1) determined by `seed` (for property tests, whose runner
/// supplies and reports the seed).
pub fn seeded_matrix(rows: usize, cols: usize, seed: u64) -> HostMatrix {
    random_matrix(&mut StdRng::seed_from_u64(seed), rows, cols)
}

/// Uniform values in [-1, 1).
pub fn random_vec(rng: &mut StdRng, len: usize) -> Vec<f32> {
    (0..len).map(|_| rng.random_range(-1.0f32..1.0)).collect()
}

/// A `rows × cols` device matrix filled with NaN, so any element a kernel fails to write is caught.
pub fn poisoned_matrix(gpu: &Gpu, rows: usize, cols: usize) -> Result<DeviceMatrix, String> {
    let nan = HostMatrix::new(rows, cols, vec![f32::NAN; rows * cols]).map_err(|e| e.to_string())?;
    DeviceMatrix::from_host(gpu, &nan).map_err(|e| e.to_string())
}

/// Matmul problem sizes as (M, N, K).
///
/// Besides the edge cases: (130, 132, 36) and (260, 1028, 516) have N and K multiples of 4, so the
/// float4 fast path of kernels 5–8 and 10 runs on interior blocks next to guarded edge blocks and a partial
/// last K-step; (130, 72, 300) splits K in 2 uneven slices for split-K (kernel 10), still small enough
/// for the sanitizer runs; (512, 512, 512) is the smallest shape of the scorecard suite. The larger
/// suite shapes are checked by the scorecard itself (sampled rows against the f64 reference).
pub const PARITY_SHAPES: [(usize, usize, usize); 9] = [
    (1, 1, 1),
    (17, 33, 9),
    (130, 132, 36),
    (130, 72, 300),
    (260, 1028, 516),
    (512, 512, 512),
    (1000, 1037, 519),
    (1024, 1024, 1024),
    (4096, 64, 4096),
];
