//! Thread and block coordinates, the lane in the warp, the block-wide barrier and the warp-wide one.
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
    // Clone the handle first: the barrier suspends this thread, and must not hold the context borrowed.
    let barrier = super::host::with(|ctx| std::sync::Arc::clone(&ctx.barrier));
    barrier.sync();
}

/// `__syncwarp()`: waits until all 32 lanes of the calling warp have reached it, and orders their
/// memory accesses before it against those after it (lanes of one warp may be scheduled apart since
/// Volta; a warp that passes data through shared memory needs it between the writes and the reads).
///
/// # Safety
/// All 32 lanes of the warp must reach it (full mask), each the same number of times: never inside a
/// branch that some lanes of the warp skip. A divergent `bar.warp.sync` is undefined on the GPU.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn sync_warp() {
    // SAFETY: no operands; converged lanes are this function's contract, forwarded to the caller.
    // Not `nomem`: it orders the lanes' memory accesses. (core::arch::nvptx has no intrinsic for it.)
    unsafe { core::arch::asm!("bar.warp.sync -1;", options(nostack, preserves_flags)) }
}

/// `__syncwarp()` on the host: a rendezvous of the warp's 32 lanes in the executor's warp exchange
/// (which reports a lane that never arrives instead of hanging).
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn sync_warp() {
    let _ = super::host::warp_exchange("sync_warp", [0; super::host::LANE_WORDS]);
}

/// The lane id of the calling thread in its warp (`%laneid`; `linear thread index % 32`).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn lane_id() -> u32 {
    let lane: u32;
    // SAFETY: reads a special register; no memory, no preconditions.
    unsafe {
        core::arch::asm!("mov.u32 {l}, %laneid;", l = out(reg32) lane, options(pure, nomem, nostack, preserves_flags));
    }
    lane
}

/// The lane id of the calling thread in its warp (host: the linear thread index mod 32, as on the GPU).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn lane_id() -> u32 {
    super::host::with(|ctx| ctx.lane() as u32)
}

/// Ends this thread's kernel with an error (`trap`): the launch fails with
/// `CUDA_ERROR_LAUNCH_FAILED`. A kernel crate's `#[panic_handler]` calls it on the GPU.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: `trap` has no preconditions; it aborts this thread's kernel execution.
    unsafe { core::arch::nvptx::trap() }
}

/// On the host: a panic, which the CPU executor reports as the thread's fault.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn trap() -> ! {
    panic!("trap: the kernel ended itself")
}
