//! Dense row-major matrices in device memory, of any input element type (`f32`, `bf16`, `f16`); the
//! host side, [`HostMatrix`] (f32), is the catalogue's.
use cudarc::driver::{DeviceRepr, ValidAsZeroBits};
use tessera_catalogue::precision::Element;

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::HostMatrix;

/// An element type a [`DeviceMatrix`] can hold: a GEMM input type the device can store.
pub trait DeviceElement: Element + DeviceRepr + ValidAsZeroBits {}
impl<T: Element + DeviceRepr + ValidAsZeroBits> DeviceElement for T {}

/// A dense row-major matrix in device memory (`f32` unless said otherwise).
pub struct DeviceMatrix<T = f32> {
    pub rows: usize,
    pub cols: usize,
    pub buf: DeviceBuffer<T>,
}

impl<T: DeviceElement> DeviceMatrix<T> {
    /// A zeroed `rows × cols` matrix on `gpu`.
    pub fn zeros(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let len = element_count("DeviceMatrix::zeros", rows, cols)?;
        Ok(Self { rows, cols, buf: DeviceBuffer::zeros(gpu, len)? })
    }

    /// Uploads `m`, each element rounded to `T` (to nearest, ties to even; exact for `f32`).
    pub fn from_host(gpu: &Gpu, m: &HostMatrix) -> Result<Self> {
        let len = element_count("DeviceMatrix::from_host", m.rows, m.cols)?;
        if m.data.len() != len {
            return Err(Error::BufferTooSmall { op: "DeviceMatrix::from_host", name: "data", len: m.data.len(), needed: len });
        }
        Ok(Self { rows: m.rows, cols: m.cols, buf: DeviceBuffer::from_host(gpu, &T::from_f32_slice(&m.data))? })
    }

    /// Downloads the matrix, widened to `f32` (exact), and waits for the stream.
    pub fn to_host(&self, gpu: &Gpu) -> Result<HostMatrix> {
        let data = self.buf.to_host(gpu)?;
        Ok(HostMatrix { rows: self.rows, cols: self.cols, data: data.into_iter().map(T::to_f32).collect() })
    }
}

/// `rows · cols`, or [`Error::TooLarge`] when it overflows.
pub(crate) fn element_count(op: &'static str, rows: usize, cols: usize) -> Result<usize> {
    rows.checked_mul(cols).ok_or_else(|| Error::TooLarge { op, detail: format!("{rows}×{cols} elements overflow usize") })
}
