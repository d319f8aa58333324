//! Property tests on the CPU executor (they run in CI, no GPU): random shapes keep every matmul
//! kernel in parity with the f64 reference — the same kernel source the PTX is built from.
use proptest::prelude::*;
use tessera_catalogue::reference::{check_matmul, matmul_reference};
use tessera_catalogue::{Algo, HostMatrix};

proptest! {
    // Each case emulates a few hundred OS threads per block: keep the count modest.
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_kernel_matches_the_reference_on_random_shapes(m in 1usize..=140, n in 1usize..=140, k in 1usize..=48, seed in any::<u64>()) {
        let (a, b) = (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, !seed));
        let reference = matmul_reference(&a, &b);
        for algo in Algo::ALL {
            let c = tessera_emulator::ops::matmul(algo, &a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Err(mismatch) = check_matmul(&c, &reference) {
                return Err(TestCaseError::fail(format!("{} on {m}×{n}×{k}: {mismatch}", algo.label())));
            }
        }
    }
}
