//! Why a product could not be planned.
use crate::error::ShapeError;
use crate::precision::Precision;

/// Why a product could not be planned (the host crate maps these to its `Error` variants).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The shape, or an operand's layout, was refused.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The kernel asked for computes in another precision than the one asked for.
    #[error("precision mismatch in {op}: {kernel} computes in {kernel_precision:?}, {requested:?} was asked for")]
    PrecisionMismatch { op: &'static str, kernel: &'static str, kernel_precision: Precision, requested: Precision },
    /// A choice that cannot run the product (a saved pick of another shape, a kernel the path cannot use).
    #[error("invalid argument to {op}: {detail}")]
    Invalid { op: &'static str, detail: String },
}
