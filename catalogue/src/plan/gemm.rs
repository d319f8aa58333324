//! BLAS-style GEMM, `C = α·op(A)·op(B) + β·C`, on matrices laid anywhere in their buffers: the
//! argument checks, and the plan that turns one GEMM into tessera's kernels (pack passes, a matmul
//! kernel, an epilogue). No GPU here: the host library (`tessera::Gpu::gemm`) and the CPU executor
//! (`tessera_emulator::ops::gemm`) both run the plan made here, so they cannot drift apart.
//!
//! # How a GEMM becomes kernels
//! The matmul kernels compute `T = X·Y` on dense row-major `X` (m×k) and `Y` (k×n). Any view is a
//! *strided* matrix (element `(r, c)` at `offset + r·rs + c·cs`), and so is its transpose (swap the
//! strides), so:
//!
//! 1. a column-major `C` is the row-major `Cᵀ` of the same memory, and `Cᵀ = op(B)ᵀ·op(A)ᵀ`: the
//!    problem is restated with row-major output, at no cost;
//! 2. the product is computed either as `X·Y = op(A)·op(B)` or as `(op(B)ᵀ·op(A)ᵀ)ᵀ`, whichever moves
//!    fewer bytes outside the matmul kernel: each operand that is not already dense row-major (and
//!    16-byte aligned) is packed by `pack_b32` / `pack_b16` (a tiled transpose or strided copy), and
//!    the second form always ends in a transposing epilogue. A column-major `NN` GEMM, or a row-major
//!    one, needs no pack; a row-major `TT` GEMM needs one transposing epilogue instead of two packs;
//! 3. the kernel writes straight into `C` when `C` is dense and `β = 0` (then `gemm_scale` applies `α`
//!    if `α ≠ 1`); otherwise into scratch `T`, and `gemm_epilogue` computes `C = α·T + β·C`.
//!
//! BLAS's edge cases: `M = 0` or `N = 0` does nothing; `α = 0` or `K = 0` is `C = β·C` without reading
//! `A` or `B`; `β = 0` never reads `C` (NaN in it does not propagate). Every argument is still checked.
use crate::error::ShapeError;
use crate::plan::blocks::GemmDims;
use crate::precision::Precision;
use crate::registry::algo::Algo;
use crate::shape::MatmulShape;

/// How a matrix is stored: rows contiguous (C, numpy, ndarray's default) or columns contiguous
/// (Fortran, BLAS, faer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    #[default]
    RowMajor,
    ColMajor,
}

/// BLAS's `op(X)`: the matrix as stored (`N`) or its transpose (`T`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Transpose {
    #[default]
    No,
    Yes,
}

impl Transpose {
    /// BLAS's letter: "N" or "T".
    pub fn label(self) -> &'static str {
        match self {
            Self::No => "N",
            Self::Yes => "T",
        }
    }
}

/// The scalars and options of one GEMM, `C = α·op(A)·op(B) + β·C`: what BLAS passes beside the
/// matrices, plus which kernel computes the product and in which precision.
///
/// ```
/// use tessera_catalogue::plan::gemm::{GemmParams, Transpose};
/// let p = GemmParams::new().alpha(2.0).beta(1.0).trans_b(Transpose::Yes);
/// assert_eq!((p.alpha, p.beta, p.trans_a, p.trans_b), (2.0, 1.0, Transpose::No, Transpose::Yes));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GemmParams {
    pub alpha: f32,
    pub beta: f32,
    pub trans_a: Transpose,
    pub trans_b: Transpose,
    /// The matmul kernel; `Auto` (the default) picks one of the precision for the product's shape.
    pub algo: Algo,
    /// The precision of the product; `None` (the default) means the inputs' own (FP32 for `f32`,
    /// BF16, FP16). `Some(Precision::Tf32)` on `f32` inputs is the explicit opt-in to TF32.
    pub precision: Option<Precision>,
    /// K slices of each output tile for a named split-K or persistent kernel
    /// ([`crate::plan::Planner::with_k_slices`]); `None` (the default): the models' count.
    pub k_slices: Option<u32>,
}

impl Default for GemmParams {
    fn default() -> Self {
        Self { alpha: 1.0, beta: 0.0, trans_a: Transpose::No, trans_b: Transpose::No, algo: Algo::Auto, precision: None, k_slices: None }
    }
}

impl GemmParams {
    /// `C = A·B`: `α = 1`, `β = 0`, no transposes, `Auto`, the inputs' precision.
    pub fn new() -> Self {
        Self::default()
    }

    /// With this `α`.
    pub fn alpha(self, alpha: f32) -> Self {
        Self { alpha, ..self }
    }

    /// With this `β`.
    pub fn beta(self, beta: f32) -> Self {
        Self { beta, ..self }
    }

    /// With `op(A)`.
    pub fn trans_a(self, trans_a: Transpose) -> Self {
        Self { trans_a, ..self }
    }

    /// With `op(B)`.
    pub fn trans_b(self, trans_b: Transpose) -> Self {
        Self { trans_b, ..self }
    }

    /// With this matmul kernel.
    pub fn algo(self, algo: Algo) -> Self {
        Self { algo, ..self }
    }

    /// With `k_slices` K slices of each output tile: a schedule for the named kernel (`algo`), which
    /// must be a split-K or persistent kernel; refused for `Auto` and for a 16-bit `C`.
    pub fn k_slices(self, k_slices: u32) -> Self {
        Self { k_slices: Some(k_slices), ..self }
    }

    /// In `precision` (only TF32 on `f32` inputs differs from the inputs' own).
    pub fn precision(self, precision: Precision) -> Self {
        Self { precision: Some(precision), ..self }
    }

    /// The precision the product runs in for inputs of `input` precision, or `None` when the request
    /// does not fit them (anything but the inputs' own, or TF32 on `f32` data).
    pub fn resolve_precision(&self, input: Precision) -> Option<Precision> {
        match self.precision {
            None => Some(input),
            Some(p) if p == input => Some(p),
            Some(Precision::Tf32) if input == Precision::Fp32 => Some(Precision::Tf32),
            Some(_) => None,
        }
    }
}

/// Where a `rows × cols` matrix lies in a buffer: element `(r, c)` is at `offset + r·ld + c`
/// (row-major) or `offset + r + c·ld` (column-major). A sub-matrix of a larger matrix is the larger
/// one's `ld` and layout with the offset of its first element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatrixDesc {
    pub rows: usize,
    pub cols: usize,
    /// The leading dimension: elements between consecutive rows (row-major) or columns (column-major).
    pub ld: usize,
    pub layout: Layout,
    /// The buffer index of element `(0, 0)`.
    pub offset: usize,
}

impl MatrixDesc {
    /// A dense row-major matrix (`ld = max(1, cols)`) at the start of its buffer.
    pub const fn row_major(rows: usize, cols: usize) -> Self {
        Self { rows, cols, ld: if cols == 0 { 1 } else { cols }, layout: Layout::RowMajor, offset: 0 }
    }

    /// A dense column-major matrix (`ld = max(1, rows)`) at the start of its buffer.
    pub const fn col_major(rows: usize, cols: usize) -> Self {
        Self { rows, cols, ld: if rows == 0 { 1 } else { rows }, layout: Layout::ColMajor, offset: 0 }
    }

    /// A dense matrix of `layout`.
    pub const fn dense(rows: usize, cols: usize, layout: Layout) -> Self {
        match layout {
            Layout::RowMajor => Self::row_major(rows, cols),
            Layout::ColMajor => Self::col_major(rows, cols),
        }
    }

    /// The same matrix with leading dimension `ld`.
    pub const fn with_ld(self, ld: usize) -> Self {
        Self { ld, ..self }
    }

    /// The same matrix starting at buffer index `offset`.
    pub const fn with_offset(self, offset: usize) -> Self {
        Self { offset, ..self }
    }

    /// The `rows × cols` block of this matrix whose first element is `(row, col)`: same `ld` and layout.
    /// [`ShapeError::Mismatch`] when the block does not fit inside this matrix.
    pub fn block(&self, row: usize, col: usize, rows: usize, cols: usize) -> Result<Self, ShapeError> {
        let fits = row.checked_add(rows).is_some_and(|e| e <= self.rows) && col.checked_add(cols).is_some_and(|e| e <= self.cols);
        if !fits {
            return Err(ShapeError::Mismatch {
                op: "MatrixDesc::block",
                detail: format!("a {rows}×{cols} block at ({row}, {col}) does not fit a {}×{} matrix", self.rows, self.cols),
            });
        }
        let offset = if rows == 0 || cols == 0 { self.offset } else { self.offset + self.index(row, col) };
        Ok(Self { rows, cols, offset, ..*self })
    }

    /// The smallest leading dimension of this shape and layout (BLAS's rule, `max(1, ·)`).
    pub fn min_ld(&self) -> usize {
        match self.layout {
            Layout::RowMajor => self.cols.max(1),
            Layout::ColMajor => self.rows.max(1),
        }
    }

    /// The buffer index of element `(r, c)` relative to `offset` (no bounds check).
    pub fn index(&self, r: usize, c: usize) -> usize {
        match self.layout {
            Layout::RowMajor => r * self.ld + c,
            Layout::ColMajor => r + c * self.ld,
        }
    }

    /// The buffer length the matrix needs: one past its last element (`offset` for an empty matrix),
    /// or `None` when that overflows `usize`.
    pub fn needed_len(&self) -> Option<usize> {
        if self.rows == 0 || self.cols == 0 {
            return Some(self.offset);
        }
        let (outer, inner) = match self.layout {
            Layout::RowMajor => (self.rows, self.cols),
            Layout::ColMajor => (self.cols, self.rows),
        };
        (outer - 1).checked_mul(self.ld)?.checked_add(inner)?.checked_add(self.offset)
    }

    /// Checks the view named `name` against a buffer of `len` elements: the leading dimension
    /// ([`ShapeError::LeadingDimension`]) and the buffer length ([`ShapeError::BufferTooSmall`];
    /// [`ShapeError::TooLarge`] when the needed length overflows).
    pub fn check(&self, op: &'static str, name: &'static str, len: usize) -> Result<(), ShapeError> {
        if self.ld < self.min_ld() {
            return Err(ShapeError::LeadingDimension { op, name, ld: self.ld, min: self.min_ld() });
        }
        let needed = self.needed_len().ok_or_else(|| ShapeError::TooLarge {
            op,
            detail: format!("`{name}` ({}×{}, ld {}, offset {}) spans more than usize", self.rows, self.cols, self.ld, self.offset),
        })?;
        if len < needed {
            return Err(ShapeError::BufferTooSmall { op, name, len, needed });
        }
        Ok(())
    }

    /// The matrix, read out of `data` as a dense row-major `Vec` (`rows·cols` elements). Panics if
    /// `data` is too short (check first): for tests and host-side conversions.
    pub fn gather<T: Copy>(&self, data: &[T]) -> Vec<T> {
        let mut out = Vec::with_capacity(self.rows * self.cols);
        for r in 0..self.rows {
            out.extend((0..self.cols).map(|c| data[self.offset + self.index(r, c)]));
        }
        out
    }

    /// Writes the dense row-major `values` (`rows·cols`) into the matrix's elements of `data`,
    /// leaving every other element of `data` as it is. Panics on short slices (check first).
    pub fn scatter<T: Copy>(&self, values: &[T], data: &mut [T]) {
        for r in 0..self.rows {
            for c in 0..self.cols {
                data[self.offset + self.index(r, c)] = values[r * self.cols + c];
            }
        }
    }

    /// The view as a strided matrix, or its transpose.
    fn strided(&self, op: Transpose) -> Strided {
        let (rs, cs) = match self.layout {
            Layout::RowMajor => (self.ld, 1),
            Layout::ColMajor => (1, self.ld),
        };
        let s = Strided { offset: self.offset, rows: self.rows, cols: self.cols, rs, cs };
        match op {
            Transpose::No => s,
            Transpose::Yes => s.t(),
        }
    }
}

/// A matrix whose element `(r, c)` is at buffer index `offset + r·rs + c·cs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Strided {
    offset: usize,
    rows: usize,
    cols: usize,
    rs: usize,
    cs: usize,
}

impl Strided {
    /// The transpose: the same elements with the strides swapped.
    fn t(self) -> Self {
        Self { offset: self.offset, rows: self.cols, cols: self.rows, rs: self.cs, cs: self.rs }
    }

    /// Whether the matrix is dense row-major (`(r, c)` at `offset + r·cols + c`) and starts 16-byte
    /// aligned (the matmul kernels' vector loads need it; allocations are aligned).
    fn is_dense_row_major(&self, elem_bytes: usize) -> bool {
        (self.cols <= 1 || self.cs == 1) && (self.rows <= 1 || self.rs == self.cols) && (self.offset * elem_bytes).is_multiple_of(16)
    }

    /// How to bring this matrix (a view of `source`) to dense row-major form.
    fn operand(self, source: Operand, elem_bytes: usize) -> OperandPlan {
        if self.is_dense_row_major(elem_bytes) {
            return OperandPlan::Direct { source, offset: self.offset };
        }
        // A row-major source (cs = 1) is copied row by row with its ld; a column-major one is the
        // transpose of a row-major matrix with ld = cs.
        let (ld, transposed) = if self.cs == 1 || self.cols <= 1 { (self.rs.max(1), false) } else { (self.cs, true) };
        OperandPlan::Pack(Pack { source, offset: self.offset, ld, transposed, rows: self.rows, cols: self.cols })
    }

    /// The same matrix as a row-major view (requires `cs == 1` or a single column).
    fn row_major_view(&self) -> RowMajorView {
        RowMajorView { offset: self.offset, rows: self.rows, cols: self.cols, ld: if self.rows <= 1 { self.cols.max(1) } else { self.rs } }
    }
}

/// Which GEMM argument an operand of the matmul kernel comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
}

/// A pack pass: the dense row-major `rows × cols` matrix whose element `(r, c)` is
/// `source[offset + r·ld + c]`, or `source[offset + c·ld + r]` when `transposed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pack {
    pub source: Operand,
    pub offset: usize,
    pub ld: usize,
    pub transposed: bool,
    pub rows: usize,
    pub cols: usize,
}

impl Pack {
    /// Source elements the pass reads from `offset` on (what the kernel's `src_len` must cover).
    pub fn source_span(&self) -> usize {
        match (self.rows, self.cols, self.transposed) {
            (0, _, _) | (_, 0, _) => 0,
            (r, c, false) => (r - 1) * self.ld + c,
            (r, c, true) => (c - 1) * self.ld + r,
        }
    }
}

/// How a matmul operand reaches the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperandPlan {
    /// The view is dense row-major already: the kernel reads the source buffer from `offset`.
    Direct { source: Operand, offset: usize },
    /// Packed into scratch memory first.
    Pack(Pack),
}

impl OperandPlan {
    /// The pack pass, if any.
    pub fn pack(&self) -> Option<&Pack> {
        match self {
            Self::Direct { .. } => None,
            Self::Pack(p) => Some(p),
        }
    }
}

/// A row-major view: element `(r, c)` at `offset + r·ld + c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowMajorView {
    pub offset: usize,
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
}

impl RowMajorView {
    /// Elements from `offset` to one past the last element (0 when empty).
    pub fn span(&self) -> usize {
        if self.rows == 0 || self.cols == 0 {
            0
        } else {
            (self.rows - 1) * self.ld + self.cols
        }
    }
}

/// Where the matmul kernel writes its product, and what follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Straight into `C` (dense and aligned, `β = 0`); then `C = α·C` by `gemm_scale` when `α ≠ 1`.
    /// A GEMM that finishes its sums ([`ProductPlan::finish`]) runs a kernel that applies `α`, the
    /// bias and the activation in its store, and rounds into `C`'s type, where the target has one
    /// (else the host runs it as [`Output::Scratch`]).
    Direct,
    /// Into scratch `T` (`shape.m × shape.n`, dense); then `gemm_epilogue` computes `C = α·T + β·C`
    /// (`gemm_finish_*`: `act(α·T + β·C + bias)` into `C`'s type), reading `T` transposed when
    /// `transposed` (the product was computed as `Cᵀ`).
    Scratch { transposed: bool },
}

/// What a GEMM does with its sums beyond `α·T + β·C`: a bias and an activation, or a `C` of another
/// type than `f32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemmFinish {
    /// Bytes per element of `C` (4 for `f32`, 2 for BF16 and FP16).
    pub out_bytes: usize,
    /// A bias or an activation.
    pub epilogue: bool,
}

impl GemmFinish {
    /// Nothing beyond `α·T + β·C` into an `f32` `C`: BLAS's GEMM.
    pub const NONE: GemmFinish = GemmFinish { out_bytes: 4, epilogue: false };

    /// Whether the sums are finished (an epilogue, or a 16-bit `C`).
    pub fn finishes(&self) -> bool {
        self.epilogue || self.out_bytes != 4
    }
}

/// A GEMM that multiplies: the packs, the one matmul `T = X·Y` of `dims`, and the epilogue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProductPlan {
    /// What the matmul computes: `X` (m×k) · `Y` (k×n) (planned by [`crate::plan::Planner::product`]:
    /// one launch, or blocks past one launch's limits).
    pub dims: GemmDims,
    pub x: OperandPlan,
    pub y: OperandPlan,
    pub output: Output,
    /// `C`, restated row-major (the transpose of a column-major `C`).
    pub c: RowMajorView,
    pub alpha: f32,
    pub beta: f32,
    /// The sums are finished ([`GemmFinish::finishes`]): a bias, an activation or a 16-bit `C`.
    pub finish: bool,
    /// `C` was restated as the row-major `Cᵀ` (a column-major `C`): a bias per column of `C` is one
    /// per row of what the kernels write.
    pub restated: bool,
}

impl ProductPlan {
    /// Whether the kernels read both operands and write `C` in place, with nothing after the product
    /// (no pack, no epilogue, `α = 1`): the only form that runs past one launch's limits.
    pub fn in_place(&self) -> bool {
        self.x.pack().is_none() && self.y.pack().is_none() && self.output == Output::Direct && self.alpha == 1.0 && !self.finish
    }

    /// Kernel launches outside the matmul kernel (packs, then the scaling or the epilogue).
    pub fn passes(&self) -> usize {
        let packs = [self.x, self.y].iter().filter(|o| o.pack().is_some()).count();
        packs + usize::from(!(self.output == Output::Direct && (self.alpha == 1.0 || self.finish)))
    }

    /// Bytes moved outside the matmul kernel (packs and epilogue; reads plus writes): the plan's overhead.
    pub fn extra_bytes(&self, elem_bytes: usize) -> usize {
        let packs: usize = [self.x, self.y].iter().filter_map(|o| o.pack()).map(|p| 2 * p.rows * p.cols * elem_bytes).sum();
        let mn = self.c.rows * self.c.cols * 4;
        let finish = match self.output {
            Output::Direct if self.alpha == 1.0 || self.finish => 0,
            Output::Direct => 2 * mn,
            Output::Scratch { .. } => mn * if self.beta == 0.0 { 2 } else { 3 },
        };
        packs + finish
    }
}

/// What a GEMM runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GemmPlan {
    /// `M = 0` or `N = 0`: nothing.
    Nothing,
    /// `α = 0` or `K = 0`: `C = β·C` (`C = 0` when `β = 0`) by `gemm_scale`; `A` and `B` are not read.
    Scale { c: RowMajorView, beta: f32, restated: bool },
    /// A product (see [`ProductPlan`]).
    Product(ProductPlan),
}

/// One GEMM's arguments, as the host and the emulator pass them: each matrix's view and the length of
/// the buffer under it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GemmArgs {
    pub alpha: f32,
    pub beta: f32,
    pub a: MatrixDesc,
    pub a_len: usize,
    pub trans_a: Transpose,
    pub b: MatrixDesc,
    pub b_len: usize,
    pub trans_b: Transpose,
    pub c: MatrixDesc,
    pub c_len: usize,
    /// Bytes per element of `A` and `B` (4 for `f32`, 2 for `bf16` / `f16`); `C` is `f32`.
    pub elem_bytes: usize,
}

/// The operation name in errors.
pub const OP: &str = "gemm";

impl GemmArgs {
    /// Checks every argument and makes the plan of BLAS's GEMM: [`GemmArgs::plan_finishing`] with
    /// nothing to finish ([`GemmFinish::NONE`]).
    ///
    /// # Errors
    /// As [`GemmArgs::plan_finishing`].
    pub fn plan(&self) -> Result<GemmPlan, ShapeError> {
        self.plan_finishing(GemmFinish::NONE)
    }

    /// Checks every argument and makes the plan (see the module documentation) of a GEMM whose sums
    /// are finished as `finish` says: straight into `C` needs `C` dense and on 16 bytes in its own
    /// element type.
    ///
    /// Errors, in this order: [`ShapeError::LeadingDimension`] / [`ShapeError::BufferTooSmall`] for a
    /// view that does not fit its buffer, [`ShapeError::Mismatch`] when `op(A)` (m×k), `op(B)` (k×n)
    /// and `C` (m×n) do not agree, [`ShapeError::TooLarge`] beyond the kernels' limits (except a product
    /// in place, [`ProductPlan::in_place`], which runs in blocks).
    pub fn plan_finishing(&self, finish: GemmFinish) -> Result<GemmPlan, ShapeError> {
        self.a.check(OP, "A", self.a_len)?;
        self.b.check(OP, "B", self.b_len)?;
        self.c.check(OP, "C", self.c_len)?;
        let (opa, opb, c) = (self.a.strided(self.trans_a), self.b.strided(self.trans_b), self.c.strided(Transpose::No));
        if opa.cols != opb.rows || (opa.rows, opb.cols) != (c.rows, c.cols) {
            return Err(ShapeError::Mismatch {
                op: OP,
                detail: format!(
                    "op(A) is {}×{} (A {}×{}, {}), op(B) is {}×{} (B {}×{}, {}), C is {}×{}: need m×k, k×n, m×n",
                    opa.rows,
                    opa.cols,
                    self.a.rows,
                    self.a.cols,
                    self.trans_a.label(),
                    opb.rows,
                    opb.cols,
                    self.b.rows,
                    self.b.cols,
                    self.trans_b.label(),
                    c.rows,
                    c.cols
                ),
            });
        }
        // The kernels' limits (each matrix below 2³¹ elements, the grid), on the product as asked:
        // past them only a product the kernels read and write in place (no pack, no epilogue) runs,
        // in blocks (`crate::plan::blocks`) like `matmul`'s.
        let one_launch = MatmulShape::check((opa.rows, opa.cols), (opb.rows, opb.cols), (c.rows, c.cols)).map_err(|e| match e {
            ShapeError::TooLarge { detail, .. } => ShapeError::TooLarge { op: OP, detail },
            other => other,
        });
        // A column-major C is the row-major Cᵀ = op(B)ᵀ·op(A)ᵀ of the same memory: then X views B and Y views A.
        let restated = !(c.cs == 1 || c.cols <= 1);
        let (x, y, c) = if restated { (opb.t(), opa.t(), c.t()) } else { (opa, opb, c) };
        let (src_x, src_y) = if restated { (Operand::B, Operand::A) } else { (Operand::A, Operand::B) };
        let view = c.row_major_view();
        let (m, n, k) = (c.rows, c.cols, x.cols);
        if m == 0 || n == 0 {
            return Ok(GemmPlan::Nothing);
        }
        if self.alpha == 0.0 || k == 0 {
            return Ok(GemmPlan::Scale { c: view, beta: self.beta, restated });
        }
        let shape = |m: usize, n: usize| GemmDims { m, n, k };
        let eb = self.elem_bytes;
        // Form 1: T = X·Y, into C itself when C is dense and β = 0.
        let direct = self.beta == 0.0 && c.is_dense_row_major(finish.out_bytes);
        let straight = ProductPlan {
            dims: shape(m, n),
            x: x.operand(src_x, eb),
            y: y.operand(src_y, eb),
            output: if direct { Output::Direct } else { Output::Scratch { transposed: false } },
            c: view,
            alpha: self.alpha,
            beta: self.beta,
            finish: finish.finishes(),
            restated,
        };
        // Form 2: Tᵀ = Yᵀ·Xᵀ into scratch, then a transposing epilogue.
        let swapped = ProductPlan {
            dims: shape(n, m),
            x: y.t().operand(src_y, eb),
            y: x.t().operand(src_x, eb),
            output: Output::Scratch { transposed: true },
            ..straight
        };
        // Fewer bytes wins; on a tie, fewer passes: each is a launch and a scratch allocation, and a
        // 16-bit pack moves its bytes slower than the f32 passes (docs/results/2026-11-30-gemm-api:
        // ~2.2 TB/s against ~2.7-2.9; two BF16 packs at 4096² took ~61 µs, one f32 epilogue ~47 µs).
        let cost = |p: &ProductPlan| (p.extra_bytes(eb), p.passes());
        let best = if cost(&swapped) < cost(&straight) { swapped } else { straight };
        match one_launch {
            Err(e) if !best.in_place() => Err(e),
            _ => Ok(GemmPlan::Product(best)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: MatrixDesc, ta: Transpose, b: MatrixDesc, tb: Transpose, c: MatrixDesc) -> GemmArgs {
        let len = |d: MatrixDesc| d.needed_len().unwrap();
        GemmArgs { alpha: 1.0, beta: 0.0, a, a_len: len(a), trans_a: ta, b, b_len: len(b), trans_b: tb, c, c_len: len(c), elem_bytes: 4 }
    }

    fn product(g: GemmArgs) -> ProductPlan {
        match g.plan().unwrap() {
            GemmPlan::Product(p) => p,
            other => panic!("{other:?}"),
        }
    }

    use Transpose::{No as N, Yes as T};

    #[test]
    fn dense_row_major_nn_is_one_kernel() {
        let p = product(args(MatrixDesc::row_major(8, 5), N, MatrixDesc::row_major(5, 12), N, MatrixDesc::row_major(8, 12)));
        assert_eq!(p.x, OperandPlan::Direct { source: Operand::A, offset: 0 });
        assert_eq!(p.y, OperandPlan::Direct { source: Operand::B, offset: 0 });
        assert_eq!(p.output, Output::Direct);
        assert_eq!((p.dims.m, p.dims.n, p.dims.k), (8, 12, 5));
        assert_eq!(p.extra_bytes(4), 0);
    }

    #[test]
    fn column_major_nn_is_the_swapped_row_major_product() {
        // BLAS's own layout: Cᵀ = Bᵀ·Aᵀ, where the column-major B is the row-major Bᵀ.
        let p = product(args(MatrixDesc::col_major(8, 5), N, MatrixDesc::col_major(5, 12), N, MatrixDesc::col_major(8, 12)));
        assert_eq!(p.x, OperandPlan::Direct { source: Operand::B, offset: 0 });
        assert_eq!(p.y, OperandPlan::Direct { source: Operand::A, offset: 0 });
        assert_eq!(p.output, Output::Direct);
        assert_eq!((p.dims.m, p.dims.n, p.dims.k), (12, 8, 5));
    }

    #[test]
    fn nt_packs_b_transposed_and_tt_transposes_the_result_instead() {
        let nt = product(args(MatrixDesc::row_major(64, 32), N, MatrixDesc::row_major(48, 32), T, MatrixDesc::row_major(64, 48)));
        assert_eq!(nt.x, OperandPlan::Direct { source: Operand::A, offset: 0 });
        assert_eq!(nt.y, OperandPlan::Pack(Pack { source: Operand::B, offset: 0, ld: 32, transposed: true, rows: 32, cols: 48 }));
        assert_eq!(nt.output, Output::Direct);
        // TT: C = Aᵀ·Bᵀ = (B·A)ᵀ: B and A are dense row-major as stored; one transposing epilogue.
        let tt = product(args(MatrixDesc::row_major(32, 64), T, MatrixDesc::row_major(48, 32), T, MatrixDesc::row_major(64, 48)));
        assert_eq!(tt.x, OperandPlan::Direct { source: Operand::B, offset: 0 });
        assert_eq!(tt.y, OperandPlan::Direct { source: Operand::A, offset: 0 });
        assert_eq!(tt.output, Output::Scratch { transposed: true });
        assert_eq!((tt.dims.m, tt.dims.n, tt.dims.k), (48, 64, 32));
        // 16-bit TT at a square size: two packs move as many bytes as the f32 epilogue; one pass wins.
        let mut bf = args(MatrixDesc::row_major(64, 64), T, MatrixDesc::row_major(64, 64), T, MatrixDesc::row_major(64, 64));
        bf.elem_bytes = 2;
        let p = product(bf);
        assert_eq!((p.output, p.passes(), p.extra_bytes(2)), (Output::Scratch { transposed: true }, 1, 2 * 64 * 64 * 4));
    }

    #[test]
    fn sub_matrices_pack_unless_dense_and_beta_needs_scratch() {
        // A 10×6 block of a 20×16 row-major matrix at (3, 4): rows 16 apart, so it is packed (ld 16).
        let big = MatrixDesc::row_major(20, 16);
        let a = big.block(3, 4, 10, 6).unwrap();
        assert_eq!(a.offset, 3 * 16 + 4);
        let mut g = args(a, N, MatrixDesc::row_major(6, 7), N, MatrixDesc::row_major(10, 7));
        g.a_len = big.needed_len().unwrap();
        g.beta = 0.5;
        let p = product(g);
        assert_eq!(p.x, OperandPlan::Pack(Pack { source: Operand::A, offset: 52, ld: 16, transposed: false, rows: 10, cols: 6 }));
        assert_eq!(p.output, Output::Scratch { transposed: false });
        // A dense block (full rows) at an offset that is not 16-byte aligned is packed too.
        let rows = MatrixDesc::row_major(20, 6).block(1, 0, 10, 6).unwrap();
        assert!(!Strided { offset: rows.offset, rows: 10, cols: 6, rs: 6, cs: 1 }.is_dense_row_major(4));
        assert!(Strided { offset: 8, rows: 10, cols: 6, rs: 6, cs: 1 }.is_dense_row_major(4));
    }

    #[test]
    fn edge_cases_plan_no_product() {
        let mut g = args(MatrixDesc::row_major(0, 5), N, MatrixDesc::row_major(5, 3), N, MatrixDesc::row_major(0, 3));
        assert_eq!(g.plan().unwrap(), GemmPlan::Nothing);
        g = args(MatrixDesc::row_major(4, 0), N, MatrixDesc::row_major(0, 3), N, MatrixDesc::row_major(4, 3));
        g.beta = 2.0;
        assert_eq!(
            g.plan().unwrap(),
            GemmPlan::Scale { c: RowMajorView { offset: 0, rows: 4, cols: 3, ld: 3 }, beta: 2.0, restated: false }
        );
        g = args(MatrixDesc::row_major(4, 5), N, MatrixDesc::row_major(5, 3), N, MatrixDesc::col_major(4, 3));
        g.alpha = 0.0;
        // Column-major C restated as its row-major transpose.
        assert_eq!(
            g.plan().unwrap(),
            GemmPlan::Scale { c: RowMajorView { offset: 0, rows: 3, cols: 4, ld: 4 }, beta: 0.0, restated: true }
        );
    }

    #[test]
    fn bad_arguments_are_typed() {
        let ok = args(MatrixDesc::row_major(4, 5), N, MatrixDesc::row_major(5, 3), N, MatrixDesc::row_major(4, 3));
        let mut g = ok;
        g.a = g.a.with_ld(4);
        assert!(matches!(g.plan(), Err(ShapeError::LeadingDimension { name: "A", ld: 4, min: 5, .. })));
        g = ok;
        g.c = MatrixDesc::col_major(4, 3).with_ld(3);
        assert!(matches!(g.plan(), Err(ShapeError::LeadingDimension { name: "C", ld: 3, min: 4, .. })));
        g = ok;
        g.b_len = 14;
        assert!(matches!(g.plan(), Err(ShapeError::BufferTooSmall { name: "B", len: 14, needed: 15, .. })));
        g = ok;
        g.c = g.c.with_offset(1);
        assert!(matches!(g.plan(), Err(ShapeError::BufferTooSmall { name: "C", needed: 13, .. })));
        g = ok;
        g.trans_b = T;
        assert!(matches!(g.plan(), Err(ShapeError::Mismatch { .. })));
        g = ok;
        g.a.offset = usize::MAX;
        assert!(matches!(g.plan(), Err(ShapeError::TooLarge { .. })));
        // An empty matrix still needs ld ≥ 1 and its offset inside the buffer.
        g = args(MatrixDesc::row_major(0, 0), N, MatrixDesc::row_major(0, 3), N, MatrixDesc::row_major(0, 3));
        g.a.ld = 0;
        assert!(matches!(g.plan(), Err(ShapeError::LeadingDimension { name: "A", min: 1, .. })));
    }

    #[test]
    fn precision_requests_fit_the_inputs() {
        let p = GemmParams::new();
        assert_eq!(p.resolve_precision(Precision::Bf16), Some(Precision::Bf16));
        assert_eq!(p.precision(Precision::Tf32).resolve_precision(Precision::Fp32), Some(Precision::Tf32));
        assert_eq!(p.precision(Precision::Tf32).resolve_precision(Precision::Fp16), None);
        assert_eq!(p.precision(Precision::Fp32).resolve_precision(Precision::Bf16), None);
    }

    #[test]
    fn gather_and_scatter_follow_the_layout() {
        let data: Vec<u32> = (0..24).collect();
        let d = MatrixDesc::col_major(3, 4).with_ld(5).with_offset(2);
        assert_eq!(d.needed_len(), Some(2 + 3 * 5 + 3));
        assert_eq!(d.gather(&data), vec![2, 7, 12, 17, 3, 8, 13, 18, 4, 9, 14, 19]);
        let mut out = vec![0u32; 24];
        d.scatter(&d.gather(&data), &mut out);
        assert_eq!((out[2], out[19], out[5], out[0]), (2, 19, 0, 0));
    }
}
