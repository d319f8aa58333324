//! Property tests on the GPU: random shapes (1..=300 in each dimension, plus a few large ones) keep
//! every matmul kernel in parity with the f64 CPU reference; random lengths keep vec_add exact.
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tessera::catalogue::registry::algo::{case_label, matmul_cases};
use tessera::catalogue::testkit::check::check_in;
use tessera::catalogue::testkit::random::operands;
use tessera::HostMatrix;
use tessera::{Algo, Gpu, Precision};
use tessera_tests::{gpu_trial, run};

fn product_matches(gpu: &Gpu, algo: Algo, p: Precision, (m, n, k): (usize, usize, usize), seed: u64) -> Result<(), TestCaseError> {
    let (a, b) = (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, seed.rotate_left(17)));
    let c = gpu.matmul_host_in(p, algo, &a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?;
    check_in(p, &a, &b, &c).map_err(|e| TestCaseError::fail(format!("{}×{}×{}: {e}", m, n, k)))
}

fn main() {
    let mut trials = Vec::new();
    for (algo, p) in matmul_cases() {
        let label = case_label(algo, p);
        trials.push(gpu_trial(format!("prop_matmul_{label}_random_shapes"), move |gpu| {
            let mut runner = TestRunner::new(Config { cases: 48, failure_persistence: None, ..Config::default() });
            runner
                .run(&((1usize..=300, 1usize..=300, 1usize..=300), any::<u64>()), |(shape, seed)| {
                    product_matches(gpu, algo, p, shape, seed)
                })
                .map_err(|e| e.to_string())
        }));
        trials.push(gpu_trial(format!("prop_matmul_{label}_large_shapes"), move |gpu| {
            for (i, shape) in [(1023, 1025, 1027), (2049, 33, 1500), (3, 4099, 777)].into_iter().enumerate() {
                product_matches(gpu, algo, p, shape, 0xC0FFEE + i as u64).map_err(|e| e.to_string())?;
            }
            Ok(())
        }));
    }
    trials.push(gpu_trial("prop_vec_add_random_lengths", |gpu| {
        let mut runner = TestRunner::new(Config { cases: 64, failure_persistence: None, ..Config::default() });
        runner
            .run(&(0usize..200_000, any::<u64>()), |(len, seed)| {
                let (a, b) = (operands(len, seed), operands(len, !seed));
                let c = gpu.vec_add_host(&a, &b).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let exact = c.len() == len && c.iter().zip(a.iter().zip(&b)).all(|(c, (a, b))| c.to_bits() == (a + b).to_bits());
                prop_assert!(exact, "vec_add of length {} differs from the CPU sum", len);
                Ok(())
            })
            .map_err(|e| e.to_string())
    }));
    run(trials)
}
