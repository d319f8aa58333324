//! [`faer`] matrices to and from the device (feature `faer`).
use faer::{Mat, MatRef};

use super::{upload, HostData};
use crate::context::Gpu;
use crate::error::Result;
use crate::matrix::{DeviceElement, DeviceMatrix};

impl<T: DeviceElement> DeviceMatrix<T> {
    /// Uploads `m` as a row-major device matrix of the same element type.
    ///
    /// A contiguous column-major matrix (a `Mat` whose column stride is its row count, or any such
    /// view) is uploaded straight from its memory and transposed on the device; a contiguous row-major
    /// view likewise without the transpose; anything else (padded columns, sub-views, negative
    /// strides) is gathered into one row-major copy on the host first.
    pub fn from_faer(gpu: &Gpu, m: MatRef<'_, T>) -> Result<Self> {
        upload(gpu, m.nrows(), m.ncols(), host_data(m), "DeviceMatrix::from_faer")
    }

    /// Downloads the matrix into a faer [`Mat`] (faer owns its own aligned, column-major storage, so
    /// the downloaded data is copied into it once).
    pub fn to_faer(&self, gpu: &Gpu) -> Result<Mat<T>> {
        let data = self.to_vec(gpu)?;
        let cols = self.cols();
        Ok(Mat::from_fn(self.rows(), self.cols(), |i, j| data[i * cols + j]))
    }
}

/// `m`'s memory as the upload reads it: in place when contiguous in either order.
fn host_data<T: Copy>(m: MatRef<'_, T>) -> HostData<'_, T> {
    let (rows, cols) = (m.nrows(), m.ncols());
    let (rs, cs) = (m.row_stride(), m.col_stride());
    let len = rows * cols;
    if len == 0 {
        HostData::RowMajor(&[])
    } else if cs == 1 && (rows == 1 || rs == cols as isize) {
        // SAFETY: faer guarantees element (i, j) at as_ptr() + i·rs + j·cs is valid for reads for
        // the borrow's lifetime; with cs = 1 and rs = cols those are exactly the len elements from
        // as_ptr() on, which are therefore one initialized slice borrowed from `m`.
        HostData::RowMajor(unsafe { std::slice::from_raw_parts(m.as_ptr(), len) })
    } else if rs == 1 && (cols == 1 || cs == rows as isize) {
        // SAFETY: as above with rs = 1, cs = rows: column after column, exactly len elements.
        HostData::ColMajor(unsafe { std::slice::from_raw_parts(m.as_ptr(), len) })
    } else {
        HostData::Gathered((0..rows).flat_map(|i| (0..cols).map(move |j| m[(i, j)])).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguous_matrices_are_read_in_place_and_others_gathered_in_row_order() {
        let data: Vec<f32> = (0..12).map(|x| x as f32).collect();
        // Column-major 3×4 over a slice: (r, c) = 3c + r.
        let m = MatRef::from_column_major_slice(&data, 3, 4);
        match host_data(m) {
            HostData::ColMajor(s) => assert_eq!(s.as_ptr(), data.as_ptr()),
            _ => panic!("contiguous column-major"),
        }
        match host_data(m.transpose()) {
            HostData::RowMajor(s) => assert_eq!(s.len(), 12),
            _ => panic!("the transpose of a column-major matrix is row-major contiguous"),
        }
        match host_data(m.submatrix(1, 1, 2, 2)) {
            HostData::Gathered(v) => assert_eq!(v, vec![4.0, 7.0, 5.0, 8.0]),
            _ => panic!("a sub-view with gaps is gathered"),
        }
    }
}
