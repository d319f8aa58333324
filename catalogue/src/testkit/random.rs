//! The random operands every suite uses (tests, emulator tests, scorecard, benches): one generator,
//! so a seed printed by any of them reproduces the same inputs everywhere.
use rand::{rngs::StdRng, Rng, SeedableRng};

/// `len` values uniform in [-1, 1), determined by `seed`. Never exactly zero in practice, so an
/// output a kernel fails to write cannot pass as a zero product.
pub fn operands(len: usize, seed: u64) -> Vec<f32> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..len).map(|_| rng.random_range(-1.0f32..1.0)).collect()
}

/// Element `index` of a stream of operands drawn from `seed`, uniform in (-1, 1) and never zero,
/// computed from the index alone (a SplitMix64 hash): any element of a huge matrix can be generated on
/// any thread, in any order, and recomputed for a sampled check without storing the matrix.
pub fn hashed(seed: u64, index: u64) -> f32 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    // An odd multiple of 2⁻²⁴ in (-1, 1): 24 random bits, exact in f32.
    let odd = ((z >> 40) | 1) as f32; // in [1, 2²⁴), odd
    odd / (1u32 << 23) as f32 - 1.0
}

/// `count` matmul shapes nobody tuned for, determined by `seed`: each of M, N, K log-uniform in
/// 1..=16384, then given a random alignment — odd, or a multiple of 2, 4, 8 or 16 (each a fifth of
/// the time) — and redrawn while `2·M·N·K` exceeds `max_flops`, so a run of them stays short.
pub fn matmul_shapes(count: usize, seed: u64, max_flops: f64) -> Vec<crate::MatmulShape> {
    let mut rng = StdRng::seed_from_u64(seed);
    let dim = |rng: &mut StdRng| -> u32 {
        let v = (rng.random_range(0.0f64..(16384f64).ln()).exp()).round().max(1.0) as u32;
        match [1u32, 2, 4, 8, 16][rng.random_range(0..5)] {
            1 => (v | 1).min(16383),
            a => (v / a).max(1) * a,
        }
    };
    (0..count)
        .map(|_| loop {
            let (m, n, k) = (dim(&mut rng), dim(&mut rng), dim(&mut rng));
            if 2.0 * f64::from(m) * f64::from(n) * f64::from(k) <= max_flops {
                break crate::MatmulShape { m, n, k };
            }
        })
        .collect()
}

/// A seed for one run: `TESSERA_SEED` when set (to replay a failure), otherwise drawn from the clock;
/// `salt` tells apart the streams of one run. Print it with any failure.
pub fn run_seed(salt: u64) -> u64 {
    let base = std::env::var("TESSERA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1));
    base ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_seeded_and_in_range() {
        assert_eq!(operands(100, 7), operands(100, 7));
        assert_ne!(operands(100, 7), operands(100, 8));
        assert!(operands(10_000, 1).iter().all(|x| (-1.0..1.0).contains(x) && *x != 0.0));
    }

    #[test]
    fn random_shapes_are_seeded_capped_and_mixed() {
        let cap = 2.0 * 4096f64.powi(3);
        let shapes = matmul_shapes(400, 5, cap);
        assert_eq!(shapes, matmul_shapes(400, 5, cap));
        assert_ne!(shapes, matmul_shapes(400, 6, cap));
        assert!(shapes.iter().all(|s| s.m >= 1 && s.n >= 1 && s.k >= 1 && s.m <= 16384 && s.n <= 16384 && s.k <= 16384));
        assert!(shapes.iter().all(|s| 2.0 * f64::from(s.m) * f64::from(s.n) * f64::from(s.k) <= cap));
        let dims: Vec<u32> = shapes.iter().flat_map(|s| [s.m, s.n, s.k]).collect();
        let odd = dims.iter().filter(|d| *d % 2 == 1).count();
        let by16 = dims.iter().filter(|d| *d % 16 == 0).count();
        assert!(odd > dims.len() / 8 && by16 > dims.len() / 8, "{odd} odd, {by16} multiples of 16 of {}", dims.len());
        assert!(dims.iter().any(|&d| d < 64) && dims.iter().any(|&d| d > 2048), "log-uniform spread");
    }

    #[test]
    fn hashed_operands_are_deterministic_spread_and_never_zero() {
        assert_eq!(hashed(3, 17), hashed(3, 17));
        assert_ne!(hashed(3, 17), hashed(4, 17));
        let xs: Vec<f32> = (0..100_000).map(|i| hashed(9, i)).collect();
        assert!(xs.iter().all(|x| *x > -1.0 && *x < 1.0 && *x != 0.0));
        let mean = xs.iter().map(|&x| f64::from(x)).sum::<f64>() / xs.len() as f64;
        let below = xs.iter().filter(|&&x| x < 0.0).count();
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((48_000..52_000).contains(&below), "{below} of 100,000 below zero");
    }
}
