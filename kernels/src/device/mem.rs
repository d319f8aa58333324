//! A typed view of device memory (global or shared): a pointer and a length.
//!
//! Kernels index through views rather than raw pointers so that the indexing is written as in a slice,
//! and so that a host-side build of the same kernel can check every index. On the GPU the access is a
//! plain load or store: the kernel's own bounds logic (documented per kernel) keeps it in range.

/// `len` elements of `T` starting at `ptr`, readable and writable by this thread.
#[derive(Clone, Copy)]
pub struct View<T> {
    ptr: *mut T,
    len: usize,
}

impl<T: Copy> View<T> {
    /// # Safety
    /// `ptr .. ptr + len` must be valid device memory for the duration of the kernel.
    #[inline(always)]
    pub unsafe fn new(ptr: *mut T, len: usize) -> Self {
        Self { ptr, len }
    }

    /// A read-only argument (`*const T`) seen as a view; the kernel never writes through it.
    ///
    /// # Safety
    /// As [`View::new`].
    #[inline(always)]
    pub unsafe fn from_const(ptr: *const T, len: usize) -> Self {
        Self { ptr: ptr as *mut T, len }
    }

    /// The number of elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the view is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads element `i`.
    ///
    /// # Safety
    /// `i < self.len()`. On the GPU this is not checked (it is the kernel's documented indexing
    /// invariant); a host build of the kernel checks it and reports the offending thread.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get(&self, i: usize) -> T {
        #[cfg(not(target_arch = "nvptx64"))]
        self.check(i);
        // SAFETY: `i < len` by the caller's contract, and `ptr .. ptr + len` is valid by `new`'s.
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// As [`View::get`].
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn set(&self, i: usize, value: T) {
        #[cfg(not(target_arch = "nvptx64"))]
        self.check(i);
        // SAFETY: as in `get`.
        unsafe { *self.ptr.add(i) = value }
    }

    /// Host builds: unwinds with [`KernelFault::OutOfBounds`](super::host::KernelFault) naming the
    /// index, the length and the kernel's source line, which the CPU executor reports.
    #[cfg(not(target_arch = "nvptx64"))]
    #[inline(always)]
    #[track_caller]
    fn check(&self, i: usize) {
        if i >= self.len {
            super::host::out_of_bounds(format_args!("index {i} out of bounds for a view of {} elements", self.len));
        }
    }
}
