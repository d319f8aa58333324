//! The catalogue's one error type (the host crate maps it into its own `Error`).

/// Why a shape was refused (the host crate maps these to its `Error` variants).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// Operand shapes do not fit together (e.g. `A.cols != B.rows`).
    #[error("shape mismatch in {op}: {detail}")]
    Mismatch { op: &'static str, detail: String },
    /// A size whose element count does not fit the kernels' 32-bit indexing or the grid.
    #[error("size too large in {op}: {detail}")]
    TooLarge { op: &'static str, detail: String },
}
