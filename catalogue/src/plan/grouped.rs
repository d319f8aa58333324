//! Many products in one launch (kernel 26): a strided batch (`C_i = A_i·B_i`, `i < count`, each
//! operand a [`Stack`] of matrices a stride apart, stride 0 for one matrix shared by all) or groups
//! (a mixture-of-experts layer: rows `offsets[g] .. offsets[g+1]` of A and `C` times `B_g`).
//!
//! [`plan`] checks everything before anything runs — the precision, the kernel asked for, the
//! shapes, `C`'s matrices not overlapping, the offsets, the buffers' lengths, the TMA's alignment,
//! the kernels' 32-bit indexing — then picks the tile (`Auto`: [`predict_products_us`]) and
//! describes the launch: both 3-D tensor maps and one block per SM over every product's tiles.
use crate::error::{PlanError, ShapeError};
use crate::precision::Precision;
use crate::registry::grouped::{GroupedAlgo, GroupedHost, GroupedKernel, GROUPED_KERNELS};
use crate::registry::launch::LaunchDims;
use crate::registry::tma::{Layers, TmaOperand, ALIGN};
use crate::select::tc_model::predict_products_us;
use crate::target::Target;
use tessera_kernels::matmul::k15_tma;

/// The name batched products report errors under.
pub const OP_BATCHED: &str = "matmul_batched";
/// The name grouped products report errors under.
pub const OP_GROUPED: &str = "matmul_grouped";

/// `count` row-major matrices of `rows × cols` in one buffer, matrix `i` from element `i·stride`
/// (rows `cols` apart); `stride` 0: one matrix, the same for every `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stack {
    pub count: usize,
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
}

impl Stack {
    /// Elements of the buffer the stack reaches (0 when it holds no element).
    pub fn span(&self) -> Option<usize> {
        if self.count == 0 || self.rows == 0 || self.cols == 0 {
            return Some(0);
        }
        (self.count - 1).checked_mul(self.stride)?.checked_add(self.rows.checked_mul(self.cols)?)
    }

    /// Whether its matrices are distinct (a stride), not one shared.
    pub fn batched(&self) -> bool {
        self.stride != 0
    }
}

/// What to multiply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Products<'a> {
    /// `C_i = A_i·B_i` for `i < count` (every stack's `count`).
    Batched { a: Stack, b: Stack, c: Stack },
    /// A (`m × k`, row-major) and `C` (`m × n`) split into `offsets.len() - 1` groups of rows;
    /// `b` holds one `k × n` matrix per group.
    Grouped { m: usize, k: usize, b: Stack, offsets: &'a [u32] },
}

/// The launch of one set of products.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProductsLaunch {
    pub kernel: &'static GroupedKernel,
    /// The entry launched: the kernel's, or its by-rows twin (kernel 28, N not a multiple of 4).
    pub entry: &'static str,
    /// A's and B's 3-D maps (kernel 26; `None` for kernel 28, which reads through pointers).
    pub maps: Option<[TmaOperand; 2]>,
    /// The kernel's `m`: rows of one matrix of a batch, or of the grouped A and `C`.
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// Matrices of the batch, or groups.
    pub count: u32,
    pub a_batched: bool,
    pub b_batched: bool,
    /// Elements between the outputs of a batch's products (0 for groups).
    pub c_stride: usize,
    /// Elements between A's and B's matrices (0: one shared; kernel 28 reads them so).
    pub strides: (usize, usize),
    pub launch: LaunchDims,
    /// The model's time (µs) for the chosen tile.
    pub predicted_us: f64,
}

/// How a set of products runs.
#[derive(Debug, Clone, PartialEq)]
pub enum ProductsPlan {
    /// No output element (no matrix, no row or no column).
    Nothing,
    /// `K = 0`: every output is zero, nothing is read (the host zeroes `C`'s matrices).
    Zero,
    /// One launch of kernel 26.
    Launch(Box<ProductsLaunch>),
}

/// Lengths (elements) of the buffers under A, B and `C`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferLens {
    pub a: usize,
    pub b: usize,
    pub c: usize,
}

/// Checks `products` in `precision` over buffers of `lens` and plans them for `target` with
/// `algo`.
///
/// BF16 and FP16 run kernel 26 (sm_90a); an FP32 batch runs kernel 28 (any GPU).
///
/// Errors: [`PlanError::NoKernel`] for other inputs, grouped FP32, BF16/FP16 off sm_90a;
/// [`PlanError::PrecisionMismatch`] for a kernel of the other precision; [`ShapeError::Mismatch`]
/// for matrices that do not fit together (or counts that differ); [`PlanError::Invalid`] for `C`'s
/// matrices overlapping one another and for offsets that decrease or pass A's rows;
/// [`ShapeError::BufferTooSmall`]; [`ShapeError::Unaligned`] where the TMA cannot read the rows or
/// matrices (K, N and the strides of A and B multiples of 8 elements), or an FP32 batch's matrices
/// do not start on 16 bytes (strides multiples of 4); [`ShapeError::TooLarge`] past the kernels'
/// 32-bit indexing (and an FP32 batch past 65535 matrices: the grid's z).
pub fn plan(
    products: Products<'_>,
    lens: BufferLens,
    precision: Precision,
    algo: GroupedAlgo,
    target: Target,
) -> Result<ProductsPlan, PlanError> {
    let op = match products {
        Products::Batched { .. } => OP_BATCHED,
        Products::Grouped { .. } => OP_GROUPED,
    };
    let fp32 = precision == Precision::Fp32;
    let supported = match products {
        Products::Batched { .. } => fp32 || (matches!(precision, Precision::Bf16 | Precision::Fp16) && target.sm90a),
        Products::Grouped { .. } => matches!(precision, Precision::Bf16 | Precision::Fp16) && target.sm90a,
    };
    if !supported {
        return Err(PlanError::NoKernel { op, precision });
    }
    if let Some(k) = algo.kernel() {
        if k.precision != precision {
            return Err(PlanError::PrecisionMismatch { op, kernel: k.entry, kernel_precision: k.precision, requested: precision });
        }
    }
    let mismatch = |detail: String| PlanError::Shape(ShapeError::Mismatch { op, detail });
    // The products, as the kernel sees them: (a, b, c stacks), the rows of each product, m.
    let (a, b, c, m) = match products {
        Products::Batched { a, b, c } => {
            if a.count != b.count || a.count != c.count {
                return Err(mismatch(format!("A holds {} matrices, B {}, C {}", a.count, b.count, c.count)));
            }
            if a.cols != b.rows || a.rows != c.rows || b.cols != c.cols {
                return Err(mismatch(format!(
                    "A is {}×{}, B {}×{}, C {}×{}: (m×k)·(k×n) into m×n",
                    a.rows, a.cols, b.rows, b.cols, c.rows, c.cols
                )));
            }
            if c.count > 1 && c.rows * c.cols > 0 && c.stride < c.rows * c.cols {
                return Err(PlanError::Invalid {
                    op,
                    detail: format!("C's matrices of {}×{} are {} elements apart: they overlap", c.rows, c.cols, c.stride),
                });
            }
            (a, b, c, a.rows)
        }
        Products::Grouped { m, k, b, offsets } => {
            if b.rows != k {
                return Err(mismatch(format!("A has {k} columns, each group's B {} rows", b.rows)));
            }
            if offsets.len() != b.count + 1 {
                return Err(mismatch(format!(
                    "{} group offsets for the {} groups of B (one more than the groups)",
                    offsets.len(),
                    b.count
                )));
            }
            check_offsets(op, offsets, m)?;
            let a = Stack { count: 1, rows: m, cols: k, stride: 0 };
            (a, b, Stack { count: 1, rows: m, cols: b.cols, stride: 0 }, m)
        }
    };
    for (name, stack, len) in [("A", a, lens.a), ("B", b, lens.b), ("C", c, lens.c)] {
        let needed = stack.span().ok_or_else(|| too_large(op, format!("{name}'s matrices span more elements than a usize")))?;
        if needed > len {
            return Err(ShapeError::BufferTooSmall { op, name, len, needed }.into());
        }
    }
    let (n, k, count) = (b.cols, b.rows, b.count);
    let row_rows: Vec<u32> = match products {
        Products::Batched { .. } => vec![to_u32(op, "rows", m)?; count],
        Products::Grouped { offsets, .. } => offsets.windows(2).map(|w| w[1] - w[0]).collect(),
    };
    if m == 0 || n == 0 || count == 0 || row_rows.iter().all(|&r| r == 0) {
        return Ok(ProductsPlan::Nothing);
    }
    if k == 0 {
        return Ok(ProductsPlan::Zero);
    }
    let (m32, n32, k32, count32) = (to_u32(op, "M", m)?, to_u32(op, "N", n)?, to_u32(op, "K", k)?, to_u32(op, "the count", count)?);
    if u32::try_from(m as u64 * n as u64).is_err() || i32::try_from(m.max(n).max(k)).is_err() {
        return Err(too_large(op, format!("{m}×{n} outputs (K = {k}) pass the kernels' 32-bit indexing")));
    }
    if fp32 {
        return plan_f32((a, b, c), (m32, n32, k32), count32, algo, target).map(|l| ProductsPlan::Launch(Box::new(l)));
    }
    let elem = u64::from(precision.input_bytes());
    let per_row = (ALIGN / elem) as usize;
    for (what, v) in [("K", k), ("N", n), ("A's stride", a.stride), ("B's stride", b.stride)] {
        if !v.is_multiple_of(per_row) {
            return Err(ShapeError::Unaligned {
                op,
                detail: format!(
                    "{what} = {v}: the TMA reads rows and matrices of whole {ALIGN}-byte units (multiples of {per_row} elements)"
                ),
            }
            .into());
        }
    }
    // The stores write 16 bytes of `f32` at once from each matrix's start (measured: C's matrices
    // 17685 floats apart faulted with a misaligned address on the H200).
    if !c.stride.is_multiple_of(4) {
        let detail = format!("C's stride = {}: each output matrix must start on 16 bytes (a multiple of 4 floats)", c.stride);
        return Err(ShapeError::Unaligned { op, detail }.into());
    }
    let candidates = GROUPED_KERNELS.iter().filter(|kl| kl.precision == precision && (algo == GroupedAlgo::Auto || kl.algo == algo));
    let operand_bytes =
        elem as f64 * (a.count.max(1) as f64 * (m * k) as f64 + if b.batched() { count } else { 1 } as f64 * (k * n) as f64);
    let (kernel, predicted_us) = candidates
        .map(|kl| (kl, predict_products_us(kl.config, precision, row_rows.iter().copied(), n32, k32, operand_bytes, target.sms)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .ok_or(PlanError::NoKernel { op, precision })?;
    let cfg = kernel.config;
    let tiles: u64 = row_rows.iter().map(|&r| u64::from(r.div_ceil(cfg.bm)) * u64::from(n32.div_ceil(cfg.bn))).sum();
    let units = u32::try_from(tiles).map_err(|_| too_large(op, format!("{tiles} output tiles pass the grid")))?;
    let layers = |s: Stack, matrix: usize| Layers {
        count: if s.batched() { s.count as u64 } else { 1 },
        stride: elem * if s.batched() { s.stride } else { matrix } as u64,
    };
    let map = |name, rows: usize, cols: usize, boxdim, l: Layers| TmaOperand {
        name,
        elem_bytes: elem as u32,
        dims: [cols as u64, rows as u64],
        row_stride: cols as u64 * elem,
        boxdim,
        layers: Some(l),
    };
    let a_layers = match products {
        Products::Batched { .. } => layers(a, m * k),
        Products::Grouped { .. } => Layers { count: 1, stride: elem * (m * k) as u64 },
    };
    let maps = [map("A", m, k, k15_tma::a_box(cfg), a_layers), map("B", k, n, k15_tma::b_box(cfg), layers(b, k * n))];
    if let Some(far) = maps.iter().find(|o| o.layers.is_some_and(|l| l.stride >= 1 << 40)) {
        return Err(too_large(op, format!("{}'s matrices are 2^40 bytes or more apart (the TMA's limit)", far.name)));
    }
    let launch =
        LaunchDims { grid: (units.min(target.sms.max(1)), 1, 1), block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
    let (a_batched, b_batched) = match products {
        Products::Batched { .. } => (a.batched(), b.batched()),
        Products::Grouped { .. } => (false, true),
    };
    let c_stride = match products {
        Products::Batched { .. } => c.stride,
        Products::Grouped { .. } => 0,
    };
    Ok(ProductsPlan::Launch(Box::new(ProductsLaunch {
        kernel,
        entry: kernel.entry,
        maps: Some(maps),
        m: m32,
        n: n32,
        k: k32,
        count: count32,
        a_batched,
        b_batched,
        c_stride,
        strides: (a.stride, b.stride),
        launch,
        predicted_us,
    })))
}

/// An FP32 batch (kernel 28): its matrices' starts on 16 bytes, the tile of least time in FP32's
/// model (`select::tuning`) for kernel 8's tile on the batch's rows stacked (`count · m` rows: the
/// same tiles and traffic), and kernel 8's grid times the batch along z.
fn plan_f32(
    (a, b, c): (Stack, Stack, Stack),
    (m, n, k): (u32, u32, u32),
    count: u32,
    algo: GroupedAlgo,
    target: Target,
) -> Result<ProductsLaunch, PlanError> {
    let op = OP_BATCHED;
    for (what, v) in [("A's stride", a.stride), ("B's stride", b.stride), ("C's stride", c.stride)] {
        if !v.is_multiple_of(4) {
            let detail = format!("{what} = {v}: each FP32 matrix must start on 16 bytes (strides multiples of 4)");
            return Err(ShapeError::Unaligned { op, detail }.into());
        }
    }
    if count > u16::MAX as u32 {
        return Err(too_large(op, format!("{count} matrices: an FP32 batch takes at most 65535 (the grid's z)")));
    }
    let stacked = crate::shape::MatmulShape { m: m.saturating_mul(count), n, k };
    let (kernel, predicted_us) = GROUPED_KERNELS
        .iter()
        .filter(|kl| kl.precision == Precision::Fp32 && (algo == GroupedAlgo::Auto || kl.algo == algo))
        .filter_map(|kl| Some((kl, crate::select::tuning::predict_us(kl.algo.single()?, stacked, 1, target.sms)?)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .ok_or(PlanError::NoKernel { op, precision: Precision::Fp32 })?;
    let cfg = kernel.config;
    let entry = match kernel.host {
        GroupedHost::Pointers { by_rows, .. } if !n.is_multiple_of(4) => by_rows.0,
        _ => kernel.entry,
    };
    let launch = LaunchDims {
        grid: (n.div_ceil(cfg.bn), m.div_ceil(cfg.bm), count),
        block: (cfg.block.0, cfg.block.1, 1),
        shared_bytes: cfg.shared_bytes,
    };
    Ok(ProductsLaunch {
        kernel,
        entry,
        maps: None,
        m,
        n,
        k,
        count,
        a_batched: a.batched(),
        b_batched: b.batched(),
        c_stride: c.stride,
        strides: (a.stride, b.stride),
        launch,
        predicted_us,
    })
}

/// Group offsets: non-decreasing, the last at most A's `m` rows.
fn check_offsets(op: &'static str, offsets: &[u32], m: usize) -> Result<(), PlanError> {
    if let Some(i) = offsets.windows(2).position(|w| w[1] < w[0]) {
        return Err(PlanError::Invalid {
            op,
            detail: format!("group offsets must not decrease: offsets[{}] = {} < offsets[{i}] = {}", i + 1, offsets[i + 1], offsets[i]),
        });
    }
    match offsets.last() {
        Some(&last) if last as usize > m => {
            Err(PlanError::Invalid { op, detail: format!("the last group offset ({last}) passes A's {m} rows") })
        }
        _ => Ok(()),
    }
}

fn to_u32(op: &'static str, what: &str, v: usize) -> Result<u32, PlanError> {
    u32::try_from(v).map_err(|_| too_large(op, format!("{what} = {v} passes the kernels' 32-bit indexing")))
}

fn too_large(op: &'static str, detail: String) -> PlanError {
    ShapeError::TooLarge { op, detail }.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(count: usize, rows: usize, cols: usize, stride: usize) -> Stack {
        Stack { count, rows, cols, stride }
    }

    const LENS: BufferLens = BufferLens { a: usize::MAX, b: usize::MAX, c: usize::MAX };

    fn launch(p: Result<ProductsPlan, PlanError>) -> ProductsLaunch {
        match p {
            Ok(ProductsPlan::Launch(l)) => *l,
            other => panic!("not a launch: {other:?}"),
        }
    }

    #[test]
    fn a_batch_is_described_by_3d_maps_and_one_block_per_sm() {
        let (a, b, c) = (stack(64, 512, 64, 512 * 64), stack(64, 64, 512, 0), stack(64, 512, 512, 512 * 512));
        let l = launch(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Auto, Target::H200));
        assert_eq!((l.m, l.n, l.k, l.count, l.a_batched, l.b_batched, l.c_stride), (512, 512, 64, 64, true, false, 512 * 512));
        assert_eq!(l.maps.unwrap()[0].layers, Some(Layers { count: 64, stride: 2 * 512 * 64 }));
        assert_eq!(l.maps.unwrap()[1].layers, Some(Layers { count: 1, stride: 2 * 64 * 512 }));
        assert_eq!((l.maps.unwrap()[0].dims, l.maps.unwrap()[1].dims), ([64, 512], [512, 64]));
        assert_eq!(l.launch.grid, (132, 1, 1));
        // A named tile is the one launched.
        let l = launch(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Bf16Rows64, Target::H200));
        assert_eq!(l.kernel.algo, GroupedAlgo::Bf16Rows64);
    }

    #[test]
    fn groups_take_their_rows_from_the_offsets_and_b_by_layer() {
        let offsets = [0, 0, 5, 300, 300, 1000];
        let b = stack(5, 256, 4096, 256 * 4096);
        let l = launch(plan(
            Products::Grouped { m: 1000, k: 256, b, offsets: &offsets },
            LENS,
            Precision::Fp16,
            GroupedAlgo::Auto,
            Target::H200,
        ));
        assert_eq!((l.m, l.count, l.a_batched, l.b_batched), (1000, 5, false, true));
        assert_eq!(l.maps.unwrap()[0].layers, Some(Layers { count: 1, stride: 2 * 1000 * 256 }));
        assert_eq!(l.maps.unwrap()[1].layers, Some(Layers { count: 5, stride: 2 * 256 * 4096 }));
        let tiles: u32 = [0u32, 5, 295, 0, 700].iter().map(|r| r.div_ceil(l.kernel.config.bm) * 4096u32.div_ceil(l.kernel.config.bn)).sum();
        assert_eq!(l.launch.grid.0, tiles.min(132));
    }

    #[test]
    fn what_the_kernels_cannot_run_is_refused_before_anything_runs() {
        let (a, b, c) = (stack(4, 64, 64, 4096), stack(4, 64, 64, 4096), stack(4, 64, 64, 4096));
        let batched = |a, b, c, lens| plan(Products::Batched { a, b, c }, lens, Precision::Bf16, GroupedAlgo::Auto, Target::H200);
        let err = |r: Result<ProductsPlan, PlanError>| r.unwrap_err();
        assert!(matches!(
            err(plan(Products::Batched { a, b, c }, LENS, Precision::Tf32, GroupedAlgo::Auto, Target::H200)),
            PlanError::NoKernel { .. }
        ));
        assert!(matches!(
            err(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Auto, Target { sms: 132, sm90a: false })),
            PlanError::NoKernel { .. }
        ));
        assert!(matches!(
            err(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::F16, Target::H200)),
            PlanError::PrecisionMismatch { .. }
        ));
        assert!(matches!(err(batched(a, stack(3, 64, 64, 4096), c, LENS)), PlanError::Shape(ShapeError::Mismatch { .. })));
        assert!(matches!(err(batched(a, stack(4, 72, 64, 4608), c, LENS)), PlanError::Shape(ShapeError::Mismatch { .. })));
        let overlap = err(batched(a, b, stack(4, 64, 64, 4000), LENS)).to_string();
        assert!(overlap.contains("overlap"), "{overlap}");
        let short = BufferLens { a: 3 * 4096 + 64 * 64 - 1, ..LENS };
        assert!(matches!(err(batched(a, b, c, short)), PlanError::Shape(ShapeError::BufferTooSmall { name: "A", .. })));
        assert!(matches!(
            err(batched(stack(4, 64, 60, 4096), stack(4, 60, 64, 4096), c, LENS)),
            PlanError::Shape(ShapeError::Unaligned { .. })
        ));
        assert!(matches!(err(batched(stack(4, 64, 64, 4100), b, c, LENS)), PlanError::Shape(ShapeError::Unaligned { .. })));
        assert!(matches!(err(batched(a, b, stack(4, 64, 64, 4098), LENS)), PlanError::Shape(ShapeError::Unaligned { .. })));
        let grouped = |offsets: &[u32]| {
            plan(
                Products::Grouped { m: 100, k: 64, b: stack(3, 64, 64, 4096), offsets },
                LENS,
                Precision::Bf16,
                GroupedAlgo::Auto,
                Target::H200,
            )
        };
        assert!(err(grouped(&[0, 50, 40, 100])).to_string().contains("must not decrease"));
        assert!(err(grouped(&[0, 50, 60, 101])).to_string().contains("passes A's 100 rows"));
        assert!(matches!(err(grouped(&[0, 50, 100])), PlanError::Shape(ShapeError::Mismatch { .. })));
        assert!(grouped(&[0, 50, 60, 100]).is_ok());
    }

    #[test]
    fn an_fp32_batch_runs_kernel_28_on_any_gpu_along_z() {
        let (a, b, c) = (stack(256, 128, 128, 128 * 128), stack(256, 128, 130, 0), stack(256, 128, 130, 128 * 130));
        for target in [Target::H200, Target { sms: 80, sm90a: false }] {
            let l = launch(plan(Products::Batched { a, b, c }, LENS, Precision::Fp32, GroupedAlgo::Auto, target));
            assert!(l.maps.is_none() && l.kernel.precision == Precision::Fp32);
            assert_eq!(l.launch.grid.2, 256);
            // N = 130: the by-rows twin.
            assert!(l.entry.ends_with("_by_rows"), "{}", l.entry);
        }
        let misaligned = plan(
            Products::Batched { a: stack(2, 8, 8, 66), b: stack(2, 8, 8, 64), c: stack(2, 8, 8, 64) },
            LENS,
            Precision::Fp32,
            GroupedAlgo::Auto,
            Target::H200,
        );
        assert!(matches!(misaligned, Err(PlanError::Shape(ShapeError::Unaligned { .. }))));
        let groups = plan(
            Products::Grouped { m: 8, k: 8, b: stack(1, 8, 8, 64), offsets: &[0, 8] },
            LENS,
            Precision::Fp32,
            GroupedAlgo::Auto,
            Target::H200,
        );
        assert!(matches!(groups, Err(PlanError::NoKernel { .. })));
    }

    #[test]
    fn empty_products_plan_nothing_and_k_zero_plans_zeros() {
        let nothing = plan(
            Products::Grouped { m: 10, k: 64, b: stack(2, 64, 64, 4096), offsets: &[3, 3, 3] },
            LENS,
            Precision::Bf16,
            GroupedAlgo::Auto,
            Target::H200,
        );
        assert_eq!(nothing, Ok(ProductsPlan::Nothing));
        let (a, b, c) = (stack(2, 8, 0, 0), stack(2, 0, 8, 0), stack(2, 8, 8, 64));
        assert_eq!(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Auto, Target::H200), Ok(ProductsPlan::Zero));
    }
}
