//! GPU parity of the `cublasGemmEx` baselines: each precision against the f64 reference of its
//! rounded inputs, with `Precision::tolerance` (anchors/src/precision.rs says why that rule).
//!
//! Without a GPU every trial is reported as *ignored* with one `skipped: no CUDA device` line.

use half::{bf16, f16};
use tessera::catalogue::testkit::check::check_product;
use tessera::catalogue::testkit::gemm_case::{GemmCase, Views, SCALARS};
use tessera::catalogue::testkit::random::operands;
use tessera::reference::matmul_reference;
use tessera::{DeviceBuffer, DeviceElement, Gpu, HostMatrix, MatrixMut, MatrixRef};
use tessera_anchors::cublas_ex::GemmExInput;
use tessera_anchors::{Cublas, Precision};
use tessera_tests::{gpu_trial, run, seed};

/// (M, N, K): edge cases, odd leading dimensions (cuBLAS's non-tensor-core fallbacks for 16-bit
/// inputs), multiples of 8 (its tensor-core kernels), and K = 4096, where the rule still catches a
/// missing term for BF16 and FP16.
const SHAPES: [(usize, usize, usize); 6] = [(1, 1, 1), (17, 33, 9), (130, 72, 300), (512, 512, 512), (1000, 1037, 519), (4096, 64, 4096)];

const PRECISIONS: [Precision; 4] = Precision::ALL;

fn check(gpu: &Gpu, p: Precision, (m, n, k): (usize, usize, usize)) -> Result<(), String> {
    let seed = seed((m * 31 + n * 7 + k) as u64 ^ p as u64);
    let e = |e: &dyn std::fmt::Display| format!("{} {m}×{n}×{k}: {e}", p.label());
    let (a, b) = (operands(m * k, seed), operands(k * n, !seed));
    // The reference multiplies the inputs as the precision rounds them (TF32: to nearest; the rule
    // allows for the device rounding them otherwise).
    let round = |v: &[f32]| v.iter().map(|&x| p.round_input(x)).collect::<Vec<f32>>();
    let reference =
        matmul_reference(&HostMatrix::new(m, k, round(&a)).map_err(|x| e(&x))?, &HostMatrix::new(k, n, round(&b)).map_err(|x| e(&x))?);

    let cublas = Cublas::new(gpu).map_err(|x| e(&x))?;
    let mut dc = DeviceBuffer::from_host(gpu, &vec![f32::NAN; m * n]).map_err(|x| e(&x))?;
    match p {
        Precision::Fp32 | Precision::Tf32 => {
            // TF32 gets the unrounded f32 values: the rounding is cuBLAS's to do.
            let (da, db) = (DeviceBuffer::from_host(gpu, &a).map_err(|x| e(&x))?, DeviceBuffer::from_host(gpu, &b).map_err(|x| e(&x))?);
            cublas.gemm_f32_inputs(p, &da, &db, &mut dc, m, n, k).map_err(|x| e(&x))?;
        }
        Precision::Bf16 => {
            let conv = |v: &[f32]| v.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>();
            let da = DeviceBuffer::from_host(gpu, &conv(&a)).map_err(|x| e(&x))?;
            let db = DeviceBuffer::from_host(gpu, &conv(&b)).map_err(|x| e(&x))?;
            cublas.gemm_bf16(&da, &db, &mut dc, m, n, k).map_err(|x| e(&x))?;
        }
        Precision::Fp16 => {
            let conv = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
            let da = DeviceBuffer::from_host(gpu, &conv(&a)).map_err(|x| e(&x))?;
            let db = DeviceBuffer::from_host(gpu, &conv(&b)).map_err(|x| e(&x))?;
            cublas.gemm_f16(&da, &db, &mut dc, m, n, k).map_err(|x| e(&x))?;
        }
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => return Err(e(&"no FP8 anchor yet")),
    }
    gpu.synchronize().map_err(|x| e(&x))?;
    let got = dc.to_host(gpu).map_err(|x| e(&x))?;
    check_product(p, &got, &reference).map_err(|x| format!("{} (TESSERA_SEED={seed})", e(&x)))
}

/// K = 0: C is the zero matrix (written, not left as it was).
fn k_zero(gpu: &Gpu, p: Precision) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| format!("{} k = 0: {e}", p.label());
    let cublas = Cublas::new(gpu).map_err(|x| e(&x))?;
    let mut dc = DeviceBuffer::from_host(gpu, &[f32::NAN; 15]).map_err(|x| e(&x))?;
    match p {
        Precision::Fp32 | Precision::Tf32 => {
            let empty = DeviceBuffer::<f32>::zeros(gpu, 0).map_err(|x| e(&x))?;
            cublas.gemm_f32_inputs(p, &empty, &empty, &mut dc, 3, 5, 0)
        }
        Precision::Bf16 => {
            let empty = DeviceBuffer::<bf16>::zeros(gpu, 0).map_err(|x| e(&x))?;
            cublas.gemm_bf16(&empty, &empty, &mut dc, 3, 5, 0)
        }
        Precision::Fp16 => {
            let empty = DeviceBuffer::<f16>::zeros(gpu, 0).map_err(|x| e(&x))?;
            cublas.gemm_f16(&empty, &empty, &mut dc, 3, 5, 0)
        }
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => return Err(e(&"no FP8 anchor yet")),
    }
    .map_err(|x| e(&x))?;
    let got = dc.to_host(gpu).map_err(|x| e(&x))?;
    if got.iter().all(|&x| x == 0.0) {
        Ok(())
    } else {
        Err(e(&format!("{got:?}")))
    }
}

/// A wrong shape is refused before cuBLAS runs, and C is left untouched.
fn wrong_shape(gpu: &Gpu) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| format!("wrong shape: {e}");
    let cublas = Cublas::new(gpu).map_err(|x| e(&x))?;
    let a = DeviceBuffer::from_host(gpu, &[bf16::ONE; 6]).map_err(|x| e(&x))?;
    let mut c = DeviceBuffer::from_host(gpu, &[7.0f32; 8]).map_err(|x| e(&x))?;
    match cublas.gemm_bf16(&a, &a, &mut c, 2, 4, 3) {
        Err(tessera_anchors::AnchorError::Tessera(tessera::Error::BufferTooSmall { name: "B", len: 6, needed: 12, .. })) => {}
        other => return Err(e(&format!("expected BufferTooSmall for B, got {other:?}"))),
    }
    let got = c.to_host(gpu).map_err(|x| e(&x))?;
    if got == [7.0; 8] {
        Ok(())
    } else {
        Err(e(&format!("C changed: {got:?}")))
    }
}

fn main() {
    let mut trials = Vec::new();
    for p in PRECISIONS {
        for shape in SHAPES {
            let name = format!("cublas_ex_{}_{}x{}x{}", p.label(), shape.0, shape.1, shape.2);
            trials.push(gpu_trial(name, move |g| check(g, p, shape)));
        }
        trials.push(gpu_trial(format!("cublas_ex_{}_k0_gives_zeros", p.label()), move |g| k_zero(g, p)));
    }
    trials.push(gpu_trial("cublas_ex_wrong_shape_is_refused", wrong_shape));
    // The views baseline of Gpu::gemm: every transpose, layout set and (α, β) pair, padded views.
    for p in PRECISIONS {
        for case in GemmCase::matrix(65, 63, 31, p, &SCALARS, Views::Padded) {
            trials.push(gpu_trial(format!("cublas_views_{}", case.label()), move |g| views(g, &case)));
        }
    }

    run(trials)
}

/// `Cublas::gemm_views` on one GEMM case (views, transposes, scalars) against the f64 reference.
fn views(gpu: &Gpu, case: &GemmCase) -> Result<(), String> {
    fn run_as<T: GemmExInput + DeviceElement>(gpu: &Gpu, case: &GemmCase) -> Result<(), String> {
        let bufs = case.buffers(seed((case.m * 131 + case.n) as u64));
        let e = |x: &dyn std::fmt::Display| format!("{}: {x}", case.label());
        let conv = |v: &[f32]| v.iter().map(|&x| T::from_f32(x)).collect::<Vec<T>>();
        let (a, b) = (
            DeviceBuffer::from_host(gpu, &conv(&bufs.a)).map_err(|x| e(&x))?,
            DeviceBuffer::from_host(gpu, &conv(&bufs.b)).map_err(|x| e(&x))?,
        );
        let mut c = DeviceBuffer::from_host(gpu, &bufs.c).map_err(|x| e(&x))?;
        let cublas = Cublas::new(gpu).map_err(|x| e(&x))?;
        cublas
            .gemm_views(
                &case.params(),
                MatrixRef::new(&a, bufs.a_desc),
                MatrixRef::new(&b, bufs.b_desc),
                MatrixMut::new(&mut c, bufs.c_desc),
            )
            .map_err(|x| e(&x))?;
        case.check(&bufs, &c.to_host(gpu).map_err(|x| e(&x))?)
    }
    match case.precision {
        Precision::Fp32 | Precision::Tf32 => run_as::<f32>(gpu, case),
        Precision::Bf16 => run_as::<bf16>(gpu, case),
        Precision::Fp16 => run_as::<f16>(gpu, case),
        Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(format!("{}: no FP8 anchor yet", case.precision.label())),
    }
}
