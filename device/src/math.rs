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

/// A BF16 bit pattern's value as `f32` (exact: every BF16 value is an `f32`).
#[inline(always)]
pub fn bf16_to_f32(bits: u16) -> f32 {
    half::bf16::from_bits(bits).to_f32()
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
