//! The catalogue's errors (the host crate maps them into its own `Error`): a shape or view refused
//! ([`ShapeError`]), a product that could not be planned ([`PlanError`]).
use crate::precision::Precision;

/// Why a shape (or a matrix view) was refused (the host crate maps these to its `Error` variants).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Operand shapes do not fit together (e.g. `A.cols != B.rows`).
    #[error("shape mismatch in {op}: {detail}")]
    Mismatch { op: &'static str, detail: String },
    /// A size whose element count does not fit the kernels' 32-bit indexing or the grid.
    #[error("size too large in {op}: {detail}")]
    TooLarge { op: &'static str, detail: String },
    /// A matrix view's leading dimension is below what its layout needs (BLAS: `ld ≥ max(1, rows)`
    /// column-major, `ld ≥ max(1, cols)` row-major).
    #[error("leading dimension too small in {op}: `{name}` has ld = {ld}, at least {min} needed")]
    LeadingDimension { op: &'static str, name: &'static str, ld: usize, min: usize },
    /// A matrix whose rows are not aligned as the kernel's copies need (the TMA: 16-byte rows).
    #[error("unaligned operand in {op}: {detail}")]
    Unaligned { op: &'static str, detail: String },
    /// A buffer is shorter than the matrix view laid over it (offset and leading dimension included).
    #[error("buffer too small in {op}: `{name}` holds {len} elements, {needed} needed")]
    BufferTooSmall { op: &'static str, name: &'static str, len: usize, needed: usize },
}

/// Why a product could not be planned (the host crate maps these to its `Error` variants).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The shape, or an operand's layout, was refused.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The kernel asked for computes in another precision than the one asked for.
    #[error("precision mismatch in {op}: {kernel} computes in {kernel_precision:?}, {requested:?} was asked for")]
    PrecisionMismatch { op: &'static str, kernel: &'static str, kernel_precision: Precision, requested: Precision },
    /// No kernel of the target computes products in this precision: FP8 off sm_90a (kernel 25 uses
    /// Hopper's FP8 `wgmma`). Nothing was planned.
    #[error("{op}: no kernel multiplies {precision:?} inputs on this GPU (the FP8 kernels need sm_90a: Hopper)")]
    NoKernel { op: &'static str, precision: Precision },
    /// A choice that cannot run the product (a saved pick of another shape, a kernel the path cannot use).
    #[error("invalid argument to {op}: {detail}")]
    Invalid { op: &'static str, detail: String },
}
