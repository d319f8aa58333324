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
pub fn pick(shape: MatmulShape) -> Algo {
    if blocks(Algo::Dbuf128x128x8, shape) >= 2 * SMS {
        Algo::Dbuf128x128x8
    } else if blocks(Algo::Dbuf128x64x16, shape) >= 2 * SMS {
        Algo::Dbuf128x64x16
    } else {
        Algo::Dbuf64x64x16
    }
}
