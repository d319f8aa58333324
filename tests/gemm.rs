//! GPU parity of `Gpu::gemm` (`C = α·op(A)·op(B) + β·C`): every transpose × layouts (row-major,
//! column-major, mixed) × the `(α, β)` edge cases × odd, padded (sub-matrix) and offset views × every
//! precision, against the f64 reference with the derived tolerance, checking that nothing outside
//! `C`'s view changes; every catalogue kernel through `gemm`; random cases with proptest; and
//! `Gpu::gemm_with` (a bias, an activation, a 16-bit `C`) in each form of its plan.
use libtest_mimic::Trial;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tessera::catalogue::registry::algo::{case_label, matmul_cases};
use tessera::catalogue::testkit::gemm_case::{GemmCase, Views, SCALARS};
use tessera::{
    bf16, f16, Activation, Algo, BiasKind, DeviceBuffer, DeviceElement, GemmEpilogue, GemmParams, Gpu, Layout, MatrixMut, MatrixRef,
    OutputElement, Precision, Transpose,
};
use tessera_tests::{gpu_trial, run};

/// Uploads `case`'s buffers as `T`, runs the GEMM with `params`, downloads `C`'s buffer and checks it.
fn run_as<T: DeviceElement>(gpu: &Gpu, case: &GemmCase, params: GemmParams, seed: u64) -> Result<(), String> {
    let bufs = case.buffers(seed);
    let err = |e: tessera::Error| format!("{}: {e}", case.label());
    let convert = |v: &[f32]| -> Vec<T> { v.iter().map(|&x| T::from_f32(x)).collect() };
    let (a, b) =
        (DeviceBuffer::from_host(gpu, &convert(&bufs.a)).map_err(err)?, DeviceBuffer::from_host(gpu, &convert(&bufs.b)).map_err(err)?);
    let mut c = DeviceBuffer::from_host(gpu, &bufs.c).map_err(err)?;
    gpu.gemm(&params, MatrixRef::new(&a, bufs.a_desc), MatrixRef::new(&b, bufs.b_desc), MatrixMut::new(&mut c, bufs.c_desc))
        .map_err(err)?;
    case.check(&bufs, &c.to_host(gpu).map_err(err)?).map_err(|e| format!("{e} (seed {seed})"))
}

fn run_case(gpu: &Gpu, case: &GemmCase, algo: Algo) -> Result<(), String> {
    run_case_with(gpu, case, case.params().algo(algo))
}

fn run_case_with(gpu: &Gpu, case: &GemmCase, params: GemmParams) -> Result<(), String> {
    let seed = tessera_tests::seed((case.m * 131 + case.n * 7 + case.k) as u64);
    match case.precision {
        Precision::Fp32 | Precision::Tf32 => run_as::<f32>(gpu, case, params, seed),
        Precision::Bf16 => run_as::<bf16>(gpu, case, params, seed),
        Precision::Fp16 => run_as::<f16>(gpu, case, params, seed),
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(format!("{}: no FP8 GEMM kernel yet", case.label())),
    }
}

fn trial(case: GemmCase) -> Trial {
    gpu_trial(case.label(), move |g| run_case(g, &case, Algo::Auto))
}

/// `Gpu::gemm_with` on `case` with `T` inputs into a `C` of `O`: the bias and activation given, checked
/// by the one epilogue rule.
fn run_finished<T: DeviceElement, O: OutputElement>(
    gpu: &Gpu,
    case: &GemmCase,
    activation: Activation,
    kind: BiasKind,
) -> Result<(), String> {
    let output = O::FORMAT;
    let bufs = case.buffers(tessera_tests::seed((case.m * 131 + case.n * 7 + case.k) as u64));
    let err = |e: tessera::Error| format!("{} {output:?}: {e}", case.label());
    let convert = |v: &[f32]| -> Vec<T> { v.iter().map(|&x| T::from_f32(x)).collect() };
    let (a, b) =
        (DeviceBuffer::from_host(gpu, &convert(&bufs.a)).map_err(err)?, DeviceBuffer::from_host(gpu, &convert(&bufs.b)).map_err(err)?);
    let mut c = DeviceBuffer::from_host(gpu, &bufs.c.iter().map(|&x| O::from_f32(x)).collect::<Vec<O>>()).map_err(err)?;
    let values: Vec<f32> = (0..kind.len(case.m, case.n)).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect();
    let bias = DeviceBuffer::from_host(gpu, &values).map_err(err)?;
    let epilogue = GemmEpilogue::new().bias(kind, &bias).activation(activation);
    gpu.gemm_with(
        &case.params(),
        &epilogue,
        MatrixRef::new(&a, bufs.a_desc),
        MatrixRef::new(&b, bufs.b_desc),
        MatrixMut::new(&mut c, bufs.c_desc),
    )
    .map_err(err)?;
    let after: Vec<f32> = c.to_host(gpu).map_err(err)?.into_iter().map(|x| x.to_f32()).collect();
    case.check_finished(&bufs, &after, output, activation, Some((kind, &values)))
}

/// Each form of `gemm_with`'s plan in `precision`: one finishing launch (dense, `β = 0`), the same on a
/// column-major `C`, scratch and the finishing pass (padded, transposed, `β ≠ 0`), `α = 0` — into
/// `f32`, BF16 and FP16.
fn finished_in<T: DeviceElement>(gpu: &Gpu, precision: Precision) -> Result<(), String> {
    use Layout::{ColMajor as C, RowMajor as R};
    use Transpose::{No as N, Yes as Y};
    let forms = [
        ((N, N), [R, R, R], Views::Dense, (1.5, 0.0)),
        ((Y, N), [C, R, C], Views::Dense, (1.0, 0.0)),
        ((N, Y), [R, C, R], Views::Padded, (-1.5, 0.75)),
        ((N, N), [R, R, C], Views::Padded, (0.0, -2.0)),
    ];
    for (i, ((trans_a, trans_b), layouts, views, (alpha, beta))) in forms.into_iter().enumerate() {
        let case = GemmCase { alpha, beta, trans_a, trans_b, layouts, views, precision, ..GemmCase::new(300, 136, 264) };
        let (kind, other) = if i % 2 == 0 { (BiasKind::PerColumn, BiasKind::PerRow) } else { (BiasKind::PerRow, BiasKind::PerColumn) };
        run_finished::<T, f32>(gpu, &case, Activation::GeluTanh, kind)?;
        run_finished::<T, bf16>(gpu, &case, Activation::Silu, other)?;
        run_finished::<T, f16>(gpu, &case, Activation::Relu, kind)?;
    }
    Ok(())
}

/// A random case: any shape up to 200, transposes, layouts, views, and scalars including 0 and 1.
fn random_case(precision: Precision) -> impl Strategy<Value = GemmCase> {
    let layout = prop_oneof![Just(Layout::RowMajor), Just(Layout::ColMajor)];
    let trans = prop_oneof![Just(Transpose::No), Just(Transpose::Yes)];
    let views = prop_oneof![Just(Views::Dense), Just(Views::Padded), Just(Views::Offset)];
    let scalar = prop_oneof![Just(0.0f32), Just(1.0f32), -2.0f32..2.0];
    (
        (0usize..=200, 0usize..=200, 0usize..=200),
        (trans.clone(), trans),
        [layout.clone(), layout.clone(), layout],
        views,
        (scalar.clone(), scalar),
    )
        .prop_map(move |((m, n, k), (trans_a, trans_b), layouts, views, (alpha, beta))| GemmCase {
            m,
            n,
            k,
            alpha,
            beta,
            trans_a,
            trans_b,
            precision,
            layouts,
            views,
        })
}

fn main() {
    let mut trials = Vec::new();
    for p in Precision::ALL {
        // The cross product (4 transposes × 4 layout sets × 4 scalar pairs) on odd dense, padded and
        // offset views, including shapes whose interior blocks take the kernels' vector paths.
        for (m, n, k, views) in
            [(17, 33, 9, Views::Dense), (65, 63, 31, Views::Padded), (130, 132, 36, Views::Offset), (1, 1, 1, Views::Padded)]
        {
            trials.extend(GemmCase::matrix(m, n, k, p, &SCALARS, views).into_iter().map(trial));
        }
        // A larger one per transpose and layout: packs and epilogues of many tiles.
        trials.extend(GemmCase::matrix(260, 1028, 516, p, &[(1.5, -0.5)], Views::Padded).into_iter().map(trial));
        // K = 0 scales C by β; M = 0 and N = 0 leave the buffer alone.
        for (m, n, k) in [(5, 7, 0), (0, 4, 3), (4, 0, 3)] {
            for layouts in [[Layout::RowMajor; 3], [Layout::ColMajor; 3]] {
                trials.push(trial(GemmCase {
                    alpha: 1.5,
                    beta: -2.0,
                    layouts,
                    views: Views::Padded,
                    precision: p,
                    ..GemmCase::new(m, n, k)
                }));
            }
        }
        trials.push(gpu_trial(format!("prop_gemm_{}_random_cases", p.label()), move |g| {
            let mut runner = TestRunner::new(Config { cases: 64, failure_persistence: None, ..Config::default() });
            runner.run(&random_case(p), |case| run_case(g, &case, Algo::Auto).map_err(TestCaseError::fail)).map_err(|e| e.to_string())
        }));
    }
    trials.push(gpu_trial("gemm_with_fp32_finishes_its_sums_in_every_form", |g| finished_in::<f32>(g, Precision::Fp32)));
    trials.push(gpu_trial("gemm_with_tf32_finishes_its_sums_in_every_form", |g| finished_in::<f32>(g, Precision::Tf32)));
    trials.push(gpu_trial("gemm_with_bf16_finishes_its_sums_in_every_form", |g| finished_in::<bf16>(g, Precision::Bf16)));
    trials.push(gpu_trial("gemm_with_fp16_finishes_its_sums_in_every_form", |g| finished_in::<f16>(g, Precision::Fp16)));
    // K slices asked for by name (`GemmParams::k_slices`), more than the models take: split-K, kernel
    // 21, the persistent TMA kernel on a tiny output with a long K; then a refused request leaves the
    // GPU usable.
    let sliced = [
        (GemmCase::new(130, 70, 3000), Algo::SplitK64x64x16, 40),
        (GemmCase { precision: Precision::Bf16, ..GemmCase::new(33, 18, 2000) }, Algo::WidenedBf16, 9),
        (GemmCase { precision: Precision::Bf16, ..GemmCase::new(184, 40, 15336) }, Algo::PersistentBf16Rows64, 24),
        (GemmCase { precision: Precision::Bf16, ..GemmCase::new(184, 40, 15336) }, Algo::PersistentBf16Rows64, 1),
    ];
    for (case, algo, slices) in sliced {
        trials.push(gpu_trial(format!("{}_{}_{slices}_slices", case.label(), algo.label()), move |g| {
            run_case_with(g, &case, case.params().algo(algo).k_slices(slices))
        }));
    }
    // A split launch starts while `C`'s zeros are still being written (`dependent_launch`) and must
    // wait for them before its first add: a large `C` over a short K, so that each slice's K-loop ends
    // long before the zero kernel does, three times over a `C` of NaN each (β = 0: the case's `C`
    // starts as NaN; a missed wait leaves partial sums overwritten by zeros, or NaN).
    let racing = [
        (Precision::Fp32, Algo::SplitK64x64x16, 4),
        (Precision::Bf16, Algo::PersistentBf16Rows64, 2),
        (Precision::Bf16, Algo::MmaSplitKBf16Rows64, 2),
        (Precision::Fp16, Algo::FewRowsF16, 2),
        (Precision::Bf16, Algo::FewColsKsplitBf16, 2),
    ];
    for (precision, algo, slices) in racing {
        // Kernel 19's K-split entry takes slices of 128 at least.
        let (m, n, k) = match algo {
            Algo::FewRowsF16 => (16, 1 << 18, 128),
            Algo::FewColsKsplitBf16 => (1 << 18, 8, 256),
            _ => (2048, 2048, 128),
        };
        let case = GemmCase { precision, ..GemmCase::new(m, n, k) };
        trials.push(gpu_trial(format!("{}_{}_slices_wait_for_c_zeros", case.label(), algo.label()), move |g| {
            (0..3).try_for_each(|_| run_case_with(g, &case, case.params().algo(algo).k_slices(slices)))
        }));
    }
    // `Auto` on tiny outputs over a deep K, where the models take more than `MAX_SPLITS` slices (all in
    // one round of the SMs: `tc_model::MAX_SPLITS_ONE_ROUND`).
    for (m, n, k, precision) in [(184, 37, 15336, Precision::Bf16), (64, 32, 5120, Precision::Fp16)] {
        let case = GemmCase { precision, ..GemmCase::new(m, n, k) };
        trials.push(gpu_trial(format!("{}_auto_one_round_slices", case.label()), move |g| run_case(g, &case, Algo::Auto)));
    }
    trials.push(gpu_trial("gemm_refuses_k_slices_for_auto_and_stays_usable", |g| {
        let case = GemmCase { precision: Precision::Bf16, ..GemmCase::new(64, 64, 256) };
        match run_case_with(g, &case, case.params().k_slices(4)) {
            Err(e) if e.contains("K slices") => run_case(g, &case, Algo::Auto),
            other => Err(format!("Auto with K slices: expected a refusal naming them, got {other:?}")),
        }
    }));
    // Every kernel of the catalogue through gemm: in place on offset views (column-major NN: no pack),
    // and on padded transposed views (packs and epilogue).
    for (algo, p) in matmul_cases() {
        let label = case_label(algo, p);
        // The TMA kernels take 16-byte rows only: their cases are rounded up to whole rows.
        let tma = algo.config().is_some_and(|c| c.tma || c.producer_copies);
        let (small, padded) = if tma { ((136, 136, 40), (136, 264, 72)) } else { ((130, 132, 36), (129, 260, 72)) };
        for case in [
            GemmCase { views: Views::Offset, layouts: [Layout::ColMajor; 3], precision: p, ..GemmCase::new(small.0, small.1, small.2) },
            GemmCase {
                views: Views::Padded,
                trans_a: Transpose::Yes,
                alpha: 0.5,
                beta: 2.0,
                precision: p,
                ..GemmCase::new(padded.0, padded.1, padded.2)
            },
        ] {
            trials.push(gpu_trial(format!("{}_{label}", case.label()), move |g| run_case(g, &case, algo)));
        }
    }
    run(trials)
}
