//! A typed view of device memory (global or shared): a pointer and a length.
//!
//! Kernels index through views rather than raw pointers so that the indexing is written as in a slice,
//! and so that a host-side build of the same kernel can check every index. On the GPU the access is a
//! plain load or store: the kernel's own bounds logic (documented per kernel) keeps it in range.

/// Four consecutive `f32`s aligned to 16 bytes: CUDA's `float4`. A load or store of one is a single
/// 128-bit instruction (`ld.v4.f32` / `st.v4.f32`) on the GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Float4(pub [f32; 4]);

/// Two consecutive `f32`s aligned to 8 bytes: CUDA's `float2` (`st.v2.f32`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(8))]
pub struct Float2(pub [f32; 2]);

/// Four consecutive 16-bit words aligned to 8 bytes: CUDA's `ushort4` (one `ld.v4.u16`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(8))]
pub struct Half4(pub [u16; 4]);

/// Eight consecutive 16-bit words aligned to 16 bytes: CUDA's `uint4` of packed halves. A load of one
/// is a single 128-bit instruction on the GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct Half8(pub [u16; 8]);

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

    /// The address of the first element (reading or writing through it is the caller's `unsafe`).
    #[inline(always)]
    pub fn as_mut_ptr(&self) -> *mut T {
        self.ptr
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

    /// The address of element `i` (for the 4-byte asynchronous copies of [`super::async_copy`]).
    ///
    /// # Safety
    /// `i < self.len()` (checked by a host build).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn ptr(&self, i: usize) -> *mut T {
        #[cfg(not(target_arch = "nvptx64"))]
        self.check(i);
        // SAFETY: in range by the caller's contract.
        unsafe { self.ptr.add(i) }
    }

    /// Elements `start .. start + len` as a view of their own (a stage of a multi-stage shared buffer).
    ///
    /// # Safety
    /// `start + len <= self.len()` (checked by a host build).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn sub(&self, start: usize, len: usize) -> Self {
        #[cfg(not(target_arch = "nvptx64"))]
        if start + len > self.len {
            super::host::out_of_bounds(format_args!("sub-view {start}..{} of a view of {} elements", start + len, self.len));
        }
        // SAFETY: in range by the caller's contract.
        Self { ptr: unsafe { self.ptr.add(start) }, len }
    }

    /// Host builds: the range and alignment check of a vector access of `lanes` elements at `i` —
    /// `i` a multiple of `lanes` within the view, and the address itself aligned to the vector's
    /// bytes, as the GPU requires (a misaligned base faults there with `CUDA_ERROR_MISALIGNED_ADDRESS`;
    /// the host's allocations, like the CUDA allocator's, start 16-byte aligned, so a base moved off
    /// the alignment shows here too).
    #[cfg(not(target_arch = "nvptx64"))]
    #[inline(always)]
    #[track_caller]
    fn check_vector(&self, i: usize, lanes: usize, access: &str) {
        let bytes = lanes * core::mem::size_of::<T>();
        if !i.is_multiple_of(lanes) || i + lanes > self.len {
            super::host::out_of_bounds(format_args!(
                "{access} at element {i} of a view of {} elements (needs i % {lanes} == 0 and i + {lanes} <= len)",
                self.len
            ));
        }
        let address = self.ptr.wrapping_add(i) as usize;
        if !address.is_multiple_of(bytes) {
            super::host::out_of_bounds(format_args!(
                "{access} at element {i}: address {address:#x} is not {bytes}-byte aligned (the view starts off the alignment)"
            ));
        }
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

impl View<f32> {
    /// The same memory as `2·len` 16-bit words (what `ldmatrix` takes; it moves 16-bit pairs, so 32-bit
    /// TF32 data passes through it unchanged).
    #[inline(always)]
    pub fn as_u16(&self) -> View<u16> {
        View { ptr: self.ptr.cast::<u16>(), len: 2 * self.len }
    }

    /// Reads elements `i .. i + 4` as one 128-bit load.
    ///
    /// # Safety
    /// `i + 4 <= self.len()`, and the address `ptr + i` is 16-byte aligned (for buffers from the CUDA
    /// allocator or the dynamic shared memory, which start 16-byte aligned: `i % 4 == 0`). A host build
    /// checks the range, `i % 4 == 0` and the address's alignment, and reads unaligned.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get4(&self, i: usize) -> Float4 {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check4(i);
            // SAFETY: i + 4 <= len (checked); host memory needs no 16-byte alignment for an unaligned read.
            unsafe { self.ptr.add(i).cast::<Float4>().read_unaligned() }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 16-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Float4>()
        }
    }

    /// Writes elements `i .. i + 4` as one 128-bit store.
    ///
    /// # Safety
    /// As [`View::get4`].
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn set4(&self, i: usize, value: Float4) {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check4(i);
            // SAFETY: as in `get4`.
            unsafe { self.ptr.add(i).cast::<Float4>().write_unaligned(value) }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: as in `get4`.
        unsafe {
            *self.ptr.add(i).cast::<Float4>() = value
        }
    }

    /// Reads elements `i`, `i + 1` as one 64-bit load.
    ///
    /// # Safety
    /// As [`View::set2`].
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get2(&self, i: usize) -> Float2 {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check_vector(i, 2, "64-bit load");
            // SAFETY: i + 2 <= len (checked); host memory is only 4-aligned: an unaligned read.
            unsafe { self.ptr.add(i).cast::<Float2>().read_unaligned() }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 8-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Float2>()
        }
    }

    /// Writes elements `i`, `i + 1` as one 64-bit store.
    ///
    /// # Safety
    /// `i + 2 <= self.len()`, and the address `ptr + i` is 8-byte aligned (for buffers from the CUDA
    /// allocator: `i % 2 == 0`). A host build checks the range, `i % 2 == 0` and the address's alignment.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn set2(&self, i: usize, value: Float2) {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check_vector(i, 2, "64-bit store");
            // SAFETY: i + 2 <= len (checked); host memory is only 4-aligned: an unaligned write.
            unsafe { self.ptr.add(i).cast::<Float2>().write_unaligned(value) }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 8-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Float2>() = value
        }
    }

    /// The address of element `i` (for the asynchronous copies of [`super::async_copy`]).
    ///
    /// # Safety
    /// `i <= self.len()`; a host build checks `i + 4 <= len` and `i % 4 == 0` (the copies move 16 bytes).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn ptr4(&self, i: usize) -> *mut f32 {
        #[cfg(not(target_arch = "nvptx64"))]
        self.check4(i);
        // SAFETY: in range by the caller's contract.
        unsafe { self.ptr.add(i) }
    }

    /// Host builds: the range and alignment check of the 128-bit accesses.
    #[cfg(not(target_arch = "nvptx64"))]
    #[inline(always)]
    #[track_caller]
    fn check4(&self, i: usize) {
        self.check_vector(i, 4, "128-bit access");
    }
}

impl View<u16> {
    /// Reads elements `i .. i + 8` as one 128-bit load.
    ///
    /// # Safety
    /// `i + 8 <= self.len()`, and the address `ptr + i` is 16-byte aligned (for buffers from the CUDA
    /// allocator: `i % 8 == 0`). A host build checks the range, `i % 8 == 0` and the address's alignment.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get8(&self, i: usize) -> Half8 {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check_vector(i, 8, "128-bit load of 16-bit elements");
            // SAFETY: i + 8 <= len (checked); host memory is only 2-aligned: an unaligned read.
            unsafe { self.ptr.add(i).cast::<Half8>().read_unaligned() }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 16-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Half8>()
        }
    }

    /// Reads elements `i .. i + 4` as one 64-bit load.
    ///
    /// # Safety
    /// `i + 4 <= self.len()`, and the address `ptr + i` is 8-byte aligned (for buffers from the CUDA
    /// allocator: `i % 4 == 0`). A host build checks the range, `i % 4 == 0` and the address's alignment.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn get4(&self, i: usize) -> Half4 {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check_vector(i, 4, "64-bit load of 16-bit elements");
            // SAFETY: i + 4 <= len (checked); host memory is only 2-aligned: an unaligned read.
            unsafe { self.ptr.add(i).cast::<Half4>().read_unaligned() }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 8-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Half4>()
        }
    }

    /// Writes elements `i .. i + 4` as one 64-bit store.
    ///
    /// # Safety
    /// As [`View::<u16>::get4`]; no other thread accesses those elements meanwhile.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn set4(&self, i: usize, value: Half4) {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.check_vector(i, 4, "64-bit store of 16-bit elements");
            // SAFETY: i + 4 <= len (checked); host memory is only 2-aligned: an unaligned write.
            unsafe { self.ptr.add(i).cast::<Half4>().write_unaligned(value) }
        }
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: in range and 8-byte aligned by the caller's contract.
        unsafe {
            *self.ptr.add(i).cast::<Half4>() = value
        }
    }
}

#[cfg(all(test, not(target_arch = "nvptx64")))]
mod tests {
    use super::*;
    use crate::host::KernelFault;

    /// 16-byte aligned storage, as the CUDA allocator's buffers start.
    #[repr(C, align(16))]
    struct Aligned([f32; 16]);

    fn fault(access: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
        let payload = std::panic::catch_unwind(access).err()?;
        let KernelFault::OutOfBounds { message, .. } = payload.downcast_ref::<KernelFault>()?;
        Some(message.clone())
    }

    #[test]
    fn vector_accesses_need_the_address_aligned_not_only_the_index() {
        let mut memory = Aligned([0.0; 16]);
        let base = memory.0.as_mut_ptr();
        // SAFETY: 16 floats; every view below stays inside them.
        let (aligned, shifted) = unsafe { (View::new(base, 16), View::new(base.add(1), 15)) };
        // SAFETY: in range; the host build checks alignment and faults instead of misbehaving.
        unsafe {
            aligned.set4(4, Float4([1.0; 4]));
            assert_eq!(aligned.get2(4), Float2([1.0; 2]));
        }
        // Index 0 of a view starting one float past the alignment: the GPU faults there.
        // SAFETY: as above.
        let message = fault(|| unsafe { shifted.set4(0, Float4([2.0; 4])) }).expect("a misaligned 128-bit store must fault");
        assert!(message.contains("not 16-byte aligned"), "{message}");
        // SAFETY: as above.
        assert!(
            fault(|| unsafe {
                shifted.get2(0);
            })
            .is_some(),
            "a misaligned 64-bit load must fault"
        );
        // SAFETY: as above.
        assert!(
            fault(|| unsafe {
                aligned.get4(2);
            })
            .is_some(),
            "an index off the vector must fault"
        );
        // SAFETY: 32 16-bit words; the view starts 2 bytes in.
        let halves = unsafe { View::new(base.cast::<u16>().add(1), 8) };
        // SAFETY: as above.
        assert!(fault(|| unsafe { halves.set4(0, Half4([0; 4])) }).is_some(), "a misaligned 64-bit store must fault");
        assert_eq!(memory.0[4..8], [1.0; 4]);
        // Eight 16-bit words in one 128-bit load: at a 16-byte address only. The words of 1.0f32
        // (0x3f800000) are 0x0000 then 0x3f80, little-endian.
        // SAFETY: 32 16-bit words from the aligned base.
        let words = unsafe { View::new(base.cast::<u16>(), 32) };
        // SAFETY: in range and aligned (element 8 is byte 16).
        assert_eq!(unsafe { words.get8(8) }, Half8([0, 0x3f80, 0, 0x3f80, 0, 0x3f80, 0, 0x3f80]));
        // SAFETY: as above; the host build faults on the misaligned ones.
        let message = fault(|| unsafe {
            halves.get8(0);
        })
        .expect("a misaligned 128-bit load of 16-bit words must fault");
        assert!(message.contains("not 16-byte aligned"), "{message}");
        // SAFETY: as above.
        assert!(
            fault(|| unsafe {
                words.get8(4);
            })
            .is_some(),
            "an index off the 8-word vector must fault"
        );
    }
}
