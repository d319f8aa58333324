//! `C = act(α·op(A)·op(B) + β·C + bias)` on the CPU executor (`tessera_emulator::gemm::gemm_with`, the
//! host's `Gpu::gemm_with`): in FP32, TF32, BF16 and FP16, into `f32`, BF16 and FP16 `C`, through each
//! of its forms — the one launch of a kernel that finishes its sums (dense row-major `C`, `β = 0`), the
//! same with a column-major `C` (the kernels write `Cᵀ`: a bias per column of `C` is one per row of
//! theirs), the product into scratch and the finishing pass (padded views, transposes, `β ≠ 0`), and
//! `α = 0` (`act(β·C + bias)`) — each against the f64 reference through the one epilogue rule, nothing
//! outside `C`'s view written.
use tessera_catalogue::plan::gemm::{Layout, Transpose};
use tessera_catalogue::precision::Element;
use tessera_catalogue::testkit::gemm_case::{GemmCase, Views};
use tessera_catalogue::{Activation, BiasKind, OutputFormat, Precision};
use tessera_emulator::gemm::gemm_with;
use tessera_emulator::ops::HostEpilogue;

/// The forms of the plan, as cases of `m × n × k` in `precision`.
fn cases(precision: Precision) -> Vec<GemmCase> {
    use Layout::{ColMajor as C, RowMajor as R};
    use Transpose::{No as N, Yes as T};
    let case = |trans: (Transpose, Transpose), layouts, views, (alpha, beta)| GemmCase {
        m: 70,
        n: 36,
        k: 40,
        alpha,
        beta,
        trans_a: trans.0,
        trans_b: trans.1,
        precision,
        layouts,
        views,
    };
    vec![
        // One launch of a finishing kernel (α applied there).
        case((N, N), [R, R, R], Views::Dense, (1.5, 0.0)),
        // Column-major C: the kernels write Cᵀ.
        case((T, N), [C, R, C], Views::Dense, (1.0, 0.0)),
        // Scratch and the finishing pass: padded views, B transposed, β ≠ 0.
        case((N, T), [R, C, R], Views::Padded, (-1.5, 0.75)),
        // α = 0: act(β·C + bias), A and B not read.
        case((N, N), [R, R, C], Views::Padded, (0.0, -2.0)),
    ]
}

fn run_as<T: Element, O: Element>(case: &GemmCase, output: OutputFormat, activation: Activation, kind: BiasKind) -> Result<(), String> {
    let bufs = case.buffers(case.m as u64 * 131 + case.n as u64 * 7 + case.k as u64);
    let (a, b): (Vec<T>, Vec<T>) = (bufs.a.iter().map(|&x| T::from_f32(x)).collect(), bufs.b.iter().map(|&x| T::from_f32(x)).collect());
    let mut c: Vec<O> = bufs.c.iter().map(|&x| O::from_f32(x)).collect();
    let values: Vec<f32> = (0..kind.len(case.m, case.n)).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect();
    let epilogue = HostEpilogue { bias: Some((kind, values.clone())), activation };
    gemm_with(&case.params(), &epilogue, &a, bufs.a_desc, &b, bufs.b_desc, &mut c, bufs.c_desc)
        .map_err(|e| format!("{} {output:?}: {e}", case.label()))?;
    let after: Vec<f32> = c.iter().map(|x| x.to_f32()).collect();
    case.check_finished(&bufs, &after, output, activation, Some((kind, &values)))
        .map_err(|e| format!("{output:?} {activation:?} {kind:?}: {e}"))
}

fn run_in<T: Element>(precision: Precision) {
    for (i, case) in cases(precision).iter().enumerate() {
        // Alternate the epilogues over the forms: every form sees both bias kinds.
        let (activation, kind) =
            if i % 2 == 0 { (Activation::GeluTanh, BiasKind::PerColumn) } else { (Activation::Relu, BiasKind::PerRow) };
        let (act2, kind2) = if i % 2 == 0 { (Activation::Silu, BiasKind::PerRow) } else { (Activation::GeluErf, BiasKind::PerColumn) };
        run_as::<T, f32>(case, OutputFormat::F32, activation, kind).unwrap();
        run_as::<T, half::bf16>(case, OutputFormat::Bf16, act2, kind2).unwrap();
        run_as::<T, half::f16>(case, OutputFormat::F16, activation, kind2).unwrap();
    }
}

#[test]
fn fp32_gemm_finishes_its_sums_in_every_form() {
    run_in::<f32>(Precision::Fp32);
}

#[test]
fn tf32_gemm_finishes_its_sums_in_every_form() {
    run_in::<f32>(Precision::Tf32);
}

#[test]
fn bf16_gemm_finishes_its_sums_in_every_form() {
    run_in::<half::bf16>(Precision::Bf16);
}

#[test]
fn fp16_gemm_finishes_its_sums_in_every_form() {
    run_in::<half::f16>(Precision::Fp16);
}

#[test]
fn a_short_bias_is_refused_before_anything_runs() {
    let case = GemmCase::new(8, 8, 8);
    let bufs = case.buffers(3);
    let mut c = bufs.c.clone();
    let epilogue = HostEpilogue { bias: Some((BiasKind::PerColumn, vec![0.0; 7])), activation: Activation::Relu };
    let err = gemm_with(&case.params(), &epilogue, &bufs.a, bufs.a_desc, &bufs.b, bufs.b_desc, &mut c, bufs.c_desc).unwrap_err();
    assert!(err.to_string().contains("bias"), "{err}");
    assert_eq!(c.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), bufs.c.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
}
