//! FP32 `Auto`'s unaligned path: where N or K is not a multiple of 4 the FP32 kernels run their
//! element-wise loads (and the `store_acc` family its scalar stores), 1.1–1.5× slower per K-step
//! (`tuning::Cost::unaligned`). Here the host instead copies `A` and `B` into operands with K and N
//! rounded up to 4, zero-filled (the zeros add nothing to any product), runs the kernel `Auto` picks
//! for that padded shape on them, and crops `C`'s padded rows back to N — each copy one launch of the
//! coalesced `copy_padded_f32`. [`choose_padding`] takes that path only where the model predicts it faster
//! than the best kernel in place, the copies counted ([`copies_us`]).
//!
//! The earlier try (2-D `cuMemcpy2D` copies into zeroed buffers, `docs/results/2026-11-30-fp32-padded-probe`)
//! cost some 30 µs at 1000×1037×519 where ~10 were assumed: five stream operations, pitched copies of
//! odd rows. One zero-filling kernel per operand replaces the zeroing and the copy.
use crate::registry::algo::Algo;
use crate::select::tuning::{least_expected_on, rows_aligned};
use crate::shape::MatmulShape;

/// The rate of `copy_padded_f32`, bytes read plus written per second: the H200's one-thread-per-element
/// `vec_add` (the same walk: scalar, coalesced), 3409 GB/s, README run of 2026-11-30-tf32-registers.
pub const COPY_GB_PER_S: f64 = 3409.0;
/// One copy's fixed cost: the padded path's measured time, less the model's time of its kernel on
/// the padded shape and the copies' bytes, per copy — the median over the 100 shapes with N or K
/// unaligned of the queued runs in `docs/results/2026-12-01-queued-timing` (GPU time, launches back to
/// back; 3.5 µs in the host-paced runs of `docs/results/2026-11-30-fp32-unaligned`, where a call this
/// small is paced by the host's launches).
pub const COPY_LAUNCH_US: f64 = 2.4;

/// The unaligned path for one shape: the padded shape and the kernel that runs on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fp32Padding {
    /// The caller's shape.
    pub shape: MatmulShape,
    /// `shape` with N and K rounded up to multiples of 4.
    pub padded: MatmulShape,
    /// The FP32 kernel that runs on `padded` (`Auto`'s pick for it, or the caller's through
    /// `Gpu::matmul_fp32_padded`; never a TMA or TF32 kernel).
    pub algo: Algo,
}

impl Fp32Padding {
    /// Whether `A` is copied (K padded); otherwise the kernel reads the caller's `A`.
    pub fn pads_a(&self) -> bool {
        self.padded.k != self.shape.k
    }

    /// Whether `B` is copied (K or N padded).
    pub fn pads_b(&self) -> bool {
        self.padded.k != self.shape.k || self.padded.n != self.shape.n
    }

    /// Whether the kernel writes a padded `C'` that is cropped into `C` (N padded); otherwise it
    /// writes the caller's `C`.
    pub fn crops_c(&self) -> bool {
        self.padded.n != self.shape.n
    }

    /// Floats of workspace the copies need: `A'` (`m·k4`), `B'` (`k4·n4`), `C'` (`m·n4`), each only
    /// where it is used, in that order.
    pub fn workspace_floats(&self) -> [usize; 3] {
        let (m, n4, k4) = (self.padded.m as usize, self.padded.n as usize, self.padded.k as usize);
        [if self.pads_a() { m * k4 } else { 0 }, if self.pads_b() { k4 * n4 } else { 0 }, if self.crops_c() { m * n4 } else { 0 }]
    }
}

/// Whether `algo` can run on the padded copies: a concrete FP32 kernel that reads plain `f32`
/// pointers (not a TMA kernel, not one that takes prepared TF32 operands — those use the workspace the
/// copies live in).
pub fn runs_on_padded_copies(algo: Algo) -> bool {
    algo.precision() == Some(crate::precision::Precision::Fp32) && algo.config().is_some_and(|t| !t.tma && !t.tf32_operands)
}

/// `shape` with N and K rounded up to multiples of 4; `None` when it is aligned already or the padded
/// product would not pass [`MatmulShape::check`] (one launch's limits).
pub fn padded_shape(shape: MatmulShape) -> Option<MatmulShape> {
    if rows_aligned(shape, 4) {
        return None;
    }
    let (m, n4, k4) = (shape.m as usize, shape.n.checked_next_multiple_of(4)? as usize, shape.k.checked_next_multiple_of(4)? as usize);
    MatmulShape::check((m, k4), (k4, n4), (m, n4)).ok()
}

/// The model's time of the copies between `shape` and `padded`, in microseconds: per copy
/// [`COPY_LAUNCH_US`] plus its bytes read and written at [`COPY_GB_PER_S`] — `A` (`m·k` read, `m·k4`
/// written) where K is padded, `B` (`k·n`, `k4·n4`) where K or N is, `C'` (`m·n4` read, `m·n` written)
/// where N is.
pub fn copies_us(shape: MatmulShape, padded: MatmulShape) -> f64 {
    let (m, n, k) = (f64::from(shape.m), f64::from(shape.n), f64::from(shape.k));
    let (n4, k4) = (f64::from(padded.n), f64::from(padded.k));
    let copy = |read: f64, written: f64| COPY_LAUNCH_US + 4.0 * (read + written) / (COPY_GB_PER_S * 1e3);
    let mut us = 0.0;
    if padded.k != shape.k {
        us += copy(m * k, m * k4);
    }
    if padded.k != shape.k || padded.n != shape.n {
        us += copy(k * n, k4 * n4);
    }
    if padded.n != shape.n {
        us += copy(m * n4, m * n);
    }
    us
}

/// The unaligned path for `shape` on a GPU of `sms` SMs, where it pays: `Some` when N or K is not a
/// multiple of 4 and the best kernel on the padded shape plus [`copies_us`] is expected faster than the
/// best in place (`tuning::least_expected_on`); `None` otherwise.
pub fn choose_padding(shape: MatmulShape, sms: u32) -> Option<Fp32Padding> {
    let padded = padded_shape(shape)?;
    let ((_, in_place), (algo, on_padded)) = (least_expected_on(shape, sms), least_expected_on(padded, sms));
    (runs_on_padded_copies(algo) && on_padded + copies_us(shape, padded) < in_place).then_some(Fp32Padding { shape, padded, algo })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::tuning::{expected_us, least_expected_on, splits_on, SMS};

    fn s(m: u32, n: u32, k: u32) -> MatmulShape {
        MatmulShape { m, n, k }
    }

    #[test]
    fn padding_rounds_n_and_k_up_to_four_and_only_those() {
        assert_eq!(padded_shape(s(1000, 1037, 519)), Some(s(1000, 1040, 520)));
        assert_eq!(padded_shape(s(3, 8, 5)), Some(s(3, 8, 8)));
        assert_eq!(padded_shape(s(3, 5, 8)), Some(s(3, 8, 8)));
        assert_eq!(padded_shape(s(7, 8, 8)), None, "M needs no padding");
        assert_eq!(padded_shape(s(u32::MAX, 5, 8)), None, "past one launch's limits");
        let p = Fp32Padding { shape: s(10, 8, 5), padded: s(10, 8, 8), algo: Algo::Dbuf64x64x16 };
        assert!(p.pads_a() && p.pads_b() && !p.crops_c());
        assert_eq!(p.workspace_floats(), [80, 64, 0]);
        let p = Fp32Padding { shape: s(10, 5, 8), padded: s(10, 8, 8), algo: Algo::Dbuf64x64x16 };
        assert!(!p.pads_a() && p.pads_b() && p.crops_c());
        assert_eq!(p.workspace_floats(), [0, 64, 80]);
    }

    #[test]
    fn the_copies_cost_launches_and_bytes() {
        // K padded only: A and B copied, C written in place — two launches.
        let only_k = copies_us(s(1000, 1000, 999), s(1000, 1000, 1000));
        assert!(only_k > 2.0 * COPY_LAUNCH_US && only_k < 2.0 * COPY_LAUNCH_US + 10.0, "{only_k}");
        // All three copies; more bytes cost more.
        assert!(copies_us(s(1000, 1037, 519), s(1000, 1040, 520)) > 3.0 * COPY_LAUNCH_US);
        assert!(copies_us(s(4000, 4001, 4001), s(4000, 4004, 4004)) > copies_us(s(1000, 1001, 1001), s(1000, 1004, 1004)));
    }

    #[test]
    fn auto_pads_only_where_the_model_says_it_pays() {
        assert_eq!(choose_padding(s(4096, 4096, 4096), SMS), None, "aligned");
        assert_eq!(choose_padding(s(1, 1, 1), SMS), None, "three launches of copies cost more than a 1×1×1 product");
        // Large unaligned products where the copies are a small share: measured faster padded
        // (docs/results/2026-11-30-fp32-unaligned: 2347 µs against 2720 in place, 1341 against 1457).
        for shape in [s(8908, 3022, 1639), s(10917, 618, 3664)] {
            assert!(choose_padding(shape, SMS).is_some(), "{shape:?} not padded");
        }
        for shape in [s(1000, 1037, 519), s(17, 33, 9), s(3000, 3001, 2999), s(7, 5000, 3), s(8, 3189, 432), s(16, 1166, 528)] {
            if let Some(p) = choose_padding(shape, SMS) {
                let (n4, k4) = (shape.n.next_multiple_of(4), shape.k.next_multiple_of(4));
                assert_eq!(p.padded, s(shape.m, n4, k4));
                assert_eq!(choose_padding(p.padded, SMS), None);
                assert_eq!(p.algo, least_expected_on(p.padded, SMS).0);
                let t = |a: Algo, s| expected_us(a, s, splits_on(a, s, SMS), SMS).unwrap();
                let in_place = t(least_expected_on(shape, SMS).0, shape);
                assert!(t(p.algo, p.padded) + copies_us(shape, p.padded) < in_place, "{shape:?}");
            }
        }
    }
}
