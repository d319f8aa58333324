//! The host backend of the device vocabulary: what `thread::*`, `shared::*` and `sync_threads` read
//! when the kernels are compiled for the CPU instead of the GPU.
//!
//! A CPU executor (crate `tessera-emulator`) runs every GPU thread of a block as an OS thread. Before
//! it calls the kernel on such a thread it installs that thread's [`ThreadContext`] with [`enter`];
//! the device functions then read coordinates, the barrier and the dynamic shared memory from it. This
//! module only defines the contract; the scheduling and the barrier itself live in the executor.
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
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
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
    fn sync(&self);
}

/// One block's dynamic shared memory (`extern __shared__` in CUDA C): `bytes` bytes at `base`,
/// zeroed at block start and shared by all threads of the block.
#[derive(Debug, Clone, Copy)]
pub struct SharedRegion {
    pub base: *mut u8,
    pub bytes: usize,
}

/// Everything a device function may ask about the calling GPU thread.
pub struct ThreadContext {
    pub thread_idx: Dim3,
    pub block_idx: Dim3,
    pub block_dim: Dim3,
    pub grid_dim: Dim3,
    /// This thread's handle on its block's barrier.
    pub barrier: Arc<dyn BlockBarrier>,
    pub shared: SharedRegion,
}

thread_local! {
    static CURRENT: RefCell<Option<ThreadContext>> = const { RefCell::new(None) };
}

/// Installs `ctx` as this OS thread's GPU-thread context until the returned guard is dropped.
///
/// Panics if a context is already installed (one OS thread is one GPU thread at a time).
pub fn enter(ctx: ThreadContext) -> Entered {
    CURRENT.with(|cur| {
        let mut cur = cur.borrow_mut();
        assert!(cur.is_none(), "tessera: a GPU-thread context is already installed on this OS thread");
        *cur = Some(ctx);
    });
    Entered { _not_send: std::marker::PhantomData }
}

/// Removes the context installed by [`enter`] when dropped (also when the kernel unwinds).
pub struct Entered {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        // `try_with`: during thread teardown the thread-local may already be gone.
        let _ = CURRENT.try_with(|cur| cur.borrow_mut().take());
    }
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

/// A fault a host build of a kernel detected, carried as the unwind payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelFault {
    /// An access outside a view or outside the dynamic shared memory.
    OutOfBounds { message: String, location: &'static Location<'static> },
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
