//! The emulator executes the plan the host would run: one builder (`Planner`, for the H200), two
//! interpreters (`tessera::Gpu` and `tessera_emulator::ops::run_plan`). Each plan here — one launch,
//! FP32's padded path, the blocks of a product cut by small limits, nothing, `C = 0` — runs on the CPU
//! executor and is checked against the f64 reference of the inputs rounded to the precision.
use tessera_catalogue::plan::blocks::{GemmDims, Limits};
use tessera_catalogue::testkit::check::check_in;
use tessera_catalogue::{Algo, Choice, HostMatrix, Plan, Planner, Precision, Target};
use tessera_emulator::ops::{matmul_in, run_plan};

fn operands(dims: GemmDims, seed: u64) -> (HostMatrix, HostMatrix) {
    (HostMatrix::random(dims.m, dims.k, seed), HostMatrix::random(dims.k, dims.n, seed + 1))
}

#[test]
fn auto_plans_run_on_the_executor_in_every_precision() {
    for precision in Precision::ALL {
        let planner = Planner::new("matmul", Algo::Auto, precision, Target::H200);
        for (i, (m, n, k)) in [(33, 17, 9), (70, 45, 130), (1, 64, 48), (130, 3, 31)].into_iter().enumerate() {
            let dims = GemmDims { m, n, k };
            let plan = planner.product(dims).unwrap();
            assert!(matches!(plan, Plan::One(_)), "{plan}");
            let (a, b) = operands(dims, 10 * i as u64);
            let c = run_plan(&plan, &a, &b).unwrap();
            check_in(precision, &a, &b, &c).unwrap_or_else(|e| panic!("{precision:?} {plan}: {e}"));
            // `matmul_in` is that plan, run.
            let again = matmul_in(precision, Algo::Auto, &a, &b).unwrap();
            assert!(c.data.iter().zip(&again.data).all(|(x, y)| x.to_bits() == y.to_bits()), "{precision:?} {plan}");
        }
    }
}

#[test]
fn blocked_plans_run_on_the_executor() {
    for (precision, algo) in
        [(Precision::Fp32, Algo::Dbuf64x64x16), (Precision::Fp32, Algo::SplitK64x64x16), (Precision::Bf16, Algo::MmaSharedBf16)]
    {
        let dims = GemmDims { m: 150, n: 90, k: 200 };
        let limits = Limits { launch_elems: 64 * 96, block_elems: 64 * 96, max_rows: Limits::KERNELS.max_rows };
        let plan = Planner::new("matmul", algo, precision, Target::H200).with_limits(limits).product(dims).unwrap();
        let Plan::Blocks(blocked) = &plan else { panic!("not cut into blocks: {plan}") };
        assert!(blocked.steps.len() > 4, "{plan}");
        assert!(blocked.launches().all(|l| limits.fits(l.shape.m as usize, l.shape.n as usize, l.shape.k as usize)), "{plan}");
        let (a, b) = operands(dims, 77);
        let c = run_plan(&plan, &a, &b).unwrap();
        check_in(precision, &a, &b, &c).unwrap_or_else(|e| panic!("{precision:?} {plan}: {e}"));
    }
}

#[test]
fn the_padded_path_nothing_and_zero_run_as_planned() {
    // A padding plan of 65×66×67, asked for by choice (as a tuned pick is).
    let planner = Planner::new("matmul", Algo::Auto, Precision::Fp32, Target::H200);
    let shape = tessera_catalogue::MatmulShape { m: 65, n: 66, k: 67 };
    let padding = tessera_catalogue::select::fp32_padding::Fp32Padding {
        shape,
        padded: tessera_catalogue::select::fp32_padding::padded_shape(shape).unwrap(),
        algo: Algo::Dbuf64x64x16,
    };
    let launch = planner.launch_of(shape, Choice::Padded(padding)).unwrap();
    let (a, b) = operands(GemmDims { m: 65, n: 66, k: 67 }, 5);
    let c = run_plan(&Plan::One(launch), &a, &b).unwrap();
    check_in(Precision::Fp32, &a, &b, &c).unwrap();
    for dims in [GemmDims { m: 0, n: 4, k: 4 }, GemmDims { m: 3, n: 4, k: 0 }] {
        let plan = planner.product(dims).unwrap();
        let (a, b) = operands(dims, 1);
        let c = run_plan(&plan, &a, &b).unwrap();
        assert!(c.data.iter().all(|&x| x == 0.0) && c.data.len() == dims.m * dims.n, "{plan}");
    }
    // A plan of other dimensions than the operands' is refused, not run.
    let plan = planner.product(GemmDims { m: 4, n: 4, k: 4 }).unwrap();
    let (a, b) = operands(GemmDims { m: 4, n: 5, k: 4 }, 1);
    assert!(run_plan(&plan, &a, &b).is_err());
}

#[test]
fn auto_slices_a_tiny_output_over_a_deep_k_past_max_splits_and_the_sums_hold() {
    // 64×32×5120: one 64×128 tile of kernel 16, 80 K-steps; the models take more slices than
    // `MAX_SPLITS` (all in one round of the SMs), each slice adding into the zeroed `C`.
    use tessera_catalogue::select::tc_model::{MAX_SPLITS, MAX_SPLITS_ONE_ROUND};
    for precision in [Precision::Bf16, Precision::Fp16] {
        let dims = GemmDims { m: 64, n: 32, k: 5120 };
        let plan = Planner::new("matmul", Algo::Auto, precision, Target::H200).product(dims).unwrap();
        let Plan::One(one) = &plan else { panic!("not one launch: {plan}") };
        let slices = one.launch.splits;
        assert!(slices > MAX_SPLITS && slices <= MAX_SPLITS_ONE_ROUND, "{precision:?} {plan}: {slices} slices");
        let (a, b) = operands(dims, 77);
        let c = run_plan(&plan, &a, &b).unwrap();
        check_in(precision, &a, &b, &c).unwrap_or_else(|e| panic!("{precision:?} {plan}: {e}"));
    }
}
