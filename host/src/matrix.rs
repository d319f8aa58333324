//! Dense row-major matrices in device memory, of any input element type (`f32`, `bf16`, `f16`); the
//! host side, [`HostMatrix`] (f32), is the catalogue's.
use std::any::Any;

use cudarc::driver::{sys, DevicePtrMut, DeviceRepr, ValidAsZeroBits};
use half::{bf16, f16};
use tessera_catalogue::precision::Element;

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::HostMatrix;

/// An element type a [`DeviceMatrix`] can hold: a GEMM input type the device can store.
pub trait DeviceElement: Element + DeviceRepr + ValidAsZeroBits {}
impl<T: Element + DeviceRepr + ValidAsZeroBits> DeviceElement for T {}

/// An element type a product can write `C` in: `f32`, or [`half::bf16`] / [`half::f16`] (the `f32`
/// sums rounded once to nearest as the kernel stores them: the kernels that finish their sums,
/// [`crate::Gpu::matmul_fused`] and [`crate::Gpu::matmul_fp8`] — FP8's BF16 and `f32` only).
pub trait OutputElement: DeviceElement {
    /// The catalogue's name for it.
    #[doc(hidden)]
    const FORMAT: tessera_catalogue::OutputFormat;
}
impl OutputElement for f32 {
    const FORMAT: tessera_catalogue::OutputFormat = tessera_catalogue::OutputFormat::F32;
}
impl OutputElement for half::bf16 {
    const FORMAT: tessera_catalogue::OutputFormat = tessera_catalogue::OutputFormat::Bf16;
}
impl OutputElement for half::f16 {
    const FORMAT: tessera_catalogue::OutputFormat = tessera_catalogue::OutputFormat::F16;
}

/// A dense row-major matrix in device memory (`f32` unless said otherwise).
///
/// Its shape and its buffer agree: the buffer holds exactly `rows · cols` elements, row after row.
/// Every constructor checks that before it touches the GPU, with a typed error
/// ([`Error::TooLarge`] when `rows · cols` overflows, [`Error::BufferTooSmall`] for too few
/// elements, [`Error::ShapeMismatch`] for too many). A matrix inside a larger buffer, or with a
/// leading dimension, is a view: [`crate::MatrixRef`] / [`crate::MatrixMut`].
///
/// ```no_run
/// # fn main() -> Result<(), tessera::Error> {
/// use tessera::{bf16, DeviceBuffer, DeviceMatrix, Gpu};
/// let gpu = Gpu::new(0)?;
/// // bf16 data already on the host, uploaded as it is (no rounding through f32).
/// let data: Vec<bf16> = (0..6).map(|i| bf16::from_f32(i as f32)).collect();
/// let a = DeviceMatrix::from_slice(&gpu, 2, 3, &data)?;
/// assert_eq!((a.rows(), a.cols()), (2, 3));
/// // A buffer of the wrong length is refused before any GPU work.
/// let short = DeviceBuffer::<f32>::zeros(&gpu, 5)?;
/// assert!(matches!(DeviceMatrix::from_buffer(2, 3, short), Err(tessera::Error::BufferTooSmall { .. })));
/// # Ok(()) }
/// ```
pub struct DeviceMatrix<T = f32> {
    rows: usize,
    cols: usize,
    buf: DeviceBuffer<T>,
}

impl<T> DeviceMatrix<T> {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The device buffer: `rows · cols` elements, row after row (for cudarc, cuBLAS and the views).
    pub fn buffer(&self) -> &DeviceBuffer<T> {
        &self.buf
    }

    /// The device buffer, writable (its contents, for cudarc, cuBLAS and the views). Replacing it with
    /// a buffer of another length (`*m.buffer_mut() = …`) breaks the matrix's shape: don't — use
    /// [`DeviceMatrix::into_buffer`] and [`DeviceMatrix::from_buffer`]. (Operations check the length
    /// anyway and refuse a short buffer with [`Error::BufferTooSmall`].)
    pub fn buffer_mut(&mut self) -> &mut DeviceBuffer<T> {
        &mut self.buf
    }

    /// The device buffer, giving up the matrix (the inverse of [`DeviceMatrix::from_buffer`]).
    pub fn into_buffer(self) -> DeviceBuffer<T> {
        self.buf
    }
}

/// The shape and the element type (the elements stay on the device: [`DeviceMatrix::to_host`]).
impl<T> std::fmt::Debug for DeviceMatrix<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMatrix")
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("element", &std::any::type_name::<T>())
            .field("buffer_len", &self.buf.slice.len())
            .finish()
    }
}

impl<T: DeviceElement> DeviceMatrix<T> {
    /// A `rows × cols` matrix over `buf`, which holds its elements row after row; no GPU work.
    ///
    /// Errors (`buf` is dropped): [`Error::TooLarge`] when `rows · cols` overflows,
    /// [`Error::BufferTooSmall`] when `buf` holds fewer than `rows · cols` elements,
    /// [`Error::ShapeMismatch`] when it holds more (a matrix inside a larger buffer is a
    /// [`crate::MatrixRef`] view).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{DeviceBuffer, DeviceMatrix, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let m = DeviceMatrix::from_buffer(4, 8, DeviceBuffer::<f32>::zeros(&gpu, 32)?)?;
    /// let buf = m.into_buffer(); // and back
    /// assert_eq!(buf.len(), 32);
    /// # Ok(()) }
    /// ```
    pub fn from_buffer(rows: usize, cols: usize, buf: DeviceBuffer<T>) -> Result<Self> {
        exact_len("DeviceMatrix::from_buffer", "buffer", rows, cols, buf.len())?;
        Ok(Self { rows, cols, buf })
    }

    /// A zeroed `rows × cols` matrix on `gpu`.
    pub fn zeros(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let len = element_count("DeviceMatrix::zeros", rows, cols)?;
        Ok(Self { rows, cols, buf: DeviceBuffer::zeros(gpu, len)? })
    }

    /// Uploads `data` (`rows · cols` elements of `T`, row after row) as it is: the typed way in for
    /// `bf16` / `f16` data already on the host (no rounding through `f32`).
    ///
    /// Errors, before any GPU work: as [`DeviceMatrix::from_buffer`] for `data`'s length
    /// ([`Error::TooLarge`], [`Error::BufferTooSmall`], [`Error::ShapeMismatch`]).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{f16, DeviceMatrix, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let ones = vec![f16::ONE; 3 * 4];
    /// let m = DeviceMatrix::from_slice(&gpu, 3, 4, &ones)?;
    /// assert_eq!(m.to_host(&gpu)?.data, vec![1.0f32; 12]);
    /// assert!(DeviceMatrix::from_slice(&gpu, 4, 4, &ones).is_err()); // 12 elements for 4×4
    /// # Ok(()) }
    /// ```
    pub fn from_slice(gpu: &Gpu, rows: usize, cols: usize, data: &[T]) -> Result<Self> {
        exact_len("DeviceMatrix::from_slice", "data", rows, cols, data.len())?;
        Ok(Self { rows, cols, buf: DeviceBuffer::from_host(gpu, data)? })
    }

    /// Uploads `m`, each element rounded to `T` (to nearest, ties to even; exact for `f32`).
    ///
    /// Errors, before any GPU work: as [`DeviceMatrix::from_buffer`] for `m.data`'s length (its fields
    /// are public, so they may disagree).
    pub fn from_host(gpu: &Gpu, m: &HostMatrix) -> Result<Self> {
        exact_len("DeviceMatrix::from_host", "data", m.rows, m.cols, m.data.len())?;
        Ok(Self { rows: m.rows, cols: m.cols, buf: DeviceBuffer::from_host(gpu, &T::from_f32_slice(&m.data))? })
    }

    /// Downloads the matrix, widened to `f32` (exact), and waits for the stream.
    pub fn to_host(&self, gpu: &Gpu) -> Result<HostMatrix> {
        let data = self.download(gpu, "DeviceMatrix::to_host")?;
        Ok(HostMatrix { rows: self.rows, cols: self.cols, data: data.into_iter().map(T::to_f32).collect() })
    }

    /// Downloads the matrix's `rows · cols` elements as they are (no widening), and waits for the stream.
    pub fn to_vec(&self, gpu: &Gpu) -> Result<Vec<T>> {
        self.download(gpu, "DeviceMatrix::to_vec")
    }

    /// Sets every element to `value`, queued on `gpu`'s stream (ordered with the launches).
    ///
    /// `f32`, `bf16` and `f16` are filled on the device by the driver (`cuMemsetD32Async` /
    /// `cuMemsetD16Async` with `value`'s bit pattern; no kernel, no upload). Any other element type
    /// is, for now, filled by uploading a host vector of `value`s (`rows · cols` elements).
    ///
    /// Errors: [`Error::WrongContext`] when the matrix belongs to another context than `gpu`'s;
    /// [`Error::BufferTooSmall`] only for a buffer swapped through [`DeviceMatrix::buffer_mut`].
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, DeviceMatrix, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let mut m = DeviceMatrix::<bf16>::zeros(&gpu, 64, 64)?;
    /// m.fill(&gpu, bf16::from_f32(0.5))?;
    /// assert!(m.to_host(&gpu)?.data.iter().all(|&x| x == 0.5));
    /// # Ok(()) }
    /// ```
    pub fn fill(&mut self, gpu: &Gpu, value: T) -> Result<()> {
        const OP: &str = "DeviceMatrix::fill";
        gpu.check_usable()?;
        self.buf.check_context(gpu, OP)?;
        let len = element_count(OP, self.rows, self.cols)?;
        if self.buf.len() < len {
            return Err(Error::BufferTooSmall { op: OP, name: "buffer", len: self.buf.len(), needed: len });
        }
        if len == 0 {
            return Ok(());
        }
        let stream = gpu.stream();
        let Some(pattern) = FillPattern::of(&value) else {
            // Pageable memory: the copy has been staged when memcpy_htod returns, `host` may go.
            let host = vec![value; len];
            return stream.memcpy_htod(&host, &mut self.buf.slice).map_err(|e| gpu.fault(e, "copying to the device"));
        };
        gpu.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
        let (ptr, _write) = self.buf.slice.device_ptr_mut(stream);
        // SAFETY: `ptr` addresses the buffer, at least `len` elements (checked above) of this context,
        // each of the pattern's width (`FillPattern::of` matched `T` to f32 / bf16 / f16), aligned as
        // the driver allocates; `_write` records the write on `stream` for cudarc's stream ordering.
        let set = unsafe {
            match pattern {
                FillPattern::D32(bits) => sys::cuMemsetD32Async(ptr, bits, len, stream.cu_stream()),
                FillPattern::D16(bits) => sys::cuMemsetD16Async(ptr, bits, len, stream.cu_stream()),
            }
        };
        set.result().map_err(|e| gpu.fault(e, "filling device memory"))
    }

    /// The first `rows · cols` elements of the buffer (all of it, unless replaced through
    /// [`DeviceMatrix::buffer_mut`]); [`Error::BufferTooSmall`] when it is shorter.
    fn download(&self, gpu: &Gpu, op: &'static str) -> Result<Vec<T>> {
        let len = element_count(op, self.rows, self.cols)?;
        match self.buf.len() {
            have if have == len => self.buf.to_host(gpu),
            have if have > len => self.buf.to_host_range(gpu, 0..len),
            have => Err(Error::BufferTooSmall { op, name: "buffer", len: have, needed: len }),
        }
    }
}

/// A fill value's bit pattern, for the driver's memsets.
enum FillPattern {
    D32(u32),
    D16(u16),
}

impl FillPattern {
    /// The pattern of a value of tessera's element types; `None` for any other type.
    fn of<T: 'static>(value: &T) -> Option<Self> {
        let value = value as &dyn Any;
        if let Some(x) = value.downcast_ref::<f32>() {
            Some(Self::D32(x.to_bits()))
        } else if let Some(x) = value.downcast_ref::<bf16>() {
            Some(Self::D16(x.to_bits()))
        } else {
            value.downcast_ref::<f16>().map(|x| Self::D16(x.to_bits()))
        }
    }
}

/// `rows · cols`, or [`Error::TooLarge`] when it overflows.
pub(crate) fn element_count(op: &'static str, rows: usize, cols: usize) -> Result<usize> {
    rows.checked_mul(cols).ok_or_else(|| Error::TooLarge { op, detail: format!("{rows}×{cols} elements overflow usize") })
}

/// `rows · cols` when `len` (the length of `name`) is exactly that; otherwise [`Error::TooLarge`]
/// (the product overflows), [`Error::BufferTooSmall`] (`len` falls short) or
/// [`Error::ShapeMismatch`] (`len` is longer).
pub(crate) fn exact_len(op: &'static str, name: &'static str, rows: usize, cols: usize, len: usize) -> Result<usize> {
    let needed = element_count(op, rows, cols)?;
    match len.cmp(&needed) {
        std::cmp::Ordering::Equal => Ok(needed),
        std::cmp::Ordering::Less => Err(Error::BufferTooSmall { op, name, len, needed }),
        std::cmp::Ordering::Greater => Err(Error::ShapeMismatch {
            op,
            detail: format!(
                "a {rows}×{cols} matrix holds {needed} elements, `{name}` has {len} (a matrix inside a larger buffer is a view: MatrixRef)"
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_len_accepts_only_rows_times_cols() {
        assert_eq!(exact_len("t", "data", 3, 4, 12).unwrap(), 12);
        assert_eq!(exact_len("t", "data", 0, 4, 0).unwrap(), 0);
        assert!(matches!(exact_len("t", "data", 4, 4, 3), Err(Error::BufferTooSmall { op: "t", name: "data", len: 3, needed: 16 })));
        assert!(matches!(exact_len("t", "data", 2, 3, 7), Err(Error::ShapeMismatch { op: "t", .. })));
        assert!(matches!(exact_len("t", "data", usize::MAX, 2, 0), Err(Error::TooLarge { op: "t", .. })));
    }

    #[test]
    fn fill_patterns_are_the_values_bits() {
        assert!(matches!(FillPattern::of(&1.5f32), Some(FillPattern::D32(b)) if b == 1.5f32.to_bits()));
        assert!(matches!(FillPattern::of(&bf16::from_f32(-2.0)), Some(FillPattern::D16(b)) if b == bf16::from_f32(-2.0).to_bits()));
        assert!(matches!(FillPattern::of(&f16::from_f32(0.25)), Some(FillPattern::D16(b)) if b == f16::from_f32(0.25).to_bits()));
        assert!(FillPattern::of(&1.0f64).is_none());
    }
}
