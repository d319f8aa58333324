//! Thread and block coordinates, and the block-wide barrier.
//!
//! On the GPU each coordinate is a PTX special register; in a host build it comes from the context the
//! CPU executor installed for the calling thread ([`super::host`]). Kernels see the same functions.
#[cfg(target_arch = "nvptx64")]
use core::arch::nvptx;

/// Declares coordinate functions, one line each: the `core::arch::nvptx` intrinsic that reads the
/// special register on the GPU, and the [`super::host::ThreadContext`] field and axis read on the host.
macro_rules! coordinates {
    ($( $(#[$doc:meta])* $name:ident => $intrinsic:ident, $field:ident . $axis:ident; )*) => {$(
        $(#[$doc])*
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        pub fn $name() -> u32 {
            // SAFETY: reading a special register has no preconditions.
            unsafe { nvptx::$intrinsic() as u32 }
        }
        $(#[$doc])*
        #[cfg(not(target_arch = "nvptx64"))]
        #[inline(always)]
        pub fn $name() -> u32 {
            super::host::with(|ctx| ctx.$field.$axis)
        }
    )*};
}

coordinates! {
    /// `threadIdx.x`
    thread_idx_x => _thread_idx_x, thread_idx.x;
    /// `threadIdx.y`
    thread_idx_y => _thread_idx_y, thread_idx.y;
    /// `threadIdx.z`
    thread_idx_z => _thread_idx_z, thread_idx.z;
    /// `blockIdx.x`
    block_idx_x => _block_idx_x, block_idx.x;
    /// `blockIdx.y`
    block_idx_y => _block_idx_y, block_idx.y;
    /// `blockIdx.z`
    block_idx_z => _block_idx_z, block_idx.z;
    /// `blockDim.x`
    block_dim_x => _block_dim_x, block_dim.x;
    /// `blockDim.y`
    block_dim_y => _block_dim_y, block_dim.y;
    /// `blockDim.z`
    block_dim_z => _block_dim_z, block_dim.z;
    /// `gridDim.x`
    grid_dim_x => _grid_dim_x, grid_dim.x;
    /// `gridDim.y`
    grid_dim_y => _grid_dim_y, grid_dim.y;
    /// `gridDim.z`
    grid_dim_z => _grid_dim_z, grid_dim.z;
}

/// The global 1-D index `blockIdx.x * blockDim.x + threadIdx.x`, in 64 bits so it cannot wrap.
#[inline(always)]
pub fn index_1d() -> usize {
    block_idx_x() as usize * block_dim_x() as usize + thread_idx_x() as usize
}

/// The total number of threads in a 1-D grid (`gridDim.x * blockDim.x`): the stride of a grid-stride loop.
#[inline(always)]
pub fn grid_size_1d() -> usize {
    grid_dim_x() as usize * block_dim_x() as usize
}

/// `__syncthreads()`: waits until every thread of the block has reached this point, and makes the
/// shared-memory writes before it visible to all of them after it.
///
/// On the host the CPU executor's barrier detects a violation of the contract below and reports it
/// instead of hanging.
///
/// # Safety
/// Every thread of the block must call it the same number of times: never inside a branch that some
/// threads of the block skip (it lowers to `barrier.sync.aligned`). A divergent barrier is undefined
/// on the GPU: it may hang, or let threads past it while others still write the shared tiles they
/// then read — a data race.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn sync_threads() {
    // SAFETY: uniform control flow is this function's own contract, forwarded to the caller.
    unsafe { nvptx::_syncthreads() }
}

/// `__syncthreads()` on the host: the executor's block barrier.
///
/// # Safety
/// As the GPU version: every thread of the block reaches it equally often (the executor reports a
/// violation as `EmuError::DivergentBarrier`).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn sync_threads() {
    super::host::with(|ctx| ctx.barrier.sync())
}
