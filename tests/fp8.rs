//! FP8 on the GPU: the conversions (`Gpu::convert_to_fp8`, one `cvt.rn.satfinite` per pair) against
//! the `float8` crate's SATFINITE rounding — the rule the element types, the reference and the
//! emulator use — bit for bit, over every BF16 value and random `f32` bit patterns; NaN inputs give a
//! NaN of the format (its sign and payload are the instruction's: for E5M2 the GPU writes 0x7F where
//! `float8` writes 0x7E, both NaN in the OCP format — and `float8`'s `F8E5M2::is_nan` knows only
//! 0x7E/0xFE, so the NaN test here reads the bits). Without a GPU each trial is reported ignored.
use tessera::float8::{F8E4M3, F8E5M2};
use tessera::{bf16, DeviceMatrix, Error, Gpu};
use tessera_tests::{gpu_trial, run};

/// Every BF16 value (as f32: all exponents, 7-bit mantissas, both signs, subnormals, ±∞, NaNs) and
/// 2¹⁸ pseudo-random f32 bit patterns (the mantissa bits below BF16's, for the rounding).
fn inputs() -> Vec<f32> {
    let mut x: Vec<f32> = (0..=u16::MAX).map(|b| f32::from_bits(u32::from(b) << 16)).collect();
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    x.extend((0..1 << 18).map(|_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        f32::from_bits((s >> 32) as u32)
    }));
    x
}

/// E4M3's one NaN (either sign): S.1111.111.
fn e4m3_nan(b: u8) -> bool {
    b & 0x7F == 0x7F
}

/// E5M2's NaNs (OCP FP8): S.11111.mm with mm ≠ 0.
fn e5m2_nan(b: u8) -> bool {
    b & 0x7C == 0x7C && b & 0x03 != 0
}

/// The first element whose GPU byte is not `want`'s (a NaN input must give some NaN).
fn compare(x: &[f32], got: &[u8], want: impl Fn(f32) -> u8, is_nan: impl Fn(u8) -> bool) -> Result<(), String> {
    for (i, (&v, &b)) in x.iter().zip(got).enumerate() {
        let ok = if v.is_nan() { is_nan(b) } else { b == want(v) };
        if !ok {
            return Err(format!("element {i}: {v:e} ({:#010x}) gave {b:#04x}, the rule says {:#04x}", v.to_bits(), want(v)));
        }
    }
    Ok(())
}

fn to_bytes<T: Copy>(v: &[T], bits: impl Fn(T) -> u8) -> Vec<u8> {
    v.iter().map(|&t| bits(t)).collect()
}

fn conversions(gpu: &Gpu) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let x = inputs();
    let cols = x.len().div_ceil(64);
    let padded: Vec<f32> = x.iter().copied().chain(std::iter::repeat_n(0.0, 64 * cols - x.len())).collect();
    let src = DeviceMatrix::from_slice(gpu, 64, cols, &padded).map_err(e)?;
    let mut e4 = DeviceMatrix::<F8E4M3>::zeros(gpu, 64, cols).map_err(e)?;
    let mut e5 = DeviceMatrix::<F8E5M2>::zeros(gpu, 64, cols).map_err(e)?;
    gpu.convert_to_fp8(&src, &mut e4).map_err(e)?;
    gpu.convert_to_fp8(&src, &mut e5).map_err(e)?;
    let got4 = to_bytes(&e4.buffer().to_host(gpu).map_err(e)?, |v| v.to_bits());
    let got5 = to_bytes(&e5.buffer().to_host(gpu).map_err(e)?, |v| v.to_bits());
    compare(&padded, &got4, |v| F8E4M3::from_f32(v).to_bits(), e4m3_nan).map_err(|m| format!("f32 → E4M3: {m}"))?;
    compare(&padded, &got5, |v| F8E5M2::from_f32(v).to_bits(), e5m2_nan).map_err(|m| format!("f32 → E5M2: {m}"))?;
    // BF16 sources: every BF16 value, widened exactly, then rounded once.
    let bx: Vec<bf16> = (0..=u16::MAX).map(bf16::from_bits).collect();
    let widened: Vec<f32> = bx.iter().map(|v| v.to_f32()).collect();
    let bsrc = DeviceMatrix::from_slice(gpu, 256, 256, &bx).map_err(e)?;
    let (mut b4, mut b5) =
        (DeviceMatrix::<F8E4M3>::zeros(gpu, 256, 256).map_err(e)?, DeviceMatrix::<F8E5M2>::zeros(gpu, 256, 256).map_err(e)?);
    gpu.convert_to_fp8(&bsrc, &mut b4).map_err(e)?;
    gpu.convert_to_fp8(&bsrc, &mut b5).map_err(e)?;
    let g4 = to_bytes(&b4.buffer().to_host(gpu).map_err(e)?, |v| v.to_bits());
    let g5 = to_bytes(&b5.buffer().to_host(gpu).map_err(e)?, |v| v.to_bits());
    compare(&widened, &g4, |v| F8E4M3::from_f32(v).to_bits(), e4m3_nan).map_err(|m| format!("BF16 → E4M3: {m}"))?;
    compare(&widened, &g5, |v| F8E5M2::from_f32(v).to_bits(), e5m2_nan).map_err(|m| format!("BF16 → E5M2: {m}"))?;
    // An odd element count: the last element alone.
    let odd = DeviceMatrix::from_slice(gpu, 1, 5, &[1.0f32, 2.0, 3.0, 500.0, -0.3]).map_err(e)?;
    let mut q = DeviceMatrix::<F8E4M3>::zeros(gpu, 1, 5).map_err(e)?;
    gpu.convert_to_fp8(&odd, &mut q).map_err(e)?;
    let back: Vec<f32> = q.buffer().to_host(gpu).map_err(e)?.iter().map(|v| v.to_f32()).collect();
    if back != [1.0, 2.0, 3.0, 448.0, -0.3125] {
        return Err(format!("1×5: {back:?}"));
    }
    Ok(())
}

fn typed_errors(gpu: &Gpu) -> Result<(), String> {
    let src = DeviceMatrix::<f32>::zeros(gpu, 3, 4).map_err(|e| e.to_string())?;
    let mut wrong = DeviceMatrix::<F8E4M3>::zeros(gpu, 4, 3).map_err(|e| e.to_string())?;
    match gpu.convert_to_fp8(&src, &mut wrong) {
        Err(Error::ShapeMismatch { .. }) => {}
        other => return Err(format!("3×4 into 4×3: {other:?}")),
    }
    let mut empty = DeviceMatrix::<F8E5M2>::zeros(gpu, 0, 4).map_err(|e| e.to_string())?;
    gpu.convert_to_fp8(&DeviceMatrix::<f32>::zeros(gpu, 0, 4).map_err(|e| e.to_string())?, &mut empty).map_err(|e| e.to_string())
}

fn main() {
    run(vec![gpu_trial("fp8_conversions_match_satfinite", conversions), gpu_trial("fp8_conversion_errors_are_typed", typed_errors)])
}
