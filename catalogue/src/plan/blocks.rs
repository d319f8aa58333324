//! Products past the kernels' 32-bit indexing: a GEMM cut into sub-GEMMs ("blocks") whose every
//! operand fits one launch, accumulated over K, and the list of copies, launches and additions that
//! runs them ([`BlockOp`]). Pure arithmetic: the host library executes the operations on a GPU, the
//! tests on host arrays.
//!
//! A block of `C` (`rows × cols`) is the sum over the K blocks of `A[rows, depth] · B[depth, cols]`:
//! the first K block writes the block of `C`, the next ones write a scratch block that is then added
//! in (`C_blk += scratch`). Operands that are not contiguous in the row-major matrices — `A` when the
//! K block is not all of K, `B` and `C` when the column block is not all of N — are packed into
//! contiguous buffers with 2D copies first (and `C`'s packed block copied back after its last K block).
//!
//! Block sizes are multiples of the kernel's tile ([`Align`]), so every block but the last in each
//! dimension runs whole tiles, and every row or K offset keeps 16-byte alignment for the kernels'
//! vector loads.
// Plans are lists of ranges: a list of one range (one block, one band) is a plan like any other.
#![allow(clippy::single_range_in_vec_init)]
use std::ops::Range;

use crate::error::ShapeError;
use crate::shape::{check_agreement, MatmulShape, MAX_GRID_Y, MAX_MATRIX_ELEMENTS};

/// Rows one launch may cover: every kernel's grid holds at most [`MAX_GRID_Y`] block rows of at least
/// 16 rows (the smallest tile height in the catalogue).
pub const MAX_LAUNCH_ROWS: usize = 16 * MAX_GRID_Y as usize;

/// The default size of one block's operands when a product must be cut: 2²⁹ elements (2 GiB of
/// `f32`), so the four work buffers stay under 8 GiB while a block (e.g. 23,040² · K) still runs
/// hundreds of waves of the fastest tile.
pub const DEFAULT_BLOCK_ELEMS: usize = 1 << 29;

/// `C[m×n] = A[m×k] · B[k×n]` of any size: the inner and output dimensions checked, no limit on the
/// element counts (blocks take care of those).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GemmDims {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

impl GemmDims {
    /// Validates `A (a_rows×a_cols) · B (b_rows×b_cols) → C (c_rows×c_cols)`.
    ///
    /// Errors: [`ShapeError::Mismatch`] when the inner dimensions or `C` disagree,
    /// [`ShapeError::TooLarge`] when an element count overflows `usize`.
    pub fn check(a: (usize, usize), b: (usize, usize), c: (usize, usize)) -> Result<Self, ShapeError> {
        const OP: &str = "matmul";
        check_agreement(a, b, c)?;
        for (name, (r, col)) in [("A", a), ("B", b), ("C", c)] {
            if r.checked_mul(col).is_none() {
                return Err(ShapeError::TooLarge { op: OP, detail: format!("{name} is {r}×{col}: the element count overflows") });
            }
        }
        Ok(GemmDims { m: a.0, n: b.1, k: a.1 })
    }

    /// Whether one launch of a kernel can compute the whole product (every matrix within the 32-bit
    /// indexing and the grid limit): [`MatmulShape::check`] accepts it.
    pub fn fits_one_launch(&self) -> bool {
        MatmulShape::check((self.m, self.k), (self.k, self.n), (self.m, self.n)).is_ok()
    }

    /// Floating-point operations: `2·m·n·k`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }

    /// Whether the product is empty (`m`, `n` or `k` is 0: nothing to multiply; `C` is zeros or empty).
    pub fn is_empty(&self) -> bool {
        self.m == 0 || self.n == 0 || self.k == 0
    }
}

/// Granularity of every cut, in elements: rows of `A`/`C`, columns of `B`/`C`, and K.
///
/// From the kernel's tile (so blocks run whole tiles) and at least 8, so that a row or K offset of a
/// 16-bit matrix is a multiple of 16 bytes (the kernels' 128-bit loads stay aligned).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Align {
    pub rows: usize,
    pub cols: usize,
    pub depth: usize,
}

impl Align {
    /// No constraint at all (cuts anywhere): for tests.
    pub const NONE: Align = Align { rows: 1, cols: 1, depth: 1 };
}

/// What bounds one block: `launch_elems` is the largest operand a single launch may take (the
/// kernels' 32-bit limit), `block_elems` the size blocks are cut to when the product exceeds it,
/// `max_rows` the most rows of one launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub launch_elems: usize,
    pub block_elems: usize,
    pub max_rows: usize,
}

impl Limits {
    /// The kernels' limits, with blocks of [`DEFAULT_BLOCK_ELEMS`].
    pub const KERNELS: Limits = Limits { launch_elems: MAX_MATRIX_ELEMENTS, block_elems: DEFAULT_BLOCK_ELEMS, max_rows: MAX_LAUNCH_ROWS };

    /// Whether one launch takes `rows × cols × depth` (all three operands within `launch_elems`).
    pub fn fits(&self, rows: usize, cols: usize, depth: usize) -> bool {
        within(rows, cols, depth, self.launch_elems, self.max_rows)
    }
}

fn within(rows: usize, cols: usize, depth: usize, elems: usize, max_rows: usize) -> bool {
    let ok = |x: usize, y: usize| x.checked_mul(y).is_some_and(|p| p <= elems);
    rows <= max_rows && ok(rows, depth) && ok(depth, cols) && ok(rows, cols)
}

/// `0..len` cut into `parts` consecutive ranges whose inner boundaries are multiples of `align`,
/// as even as possible in whole `align` units (the first ranges take the extra units; the last one
/// ends at `len`). Ranges past the end are empty (`len..len`) when there are fewer units than parts.
pub fn split(len: usize, parts: usize, align: usize) -> Vec<Range<usize>> {
    let (parts, align) = (parts.max(1), align.max(1));
    let units = len.div_ceil(align);
    let (base, extra) = (units / parts, units % parts);
    let mut start = 0;
    (0..parts)
        .map(|i| {
            let size = (base + usize::from(i < extra)) * align;
            let end = (start + size).min(len);
            let r = start..end;
            start = end;
            r
        })
        .collect()
}

/// The longest range [`split`] gives for `(len, parts, align)`.
fn part_len(len: usize, parts: usize, align: usize) -> usize {
    (len.div_ceil(align.max(1)).div_ceil(parts.max(1)) * align.max(1)).min(len)
}

/// How one product is cut: row blocks of `A`/`C`, column blocks of `B`/`C`, K blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPlan {
    pub rows: Vec<Range<usize>>,
    pub cols: Vec<Range<usize>>,
    pub depth: Vec<Range<usize>>,
}

impl BlockPlan {
    /// One block when the product fits one launch; otherwise the fewest cuts (each a multiple of
    /// `align`) that bring every operand of every block within `limits.block_elems` (and the launch
    /// limits): the dimension with the largest block among the violated bounds is cut once more,
    /// until none is violated.
    pub fn new(dims: GemmDims, limits: Limits, align: Align) -> BlockPlan {
        let GemmDims { m, n, k } = dims;
        if limits.fits(m, n, k) {
            return BlockPlan { rows: vec![0..m], cols: vec![0..n], depth: vec![0..k] };
        }
        let elems = limits.block_elems.min(limits.launch_elems).max(align.rows * align.cols).max(align.depth * align.cols);
        let elems = elems.max(align.rows * align.depth);
        let max_rows = limits.max_rows.max(align.rows);
        let (mut cm, mut cn, mut ck) = (1usize, 1usize, 1usize);
        loop {
            let (bm, bn, bk) = (part_len(m, cm, align.rows), part_len(n, cn, align.cols), part_len(k, ck, align.depth));
            if within(bm, bn, bk, elems, max_rows) {
                break;
            }
            // Candidates: each dimension of a violated bound that can still be cut, largest block first.
            let over = |x: usize, y: usize| x.checked_mul(y).is_none_or(|p| p > elems);
            let mut cut_m = bm > max_rows || over(bm, bk) || over(bm, bn);
            let mut cut_n = over(bk, bn) || over(bm, bn);
            let mut cut_k = over(bm, bk) || over(bk, bn);
            cut_m &= bm > align.rows;
            cut_n &= bn > align.cols;
            cut_k &= bk > align.depth;
            let pick = [(cut_m, bm, 0), (cut_n, bn, 1), (cut_k, bk, 2)].into_iter().filter(|c| c.0).max_by_key(|c| (c.1, 2 - c.2));
            match pick {
                Some((_, _, 0)) => cm += 1,
                Some((_, _, 1)) => cn += 1,
                Some(_) => ck += 1,
                // Every violated dimension is down to one tile: the bounds cannot be met with this
                // alignment (elems < align², excluded above), so stop rather than loop.
                None => break,
            }
        }
        BlockPlan { rows: split(m, cm, align.rows), cols: split(n, cn, align.cols), depth: split(k, ck, align.depth) }
    }

    /// Number of sub-GEMMs.
    pub fn blocks(&self) -> usize {
        self.rows.len() * self.cols.len() * self.depth.len()
    }
}

/// One sub-GEMM: `C[rows, cols] (+)= A[rows, depth] · B[depth, cols]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub rows: Range<usize>,
    pub cols: Range<usize>,
    pub depth: Range<usize>,
    /// The first K block of its `C` block: it writes `C` instead of adding to it.
    pub first: bool,
    /// The last K block of its `C` block: a packed `C` block is copied back after it.
    pub last: bool,
}

/// Where an operand of a [`BlockOp`] lives: inside one of the three matrices (at an element offset),
/// or in one of the work buffers (from its start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loc {
    A(usize),
    B(usize),
    C(usize),
    /// A packed block of `A` (input element type).
    APack,
    /// A packed block of `B` (input element type).
    BPack,
    /// A packed block of `C` (`f32`), the accumulator of a `C` block that is not all of N wide.
    CPack,
    /// The product of a K block after the first (`f32`), added into the accumulator.
    Scratch,
}

impl Loc {
    /// Whether the location holds input elements (`A`, `B` and their packs) rather than `f32`.
    pub fn is_input(self) -> bool {
        matches!(self, Loc::A(_) | Loc::B(_) | Loc::APack | Loc::BPack)
    }
}

/// One operation of a block schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockOp {
    /// `height` rows of `width` elements from `src` (rows `src_pitch` elements apart) to `dst`
    /// (rows `dst_pitch` apart). Both sides hold the same element type.
    Copy2d { src: Loc, src_pitch: usize, dst: Loc, dst_pitch: usize, width: usize, height: usize },
    /// `c = a · b` on contiguous row-major operands of `shape` (one kernel launch).
    Gemm { a: Loc, b: Loc, c: Loc, shape: MatmulShape },
    /// `dst[i] += src[i]` for `i < len` (`f32`, contiguous).
    AddInto { dst: Loc, src: Loc, len: usize },
}

/// Elements each work buffer must hold for a schedule (0: not used).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Workspace {
    pub a_pack: usize,
    pub b_pack: usize,
    pub c_pack: usize,
    pub scratch: usize,
}

impl Workspace {
    /// Bytes for inputs of `input_bytes` per element (`C` and scratch are `f32`).
    pub fn bytes(&self, input_bytes: usize) -> usize {
        (self.a_pack + self.b_pack) * input_bytes + (self.c_pack + self.scratch) * 4
    }

    fn grow(&mut self, loc: Loc, elems: usize) {
        let slot = match loc {
            Loc::APack => &mut self.a_pack,
            Loc::BPack => &mut self.b_pack,
            Loc::CPack => &mut self.c_pack,
            Loc::Scratch => &mut self.scratch,
            Loc::A(_) | Loc::B(_) | Loc::C(_) => return,
        };
        *slot = (*slot).max(elems);
    }
}

/// The operations of one step of a product of `dims` (see the module documentation).
pub fn step_ops(step: &Step, dims: GemmDims) -> Vec<BlockOp> {
    let GemmDims { n, k, .. } = dims;
    let (r, c, d) = (&step.rows, &step.cols, &step.depth);
    let mut ops = Vec::new();
    let a = if d.len() == k {
        Loc::A(r.start * k)
    } else {
        ops.push(BlockOp::Copy2d {
            src: Loc::A(r.start * k + d.start),
            src_pitch: k,
            dst: Loc::APack,
            dst_pitch: d.len(),
            width: d.len(),
            height: r.len(),
        });
        Loc::APack
    };
    let b = if c.len() == n {
        Loc::B(d.start * n)
    } else {
        ops.push(BlockOp::Copy2d {
            src: Loc::B(d.start * n + c.start),
            src_pitch: n,
            dst: Loc::BPack,
            dst_pitch: c.len(),
            width: c.len(),
            height: d.len(),
        });
        Loc::BPack
    };
    let target = if c.len() == n { Loc::C(r.start * n) } else { Loc::CPack };
    // The plan keeps every block within one launch's limits, so the casts are exact.
    let shape = MatmulShape { m: r.len() as u32, n: c.len() as u32, k: d.len() as u32 };
    if step.first {
        ops.push(BlockOp::Gemm { a, b, c: target, shape });
    } else {
        ops.push(BlockOp::Gemm { a, b, c: Loc::Scratch, shape });
        ops.push(BlockOp::AddInto { dst: target, src: Loc::Scratch, len: r.len() * c.len() });
    }
    if step.last && target == Loc::CPack {
        ops.push(BlockOp::Copy2d {
            src: Loc::CPack,
            src_pitch: c.len(),
            dst: Loc::C(r.start * n + c.start),
            dst_pitch: n,
            width: c.len(),
            height: r.len(),
        });
    }
    ops
}

/// The work buffers `ops` need.
pub fn workspace_of<'a>(ops: impl IntoIterator<Item = &'a BlockOp>) -> Workspace {
    let mut ws = Workspace::default();
    for op in ops {
        match *op {
            BlockOp::Copy2d { dst, dst_pitch, height, .. } => ws.grow(dst, dst_pitch * height),
            BlockOp::Gemm { c, shape, .. } => ws.grow(c, shape.m as usize * shape.n as usize),
            BlockOp::AddInto { .. } => {}
        }
    }
    ws
}

/// The steps of a [`BlockPlan`], with rows offset by `row_offset` and K blocks further cut at the
/// boundaries of `depth_cuts` (empty: no extra cuts): for each `C` block, its K blocks in order.
pub fn plan_steps(plan: &BlockPlan, row_offset: usize, depth_cuts: &[Range<usize>]) -> Vec<Step> {
    let depth: Vec<Range<usize>> = if depth_cuts.is_empty() {
        plan.depth.clone()
    } else {
        plan.depth
            .iter()
            .flat_map(|d| depth_cuts.iter().map(move |c| d.start.max(c.start)..d.end.min(c.end)))
            .filter(|r| !r.is_empty())
            .collect()
    };
    let mut steps = Vec::new();
    for r in &plan.rows {
        for c in &plan.cols {
            for (i, d) in depth.iter().enumerate() {
                let rows = r.start + row_offset..r.end + row_offset;
                steps.push(Step { rows, cols: c.clone(), depth: d.clone(), first: i == 0, last: i + 1 == depth.len() });
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_even_in_aligned_units() {
        assert_eq!(split(16384, 2, 128), vec![0..8192, 8192..16384]);
        assert_eq!(split(1000, 3, 128), vec![0..384, 384..768, 768..1000]);
        assert_eq!(split(100, 4, 128), vec![0..100, 100..100, 100..100, 100..100]);
        assert_eq!(split(10, 3, 1), vec![0..4, 4..7, 7..10]);
        assert_eq!(split(0, 2, 8), vec![0..0, 0..0]);
        assert_eq!(part_len(1000, 3, 128), 384);
        assert_eq!(part_len(100, 4, 128), 100);
    }

    #[test]
    fn products_within_one_launch_are_one_block() {
        let p = BlockPlan::new(GemmDims { m: 16384, n: 16384, k: 16384 }, Limits::KERNELS, Align { rows: 128, cols: 256, depth: 16 });
        assert_eq!(p.blocks(), 1);
        assert!(GemmDims { m: 16384, n: 16384, k: 16384 }.fits_one_launch());
        assert!(!GemmDims { m: 60000, n: 60000, k: 60000 }.fits_one_launch());
    }

    #[test]
    fn a_60000_cube_is_cut_into_blocks_within_the_limits() {
        let dims = GemmDims { m: 60000, n: 60000, k: 60000 };
        let align = crate::plan::Planner::new(
            "matmul",
            crate::registry::algo::Algo::Auto,
            crate::precision::Precision::Fp32,
            crate::target::Target::H200,
        )
        .align()
        .unwrap();
        // Auto's tile for 16384³: a large one (128×128, 128×256 or its transpose; split along K,
        // stream-K or not).
        let large = [(128, 128), (128, 256), (256, 128)].map(|(rows, cols)| Align { rows, cols, depth: 16 });
        assert!(large.contains(&align), "{align:?}");
        let p = BlockPlan::new(dims, Limits::KERNELS, align);
        for s in plan_steps(&p, 0, &[]) {
            let (r, c, d) = (s.rows.len(), s.cols.len(), s.depth.len());
            assert!(r * d <= DEFAULT_BLOCK_ELEMS && d * c <= DEFAULT_BLOCK_ELEMS && r * c <= DEFAULT_BLOCK_ELEMS, "{s:?}");
            assert!(MatmulShape::check((r, d), (d, c), (r, c)).is_ok());
            assert_eq!(s.rows.start % 128, 0);
            assert_eq!(s.depth.start % 16, 0);
        }
        // 60000 / 23170 → 3 blocks a side: 27 sub-GEMMs of about 20000³.
        assert_eq!((p.rows.len(), p.cols.len(), p.depth.len()), (3, 3, 3));
    }

    #[test]
    fn dims_reject_mismatch_and_overflow() {
        assert!(matches!(GemmDims::check((4, 5), (6, 7), (4, 7)), Err(ShapeError::Mismatch { .. })));
        assert!(matches!(GemmDims::check((4, 5), (5, 7), (7, 4)), Err(ShapeError::Mismatch { .. })));
        assert!(matches!(GemmDims::check((usize::MAX, 2), (2, 1), (usize::MAX, 1)), Err(ShapeError::TooLarge { .. })));
        let big = GemmDims::check((110_000, 110_000), (110_000, 110_000), (110_000, 110_000)).unwrap();
        assert!(!big.fits_one_launch());
        assert_eq!(big.flops(), 2.0 * 110_000f64.powi(3));
    }

    #[test]
    fn ops_pack_only_what_is_not_contiguous() {
        let dims = GemmDims { m: 8, n: 6, k: 10 };
        let whole = Step { rows: 0..8, cols: 0..6, depth: 0..10, first: true, last: true };
        let shape = MatmulShape { m: 8, n: 6, k: 10 };
        assert_eq!(step_ops(&whole, dims), vec![BlockOp::Gemm { a: Loc::A(0), b: Loc::B(0), c: Loc::C(0), shape }]);
        // A K block after the first, all columns: A packed, B a row panel, product added into C rows.
        let s = Step { rows: 4..8, cols: 0..6, depth: 5..10, first: false, last: true };
        let ops = step_ops(&s, dims);
        assert_eq!(ops[0], BlockOp::Copy2d { src: Loc::A(45), src_pitch: 10, dst: Loc::APack, dst_pitch: 5, width: 5, height: 4 });
        assert_eq!(ops[1], BlockOp::Gemm { a: Loc::APack, b: Loc::B(30), c: Loc::Scratch, shape: MatmulShape { m: 4, n: 6, k: 5 } });
        assert_eq!(ops[2], BlockOp::AddInto { dst: Loc::C(24), src: Loc::Scratch, len: 24 });
        assert_eq!(ops.len(), 3);
        // A column block: B and C packed, C copied back after the last K block.
        let s = Step { rows: 0..8, cols: 2..6, depth: 0..10, first: true, last: true };
        let ops = step_ops(&s, dims);
        assert_eq!(ops.last(), Some(&BlockOp::Copy2d { src: Loc::CPack, src_pitch: 4, dst: Loc::C(2), dst_pitch: 6, width: 4, height: 8 }));
        assert_eq!(workspace_of(&ops), Workspace { a_pack: 0, b_pack: 40, c_pack: 32, scratch: 0 });
    }

    #[test]
    fn depth_cuts_refine_the_k_blocks() {
        let plan = BlockPlan { rows: vec![0..4], cols: vec![0..3], depth: vec![0..10] };
        let steps = plan_steps(&plan, 100, &[0..3, 3..7, 7..10]);
        let depth: Vec<_> = steps.iter().map(|s| (s.depth.clone(), s.first, s.last)).collect();
        assert_eq!(depth, vec![(0..3, true, false), (3..7, false, false), (7..10, false, true)]);
        assert!(steps.iter().all(|s| s.rows == (100..104)));
    }
}
