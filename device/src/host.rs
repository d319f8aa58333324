//! The host backend of the device vocabulary: what `thread::*`, `shared::*` and `sync_threads` read
//! when the kernels are compiled for the CPU instead of the GPU.
//!
//! A CPU executor (crate `tessera-emulator`) runs the GPU threads of a block as coroutines on one OS
//! thread. Before it resumes one it installs that thread's [`ThreadContext`] with [`swap`]; the device
//! functions then read coordinates, the barrier, the warp exchange and the dynamic shared memory from
//! it. This module only defines the contract; the scheduling, the barrier and the warp
//! exchange themselves live in the executor.
//!
//! Warp-collective instructions (`mma.sync`, `ldmatrix`: [`super::mma`]) are executed by the 32 lanes
//! of a warp together, each lane contributing operands and receiving its share of the result. On the
//! host each lane runs on its own, so they meet in a [`WarpExchange`]: every lane deposits its
//! [`LaneWords`], the exchange returns once all 32 lanes of the warp have, and each lane then computes
//! its outputs from everyone's inputs.
//!
//! Faults a host build detects (an index outside a [`View`](super::mem::View), a tile outside the
//! dynamic shared memory) unwind with a [`KernelFault`] payload, so the executor can tell them apart
//! from other panics and name the kernel and thread.
use std::cell::RefCell;
use std::fmt;
use std::panic::Location;
use std::sync::Arc;

/// A CUDA `dim3`: a 3-D index or extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dim3 {
    /// The `x` component.
    pub x: u32,
    /// The `y` component.
    pub y: u32,
    /// The `z` component.
    pub z: u32,
}

impl Dim3 {
    /// `(x, y, z)`.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }

    /// `x · y · z`, the number of points (in 64 bits, so it cannot wrap).
    pub const fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Self { x, y, z }
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

/// The block-wide barrier behind [`sync_threads`](super::thread::sync_threads), provided by the executor.
///
/// `sync` returns once every thread of the block has reached the barrier. When that can never happen
/// (a divergent barrier, or another thread of the block faulted) it must not return and must not hang:
/// it unwinds this thread (e.g. with `std::panic::resume_unwind`) and the executor reports why.
pub trait BlockBarrier: Send + Sync {
    /// `bar.sync 0`: waits for every thread of the block.
    fn sync(&self);

    /// One round of a spin-wait on shared-memory state (an `mbarrier` phase, [`super::mbarrier`]) in
    /// the operation `what`, which has lasted `waited` so far: yields to the block's other threads;
    /// unwinds this thread when the wait can never end (the block faulted, every other thread has
    /// returned) or exceeds the executor's limit.
    fn spin(&self, what: &'static str, waited: std::time::Duration) {
        let _ = (what, waited);
        std::thread::yield_now();
    }

    /// `barrier.cluster.arrive` + `wait` ([`super::cluster::sync`]): returns once every thread of
    /// every block of the calling block's cluster has reached it; unwinds as `sync` does when it
    /// cannot. A block launched without a cluster is a cluster of one: the block barrier.
    fn cluster_sync(&self) {
        self.sync();
    }
}

/// The number of lanes in a warp.
pub const WARP_SIZE: usize = 32;

/// How many 32-bit words one lane may contribute to a warp-collective operation (an `m16n8k16` mma
/// needs 4 + 2 + 4 = 10).
pub const LANE_WORDS: usize = 12;

/// What one lane contributes to a warp-collective operation: raw 32-bit words, unused ones zero.
pub type LaneWords = [u32; LANE_WORDS];

/// The warp exchange behind the warp-collective device functions ([`super::mma`]), provided by the
/// executor. Warp `w` of a block is the threads with linear index `32·w .. 32·w + 32` (linear index
/// `x + y·blockDim.x + z·blockDim.x·blockDim.y`, as in CUDA); a thread's lane is its linear index mod 32.
///
/// `exchange` deposits `words` as this lane's contribution to the operation named `op`, waits until
/// every lane of the warp has deposited its own for the same operation, and returns all 32
/// contributions in lane order. When that can never happen (the warp is partial, a lane of it has
/// returned from the kernel, its lanes are in different operations or at a block barrier, or another
/// thread of the block faulted) it must not return and must not hang: it unwinds this thread and the
/// executor reports why.
pub trait WarpExchange: Send + Sync {
    /// Deposits this lane's `words` for the warp-collective `op` and returns every lane's, in lane order.
    fn exchange(&self, op: &'static str, words: LaneWords) -> Arc<[LaneWords; WARP_SIZE]>;
}

/// One block's dynamic shared memory (`extern __shared__` in CUDA C): `bytes` bytes at `base`,
/// zeroed at block start and shared by all threads of the block.
#[derive(Debug, Clone, Copy)]
pub struct SharedRegion {
    /// The region's first byte (16-byte aligned, as CUDA's).
    pub base: *mut u8,
    /// Its size in bytes: the launch's dynamic shared memory.
    pub bytes: usize,
}

/// Everything a device function may ask about the calling GPU thread.
pub struct ThreadContext {
    /// `threadIdx`.
    pub thread_idx: Dim3,
    /// `blockIdx`.
    pub block_idx: Dim3,
    /// `blockDim`.
    pub block_dim: Dim3,
    /// `gridDim`.
    pub grid_dim: Dim3,
    /// This thread's handle on its block's barrier.
    pub barrier: Arc<dyn BlockBarrier>,
    /// This thread's handle on its warp's exchange (warp-collective instructions).
    pub warp: Arc<dyn WarpExchange>,
    /// The block's dynamic shared memory.
    pub shared: SharedRegion,
    /// The thread's cluster (`%cluster_ctarank`, `%cluster_nctaid`) and the shared memory of each
    /// of its blocks by rank, which `mapa` addresses reach ([`super::cluster`]).
    pub cluster: ClusterContext,
}

/// A block's place in its thread-block cluster (sm_90): its rank, the cluster's extent in blocks, and
/// every block's shared memory by rank (this block's is `regions[rank]`).
#[derive(Clone)]
pub struct ClusterContext {
    /// `%cluster_ctarank`: this block's rank in its cluster.
    pub rank: u32,
    /// `%cluster_nctaid`: the cluster's extent in blocks.
    pub dim: Dim3,
    /// Every block's shared memory, by rank.
    pub regions: Arc<[SharedRegion]>,
}

impl ClusterContext {
    /// A block launched without a cluster: a cluster of one, its own shared memory.
    pub fn single(shared: SharedRegion) -> Self {
        Self { rank: 0, dim: Dim3::new(1, 1, 1), regions: Arc::from([shared]) }
    }
}

/// Bit position of a shared::cluster address's block: the host model writes the address of byte `o`
/// of the block of rank `r` as `(r + 1) << CLUSTER_RANK_SHIFT | o` (what `mapa` returns), and an
/// address below `1 << CLUSTER_RANK_SHIFT` as the calling block's own byte (its shared::cta window,
/// as on the GPU).
pub const CLUSTER_RANK_SHIFT: u32 = 24;

/// The shared memory a shared::cluster address names on the host, and the byte offset in it;
/// faults (out of bounds) for a rank outside the cluster.
#[track_caller]
pub(crate) fn cluster_region(addr: u32) -> (SharedRegion, usize) {
    let (rank, offset) = (addr >> CLUSTER_RANK_SHIFT, (addr & ((1 << CLUSTER_RANK_SHIFT) - 1)) as usize);
    let found = with(|ctx| if rank == 0 { Some(ctx.shared) } else { ctx.cluster.regions.get(rank as usize - 1).copied() });
    match found {
        Some(region) => (region, offset),
        None => out_of_bounds(format_args!("shared::cluster address {addr:#x}: block rank {} outside the cluster", rank - 1)),
    }
}

thread_local! {
    static CURRENT: RefCell<Option<ThreadContext>> = const { RefCell::new(None) };
}

/// Installs `ctx` as this OS thread's GPU-thread context and returns the one it replaces (`None`
/// removes it). An executor that runs several GPU threads on one OS thread swaps each one's context in
/// before resuming it and takes it back when the thread suspends.
///
/// Panics if called while a device function reads the context (a suspension point inside one).
pub fn swap(ctx: Option<ThreadContext>) -> Option<ThreadContext> {
    CURRENT.with(|cur| std::mem::replace(&mut *cur.borrow_mut(), ctx))
}

/// Runs `f` on the current context. Device functions call this; outside an executor it panics.
#[inline]
#[track_caller]
pub(crate) fn with<R>(f: impl FnOnce(&ThreadContext) -> R) -> R {
    CURRENT.with(|cur| match cur.borrow().as_ref() {
        Some(ctx) => f(ctx),
        None => panic!(
            "tessera: a device function was called outside a kernel launch (on the host, kernels run \
             only inside the CPU executor, tessera-emulator)"
        ),
    })
}

impl ThreadContext {
    /// The thread's linear index in its block (`x` fastest, as in CUDA).
    pub fn linear_tid(&self) -> u32 {
        let (t, d) = (self.thread_idx, self.block_dim);
        t.x + t.y * d.x + t.z * d.x * d.y
    }

    /// The thread's lane in its warp (`linear_tid() % 32`).
    pub fn lane(&self) -> usize {
        self.linear_tid() as usize % WARP_SIZE
    }
}

/// Runs a warp-collective operation on the host: deposits `words` for `op` in the calling thread's
/// warp exchange, waits for the whole warp, and returns this thread's lane with all 32 lanes' words.
#[inline]
#[track_caller]
pub(crate) fn warp_exchange(op: &'static str, words: LaneWords) -> (usize, Arc<[LaneWords; WARP_SIZE]>) {
    // Clone the handle first: the exchange suspends this thread, and must not hold the thread-local
    // borrow meanwhile (the executor swaps the next thread's context in).
    let (lane, warp) = with(|ctx| (ctx.lane(), Arc::clone(&ctx.warp)));
    (lane, warp.exchange(op, words))
}

/// One round of a spin-wait in the operation `what`, begun at `since` (see [`BlockBarrier::spin`]).
#[inline]
pub(crate) fn spin_wait(what: &'static str, since: std::time::Instant) {
    // Clone the handle first: the spin may unwind, and must not hold the thread-local borrow.
    let barrier = with(|ctx| Arc::clone(&ctx.barrier));
    barrier.spin(what, since.elapsed());
}

/// A fault a host build of a kernel detected, carried as the unwind payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelFault {
    /// An access outside a view or outside the dynamic shared memory.
    OutOfBounds {
        /// What was accessed, and where it lay.
        message: String,
        /// The access in the kernel's source.
        location: &'static Location<'static>,
    },
}

impl fmt::Display for KernelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelFault::OutOfBounds { message, location } => write!(f, "{message} (at {location})"),
        }
    }
}

/// Unwinds the current thread with [`KernelFault::OutOfBounds`].
///
/// `resume_unwind` skips the panic hook: the executor reports the fault once, with the kernel's name
/// and the thread, instead of every thread printing a panic message.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn out_of_bounds(message: fmt::Arguments<'_>) -> ! {
    let fault = KernelFault::OutOfBounds { message: message.to_string(), location: Location::caller() };
    std::panic::resume_unwind(Box::new(fault))
}
