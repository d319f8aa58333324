//! Device memory and page-locked host memory.
use cudarc::driver::{CudaSlice, DeviceRepr, PinnedHostSlice, ValidAsZeroBits};

use crate::context::Gpu;
use crate::error::{Error, Result};

/// An owned array of `T` in GPU memory (a thin layer over cudarc's `CudaSlice`).
pub struct DeviceBuffer<T> {
    pub(crate) slice: CudaSlice<T>,
}

impl<T: DeviceRepr + ValidAsZeroBits + Default + Clone> DeviceBuffer<T> {
    /// `len` zeroed elements. `len == 0` gives an empty buffer.
    pub fn zeros(gpu: &Gpu, len: usize) -> Result<Self> {
        gpu.check_usable()?;
        let bytes = byte_len::<T>("DeviceBuffer::zeros", len)?;
        let slice = if len == 0 { gpu.stream().null() } else { gpu.stream().alloc_zeros(len) }
            .map_err(Error::driver("allocating device memory", bytes))?;
        Ok(Self { slice })
    }

    /// A copy of `data` in device memory.
    pub fn from_host(gpu: &Gpu, data: &[T]) -> Result<Self> {
        gpu.check_usable()?;
        let bytes = byte_len::<T>("DeviceBuffer::from_host", data.len())?;
        let slice = if data.is_empty() { gpu.stream().null() } else { gpu.stream().clone_htod(data) }
            .map_err(Error::driver("copying to the device", bytes))?;
        Ok(Self { slice })
    }

    /// Copies the buffer back into a new `Vec` (waits for the stream).
    pub fn to_host(&self, gpu: &Gpu) -> Result<Vec<T>> {
        gpu.check_usable()?;
        self.check_context(gpu, "DeviceBuffer::to_host")?;
        if self.slice.is_empty() {
            return Ok(Vec::new());
        }
        gpu.stream().clone_dtoh(&self.slice).map_err(|e| gpu.fault(e, "copying to the host"))
    }

    /// Copies elements `range` back into a new `Vec` (waits for the stream): a few elements of a
    /// large result without downloading all of it.
    ///
    /// Errors: [`Error::InvalidArgument`] when the range is reversed or runs past the end.
    pub fn to_host_range(&self, gpu: &Gpu, range: std::ops::Range<usize>) -> Result<Vec<T>> {
        gpu.check_usable()?;
        self.check_context(gpu, "DeviceBuffer::to_host_range")?;
        if range.start > range.end || range.end > self.slice.len() {
            return Err(Error::InvalidArgument {
                op: "DeviceBuffer::to_host_range",
                detail: format!("range {range:?} of a buffer of {} elements", self.slice.len()),
            });
        }
        if range.is_empty() {
            return Ok(Vec::new());
        }
        gpu.stream().clone_dtoh(&self.slice.slice(range)).map_err(|e| gpu.fault(e, "copying to the host"))
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.slice.len()
    }

    /// Whether the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }

    /// The underlying cudarc slice, for use with other cudarc code.
    pub fn as_cuda_slice(&self) -> &CudaSlice<T> {
        &self.slice
    }

    /// Mutable access to the underlying cudarc slice.
    pub fn as_cuda_slice_mut(&mut self) -> &mut CudaSlice<T> {
        &mut self.slice
    }

    /// Errors with [`Error::WrongContext`] if this buffer was allocated in another context than `gpu`'s.
    pub(crate) fn check_context(&self, gpu: &Gpu, op: &'static str) -> Result<()> {
        if self.slice.context().cu_ctx() == gpu.context().cu_ctx() {
            Ok(())
        } else {
            Err(Error::WrongContext { op })
        }
    }
}

/// Page-locked ("pinned") host memory: the DMA engines copy from and to it directly, which makes
/// copies faster and lets them run asynchronously, overlapping kernels.
///
/// Allocated *without* the write-combined flag (cudarc's `alloc_pinned` default), so the CPU can also
/// read it back at full speed: it serves both directions.
pub struct PinnedBuffer<T> {
    pub(crate) slice: PinnedHostSlice<T>,
}

impl<T: DeviceRepr + ValidAsZeroBits + Default + Clone> PinnedBuffer<T> {
    /// `len` zeroed elements of page-locked memory.
    pub fn zeros(gpu: &Gpu, len: usize) -> Result<Self> {
        gpu.check_usable()?;
        if len == 0 {
            return Err(Error::InvalidArgument { op: "PinnedBuffer::zeros", detail: "a pinned buffer needs at least one element".into() });
        }
        let bytes = byte_len::<T>("PinnedBuffer::zeros", len)?;
        // SAFETY: flags 0 = plain page-locked memory; the memory is zeroed right below before any read.
        let mut slice =
            unsafe { gpu.context().alloc_pinned_with_flags::<T>(len, 0) }.map_err(Error::driver("allocating page-locked memory", bytes))?;
        let data = slice.as_mut_slice().map_err(Error::driver("mapping page-locked memory", bytes))?;
        data.fill(T::default());
        Ok(Self { slice })
    }

    /// The contents (waits for any copy still writing into it).
    pub fn as_slice(&self) -> Result<&[T]> {
        self.slice.as_slice().map_err(Error::driver("reading page-locked memory", 0))
    }

    /// The contents, writable (waits for any copy still using it).
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        self.slice.as_mut_slice().map_err(Error::driver("writing page-locked memory", 0))
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.slice.len()
    }

    /// Whether the buffer holds no elements (never: see [`PinnedBuffer::zeros`]).
    pub fn is_empty(&self) -> bool {
        self.slice.len() == 0
    }
}

/// `len · size_of::<T>()`, or [`Error::TooLarge`] when it overflows `isize`.
pub(crate) fn byte_len<T>(op: &'static str, len: usize) -> Result<usize> {
    len.checked_mul(std::mem::size_of::<T>())
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or_else(|| Error::TooLarge { op, detail: format!("{len} elements of {} bytes overflow", std::mem::size_of::<T>()) })
}
