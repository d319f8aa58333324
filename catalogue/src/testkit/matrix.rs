//! Dense row-major f32 matrices in host memory.
use crate::error::ShapeError;

/// A dense row-major matrix in host memory.
#[derive(Debug, Clone, PartialEq)]
pub struct HostMatrix {
    pub rows: usize,
    pub cols: usize,
    /// `rows · cols` elements, row after row.
    pub data: Vec<f32>,
}

impl HostMatrix {
    /// Wraps `data`; errors if its length is not `rows · cols` ([`ShapeError::Mismatch`]) or
    /// `rows · cols` overflows ([`ShapeError::TooLarge`]).
    ///
    /// Through `tessera` (which re-exports this type), `?` turns the error into `tessera::Error`
    /// (`ShapeMismatch`, `TooLarge`): tessera implements `From<ShapeError>`.
    pub fn new(rows: usize, cols: usize, data: Vec<f32>) -> Result<Self, ShapeError> {
        const OP: &str = "HostMatrix::new";
        let needed = rows
            .checked_mul(cols)
            .ok_or_else(|| ShapeError::TooLarge { op: OP, detail: format!("{rows}×{cols} elements overflow usize") })?;
        if data.len() != needed {
            return Err(ShapeError::Mismatch { op: OP, detail: format!("{rows}×{cols} needs {needed} elements, got {}", data.len()) });
        }
        Ok(Self { rows, cols, data })
    }

    /// Element `(r, c)` is `f(r, c)`.
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f32) -> Self {
        let data = (0..rows * cols).map(|i| f(i / cols.max(1), i % cols.max(1))).collect();
        Self { rows, cols, data }
    }

    /// A `rows × cols` matrix of [`crate::testkit::random::operands`] drawn from `seed`.
    pub fn random(rows: usize, cols: usize, seed: u64) -> Self {
        Self { rows, cols, data: crate::testkit::random::operands(rows * cols, seed) }
    }

    /// Element `(r, c)`.
    pub fn get(&self, r: usize, c: usize) -> f32 {
        self.data[r * self.cols + c]
    }
}
