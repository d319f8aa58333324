//! A product's `C` left on the GPUs that computed it: each GPU holds its rows.
use std::ops::Range;

use super::MultiGpu;
use crate::error::{Error, Result};
use crate::matrix::DeviceMatrix;
use crate::HostMatrix;

/// One GPU's rows of `C`.
pub struct RowBlock {
    /// The GPU (index into [`MultiGpu::gpus`]).
    pub gpu: usize,
    /// Its rows of `C`.
    pub rows: Range<usize>,
    /// Those rows, `rows.len() × cols`, on that GPU.
    pub matrix: DeviceMatrix,
    /// Seconds from the product's start until this GPU's last upload was issued.
    pub upload_s: f64,
    /// Seconds from the product's start until this GPU finished.
    pub done_s: f64,
}

/// A `rows × cols` matrix whose row blocks live on several GPUs.
pub struct RowBlocks {
    pub rows: usize,
    pub cols: usize,
    /// The row blocks, in row order (one per GPU; some may be empty).
    pub parts: Vec<RowBlock>,
}

impl RowBlocks {
    /// The block holding row `r`, or [`Error::InvalidArgument`] past the end.
    fn block(&self, r: usize) -> Result<&RowBlock> {
        self.parts
            .iter()
            .find(|p| p.rows.contains(&r))
            .ok_or_else(|| Error::InvalidArgument { op: "RowBlocks", detail: format!("row {r} of a matrix of {} rows", self.rows) })
    }

    /// Elements `(row, col)` of `points`, each read from the GPU that holds it.
    ///
    /// Errors: [`Error::InvalidArgument`] for a point outside the matrix; copy errors.
    pub fn sample(&self, multi: &MultiGpu, points: &[(usize, usize)]) -> Result<Vec<f32>> {
        points
            .iter()
            .map(|&(r, c)| {
                if c >= self.cols {
                    return Err(Error::InvalidArgument { op: "RowBlocks::sample", detail: format!("column {c} of {}", self.cols) });
                }
                let block = self.block(r)?;
                let at = (r - block.rows.start) * self.cols + c;
                Ok(block.matrix.buffer().to_host_range(multi.gpu(block.gpu)?, at..at + 1)?[0])
            })
            .collect()
    }

    /// Downloads every block into one host matrix.
    pub fn to_host(&self, multi: &MultiGpu) -> Result<HostMatrix> {
        let mut data = Vec::with_capacity(self.rows * self.cols);
        for p in &self.parts {
            data.extend(p.matrix.to_vec(multi.gpu(p.gpu)?)?);
        }
        Ok(HostMatrix { rows: self.rows, cols: self.cols, data })
    }
}

impl MultiGpu {
    /// GPU `g`, or [`Error::InvalidArgument`].
    pub fn gpu(&self, g: usize) -> Result<&crate::Gpu> {
        self.gpus().get(g).ok_or_else(|| Error::InvalidArgument { op: "MultiGpu::gpu", detail: format!("GPU {g} of {}", self.len()) })
    }
}
