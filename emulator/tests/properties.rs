//! Property tests on the CPU executor (they run in CI, no GPU): random shapes keep every matmul
//! kernel in parity with the f64 reference — the same kernel source the PTX is built from.
use proptest::prelude::*;
use tessera_catalogue::registry::algo::{case_label, matmul_cases};
use tessera_catalogue::testkit::check::check_in;
use tessera_catalogue::HostMatrix;

proptest! {
    // Each case runs every kernel of the catalogue (~1 s): keep the count modest.
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_kernel_matches_the_reference_on_random_shapes(m in 1usize..=140, n in 1usize..=140, k in 1usize..=48, seed in any::<u64>()) {
        for (algo, p) in matmul_cases() {
            let (a, b) = (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, !seed));
            let c = tessera_emulator::ops::matmul_in(p, algo, &a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Err(mismatch) = check_in(p, &a, &b, &c) {
                return Err(TestCaseError::fail(format!("{} on {m}×{n}×{k}: {mismatch}", case_label(algo, p))));
            }
        }
    }
}
