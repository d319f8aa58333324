//! [`ndarray`] matrices to and from the device (feature `ndarray`).
use ndarray::{Array2, ArrayView2};

use super::{upload, HostData};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};

impl<T: DeviceElement> DeviceMatrix<T> {
    /// Uploads `a` (any memory order) as a row-major device matrix of the same element type.
    ///
    /// A standard-layout (C-order) array is uploaded straight from its memory, a Fortran-order one
    /// too and then transposed on the device; any other (a strided slice, reversed axes) is gathered
    /// into one row-major copy on the host first.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// let gpu = tessera::Gpu::new(0)?;
    /// let a = ndarray::Array2::<f32>::from_shape_fn((64, 32), |(r, c)| (r + c) as f32);
    /// let da = tessera::DeviceMatrix::from_ndarray(&gpu, a.view())?; // no host copy
    /// assert_eq!(da.to_ndarray(&gpu)?, a);
    /// # Ok(()) }
    /// ```
    pub fn from_ndarray(gpu: &Gpu, a: ArrayView2<'_, T>) -> Result<Self> {
        let (rows, cols) = a.dim();
        upload(gpu, rows, cols, host_data(a), "DeviceMatrix::from_ndarray")
    }

    /// Downloads the matrix into a standard-layout [`Array2`] (the downloaded `Vec` becomes its storage).
    pub fn to_ndarray(&self, gpu: &Gpu) -> Result<Array2<T>> {
        let data = self.to_vec(gpu)?;
        Array2::from_shape_vec((self.rows(), self.cols()), data)
            .map_err(|e| Error::ShapeMismatch { op: "DeviceMatrix::to_ndarray", detail: e.to_string() })
    }
}

/// `a`'s memory as the upload reads it: in place when contiguous in either order.
fn host_data<T: Copy>(a: ArrayView2<'_, T>) -> HostData<'_, T> {
    if let Some(s) = a.to_slice() {
        HostData::RowMajor(s)
    } else if let Some(s) = a.reversed_axes().to_slice() {
        HostData::ColMajor(s)
    } else {
        // ndarray iterates in logical (row-major) order whatever the strides.
        HostData::Gathered(a.iter().copied().collect())
    }
}

#[cfg(test)]
mod tests {
    use ndarray::{s, Array2, ShapeBuilder};

    use super::*;

    #[test]
    fn contiguous_arrays_are_read_in_place_and_others_gathered_in_row_order() {
        let c = Array2::from_shape_fn((3, 4), |(r, c)| (10 * r + c) as f32);
        assert!(matches!(host_data(c.view()), HostData::RowMajor(s) if s.as_ptr() == c.as_ptr() && s.len() == 12));
        let f = Array2::from_shape_fn((3, 4).f(), |(r, c)| (10 * r + c) as f32);
        match host_data(f.view()) {
            HostData::ColMajor(s) => assert_eq!(&s[..4], &[0.0, 10.0, 20.0, 1.0]),
            _ => panic!("a Fortran-order array is column-major contiguous"),
        }
        match host_data(c.slice(s![.., ..;2])) {
            HostData::Gathered(v) => assert_eq!(v, vec![0.0, 2.0, 10.0, 12.0, 20.0, 22.0]),
            _ => panic!("a strided slice is gathered"),
        }
    }
}
