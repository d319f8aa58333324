//! A CPU executor for tessera's kernels: one kernel source, run without a GPU.
//!
//! A kernel crate (tessera's `tessera-kernels`, or a user's on `tessera-device`) compiles for the
//! host as an ordinary library; there each kernel is a plain `pub unsafe fn` and the device
//! vocabulary (`thread::*`, `sync_threads`, `shared::*`) reads the per-thread context this executor
//! installs. The executor itself depends on `tessera-device` alone; the default feature `kernels`
//! adds tessera's own kernels and the interpreter of its plans ([`gemm`], [`ops`], [`grouped`]: batched and grouped products). [`launch`] runs a grid with CUDA's semantics:
//!
//! - every thread of a block is a coroutine on the launching OS thread, run until it waits and then
//!   suspended, so `sync_threads` is a real barrier (one that also tracks returned threads) and a
//!   switch between threads costs tens of nanoseconds;
//! - each block gets its own zeroed, 16-byte-aligned dynamic shared memory of the requested size;
//! - the lanes of a warp (32 consecutive linear thread indices) meet in a warp exchange for the
//!   warp-collective instructions (`mma.sync`, `ldmatrix`): each lane deposits its operands, and all
//!   compute their results once the whole warp has arrived;
//! - indices and dimensions are exact; blocks run one after another, and the threads of a block in a
//!   fixed interleaving, so a launch (and its first reported fault) is deterministic;
//! - a launch with thread-block clusters ([`Launch::with_cluster`], sm_90) runs the blocks of each
//!   cluster together, all their threads interleaved, so that they can signal each other's shared
//!   memory (`mbarrier` arrivals, TMA multicast) and meet at `cluster::sync`; clusters run one after
//!   another.
//!
//! Faults come back as typed [`EmuError`]s naming the kernel, block and thread — an index outside a
//! view, a barrier some threads of the block skip, a warp-collective some lanes of the warp skip or a
//! partial warp executes, any other panic — and never as a hang: the first
//! fault poisons the barriers of its block (its cluster, in a cluster launch) so that the other
//! threads unwind too.
//!
//! Kernels need the unwinding panic strategy on the host (the default); with `panic = "abort"` a
//! fault aborts the process instead of being reported.
//!
//! ```
//! use tessera_device::{kernel, thread};
//! use tessera_emulator::{launch, Launch, SyncPtr};
//!
//! kernel! {
//!     /// `c[i] = a[i] + b[i]` for `i < n`.
//!     ///
//!     /// # Safety
//!     /// `a`, `b` and `c` hold `n` floats.
//!     pub unsafe fn vec_add(a: *const f32, b: *const f32, c: *mut f32, n: u32) {
//!         let i = thread::index_1d();
//!         if i < n as usize {
//!             // SAFETY: i < n (the contract).
//!             unsafe { *c.add(i) = *a.add(i) + *b.add(i) }
//!         }
//!     }
//! }
//!
//! let (a, b, mut c) = (vec![1.0f32; 300], vec![2.0f32; 300], vec![0.0f32; 300]);
//! let (pa, pb, pc) = (SyncPtr::from_const(a.as_ptr()), SyncPtr::from_const(b.as_ptr()), SyncPtr::new(c.as_mut_ptr()));
//! launch("vec_add", Launch::new((2, 1, 1), (256, 1, 1), 0), || {
//!     // SAFETY: the three buffers hold 300 floats and outlive the launch.
//!     unsafe { vec_add(pa.get(), pb.get(), pc.get(), 300) }
//! })
//! .unwrap();
//! assert!(c.iter().all(|&x| x == 3.0));
//! ```
#![deny(unsafe_op_in_unsafe_fn)]

mod barrier;
mod error;
mod fiber;
#[cfg(feature = "kernels")]
pub mod gemm;
#[cfg(feature = "kernels")]
pub mod grouped;
#[cfg(feature = "kernels")]
pub mod ops;

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

pub use error::EmuError;
pub use tessera_device::host::Dim3;
use tessera_device::host::{ClusterContext, KernelFault, SharedRegion, ThreadContext};

use barrier::{Aborted, BlockSync, ClusterSync, ThreadHandle};

/// Most threads in one block (all CUDA GPUs since compute capability 2.0).
pub const MAX_THREADS_PER_BLOCK: u64 = 1024;
/// Largest `blockDim.x`, `.y` and `.z`.
pub const MAX_BLOCK_DIM: Dim3 = Dim3::new(1024, 1024, 64);
/// Largest `gridDim.x`, `.y` and `.z`.
pub const MAX_GRID_DIM: Dim3 = Dim3::new(i32::MAX as u32, 65_535, 65_535);
/// Most dynamic shared memory one block may use on sm_90 (227 KiB, after opting in).
pub const MAX_SHARED_BYTES: usize = 227 * 1024;
/// Most blocks in one thread-block cluster (CUDA's portable limit; 16 only after opting in).
pub const MAX_CLUSTER_BLOCKS: u64 = 8;

/// A launch configuration, as in `cuLaunchKernel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    /// Bytes of dynamic shared memory per block.
    pub shared_bytes: usize,
    /// Blocks per thread-block cluster (sm_90), `(1, 1, 1)` for a launch without clusters. The grid
    /// is tiled by clusters; each must divide the grid's dimensions.
    pub cluster: (u32, u32, u32),
}

impl Launch {
    /// A launch without clusters.
    pub fn new(grid: (u32, u32, u32), block: (u32, u32, u32), shared_bytes: usize) -> Self {
        Self { grid, block, shared_bytes, cluster: (1, 1, 1) }
    }

    /// The same launch in clusters of `cluster` blocks (`cudaLaunchAttributeClusterDimension`).
    pub fn with_cluster(self, cluster: (u32, u32, u32)) -> Self {
        Self { cluster, ..self }
    }

    /// Checks the configuration against CUDA's limits (as the driver would at launch).
    fn validate(&self, kernel: &'static str) -> Result<(), EmuError> {
        let (grid, block) = (Dim3::from(self.grid), Dim3::from(self.block));
        if grid.count() == 0 || block.count() == 0 {
            return Err(EmuError::InvalidLaunch {
                kernel,
                detail: format!("grid {grid} and block {block} must be ≥ 1 in every dimension"),
            });
        }
        let threads = block.count();
        if threads > MAX_THREADS_PER_BLOCK || block.x > MAX_BLOCK_DIM.x || block.y > MAX_BLOCK_DIM.y || block.z > MAX_BLOCK_DIM.z {
            return Err(EmuError::TooManyThreads { kernel, block, threads });
        }
        if grid.x > MAX_GRID_DIM.x || grid.y > MAX_GRID_DIM.y || grid.z > MAX_GRID_DIM.z {
            return Err(EmuError::InvalidLaunch { kernel, detail: format!("grid {grid} exceeds the limit {MAX_GRID_DIM}") });
        }
        if self.shared_bytes > MAX_SHARED_BYTES {
            return Err(EmuError::SharedMemoryTooLarge { kernel, requested: self.shared_bytes, limit: MAX_SHARED_BYTES });
        }
        let cluster = Dim3::from(self.cluster);
        let invalid = |detail: String| Err(EmuError::InvalidLaunch { kernel, detail });
        if cluster.count() == 0 {
            return invalid(format!("cluster {cluster} must be ≥ 1 block in every dimension"));
        }
        if grid.x % cluster.x != 0 || grid.y % cluster.y != 0 || grid.z % cluster.z != 0 {
            return invalid(format!("cluster {cluster} does not divide the grid {grid}: the grid is tiled by whole clusters"));
        }
        if cluster.count() > MAX_CLUSTER_BLOCKS {
            return invalid(format!(
                "cluster {cluster} is {} blocks; at most {MAX_CLUSTER_BLOCKS} (the portable cluster size)",
                cluster.count()
            ));
        }
        Ok(())
    }
}

impl From<tessera_device::LaunchDims> for Launch {
    /// A kernel's launch dimensions (tessera's catalogue or a user's kernel crate), as the GPU launches them.
    fn from(d: tessera_device::LaunchDims) -> Self {
        Self::new(d.grid, d.block, d.shared_bytes as usize)
    }
}

/// A raw pointer that the emulated threads may share: the CPU counterpart of a device pointer passed
/// as a kernel argument to every GPU thread.
///
/// Call [`SyncPtr::get`] inside the kernel closure (not `.0`): a closure that names only the field
/// would capture the bare pointer, which is neither `Send` nor `Sync`.
#[derive(Debug)]
pub struct SyncPtr<T>(*mut T);

impl<T> Clone for SyncPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SyncPtr<T> {}

// SAFETY: a SyncPtr is only an address; like a device pointer given to every GPU thread, what the
// threads do through it is governed by the kernel's own contract (disjoint writes, barriers between
// dependent accesses), which the caller of the `unsafe` kernel fn vouches for.
unsafe impl<T: Send + Sync> Send for SyncPtr<T> {}
// SAFETY: as for Send: sharing the address is harmless; accesses are the kernel's contract.
unsafe impl<T: Send + Sync> Sync for SyncPtr<T> {}

impl<T> SyncPtr<T> {
    pub fn new(ptr: *mut T) -> Self {
        Self(ptr)
    }

    /// A pointer to data the kernel only reads (a `*const T` argument).
    pub fn from_const(ptr: *const T) -> Self {
        Self(ptr as *mut T)
    }

    pub fn get(self) -> *mut T {
        self.0
    }
}

/// Runs `kernel` once per thread of the grid described by `cfg`, with CUDA semantics (see the crate
/// docs). `kernel` is the call of one kernel fn with its arguments; it is the same for every thread,
/// as on the GPU, and the device functions tell the threads apart.
///
/// `name` is used in errors and thread names only. Returns the first fault of the first faulting
/// cluster (block, without clusters); clusters after it do not run.
pub fn launch(name: &'static str, cfg: Launch, kernel: impl Fn() + Sync) -> Result<(), EmuError> {
    cfg.validate(name)?;
    let (grid, block, cluster) = (Dim3::from(cfg.grid), Dim3::from(cfg.block), Dim3::from(cfg.cluster));
    // One allocation per block of a cluster, reused by every cluster and zeroed before each: u128
    // gives CUDA's 16-byte alignment.
    let mut shared: Vec<Vec<u128>> = (0..cluster.count()).map(|_| vec![0u128; cfg.shared_bytes.div_ceil(16)]).collect();
    for z in (0..grid.z).step_by(cluster.z as usize) {
        for y in (0..grid.y).step_by(cluster.y as usize) {
            for x in (0..grid.x).step_by(cluster.x as usize) {
                let regions: Arc<[SharedRegion]> = shared
                    .iter_mut()
                    .map(|memory| {
                        memory.fill(0);
                        SharedRegion { base: memory.as_mut_ptr().cast::<u8>(), bytes: cfg.shared_bytes }
                    })
                    .collect();
                run_cluster(name, Dim3::new(x, y, z), cluster, grid, block, regions, &kernel)?;
            }
        }
    }
    Ok(())
}

/// Runs one cluster, its first block at `origin`, `regions` the blocks' shared memory by rank: all
/// the threads of all its blocks, interleaved on this OS thread ([`fiber`]), to completion. A block
/// launched without a cluster is a cluster of one.
fn run_cluster(
    kernel_name: &'static str,
    origin: Dim3,
    cluster_dim: Dim3,
    grid_dim: Dim3,
    block_dim: Dim3,
    regions: Arc<[SharedRegion]>,
    kernel: &(impl Fn() + Sync),
) -> Result<(), EmuError> {
    // The block of rank r (CUDA's `%cluster_ctarank`: x fastest).
    let (cx, cy) = (cluster_dim.x, cluster_dim.y);
    let blocks: Vec<Dim3> =
        (0..cluster_dim.count() as u32).map(|r| Dim3::new(origin.x + r % cx, origin.y + r / cx % cy, origin.z + r / (cx * cy))).collect();
    let cluster = Arc::new(ClusterSync::new(kernel_name, blocks.clone(), block_dim));
    let syncs: Vec<Arc<BlockSync>> = (0..blocks.len() as u32).map(|rank| Arc::new(BlockSync::new(Arc::clone(&cluster), rank))).collect();
    let block_threads = block_dim.count() as u32;
    // The threads of every block, by rank: thread `i` of the run is thread `i % block_threads` of
    // the block of rank `i / block_threads`.
    let contexts = syncs
        .iter()
        .enumerate()
        .flat_map(|(rank, sync)| {
            let cluster = ClusterContext { rank: rank as u32, dim: cluster_dim, regions: Arc::clone(&regions) };
            let (block_idx, shared) = (sync.block_idx(), regions[rank]);
            (0..block_threads).map(move |tid| {
                let handle = Arc::new(ThreadHandle { block: Arc::clone(sync), tid });
                let (barrier, warp) = (handle.clone(), handle);
                let thread_idx = sync.thread_of(tid);
                ThreadContext { thread_idx, block_idx, block_dim, grid_dim, barrier, warp, shared, cluster: cluster.clone() }
            })
        })
        .collect();
    let thread_body = |i: u32| {
        let (sync, tid) = (&syncs[(i / block_threads) as usize], i % block_threads);
        let outcome = panic::catch_unwind(AssertUnwindSafe(kernel));
        if let Err(payload) = outcome {
            if let Some(error) = classify(kernel_name, sync.block_idx(), sync.thread_of(tid), payload) {
                sync.fail(error);
            }
        }
        sync.exit(tid);
    };
    // Even clusters start with their first thread, odd ones with their last (by the first block).
    let odd = (origin.x + origin.y + origin.z) % 2 == 1;
    fiber::run(contexts, odd, &thread_body).map_err(|source| EmuError::Spawn { kernel: kernel_name, source })?;
    match cluster.take_error() {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Turns a thread's unwind payload into the error to report, or `None` for a thread that only
/// unwound because another one faulted first.
fn classify(kernel: &'static str, block: Dim3, thread: Dim3, payload: Box<dyn std::any::Any + Send>) -> Option<EmuError> {
    if payload.is::<Aborted>() {
        return None;
    }
    if let Some(KernelFault::OutOfBounds { message, location }) = payload.downcast_ref::<KernelFault>() {
        let message = format!("{message} (at {location})");
        return Some(EmuError::OutOfBounds { kernel, block, thread, message });
    }
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".to_string());
    // core's own bounds checks (slices and arrays inside a kernel) are out-of-bounds accesses too.
    if message.starts_with("index out of bounds") {
        return Some(EmuError::OutOfBounds { kernel, block, thread, message });
    }
    Some(EmuError::Panic { kernel, block, thread, message })
}
