//! Many products in one launch: a strided batch (`C_i = A_i·B_i`, `i < count`, each operand a
//! [`Stack`] of matrices a stride apart, stride 0 for one matrix shared by all), a batch of pointers
//! (every matrix anywhere) or groups (a mixture-of-experts layer: rows `offsets[g] .. offsets[g+1]`
//! of A and `C` times `B_g`).
//!
//! [`plan`] checks everything before anything runs — the precision, the kernel asked for, the
//! shapes, `C`'s matrices not overlapping, the offsets, the buffers' lengths, the alignment, the
//! kernels' 32-bit indexing — then picks the kernel and tile and describes the launch: kernel 26's
//! two 3-D tensor maps and one block per SM over every product's tiles, or kernel 28's or 30's grid
//! of tiles with the matrix along z.
use crate::error::{PlanError, ShapeError};
use crate::precision::Precision;
use crate::registry::grouped::{GroupedAlgo, GroupedKernel, GROUPED_KERNELS};
use crate::registry::launch::LaunchDims;
use crate::registry::tma::{Layers, TmaOperand, ALIGN};
use crate::select::tc_model::predict_products_us;
use crate::shape::MatmulShape;
use crate::target::Target;
use crate::OutputFormat;
use tessera_kernels::launch::TileConfig;
use tessera_kernels::matmul::k15_tma;

/// The name batched products report errors under.
pub const OP_BATCHED: &str = "matmul_batched";
/// The name grouped products report errors under.
pub const OP_GROUPED: &str = "matmul_grouped";
/// The name batches of pointers report errors under.
pub const OP_POINTERS: &str = "matmul_batched_pointers";

/// `count` row-major matrices of `rows × cols` in one buffer, matrix `i` from element `i·stride`
/// (rows `cols` apart); `stride` 0: one matrix, the same for every `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// `C_i = A_i·B_i` for `i < count`, every matrix anywhere in memory: a batch of pointers, whose
    /// table of addresses the caller builds and checks (each matrix dense and row-major, `m × k`,
    /// `k × n`, `m × n`, starting on 16 bytes; the outputs apart).
    Pointers { count: usize, m: usize, n: usize, k: usize },
}

impl Products<'_> {
    /// The name the products report errors under.
    pub fn op(&self) -> &'static str {
        match self {
            Products::Batched { .. } => OP_BATCHED,
            Products::Grouped { .. } => OP_GROUPED,
            Products::Pointers { .. } => OP_POINTERS,
        }
    }
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
    /// The entry is kernel 26's finishing twin (it takes `α`, `C`'s type, the bias and the code).
    pub finished: bool,
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

/// What the products do with their sums beyond `A·B` (kernel 26's finishing twins): `C`'s element
/// type, and whether there is a bias or an activation (`α`, the bias and the activation are the
/// launch's arguments, not the plan's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProductsFinish {
    pub out: OutputFormat,
    pub epilogue: bool,
}

impl ProductsFinish {
    /// `f32` sums stored as they are.
    pub const NONE: ProductsFinish = ProductsFinish { out: OutputFormat::F32, epilogue: false };

    /// Whether a kernel that finishes its sums must run the products.
    pub fn finishes(&self) -> bool {
        self.epilogue || self.out != OutputFormat::F32
    }
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
/// BF16 and FP16 batches run kernel 26 (sm_90a: the TMA) or kernel 30 (`mma.sync`, any GPU; the only
/// one for batches of pointers and for K or N off 8 elements), groups kernel 26; an FP32 batch runs
/// kernel 28 (any GPU). `Auto` takes the candidate of least predicted time
/// ([`predict_products_us`] for kernel 26, the in-place kernels' model for 28 and 30:
/// [`crate::select::tuning::predict_us`] of the tile's single-product kernel).
///
/// Errors: [`PlanError::NoKernel`] for other inputs, grouped FP32, groups off sm_90a, a named kernel
/// that cannot take the products (kernel 26 off sm_90a or on pointers); [`PlanError::PrecisionMismatch`]
/// for a kernel of the other precision; [`ShapeError::Mismatch`]
/// for matrices that do not fit together (or counts that differ); [`PlanError::Invalid`] for `C`'s
/// matrices overlapping one another and for offsets that decrease or pass A's rows;
/// [`ShapeError::BufferTooSmall`]; [`ShapeError::Unaligned`] where no candidate can read the
/// matrices (kernel 26: K, N and the strides of A and B multiples of 8 elements, `C`'s of 4; kernel
/// 30: A's and B's strides multiples of 8; kernel 28: every stride a multiple of 4);
/// [`ShapeError::TooLarge`] past the kernels' 32-bit indexing (and kernels 28 and 30 past 65535
/// matrices or row tiles: the grid's z and y).
pub fn plan(
    products: Products<'_>,
    lens: BufferLens,
    precision: Precision,
    algo: GroupedAlgo,
    target: Target,
) -> Result<ProductsPlan, PlanError> {
    plan_finishing(products, lens, precision, algo, target, ProductsFinish::NONE)
}

/// [`plan`] for products whose sums are finished as `finish` says: kernel 26's finishing twins, or
/// for a batch writing a 16-bit `C` with no epilogue kernel 30 too (`lens.c` in `C`'s own elements;
/// each of kernel 26's matrices of `C` on 16 bytes in its type).
///
/// Errors: [`plan`]'s, [`PlanError::NoKernel`] where no tile takes the products (an epilogue off
/// sm_90a or on a batch of pointers, a kernel 28 tile named for a 16-bit `C`, a kernel 28 or 30 tile
/// named with an epilogue), and [`PlanError::Invalid`] for `K = 0` with a bias or an activation (an
/// empty sum's epilogue).
pub fn plan_finishing(
    products: Products<'_>,
    lens: BufferLens,
    precision: Precision,
    algo: GroupedAlgo,
    target: Target,
    finish: ProductsFinish,
) -> Result<ProductsPlan, PlanError> {
    let op = products.op();
    let sixteen = matches!(precision, Precision::Bf16 | Precision::Fp16);
    let supported = match products {
        Products::Grouped { .. } => sixteen && target.sm90a,
        Products::Batched { .. } | Products::Pointers { .. } => sixteen || precision == Precision::Fp32,
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
        // Each matrix its own allocation (the caller's table): no stride, no buffer to check here.
        Products::Pointers { count, m, n, k } => {
            let stack = |rows, cols| Stack { count, rows, cols, stride: 0 };
            (stack(m, k), stack(k, n), stack(m, n), m)
        }
    };
    if !matches!(products, Products::Pointers { .. }) {
        for (name, stack, len) in [("A", a, lens.a), ("B", b, lens.b), ("C", c, lens.c)] {
            let needed = stack.span().ok_or_else(|| too_large(op, format!("{name}'s matrices span more elements than a usize")))?;
            if needed > len {
                return Err(ShapeError::BufferTooSmall { op, name, len, needed }.into());
            }
        }
    }
    let (n, k, count) = (b.cols, b.rows, b.count);
    let row_rows: Vec<u32> = match products {
        Products::Grouped { offsets, .. } => offsets.windows(2).map(|w| w[1] - w[0]).collect(),
        Products::Batched { .. } | Products::Pointers { .. } => vec![to_u32(op, "rows", m)?; count],
    };
    if m == 0 || n == 0 || count == 0 || row_rows.iter().all(|&r| r == 0) {
        return Ok(ProductsPlan::Nothing);
    }
    if k == 0 {
        if finish.epilogue {
            return Err(PlanError::Invalid { op, detail: "K = 0 with a bias or an activation: the epilogue of an empty sum".into() });
        }
        return Ok(ProductsPlan::Zero);
    }
    let dims = (to_u32(op, "M", m)?, to_u32(op, "N", n)?, to_u32(op, "K", k)?);
    let count32 = to_u32(op, "the count", count)?;
    if u32::try_from(m as u64 * n as u64).is_err() || i32::try_from(m.max(n).max(k)).is_err() {
        return Err(too_large(op, format!("{m}×{n} outputs (K = {k}) pass the kernels' 32-bit indexing")));
    }
    let checked = Checked { products, stacks: (a, b, c), dims, count: count32, precision, algo, target, finish };
    let (tma, in_place) = (tma_launch(checked, &row_rows), pointers_launch(checked));
    // Ties go to kernel 26; a family that cannot take the products gives way to one that can.
    let best = match (tma, in_place) {
        (Ok(Some(x)), Ok(Some(y))) => {
            if y.predicted_us < x.predicted_us {
                y
            } else {
                x
            }
        }
        (Ok(Some(x)), _) | (_, Ok(Some(x))) => x,
        (_, Err(e)) | (Err(e), _) => return Err(e),
        (Ok(None), Ok(None)) => return Err(PlanError::NoKernel { op, precision }),
    };
    Ok(ProductsPlan::Launch(Box::new(best)))
}

/// The products as [`plan`] checked them, for each kernel family to plan: their stacks (a batch of
/// pointers' with stride 0), `(m, n, k)`, the count, and what was asked for.
#[derive(Clone, Copy)]
struct Checked<'a> {
    products: Products<'a>,
    stacks: (Stack, Stack, Stack),
    dims: (u32, u32, u32),
    count: u32,
    precision: Precision,
    algo: GroupedAlgo,
    target: Target,
    finish: ProductsFinish,
}

impl Checked<'_> {
    /// The entries of the precision that read through pointers (kernels 28, 30: `pointers`) or
    /// tensor maps (kernel 26): the one `algo` names, or every one for `Auto`.
    fn candidates(&self, pointers: bool) -> impl Iterator<Item = &'static GroupedKernel> + '_ {
        GROUPED_KERNELS.iter().filter(move |kl| {
            kl.host.pointers() == pointers && kl.precision == self.precision && (self.algo == GroupedAlgo::Auto || kl.algo == self.algo)
        })
    }
}

/// Kernel 26's launch (sm_90a; a strided batch or groups): `Ok(None)` where it has no candidate
/// (another GPU, a batch of pointers, `algo` naming another kernel); an error where the TMA cannot
/// read the matrices; else the tile of least predicted time with its two 3-D tensor maps and one
/// block per SM.
fn tma_launch(q: Checked<'_>, row_rows: &[u32]) -> Result<Option<ProductsLaunch>, PlanError> {
    let Checked { products, stacks: (a, b, c), dims: (m32, n32, k32), count: count32, precision, target, finish, .. } = q;
    let op = products.op();
    let mut candidates = q.candidates(false).peekable();
    if !target.sm90a || matches!(products, Products::Pointers { .. }) || candidates.peek().is_none() {
        return Ok(None);
    }
    let (m, n, k, count) = (m32 as usize, n32 as usize, k32 as usize, count32 as usize);
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
    // The stores write 16 bytes at once from each matrix's start (measured: C's matrices 17685 floats
    // apart faulted with a misaligned address on the H200).
    let per_16 = 16 / finish.out.bytes();
    if !c.stride.is_multiple_of(per_16) {
        let detail = format!("C's stride = {}: each output matrix must start on 16 bytes (a multiple of {per_16} elements)", c.stride);
        return Err(ShapeError::Unaligned { op, detail }.into());
    }
    let operand_bytes =
        elem as f64 * (a.count.max(1) as f64 * (m * k) as f64 + if b.batched() { count } else { 1 } as f64 * (k * n) as f64);
    // A 16-bit C leaves through the finishing twins' store: its measured factor on the f32 price.
    let c16 =
        |kl: &GroupedKernel| if finish.out == OutputFormat::F32 { 1.0 } else { crate::select::tuning::finished_c16_over_f32(kl.algo) };
    let Some((kernel, predicted_us)) = candidates
        .map(|kl| {
            let us = predict_products_us(kl.config, precision, row_rows.iter().copied(), n32, k32, operand_bytes, target.sms);
            (kl, us * c16(kl))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
    else {
        return Ok(None);
    };
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
        Products::Grouped { .. } => Layers { count: 1, stride: elem * (m * k) as u64 },
        _ => layers(a, m * k),
    };
    let maps = [map("A", m, k, k15_tma::a_box(cfg), a_layers), map("B", k, n, k15_tma::b_box(cfg), layers(b, k * n))];
    if let Some(far) = maps.iter().find(|o| o.layers.is_some_and(|l| l.stride >= 1 << 40)) {
        return Err(too_large(op, format!("{}'s matrices are 2^40 bytes or more apart (the TMA's limit)", far.name)));
    }
    let launch =
        LaunchDims { grid: (units.min(target.sms.max(1)), 1, 1), block: (cfg.block.0, cfg.block.1, 1), shared_bytes: cfg.shared_bytes };
    let grouped = matches!(products, Products::Grouped { .. });
    let finished = finish.finishes();
    Ok(Some(ProductsLaunch {
        kernel,
        entry: if finished { kernel.host.finished().unwrap_or(kernel.entry) } else { kernel.entry },
        maps: Some(maps),
        m: m32,
        n: n32,
        k: k32,
        count: count32,
        a_batched: !grouped && a.batched(),
        b_batched: grouped || b.batched(),
        c_stride: if grouped { 0 } else { c.stride },
        strides: (a.stride, b.stride),
        launch,
        predicted_us,
        finished,
    }))
}

/// A batch on the kernels that read through pointers — kernel 28 (FP32) and kernel 30 (BF16, FP16),
/// strided or of pointers: `Ok(None)` for groups or where `algo` names another kernel; an error where
/// a matrix would not start on 16 bytes (kernel 8's `float4` loads and stores; kernel 30's 16-byte
/// `cp.async`, whose stores are one float each) or the grid cannot hold the batch; else the tile of
/// least time in the in-place kernels' model for its single-product kernel on the batch's row tiles
/// stacked (`count · ⌈m/BM⌉ · BM` rows: the same tiles and traffic), at K and at one K-step, as the
/// batch's measured shares of them ([`crate::select::tuning::batch_us`], `C`'s type included), and
/// that kernel's grid times the batch along z.
fn pointers_launch(q: Checked<'_>) -> Result<Option<ProductsLaunch>, PlanError> {
    let Checked { products, stacks: (a, b, c), dims: (m, n, k), count, precision, target, finish, .. } = q;
    let op = products.op();
    let mut candidates = q.candidates(true).peekable();
    // Kernels 28 and 30 store their sums as they are: kernel 28 in `f32`, kernel 30 also rounded
    // once into a 16-bit `C`; neither applies an epilogue.
    let stores = !finish.epilogue && (finish.out == OutputFormat::F32 || precision != Precision::Fp32);
    if matches!(products, Products::Grouped { .. }) || !stores || candidates.peek().is_none() {
        return Ok(None);
    }
    let per16 = 16 / precision.input_bytes() as usize;
    let c_unit = if precision == Precision::Fp32 { 4 } else { 1 };
    for (what, v, unit) in [("A's stride", a.stride, per16), ("B's stride", b.stride, per16), ("C's stride", c.stride, c_unit)] {
        if !v.is_multiple_of(unit) {
            let detail = format!("{what} = {v}: each matrix must start on 16 bytes (strides multiples of {unit} elements)");
            return Err(ShapeError::Unaligned { op, detail }.into());
        }
    }
    if count > u32::from(u16::MAX) {
        return Err(too_large(op, format!("{count} matrices: a batch on kernels 28 and 30 takes at most 65535 (the grid's z)")));
    }
    let fits = |cfg: TileConfig| m.div_ceil(cfg.bm) <= u32::from(u16::MAX);
    let stacked = |cfg: TileConfig| MatmulShape { m: count.saturating_mul(m.div_ceil(cfg.bm) * cfg.bm), n, k };
    let Some((kernel, predicted_us)) = candidates
        .filter(|kl| fits(kl.config))
        .filter_map(|kl| {
            let price = |k| crate::select::tuning::predict_us(kl.algo.single()?, MatmulShape { k, ..stacked(kl.config) }, 1, target.sms);
            let (single, fixed) = (price(k)?, price(k.min(kl.config.bk))?);
            Some((kl, crate::select::tuning::batch_us(kl.algo, single, fixed, finish.out != OutputFormat::F32)))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
    else {
        return Err(too_large(op, format!("{m} rows: more row tiles than the grid's y holds (65535)")));
    };
    let cfg = kernel.config;
    let entry = match kernel.host.twin() {
        Some(twin) if !n.is_multiple_of(4) => twin,
        _ => kernel.entry,
    };
    let launch = LaunchDims {
        grid: (n.div_ceil(cfg.bn), m.div_ceil(cfg.bm), count),
        block: (cfg.block.0, cfg.block.1, 1),
        shared_bytes: cfg.shared_bytes,
    };
    Ok(Some(ProductsLaunch {
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
        finished: false,
    }))
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
        // Off Hopper a 16-bit batch runs kernel 30, never kernel 26.
        let off_hopper = Target { sms: 132, sm90a: false };
        let l = launch(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Auto, off_hopper));
        assert!(l.kernel.host.pointers() && l.maps.is_none(), "{}", l.kernel.label);
        assert!(matches!(
            err(plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, GroupedAlgo::Bf16, off_hopper)),
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
        // K = 60 and C's matrices off 16 bytes: kernel 26 cannot read or store them, kernel 30 can.
        let named = |a, b, c, algo| plan(Products::Batched { a, b, c }, LENS, Precision::Bf16, algo, Target::H200);
        for (a, b, c) in [(stack(4, 64, 60, 4096), stack(4, 60, 64, 4096), c), (a, b, stack(4, 64, 64, 4098))] {
            assert!(matches!(err(named(a, b, c, GroupedAlgo::Bf16)), PlanError::Shape(ShapeError::Unaligned { .. })));
            assert!(launch(named(a, b, c, GroupedAlgo::Auto)).kernel.host.pointers());
        }
        // A's matrices off 16 bytes: neither.
        assert!(matches!(err(batched(stack(4, 64, 64, 4100), b, c, LENS)), PlanError::Shape(ShapeError::Unaligned { .. })));
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
    fn a_batch_of_pointers_runs_kernel_28_or_30_along_z() {
        let pointers =
            |count, precision, algo| plan(Products::Pointers { count, m: 200, n: 72, k: 40 }, LENS, precision, algo, Target::H200);
        for (precision, tiles) in [(Precision::Fp32, 3), (Precision::Bf16, 2), (Precision::Fp16, 2)] {
            let candidates: Vec<_> = GROUPED_KERNELS.iter().filter(|k| k.precision == precision && k.host.pointers()).collect();
            assert_eq!(candidates.len(), tiles, "{precision:?}");
            for algo in candidates.iter().map(|k| k.algo).chain([GroupedAlgo::Auto]) {
                let l = launch(pointers(5, precision, algo));
                assert!(l.kernel.host.pointers() && l.maps.is_none() && l.kernel.precision == precision, "{algo:?}");
                assert_eq!((l.launch.grid.1, l.launch.grid.2), (200u32.div_ceil(l.kernel.config.bm), 5));
            }
        }
        assert!(matches!(pointers(5, Precision::Bf16, GroupedAlgo::Bf16Wide), Err(PlanError::NoKernel { .. })));
        assert!(matches!(pointers(70_000, Precision::Bf16, GroupedAlgo::Auto), Err(PlanError::Shape(ShapeError::TooLarge { .. }))));
        assert!(matches!(pointers(5, Precision::Tf32, GroupedAlgo::Auto), Err(PlanError::NoKernel { .. })));
        assert_eq!(pointers(0, Precision::Bf16, GroupedAlgo::Auto), Ok(ProductsPlan::Nothing));
    }

    #[test]
    fn auto_weighs_both_16_bit_batch_kernels_by_their_models() {
        // Each family's own price, the lesser taken: on large aligned matrices kernel 26's TMA
        // pipeline (the in-place kernels' fitted steps are slower there).
        let st = |count, rows, cols| stack(count, rows, cols, rows * cols);
        let products = Products::Batched { a: st(8, 2048, 2048), b: st(8, 2048, 2048), c: st(8, 2048, 2048) };
        let price = |algo| launch(plan(products, LENS, Precision::Bf16, algo, Target::H200)).predicted_us;
        let auto = launch(plan(products, LENS, Precision::Bf16, GroupedAlgo::Auto, Target::H200));
        let least = GROUPED_KERNELS.iter().filter(|k| k.precision == Precision::Bf16).map(|k| price(k.algo)).fold(f64::INFINITY, f64::min);
        assert_eq!(auto.predicted_us, least);
        assert!(!auto.kernel.host.pointers() && price(GroupedAlgo::MmaBf16) > price(GroupedAlgo::Bf16Wide));
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
