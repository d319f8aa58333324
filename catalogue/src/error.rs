//! The catalogue's one error type (the host crate maps it into its own `Error`).

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
