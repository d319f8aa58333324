//! Property tests on the CPU executor (they run in CI, no GPU): random shapes keep every matmul
//! kernel in parity with the f64 reference — the same kernel source the PTX is built from.
use proptest::prelude::*;
use tessera::ops::Algo;
use tessera::reference::{check_matmul, matmul_reference};
use tessera::HostMatrix;

fn matrix(rows: usize, cols: usize, seed: u64) -> HostMatrix {
    let mut s = seed | 1;
    HostMatrix::from_fn(rows, cols, |_, _| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    })
}

proptest! {
    // Each case emulates a few hundred OS threads per block: keep the count modest.
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_kernel_matches_the_reference_on_random_shapes(m in 1usize..=140, n in 1usize..=140, k in 1usize..=48, seed in any::<u64>()) {
        let (a, b) = (matrix(m, k, seed), matrix(k, n, !seed));
        let reference = matmul_reference(&a, &b);
        for algo in Algo::ALL {
            let c = tessera_emulator::ops::matmul(algo, &a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Err(mismatch) = check_matmul(&c, &reference) {
                return Err(TestCaseError::fail(format!("{} on {m}×{n}×{k}: {mismatch}", algo.label())));
            }
        }
    }
}
