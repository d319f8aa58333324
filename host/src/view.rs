//! Matrix views over device buffers, as BLAS passes matrices: a buffer plus where the matrix lies in
//! it ([`MatrixDesc`]: rows, columns, leading dimension, layout, offset). A view borrows its buffer;
//! it is checked against the buffer when an operation uses it ([`crate::Gpu::gemm`]), before any GPU work.
use tessera_catalogue::plan::gemm::MatrixDesc;

use crate::buffer::DeviceBuffer;
use crate::matrix::{DeviceElement, DeviceMatrix};

/// A read-only matrix view over a device buffer (BLAS's `A` and `B`).
///
/// ```no_run
/// # fn main() -> Result<(), tessera::Error> {
/// use tessera::{DeviceBuffer, Gpu, MatrixRef};
/// let gpu = Gpu::new(0)?;
/// let big = DeviceBuffer::<f32>::zeros(&gpu, 100 * 64)?;
/// // The 10×8 block at (2, 3) of a column-major 100×64 matrix: ld = 100, first element at 2 + 3·100.
/// let block = MatrixRef::col_major(&big, 100, 64).block(2, 3, 10, 8)?;
/// assert_eq!((block.desc().ld, block.desc().offset), (100, 302));
/// # Ok(()) }
/// ```
#[derive(Clone, Copy)]
pub struct MatrixRef<'a, T> {
    buf: &'a DeviceBuffer<T>,
    desc: MatrixDesc,
}

/// A writable matrix view over a device buffer (BLAS's `C`); the operation touches only the view's
/// elements, never the rest of the buffer.
pub struct MatrixMut<'a, T = f32> {
    buf: &'a mut DeviceBuffer<T>,
    desc: MatrixDesc,
}

/// The constructors and builders both views share (they differ only in how they borrow the buffer).
macro_rules! view_builders {
    ($view:ident, $buf:ty) => {
        impl<'a, T> $view<'a, T> {
            /// The matrix `desc` describes inside `buf`.
            pub fn new(buf: $buf, desc: MatrixDesc) -> Self {
                Self { buf, desc }
            }

            /// A dense row-major `rows × cols` matrix at the start of `buf`.
            pub fn row_major(buf: $buf, rows: usize, cols: usize) -> Self {
                Self::new(buf, MatrixDesc::row_major(rows, cols))
            }

            /// A dense column-major `rows × cols` matrix at the start of `buf`.
            pub fn col_major(buf: $buf, rows: usize, cols: usize) -> Self {
                Self::new(buf, MatrixDesc::col_major(rows, cols))
            }

            /// The same view with leading dimension `ld`.
            pub fn ld(self, ld: usize) -> Self {
                Self { desc: self.desc.with_ld(ld), ..self }
            }

            /// The same view starting at buffer index `offset`.
            pub fn offset(self, offset: usize) -> Self {
                Self { desc: self.desc.with_offset(offset), ..self }
            }

            /// The `rows × cols` block whose first element is `(row, col)`; [`crate::Error::ShapeMismatch`]
            /// when it does not fit inside this view.
            pub fn block(self, row: usize, col: usize, rows: usize, cols: usize) -> crate::Result<Self> {
                Ok(Self { desc: self.desc.block(row, col, rows, cols)?, ..self })
            }

            /// Where the matrix lies in the buffer.
            pub fn desc(&self) -> MatrixDesc {
                self.desc
            }
        }
    };
}

view_builders!(MatrixRef, &'a DeviceBuffer<T>);
view_builders!(MatrixMut, &'a mut DeviceBuffer<T>);

impl<'a, T> MatrixRef<'a, T> {
    /// The buffer under the view.
    pub fn buffer(&self) -> &'a DeviceBuffer<T> {
        self.buf
    }
}

impl<T> MatrixMut<'_, T> {
    /// The buffer under the view.
    pub fn buffer(&mut self) -> &mut DeviceBuffer<T> {
        self.buf
    }

    /// A read-only view of the same matrix.
    pub fn as_view(&self) -> MatrixRef<'_, T> {
        MatrixRef { buf: self.buf, desc: self.desc }
    }
}

impl<T: DeviceElement> DeviceMatrix<T> {
    /// The whole matrix as a (dense, row-major) view.
    pub fn view(&self) -> MatrixRef<'_, T> {
        MatrixRef::row_major(self.buffer(), self.rows(), self.cols())
    }

    /// The whole matrix as a writable (dense, row-major) view.
    pub fn view_mut(&mut self) -> MatrixMut<'_, T> {
        let (rows, cols) = self.shape();
        MatrixMut::row_major(self.buffer_mut(), rows, cols)
    }
}
