//! Kernels 27 and 29 on the GPU (kernels 16 and 8 finishing their sums in their store:
//! `act(α·A·B + bias)`, `C` in `f32`, BF16 or FP16), through `Gpu::matmul_fused`: every entry and
//! `Auto` in BF16, FP16, TF32 and FP32
//! on odd shapes, every output type, activation and bias kind, against the f64 reference through the
//! one epilogue rule (`check_epilogue`); products chained back to back (each the dependent launch of
//! the one before); and the typed refusals, the `Gpu` usable after them.
//! Without a GPU each trial is reported ignored.
use tessera::catalogue::testkit::check::check_epilogue;
use tessera::catalogue::testkit::reference::{matmul_reference, ReferenceProduct};
use tessera::catalogue::{OutputFormat, MATMUL_KERNELS};
use tessera::{
    bf16, f16, Activation, Algo, BiasKind, DeviceBuffer, DeviceElement, DeviceMatrix, Error, FusedParams, Gpu, HostMatrix, OutputElement,
    Precision,
};
use tessera_tests::{gpu_trial, run};

fn reference(p: Precision, a: &HostMatrix, b: &HostMatrix, alpha: f32) -> ReferenceProduct {
    let round = |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
    let mut r = matmul_reference(&round(a), &round(b));
    r.value.iter_mut().for_each(|v| *v *= f64::from(alpha));
    r.abs_sum.iter_mut().for_each(|v| *v *= f64::from(alpha.abs()));
    r
}

/// `c = act(α·a·b + bias)` with inputs `T` (from `f32` by `from`) and output `O`, checked.
#[allow(clippy::too_many_arguments)]
fn case<T: DeviceElement, O: OutputElement>(
    gpu: &Gpu,
    p: Precision,
    algo: Algo,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    act: Activation,
    bias: Option<BiasKind>,
    from: fn(f32) -> T,
    to: fn(O) -> f32,
) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let (a, b) = (HostMatrix::random(m, k, 11), HostMatrix::random(k, n, 12));
    let up = |x: &HostMatrix| DeviceMatrix::from_slice(gpu, x.rows, x.cols, &x.data.iter().map(|&v| from(v)).collect::<Vec<T>>());
    let (da, db) = (up(&a).map_err(e)?, up(&b).map_err(e)?);
    let values: Vec<f32> = bias.map_or(Vec::new(), |kind| (0..kind.len(m, n)).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect());
    let dbias = DeviceBuffer::from_host(gpu, if values.is_empty() { &[0.0f32][..] } else { &values }).map_err(e)?;
    let mut params = FusedParams::new().algo(algo).alpha(alpha).activation(act);
    if p == Precision::Tf32 {
        params = params.precision(Precision::Tf32);
    }
    if let Some(kind) = bias {
        params = params.bias(kind, &dbias);
    }
    let mut c = DeviceMatrix::<O>::zeros(gpu, m, n).map_err(e)?;
    gpu.matmul_fused(&params, &da, &db, &mut c).map_err(|x| format!("{algo:?}: {x}"))?;
    let got: Vec<f32> = c.to_vec(gpu).map_err(e)?.into_iter().map(to).collect();
    let bias_at = |row: usize, col: usize| match bias {
        Some(BiasKind::PerColumn) => f64::from(values[col]),
        Some(BiasKind::PerRow) => f64::from(values[row]),
        None => 0.0,
    };
    check_epilogue(p, O::FORMAT, act, bias_at, &got, &reference(p, &a, &b, alpha))
        .map_err(|x| format!("{} ({p:?}) {m}×{n}×{k} α {alpha} {:?} {act:?} {bias:?}: {x}", algo.label(), O::FORMAT))
}

fn every_kernel(gpu: &Gpu) -> Result<(), String> {
    let kernels: Vec<(Algo, Precision, (usize, usize))> = MATMUL_KERNELS
        .iter()
        .filter(|k| k.config.fused_epilogue && !k.precision.is_fp8())
        .map(|k| (k.algo, k.precision, (k.config.bm as usize, k.config.bn as usize)))
        .chain([Precision::Bf16, Precision::Fp16, Precision::Tf32, Precision::Fp32].map(|p| (Algo::Auto, p, (128, 128))))
        .collect();
    let acts = [Activation::GeluTanh, Activation::Relu, Activation::Silu, Activation::GeluErf, Activation::Identity];
    for (i, &(algo, p, (bm, bn))) in kernels.iter().enumerate() {
        // Past one tile in rows and columns (N a multiple of 4), or half a tile's rows and N not.
        let shape = if i % 2 == 0 { (bm + 2, bn + 8, 72) } else { (bm / 2 + 1, bn + 10, 40) };
        let bias = [Some(BiasKind::PerColumn), Some(BiasKind::PerRow), None][i % 3];
        let (alpha, act) = ([1.0, 0.5, -2.0][i % 3], acts[i % acts.len()]);
        for out in [OutputFormat::F32, OutputFormat::Bf16, OutputFormat::F16] {
            match (p, out) {
                (Precision::Tf32 | Precision::Fp32, OutputFormat::F32) => case(gpu, p, algo, shape, alpha, act, bias, |x| x, |x: f32| x),
                (Precision::Tf32 | Precision::Fp32, OutputFormat::Bf16) => {
                    case(gpu, p, algo, shape, alpha, act, bias, |x| x, |x: bf16| x.to_f32())
                }
                (Precision::Tf32 | Precision::Fp32, OutputFormat::F16) => {
                    case(gpu, p, algo, shape, alpha, act, bias, |x| x, |x: f16| x.to_f32())
                }
                (Precision::Bf16, OutputFormat::F32) => case(gpu, p, algo, shape, alpha, act, bias, bf16::from_f32, |x: f32| x),
                (Precision::Bf16, OutputFormat::Bf16) => case(gpu, p, algo, shape, alpha, act, bias, bf16::from_f32, |x: bf16| x.to_f32()),
                (Precision::Bf16, OutputFormat::F16) => case(gpu, p, algo, shape, alpha, act, bias, bf16::from_f32, |x: f16| x.to_f32()),
                (_, OutputFormat::F32) => case(gpu, p, algo, shape, alpha, act, bias, f16::from_f32, |x: f32| x),
                (_, OutputFormat::Bf16) => case(gpu, p, algo, shape, alpha, act, bias, f16::from_f32, |x: bf16| x.to_f32()),
                (_, OutputFormat::F16) => case(gpu, p, algo, shape, alpha, act, bias, f16::from_f32, |x: f16| x.to_f32()),
            }?;
        }
    }
    Ok(())
}

/// Kernel 31 on more tiles than the GPU has SMs (140 × 3 = 420 of 64×256, 71 × 6 = 426 of 128×128,
/// 72 × 6 = 432 in pairs, the last row of pairs half below the matrix):
/// each block's two consumer warpgroups take turns over several units, every sum checked.
fn pingpong_turns(gpu: &Gpu) -> Result<(), String> {
    let units = [
        (Algo::PingPongBf16, Algo::PingPongF16, (64 * 140 + 5, 3 * 256 - 8, 136)),
        (Algo::PingPongBf16x128, Algo::PingPongF16x128, (128 * 70 + 5, 6 * 128 - 8, 136)),
        (Algo::PingPongPairsBf16x128, Algo::PingPongPairsF16x128, (128 * 71 + 5, 6 * 128 - 8, 136)),
    ];
    for (bf, half, shape) in units {
        let (gelu, column) = (Activation::GeluTanh, Some(BiasKind::PerColumn));
        case(gpu, Precision::Bf16, bf, shape, 0.5, gelu, column, bf16::from_f32, |x: bf16| x.to_f32())?;
        case(gpu, Precision::Fp16, half, shape, 1.0, Activation::Silu, Some(BiasKind::PerRow), f16::from_f32, |x: f32| x)?;
    }
    Ok(())
}

/// Products queued back to back, each reading the one before's output and overwriting the input
/// of the one before: `Y = X·P`, `X = Y·P`, … with `P` a permutation (every sum one exact product,
/// BF16 out), 24 launches, then `X` checked element by element against the permuted start. The TMA
/// kernels overlap the launch before them (`TESSERA_DEPENDENT_LAUNCH`): one that read or wrote
/// before that launch had finished would read a stale operand or have its input overwritten.
/// Shapes of one wave and of several, `Auto` and kernel 31 by name; `small`: shapes for
/// compute-sanitizer.
fn chained_products(gpu: &Gpu, small: bool) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let shapes = if small {
        [(Algo::Auto, 256), (Algo::Auto, 192), (Algo::PingPongBf16x128, 256)]
    } else {
        [(Algo::Auto, 2048), (Algo::Auto, 192), (Algo::PingPongBf16x128, 1024)]
    };
    for (algo, m) in shapes {
        // Column j of P holds its 1 in row f(j) = (5·j + 3) mod m (5 is coprime to these m).
        let f = |j: usize| (5 * j + 3) % m;
        let mut p = vec![bf16::ZERO; m * m];
        (0..m).for_each(|j| p[f(j) * m + j] = bf16::ONE);
        let start: Vec<bf16> = HostMatrix::random(m, m, 21).data.iter().map(|&v| bf16::from_f32(v)).collect();
        let dp = DeviceMatrix::from_slice(gpu, m, m, &p).map_err(e)?;
        let mut x = DeviceMatrix::from_slice(gpu, m, m, &start).map_err(e)?;
        let mut y = DeviceMatrix::<bf16>::zeros(gpu, m, m).map_err(e)?;
        let params = FusedParams::new().algo(algo);
        const STEPS: usize = 24;
        for _ in 0..STEPS / 2 {
            gpu.matmul_fused(&params, &x, &dp, &mut y).map_err(e)?;
            gpu.matmul_fused(&params, &y, &dp, &mut x).map_err(e)?;
        }
        let got = x.to_vec(gpu).map_err(e)?;
        // After t products X[r][j] = start[r][f^t(j)].
        let mut from: Vec<usize> = (0..m).collect();
        for _ in 0..STEPS {
            from.iter_mut().for_each(|c| *c = f(*c));
        }
        for r in 0..m {
            for j in 0..m {
                let (want, have) = (start[r * m + from[j]], got[r * m + j]);
                if want.to_bits() != have.to_bits() {
                    return Err(format!("{} {m}³ after {STEPS} chained products: ({r}, {j}) is {have}, not {want}", algo.label()));
                }
            }
        }
    }
    chained_f32(gpu, if small { 512 } else { 4096 })
}

/// [`chained_products`] through `f32` outputs, on the chained kernels that are
/// not TMA kernels: kernel 18 (`Y = X·P`, 16 rows), kernel 19 (`Y = P·X`, 4 columns) and kernel 20
/// in TF32 (`Y = X·P`, 16 rows; the values are BF16's, exact in TF32); `P` is `size × size`.
fn chained_f32(gpu: &Gpu, size: usize) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    const STEPS: usize = 24;
    for (algo, precision, left, (rows, m)) in [
        (Algo::FewRows, Precision::Fp32, false, (16, size)),
        (Algo::FewCols4, Precision::Fp32, true, (4, size)),
        (Algo::MmaSplitKTf32Rows16, Precision::Tf32, false, (16, size / 2)),
    ] {
        let f = |j: usize| (5 * j + 3) % m;
        // Right: P[f(j)][j] = 1, (X·P)[r][j] = X[r][f(j)]. Left: P[i][f(i)] = 1, (P·X)[i][c] = X[f(i)][c].
        let mut p = vec![0.0f32; m * m];
        (0..m).for_each(|j| if left { p[j * m + f(j)] = 1.0 } else { p[f(j) * m + j] = 1.0 });
        let (xr, xc) = if left { (m, rows) } else { (rows, m) };
        let start: Vec<f32> = HostMatrix::random(xr, xc, 22).data.iter().map(|&v| bf16::from_f32(v).to_f32()).collect();
        let dp = DeviceMatrix::from_slice(gpu, m, m, &p).map_err(e)?;
        let mut x = DeviceMatrix::from_slice(gpu, xr, xc, &start).map_err(e)?;
        let mut y = DeviceMatrix::<f32>::zeros(gpu, xr, xc).map_err(e)?;
        let step = |from: &DeviceMatrix<f32>, to: &mut DeviceMatrix<f32>| {
            if left {
                gpu.matmul_in(precision, algo, &dp, from, to)
            } else {
                gpu.matmul_in(precision, algo, from, &dp, to)
            }
        };
        for _ in 0..STEPS / 2 {
            step(&x, &mut y).map_err(e)?;
            step(&y, &mut x).map_err(e)?;
        }
        let got = x.to_vec(gpu).map_err(e)?;
        let mut from: Vec<usize> = (0..m).collect();
        for _ in 0..STEPS {
            from.iter_mut().for_each(|c| *c = f(*c));
        }
        for r in 0..xr {
            for j in 0..xc {
                let want = if left { start[from[r] * xc + j] } else { start[r * xc + from[j]] };
                if want.to_bits() != got[r * xc + j].to_bits() {
                    return Err(format!(
                        "{} {xr}×{xc} after {STEPS} chained products: ({r}, {j}) is {}, not {want}",
                        algo.label(),
                        got[r * xc + j]
                    ));
                }
            }
        }
    }
    Ok(())
}

fn refusals(gpu: &Gpu) -> Result<(), String> {
    let e = |e: Error| e.to_string();
    let a = DeviceMatrix::<bf16>::zeros(gpu, 32, 16).map_err(e)?;
    let b = DeviceMatrix::<bf16>::zeros(gpu, 16, 24).map_err(e)?;
    let mut c = DeviceMatrix::<bf16>::zeros(gpu, 32, 24).map_err(e)?;
    let short = DeviceBuffer::<f32>::zeros(gpu, 23).map_err(e)?;
    let gelu = FusedParams::new().activation(Activation::GeluTanh);
    let expect = |what: &str, r: Result<(), Error>, ok: fn(&Error) -> bool| match r {
        Err(x) if ok(&x) => Ok(()),
        other => Err(format!("{what}: {other:?}")),
    };
    expect("a kernel that does not finish its sums", gpu.matmul_fused(&gelu.algo(Algo::PersistentBf16), &a, &b, &mut c), |x| {
        matches!(x, Error::InvalidArgument { .. })
    })?;
    expect("a bias too short", gpu.matmul_fused(&gelu.bias(BiasKind::PerColumn, &short), &a, &b, &mut c), |x| {
        matches!(x, Error::BufferTooSmall { .. })
    })?;
    expect("a kernel of another precision", gpu.matmul_fused(&gelu.algo(Algo::FusedF16), &a, &b, &mut c), |x| {
        matches!(x, Error::PrecisionMismatch { .. })
    })?;
    let x = DeviceMatrix::<f32>::zeros(gpu, 32, 16).map_err(e)?;
    let w = DeviceMatrix::<f32>::zeros(gpu, 16, 24).map_err(e)?;
    let mut y = DeviceMatrix::<f32>::zeros(gpu, 32, 24).map_err(e)?;
    expect(
        "FP32 on kernel 8 by name (it does not finish its sums)",
        gpu.matmul_fused(&gelu.algo(Algo::Dbuf128x128x16), &x, &w, &mut y),
        |x| matches!(x, Error::InvalidArgument { .. }),
    )?;
    let a0 = DeviceMatrix::<bf16>::zeros(gpu, 32, 0).map_err(e)?;
    let b0 = DeviceMatrix::<bf16>::zeros(gpu, 0, 24).map_err(e)?;
    expect("K = 0 with an activation", gpu.matmul_fused(&gelu, &a0, &b0, &mut c), |x| matches!(x, Error::InvalidArgument { .. }))?;
    // Still usable, and K = 0 without an epilogue writes zeros.
    gpu.matmul_fused(&FusedParams::new(), &a0, &b0, &mut c).map_err(e)?;
    gpu.matmul_fused(&gelu, &a, &b, &mut c).map_err(e)?;
    gpu.synchronize().map_err(e)
}

fn main() {
    run(vec![
        gpu_trial("fused_kernels_and_auto_match_the_epilogue_rule", every_kernel),
        gpu_trial("pingpong_consumers_take_turns_over_many_tiles", pingpong_turns),
        gpu_trial("fused_refusals_are_typed_before_any_work", refusals),
        gpu_trial("chained_products_wait_for_each_other", |g| chained_products(g, false)),
        gpu_trial("chained_small_products_wait_for_each_other", |g| chained_products(g, true)),
    ]);
}
