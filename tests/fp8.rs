//! FP8 on the GPU: the conversions (`Gpu::convert_to_fp8`, one `cvt.rn.satfinite` per pair) against
//! the `float8` crate's SATFINITE rounding — the rule the element types, the reference and the
//! emulator use — bit for bit, over every BF16 value and random `f32` bit patterns; NaN inputs give a
//! NaN of the format (its sign and payload are the instruction's: for E5M2 the GPU writes 0x7F where
//! `float8` writes 0x7E, both NaN in the OCP format — and `float8`'s `F8E5M2::is_nan` knows only
//! 0x7E/0xFE, so the NaN test here reads the bits). Then the FP8 products (kernel 25): every FP8
//! kernel and `Auto` on odd shapes with per-tensor scales, `B` given and `Bᵀ` given, against the f64
//! product of the FP8 inputs within FP8's rule (`Precision::tolerance`); at K = 16384 the promoted
//! kernels within that rule and the unpromoted ones further off. Without a GPU each trial is
//! reported ignored.
use tessera::catalogue::registry::algo::fp8_cases;
use tessera::catalogue::testkit::check::check_in;
use tessera::catalogue::testkit::fp8::{block_reference, block_scales};
use tessera::float8::{F8E4M3, F8E5M2};
use tessera::{
    bf16, Activation, Algo, BiasKind, DeviceBuffer, DeviceMatrix, Error, Fp8Format, Fp8Params, Fp8Rhs, Fp8Scales, Gpu, HostMatrix,
    Precision,
};
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

/// `a · b` by `algo` in format `F` on the GPU, `B` uploaded as given or as `Bᵀ` (`transposed`),
/// scaled per tensor by `scales` (two floats) or by block scales (`blocks`: A's and `Bᵀ`'s), as
/// device buffers.
fn product<F: Fp8Format>(
    gpu: &Gpu,
    algo: Algo,
    a: &HostMatrix,
    b: &HostMatrix,
    transposed: bool,
    (sa, sb, blocks): (&[f32], &[f32], bool),
) -> Result<HostMatrix, String> {
    let e = |e: Error| e.to_string();
    let da = DeviceMatrix::<F>::from_host(gpu, a).map_err(e)?;
    let bt = HostMatrix::from_fn(b.cols, b.rows, |r, c| b.get(c, r));
    let db = DeviceMatrix::<F>::from_host(gpu, if transposed { &bt } else { b }).map_err(e)?;
    let (sa, sb) = (DeviceBuffer::from_host(gpu, sa).map_err(e)?, DeviceBuffer::from_host(gpu, sb).map_err(e)?);
    let mut dc = DeviceMatrix::<f32>::zeros(gpu, a.rows, b.cols).map_err(e)?;
    let rhs = if transposed { Fp8Rhs::Bt(&db) } else { Fp8Rhs::B(&db) };
    let scales = if blocks { Fp8Scales::Blocks { a: &sa, b: &sb } } else { Fp8Scales::PerTensor { a: &sa, b: &sb } };
    gpu.matmul_fp8(&Fp8Params::new().algo(algo).scales(scales), &da, rhs, &mut dc).map_err(e)?;
    gpu.synchronize().map_err(e)?;
    dc.to_host(gpu).map_err(e)
}

/// [`product`] in `precision`'s FP8 format.
fn product_in(
    precision: Precision,
    gpu: &Gpu,
    algo: Algo,
    a: &HostMatrix,
    b: &HostMatrix,
    transposed: bool,
    scales: (&[f32], &[f32], bool),
) -> Result<HostMatrix, String> {
    match precision {
        Precision::Fp8E5m2 => product::<F8E5M2>(gpu, algo, a, b, transposed, scales),
        _ => product::<F8E4M3>(gpu, algo, a, b, transposed, scales),
    }
}

/// `got / s` (a power of two: exact) checked against the f64 product of the FP8 inputs.
fn check_scaled(p: Precision, a: &HostMatrix, b: &HostMatrix, got: &HostMatrix, s: f32) -> Result<(), String> {
    let unscaled = HostMatrix { rows: got.rows, cols: got.cols, data: got.data.iter().map(|x| x / s).collect() };
    check_in(p, a, b, &unscaled).map_err(|e| e.to_string())
}

/// The block-scaled product against the f64 reference of the FP8 inputs times their blocks' scales.
fn check_blocks(p: Precision, a: &HostMatrix, b: &HostMatrix, got: &HostMatrix, sa: &[f32], sb: &[f32]) -> Result<(), String> {
    let reference = block_reference(p, a, b, sa, sb);
    tessera::catalogue::testkit::check::check_product(p, &got.data, &reference).map_err(|e| e.to_string())
}

fn products_on_odd_shapes(gpu: &Gpu) -> Result<(), String> {
    let shapes = [(1, 1, 16), (130, 70, 272), (65, 257, 144), (200, 136, 528), (257, 1000, 1040), (1024, 1024, 4096)];
    for (algo, precision) in fp8_cases() {
        let blocked = algo.config().is_some_and(|c| c.fp8_block_scales);
        for (i, &(m, n, k)) in shapes.iter().enumerate() {
            let (a, b) = (HostMatrix::random(m, k, 10 + i as u64), HostMatrix::random(k, n, 20 + i as u64));
            let run = |transposed, scales: (&[f32], &[f32], bool)| product_in(precision, gpu, algo, &a, &b, transposed, scales);
            if blocked {
                let (sa, sb) = block_scales(m, n, k);
                for transposed in [false, true] {
                    let got = run(transposed, (&sa, &sb, true))?;
                    check_blocks(precision, &a, &b, &got, &sa, &sb)
                        .map_err(|err| format!("{} {m}×{n}×{k} block scales, Bᵀ given {transposed}: {err}", algo.label()))?;
                }
                continue;
            }
            for (transposed, scales) in [(false, [1.0f32, 1.0]), (true, [0.5, 4.0])] {
                let got = run(transposed, (&scales[..1], &scales[1..], false))?;
                // The unpromoted kernels hold no bound at depth: checked at these K within the rule too
                // (K ≤ 4096), which they meet on inputs of mixed sign.
                check_scaled(precision, &a, &b, &got, scales[0] * scales[1])
                    .map_err(|err| format!("{} {m}×{n}×{k} Bᵀ given {transposed}: {err}", algo.label()))?;
            }
        }
    }
    // Gpu::matmul runs the same kernels with unit scales.
    let (a, b) = (HostMatrix::random(96, 160, 5), HostMatrix::random(160, 80, 6));
    let got = gpu.matmul_host_in(Precision::Fp8E5m2, Algo::Auto, &a, &b).map_err(|e| e.to_string())?;
    check_in(Precision::Fp8E5m2, &a, &b, &got).map_err(|e| format!("matmul_host_in E5M2: {e}"))
}

/// The largest `|got − reference| / Σ|a'·b'|` over the elements.
fn worst_relative(a: &HostMatrix, b: &HostMatrix, got: &HostMatrix, p: Precision) -> f64 {
    let round = |m: &HostMatrix| HostMatrix { rows: m.rows, cols: m.cols, data: m.data.iter().map(|&x| p.round_input(x)).collect() };
    let r = tessera::reference::matmul_reference(&round(a), &round(b));
    got.data.iter().enumerate().map(|(i, &g)| (f64::from(g) - r.value[i]).abs() / r.abs_sum[i].max(f64::MIN_POSITIVE)).fold(0.0, f64::max)
}

fn promotion_at_depth(gpu: &Gpu) -> Result<(), String> {
    // K = 16384 of positive products: the sums grow with K, which is where an FP8 accumulator loses
    // bits. Values in [0.25, 1.25): exact in both formats' ranges.
    let (m, n, k) = (256, 256, 16384);
    let a = HostMatrix::from_fn(m, k, |r, c| 0.25 + ((r * 131 + c * 7) % 97) as f32 / 97.0);
    let b = HostMatrix::from_fn(k, n, |r, c| 0.25 + ((r * 17 + c * 29) % 89) as f32 / 89.0);
    for (p, promoted, fast) in
        [(Precision::Fp8E4m3, Algo::Fp8E4m3, Algo::Fp8E4m3Fast), (Precision::Fp8E5m2, Algo::Fp8E5m2, Algo::Fp8E5m2Fast)]
    {
        let run = |algo| product_in(p, gpu, algo, &a, &b, true, (&[1.0], &[1.0], false));
        let (good, quick) = (run(promoted)?, run(fast)?);
        let (e_good, e_quick) = (worst_relative(&a, &b, &good, p), worst_relative(&a, &b, &quick, p));
        println!(
            "{p:?} K = {k}: worst |error| / Σ|a·b|: promoted {e_good:.3e}, unpromoted {e_quick:.3e} (rule's ρ: {:.3e})",
            tessera::catalogue::precision::FP8_WINDOW_ROUNDOFF
        );
        check_in(p, &a, &b, &good).map_err(|e| format!("{p:?} promoted at K = {k}: {e}"))?;
        if e_quick <= e_good {
            return Err(format!("{p:?}: the unpromoted kernel ({e_quick:.3e}) is not less accurate than the promoted one ({e_good:.3e})"));
        }
    }
    Ok(())
}

fn bf16_output(gpu: &Gpu) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    // N a multiple of 4, even, odd; a deep-K product that f32 would slice.
    for (m, n, k) in [(130, 136, 272), (65, 70, 144), (33, 257, 160), (64, 64, 4096), (1000, 1000, 1024)] {
        let (a, b) = (HostMatrix::random(m, k, 41), HostMatrix::random(k, n, 42));
        let p = Precision::Fp8E4m3;
        let da = DeviceMatrix::<F8E4M3>::from_host(gpu, &a).map_err(e)?;
        let db = DeviceMatrix::<F8E4M3>::from_host(gpu, &b).map_err(e)?;
        let mut dc = DeviceMatrix::<bf16>::zeros(gpu, m, n).map_err(e)?;
        gpu.matmul_fp8(&Fp8Params::new(), &da, Fp8Rhs::B(&db), &mut dc).map_err(e)?;
        let got: Vec<f32> = dc.buffer().to_host(gpu).map_err(e)?.iter().map(|x| x.to_f32()).collect();
        let round = |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
        let reference = tessera::reference::matmul_reference(&round(&a), &round(&b));
        tessera::catalogue::testkit::check::check_product_out(p, tessera::OutputFormat::Bf16, &got, &reference)
            .map_err(|err| format!("{m}×{n}×{k} BF16 out: {err}"))?;
    }
    Ok(())
}

fn fused_epilogues(gpu: &Gpu) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let p = Precision::Fp8E4m3;
    for (m, n, k) in [(130, 70, 272), (33, 136, 144), (512, 1000, 2048)] {
        let (a, b) = (HostMatrix::random(m, k, 61), HostMatrix::random(k, n, 62));
        let da = DeviceMatrix::<F8E4M3>::from_host(gpu, &a).map_err(e)?;
        let db = DeviceMatrix::<F8E4M3>::from_host(gpu, &b).map_err(e)?;
        let round = |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
        let reference = tessera::reference::matmul_reference(&round(&a), &round(&b));
        for activation in Activation::ALL {
            for kind in [BiasKind::PerColumn, BiasKind::PerRow] {
                let values: Vec<f32> = (0..kind.len(m, n)).map(|x| ((x * 7 % 11) as f32 - 5.0) * 0.25).collect();
                let bias = DeviceBuffer::from_host(gpu, &values).map_err(e)?;
                let params = Fp8Params::new().bias(kind, &bias).activation(activation);
                let mut dc = DeviceMatrix::<bf16>::zeros(gpu, m, n).map_err(e)?;
                gpu.matmul_fp8(&params, &da, Fp8Rhs::B(&db), &mut dc).map_err(e)?;
                let got: Vec<f32> = dc.buffer().to_host(gpu).map_err(e)?.iter().map(|x| x.to_f32()).collect();
                let at = |row: usize, col: usize| f64::from(values[if kind == BiasKind::PerColumn { col } else { row }]);
                tessera::catalogue::testkit::check::check_epilogue(p, tessera::OutputFormat::Bf16, activation, at, &got, &reference)
                    .map_err(|err| format!("{m}×{n}×{k} {activation:?} {kind:?}: {err}"))?;
            }
        }
    }
    Ok(())
}

fn main() {
    run(vec![
        gpu_trial("fp8_fused_epilogues_match_their_reference", fused_epilogues),
        gpu_trial("fp8_bf16_output_is_rounded_once", bf16_output),
        gpu_trial("fp8_conversions_match_satfinite", conversions),
        gpu_trial("fp8_conversion_errors_are_typed", typed_errors),
        gpu_trial("fp8_products_match_the_reference_on_odd_shapes", products_on_odd_shapes),
        gpu_trial("fp8_promotion_holds_the_rule_at_k_16384", promotion_at_depth),
    ])
}
