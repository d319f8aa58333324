//! The block's shared memory.
//!
//! core has no static `.shared` declarations yet (rust-lang/rust#135516), so tessera uses the one
//! dynamic shared-memory region per kernel (`extern __shared__` in CUDA C): the host passes its size in
//! bytes at launch, and the kernel splits it into tiles by hand with [`SharedTiles`].
use super::mem::View;

/// The start of this block's dynamic shared memory, typed as `T`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn dynamic<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// The start of this block's dynamic shared memory, typed as `T` (host: the region the CPU executor
/// allocated for the block, zeroed and aligned to 16 bytes like CUDA's).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn dynamic<T>() -> *mut T {
    super::host::with(|ctx| ctx.shared.base.cast::<T>())
}

/// The size in bytes of this block's dynamic shared memory (host only: the GPU has no cheap way to
/// ask, and kernels rely on the launch contract there).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn dynamic_bytes() -> usize {
    super::host::with(|ctx| ctx.shared.bytes)
}

/// Carves consecutive tiles out of the dynamic shared-memory region.
pub struct SharedTiles<T> {
    base: *mut T,
    used: usize,
}

impl<T: Copy> SharedTiles<T> {
    /// Starts at the beginning of the block's dynamic shared memory.
    #[allow(clippy::new_without_default)] // `new` reads the block's shared-memory base: not a plain default value
    #[inline(always)]
    pub fn new() -> Self {
        Self { base: dynamic::<T>(), used: 0 }
    }

    /// The next `len` elements as a tile.
    ///
    /// # Safety
    /// The launch must have passed at least `(used + len) * size_of::<T>()` bytes of dynamic shared
    /// memory (the host launchers compute this from the same constants). A host build checks it.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
    pub unsafe fn tile(&mut self, len: usize) -> View<T> {
        #[cfg(not(target_arch = "nvptx64"))]
        {
            let (end, bytes) = ((self.used + len) * core::mem::size_of::<T>(), dynamic_bytes());
            if end > bytes {
                super::host::out_of_bounds(format_args!(
                    "shared tile of {len} elements at element {} ends at byte {end}, past the launch's \
                     {bytes} bytes of dynamic shared memory",
                    self.used
                ));
            }
        }
        // SAFETY: by the caller's contract `base + used .. base + used + len` lies inside the region.
        let tile = unsafe { View::new(self.base.add(self.used), len) };
        self.used += len;
        tile
    }
}
