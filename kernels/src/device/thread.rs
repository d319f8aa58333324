//! Thread and block coordinates, and the block-wide barrier.
use core::arch::nvptx;

/// `threadIdx.x`
#[inline(always)]
pub fn thread_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_x() as u32 }
}
/// `threadIdx.y`
#[inline(always)]
pub fn thread_idx_y() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_thread_idx_y() as u32 }
}
/// `blockIdx.x`
#[inline(always)]
pub fn block_idx_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_idx_x() as u32 }
}
/// `blockIdx.y`
#[inline(always)]
pub fn block_idx_y() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_idx_y() as u32 }
}
/// `blockDim.x`
#[inline(always)]
pub fn block_dim_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_dim_x() as u32 }
}
/// `blockDim.y`
#[inline(always)]
pub fn block_dim_y() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_block_dim_y() as u32 }
}
/// `gridDim.x`
#[inline(always)]
pub fn grid_dim_x() -> u32 {
    // SAFETY: reading a special register has no preconditions.
    unsafe { nvptx::_grid_dim_x() as u32 }
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
/// Every thread of the block must call it the same number of times: never call it inside a branch
/// that some threads of the block skip (it lowers to `barrier.sync.aligned`).
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a barrier has no memory-safety preconditions; uniform control flow is the caller's
    // contract documented above (a violation deadlocks or is undefined, it does not corrupt memory
    // outside the block).
    unsafe { nvptx::_syncthreads() }
}
