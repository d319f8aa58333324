//! `Algo::Auto`: which kernel configuration to run for a shape.
//!
//! The rule is derived from a measured table (`docs/tuning.md`, reproduced by the scorecard command
//! written there). The decisive quantity is how many blocks a tile gives relative to the GPU's 132
//! SMs: a 128×128 tile is the most efficient per block (8×8 outputs per thread, lowest traffic), but
//! shapes with a small output leave SMs idle with it, and smaller tiles fill them.
use crate::ops::{Algo, MatmulShape};

/// SMs of the H200 the table was measured on (the rule only uses it as a scale).
pub const SMS: u32 = 132;

/// Blocks `algo`'s tile launches for `shape`.
pub fn blocks(algo: Algo, shape: MatmulShape) -> u32 {
    let t = algo.tile().expect("a block-tiled algo");
    shape.m.div_ceil(t.bm) * shape.n.div_ceil(t.bn)
}

/// The kernel `Algo::Auto` runs for `shape`.
///
/// Measured (docs/tuning.md, H200, 2026-11-30): the 128×128×16 double-buffered tile is fastest
/// wherever it launches at least one block per SM (4096³, 2048³, 8192³, 4096×4096×256: 256–4096
/// blocks); below that (512³, 1024³, 256×4096×4096, 1000×1037×519, 8192×128×8192: 16–72 blocks of
/// 128×128) the 64×64×16 tile wins by 1.3–2.5×. 128×64×16 and 128×128×8 were never the fastest.
pub fn pick(shape: MatmulShape) -> Algo {
    if blocks(Algo::Dbuf128x128x16, shape) >= SMS {
        Algo::Dbuf128x128x16
    } else {
        Algo::Dbuf64x64x16
    }
}

/// Split-K's blocks per output tile of `bm × bn` for `shape`: as many as keep the grid within one
/// wave of [`SMS`] blocks, and at least 64 of K (4 K-steps of 16) per slice; 1 when the tiles
/// already fill the GPU.
pub fn splits(shape: MatmulShape, bm: u32, bn: u32) -> u32 {
    let tiles = shape.m.div_ceil(bm) * shape.n.div_ceil(bn);
    (SMS / tiles.max(1)).min(shape.k / 64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_matches_the_measured_table() {
        let s = |m, n, k| MatmulShape { m, n, k };
        for (shape, best) in [
            (s(4096, 4096, 4096), Algo::Dbuf128x128x16),
            (s(2048, 2048, 2048), Algo::Dbuf128x128x16),
            (s(8192, 8192, 8192), Algo::Dbuf128x128x16),
            (s(4096, 4096, 256), Algo::Dbuf128x128x16),
            (s(512, 512, 512), Algo::Dbuf64x64x16),
            (s(1024, 1024, 1024), Algo::Dbuf64x64x16),
            (s(256, 4096, 4096), Algo::Dbuf64x64x16),
            (s(1000, 1037, 519), Algo::Dbuf64x64x16),
            (s(8192, 128, 8192), Algo::Dbuf64x64x16),
        ] {
            assert_eq!(pick(shape), best, "{shape:?}");
            assert_eq!(Algo::Auto.resolve(shape), best);
        }
    }
}
