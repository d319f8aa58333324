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
