//! Matrices users already have, to and from the device (cargo features `ndarray` and `faer`).
//!
//! Uploads read the caller's memory in place whenever it is contiguous: a row-major (C-order) matrix
//! goes straight into a [`DeviceMatrix`]; a column-major (Fortran-order) one is
//! uploaded as it is and transposed on the device by the pack kernel (no host copy either way). Only a
//! matrix with gaps or negative strides is gathered into one row-major copy on the host first.
//! Downloads return an owned matrix built from the downloaded data (ndarray: without a further copy).
use tessera_catalogue::plan::gemm::{Operand, Pack};

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::Result;
use crate::matrix::{exact_len, DeviceElement, DeviceMatrix};

#[cfg(feature = "faer")]
pub mod faer;
#[cfg(feature = "ndarray")]
pub mod ndarray;

/// How a host matrix lies in its memory, as the uploads see it.
pub(crate) enum HostData<'a, T> {
    /// `rows × cols`, row after row, contiguous.
    RowMajor(&'a [T]),
    /// `rows × cols`, column after column, contiguous.
    ColMajor(&'a [T]),
    /// Neither: gathered into a row-major copy.
    Gathered(Vec<T>),
}

/// Uploads `data` as a `rows × cols` row-major device matrix (see the module documentation).
pub(crate) fn upload<T: DeviceElement>(
    gpu: &Gpu,
    rows: usize,
    cols: usize,
    data: HostData<'_, T>,
    op: &'static str,
) -> Result<DeviceMatrix<T>> {
    let (slice, col_major) = match &data {
        HostData::RowMajor(s) => (*s, false),
        HostData::ColMajor(s) => (*s, true),
        HostData::Gathered(v) => (v.as_slice(), false),
    };
    exact_len(op, "data", rows, cols, slice.len())?;
    let uploaded = DeviceBuffer::from_host(gpu, slice)?;
    if !col_major || rows <= 1 || cols <= 1 {
        // A single row or column is the same in both orders.
        return DeviceMatrix::from_buffer(rows, cols, uploaded);
    }
    // The column-major data is the row-major transpose (cols × rows): transpose it on the device.
    let pack = Pack { source: Operand::A, offset: 0, ld: rows, transposed: true, rows, cols };
    let buf = gpu.pack(&pack, &uploaded.slice.slice(..))?;
    DeviceMatrix::from_buffer(rows, cols, DeviceBuffer { slice: buf })
}
