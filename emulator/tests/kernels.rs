//! Every tessera kernel (matmul, vec_add, iterated_fma), run on the CPU executor with the launch the GPU
//! uses (the catalogue's, so it cannot drift), checked against the catalogue's f64 reference. The matmul
//! trials are generated from the catalogue: one per kernel, named by its label, so a new kernel is
//! tested without an edit here.
use libtest_mimic::{Arguments, Failed, Trial};
use tessera_catalogue::registry::algo::{case_label, matmul_cases};
use tessera_catalogue::registry::launch::{elementwise, grid_stride, zero_f32};
use tessera_catalogue::testkit::check::check_in;
use tessera_catalogue::testkit::random::operands;
use tessera_catalogue::{Algo, HostMatrix, MatmulShape, Precision};
use tessera_emulator::{launch, Launch, SyncPtr};
use tessera_kernels::{iterated_fma, vec_add, vec_add_vec4, zero_fill};

/// The H200, as the plans the host makes for it.
const H: tessera_catalogue::Target = tessera_catalogue::Target::H200;

/// The catalogue line of a concrete kernel (the tests iterate the catalogue: never `Auto`).
fn catalogue_line(algo: tessera_catalogue::Algo) -> &'static tessera_catalogue::MatmulKernel {
    algo.kernel().expect("a concrete kernel")
}

fn check_algo_on_shape(algo: Algo, precision: Precision, (m, n, k): (usize, usize, usize)) -> Result<(), Failed> {
    let label = case_label(algo, precision);
    let (a, b) = (HostMatrix::random(m, k, 1 + m as u64), HostMatrix::random(k, n, 7 + n as u64));
    let result = tessera_emulator::ops::matmul_in(precision, algo, &a, &b);
    let c = result.map_err(|e| format!("{label}: {e}"))?;
    check_in(precision, &a, &b, &c).map_err(|mismatch| format!("{label} on {m}×{n}×{k}: {mismatch}").into())
}

/// M×N×K shapes: a single element, shapes that are no multiple of any tile in any dimension, K
/// spanning one and several K-steps, and aligned shapes (N, K multiples of 4 and of 8) that take the
/// vector / `cp.async` fast paths of kernels 5–10 and 12–13 on interior blocks (130 × 132: one full
/// 128×128 block plus edges; K = 36: full K-steps plus a partial one for BK = 16; 129 × 264 × 72:
/// a full 128×256 tensor-core tile, K over three 32-wide steps, the last one partial; 129 × 260 × 24
/// and 70 × 134 × 298: BF16/FP16 rows of 8 and of 4 bytes past a 16-byte multiple, the latter over
/// several K-steps: the 4-byte `cp.async` pieces of kernels 12, 13 and 20; 33 × 136 × 37 and
/// 36 × 37 × 48: one operand's 16-bit rows odd, the other's whole 16-byte units, so each operand takes
/// its own path).
const SHAPES: [(usize, usize, usize); 9] =
    [(1, 1, 1), (17, 33, 9), (65, 63, 31), (130, 132, 36), (129, 260, 24), (129, 264, 72), (70, 134, 298), (33, 136, 37), (36, 37, 48)];

/// Extra shapes for the TMA kernels (kernels 15–16): one element's worth of 16-byte rows (1 × 8 × 8),
/// partial tiles everywhere with a K-step cut short (65 × 264 × 40), more K-steps than stages
/// (64 × 256 × 584: 10 steps of 64, 19 of 32, so every stage's barriers go round twice and the phase
/// parities alternate), 130 × 264 × 2048, which kernel 16 splits along K (4 tiles: 2 slices of 16
/// steps in BF16/FP16, 4 of 16 in TF32, added atomically into C), and rows the TMA cannot read in
/// place, read from padded copies: K = 13 and N = 9 (3 × 9 × 13: both operands padded in every
/// precision), and 65 × 263 × 37 (A and B padded in BF16/FP16, A and Bᵀ in TF32; a partial K-step).
/// The epilogue stores rows 16, 8 or 4 bytes at a time by N's alignment: N = 264 and 256, 262, and
/// the odd ones. The shapes of [`SHAPES`] run too, most of them unaligned.
const TMA_SHAPES: [(usize, usize, usize); 7] =
    [(1, 8, 8), (65, 264, 40), (64, 256, 584), (130, 264, 2048), (3, 9, 13), (65, 263, 37), (66, 262, 40)];

/// Split-K with more than one slice (kernel 10's tiles, kernels 18 and 19, which split K the same way,
/// kernel 20's tensor-core tiles in their precisions, and kernel 21's 16-bit inputs on the CUDA
/// cores): the model's slice counts on deep-K shapes
/// with small outputs.
fn split_k_sums_its_slices() -> Result<(), Failed> {
    // The model's slice counts (`tuning::splits_for`) on deep-K shapes with small outputs: several
    // slices, the last one ragged (K not a multiple of the slice), on every split-K tile.
    for algo in [
        Algo::SplitK128x128x16,
        Algo::SplitK64x64x16,
        Algo::SplitK128x32x16,
        Algo::SplitK32x128x16,
        Algo::SplitK128x256x16,
        Algo::SplitK256x128x16,
        Algo::FewRows,
        Algo::FewCols4,
        Algo::FewRowsBf16,
        Algo::FewRowsF16,
        Algo::FewColsBf16,
        Algo::FewColsF16,
        Algo::FewColsKsplitBf16,
        Algo::FewColsKsplitF16,
        Algo::MmaSplitKBf16Rows16,
        Algo::MmaSplitKF16Rows16,
        Algo::MmaSplitKTf32Rows16,
        Algo::MmaSplitKBf16Rows64,
        Algo::MmaSplitKF16Rows64,
        Algo::MmaSplitKTf32Rows64,
        Algo::MmaSplitKBf16Cols32,
        Algo::MmaSplitKF16Cols32,
        Algo::MmaSplitKTf32Cols32,
        Algo::MmaSplitKBf16Cols64,
        Algo::MmaSplitKF16Cols64,
        Algo::WidenedBf16,
        Algo::WidenedF16,
        Algo::WidenedBf16Cols32,
        Algo::WidenedF16Cols32,
        Algo::WidenedBf16Rows32,
        Algo::WidenedF16Rows32,
        Algo::WidenedBf16Wide,
        Algo::WidenedF16Wide,
    ] {
        let precision = algo.precision().ok_or("a kernel has a precision")?;
        // N = 68: whole float4 column groups, added by `red.global.add.v4.f32` (N = 70's last two
        // columns, and the odd widths, one element at a time).
        for (m, n, k) in [(130, 70, 300), (33, 17, 2000), (5, 3, 1031), (70, 68, 1200)] {
            let shape = MatmulShape { m, n, k };
            let got = catalogue_line(algo).splits(shape, H);
            if got != tessera_catalogue::select::tuning::splits_on(algo, shape, tessera_catalogue::select::tuning::SMS)
                || catalogue_line(algo).launch(shape, H).grid.2 != got
            {
                return Err(format!("{}: {m}×{n}×{k}: launch and model disagree on the slices", algo.label()).into());
            }
            // Deep K on a grid of at most half the SMs: the model splits it — but for kernel 19's
            // K-split entries, whose eight warps already split a block's K (one slice at 33×17×2000
            // and 70×68×1200; `few_cols_stores_one_slice_and_adds_several` runs them on several).
            let cfg = algo.config().ok_or("a kernel has a launch")?;
            let tiles = m.div_ceil(cfg.bm) * n.div_ceil(cfg.bn);
            let splits_inside = matches!(algo, Algo::FewColsKsplitBf16 | Algo::FewColsKsplitF16);
            if k >= 1000 && 2 * tiles <= tessera_catalogue::select::tuning::SMS && got < 2 && !splits_inside {
                return Err(format!("{}: {m}×{n}×{k}: {got} slice(s), expected several", algo.label()).into());
            }
            check_algo_on_shape(algo, precision, (m as usize, n as usize, k as usize))?;
        }
    }
    Ok(())
}

/// The bit patterns of `x`'s elements rounded to `precision`'s 16-bit format (BF16, else FP16).
fn half_bits(precision: Precision, x: &HostMatrix) -> Vec<u16> {
    let bits = |v: f32| if precision == Precision::Bf16 { half::bf16::from_f32(v).to_bits() } else { half::f16::from_f32(v).to_bits() };
    x.data.iter().map(|&v| bits(v)).collect()
}

/// Runs the kernel `algo` (on `f32` or 16-bit inputs, read in place) on `a · b` (rounded to its
/// precision's format) with its own block and shared memory but the grid `grid`, `C` starting as NaN
/// where the launch stores it (`stores`: an output it skips shows) and as zeros where it adds into
/// it. For kernels whose contract admits any such grid (kernel 17 along x, kernels 18 and 19 along z).
fn run_on_grid(algo: Algo, grid: (u32, u32, u32), a: &HostMatrix, b: &HostMatrix, stores: bool) -> Result<HostMatrix, Failed> {
    use tessera_catalogue::registry::algo::HostKernel;
    let kernel = algo.kernel().ok_or("no kernel")?;
    let (m, n, k) = (a.rows, b.cols, a.cols);
    let (entry, host_build) = kernel.launched(n as u32);
    let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
    let mut cfg = Launch::from(catalogue_line(algo).launch(shape, H));
    cfg.grid = grid;
    let mut c = vec![if stores { f32::NAN } else { 0.0 }; m * n];
    let pc = SyncPtr::new(c.as_mut_ptr());
    // The operands as the kernel reads them: `f32`, or their 16-bit patterns.
    let (a16, b16) = match host_build {
        HostKernel::F32(_) => (Vec::new(), Vec::new()),
        HostKernel::Half(_) => (half_bits(kernel.precision, a), half_bits(kernel.precision, b)),
        HostKernel::Tma(_) | HostKernel::Fp8(_) | HostKernel::Fused(_) | HostKernel::FusedF32(_) => {
            return Err(format!("{}: a TMA kernel", kernel.label).into())
        }
    };
    let (pa, pb) = (SyncPtr::from_const(a.data.as_ptr()), SyncPtr::from_const(b.data.as_ptr()));
    let (pa16, pb16) = (SyncPtr::from_const(a16.as_ptr()), SyncPtr::from_const(b16.as_ptr()));
    let run = || match host_build {
        // SAFETY: A holds m·k elements, B k·n, C m·n floats (zeroed when the kernel adds); threads and
        // shared memory are the kernel's own launch, the grid one its contract admits (the caller's).
        HostKernel::F32(host) => unsafe { host(pa.get(), pb.get(), pc.get(), shape.m, shape.n, shape.k) },
        // SAFETY: as above, on the operands' 16-bit patterns.
        HostKernel::Half(host) => unsafe { host(pa16.get(), pb16.get(), pc.get(), shape.m, shape.n, shape.k) },
        HostKernel::Tma(_) | HostKernel::Fp8(_) | HostKernel::Fused(_) | HostKernel::FusedF32(_) => unreachable!("returned above"),
    };
    launch(entry, cfg, run).map_err(|e| format!("{}: {e}", kernel.label))?;
    Ok(HostMatrix { rows: m, cols: n, data: c })
}

/// Kernels 12, 13 and 20 on an odd 16-bit K read `A`'s rows on their own (`load_unaligned`): a row's
/// last K-tile runs past K, and what lies there in memory is the next row's first elements, which
/// must be read as zeros, not multiplied by `B`'s zero rows past K: an infinity at the start of row 2
/// would turn row 1 into NaN (∞ · 0). Rows 0, 1, 3 and 4 stay finite and match the reference; row 2
/// does not.
fn odd_rows_never_read_their_neighbours() -> Result<(), Failed> {
    let (m, n, k) = (5, 24, 37);
    let mut a = HostMatrix::random(m, k, 3);
    a.data[2 * k] = f32::INFINITY;
    let b = HostMatrix::random(k, n, 5);
    for algo in [Algo::MmaSharedBf16, Algo::MmaPipeBf16x128, Algo::MmaSplitKBf16Rows16, Algo::MmaSplitKF16Cols32] {
        let precision = algo.precision().ok_or("a precision")?;
        let c = tessera_emulator::ops::matmul_in(precision, algo, &a, &b).map_err(|e| format!("{}: {e}", algo.label()))?;
        for r in [0, 1, 3, 4] {
            let row = |x: &HostMatrix| HostMatrix { rows: 1, cols: x.cols, data: x.data[r * x.cols..(r + 1) * x.cols].to_vec() };
            if c.data[r * n..(r + 1) * n].iter().any(|v| !v.is_finite()) {
                return Err(format!("{}: row {r} is not finite: row 2's infinity leaked into it", algo.label()).into());
            }
            check_in(precision, &row(&a), &b, &row(&c)).map_err(|e| format!("{} row {r}: {e}", algo.label()))?;
        }
        if c.data[2 * n..3 * n].iter().all(|v| v.is_finite()) {
            return Err(format!("{}: row 2 lost its infinity", algo.label()).into());
        }
    }
    Ok(())
}

/// The TMA kernels on operands copied into 128-byte rows where theirs lie off a 32-byte sector
/// (`tma::plan_aligned`, what the model plans where the copies pay: large products): K = 72 and
/// N = 136 (144- and 272-byte rows) and K = 40 (80 bytes), with the real dimensions in the maps.
fn aligned_packings_copy_rows_off_a_sector() -> Result<(), Failed> {
    use tessera_catalogue::registry::tma;
    for algo in [Algo::TmaBf16, Algo::PersistentBf16Rows64, Algo::PersistentF16Mid] {
        for (m, n, k) in [(130, 136, 72), (65, 264, 40)] {
            let shape = MatmulShape { m, n, k };
            let kernel = algo.kernel().ok_or("no kernel")?;
            let packing = tma::plan_aligned(kernel.config, shape, 2);
            if packing == tma::plan(kernel.config, shape, 2) {
                return Err(format!("{}: {shape:?} has no rows off a sector", kernel.label).into());
            }
            let tessera_catalogue::registry::algo::HostKernel::Tma(host) = kernel.host else { return Err("not a TMA kernel".into()) };
            let (a, b) = (HostMatrix::random(m as usize, k as usize, 11), HostMatrix::random(k as usize, n as usize, 13));
            let precision = kernel.precision;
            let (a16, b16) = (half_bits(precision, &a), half_bits(precision, &b));
            let planned = tessera_catalogue::plan::KernelLaunch::new(algo, shape, H).map_err(|e| e.to_string())?;
            let mut c = vec![if planned.zero_c { 0.0 } else { f32::NAN }; (m * n) as usize];
            let c_ptr = SyncPtr::new(c.as_mut_ptr());
            tessera_emulator::ops::launch_tma(
                kernel,
                tessera_emulator::ops::TmaCall::Plain(host),
                Launch::from(planned.dims),
                shape,
                packing,
                a16.as_ptr().cast(),
                b16.as_ptr().cast(),
                c_ptr,
            )
            .map_err(|e| format!("{}: {e}", kernel.label))?;
            check_in(precision, &a, &b, &HostMatrix { rows: m as usize, cols: n as usize, data: c })
                .map_err(|e| format!("{} on {shape:?}, aligned copies: {e}", kernel.label))?;
        }
    }
    Ok(())
}

/// Kernel 18 (few rows; `f32`, BF16 and FP16 inputs) at forced slice counts: one slice stores `C` (which starts as NaN, so an output
/// it skipped or added into shows), two and five add into the zeroed `C`. Rows 1, 5, 16 and 17 (one
/// block row, a partial one, a whole one, and two), K whole and partial groups of four (K = 3, 129:
/// `A`'s guarded loads; K = 264: its 16-byte loads, slices ending mid-K-step), N whole and partial
/// float4 groups; (6, 130, 100): `B`'s rows element by element with `A`'s in vector fours. The 16-bit
/// entries (passes of 8 rows, groups of eight rows of `B`, `A` in 16-byte loads where K is a multiple of
/// 8): K = 100 and 129 take `A` element by element; (8, 264, 1032) is one whole block row over whole
/// groups; (12, 133, 520) two passes, the second partial, with odd rows of `B` and `A` in vector
/// eights.
fn few_rows_stores_one_slice_and_adds_several() -> Result<(), Failed> {
    for algo in [Algo::FewRows, Algo::FewRowsBf16, Algo::FewRowsF16] {
        stores_one_slice_and_adds_several(
            algo,
            &[(1, 7, 3), (5, 132, 264), (16, 68, 129), (17, 260, 264), (6, 130, 100), (8, 264, 1032), (12, 133, 520)],
        )?;
    }
    Ok(())
}

/// Kernel 19 (few columns; `f32`, BF16 and FP16 inputs) at one slice (storing `C`) and several (adding into it): M one warp's
/// rows, a partial block of warps, whole blocks and a block and a bit (M = 3, 37, 64, 70); N = 1 (a
/// GEMV), 3 (guarded loads of `B`), 4 (its 16-byte loads) and 6 (a second block column); K = 3
/// (`A`'s guarded loads), 129 (a partial run of a warp), 264, 600 and 2056 (16-byte loads — of eight
/// 16-bit elements too; slices and the runs in flight ending mid-way), 1100 (a multiple of 4, not of
/// 8: the 16-bit entries' two 8-byte loads) and 2030. The 16-bit entries' one loop where K is a
/// multiple of 8 (16-byte loads, predicated): (64, 4, 600) with vector loads of `B`, (40, 5, 2056)
/// with element loads, the GEMVs (one column, `B` a vector) (36, 1, 1544) and (8, 1, 8200) (long
/// enough for the K-split entries' eighths to span runs), (70, 6, 264) and (38, 1, 264) with their
/// last warp's two rows predicated off. K no multiple of 8 (four elements a lane, no branch among the
/// loads): A's rows in vector fours at (33, 2, 1100), (9, 1, 1004) and (37, 8, 1004), clamped
/// elements at (5, 1, 2030), (35, 4, 1001) and the odd K above.
fn few_cols_stores_one_slice_and_adds_several() -> Result<(), Failed> {
    for algo in [Algo::FewCols4, Algo::FewColsBf16, Algo::FewColsF16, Algo::FewColsKsplitBf16, Algo::FewColsKsplitF16] {
        stores_one_slice_and_adds_several(
            algo,
            &[
                (3, 1, 3),
                (37, 3, 129),
                (64, 4, 600),
                (70, 6, 264),
                (5, 1, 2030),
                (33, 2, 1100),
                (40, 5, 2056),
                (36, 1, 1544),
                (8, 1, 8200),
                (38, 1, 264),
                (9, 1, 1004),
                (37, 8, 1004),
                (35, 4, 1001),
            ],
        )?;
    }
    Ok(())
}

/// `algo` (a kernel that stores `C` with one slice and adds into the zeroed `C` with more) at 1, 2
/// and 5 slices of each shape, against the f64 reference; zeroing `C` follows the model's slice count.
fn stores_one_slice_and_adds_several(algo: Algo, shapes: &[(usize, usize, usize)]) -> Result<(), Failed> {
    let kernel = algo.kernel().ok_or("no kernel")?;
    for &(m, n, k) in shapes {
        let (a, b) = (HostMatrix::random(m, k, 17), HostMatrix::random(k, n, 19));
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        for slices in [1, 2, 5] {
            let mut grid = catalogue_line(algo).launch(shape, H).grid;
            grid.2 = slices; // any slice count: the kernel's contract
            let c = run_on_grid(algo, grid, &a, &b, slices == 1)?;
            check_in(kernel.precision, &a, &b, &c).map_err(|e| format!("{} on {shape:?}, {slices} slices: {e}", kernel.label))?;
        }
        let one = catalogue_line(algo).splits(shape, H) == 1;
        if catalogue_line(algo).accumulates_into_c(shape, H) == one {
            return Err(format!("{}: {shape:?}: zeroing C must follow the slice count", kernel.label).into());
        }
    }
    Ok(())
}

/// Stream-K (kernel 17) with grids smaller than the launch's, so every kind of piece runs: 300 × 520
/// × 136 is 3 × 5 tiles of 128×128 (3 × 3 of 128×256, 5 × 9 of 64×64), 9 K-steps each (K = 136:
/// the last step partial). One block walks every tile whole and stores it: `C` starts as NaN, so a
/// tile it skipped or added into shows. Grids of 2, 7 and 10 blocks cut runs inside tiles, so pieces
/// start and end mid-tile, a block's run holds whole tiles between two partial ones, and a tile's
/// pieces come from two or three blocks (added into the zeroed `C`). The launch's own grid (at most
/// one block per K-step) runs in the catalogue trials; K = 0 (every tile one empty step, stored as
/// zeros over NaN) here; N odd or even but no multiple of 4 (the row-at-a-time writes) too. Kernel
/// 21's stream-K entries (16-bit inputs, kernel 17's walk) run the same grids.
fn stream_k_pieces_add_up() -> Result<(), Failed> {
    for algo in [Algo::StreamK128x128x16, Algo::StreamK128x256x16, Algo::StreamK64x64x16, Algo::WidenedStreamKBf16, Algo::WidenedStreamKF16]
    {
        let kernel = algo.kernel().ok_or("no kernel")?;
        for ((m, n, k), blocks) in
            [((300, 520, 136), 1), ((300, 520, 136), 2), ((300, 520, 136), 7), ((300, 520, 136), 10), ((70, 33, 0), 1)]
                .into_iter()
                // K a multiple of BK: the interior tiles' pieces, whole and partial, take the entries'
                // `accumulate_interior` (at K = 136 only pieces ending mid-tile do).
                .chain([((300, 520, 128), 1), ((300, 520, 128), 7)])
                // N not a multiple of 4: stores and adds a row at a time through shared memory, with a
                // barrier before the next piece's loads reuse it.
                .chain([((300, 523, 136), 1), ((300, 523, 136), 7), ((300, 522, 136), 10)])
        {
            let (a, b) = (HostMatrix::random(m, k, 11), HostMatrix::random(k, n, 13));
            let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
            if !catalogue_line(algo).accumulates_into_c(shape, H) || catalogue_line(algo).launch(shape, H).grid.1 != 1 {
                return Err(format!("{}: {shape:?}: expected a 1-D grid adding into C", kernel.label).into());
            }
            // Any 1-D grid: kernel 17's contract. Every piece is a whole tile with one block: stored,
            // so NaN must be overwritten.
            let c = run_on_grid(algo, (blocks, 1, 1), &a, &b, blocks == 1)?;
            check_in(kernel.precision, &a, &b, &c).map_err(|e| format!("{} on {shape:?}, {blocks} blocks: {e}", kernel.label))?;
        }
    }
    Ok(())
}

/// `Auto` on empty products (M, N or K zero) in every precision: a result of the right shape, zeros,
/// and no panic on the way — the plan is made before the empty check (stream-K's model once divided
/// by the zero tiles of such a shape).
fn auto_on_empty_products() -> Result<(), Failed> {
    for (m, n, k) in [(0, 3, 4), (3, 0, 4), (0, 0, 0), (3, 4, 0)] {
        for p in Precision::ALL {
            let (a, b) = (HostMatrix::random(m, k, 1), HostMatrix::random(k, n, 2));
            let c = tessera_emulator::ops::matmul_in(p, Algo::Auto, &a, &b).map_err(|e| format!("Auto {p:?} {m}×{n}×{k}: {e}"))?;
            if (c.rows, c.cols) != (m, n) || c.data.iter().any(|&x| x != 0.0) {
                return Err(format!("Auto {p:?} {m}×{n}×{k}: {}×{} result {:?}", c.rows, c.cols, c.data).into());
            }
        }
    }
    Ok(())
}

/// Kernel 16 with fewer blocks than work units, as on a large product. 300 × 520 × 136 is 3 × 3 tiles
/// of 128×256 (3 × 5 of 128×128), 3 K-steps each; 2 blocks walk 5 and 4 tiles (8 and 7), so the
/// pipeline's global step count (and the barriers' phases, past every stage of the narrow tile's 7)
/// runs on across tiles and the grouped order wraps a partial group. 200 × 136 × 2048 on the narrow
/// tile is 2 × 2 tiles of 32 K-steps, which the launch splits in slices (`tc_model::best_splits`);
/// one block per slice index walks the 4 tiles' slices, adding them into the zeroed `C`.
fn persistent_blocks_walk_several_tiles() -> Result<(), Failed> {
    // (kernel, shape, its tiles, whether the launch splits K, blocks along x when walking)
    let cases = [
        (Algo::PersistentBf16, (300, 520, 136), 9, false, 2),
        (Algo::PersistentBf16Narrow, (300, 520, 136), 15, false, 2),
        (Algo::PersistentBf16Narrow, (200, 136, 2048), 4, true, 1),
        // Split K with rows 8 and 4 bytes wide: the slices' adds by pairs and one by one.
        (Algo::PersistentBf16Narrow, (200, 138, 2048), 4, true, 1),
        (Algo::PersistentBf16Narrow, (200, 137, 2048), 4, true, 1),
    ];
    for (algo, (m, n, k), tiles, split, walkers) in cases {
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        let (grid, splits) = (catalogue_line(algo).launch(shape, H).grid, catalogue_line(algo).splits(shape, H));
        // Below one wave of units: one block per tile, gridDim.y the slices.
        if grid != (tiles, splits, 1) || (splits > 1) != split || catalogue_line(algo).accumulates_into_c(shape, H) != split {
            return Err(format!("{algo:?}: grid {grid:?} on {shape:?} ({splits} slices), expected {tiles} tiles, split {split}").into());
        }
        run_tma_walk(algo, (m, n, k), (walkers, splits, 1), split)?;
    }
    Ok(())
}

/// BF16 TMA kernel `algo` on random operands of `(m, n, k)` with the launch of the catalogue but for
/// `grid`, checked against the reference; `C` starts zeroed where `zeroed` (the launch adds), NaN
/// otherwise.
fn run_tma_walk(algo: Algo, (m, n, k): (usize, usize, usize), grid: (u32, u32, u32), zeroed: bool) -> Result<(), Failed> {
    let (a, b) = (HostMatrix::random(m, k, 3), HostMatrix::random(k, n, 5));
    let (a16, b16) = (half_bits(Precision::Bf16, &a), half_bits(Precision::Bf16, &b));
    let kernel = algo.kernel().ok_or("no kernel")?;
    let tessera_catalogue::registry::algo::HostKernel::Tma(host) = kernel.host else { return Err("not a TMA kernel".into()) };
    let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
    let mut cfg = Launch::from(catalogue_line(algo).launch(shape, H));
    cfg.grid = grid;
    let mut c = vec![if zeroed { 0.0 } else { f32::NAN }; m * n];
    let c_ptr = SyncPtr::new(c.as_mut_ptr());
    let packing = tessera_catalogue::plan::KernelLaunch::new(algo, shape, H).map_err(|e| e.to_string())?.tma.ok_or("no TMA layouts")?;
    let call = tessera_emulator::ops::TmaCall::Plain(host);
    tessera_emulator::ops::launch_tma(kernel, call, cfg, shape, packing, a16.as_ptr().cast(), b16.as_ptr().cast(), c_ptr)
        .map_err(|e| format!("{}: {e}", kernel.label))?;
    check_in(Precision::Bf16, &a, &b, &HostMatrix { rows: m, cols: n, data: c })
        .map_err(|e| format!("{} on {shape:?}, grid {grid:?}: {e}", kernel.label).into())
}

/// Kernel 23 (kernel 16's walk, the producer copying the operands) with fewer blocks than tiles, so
/// that each block's copies run on across tiles, and split along K (300 × 520 × 136: 25 tiles of
/// 64×128 on 3 blocks; 100 × 136 × 4096: 4 tiles, K split by the model, each slice on its own block
/// row); rows 16-byte aligned (the `cp.async` path) and off a 32-byte sector (K = 136).
fn copy_fed_blocks_walk_several_tiles() -> Result<(), Failed> {
    for (algo, (m, n, k), walkers) in [(Algo::CopyFedBf16Rows64, (300, 520, 136), 3), (Algo::CopyFedBf16Rows64, (100, 136, 4096), 1)] {
        let (a, b) = (HostMatrix::random(m, k, 3), HostMatrix::random(k, n, 5));
        let (a16, b16) = (half_bits(Precision::Bf16, &a), half_bits(Precision::Bf16, &b));
        let kernel = algo.kernel().ok_or("no kernel")?;
        let tessera_catalogue::registry::algo::HostKernel::Half(host) = kernel.host else { return Err("not a pointer kernel".into()) };
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        let mut cfg = Launch::from(catalogue_line(algo).launch(shape, H));
        let splits = catalogue_line(algo).splits(shape, H);
        if (splits > 1) != (k == 4096) || catalogue_line(algo).accumulates_into_c(shape, H) != (splits > 1) {
            return Err(format!("{}: {splits} slices on {shape:?}", kernel.label).into());
        }
        cfg.grid = (walkers, splits, 1);
        let mut c = vec![if splits > 1 { 0.0 } else { f32::NAN }; m * n];
        let (pa, pb, pc) = (SyncPtr::from_const(a16.as_ptr()), SyncPtr::from_const(b16.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        tessera_emulator::launch(kernel.entry, cfg, || {
            // SAFETY: a16, b16 and c hold m·k, k·n and m·n elements and outlive the launch; the launch
            // is the kernel's but for fewer blocks along x, which its walk allows.
            unsafe { host(pa.get(), pb.get(), pc.get(), m as u32, n as u32, k as u32) }
        })
        .map_err(|e| format!("{}: {e}", kernel.label))?;
        check_in(Precision::Bf16, &a, &b, &HostMatrix { rows: m, cols: n, data: c })
            .map_err(|e| format!("{} on {shape:?}, grid {:?}: {e}", kernel.label, cfg.grid))?;
    }
    Ok(())
}

/// Kernel 24 (clusters of two blocks sharing B's tiles by multicast) with fewer clusters than tile
/// pairs, so that each cluster walks several pairs: 300 × 520 × 136 is 3 × 3 tiles of 128×256 (an
/// odd number of tile rows: the last pairs' second tiles lie below the matrix) and 3 × 5 of 128×128;
/// one cluster (2 blocks) and two (4 blocks); K = 136 leaves rows off a sector, K = 4096 runs the
/// stages through many rounds. The 160- and 224-wide tiles load their last 64-column box of B whole
/// (at 520 and 330 columns, the last tile's box partly past the matrix).
fn cluster_blocks_walk_several_tiles() -> Result<(), Failed> {
    let cases = [
        (Algo::ClusterBf16, (300, 520, 136), 2),
        (Algo::ClusterBf16, (300, 520, 136), 4),
        (Algo::ClusterBf16Mid, (300, 520, 136), 4),
        (Algo::ClusterBf16Square, (300, 520, 136), 2),
        (Algo::ClusterBf16Square, (420, 200, 1032), 4),
        (Algo::ClusterBf16Rows64, (300, 520, 136), 4),
        (Algo::ClusterBf16Rows64Wide, (200, 520, 1032), 2),
        (Algo::ClusterBf16Narrow, (300, 520, 136), 2),
        (Algo::ClusterBf16Narrow, (200, 136, 4096), 2),
        (Algo::ClusterBf16N160, (300, 520, 136), 4),
        (Algo::ClusterBf16N224, (300, 520, 1032), 2),
        (Algo::ClusterBf16Tall160, (420, 330, 136), 2),
        (Algo::ClusterBf16Tall160, (420, 200, 1032), 4),
    ];
    for (algo, (m, n, k), walkers) in cases {
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        let grid = catalogue_line(algo).launch(shape, H).grid;
        let cfg = catalogue_line(algo).config;
        let pairs = (m as u32).div_ceil(cfg.bm).div_ceil(2) * (n as u32).div_ceil(cfg.bn);
        if grid != (2 * pairs, 1, 1) || catalogue_line(algo).accumulates_into_c(shape, H) {
            return Err(format!("{algo:?}: grid {grid:?} on {shape:?}, expected {pairs} pairs of blocks").into());
        }
        run_tma_walk(algo, (m, n, k), (walkers, 1, 1), false)?;
    }
    Ok(())
}

/// Kernel 22 with fewer blocks than the launch plans, so that runs cross tiles: 300 × 520 × 136 is
/// 3 × 3 tiles of 128×256, 3 K-steps each (27 steps); on 4 blocks one whole tile each (a
/// data-parallel round), then the last 5 tiles' 15 steps in runs of 3 or 4 (a tile's end, the next
/// one's start); on 5 blocks all 9 tiles stream-K, runs of 5 or 6; on 27 blocks one step each (every
/// tile shared by three runs: one publishes, two add). `C` starts NaN, as nothing zeroes it: an
/// addition before the publishing store shows.
fn tma_stream_k_runs_cross_tiles() -> Result<(), Failed> {
    let shape = MatmulShape { m: 300, n: 520, k: 136 };
    let grid = catalogue_line(Algo::StreamKTmaBf16).launch(shape, H).grid;
    if grid != (27, 1, 1) || catalogue_line(Algo::StreamKTmaBf16).accumulates_into_c(shape, H) {
        return Err(format!("grid {grid:?} on {shape:?}, expected one block per K-step (27) storing first").into());
    }
    for blocks in [4, 5, 27] {
        run_tma_walk(Algo::StreamKTmaBf16, (300, 520, 136), (blocks, 1, 1), false)?;
    }
    Ok(())
}

/// Kernel 24's stream-K entries on fewer clusters than they plan: 300 × 520 × 136 is 2 × 3 pairs of
/// 128×256 tiles (the second tile of the lower pairs below the matrix), 3 K-steps each; on 2 and 4
/// clusters every pair stream-K in runs of 3–5 steps, on 18 one step each (three runs a pair); 420 ×
/// 200 × 1032 is 2 × 2 pairs of 128×192, 17 steps each, on 3 clusters runs of 22–23 steps crossing
/// up to three pairs; 900 × 200 × 136 is 4 × 2 pairs on 3 clusters, a data-parallel round first.
fn cluster_stream_k_runs_cross_pairs() -> Result<(), Failed> {
    let cases = [
        (Algo::ClusterStreamKBf16, (300, 520, 136), 4),
        (Algo::ClusterStreamKBf16, (300, 520, 136), 8),
        (Algo::ClusterStreamKBf16, (300, 520, 136), 36),
        (Algo::ClusterStreamKBf16Mid, (420, 200, 1032), 6),
        (Algo::ClusterStreamKBf16Mid, (900, 200, 136), 6),
    ];
    for (algo, (m, n, k), blocks) in cases {
        let shape = MatmulShape { m: m as u32, n: n as u32, k: k as u32 };
        if catalogue_line(algo).accumulates_into_c(shape, H) || catalogue_line(algo).flag_words(shape, H) == 0 {
            return Err(format!("{algo:?} on {shape:?}: zeroes C, or names no counters").into());
        }
        run_tma_walk(algo, (m, n, k), (blocks, 1, 1), false)?;
    }
    Ok(())
}

/// TF32 rounds each operand to nearest (as cuBLAS's TF32 mode, measured), whichever way a kernel does
/// it (the host's preparation kernels, or kernels 15–16 rounding A in registers): with one operand
/// all `1 + 3·2⁻¹²` (nearest TF32: `1 + 2⁻¹⁰`; truncated: 1) and the other all ones, every element of
/// a 65 × 8 × 32 product is exactly `32·(1 + 2⁻¹⁰)` — truncation would give 32. The tolerance check of
/// the other trials cannot tell the two apart.
fn tf32_rounds_each_operand_to_nearest() -> Result<(), Failed> {
    let (m, n, k) = (65, 8, 32);
    let tie = 1.0 + 3.0 * 2f32.powi(-12);
    let expected = 32.0 * (1.0 + 2f32.powi(-10));
    for kernel in tessera_catalogue::MATMUL_KERNELS.iter().filter(|k| k.precision == Precision::Tf32) {
        for (what, a, b) in [
            ("A", HostMatrix::from_fn(m, k, |_, _| tie), HostMatrix::from_fn(k, n, |_, _| 1.0)),
            ("B", HostMatrix::from_fn(m, k, |_, _| 1.0), HostMatrix::from_fn(k, n, |_, _| tie)),
        ] {
            let c = tessera_emulator::ops::matmul_in(Precision::Tf32, kernel.algo, &a, &b).map_err(|e| e.to_string())?;
            if let Some(bad) = c.data.iter().find(|&&x| x != expected) {
                return Err(format!("{}: {what} not rounded to nearest: {bad}, expected {expected}", kernel.label).into());
            }
        }
    }
    Ok(())
}

/// `(rows, cols, ld)` for the layout kernels: shapes that are no multiple of their 32 × 32 tile, a
/// single element, and `ld = cols` (a plain copy).
const LAYOUTS: [(u32, u32, u32); 6] = [(1, 1, 8), (3, 13, 16), (33, 37, 40), (70, 65, 72), (5, 32, 32), (40, 9, 64)];
/// Elements past `rows·ld` that a layout kernel must leave alone.
const GUARD: usize = 67;

/// Where `dst` (`rows·ld` elements, then [`GUARD`] more) holds element `(r, c)` of a `rows × cols`
/// layout, or `None` for the padding and the guard zone, which must keep `sentinel`.
fn check_layout<T: PartialEq + std::fmt::Debug + Copy>(
    what: &str,
    dst: &[T],
    (rows, cols, ld): (u32, u32, u32),
    sentinel: T,
    expected: impl Fn(u32, u32) -> T,
) -> Result<(), Failed> {
    for (i, &got) in dst.iter().enumerate() {
        let (r, c) = ((i / ld as usize) as u32, (i % ld as usize) as u32);
        let want = if r < rows && c < cols { expected(r, c) } else { sentinel };
        if got != want {
            return Err(format!("{what} {rows}×{cols}, ld {ld}: element {i} (row {r}, column {c}) is {got:?}, expected {want:?}").into());
        }
    }
    Ok(())
}

/// `pad_b16` copies each row exactly, and writes neither the padding (columns `cols..ld`) nor past
/// `rows·ld` (a guard zone after it): on [`LAYOUTS`] and on rows of whole 16-, 8- and 4-byte units
/// (its vector paths: aligned buffers, `cols` and `ld` multiples of 8, 4 or 2, a grid of fewer
/// threads than units), on odd rows and rows of 2 mod 4 into 16-byte destination units (its shifted
/// path), and the same rows from buffers off their unit (8-byte units from a buffer 8 bytes in; the
/// element path from one 2 bytes in, on that grid).
fn pad_b16_copies_rows_and_writes_nothing_else() -> Result<(), Failed> {
    const SENTINEL: u16 = 0xBEEF;
    let units = [
        (3, 8, 24, 0),
        (37, 48, 56, 0),
        (70, 64, 72, 0),
        (70, 64, 72, 1),
        (9, 12, 16, 0),
        (33, 36, 40, 4),
        (33, 36, 40, 1),
        (21, 38, 42, 0),
        (21, 38, 42, 1),
        // Odd rows and rows of 2 mod 4 into 16-byte units (the shifted path; from a buffer 2 bytes
        // in, the element path); 13 × 1169 ends on an odd element whose last word is the source's
        // last half word.
        (7, 13, 16, 0),
        (9, 27, 32, 0),
        (33, 38, 40, 0),
        (5, 9, 16, 0),
        (13, 1169, 1176, 0),
        (13, 1169, 1176, 1),
        (64, 1, 8, 0),
    ];
    for (rows, cols, ld, skew) in LAYOUTS.iter().map(|&(r, c, l)| (r, c, l, 0)).chain(units) {
        // u128 storage: 16-byte aligned buffers, then `skew` elements in.
        let mut src_store = vec![0u128; (rows * cols) as usize / 8 + 2];
        let mut dst_store = vec![0u128; ((rows * ld) as usize + GUARD) / 8 + 2];
        // SAFETY: the u128 buffers hold at least `skew + len` u16 elements each.
        let (src, dst) = unsafe {
            (
                std::slice::from_raw_parts_mut(src_store.as_mut_ptr().cast::<u16>().add(skew), (rows * cols) as usize),
                std::slice::from_raw_parts_mut(dst_store.as_mut_ptr().cast::<u16>().add(skew), (rows * ld) as usize + GUARD),
            )
        };
        src.iter_mut().enumerate().for_each(|(i, v)| *v = (i as u16).wrapping_mul(40_503) & 0x7FFF);
        dst.fill(SENTINEL);
        let (ps, pd) = (SyncPtr::from_const(src.as_ptr()), SyncPtr::new(dst.as_mut_ptr()));
        // A grid of 2 blocks on 16-byte rows: the threads loop over the units.
        let dims = tessera_catalogue::registry::launch::pad_b16(rows, cols, ld, 1);
        let units = (cols % 4 == 0 && ld % 4 == 0) || ld % 8 == 0;
        let dims = if units { tessera_catalogue::LaunchDims { grid: (dims.grid.0.min(2), 1, 1), ..dims } } else { dims };
        launch("pad_b16", Launch::from(dims), || {
            // SAFETY: src holds rows·cols elements, dst more than rows·ld, ld ≥ cols; the launch is the kernel's.
            unsafe { tessera_kernels::pack::pad_b16(ps.get(), pd.get(), rows, cols, ld) }
        })?;
        check_layout("pad_b16", dst, (rows, cols, ld), SENTINEL, |r, c| src[(r * cols + c) as usize])?;
    }
    Ok(())
}

/// `copy_padded_f32` pads (each row copied, the rest of every row and the rows past the source
/// zero-filled) and crops (`out_cols < ld` of the source: only the leading columns kept), writing
/// nothing outside its `out_rows × out_cols` region (`copy_padded` starts the destination as NaN and
/// sizes it to that region's extent; the destination's own padding columns stay NaN when cropping
/// into a wider row).
fn copy_padded_f32_pads_zero_fills_and_crops() -> Result<(), Failed> {
    use tessera_emulator::ops::copy_padded;
    for (rows, cols, ld) in LAYOUTS {
        let src = operands((rows * cols) as usize, 5 + rows as u64);
        // Pad: rows·cols (dense) into (rows + 3) × ld, zeros right of and below the source.
        let out = copy_padded(&src, (cols, rows, cols), (ld, rows + 3, ld))?;
        for r in 0..rows + 3 {
            for c in 0..ld {
                let want = if r < rows && c < cols { src[(r * cols + c) as usize] } else { 0.0 };
                let got = out[(r * ld + c) as usize];
                if got.to_bits() != want.to_bits() {
                    return Err(format!("pad {rows}×{cols} → ld {ld}: ({r}, {c}) is {got}, expected {want}").into());
                }
            }
        }
        // Crop back: the padded rows into dense rows of `cols`.
        let back = copy_padded(&out, (ld, rows, cols), (cols, rows, cols))?;
        if back.iter().zip(&src).any(|(x, y)| x.to_bits() != y.to_bits()) || back.len() != src.len() {
            return Err(format!("crop {rows}×{cols} from ld {ld} differs from the source").into());
        }
        // Into a wider destination row: the columns past out_cols are not the kernel's to write.
        let wide = copy_padded(&src, (cols, rows, cols), (cols + 5, rows, cols))?;
        for r in 0..rows.saturating_sub(1) {
            if (cols..cols + 5).any(|c| !wide[(r * (cols + 5) + c) as usize].is_nan()) {
                return Err(format!("{rows}×{cols}: the kernel wrote past out_cols in row {r}").into());
            }
        }
    }
    // Contract violations are refused before any launch.
    if copy_padded(&[0.0; 4], (2, 2, 3), (4, 2, 4)).is_ok() || copy_padded(&[0.0; 3], (2, 2, 2), (2, 2, 2)).is_ok() {
        return Err("copy_padded accepted cols > ld or too short a source".into());
    }
    Ok(())
}

/// FP32 `Auto`'s unaligned path (`fp32_padding`): K padded only (A and B copied, C written in place),
/// N padded only (B copied, C' cropped), both; on kernels with every store path (`store_acc`'s
/// float4 one on the padded rows, split-K's atomics into a zeroed C'), and `Auto` on the padded
/// shape. Checked against the f64 reference: a copy that left NaN or garbage in the padding shows.
fn fp32_unaligned_path_matches_reference() -> Result<(), Failed> {
    use tessera_emulator::ops::matmul_fp32_padded;
    for (m, n, k) in [(20, 16, 13), (20, 13, 16), (33, 17, 9), (130, 261, 37), (5, 3, 1031)] {
        let (a, b) = (HostMatrix::random(m, k, 3 + m as u64), HostMatrix::random(k, n, 11 + n as u64));
        for algo in [Algo::Auto, Algo::Dbuf64x64x16, Algo::Dbuf128x256x16, Algo::SplitK64x64x16, Algo::Tiled] {
            let c = matmul_fp32_padded(algo, &a, &b).map_err(|e| format!("{}: {m}×{n}×{k}: {e}", algo.label()))?;
            check_in(Precision::Fp32, &a, &b, &c).map_err(|e| format!("padded {} on {m}×{n}×{k}: {e}", algo.label()))?;
        }
    }
    // Aligned shapes need no padding; TF32 kernels do not read plain f32 pointers.
    let (a, b) = (HostMatrix::random(8, 8, 1), HostMatrix::random(8, 8, 2));
    if matmul_fp32_padded(Algo::Auto, &a, &b).is_ok() {
        return Err("an aligned shape took the padded path".into());
    }
    let (a, b) = (HostMatrix::random(8, 5, 1), HostMatrix::random(5, 8, 2));
    if matmul_fp32_padded(Algo::MmaNaiveTf32, &a, &b).is_ok() {
        return Err("a TF32 kernel ran on the padded f32 path".into());
    }
    Ok(())
}

/// The TF32 preparation with padded rows: `tf32_round` writes `A` rounded with rows `ld` apart,
/// `tf32_transpose_round` `Bᵀ` rounded (`cols × rows`, rows `ld ≥ rows` apart), each value exactly
/// `round_tf32` of its source, and neither writes the padding or past its `rows·ld`.
fn tf32_preparation_pads_rows_and_writes_nothing_else() -> Result<(), Failed> {
    use tessera_kernels::tf32_operands::{round_tf32, tf32_round, tf32_transpose_round};
    let sentinel = f32::from_bits(0x7FC0_BEEF);
    for (rows, cols, ld) in LAYOUTS {
        let src = operands((rows * cols) as usize, (rows * 131 + cols) as u64);
        let ps = SyncPtr::from_const(src.as_ptr());
        let mut a = vec![sentinel; (rows * ld) as usize + GUARD];
        let pa = SyncPtr::new(a.as_mut_ptr());
        launch("tf32_round", Launch::from(tessera_catalogue::registry::launch::tf32_round(rows, cols)), || {
            // SAFETY: src holds rows·cols floats, the destination more than rows·ld, ld ≥ cols.
            unsafe { tf32_round(ps.get(), pa.get(), rows, cols, ld) }
        })?;
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let rounded = |i: u32| round_tf32(src[i as usize]).to_bits();
        check_layout("tf32_round", &bits(&a), (rows, cols, ld), sentinel.to_bits(), |r, c| rounded(r * cols + c))?;
        // The transpose of a `ld × rows` source (ld ≥ rows, the transposed rows' length), so its
        // destination rows can be padded.
        let (t_rows, t_cols) = (cols, rows);
        let src = operands((t_rows * t_cols) as usize, 99 + rows as u64);
        let ps = SyncPtr::from_const(src.as_ptr());
        let mut bt = vec![sentinel; (t_cols * ld) as usize + GUARD];
        let pb = SyncPtr::new(bt.as_mut_ptr());
        launch("tf32_transpose_round", Launch::from(tessera_catalogue::registry::launch::tf32_transpose(t_rows, t_cols)), || {
            // SAFETY: src holds t_rows·t_cols floats, the destination more than t_cols·ld, ld ≥ t_rows.
            unsafe { tf32_transpose_round(ps.get(), pb.get(), t_rows, t_cols, ld) }
        })?;
        let rounded = |i: u32| round_tf32(src[i as usize]).to_bits();
        check_layout("tf32_transpose_round", &bits(&bt), (t_cols, t_rows, ld), sentinel.to_bits(), |r, c| rounded(c * t_cols + r))?;
    }
    Ok(())
}

fn main() {
    // Every kernel of the catalogue in its precision (and `Auto` in each) on every shape, one trial
    // per case.
    let mut trials: Vec<Trial> = matmul_cases()
        .into_iter()
        .map(|(algo, p)| {
            Trial::test(format!("matmul_{}_matches_reference", case_label(algo, p)), move || {
                let tma = algo.config().is_some_and(|c| c.tma || c.producer_copies);
                SHAPES.into_iter().chain(TMA_SHAPES.into_iter().filter(|_| tma)).try_for_each(|s| check_algo_on_shape(algo, p, s))
            })
        })
        .collect();
    trials.push(Trial::test("split_k_sums_its_slices", split_k_sums_its_slices));
    trials.push(Trial::test("odd_rows_never_read_their_neighbours", odd_rows_never_read_their_neighbours));
    trials.push(Trial::test("aligned_packings_copy_rows_off_a_sector", aligned_packings_copy_rows_off_a_sector));
    trials.push(Trial::test("persistent_blocks_walk_several_tiles", persistent_blocks_walk_several_tiles));
    trials.push(Trial::test("copy_fed_blocks_walk_several_tiles", copy_fed_blocks_walk_several_tiles));
    trials.push(Trial::test("cluster_blocks_walk_several_tiles", cluster_blocks_walk_several_tiles));
    trials.push(Trial::test("stream_k_pieces_add_up", stream_k_pieces_add_up));
    trials.push(Trial::test("tma_stream_k_runs_cross_tiles", tma_stream_k_runs_cross_tiles));
    trials.push(Trial::test("cluster_stream_k_runs_cross_pairs", cluster_stream_k_runs_cross_pairs));
    trials.push(Trial::test("few_rows_stores_one_slice_and_adds_several", few_rows_stores_one_slice_and_adds_several));
    trials.push(Trial::test("few_cols_stores_one_slice_and_adds_several", few_cols_stores_one_slice_and_adds_several));
    trials.push(Trial::test("auto_on_empty_products", auto_on_empty_products));
    trials.push(Trial::test("tf32_rounds_each_operand_to_nearest", tf32_rounds_each_operand_to_nearest));
    trials.push(Trial::test("pad_b16_copies_rows_and_writes_nothing_else", pad_b16_copies_rows_and_writes_nothing_else));
    trials.push(Trial::test("tf32_preparation_pads_rows_and_writes_nothing_else", tf32_preparation_pads_rows_and_writes_nothing_else));
    trials.push(Trial::test("copy_padded_f32_pads_zero_fills_and_crops", copy_padded_f32_pads_zero_fills_and_crops));
    trials.push(Trial::test("fp32_unaligned_path_matches_reference", fp32_unaligned_path_matches_reference));
    trials.push(Trial::test("vec_add_matches_elementwise_sum", vec_add_matches_elementwise_sum));
    trials.push(Trial::test("vec_add_vec4_grid_stride_matches_elementwise_sum", vec_add_vec4_grid_stride_matches_elementwise_sum));
    trials.push(Trial::test("vec_add_vec4_in_place_accumulates", vec_add_vec4_in_place_accumulates));
    trials.push(Trial::test("zero_f32_zeroes_exactly_its_range_from_any_start", zero_f32_zeroes_exactly_its_range_from_any_start));
    trials.push(Trial::test("iterated_fma_matches_mul_add_chain_bit_for_bit", iterated_fma_matches_mul_add_chain_bit_for_bit));
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}

fn vec_add_matches_elementwise_sum() -> Result<(), Failed> {
    for n in [1usize, 1000, 4097] {
        let (a, b) = (operands(n, 3), operands(n, 4));
        let mut c = vec![f32::NAN; n];
        let cfg = Launch::from(elementwise("vec_add", n, vec_add::BLOCK)?);
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch.
            unsafe { vec_add::vec_add(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap();
        for i in 0..n {
            // One f32 addition per element: the emulator must give exactly what the GPU gives.
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

/// `zero_f32` from each of the four 4-byte offsets within 16 bytes (its head of 0–3 elements), over
/// lengths with every tail and a grid-stride loop (2 "SMs": 4 blocks of 256 threads, 1,024 quads at
/// once), writes zeros into exactly `[start, start + n)` and nothing around it.
fn zero_f32_zeroes_exactly_its_range_from_any_start() -> Result<(), Failed> {
    for start in 0..4usize {
        for n in [0usize, 1, 2, 3, 5, 7, 1024, 4101, 9003] {
            let mut buf = vec![f32::NAN; n + 8];
            let p = SyncPtr::new(buf[start..].as_mut_ptr());
            launch("zero_f32", Launch::from(zero_f32(n, 2)), || {
                // SAFETY: buf holds start + n + (8 − start) floats from its start.
                unsafe { zero_fill::zero_f32(p.get(), n) }
            })
            .unwrap_or_else(|e| panic!("start {start}, n = {n}: {e}"));
            for (i, v) in buf.iter().enumerate() {
                let inside = (start..start + n).contains(&i);
                assert_eq!(v.to_bits(), if inside { 0 } else { f32::NAN.to_bits() }, "start {start}, n = {n}, element {i}");
            }
        }
    }
    Ok(())
}

fn vec_add_vec4_grid_stride_matches_elementwise_sum() -> Result<(), Failed> {
    // Lengths with every remainder mod 4; 2 "SMs" cap the grid at 16 blocks = 4,096 threads, so the
    // 20,003-element case loops (5,000 quads) and the others do not.
    for n in [1usize, 2, 3, 4, 1001, 4098, 20_003] {
        let (a, b) = (operands(n, 5), operands(n, 6));
        let mut c = vec![f32::NAN; n];
        let cfg = Launch::from(grid_stride(n, 2));
        let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
        launch("vec_add_vec4", cfg, || {
            // SAFETY: the three buffers hold n floats and outlive the launch (the host build of
            // View::get4 reads unaligned, so Vec's 4-byte alignment is enough here).
            unsafe { vec_add_vec4::vec_add_vec4(pa.get(), pb.get(), pc.get(), n) }
        })
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        for i in 0..n {
            assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

/// `c = a + b` with `c` the same buffer as `a` (`a += b`): how tessera's blocked products add a K
/// block's product into the block of `C` (the kernel's contract allows exactly this aliasing).
fn vec_add_vec4_in_place_accumulates() -> Result<(), Failed> {
    for n in [3usize, 4098, 20_003] {
        let (a0, b) = (operands(n, 7), operands(n, 8));
        let mut acc = a0.clone();
        let cfg = Launch::from(grid_stride(n, 2));
        let (pa, pb) = (SyncPtr::new(acc.as_mut_ptr()), SyncPtr::from_const(b.as_ptr()));
        launch("vec_add_vec4", cfg, || {
            // SAFETY: acc and b hold n floats and outlive the launch; acc is both an input and the
            // output, as the kernel's contract allows.
            unsafe { vec_add_vec4::vec_add_vec4(pa.get(), pb.get(), pa.get(), n) }
        })
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        for i in 0..n {
            assert_eq!(acc[i].to_bits(), (a0[i] + b[i]).to_bits(), "n = {n}, element {i}");
        }
    }
    Ok(())
}

fn iterated_fma_matches_mul_add_chain_bit_for_bit() -> Result<(), Failed> {
    for (n, iters) in [(1usize, 0u32), (300, 1), (1000, 37), (4097, 200)] {
        let (a, b) = (0.999f32, 0.001f32);
        let x = operands(n, 11 + iters as u64);
        let mut y = vec![f32::NAN; n];
        let cfg = Launch::from(elementwise("iterated_fma", n, iterated_fma::BLOCK)?);
        let (px, py) = (SyncPtr::from_const(x.as_ptr()), SyncPtr::new(y.as_mut_ptr()));
        launch("iterated_fma", cfg, || {
            // SAFETY: x and y hold n floats each and outlive the launch.
            unsafe { iterated_fma::iterated_fma(px.get(), py.get(), n, iters, a, b) }
        })
        .unwrap();
        for i in 0..n {
            // The kernel's order: v = x; repeat iters { v = fma(v, a, b) }. f32::mul_add rounds once,
            // exactly like fma.rn.f32, so the CPU reference must agree to the bit.
            let mut want = x[i];
            for _ in 0..iters {
                want = want.mul_add(a, b);
            }
            assert_eq!(y[i].to_bits(), want.to_bits(), "n = {n}, iters = {iters}, element {i}");
        }
    }
    Ok(())
}
