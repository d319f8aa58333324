//! The `wgmma` rate kernels (`tessera_kernels::wgmma_rate`) on the CPU executor: every thread's
//! output against the exact value `tessera_catalogue::registry::ceiling::wgmma_rate_expected` computes from the
//! operands as a plain matrix product and the PTX ISA's accumulator layout. The operands are a hash of
//! their position and every sum is an exact integer, so a wrong descriptor field, swizzle, K-slice
//! step or accumulator position changes the result.
use tessera_catalogue::registry::ceiling::wgmma_rate_expected;
use tessera_catalogue::Precision;
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::wgmma_rate::{wgmma_rate_bf16, wgmma_rate_e4m3, wgmma_rate_e5m2, wgmma_rate_f16, wgmma_rate_tf32, SHARED_BYTES};

type Kernel = unsafe fn(*mut f32, u32);

const KERNELS: [(&str, Kernel, Precision); 5] = [
    ("wgmma_rate_bf16", wgmma_rate_bf16, Precision::Bf16),
    ("wgmma_rate_f16", wgmma_rate_f16, Precision::Fp16),
    ("wgmma_rate_tf32", wgmma_rate_tf32, Precision::Tf32),
    ("wgmma_rate_e4m3", wgmma_rate_e4m3, Precision::Fp8E4m3),
    ("wgmma_rate_e5m2", wgmma_rate_e5m2, Precision::Fp8E5m2),
];

/// Runs `kernel` on `grid` blocks of `block` threads for `iters` groups; each thread's output.
fn run(name: &'static str, kernel: Kernel, grid: u32, block: u32, iters: u32) -> Vec<f32> {
    let mut out = vec![f32::NAN; (grid * block) as usize];
    let p = SyncPtr::new(out.as_mut_ptr());
    // SAFETY: out holds grid · block floats; 1-D launch of whole warpgroups with SHARED_BYTES shared.
    launch(name, Launch::new((grid, 1, 1), (block, 1, 1), SHARED_BYTES as usize), || unsafe { kernel(p.get(), iters) })
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

fn check(name: &str, precision: Precision, block: u32, iters: u32, out: &[f32]) {
    for (g, &got) in out.iter().enumerate() {
        let want = wgmma_rate_expected(precision, g as u32 % block, iters).unwrap();
        assert_eq!(f64::from(got), want, "{name}, {iters} groups: thread {g} wrote {got}, expected {want}");
    }
}

#[test]
fn wgmma_rate_kernels_write_the_exact_sums() {
    for (name, kernel, precision) in KERNELS {
        // Two blocks of one warpgroup (the host's launch), then one block of two warpgroups.
        for (grid, block, iters) in [(2, 128, 1), (1, 256, 3)] {
            check(name, precision, block, iters, &run(name, kernel, grid, block, iters));
        }
    }
}

#[test]
fn wgmma_rate_kernels_write_zeros_without_iterations() {
    for (name, kernel, _) in KERNELS {
        assert!(run(name, kernel, 1, 128, 0).iter().all(|&x| x == 0.0), "{name}");
    }
}
