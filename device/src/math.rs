//! Arithmetic with explicit rounding behaviour.

/// `a * b + c` with a single rounding (the `fma.rn.f32` instruction).
///
/// Rust never contracts `a * b + c` into an FMA on its own (CUDA C does, by default), so kernels that
/// want the FMA throughput and accuracy of CUDA C ask for it here.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    core::intrinsics::fmaf32(a, b, c)
}

/// `a * b + c` with a single rounding, on the host: `f32::mul_add` rounds exactly like `fma.rn.f32`,
/// so a host run computes bit-identical results to the GPU for the same order of operations.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// `eˣ` as `2^(x·log₂e)` ([`exp2`]: on the GPU `ex2.approx`, relative error about 2⁻²¹ with the
/// product's rounding; 0 below about −87, infinity above 88.7).
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    exp2(x * core::f32::consts::LOG2_E)
}

/// The hyperbolic tangent from [`exp`]: `sign(x)·(1 − e^(−2|x|)) / (1 + e^(−2|x|))`, which never
/// overflows; absolute error a few 2⁻²⁴ (near 0 the division's, relatively larger for |x| < 2⁻¹²).
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let t = exp(-2.0 * x.abs());
    let y = (1.0 - t) / (1.0 + t);
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// The error function, Abramowitz and Stegun 7.1.26 (`1 − (a₁t + … + a₅t⁵)·e^(−x²)`, `t = 1/(1 + p|x|)`,
/// odd in x): absolute error below 1.5·10⁻⁷ plus [`exp`]'s and [`rcp`]'s. A formula, not `libm`'s `erff`, whose
/// floating-point-exception idiom (a volatile store) put a stack frame into every kernel using it.
#[inline(always)]
pub fn erf(x: f32) -> f32 {
    const P: f32 = 0.327_591_1;
    const A: [f32; 5] = [0.254_829_6, -0.284_496_72, 1.421_413_8, -1.453_152_1, 1.061_405_4];
    let ax = x.abs();
    let t = rcp(1.0 + P * ax);
    let poly = t * (A[0] + t * (A[1] + t * (A[2] + t * (A[3] + t * A[4]))));
    let y = 1.0 - poly * exp(-ax * ax);
    if x < 0.0 {
        -y
    } else {
        y
    }
}

/// `1/x`, approximated (`rcp.approx.ftz.f32`: at most 1 ulp off over the normal range, one
/// instruction where IEEE division is a dozen with a slow-path branch); `1/±∞ = ±0`, `1/±0 = ±∞`,
/// subnormal inputs flushed to zero.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn rcp(x: f32) -> f32 {
    let y: f32;
    // SAFETY: a register-to-register arithmetic instruction with no memory or control effects.
    unsafe { core::arch::asm!("rcp.approx.ftz.f32 {y}, {x};", x = in(reg32) x, y = out(reg32) y, options(pure, nomem, nostack)) };
    y
}

/// `1/x` on the host: the correctly rounded quotient (within the GPU's ulp, so tolerances written for
/// the GPU hold here).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn rcp(x: f32) -> f32 {
    1.0 / x
}

/// `lo` and `hi` rounded to BF16 (to nearest, ties to even; NaN stays NaN) and packed, `lo` in bits
/// 0–15: one `cvt.rn.bf16x2.f32` (sm_80+), where [`f32_to_bf16_bits`]'s integer code is about ten
/// instructions an element.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f32x2_to_bf16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    // SAFETY: a register-to-register conversion with no memory or control effects. The instruction
    // puts its first source in the upper half.
    unsafe {
        core::arch::asm!("cvt.rn.bf16x2.f32 {d}, {a}, {b};", d = out(reg32) d, a = in(reg32) hi, b = in(reg32) lo,
            options(pure, nomem, nostack, preserves_flags))
    };
    d
}

/// [`f32x2_to_bf16x2`] on the host: the `half` crate's rounding (the same round to nearest even).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f32x2_to_bf16x2(lo: f32, hi: f32) -> u32 {
    u32::from(f32_to_bf16_bits(lo)) | u32::from(f32_to_bf16_bits(hi)) << 16
}

/// `lo` and `hi` rounded to IEEE binary16 (to nearest even; overflow to ±∞) and packed, `lo` in bits
/// 0–15: one `cvt.rn.f16x2.f32`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f32x2_to_f16x2(lo: f32, hi: f32) -> u32 {
    let d: u32;
    // SAFETY: as f32x2_to_bf16x2.
    unsafe {
        core::arch::asm!("cvt.rn.f16x2.f32 {d}, {a}, {b};", d = out(reg32) d, a = in(reg32) hi, b = in(reg32) lo,
            options(pure, nomem, nostack, preserves_flags))
    };
    d
}

/// [`f32x2_to_f16x2`] on the host (the `half` crate's rounding).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f32x2_to_f16x2(lo: f32, hi: f32) -> u32 {
    u32::from(f32_to_f16_bits(lo)) | u32::from(f32_to_f16_bits(hi)) << 16
}

/// Four values rounded to BF16 (to nearest even) by two [`f32x2_to_bf16x2`]s, in order.
#[inline(always)]
pub fn f32x4_to_bf16x4(v: [f32; 4]) -> [u16; 4] {
    let (lo, hi) = (f32x2_to_bf16x2(v[0], v[1]), f32x2_to_bf16x2(v[2], v[3]));
    [lo as u16, (lo >> 16) as u16, hi as u16, (hi >> 16) as u16]
}

/// Four values rounded to IEEE binary16 (to nearest even) by two [`f32x2_to_f16x2`]s, in order.
#[inline(always)]
pub fn f32x4_to_f16x4(v: [f32; 4]) -> [u16; 4] {
    let (lo, hi) = (f32x2_to_f16x2(v[0], v[1]), f32x2_to_f16x2(v[2], v[3]));
    [lo as u16, (lo >> 16) as u16, hi as u16, (hi >> 16) as u16]
}

/// `x` rounded to BF16 (to nearest, ties to even; NaN stays NaN) as its bit pattern: the `half`
/// crate's conversion, the same integer code on the GPU and the host.
#[inline(always)]
pub fn f32_to_bf16_bits(x: f32) -> u16 {
    half::bf16::from_f32(x).to_bits()
}

/// `x` rounded to IEEE binary16 (to nearest, ties to even; overflow to ±∞, NaN stays NaN) as its bit
/// pattern: one `cvt.rn.f16.f32` on the GPU, the `half` crate's conversion on the host.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f32_to_f16_bits(x: f32) -> u16 {
    (x as f16).to_bits()
}

/// `x` rounded to IEEE binary16 as its bit pattern, on the host.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f32_to_f16_bits(x: f32) -> u16 {
    half::f16::from_f32(x).to_bits()
}

/// A BF16 bit pattern's value as `f32` (exact: every BF16 value is an `f32`): the bits moved to the
/// top half, one instruction. A NaN stays a NaN (`half`'s conversion also sets its quiet bit: a
/// compare and a select per element, which made kernel 19's BF16 entry 37 % more instructions than
/// its FP16 twin).
#[inline(always)]
pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits(u32::from(bits) << 16)
}

/// An IEEE binary16 bit pattern's value as `f32` (exact, subnormals included): one `cvt.f32.f16`.
/// (`half`'s portable conversion, the host's below, kept arrays of the caller in local memory.)
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f16_to_f32(bits: u16) -> f32 {
    f16::from_bits(bits) as f32
}

/// An IEEE binary16 bit pattern's value as `f32` (exact), on the host.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f16_to_f32(bits: u16) -> f32 {
    half::f16::from_bits(bits).to_f32()
}

/// `2^x`, approximated (`ex2.approx.ftz.f32`: maximum relative error 2⁻²² over the normal range,
/// subnormal inputs and results flushed to zero) — the instruction CUDA's `exp2f`/`__expf` use;
/// `exp(x)` is `exp2(x · log₂e)`. Rust's `f32::exp2` lives in `std`, which the GPU build lacks.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn exp2(x: f32) -> f32 {
    let y: f32;
    // SAFETY: a register-to-register arithmetic instruction with no memory or control effects.
    unsafe { core::arch::asm!("ex2.approx.ftz.f32 {y}, {x};", x = in(reg32) x, y = out(reg32) y, options(pure, nomem, nostack)) };
    y
}

/// `2^x` on the host: `f32::exp2` (correctly rounded or within an ulp: at least as accurate as the
/// GPU's approximation, so tolerances written for the GPU hold here).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn exp2(x: f32) -> f32 {
    x.exp2()
}

/// `lo` and `hi` rounded to FP8 E4M3 and packed (`lo` in bits 0–7, `hi` in bits 8–15): round to
/// nearest even, saturating to ±448 (E4M3 has no infinities; ±∞ saturate too), NaN stays NaN —
/// NVIDIA's SATFINITE conversion, one `cvt.rn.satfinite.e4m3x2.f32` (sm_89+, PTX 7.8+).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f32x2_to_e4m3x2(lo: f32, hi: f32) -> u16 {
    let d: u16;
    // SAFETY: a register-to-register conversion with no memory or control effects. The instruction
    // puts its first source in the upper byte.
    unsafe {
        core::arch::asm!("cvt.rn.satfinite.e4m3x2.f32 {d}, {a}, {b};", d = out(reg16) d, a = in(reg32) hi, b = in(reg32) lo,
            options(pure, nomem, nostack, preserves_flags))
    };
    d
}

/// [`f32x2_to_e4m3x2`] on the host: the `float8` crate's SATFINITE conversion (the GPU suite checks
/// that the instruction agrees with it bit for bit).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f32x2_to_e4m3x2(lo: f32, hi: f32) -> u16 {
    u16::from(float8::F8E4M3::from_f32(lo).to_bits()) | u16::from(float8::F8E4M3::from_f32(hi).to_bits()) << 8
}

/// As [`f32x2_to_e4m3x2`] for FP8 E5M2: saturating to ±57344 (±∞ saturate too), NaN stays NaN; one
/// `cvt.rn.satfinite.e5m2x2.f32`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn f32x2_to_e5m2x2(lo: f32, hi: f32) -> u16 {
    let d: u16;
    // SAFETY: as f32x2_to_e4m3x2.
    unsafe {
        core::arch::asm!("cvt.rn.satfinite.e5m2x2.f32 {d}, {a}, {b};", d = out(reg16) d, a = in(reg32) hi, b = in(reg32) lo,
            options(pure, nomem, nostack, preserves_flags))
    };
    d
}

/// [`f32x2_to_e5m2x2`] on the host (the `float8` crate's SATFINITE conversion).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn f32x2_to_e5m2x2(lo: f32, hi: f32) -> u16 {
    u16::from(float8::F8E5M2::from_f32(lo).to_bits()) | u16::from(float8::F8E5M2::from_f32(hi).to_bits()) << 8
}

#[cfg(test)]
mod fp8_tests {
    use super::{f32x2_to_e4m3x2, f32x2_to_e5m2x2};

    #[test]
    fn pairs_pack_low_then_high_and_saturate() {
        // E4M3: 1.0 = 0.0111.000 (0x38), 2.0 = 0.1000.000 (0x40); 1000 saturates to 448 = 0.1111.110 (0x7E).
        assert_eq!(f32x2_to_e4m3x2(1.0, 2.0), 0x4038);
        assert_eq!(f32x2_to_e4m3x2(1000.0, -1000.0), 0xFE7E);
        // E5M2: 1.0 = 0.01111.00 (0x3C), 2.0 = 0.10000.00 (0x40); ∞ saturates to 57344 = 0.11110.11 (0x7B).
        assert_eq!(f32x2_to_e5m2x2(1.0, 2.0), 0x403C);
        assert_eq!(f32x2_to_e5m2x2(f32::INFINITY, 0.0), 0x007B);
    }
}

#[cfg(test)]
mod bf16_tests {
    use super::bf16_to_f32;

    #[test]
    fn bf16_widening_is_halfs_value_for_every_pattern_and_keeps_nans() {
        for bits in 0..=u16::MAX {
            let (got, want) = (bf16_to_f32(bits), half::bf16::from_bits(bits).to_f32());
            if want.is_nan() {
                assert!(got.is_nan(), "{bits:#06x}: {got} is not a NaN");
            } else {
                assert_eq!(got.to_bits(), want.to_bits(), "{bits:#06x}");
            }
        }
    }
}
