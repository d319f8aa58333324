//! Row-major f32 matrices in device memory (the host side, [`HostMatrix`], is the catalogue's).
use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::HostMatrix;

/// A dense row-major matrix in device memory.
pub struct DeviceMatrix {
    pub rows: usize,
    pub cols: usize,
    pub buf: DeviceBuffer<f32>,
}

impl DeviceMatrix {
    /// A zeroed `rows × cols` matrix on `gpu`.
    pub fn zeros(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let len = element_count("DeviceMatrix::zeros", rows, cols)?;
        Ok(Self { rows, cols, buf: DeviceBuffer::zeros(gpu, len)? })
    }

    /// Uploads `m`.
    pub fn from_host(gpu: &Gpu, m: &HostMatrix) -> Result<Self> {
        let len = element_count("DeviceMatrix::from_host", m.rows, m.cols)?;
        if m.data.len() != len {
            return Err(Error::BufferTooSmall { op: "DeviceMatrix::from_host", name: "data", len: m.data.len(), needed: len });
        }
        Ok(Self { rows: m.rows, cols: m.cols, buf: DeviceBuffer::from_host(gpu, &m.data)? })
    }

    /// Downloads the matrix (waits for the stream).
    pub fn to_host(&self, gpu: &Gpu) -> Result<HostMatrix> {
        Ok(HostMatrix { rows: self.rows, cols: self.cols, data: self.buf.to_host(gpu)? })
    }
}

/// `rows · cols`, or [`Error::TooLarge`] when it overflows.
pub(crate) fn element_count(op: &'static str, rows: usize, cols: usize) -> Result<usize> {
    rows.checked_mul(cols).ok_or_else(|| Error::TooLarge { op, detail: format!("{rows}×{cols} elements overflow usize") })
}
