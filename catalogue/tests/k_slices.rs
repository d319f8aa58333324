//! K slices asked for by name (`Planner::with_k_slices`, `GemmParams::k_slices`): the launch planned
//! with them, and every request that cannot have them refused with a typed error.
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::{Algo, OutputFormat, Plan, PlanError, Planner, Precision, Target};

fn plan(algo: Algo, precision: Precision, (m, n, k): (usize, usize, usize), slices: u32) -> Result<Plan, PlanError> {
    Planner::new("matmul", algo, precision, Target::H200).with_k_slices(Some(slices)).product(GemmDims { m, n, k })
}

fn one(plan: Result<Plan, PlanError>) -> tessera_catalogue::plan::KernelLaunch {
    match plan {
        Ok(Plan::One(l)) => l.launch,
        other => panic!("expected one launch, got {other:?}"),
    }
}

#[test]
fn the_launch_takes_the_slices_asked_for() {
    // The persistent kernel: slices along y, C zeroed for their additions.
    let l = one(plan(Algo::PersistentBf16Rows64, Precision::Bf16, (184, 40, 15336), 24));
    assert_eq!((l.splits, l.dims.grid.1, l.zero_c), (24, 24, true));
    // Split-K along z; one slice of kernel 21 stores C (nothing zeroed), more add into it.
    let l = one(plan(Algo::SplitK64x64x16, Precision::Fp32, (130, 70, 3000), 40));
    assert_eq!((l.splits, l.dims.grid.2, l.zero_c), (40, 40, true));
    let l = one(plan(Algo::WidenedBf16, Precision::Bf16, (130, 70, 3000), 1));
    assert_eq!((l.splits, l.dims.grid.2, l.zero_c), (1, 1, false));
    // The models' own count where none is asked for: a tiny output over a deep K (three 64×128 tiles,
    // 240 K-steps) takes more than MAX_SPLITS slices, all of them in one round of the SMs.
    use tessera_catalogue::select::tc_model::{MAX_SPLITS, MAX_SPLITS_ONE_ROUND, MIN_ONE_ROUND_SLICE_STEPS};
    let models =
        Planner::new("matmul", Algo::PersistentBf16Rows64, Precision::Bf16, Target::H200).product(GemmDims { m: 184, n: 40, k: 15336 });
    let splits = one(models).splits;
    assert!(splits > MAX_SPLITS && splits <= MAX_SPLITS_ONE_ROUND, "{splits} slices");
    assert!(3 * splits <= Target::H200.sms && 240 / splits >= MIN_ONE_ROUND_SLICE_STEPS, "{splits} slices");
    // Where the tiles fill the SMs, at most MAX_SPLITS_MANY_TILES.
    let many =
        Planner::new("matmul", Algo::PersistentBf16Rows64, Precision::Bf16, Target::H200).product(GemmDims { m: 4096, n: 4096, k: 16384 });
    assert!(one(many).splits <= tessera_catalogue::select::tc_model::MAX_SPLITS_MANY_TILES);
}

#[test]
fn requests_that_cannot_have_slices_are_refused() {
    let invalid = |r: Result<Plan, PlanError>, what: &str| match r {
        Err(PlanError::Invalid { detail, .. }) => assert!(!detail.is_empty(), "{what}"),
        other => panic!("{what}: expected PlanError::Invalid, got {other:?}"),
    };
    let shape = (256, 256, 1024);
    invalid(plan(Algo::Auto, Precision::Bf16, shape, 2), "Auto");
    invalid(plan(Algo::Dbuf64x64x16, Precision::Fp32, shape, 2), "a kernel without slices");
    invalid(plan(Algo::ClusterBf16, Precision::Bf16, shape, 2), "kernel 24's pairs");
    invalid(plan(Algo::SplitK64x64x16, Precision::Fp32, shape, 0), "no slice");
    // K = 1024: 64 K-steps of 16.
    invalid(plan(Algo::SplitK64x64x16, Precision::Fp32, shape, 65), "more slices than K-steps");
    one(plan(Algo::SplitK64x64x16, Precision::Fp32, shape, 64));
    // Whole tiles for a 16-bit C or a fused epilogue.
    let finishing = |output: OutputFormat, fused: bool| {
        Planner::new("matmul", Algo::FusedBf16, Precision::Bf16, Target::H200)
            .with_output(output)
            .with_fused_epilogue(fused)
            .with_k_slices(Some(2))
            .product(GemmDims { m: 256, n: 256, k: 1024 })
    };
    invalid(finishing(OutputFormat::Bf16, false), "a 16-bit C");
    invalid(finishing(OutputFormat::F32, true), "a fused epilogue");
}
