//! FP8 test problems: block scales that show a scale applied to the wrong block, and the f64
//! reference of a block-scaled product (kernel 25's `*_blocks` entries; the layout of
//! `Fp8Scales::Blocks`: `a` `m × ⌈k/128⌉`, `b` `⌈n/128⌉ × ⌈k/128⌉`, row-major).
use crate::precision::Precision;
use crate::testkit::matrix::HostMatrix;
use crate::testkit::reference::{matmul_reference, ReferenceProduct};

/// Elements of K (and columns of `Bᵀ`) one block scale covers.
const BLOCK: usize = 128;

/// Block scales for an `m × n × k` product: powers of two from 1/8 to 8 that differ from block to
/// block (so products stay exact and a scale applied to the wrong block shows).
pub fn block_scales(m: usize, n: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let kb = k.div_ceil(BLOCK);
    let p2 = |i: usize| 2f32.powi((i % 7) as i32 - 3);
    ((0..m * kb).map(|i| p2(i * 3 + 1)).collect(), (0..n.div_ceil(BLOCK) * kb).map(|i| p2(i * 5 + 2)).collect())
}

/// The f64 reference of `a · b` in `precision` (an FP8 format) with block scales `sa`, `sb`: each
/// rounded input times its block's scale, summed.
pub fn block_reference(precision: Precision, a: &HostMatrix, b: &HostMatrix, sa: &[f32], sb: &[f32]) -> ReferenceProduct {
    let kb = a.cols.div_ceil(BLOCK);
    let ascaled = HostMatrix::from_fn(a.rows, a.cols, |r, c| precision.round_input(a.get(r, c)) * sa[r * kb + c / BLOCK]);
    let bscaled = HostMatrix::from_fn(b.rows, b.cols, |r, c| precision.round_input(b.get(r, c)) * sb[(c / BLOCK) * kb + r / BLOCK]);
    matmul_reference(&ascaled, &bscaled)
}
