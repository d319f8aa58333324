//! Kernels 27 and 29 (kernels 16 and 8 finishing their sums in their store: `act(α·A·B + bias)`, `C`
//! in `f32`, BF16 or FP16) on the CPU executor, through the plan the host makes for the H200: every
//! entry and `Auto` in BF16, FP16, TF32 and FP32 on odd shapes (partial tiles and K-steps, rows of N not a multiple of 4),
//! every output type, activation and bias kind, `α` a power of two — against the f64 reference
//! through the one epilogue rule (`check_epilogue`).
use tessera_catalogue::testkit::check::{check_epilogue, check_in};
use tessera_catalogue::testkit::reference::{matmul_reference, ReferenceProduct};
use tessera_catalogue::OutputFormat::{self, Bf16, F16, F32};
use tessera_catalogue::{Activation, Algo, BiasKind, HostMatrix, Precision, MATMUL_KERNELS};
use tessera_emulator::ops::{matmul_finished, HostEpilogue};

/// The f64 product of the inputs rounded to `p`, times `alpha` (a power of two: exact).
fn reference(p: Precision, a: &HostMatrix, b: &HostMatrix, alpha: f32) -> ReferenceProduct {
    let round = |x: &HostMatrix| HostMatrix { rows: x.rows, cols: x.cols, data: x.data.iter().map(|&v| p.round_input(v)).collect() };
    let mut r = matmul_reference(&round(a), &round(b));
    r.value.iter_mut().chain(r.abs_sum.iter_mut()).for_each(|v| *v *= f64::from(alpha.abs()));
    if alpha < 0.0 {
        r.value.iter_mut().for_each(|v| *v = -*v);
    }
    r
}

fn bias_values(kind: BiasKind, m: usize, n: usize) -> Vec<f32> {
    (0..kind.len(m, n)).map(|i| ((i * 7 % 11) as f32 - 5.0) * 0.25).collect()
}

/// Runs and checks one case.
#[allow(clippy::too_many_arguments)]
fn case(
    p: Precision,
    algo: Algo,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    out: OutputFormat,
    act: Activation,
    bias: Option<BiasKind>,
    seed: u64,
) {
    let (a, b) = (HostMatrix::random(m, k, seed), HostMatrix::random(k, n, seed + 1));
    let epilogue = HostEpilogue { bias: bias.map(|kind| (kind, bias_values(kind, m, n))), activation: act };
    let got = matmul_finished(p, algo, &a, &b, alpha, out, &epilogue).unwrap_or_else(|e| panic!("{algo:?} {p:?}: {e}"));
    let values = epilogue.bias.as_ref().map(|(_, v)| v.clone());
    let bias_at = |row: usize, col: usize| match (bias, &values) {
        (Some(BiasKind::PerColumn), Some(v)) => f64::from(v[col]),
        (Some(BiasKind::PerRow), Some(v)) => f64::from(v[row]),
        _ => 0.0,
    };
    check_epilogue(p, out, act, bias_at, &got.data, &reference(p, &a, &b, alpha))
        .unwrap_or_else(|e| panic!("{} ({p:?}) {m}×{n}×{k} α {alpha} {out:?} {act:?} {bias:?}: {e}", algo.label()));
}

#[test]
fn every_fused_kernel_and_auto_finish_their_sums() {
    let kernels: Vec<(Algo, Precision, (usize, usize))> = MATMUL_KERNELS
        .iter()
        .filter(|k| k.config.fused_epilogue && !k.precision.is_fp8())
        .map(|k| (k.algo, k.precision, (k.config.bm as usize, k.config.bn as usize)))
        .chain([Precision::Bf16, Precision::Fp16, Precision::Tf32, Precision::Fp32].map(|p| (Algo::Auto, p, (128, 128))))
        .collect();
    assert_eq!(
        kernels.len(),
        31,
        "kernel 27's 20 entries (6 in clusters), kernel 31's 6 (its pairs too), kernel 29's, and Auto in four precisions"
    );
    let outputs = [F32, Bf16, F16];
    let acts = [Activation::GeluTanh, Activation::Relu, Activation::Silu, Activation::GeluErf, Activation::Identity];
    for (i, &(algo, p, (bm, bn))) in kernels.iter().enumerate() {
        // Rows past one tile, columns past one tile (a multiple of 4 for half the kernels, not for
        // the other half), a partial K-step; the output, activation and bias rotate across the kernels.
        let shape = if i % 2 == 0 { (bm + 2, bn + 8, 72) } else { (bm / 2 + 1, bn + 10, 40) };
        let bias = [Some(BiasKind::PerColumn), Some(BiasKind::PerRow), None][i % 3];
        case(p, algo, shape, [1.0, 0.5, -2.0][i % 3], outputs[i % 3], acts[i % acts.len()], bias, 10 + i as u64);
    }
}

#[test]
fn sixteen_bit_outputs_round_once_and_alpha_alone_plans_a_finishing_kernel() {
    for (p, out) in [(Precision::Bf16, F16), (Precision::Fp16, Bf16), (Precision::Tf32, Bf16), (Precision::Fp32, F16)] {
        case(p, Algo::Auto, (64, 72, 128), 1.0, out, Activation::Identity, None, 3);
    }
    // α alone, f32 out: a finishing kernel scales in its store.
    case(Precision::Bf16, Algo::Auto, (33, 40, 24), 0.25, F32, Activation::Identity, None, 5);
    // Kernel 29's element-by-element stores (N not a multiple of 4), every output type.
    for (i, out) in [F32, Bf16, F16].into_iter().enumerate() {
        case(Precision::Fp32, Algo::FusedF32, (33, 45, 24), 0.5, out, Activation::Silu, Some(BiasKind::PerRow), 7 + i as u64);
    }
}

#[test]
fn kernels_that_do_not_finish_their_sums_are_refused_for_an_epilogue() {
    let (a, b) = (HostMatrix::random(16, 16, 1), HostMatrix::random(16, 16, 2));
    let gelu = HostEpilogue { bias: None, activation: Activation::GeluTanh };
    let err = matmul_finished(Precision::Bf16, Algo::PersistentBf16, &a, &b, 1.0, F32, &gelu).unwrap_err().to_string();
    assert!(err.contains("no fused epilogue"), "{err}");
    let err = matmul_finished(Precision::Fp8E4m3, Algo::Auto, &a, &b, 1.0, F32, &gelu).unwrap_err().to_string();
    assert!(err.contains("matmul_fp8"), "{err}");
    let err = matmul_finished(Precision::Fp32, Algo::Dbuf128x128x16, &a, &b, 1.0, F32, &gelu).unwrap_err().to_string();
    assert!(err.contains("no fused epilogue"), "{err}");
}

/// Runs kernel-31 entry `algo` (in `p`) on 300×300×136 random inputs over a grid of `blocks` blocks,
/// not the H200's (a block per tile here): each block's two consumer warpgroups take turns over
/// several units. `call` makes the entry's call from its host build; `c` is `C`'s buffer (16-bit
/// BF16 or `f32` bits as the entry writes them). Returns the inputs.
fn run_pingpong<C>(
    algo: Algo,
    p: Precision,
    planner: tessera_catalogue::Planner<'_>,
    blocks: u32,
    call: impl Fn(tessera_catalogue::registry::algo::HostKernel) -> tessera_emulator::ops::TmaCall,
    c: &mut [C],
) -> (HostMatrix, HostMatrix) {
    use tessera_catalogue::plan::blocks::GemmDims;
    use tessera_catalogue::{LaunchPlan, Plan};
    use tessera_emulator::ops::launch_tma;
    use tessera_emulator::{Launch, SyncPtr};
    let kernel = algo.kernel().unwrap();
    let (m, n, k) = (300, 300, 136);
    let (a, b) = (HostMatrix::random(m, k, 21), HostMatrix::random(k, n, 22));
    let bits = |x: &HostMatrix| -> Vec<u16> {
        x.data
            .iter()
            .map(|&v| if p == Precision::Bf16 { half::bf16::from_f32(v).to_bits() } else { half::f16::from_f32(v).to_bits() })
            .collect()
    };
    let (xa, xb) = (bits(&a), bits(&b));
    let Ok(Plan::One(LaunchPlan { launch, .. })) = planner.product(GemmDims { m, n, k }) else { panic!("{algo:?}: not one launch") };
    let cfg = Launch::new((blocks, 1, 1), (launch.dims.block.0, launch.dims.block.1, 1), launch.dims.shared_bytes as usize);
    let packing = launch.tma.expect("a TMA kernel's layouts");
    let pc = SyncPtr::new(c.as_mut_ptr().cast::<f32>());
    launch_tma(kernel, call(kernel.host), cfg, launch.shape, packing, xa.as_ptr().cast(), xb.as_ptr().cast(), pc)
        .unwrap_or_else(|e| panic!("{algo:?} on {blocks} blocks: {e}"));
    (a, b)
}

/// Kernel 31 (finishing and plain) with fewer blocks than tiles: 1, 2 and 3 blocks for 10 tiles of
/// 64×256 (10, 5 and 3–4 units a block, the last unit of a block either warpgroup's) or 9 of 128×128
/// (9, 4–5 and 3), and its pairs on 1, 2 and 3 clusters of two blocks, every sum
/// checked — the order barriers and the stages' phases across units, which the H200's plan would
/// not reach.
#[test]
fn the_pingpong_kernel_alternates_tiles_between_its_consumers() {
    use tessera_catalogue::registry::algo::HostKernel;
    use tessera_catalogue::{Planner, Target};
    use tessera_emulator::ops::TmaCall;
    use tessera_emulator::SyncPtr;
    let bias = bias_values(BiasKind::PerColumn, 300, 300);
    let code = tessera_catalogue::epilogue::code(Some(BiasKind::PerColumn), Activation::GeluTanh);
    for (algo, plain, p) in [
        (Algo::PingPongBf16, Algo::PingPongPlainBf16, Precision::Bf16),
        (Algo::PingPongF16, Algo::PingPongPlainF16, Precision::Fp16),
        (Algo::PingPongBf16x128, Algo::PingPongPlainBf16x128, Precision::Bf16),
        (Algo::PingPongF16x128, Algo::PingPongPlainF16x128, Precision::Fp16),
        (Algo::PingPongPairsBf16x128, Algo::PingPongPlainPairsBf16x128, Precision::Bf16),
        (Algo::PingPongPairsF16x128, Algo::PingPongPlainPairsF16x128, Precision::Fp16),
    ] {
        // The pairs run in clusters of two: 1, 2 and 3 clusters for 6 pairs of tiles (the last row
        // of pairs half below the matrix).
        let per = algo.kernel().unwrap().config.cluster;
        for blocks in [per, 2 * per, 3 * per] {
            // Finished: GELU and a bias per column, α = 0.5, into BF16.
            let mut c = vec![half::bf16::from_f32(f32::NAN).to_bits(); 300 * 300];
            let planner = Planner::new("pingpong", algo, p, Target::H200).with_output(OutputFormat::Bf16).with_fused_epilogue(true);
            let fused = |h: HostKernel| {
                let HostKernel::Fused(host) = h else { panic!("{algo:?}: not a finishing kernel") };
                TmaCall::Fused {
                    host,
                    alpha: 0.5,
                    out: OutputFormat::Bf16.code(),
                    bias: SyncPtr::from_const(bias.as_ptr()),
                    epilogue: code,
                }
            };
            let (a, b) = run_pingpong(algo, p, planner, blocks, fused, &mut c);
            let got: Vec<f32> = c.iter().map(|&x| half::bf16::from_bits(x).to_f32()).collect();
            check_epilogue(p, OutputFormat::Bf16, Activation::GeluTanh, |_, col| f64::from(bias[col]), &got, &reference(p, &a, &b, 0.5))
                .unwrap_or_else(|e| panic!("{algo:?} on {blocks} blocks: {e}"));
            // Plain f32 sums.
            let mut c = vec![f32::NAN; 300 * 300];
            let tma = |h: HostKernel| {
                let HostKernel::Tma(host) = h else { panic!("{plain:?}: not a TMA kernel") };
                TmaCall::Plain(host)
            };
            let (a, b) = run_pingpong(plain, p, Planner::new("pingpong", plain, p, Target::H200), blocks, tma, &mut c);
            check_in(p, &a, &b, &HostMatrix { rows: 300, cols: 300, data: c })
                .unwrap_or_else(|e| panic!("{plain:?} on {blocks} blocks: {e}"));
        }
    }
}
