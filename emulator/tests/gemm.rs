//! `C = α·op(A)·op(B) + β·C` on the CPU executor (CI's check of the GEMM path without a GPU): every
//! transpose × layouts (row-major, column-major, mixed) × `(α, β)` edge cases × odd and padded shapes,
//! in every precision, against the f64 reference; plus BLAS's edge cases and the refused arguments.
use libtest_mimic::{Arguments, Failed, Trial};
use tessera_catalogue::plan::gemm::{GemmParams, Layout, MatrixDesc, Transpose};
use tessera_catalogue::precision::Element;
use tessera_catalogue::testkit::gemm_case::{GemmCase, Views, SCALARS, SENTINEL};
use tessera_catalogue::{Algo, Precision};
use tessera_emulator::gemm::gemm;

/// Runs `case` on the executor with `T` inputs, `params` for its kernel and schedule, and checks it.
fn run_as<T: Element>(case: &GemmCase, params: GemmParams) -> Result<(), String> {
    let bufs = case.buffers(case.m as u64 * 131 + case.n as u64 * 7 + case.k as u64);
    let (a, b): (Vec<T>, Vec<T>) = (bufs.a.iter().map(|&x| T::from_f32(x)).collect(), bufs.b.iter().map(|&x| T::from_f32(x)).collect());
    let mut c = bufs.c.clone();
    gemm(&params, &a, bufs.a_desc, &b, bufs.b_desc, &mut c, bufs.c_desc).map_err(|e| format!("{}: {e}", case.label()))?;
    case.check(&bufs, &c)
}

fn run(case: &GemmCase, algo: Algo) -> Result<(), String> {
    run_with(case, case.params().algo(algo))
}

fn run_with(case: &GemmCase, params: GemmParams) -> Result<(), String> {
    match case.precision {
        Precision::Fp32 | Precision::Tf32 => run_as::<f32>(case, params),
        Precision::Bf16 => run_as::<half::bf16>(case, params),
        Precision::Fp16 => run_as::<half::f16>(case, params),
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(format!("{}: no FP8 GEMM kernel yet", case.label())),
    }
}

fn trial(case: GemmCase) -> Trial {
    Trial::test(case.label(), move || run(&case, Algo::Auto).map_err(Failed::from))
}

fn main() {
    let mut trials = Vec::new();
    // FP32: the whole cross product on an odd dense shape; FP32 and BF16 on an odd padded one (BF16
    // with the general scalars and β = 0 only: the GPU suite runs every pair in every precision).
    trials.extend(GemmCase::matrix(17, 33, 9, Precision::Fp32, &SCALARS, Views::Dense).into_iter().map(trial));
    trials.extend(GemmCase::matrix(33, 18, 40, Precision::Fp32, &SCALARS, Views::Padded).into_iter().map(trial));
    trials.extend(GemmCase::matrix(33, 18, 40, Precision::Bf16, &[SCALARS[1], SCALARS[3]], Views::Padded).into_iter().map(trial));
    // TF32 and FP16: every transpose and layout, general scalars, padded.
    for p in [Precision::Tf32, Precision::Fp16] {
        trials.extend(GemmCase::matrix(19, 24, 17, p, &[(-1.5, 0.75)], Views::Padded).into_iter().map(trial));
    }
    // K = 0 scales C by β; M = 0 and N = 0 leave the buffer alone.
    for (m, n, k) in [(5, 7, 0), (0, 4, 3), (4, 0, 3)] {
        for layouts in [[Layout::RowMajor; 3], [Layout::ColMajor; 3]] {
            trials.push(trial(GemmCase { alpha: 1.5, beta: -2.0, layouts, views: Views::Padded, ..GemmCase::new(m, n, k) }));
        }
    }
    // Views at an aligned offset: the kernels read A, B and write C in place (no pack, no epilogue).
    for p in [Precision::Fp32, Precision::Bf16] {
        trials.push(trial(GemmCase { views: Views::Offset, ..GemmCase { precision: p, ..GemmCase::new(20, 36, 12) } }));
    }
    // Split-K into C directly (its zeroing must stay inside C's view) and into scratch.
    for (beta, layouts) in [(0.0, [Layout::RowMajor; 3]), (0.5, [Layout::ColMajor; 3])] {
        let case = GemmCase { beta, layouts, trans_b: Transpose::Yes, ..GemmCase::new(130, 70, 300) };
        trials.push(Trial::test(format!("{}_splitk", case.label()), move || run(&case, Algo::SplitK64x64x16).map_err(Failed::from)));
    }
    // K slices asked for by name: split-K (FP32; into C and into column-major scratch), kernel 21 on
    // BF16 inputs, the persistent TMA kernel — each with more slices than the models would take.
    let sliced = [
        (GemmCase::new(130, 70, 300), Algo::SplitK64x64x16, 13),
        (GemmCase { beta: 0.5, layouts: [Layout::ColMajor; 3], ..GemmCase::new(66, 40, 200) }, Algo::SplitK64x64x16, 5),
        (GemmCase { precision: Precision::Bf16, ..GemmCase::new(33, 18, 200) }, Algo::WidenedBf16, 7),
        (GemmCase { precision: Precision::Bf16, ..GemmCase::new(40, 36, 1000) }, Algo::PersistentBf16Rows64, 15),
    ];
    for (case, algo, slices) in sliced {
        let name = format!("{}_{}_{slices}_slices", case.label(), algo.label());
        trials.push(Trial::test(name, move || run_with(&case, case.params().algo(algo).k_slices(slices)).map_err(Failed::from)));
    }
    trials.push(Trial::test("gemm_refuses_bad_k_slices", || refuses_bad_k_slices().map_err(Failed::from)));
    trials.push(Trial::test("gemm_refuses_bad_arguments", || refuses_bad_arguments().map_err(Failed::from)));
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

/// K slices for `Auto`, for a kernel that takes none, zero slices or more than K-steps are refused
/// before any kernel runs, `C` left as it was.
fn refuses_bad_k_slices() -> Result<(), String> {
    let (m, n, k) = (20, 24, 64);
    let (a, b) = (vec![1.0f32; m * k], vec![1.0f32; k * n]);
    let mut c = vec![SENTINEL; m * n];
    let (ad, bd, cd) = (MatrixDesc::row_major(m, k), MatrixDesc::row_major(k, n), MatrixDesc::row_major(m, n));
    let p = GemmParams::new();
    let bad = [
        ("Auto", p.k_slices(2)),
        ("a kernel without slices", p.algo(Algo::Dbuf64x64x16).k_slices(2)),
        ("no slice", p.algo(Algo::SplitK64x64x16).k_slices(0)),
        // K = 64: four K-steps of 16.
        ("more slices than K-steps", p.algo(Algo::SplitK64x64x16).k_slices(5)),
    ];
    for (what, params) in bad {
        if gemm(&params, &a, ad, &b, bd, &mut c, cd).is_ok() {
            return Err(format!("{what}: accepted"));
        }
    }
    if c.iter().any(|x| x.to_bits() != SENTINEL.to_bits()) {
        return Err("C changed by a refused GEMM".into());
    }
    // Four slices of four steps: every output is K.
    gemm(&p.algo(Algo::SplitK64x64x16).k_slices(4), &a, ad, &b, bd, &mut c, cd).map_err(|e| e.to_string())?;
    if c.iter().all(|&x| x == k as f32) {
        Ok(())
    } else {
        Err(format!("ones·ones in four slices: {:?}", &c[..4]))
    }
}

/// Each inconsistent argument is refused before any kernel runs, and `C` is left as it was.
fn refuses_bad_arguments() -> Result<(), String> {
    let (a, b) = (vec![1.0f32; 20], vec![1.0f32; 15]);
    let mut c = vec![SENTINEL; 12];
    let (ad, bd, cd) = (MatrixDesc::row_major(4, 5), MatrixDesc::row_major(5, 3), MatrixDesc::row_major(4, 3));
    let p = GemmParams::new();
    let bad: [(&str, GemmParams, MatrixDesc, MatrixDesc, MatrixDesc); 6] = [
        ("ld below cols", p, ad.with_ld(4), bd, cd),
        ("column-major ld below rows", p, ad, bd, MatrixDesc::col_major(4, 3).with_ld(3)),
        ("view past the buffer", p, ad, bd.with_offset(1), cd),
        ("inner dimensions", p.trans_a(Transpose::Yes), ad, bd, cd),
        ("TF32 kernel on FP32 request", p.algo(Algo::MmaPipeTf32), ad, bd, cd),
        ("BF16 requested on f32 data", p.precision(Precision::Bf16), ad, bd, cd),
    ];
    for (what, params, ad, bd, cd) in bad {
        if gemm(&params, &a, ad, &b, bd, &mut c, cd).is_ok() {
            return Err(format!("{what}: accepted"));
        }
    }
    if c.iter().any(|x| x.to_bits() != SENTINEL.to_bits()) {
        return Err("C changed by a refused GEMM".into());
    }
    // The TF32 kernel is fine once TF32 is asked for.
    gemm(&p.algo(Algo::MmaPipeTf32).precision(Precision::Tf32), &a, ad, &b, bd, &mut c, cd).map_err(|e| e.to_string())?;
    if c.iter().all(|&x| x == 5.0) {
        Ok(())
    } else {
        Err(format!("TF32 ones·ones: {c:?}"))
    }
}
