//! The precisions of the GEMM baselines, how each rounds its inputs, and the tolerance rule for
//! comparing a result with the f64 reference of the **rounded** inputs.
//!
//! An anchor-side stand-in for the `Precision` enum that is coming in the main crate; the rule
//! ([`Precision::tolerance`]) is written down once, here, so the tensor-core kernels can use the
//! same one when the enum moves.
//!
//! # The tolerance rule
//! The reference is `Σₖ a'ᵢₖ·b'ₖⱼ` in f64 over the inputs already rounded to the format the multiplier
//! reads (`a' = round(a)`: [`Precision::round_input`]), so the input rounding itself is *not* an
//! error the check has to allow for. What is left between a device result and that reference:
//!
//! 1. **Products.** Two TF32/FP16 significands (11 bits) or BF16 ones (8 bits) multiply into at most
//!    22 bits: exact in f32. (FP32 products are rounded: that is inside the FP32 rule already.)
//! 2. **Accumulation** in f32 (`CUBLAS_COMPUTE_32F*`): K rounded additions, bounded as in
//!    [`crate::testkit::reference`](mod@crate::testkit::reference) (checked there, [`crate::testkit::check`]) by `C_TOL · √K · ε₃₂ · Σ|a'·b'|`.
//! 3. **TF32 only: the device's own rounding of its f32 inputs.** `CUBLAS_COMPUTE_32F_FAST_TF32`
//!    *allows* tensor cores; cuBLAS may round to nearest, truncate (the tensor core ignores the low 13
//!    bits of an f32 operand), or pick an FP32 kernel that does not round at all. Against the
//!    reference's round-to-nearest each input then differs by at most `2·u_tf32·|x|` (truncation: one
//!    TF32 ulp ≤ 2⁻¹⁰·|x|; no rounding: ≤ u_tf32·|x|), each product by at most `(4u + 4u²)·|a'·b'|`, the
//!    sum by at most that times `Σ|a'·b'|` — a worst case with no √K in it. The rule allows
//!    `C_TOL · 2·u_tf32 · Σ|a'·b'|` = `8·u_tf32 · Σ|a'·b'|`: twice the worst case.
//!
//! 4. **FP8 only: the tensor core's FP8 accumulator.** FP8 products (at most 8 significant bits) are
//!    exact, but Hopper sums them in an accumulator of about 14 bits; kernel 25 promotes every 128
//!    products into f32, so each window's sum is off by at most about `2⁻¹³` of its absolute sum:
//!    `ρ = FP8_WINDOW_ROUNDOFF` bounds the whole product's share.
//!
//! So `tol = C_TOL · (√K · ε₃₂ + ρ) · Σ|a'·b'| + f32::MIN_POSITIVE` with `ρ = 2·u_tf32` for TF32,
//! `ρ = 2⁻¹³` for FP8 and `ρ = 0` for FP32, BF16 and FP16 (the device reads exactly the reference's
//! inputs). For FP32 this is exactly tessera's FP32 rule.
//!
//! Why not `c · √K · u_in · Σ|a·b|` with the input format's unit roundoff: that shape bounds the error
//! against the reference of the *unrounded* inputs. Against the rounded ones it only adds slack, and a
//! lot: at K = 4096 it is `4 · 64 · 2⁻⁸ = 1.0 · Σ|a·b|` for BF16 and `0.125 · Σ|a·b|` for FP16/TF32,
//! so a missing or doubled term (≈ Σ|a·b| / K) would pass unseen. The rule above catches one at
//! K = 4096 for BF16 and FP16 (as tessera's FP32 rule does for FP32); for TF32 the device-rounding term
//! `8·u_tf32 = 1/256` dominates and it catches one (on average) only for K below about 256.
/// The safety factor on the √K·ε bound of every precision's tolerance rule.
pub const C_TOL: f64 = 4.0;

/// The relative rounding of one promotion window of an FP8 product (kernel 25: 128 products of K
/// summed in the tensor core before they are added into `f32`): Hopper's FP8 accumulator keeps about
/// 14 significant bits (DeepSeek-V3's report, §3.3.2), so each window's sum may be off by `2⁻¹³` of
/// its absolute sum, and the windows' errors add to at most `2⁻¹³ · Σ|a'·b'|`. FP8's `ρ` in the rule
/// of the module documentation; the unpromoted kernels have no such bound (their whole K range sums
/// in that accumulator).
pub const FP8_WINDOW_ROUNDOFF: f64 = 1.0 / 8192.0;
use float8::{F8E4M3, F8E5M2};
use half::{bf16, f16};

/// The number formats a GEMM baseline multiplies in. Output and accumulation are f32 in all four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    /// f32 inputs, FP32 math (SGEMM; no tensor cores).
    Fp32,
    /// f32 inputs that the tensor cores read as TF32 (8-bit exponent, 10-bit mantissa).
    Tf32,
    /// `bf16` inputs (8-bit exponent, 7-bit mantissa).
    Bf16,
    /// `f16` inputs (5-bit exponent, 10-bit mantissa).
    Fp16,
    /// FP8 E4M3 inputs (4-bit exponent, 3-bit mantissa, no infinities, ±448).
    Fp8E4m3,
    /// FP8 E5M2 inputs (5-bit exponent, 2-bit mantissa, ±57344).
    Fp8E5m2,
}

/// The element type a product writes `C` in: `f32` (every kernel), or BF16 or FP16 rounded from the
/// `f32` sums in the kernel's epilogue (the kernels that finish their sums:
/// [`OutputFormat::written_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    #[default]
    F32,
    Bf16,
    F16,
}

impl OutputFormat {
    /// The unit roundoff of the output's own rounding: 0 for `f32` (inside the accumulation's rule),
    /// 2⁻⁸ for BF16 and 2⁻¹¹ for FP16 (round to nearest: half an ulp of the value).
    pub fn unit_roundoff(self) -> f64 {
        match self {
            Self::F32 => 0.0,
            Self::Bf16 => 2f64.powi(-8),
            Self::F16 => 2f64.powi(-11),
        }
    }

    /// Whether a kernel of `config` writes this format: `f32` every kernel; BF16 the kernels that
    /// finish their sums ([`fuses_epilogue`]); FP16 those of them on 16-bit or `f32` inputs (kernel
    /// 27: kernel 25 writes `f32` or BF16).
    pub fn written_by(self, config: &crate::TileConfig) -> bool {
        match self {
            Self::F32 => true,
            Self::Bf16 => fuses_epilogue(config),
            Self::F16 => fuses_epilogue(config) && !config.fp8_operands,
        }
    }

    /// Bytes of one element.
    pub fn bytes(self) -> usize {
        tessera_kernels::matmul::k27_fused::out::bytes(self.code())
    }

    /// The code kernel 27 takes for it (`k27_fused::out`).
    pub fn code(self) -> u32 {
        match self {
            Self::F32 => tessera_kernels::matmul::k27_fused::out::F32,
            Self::Bf16 => tessera_kernels::matmul::k27_fused::out::BF16,
            Self::F16 => tessera_kernels::matmul::k27_fused::out::F16,
        }
    }
}

/// Whether a kernel of `config` finishes each sum in its own store (a fused bias and activation,
/// `tessera_kernels::activation`; a 16-bit `C`): kernel 27's entries and kernel 25's promoted ones
/// (`TileConfig::fused_epilogue`).
pub fn fuses_epilogue(config: &crate::TileConfig) -> bool {
    config.fused_epilogue
}

/// An element type of GEMM inputs: `f32` (FP32, or TF32 when the caller asks for it), `bf16`, `f16`.
pub trait Element: Copy + Default + Send + Sync + 'static {
    /// The precision a product of this type runs in unless the caller asks for another
    /// (only `f32` has another: TF32).
    const PRECISION: Precision;
    /// `x` rounded to this type (round to nearest even; exact for `f32`).
    fn from_f32(x: f32) -> Self;
    /// The value, widened exactly.
    fn to_f32(self) -> f32;
    /// `data` rounded to this type: borrowed as it is for `f32` (no copy of a large upload),
    /// converted element by element otherwise.
    fn from_f32_slice(data: &[f32]) -> std::borrow::Cow<'_, [Self]> {
        std::borrow::Cow::Owned(data.iter().map(|&x| Self::from_f32(x)).collect())
    }
}

impl Element for f32 {
    const PRECISION: Precision = Precision::Fp32;
    fn from_f32(x: f32) -> Self {
        x
    }
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32_slice(data: &[f32]) -> std::borrow::Cow<'_, [Self]> {
        std::borrow::Cow::Borrowed(data)
    }
}

impl Element for bf16 {
    const PRECISION: Precision = Precision::Bf16;
    fn from_f32(x: f32) -> Self {
        bf16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
}

impl Element for f16 {
    const PRECISION: Precision = Precision::Fp16;
    fn from_f32(x: f32) -> Self {
        f16::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
}

impl Element for F8E4M3 {
    const PRECISION: Precision = Precision::Fp8E4m3;
    /// Round to nearest even, saturating to ±448 (E4M3 has no infinities; NaN stays NaN).
    fn from_f32(x: f32) -> Self {
        F8E4M3::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        F8E4M3::to_f32(&self)
    }
}

impl Element for F8E5M2 {
    const PRECISION: Precision = Precision::Fp8E5m2;
    /// Round to nearest even, saturating to ±57344 (NaN stays NaN).
    fn from_f32(x: f32) -> Self {
        F8E5M2::from_f32(x)
    }
    fn to_f32(self) -> f32 {
        F8E5M2::to_f32(&self)
    }
}

impl Precision {
    /// Whether this is one of the FP8 formats (E4M3, E5M2): multiplied by kernel 25 on sm_90a only
    /// (elsewhere [`crate::PlanError::NoKernel`]), never part of [`Precision::ALL`]'s suites.
    pub fn is_fp8(self) -> bool {
        matches!(self, Self::Fp8E4m3 | Self::Fp8E5m2)
    }

    /// Whether inputs of this precision are stored as `f32` (FP32, TF32) rather than 16-bit values.
    pub fn takes_f32(self) -> bool {
        matches!(self, Self::Fp32 | Self::Tf32)
    }

    /// Whether inputs of this precision's type can be multiplied in `requested`: their own precision,
    /// or TF32 on `f32` inputs (the caller's explicit choice of the lower precision).
    pub fn accepts(self, requested: Precision) -> bool {
        self == requested || (self == Self::Fp32 && requested == Self::Tf32)
    }

    /// Bytes of one input element: 4 (`f32`), 2 (BF16, FP16) or 1 (FP8).
    pub fn input_bytes(self) -> u32 {
        match self {
            Self::Fp32 | Self::Tf32 => 4,
            Self::Bf16 | Self::Fp16 => 2,
            Self::Fp8E4m3 | Self::Fp8E5m2 => 1,
        }
    }

    /// The precisions of the general suites (every layout, `gemm`, odd K), widest first; the FP8 formats
    /// have their own (K a multiple of 16, dense operands: `registry::algo::fp8_cases`).
    pub const ALL: [Precision; 4] = [Self::Fp32, Self::Tf32, Self::Bf16, Self::Fp16];

    /// A short lowercase name ("fp32", "tf32", "bf16", "fp16", "fp8e4m3", "fp8e5m2").
    pub fn label(self) -> &'static str {
        match self {
            Self::Fp32 => "fp32",
            Self::Tf32 => "tf32",
            Self::Bf16 => "bf16",
            Self::Fp16 => "fp16",
            Self::Fp8E4m3 => "fp8e4m3",
            Self::Fp8E5m2 => "fp8e5m2",
        }
    }

    /// The unit roundoff `u = 2^-p` of the format the multiplier reads (p = significand bits with
    /// the implicit one): f32 2⁻²⁴, TF32 2⁻¹¹, BF16 2⁻⁸, FP16 2⁻¹¹, E4M3 2⁻⁴, E5M2 2⁻³.
    pub fn input_unit_roundoff(self) -> f64 {
        match self {
            Self::Fp32 => 2f64.powi(-24),
            Self::Tf32 | Self::Fp16 => 2f64.powi(-11),
            Self::Bf16 => 2f64.powi(-8),
            Self::Fp8E4m3 => 2f64.powi(-4),
            Self::Fp8E5m2 => 2f64.powi(-3),
        }
    }

    /// `x` rounded (to nearest, ties to even) to the input format, as an f32 (every value of the
    /// six formats is one exactly); the FP8 formats saturate to their largest finite value, as the
    /// GPU's `cvt.rn.satfinite` does. The reference is computed from these values.
    pub fn round_input(self, x: f32) -> f32 {
        match self {
            Self::Fp32 => x,
            Self::Tf32 => round_to_tf32(x),
            Self::Bf16 => bf16::from_f32(x).to_f32(),
            Self::Fp16 => f16::from_f32(x).to_f32(),
            Self::Fp8E4m3 => F8E4M3::from_f32(x).to_f32(),
            Self::Fp8E5m2 => F8E5M2::from_f32(x).to_f32(),
        }
    }

    /// The tolerance for one output element whose `k` products of rounded inputs sum to `abs_sum` in
    /// absolute value (see the module documentation for the derivation).
    pub fn tolerance(self, k: usize, abs_sum: f64) -> f64 {
        let accumulation = (k.max(1) as f64).sqrt() * f64::from(f32::EPSILON);
        let device_rounding = match self {
            Self::Tf32 => 2.0 * self.input_unit_roundoff(),
            // FP8: each promotion window's sum in the tensor core's accumulator, then f32.
            Self::Fp8E4m3 | Self::Fp8E5m2 => FP8_WINDOW_ROUNDOFF,
            Self::Fp32 | Self::Bf16 | Self::Fp16 => 0.0,
        };
        C_TOL * (accumulation + device_rounding) * abs_sum + f64::from(f32::MIN_POSITIVE)
    }
}

/// `x` rounded to TF32 (10 mantissa bits), to nearest with ties to even, kept in an f32. NaN and the
/// infinities pass through; values within half a TF32 ulp of `f32::MAX` round to infinity.
pub fn round_to_tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    let bits = x.to_bits();
    let lsb = (bits >> 13) & 1;
    // A carry out of the mantissa correctly bumps the exponent (and reaches infinity past f32::MAX).
    f32::from_bits(bits.wrapping_add(0x0FFF + lsb) & !0x1FFF)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::check::*;
    use crate::testkit::reference::matmul_reference;
    use crate::testkit::reference::ReferenceProduct;
    use crate::HostMatrix;

    fn pseudo_random(len: usize, seed: u32) -> Vec<f32> {
        crate::testkit::random::operands(len, seed as u64)
    }

    /// The rounded inputs as matrices, and their f64 reference.
    fn rounded(p: Precision, (m, n, k): (usize, usize, usize), seed: u32) -> (HostMatrix, HostMatrix, ReferenceProduct) {
        let a: Vec<f32> = pseudo_random(m * k, seed).into_iter().map(|x| p.round_input(x)).collect();
        let b: Vec<f32> = pseudo_random(k * n, seed + 1).into_iter().map(|x| p.round_input(x)).collect();
        let (a, b) = (HostMatrix::new(m, k, a).unwrap(), HostMatrix::new(k, n, b).unwrap());
        let r = matmul_reference(&a, &b);
        (a, b, r)
    }

    /// A pessimistic model of a tensor-core GEMM: exact products, summed in blocks of `block` terms
    /// whose sum is truncated (rounded toward zero) to f32 before it joins an f32 accumulator that is
    /// itself truncated after every block. `input` maps each stored f32 to what the multiplier reads.
    fn truncating_gemm(a: &HostMatrix, b: &HostMatrix, block: usize, input: impl Fn(f32) -> f32) -> Vec<f32> {
        fn rz(x: f64) -> f32 {
            let r = x as f32; // round to nearest; step back toward zero if it went past
            if (r as f64).abs() > x.abs() {
                f32::from_bits(r.to_bits() - 1)
            } else {
                r
            }
        }
        let (m, n, k) = (a.rows, b.cols, a.cols);
        let mut c = vec![0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0f32;
                for p0 in (0..k).step_by(block) {
                    let blk: f64 = (p0..(p0 + block).min(k)).map(|p| f64::from(input(a.get(i, p))) * f64::from(input(b.get(p, j)))).sum();
                    acc = rz(f64::from(acc) + f64::from(rz(blk)));
                }
                c[i * n + j] = acc;
            }
        }
        c
    }

    fn truncate_to_tf32(x: f32) -> f32 {
        f32::from_bits(x.to_bits() & !0x1FFF)
    }

    #[test]
    fn fp8_rounds_to_nearest_and_saturates() {
        let (e4, e5) = (Precision::Fp8E4m3, Precision::Fp8E5m2);
        assert_eq!((e4.input_bytes(), e5.input_bytes()), (1, 1));
        assert_eq!((e4.label(), e5.label()), ("fp8e4m3", "fp8e5m2"));
        // E4M3: 3 mantissa bits, so between 1 and 2 the step is 1/8; 1 + 1/16 is a tie to even (1).
        assert_eq!(e4.round_input(1.0625), 1.0);
        assert_eq!(e4.round_input(1.1875), 1.25);
        assert_eq!((e4.round_input(1000.0), e4.round_input(-1e30)), (448.0, -448.0));
        assert_eq!((e5.round_input(1e6), e5.round_input(f32::INFINITY)), (57344.0, 57344.0));
        assert!(e4.round_input(f32::NAN).is_nan() && e5.round_input(f32::NAN).is_nan());
        assert!(e4.is_fp8() && e5.is_fp8() && !Precision::ALL.iter().any(|p| p.is_fp8()));
    }

    #[test]
    fn fp8_products_plan_promoted_kernels_on_sm90a_and_are_refused_elsewhere() {
        use crate::plan::blocks::GemmDims;
        use crate::{Algo, Plan, PlanError, Planner, Target};
        let off_hopper = Target { sms: 132, sm90a: false };
        for p in [Precision::Fp8E4m3, Precision::Fp8E5m2] {
            let planner = Planner::new("matmul", Algo::Auto, p, Target::H200);
            for (m, n, k) in [(64, 64, 64), (1, 1, 16), (8192, 8192, 8192), (33, 4097, 1040)] {
                let Ok(Plan::One(launch)) = planner.product(GemmDims { m, n, k }) else { panic!("{p:?} {m}×{n}×{k}") };
                let kernel = launch.launch.kernel();
                let cfg = kernel.config;
                assert!(kernel.precision == p && cfg.fp8_operands && !cfg.unpromoted && !cfg.fp8_block_scales, "{}", kernel.label);
            }
            // Decode-like rows take the 64-row tile, large products the 128-row one.
            let tile = |m, n, k| match planner.product(GemmDims { m, n, k }) {
                Ok(Plan::One(l)) => l.launch.kernel().config.bm,
                other => panic!("{other:?}"),
            };
            assert_eq!((tile(32, 4096, 4096), tile(8192, 8192, 8192)), (64, 128), "{p:?}");
            let unaligned = planner.product(GemmDims { m: 64, n: 64, k: 72 }).unwrap_err().to_string();
            assert!(unaligned.contains("multiple of 16"), "{unaligned}");
            let refused = Planner::new("matmul", Algo::Auto, p, off_hopper).product(GemmDims { m: 64, n: 64, k: 64 });
            assert!(matches!(refused, Err(PlanError::NoKernel { precision, .. }) if precision == p));
            // An FP8 kernel of the other format, or a 16-bit kernel, is refused as a mismatch.
            let other = if p == Precision::Fp8E4m3 { Algo::Fp8E5m2 } else { Algo::Fp8E4m3 };
            for algo in [other, Algo::TmaBf16] {
                let r = Planner::new("matmul", algo, p, Target::H200).product(GemmDims { m: 64, n: 64, k: 64 });
                assert!(matches!(r, Err(PlanError::PrecisionMismatch { .. })), "{algo:?}");
            }
        }
    }

    #[test]
    fn tf32_rounding_is_to_nearest_even() {
        let ulp = 2f32.powi(-10);
        assert_eq!(round_to_tf32(1.0), 1.0);
        assert_eq!(round_to_tf32(1.0 + 0.75 * ulp), 1.0 + ulp);
        assert_eq!(round_to_tf32(1.0 + 0.25 * ulp), 1.0);
        assert_eq!(round_to_tf32(1.0 + 0.5 * ulp), 1.0, "tie to even (down)");
        assert_eq!(round_to_tf32(1.0 + 1.5 * ulp), 1.0 + 2.0 * ulp, "tie to even (up)");
        assert_eq!(round_to_tf32(-(1.0 + 0.75 * ulp)), -(1.0 + ulp));
        assert_eq!(round_to_tf32(2.0 - 0.25 * ulp), 2.0, "carry into the exponent");
        assert_eq!(round_to_tf32(f32::MAX), f32::INFINITY);
        assert!(round_to_tf32(f32::NAN).is_nan());
        assert_eq!(round_to_tf32(f32::NEG_INFINITY), f32::NEG_INFINITY);
        // Every result has its low 13 bits clear, and is within half a TF32 ulp.
        for x in pseudo_random(10_000, 7) {
            let r = round_to_tf32(x);
            assert_eq!(r.to_bits() & 0x1FFF, 0);
            assert!(((r - x) / x).abs() <= 2f32.powi(-11));
        }
    }

    #[test]
    fn fp32_rule_is_tesseras() {
        for (k, s) in [(1, 1.0), (4096, 1000.0), (519, 3.5)] {
            assert_eq!(Precision::Fp32.tolerance(k, s), crate::testkit::reference::tolerance(k, s));
        }
    }

    #[test]
    fn rounded_inputs_are_exact_in_their_format() {
        for x in pseudo_random(1000, 9) {
            assert_eq!(f32::from(bf16::from_f32(Precision::Bf16.round_input(x))), Precision::Bf16.round_input(x));
            assert_eq!(f32::from(f16::from_f32(Precision::Fp16.round_input(x))), Precision::Fp16.round_input(x));
            assert_eq!(Precision::Tf32.round_input(x).to_bits() & 0x1FFF, 0);
        }
    }

    /// The modelled device (truncating block sums, and for TF32 truncating or not rounding its inputs)
    /// passes, and so does a plain f32 loop over the rounded inputs.
    #[test]
    fn modelled_device_results_pass() {
        for p in [Precision::Tf32, Precision::Bf16, Precision::Fp16] {
            for (shape, seed) in [((4, 4, 4096), 11), ((9, 7, 519), 12), ((3, 5, 1), 13)] {
                let (a, b, r) = rounded(p, shape, seed);
                for block in [1, 8, 16, 32] {
                    let got = truncating_gemm(&a, &b, block, |x| x);
                    check_product(p, &got, &r).unwrap_or_else(|e| panic!("{p:?} {shape:?} block {block}: {e}"));
                }
                if p == Precision::Tf32 {
                    // The device truncates the unrounded f32 inputs, or does not round them at all.
                    let (a0, b0) = (
                        HostMatrix::new(shape.0, shape.2, pseudo_random(shape.0 * shape.2, seed)).unwrap(),
                        HostMatrix::new(shape.2, shape.1, pseudo_random(shape.2 * shape.1, seed + 1)).unwrap(),
                    );
                    check_product(p, &truncating_gemm(&a0, &b0, 16, truncate_to_tf32), &r).unwrap();
                    check_product(p, &truncating_gemm(&a0, &b0, 16, |x| x), &r).unwrap();
                }
            }
        }
    }

    /// The rule still catches a missing term of a K = 4096 dot product for BF16 and FP16, and of a
    /// K = 16 one for TF32 (its input rounding allowance is 8·2⁻¹¹ of Σ|a·b|); and catches reading the inputs in the wrong format.
    #[test]
    fn a_missing_term_is_caught() {
        for (p, k) in [(Precision::Bf16, 4096), (Precision::Fp16, 4096), (Precision::Tf32, 16)] {
            let (a, b, r) = rounded(p, (4, 4, k), 21);
            let short: Vec<f32> = (0..16).map(|idx| (0..k - 1).map(|q| a.get(idx / 4, q) * b.get(q, idx % 4)).sum()).collect();
            let err = check_product(p, &short, &r).unwrap_err();
            assert!(err.mismatches >= 8, "{p:?}: only {} of 16 elements flagged", err.mismatches);
        }
        // BF16 data reference, result computed from the unrounded f32 values (as if the device had
        // been handed the wrong type or skipped the conversion).
        let (_, _, r) = rounded(Precision::Bf16, (4, 4, 512), 31);
        let (a0, b0) =
            (HostMatrix::new(4, 512, pseudo_random(2048, 31)).unwrap(), HostMatrix::new(512, 4, pseudo_random(2048, 32)).unwrap());
        let unrounded = truncating_gemm(&a0, &b0, 1, |x| x);
        assert!(check_product(Precision::Bf16, &unrounded, &r).unwrap_err().mismatches >= 8);
    }

    #[test]
    fn nan_and_wrong_length_never_pass() {
        let (_, _, r) = rounded(Precision::Fp16, (2, 2, 3), 41);
        let mut got: Vec<f32> = r.value.iter().map(|&v| v as f32).collect();
        check_product(Precision::Fp16, &got, &r).unwrap();
        got[3] = f32::NAN;
        assert_eq!(check_product(Precision::Fp16, &got, &r).unwrap_err().mismatches, 1);
        assert!(check_product(Precision::Fp16, &got[..3], &r).is_err());
    }

    #[test]
    fn f32_uploads_are_borrowed_and_16_bit_ones_rounded() {
        let data = [1.0f32, 1.0 + 2f32.powi(-10), -3.5];
        assert!(matches!(f32::from_f32_slice(&data), std::borrow::Cow::Borrowed(_)));
        let b: Vec<f32> = bf16::from_f32_slice(&data).iter().map(|x| x.to_f32()).collect();
        assert_eq!(b, vec![1.0, 1.0, -3.5]);
    }

    #[test]
    fn gemm_check_follows_blas_edge_rules_and_catches_errors() {
        let (a, b) = (HostMatrix::random(5, 300, 1), HostMatrix::random(300, 4, 2));
        let c0 = HostMatrix::random(5, 4, 3);
        let r = matmul_reference(&a, &b);
        let expected = |alpha: f32, beta: f32| HostMatrix {
            rows: 5,
            cols: 4,
            data: (0..20).map(|i| (f64::from(alpha) * r.value[i] + f64::from(beta) * f64::from(c0.data[i])) as f32).collect(),
        };
        check_gemm(Precision::Fp32, 1.5, &a, &b, -0.5, &c0, &expected(1.5, -0.5)).unwrap();
        // β = 0: C₀ is not read, so NaN in it is fine; α = 0: neither are A and B.
        let nan = HostMatrix { rows: 5, cols: 4, data: vec![f32::NAN; 20] };
        check_gemm(Precision::Fp32, 2.0, &a, &b, 0.0, &nan, &expected(2.0, 0.0)).unwrap();
        let (na, nb) = (HostMatrix { data: vec![f32::NAN; 1500], ..a.clone() }, HostMatrix { data: vec![f32::NAN; 1200], ..b.clone() });
        check_gemm(Precision::Fp32, 0.0, &na, &nb, 3.0, &c0, &expected(0.0, 3.0)).unwrap();
        // A forgotten β·C, a forgotten α, a NaN: caught.
        assert!(check_gemm(Precision::Fp32, 1.5, &a, &b, -0.5, &c0, &expected(1.5, 0.0)).is_err());
        assert!(check_gemm(Precision::Fp32, 1.5, &a, &b, 0.0, &c0, &expected(1.0, 0.0)).is_err());
        let mut bad = expected(1.0, 1.0);
        bad.data[7] = f32::NAN;
        assert_eq!(check_gemm(Precision::Fp32, 1.0, &a, &b, 1.0, &c0, &bad).unwrap_err().mismatches, 1);
    }
}
