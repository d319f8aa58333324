//! Kernel 25 (FP8 E4M3 / E5M2, `Bᵀ` prepared by `pack_b8`) on the CPU executor, through the plan the
//! host makes for the H200: every FP8 kernel and `Auto` in both formats on odd shapes (K multiples of
//! 16, partial K-steps, partial and several tiles), per-tensor and block scales applied, K not a multiple of 16
//! refused before any launch, and the transposing pack on its own.
use tessera_catalogue::registry::algo::fp8_cases;
use tessera_catalogue::testkit::check::check_epilogue;
use tessera_catalogue::testkit::check::{check_in, check_product, check_product_out};
use tessera_catalogue::testkit::fp8::{block_reference, block_scales};
use tessera_catalogue::testkit::reference::matmul_reference;
use tessera_catalogue::OutputFormat::{Bf16, F32};
use tessera_catalogue::{Activation, BiasKind};
use tessera_catalogue::{Algo, HostMatrix, Precision};
use tessera_emulator::ops::{matmul_fp8, transpose_b8, HostEpilogue, HostFp8Scales};

/// No fused epilogue.
fn none() -> HostEpilogue {
    HostEpilogue::default()
}

/// Shapes: one element; a partial K-step (K = 272: two whole steps of 128 and 16); rows past one
/// 128-row tile and columns below one tile; several column tiles with a ragged last one.
const SHAPES: [(usize, usize, usize); 4] = [(1, 1, 16), (130, 70, 272), (65, 257, 144), (200, 136, 528)];

/// `got / (sa·sb)` checked against the f64 product of the FP8-rounded inputs (`sa·sb` a power of
/// two: the division is exact).
fn check_scaled(p: Precision, a: &HostMatrix, b: &HostMatrix, got: &HostMatrix, scale: f32) -> Result<(), String> {
    let unscaled = HostMatrix { rows: got.rows, cols: got.cols, data: got.data.iter().map(|x| x / scale).collect() };
    check_in(p, a, b, &unscaled).map_err(|e| e.to_string())
}

#[test]
fn every_fp8_kernel_and_auto_matches_the_reference_with_its_scales() {
    let cases = fp8_cases();
    assert_eq!(cases.len(), 14, "twelve kernels and Auto in two formats");
    for (algo, precision) in cases {
        let blocked = algo.config().is_some_and(|c| c.fp8_block_scales);
        for (i, &(m, n, k)) in SHAPES.iter().enumerate() {
            // Inputs of a few units: well inside both formats' ranges (E4M3's ±448).
            let a = HostMatrix::random(m, k, 100 + i as u64);
            let b = HostMatrix::random(k, n, 200 + i as u64);
            if blocked {
                let (sa, sb) = block_scales(m, n, k);
                let scales = HostFp8Scales::Blocks { a: sa.clone(), b: sb.clone() };
                let got =
                    matmul_fp8(precision, algo, &a, &b, &scales, F32, &none()).unwrap_or_else(|e| panic!("{algo:?} {m}×{n}×{k}: {e}"));
                check_product(precision, &got.data, &block_reference(precision, &a, &b, &sa, &sb))
                    .unwrap_or_else(|e| panic!("{} ({precision:?}) {m}×{n}×{k} block scales: {e}", algo.label()));
                continue;
            }
            // Unit scales on every other shape, two powers of two on the rest (CI's time).
            let scales = if i % 2 == 0 { [1.0, 1.0] } else { [0.5, 4.0] };
            let got = matmul_fp8(precision, algo, &a, &b, &HostFp8Scales::PerTensor(scales), F32, &none())
                .unwrap_or_else(|e| panic!("{algo:?} {m}×{n}×{k}: {e}"));
            check_scaled(precision, &a, &b, &got, scales[0] * scales[1])
                .unwrap_or_else(|e| panic!("{} ({precision:?}) {m}×{n}×{k} scales {scales:?}: {e}", algo.label()));
        }
    }
}

#[test]
fn auto_takes_the_block_scaled_kernel_for_block_scales_and_named_kernels_must_match() {
    let (m, n, k) = (70, 130, 384);
    let (a, b) = (HostMatrix::random(m, k, 7), HostMatrix::random(k, n, 8));
    let (sa, sb) = block_scales(m, n, k);
    let scales = HostFp8Scales::Blocks { a: sa.clone(), b: sb.clone() };
    let got = matmul_fp8(Precision::Fp8E5m2, Algo::Auto, &a, &b, &scales, F32, &none()).unwrap();
    check_product(Precision::Fp8E5m2, &got.data, &block_reference(Precision::Fp8E5m2, &a, &b, &sa, &sb)).unwrap();
    let err = matmul_fp8(Precision::Fp8E4m3, Algo::Fp8E4m3, &a, &b, &scales, F32, &none()).unwrap_err().to_string();
    assert!(err.contains("per-tensor scales"), "{err}");
    let err = matmul_fp8(Precision::Fp8E4m3, Algo::Fp8E4m3Blocks, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &none())
        .unwrap_err()
        .to_string();
    assert!(err.contains("block scales"), "{err}");
    let short = HostFp8Scales::Blocks { a: sa[1..].to_vec(), b: sb };
    assert!(matmul_fp8(Precision::Fp8E4m3, Algo::Auto, &a, &b, &short, F32, &none()).is_err());
}

#[test]
fn a_missing_scale_is_one_and_saturated_inputs_multiply_as_rounded() {
    // Values past E4M3's range saturate to ±448 on the way in (as `Gpu::convert_to_fp8` does); the
    // reference rounds them alike, so the product must still match.
    let a = HostMatrix::from_fn(64, 32, |r, c| if (r + c) % 7 == 0 { 1000.0 } else { (r as f32 - c as f32) * 0.25 });
    let b = HostMatrix::from_fn(32, 48, |r, c| if (r * c) % 5 == 1 { -600.0 } else { 0.125 * (r % 4) as f32 });
    let got = matmul_fp8(Precision::Fp8E4m3, Algo::Auto, &a, &b, &HostFp8Scales::PerTensor([1.0, 1.0]), F32, &none()).unwrap();
    check_in(Precision::Fp8E4m3, &a, &b, &got).unwrap();
}

#[test]
fn k_not_a_multiple_of_16_is_refused_before_any_launch() {
    for k in [1, 15, 24, 100] {
        let (a, b) = (HostMatrix::random(8, k, 1), HostMatrix::random(k, 8, 2));
        let err =
            matmul_fp8(Precision::Fp8E5m2, Algo::Auto, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &none()).unwrap_err().to_string();
        assert!(err.contains("multiple of 16"), "K = {k}: {err}");
    }
    let (a, b) = (HostMatrix::random(8, 16, 1), HostMatrix::random(16, 8, 2));
    let err = matmul_fp8(Precision::Bf16, Algo::Auto, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &none()).unwrap_err().to_string();
    assert!(err.contains("not an FP8 format"), "{err}");
    let err =
        matmul_fp8(Precision::Fp8E4m3, Algo::Fp8E5m2, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &none()).unwrap_err().to_string();
    assert!(err.contains("Fp8E5m2") || err.contains("e5m2"), "a kernel of the other format: {err}");
}

#[test]
fn bf16_output_is_the_product_rounded_once_in_every_row_width() {
    // N a multiple of 4 (8-byte stores), even, odd; one with block scales; a plan with K slices in
    // f32 (few tiles, deep K) runs unsliced for BF16.
    for (algo, p, (m, n, k)) in [
        (Algo::Auto, Precision::Fp8E4m3, (130, 136, 272)),
        (Algo::Fp8E5m2, Precision::Fp8E5m2, (65, 70, 144)),
        (Algo::Fp8E4m3, Precision::Fp8E4m3, (33, 257, 160)),
        (Algo::Auto, Precision::Fp8E4m3, (64, 64, 4096)),
    ] {
        let (a, b) = (HostMatrix::random(m, k, 31), HostMatrix::random(k, n, 32));
        let got =
            matmul_fp8(p, algo, &a, &b, &HostFp8Scales::PerTensor([0.5, 4.0]), Bf16, &none()).unwrap_or_else(|e| panic!("{algo:?}: {e}"));
        assert!(got.data.iter().all(|x| half::bf16::from_f32(*x).to_f32() == *x), "{algo:?}: values that are not BF16");
        let round = |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
        let mut reference = matmul_reference(&round(&a), &round(&b));
        reference.value.iter_mut().chain(reference.abs_sum.iter_mut()).for_each(|v| *v *= 2.0);
        check_product_out(p, Bf16, &got.data, &reference).unwrap_or_else(|e| panic!("{} {m}×{n}×{k} BF16 out: {e}", algo.label()));
    }
    let (m, n, k) = (70, 130, 384);
    let (a, b) = (HostMatrix::random(m, k, 33), HostMatrix::random(k, n, 34));
    let (sa, sb) = block_scales(m, n, k);
    let got =
        matmul_fp8(Precision::Fp8E4m3, Algo::Auto, &a, &b, &HostFp8Scales::Blocks { a: sa.clone(), b: sb.clone() }, Bf16, &none()).unwrap();
    check_product_out(Precision::Fp8E4m3, Bf16, &got.data, &block_reference(Precision::Fp8E4m3, &a, &b, &sa, &sb)).unwrap();
    // 64×64×4096: one tile, deep K — sliced in f32, whole for BF16.
    let planner = tessera_catalogue::Planner::new("t", Algo::Auto, Precision::Fp8E4m3, tessera_catalogue::Target::H200);
    let dims = tessera_catalogue::plan::blocks::GemmDims { m: 64, n: 64, k: 4096 };
    let splits = |pl: tessera_catalogue::Planner<'_>| match pl.product(dims).unwrap() {
        tessera_catalogue::Plan::One(l) => (l.launch.splits, l.launch.zero_c, l.launch.dims.grid.1),
        other => panic!("{other:?}"),
    };
    let (sliced, whole) = (splits(planner), splits(planner.with_output(Bf16)));
    assert!(sliced.0 > 1 && sliced.1, "f32: {sliced:?}");
    assert_eq!(whole, (1, false, 1), "BF16");
    // The unpromoted kernels write f32 only.
    let (a, b) = (HostMatrix::random(8, 32, 1), HostMatrix::random(32, 8, 2));
    let err = matmul_fp8(Precision::Fp8E4m3, Algo::Fp8E4m3Fast, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), Bf16, &none())
        .unwrap_err()
        .to_string();
    assert!(err.contains("f32 only"), "{err}");
    // A kernel that writes f32 only is refused for BF16 output.
    let err = tessera_catalogue::Planner::new("t", Algo::TmaBf16, Precision::Bf16, tessera_catalogue::Target::H200)
        .with_output(Bf16)
        .product(tessera_catalogue::plan::blocks::GemmDims { m: 64, n: 64, k: 64 })
        .unwrap_err()
        .to_string();
    assert!(err.contains("f32 only"), "{err}");
}

#[test]
fn fused_epilogues_apply_each_activation_and_bias_once() {
    // Every activation with a per-column bias, a per-row bias and none, f32 and BF16 out; per-tensor
    // scales (Auto: the 128- and 64-row tiles) and block scales.
    let cases = [(Algo::Auto, (130, 70, 272)), (Algo::Auto, (33, 136, 144)), (Algo::Fp8E4m3Blocks, (65, 130, 256))];
    for (algo, (m, n, k)) in cases {
        let (a, b) = (HostMatrix::random(m, k, 51), HostMatrix::random(k, n, 52));
        let p = Precision::Fp8E4m3;
        let blocked = algo == Algo::Fp8E4m3Blocks;
        let (sa, sb) = block_scales(m, n, k);
        let scales = if blocked { HostFp8Scales::Blocks { a: sa.clone(), b: sb.clone() } } else { HostFp8Scales::PerTensor([0.5, 4.0]) };
        let reference = if blocked {
            block_reference(p, &a, &b, &sa, &sb)
        } else {
            let round =
                |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
            let mut r = matmul_reference(&round(&a), &round(&b));
            r.value.iter_mut().chain(r.abs_sum.iter_mut()).for_each(|v| *v *= 2.0);
            r
        };
        for (i, activation) in Activation::ALL.into_iter().enumerate() {
            for (j, kind) in [None, Some(BiasKind::PerColumn), Some(BiasKind::PerRow)].into_iter().enumerate() {
                let values: Option<Vec<f32>> = kind.map(|k| (0..k.len(m, n)).map(|x| ((x * 7 % 11) as f32 - 5.0) * 0.25).collect());
                let epilogue = HostEpilogue { bias: kind.zip(values.clone()), activation };
                let output = if (i + j) % 2 == 0 { F32 } else { Bf16 };
                let got =
                    matmul_fp8(p, algo, &a, &b, &scales, output, &epilogue).unwrap_or_else(|e| panic!("{algo:?} {activation:?}: {e}"));
                let bias = |row: usize, col: usize| match (kind, &values) {
                    (Some(BiasKind::PerColumn), Some(v)) => f64::from(v[col]),
                    (Some(BiasKind::PerRow), Some(v)) => f64::from(v[row]),
                    _ => 0.0,
                };
                check_epilogue(p, output, activation, bias, &got.data, &reference)
                    .unwrap_or_else(|e| panic!("{} {m}×{n}×{k} {activation:?} bias {kind:?} {output:?}: {e}", algo.label()));
            }
        }
    }
    // A bias of the wrong length, and an epilogue on an unpromoted kernel, are refused.
    let (a, b) = (HostMatrix::random(8, 32, 1), HostMatrix::random(32, 8, 2));
    let short = HostEpilogue { bias: Some((BiasKind::PerColumn, vec![0.0; 7])), activation: Activation::Relu };
    assert!(matmul_fp8(Precision::Fp8E4m3, Algo::Auto, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &short).is_err());
    let relu = HostEpilogue { bias: None, activation: Activation::Relu };
    let err =
        matmul_fp8(Precision::Fp8E4m3, Algo::Fp8E4m3Fast, &a, &b, &HostFp8Scales::PerTensor([1.0; 2]), F32, &relu).unwrap_err().to_string();
    assert!(err.contains("no fused epilogue"), "{err}");
}

#[test]
fn pack_b8_transposes_every_byte_once() {
    for (k, n) in [(1, 1), (16, 33), (100, 7), (64, 300)] {
        let b: Vec<u8> = (0..k * n).map(|i| (i * 7 % 251) as u8).collect();
        let bt = transpose_b8(&b, k as u32, n as u32).unwrap();
        for r in 0..k {
            for c in 0..n {
                assert_eq!(bt[c * k + r], b[r * n + c], "{k}×{n} at {r},{c}");
            }
        }
    }
    assert!(transpose_b8(&[0; 10], 3, 4).is_err());
}
