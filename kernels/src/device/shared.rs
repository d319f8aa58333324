//! The block's shared memory.
//!
//! core has no static `.shared` declarations yet (rust-lang/rust#135516), so tessera uses the one
//! dynamic shared-memory region per kernel (`extern __shared__` in CUDA C): the host passes its size in
//! bytes at launch, and the kernel splits it into tiles by hand with [`SharedTiles`].
use super::mem::View;

/// The start of this block's dynamic shared memory, typed as `T`.
#[inline(always)]
pub fn dynamic<T>() -> *mut T {
    core::intrinsics::gpu::gpu_launch_sized_workgroup_mem::<T>()
}

/// Carves consecutive tiles out of the dynamic shared-memory region.
pub struct SharedTiles<T> {
    base: *mut T,
    used: usize,
}

impl<T: Copy> SharedTiles<T> {
    /// Starts at the beginning of the block's dynamic shared memory.
    #[inline(always)]
    pub fn new() -> Self {
        Self { base: dynamic::<T>(), used: 0 }
    }

    /// The next `len` elements as a tile.
    ///
    /// # Safety
    /// The launch must have passed at least `(used + len) * size_of::<T>()` bytes of dynamic shared
    /// memory (the host launchers compute this from the same constants).
    #[inline(always)]
    pub unsafe fn tile(&mut self, len: usize) -> View<T> {
        // SAFETY: by the caller's contract `base + used .. base + used + len` lies inside the region.
        let tile = unsafe { View::new(self.base.add(self.used), len) };
        self.used += len;
        tile
    }
}
