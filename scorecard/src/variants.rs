//! `--gemm-variants`: what a transpose or a column-major layout costs through `Gpu::gemm`. Per size
//! and precision of the run: NN, NT, TN, TT on row-major matrices and NN, NT on column-major ones,
//! each timed with its pack passes and epilogue inside the timed work, beside the plain `Gpu::matmul`
//! (Auto) and cuBLAS `GemmEx` with the *same* transposes and layouts (cuBLAS transposes natively).
use tessera::catalogue::plan::gemm::{GemmArgs, GemmPlan, Operand, OperandPlan, Output};
use tessera::catalogue::testkit::check::gemm_tolerance;
use tessera::{
    bf16, f16, Algo, DeviceBuffer, DeviceElement, DeviceMatrix, GemmParams, Gpu, HostMatrix, Layout, MatmulShape, MatrixDesc, MatrixMut,
    MatrixRef, Precision, Transpose,
};
use tessera_anchors::cublas_ex::GemmExInput;
use tessera_anchors::Cublas;

use crate::gpu::time;
use crate::report::{shape_label, Check, VariantRow};
use crate::{Fail, Problem};

const VARIANTS: [(Transpose, Transpose, Layout); 6] = [
    (Transpose::No, Transpose::No, Layout::RowMajor),
    (Transpose::No, Transpose::Yes, Layout::RowMajor),
    (Transpose::Yes, Transpose::No, Layout::RowMajor),
    (Transpose::Yes, Transpose::Yes, Layout::RowMajor),
    (Transpose::No, Transpose::No, Layout::ColMajor),
    (Transpose::No, Transpose::Yes, Layout::ColMajor),
];

fn s<E: std::fmt::Display>(e: E) -> Fail {
    e.to_string().into()
}

/// The views of one variant: `op(A)` m×k, `op(B)` k×n, `C` m×n, all dense in `layout`.
fn descs(shape: MatmulShape, ta: Transpose, tb: Transpose, layout: Layout) -> (MatrixDesc, MatrixDesc, MatrixDesc) {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    let stored = |r: usize, c: usize, t: Transpose| if t == Transpose::No { (r, c) } else { (c, r) };
    let ((ar, ac), (br, bc)) = (stored(m, k, ta), stored(k, n, tb));
    (MatrixDesc::dense(ar, ac, layout), MatrixDesc::dense(br, bc, layout), MatrixDesc::dense(m, n, layout))
}

/// The plan's extra passes in words ("none", "pack B (transpose)", "transposing epilogue", …).
fn describe(args: &GemmArgs) -> String {
    let Ok(GemmPlan::Product(p)) = args.plan() else { return "—".into() };
    let mut parts = Vec::new();
    for o in [p.x, p.y] {
        if let OperandPlan::Pack(pk) = o {
            let name = if pk.source == Operand::A { "A" } else { "B" };
            parts.push(format!("pack {name} ({})", if pk.transposed { "transpose" } else { "copy" }));
        }
    }
    match p.output {
        Output::Direct if p.alpha != 1.0 => parts.push("α scaling".into()),
        Output::Direct => {}
        Output::Scratch { transposed: true } => parts.push("transposing epilogue".into()),
        Output::Scratch { transposed: false } => parts.push("epilogue".into()),
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(" + ")
    }
}

/// Checks 64 sampled elements of `got` (C in `c_desc`) against the f64 reference of `op(A)·op(B)` of
/// the host operands (values already exact in the input type).
fn sampled_check(
    p: Precision,
    shape: MatmulShape,
    (a, ad, ta): (&[f32], MatrixDesc, Transpose),
    (b, bd, tb): (&[f32], MatrixDesc, Transpose),
    got: &[f32],
    cd: MatrixDesc,
) -> Check {
    let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
    let at = |d: MatrixDesc, t: Transpose, data: &[f32], r: usize, c: usize| {
        let (r, c) = if t == Transpose::No { (r, c) } else { (c, r) };
        f64::from(p.round_input(data[d.offset + d.index(r, c)]))
    };
    for s in 0..64usize {
        let (i, j) = ((s * 7919) % m, (s * 104_729 + s / 3) % n);
        let (mut v, mut abs) = (0.0f64, 0.0f64);
        for q in 0..k {
            let prod = at(ad, ta, a, i, q) * at(bd, tb, b, q, j);
            v += prod;
            abs += prod.abs();
        }
        let g = f64::from(got[cd.offset + cd.index(i, j)]);
        // NaN never passes: the comparison is false for it.
        let within = (g - v).abs() <= gemm_tolerance(p, k, 1.0, abs, 0.0);
        if !within {
            eprintln!("[scorecard] variant check failed ({}): C({i}, {j}) = {g}, expected {v}", p.label());
            return Check::Failed;
        }
    }
    Check::Ok
}

/// Measures every variant of `precision` at `problem`'s size.
fn measure_precision<T: DeviceElement + GemmExInput>(
    gpu: &Gpu,
    cublas: &Cublas,
    problem: &Problem,
    precision: Precision,
    repeat: usize,
) -> Result<Vec<VariantRow>, Fail> {
    let shape = problem.shape;
    let (da, db) = (DeviceMatrix::<T>::from_host(gpu, &problem.a).map_err(s)?, DeviceMatrix::<T>::from_host(gpu, &problem.b).map_err(s)?);
    let mut dc = DeviceMatrix::<f32>::zeros(gpu, shape.m as usize, shape.n as usize).map_err(s)?;
    // The host values as the device holds them (for the sampled reference).
    let exact = |h: &HostMatrix| h.data.iter().map(|&x| T::from_f32(x).to_f32()).collect::<Vec<f32>>();
    let (ha, hb) = (exact(&problem.a), exact(&problem.b));
    let base = if precision == Precision::Tf32 { GemmParams::new().precision(Precision::Tf32) } else { GemmParams::new() };
    let matmul_ms = time(gpu, repeat, || match precision {
        Precision::Tf32 => gpu.matmul_tf32(Algo::Auto, as_f32(&da)?, as_f32(&db)?, &mut dc).map_err(s),
        _ => gpu.matmul(Algo::Auto, &da, &db, &mut dc).map_err(s),
    })?;
    let mut rows = Vec::new();
    for (ta, tb, layout) in VARIANTS {
        let (ad, bd, cd) = descs(shape, ta, tb, layout);
        let params = base.trans_a(ta).trans_b(tb);
        let args = GemmArgs {
            alpha: 1.0,
            beta: 0.0,
            a: ad,
            a_len: da.buffer().len(),
            trans_a: ta,
            b: bd,
            b_len: db.buffer().len(),
            trans_b: tb,
            c: cd,
            c_len: dc.buffer().len(),
            elem_bytes: std::mem::size_of::<T>(),
        };
        let ops = format!("{}{}", ta.label(), tb.label());
        let label = if layout == Layout::RowMajor { "row-major" } else { "column-major" };
        eprintln!("[scorecard] variant {} {} {ops} {label}", shape_label(shape), precision.label());
        let mut run_tessera = |c: &mut DeviceBuffer<f32>| {
            gpu.gemm(&params, MatrixRef::new(da.buffer(), ad), MatrixRef::new(db.buffer(), bd), MatrixMut::new(c, cd)).map_err(s)
        };
        let c_len = dc.buffer().len();
        let check_once = |run: &mut dyn FnMut(&mut DeviceBuffer<f32>) -> Result<(), Fail>| -> Result<Check, Fail> {
            let mut c = DeviceBuffer::from_host(gpu, &vec![f32::NAN; c_len]).map_err(s)?;
            run(&mut c)?;
            let got = c.to_host(gpu).map_err(s)?;
            Ok(sampled_check(precision, shape, (&ha, ad, ta), (&hb, bd, tb), &got, cd))
        };
        let check = check_once(&mut run_tessera)?;
        let ms = time(gpu, repeat, || run_tessera(dc.buffer_mut()))?;
        let mut run_cublas = |c: &mut DeviceBuffer<f32>| {
            cublas.gemm_views(&params, MatrixRef::new(da.buffer(), ad), MatrixRef::new(db.buffer(), bd), MatrixMut::new(c, cd)).map_err(s)
        };
        let cublas_check = check_once(&mut run_cublas)?;
        let cublas_ms = time(gpu, repeat, || run_cublas(dc.buffer_mut()))?;
        rows.push(VariantRow {
            size: shape_label(shape),
            precision: precision.label().into(),
            ops,
            layout: label.into(),
            extra: describe(&args),
            ms,
            tflops: shape.flops() / (ms * 1e-3) / 1e12,
            matmul_ms,
            cublas_ms,
            cublas_tflops: shape.flops() / (cublas_ms * 1e-3) / 1e12,
            check,
            cublas_check,
        });
    }
    Ok(rows)
}

/// `m` as an f32 matrix (the TF32 path; `T` is `f32` whenever the precision is TF32).
fn as_f32<T: DeviceElement>(m: &DeviceMatrix<T>) -> Result<&DeviceMatrix<f32>, Fail> {
    (m as &dyn std::any::Any).downcast_ref::<DeviceMatrix<f32>>().ok_or_else(|| "TF32 needs f32 operands".into())
}

/// Every variant of every precision at every problem size.
pub fn measure(gpu: &Gpu, problems: &[Problem], precisions: &[Precision], repeat: usize) -> Result<Vec<VariantRow>, Fail> {
    let cublas = Cublas::new(gpu).map_err(s)?;
    let mut rows = Vec::new();
    for problem in problems {
        for &p in precisions {
            rows.extend(match p {
                Precision::Fp32 | Precision::Tf32 => measure_precision::<f32>(gpu, &cublas, problem, p, repeat)?,
                Precision::Bf16 => measure_precision::<bf16>(gpu, &cublas, problem, p, repeat)?,
                Precision::Fp16 => measure_precision::<f16>(gpu, &cublas, problem, p, repeat)?,
                Precision::Fp8E4m3 | Precision::Fp8E5m2 => return Err(format!("{}: no FP8 GEMM kernel yet", p.label()).into()),
            });
        }
    }
    Ok(rows)
}
