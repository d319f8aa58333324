//! The block and distribution plans replayed on host arrays: every product they describe is exact
//! (integer operands, f64 arithmetic), every launch stays within the limits, no step reads an operand
//! before its transfer arrived (memory not yet arrived is NaN), and every band of `C` is final when it
//! is returned. Random shapes, limits, alignments and 1..8 GPUs (proptest), plus fixed edge cases.
use std::ops::Range;

use proptest::prelude::*;
use tessera_catalogue::plan::blocks::{plan_steps, step_ops, workspace_of, Align, BlockOp, BlockPlan, GemmDims, Limits, Loc, Workspace};
use tessera_catalogue::plan::distribute::{DistOptions, DistPlan, GpuPlan, Origin, Transfer};

/// One GPU's memory in the replay: its operands and work buffers, NaN where nothing was written.
struct Mem {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
    a_pack: Vec<f64>,
    b_pack: Vec<f64>,
    c_pack: Vec<f64>,
    scratch: Vec<f64>,
}

impl Mem {
    fn new(dims: GemmDims, ws: Workspace) -> Self {
        let nan = |len| vec![f64::NAN; len];
        Mem {
            a: nan(dims.m * dims.k),
            b: nan(dims.k * dims.n),
            c: nan(dims.m * dims.n),
            a_pack: nan(ws.a_pack),
            b_pack: nan(ws.b_pack),
            c_pack: nan(ws.c_pack),
            scratch: nan(ws.scratch),
        }
    }

    fn slot(&mut self, loc: Loc) -> (&mut Vec<f64>, usize) {
        match loc {
            Loc::A(o) => (&mut self.a, o),
            Loc::B(o) => (&mut self.b, o),
            Loc::C(o) => (&mut self.c, o),
            Loc::APack => (&mut self.a_pack, 0),
            Loc::BPack => (&mut self.b_pack, 0),
            Loc::CPack => (&mut self.c_pack, 0),
            Loc::Scratch => (&mut self.scratch, 0),
        }
    }

    fn read(&mut self, loc: Loc, range: Range<usize>) -> Vec<f64> {
        let (buf, off) = self.slot(loc);
        buf[off + range.start..off + range.end].to_vec()
    }

    /// Runs one operation as the GPU would (panics on an out-of-range access: a plan bug).
    fn run(&mut self, op: &BlockOp) {
        match *op {
            BlockOp::Copy2d { src, src_pitch, dst, dst_pitch, width, height } => {
                assert_eq!(src.is_input(), dst.is_input(), "{op:?} mixes element types");
                for row in 0..height {
                    let data = self.read(src, row * src_pitch..row * src_pitch + width);
                    let (buf, off) = self.slot(dst);
                    buf[off + row * dst_pitch..off + row * dst_pitch + width].copy_from_slice(&data);
                }
            }
            BlockOp::Gemm { a, b, c, shape } => {
                let (m, n, k) = (shape.m as usize, shape.n as usize, shape.k as usize);
                let (av, bv) = (self.read(a, 0..m * k), self.read(b, 0..k * n));
                let (buf, off) = self.slot(c);
                for i in 0..m {
                    for j in 0..n {
                        buf[off + i * n + j] = (0..k).map(|p| av[i * k + p] * bv[p * n + j]).sum();
                    }
                }
            }
            BlockOp::AddInto { dst, src, len } => {
                let add = self.read(src, 0..len);
                let (buf, off) = self.slot(dst);
                buf[off..off + len].iter_mut().zip(add).for_each(|(x, y)| *x += y);
            }
        }
    }
}

/// Small integer operands: every product and sum is exact in f64 (and f32).
fn operand(len: usize, seed: usize) -> Vec<f64> {
    (0..len).map(|i| ((i * 7 + seed * 13) % 5) as f64 - 2.0).collect()
}

fn reference(dims: GemmDims, a: &[f64], b: &[f64]) -> Vec<f64> {
    let GemmDims { m, n, k } = dims;
    (0..m * n).map(|idx| (0..k).map(|p| a[idx / n * k + p] * b[p * n + idx % n]).sum()).collect()
}

/// Checks that every launch of `ops` stays within `limits` and every cut is aligned.
fn check_launches(steps: &[tessera_catalogue::plan::blocks::Step], dims: GemmDims, limits: Limits, align: Align) {
    for s in steps {
        assert!(limits.fits(s.rows.len(), s.cols.len(), s.depth.len()), "{s:?} exceeds {limits:?}");
        assert!(!s.rows.is_empty() && !s.cols.is_empty() && !s.depth.is_empty(), "empty step {s:?}");
        assert_eq!(s.cols.start % align.cols, 0, "{s:?}");
        assert_eq!(s.depth.start % align.depth, 0, "{s:?}");
        for op in step_ops(s, dims) {
            if let BlockOp::Gemm { shape, .. } = op {
                assert!(limits.fits(shape.m as usize, shape.n as usize, shape.k as usize));
            }
        }
    }
}

/// Replays one GPU of `plan`: transfers in plan order, each followed by the steps it unblocks; `C`
/// bands are copied into `result` right after their last step. Returns the GPU's steps' launches.
fn replay_gpu(plan: &DistPlan, g: &GpuPlan, a: &[f64], b: &[f64], result: &mut [f64]) {
    let GemmDims { n, k, .. } = plan.dims;
    let local = GemmDims { m: g.rows.len(), n, k };
    let mut mem = Mem::new(local, g.workspace);
    if !g.receives {
        mem.a.copy_from_slice(&a[g.rows.start * k..g.rows.end * k]);
        mem.b.copy_from_slice(b);
        assert!(plan.origin == Origin::Root || g.needs.iter().all(Option::is_none), "a GPU that receives nothing waits");
    }
    if plan.dims.k == 0 {
        mem.c.fill(0.0); // the executor zeroes C when K = 0
    }
    let mut next = 0;
    let mut run_until = |mem: &mut Mem, arrived: Option<usize>, result: &mut [f64]| {
        while next < g.steps.len() && g.needs[next] <= arrived {
            for op in step_ops(&g.steps[next], local) {
                mem.run(&op);
            }
            for (band, last) in g.bands.iter().zip(&g.band_last_step) {
                if *last == Some(next) {
                    let rows = g.rows.start + band.start..g.rows.start + band.end;
                    result[rows.start * n..rows.end * n].copy_from_slice(&mem.c[band.start * n..band.end * n]);
                }
            }
            next += 1;
        }
    };
    run_until(&mut mem, None, result);
    for (t, transfer) in plan.transfers.iter().enumerate() {
        if g.receives {
            match *transfer {
                Transfer::A { piece } => {
                    let r = &g.a_pieces[piece];
                    let global = (g.rows.start + r.start) * k..(g.rows.start + r.end) * k;
                    mem.a[r.start * k..r.end * k].copy_from_slice(&a[global]);
                }
                Transfer::B { chunk } => {
                    let r = &plan.b_chunks[chunk];
                    mem.b[r.start * n..r.end * n].copy_from_slice(&b[r.start * n..r.end * n]);
                }
            }
        }
        run_until(&mut mem, Some(t), result);
    }
    assert_eq!(next, g.steps.len(), "steps left that no transfer unblocks");
    // Bands with no step (K = 0) are returned as they are (zeros).
    for (band, last) in g.bands.iter().zip(&g.band_last_step) {
        if last.is_none() {
            let rows = g.rows.start + band.start..g.rows.start + band.end;
            result[rows.start * n..rows.end * n].copy_from_slice(&mem.c[band.start * n..band.end * n]);
        }
    }
}

fn check_plan(dims: GemmDims, gpus: usize, origin: Origin, align: Align, opts: DistOptions) {
    let plan = DistPlan::new(dims, gpus, origin, align, opts);
    assert_eq!(plan.gpus.len(), gpus);
    // The GPUs' rows tile 0..m in order, each starting on the row alignment.
    let mut start = 0;
    for g in &plan.gpus {
        assert_eq!(g.rows.start, start);
        assert!(g.rows.is_empty() || g.rows.start % align.rows == 0, "{:?}", g.rows);
        start = g.rows.end;
        assert_eq!(g.needs.len(), g.steps.len());
        assert_eq!(g.bands.len(), g.band_last_step.len());
        let local = GemmDims { m: g.rows.len(), ..dims };
        check_launches(&g.steps, local, opts.limits, align);
        assert_eq!(g.workspace, workspace_of(&g.steps.iter().flat_map(|s| step_ops(s, local)).collect::<Vec<_>>()));
        if g.receives {
            assert_eq!(g.bands.len(), 1 + opts.return_pieces);
        }
    }
    assert_eq!(start, dims.m);
    let (a, b) = (operand(dims.m * dims.k, 1), operand(dims.k * dims.n, 2));
    let mut result = vec![f64::NAN; dims.m * dims.n];
    for g in &plan.gpus {
        replay_gpu(&plan, g, &a, &b, &mut result);
    }
    let want = reference(dims, &a, &b);
    for (i, (got, want)) in result.iter().zip(&want).enumerate() {
        assert!(got == want, "{dims:?} on {gpus} GPUs ({origin:?}): C[{}][{}] = {got}, want {want}", i / dims.n.max(1), i % dims.n.max(1));
    }
}

fn aligns() -> impl Strategy<Value = Align> {
    prop_oneof![
        Just(Align::NONE),
        Just(Align { rows: 4, cols: 4, depth: 4 }),
        Just(Align { rows: 8, cols: 16, depth: 8 }),
        Just(Align { rows: 16, cols: 8, depth: 4 }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random products over 1..8 GPUs, from the root or the host, with limits small enough that
    /// most of them are cut into blocks.
    #[test]
    fn distributed_products_are_exact(
        m in 0usize..80, n in 0usize..48, k in 0usize..64, gpus in 1usize..=8,
        root in any::<bool>(), align in aligns(),
        launch in 256usize..3000, block_frac in 0.05f64..1.0, max_rows in 16usize..64,
        b_chunks in 1usize..6, lead_rows in 0usize..40, return_pieces in 1usize..5, root_waits_for_sends in any::<bool>(),
    ) {
        let limits = Limits { launch_elems: launch, block_elems: ((launch as f64 * block_frac) as usize).max(1), max_rows };
        let opts = DistOptions { b_chunks, lead_rows, return_pieces, limits, root_waits_for_sends };
        let origin = if root { Origin::Root } else { Origin::Host };
        check_plan(GemmDims { m, n, k }, gpus, origin, align, opts);
    }

    /// A single product cut into blocks (one GPU, no transfers) with its operands at their homes.
    #[test]
    fn block_plans_cover_the_product_exactly(
        m in 1usize..90, n in 1usize..90, k in 1usize..90, align in aligns(), launch in 256usize..2000, max_rows in 16usize..100,
    ) {
        let dims = GemmDims { m, n, k };
        let limits = Limits { launch_elems: launch, block_elems: launch / 2, max_rows };
        let plan = BlockPlan::new(dims, limits, align);
        let steps = plan_steps(&plan, 0, &[]);
        check_launches(&steps, dims, limits, align);
        prop_assert_eq!(plan.blocks(), steps.len());
        let ops: Vec<BlockOp> = steps.iter().flat_map(|s| step_ops(s, dims)).collect();
        let mut mem = Mem::new(dims, workspace_of(&ops));
        let (a, b) = (operand(m * k, 3), operand(k * n, 4));
        mem.a.copy_from_slice(&a);
        mem.b.copy_from_slice(&b);
        for op in &ops {
            mem.run(op);
        }
        prop_assert_eq!(mem.c, reference(dims, &a, &b));
    }
}

#[test]
fn fixed_edge_cases() {
    let small = Limits { launch_elems: 600, block_elems: 300, max_rows: 32 };
    let opts = DistOptions { b_chunks: 3, lead_rows: 5, return_pieces: 2, limits: small, root_waits_for_sends: false };
    for (m, n, k) in [(1, 1, 1), (0, 7, 3), (7, 0, 3), (7, 5, 0), (97, 1, 53), (1, 97, 53), (64, 64, 64), (33, 17, 200)] {
        for gpus in 1..=8 {
            for origin in [Origin::Root, Origin::Host] {
                check_plan(GemmDims { m, n, k }, gpus, origin, Align { rows: 4, cols: 4, depth: 4 }, opts);
            }
        }
    }
}

#[test]
fn full_size_plans_stay_within_the_kernels_limits() {
    use tessera_catalogue::{Algo, Planner, Precision, Target};
    let align = |p| Planner::new("matmul", Algo::Auto, p, Target::H200).align().unwrap();
    let (fp32, bf16) = (align(Precision::Fp32), align(Precision::Bf16));
    for (dims, gpus, origin, align) in [
        (GemmDims { m: 60_000, n: 60_000, k: 60_000 }, 1, Origin::Root, fp32),
        (GemmDims { m: 110_000, n: 110_000, k: 110_000 }, 2, Origin::Host, fp32),
        (GemmDims { m: 16_384, n: 16_384, k: 16_384 }, 2, Origin::Root, bf16),
        (GemmDims { m: 200_000, n: 64, k: 3_000_000 }, 8, Origin::Root, fp32),
        (GemmDims { m: 3, n: 5_000_000, k: 1_000 }, 4, Origin::Host, fp32),
    ] {
        let plan = DistPlan::new(dims, gpus, origin, align, DistOptions::default());
        for g in &plan.gpus {
            check_launches(&g.steps, GemmDims { m: g.rows.len(), ..dims }, Limits::KERNELS, align);
            // Work buffers stay within four blocks of the default size (8 GiB of f32 at most).
            let ws = g.workspace;
            for elems in [ws.a_pack, ws.b_pack, ws.c_pack, ws.scratch] {
                assert!(elems <= tessera_catalogue::plan::blocks::DEFAULT_BLOCK_ELEMS, "{dims:?}: {ws:?}");
            }
        }
    }
}
