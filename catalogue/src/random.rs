//! The random operands every suite uses (tests, emulator tests, scorecard, benches): one generator,
//! so a seed printed by any of them reproduces the same inputs everywhere.
use rand::{rngs::StdRng, Rng, SeedableRng};

/// `len` values uniform in [-1, 1), determined by `seed`. Never exactly zero in practice, so an
/// output a kernel fails to write cannot pass as a zero product.
pub fn operands(len: usize, seed: u64) -> Vec<f32> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..len).map(|_| rng.random_range(-1.0f32..1.0)).collect()
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
}
