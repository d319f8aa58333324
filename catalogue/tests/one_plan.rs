//! Every path that multiplies chooses through one planning function: for random shapes in every
//! precision, `matmul` (one launch), `gemm` (NN, row-major), the blocks of a product past one
//! launch's limits and `MultiGpu`'s per-GPU blocks reach the same choice — the one
//! [`Planner::launch`] gives — for the same sub-problem.
use tessera_catalogue::plan::blocks::{GemmDims, Limits};
use tessera_catalogue::plan::distribute::{DistOptions, DistPlan, Origin};
use tessera_catalogue::plan::gemm::{GemmArgs, GemmPlan, Operand, OperandPlan, Output, Transpose};
use tessera_catalogue::plan::Op;
use tessera_catalogue::testkit::random;
use tessera_catalogue::{Algo, MatrixDesc, Plan, Planner, Precision, Target};

/// Shapes: log-uniform in 1..16384 (the scorecard's generator), up to 2·4096³ FLOPs.
const SHAPES: usize = 520;

/// Limits small enough that most of the shapes above are cut into a few blocks.
fn small_limits(dims: GemmDims) -> Limits {
    let most = (dims.m * dims.k).max(dims.k * dims.n).max(dims.m * dims.n);
    let launch_elems = (most / 3).max(64 * 64);
    Limits { launch_elems, block_elems: launch_elems, max_rows: Limits::KERNELS.max_rows }
}

#[test]
fn matmul_gemm_blocks_and_multi_gpu_choose_alike() {
    let mut blocked_products = 0;
    let mut multi_products = 0;
    for precision in Precision::ALL {
        // The H200 on every shape; another SM count and a GPU without the sm_90a module on a few.
        for (target, count) in [(Target::H200, SHAPES), (Target::new(114, true), 40), (Target::new(132, false), 40)] {
            let planner = Planner::new("matmul", Algo::Auto, precision, target);
            for shape in random::matmul_shapes(count, 0x0e_91a7 + precision as u64 + u64::from(target.sms), 2.0 * 4096f64.powi(3)) {
                let dims = GemmDims { m: shape.m as usize, n: shape.n as usize, k: shape.k as usize };
                let expected = planner.launch(shape).unwrap();

                // matmul: one launch-sized product.
                let Plan::One(one) = planner.product(dims).unwrap() else { panic!("{shape:?}: not one launch") };
                assert_eq!(one, expected, "{precision:?} {shape:?}: matmul");

                // gemm, NN row-major, α = 1, β = 0: no pack, no epilogue, the same plan.
                let eb = precision.input_bytes() as usize;
                let args = GemmArgs {
                    alpha: 1.0,
                    beta: 0.0,
                    a: MatrixDesc::row_major(dims.m, dims.k),
                    a_len: dims.m * dims.k,
                    trans_a: Transpose::No,
                    b: MatrixDesc::row_major(dims.k, dims.n),
                    b_len: dims.k * dims.n,
                    trans_b: Transpose::No,
                    c: MatrixDesc::row_major(dims.m, dims.n),
                    c_len: dims.m * dims.n,
                    elem_bytes: eb,
                };
                let GemmPlan::Product(p) = args.plan().unwrap() else { panic!("{shape:?}: gemm has no product") };
                assert_eq!(p.dims, dims, "{shape:?}: gemm restated the product");
                assert_eq!(p.x, OperandPlan::Direct { source: Operand::A, offset: 0 });
                assert_eq!(p.output, Output::Direct);
                let gemm = Planner { op: "gemm", ..planner };
                assert_eq!(gemm.product(p.dims).unwrap(), Plan::One(expected), "{precision:?} {shape:?}: gemm");

                // The blocked path: each block's product is planned as that shape alone would be.
                let cut = planner.with_limits(small_limits(dims));
                if let Plan::Blocks(blocks) = cut.product(dims).unwrap() {
                    for op in &blocks.ops {
                        if let Op::Product { launch, .. } = op {
                            assert_eq!(*launch, planner.launch(launch.shape).unwrap(), "{precision:?} {shape:?}: a block");
                            blocked_products += 1;
                        }
                    }
                }

                // MultiGpu: each GPU's steps over its rows, planned on that GPU's target.
                let align = planner.align().unwrap();
                let dist = DistPlan::new(dims, 3, Origin::Root, align, DistOptions::default());
                for gpu in &dist.gpus {
                    let local = GemmDims { m: gpu.rows.len(), n: dims.n, k: dims.k };
                    for step in &gpu.steps {
                        for op in planner.step_ops(step, local).unwrap() {
                            if let Op::Product { launch, .. } = op {
                                assert_eq!(launch, planner.launch(launch.shape).unwrap(), "{precision:?} {shape:?}: a GPU's block");
                                multi_products += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(blocked_products > 1000 && multi_products > 1000, "{blocked_products} blocked, {multi_products} multi-GPU products");
}

#[test]
fn a_kernel_of_another_precision_is_refused_whatever_the_size() {
    for dims in [GemmDims { m: 0, n: 5, k: 5 }, GemmDims { m: 5, n: 5, k: 0 }, GemmDims { m: 64, n: 64, k: 64 }] {
        let planner = Planner::new("matmul", Algo::TmaBf16, Precision::Fp16, Target::H200);
        assert!(matches!(planner.product(dims), Err(tessera_catalogue::PlanError::PrecisionMismatch { .. })), "{dims:?}");
    }
}

#[test]
fn plans_print_what_runs() {
    let planner = Planner::new("matmul", Algo::Auto, Precision::Bf16, Target::H200);
    let text = planner.product(GemmDims { m: 4096, n: 4096, k: 4096 }).unwrap().to_string();
    assert!(text.contains("matmul_persistent_bf16") && text.contains("grid"), "{text}");
    let padded = Planner::new("matmul", Algo::Auto, Precision::Fp32, Target::H200).product(GemmDims { m: 2000, n: 1999, k: 2001 }).unwrap();
    if let Plan::One(l) = &padded {
        let text = padded.to_string();
        assert_eq!(text.contains("padded"), matches!(l.choice, tessera_catalogue::Choice::Padded(_)), "{text}");
    }
    let large =
        Planner::new("matmul", Algo::Auto, Precision::Fp32, Target::H200).product(GemmDims { m: 70_000, n: 70_000, k: 512 }).unwrap();
    assert!(matches!(large, Plan::Blocks(_)), "{large}");
    assert!(large.to_string().contains("blocks"), "{large}");
}
