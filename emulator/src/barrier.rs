//! The block barrier behind `sync_threads`, and the block's first-fault record.
//!
//! A plain barrier hangs when a kernel breaks the `__syncthreads` contract (some threads of the block
//! skip it, or call it a different number of times). This one also counts the threads that have
//! returned from the kernel: a thread arriving while another has returned, or a thread returning while
//! others wait, can never complete the barrier, so it is reported at once as a divergent barrier. As a
//! last resort a wait longer than [`WAIT_LIMIT`] is reported too. The first fault of any kind poisons
//! the barrier: every waiting or later-arriving thread unwinds with [`Aborted`] instead of hanging.
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tessera_kernels::device::host::{BlockBarrier, Dim3};

use crate::EmuError;

/// The longest a thread waits at a barrier before the launch is reported as divergent.
pub const WAIT_LIMIT: Duration = Duration::from_secs(10);

/// The unwind payload of a thread released from a poisoned barrier: not a fault of its own.
pub(crate) struct Aborted;

/// One block's synchronisation state, shared by its threads.
pub(crate) struct BlockSync {
    kernel: &'static str,
    block_idx: Dim3,
    block_dim: Dim3,
    threads: u32,
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    /// Completed barrier rounds; a waiter is released when it changes.
    generation: u64,
    /// Threads waiting in the current round, and the first of them (for messages).
    arrived: u32,
    first_waiter: Option<u32>,
    /// Threads that have returned from the kernel, and the first of them.
    exited: u32,
    first_exited: Option<u32>,
    /// `sync_threads` calls per thread (linear index), for messages.
    calls: Vec<u32>,
    /// The first fault; once set, the barrier releases everyone with `Aborted`.
    error: Option<EmuError>,
}

impl BlockSync {
    pub(crate) fn new(kernel: &'static str, block_idx: Dim3, block_dim: Dim3) -> Self {
        let threads = block_dim.count() as u32;
        let state = State { calls: vec![0; threads as usize], ..State::default() };
        Self { kernel, block_idx, block_dim, threads, state: Mutex::new(state), wake: Condvar::new() }
    }

    /// `threadIdx` of the thread with linear index `tid` (x fastest, as in CUDA).
    pub(crate) fn thread_of(&self, tid: u32) -> Dim3 {
        let (bx, by) = (self.block_dim.x, self.block_dim.y);
        Dim3::new(tid % bx, tid / bx % by, tid / (bx * by))
    }

    /// The state; no code panics while holding the lock, so a poisoned mutex still holds valid state.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `error` if it is the block's first fault, and releases every waiting thread.
    pub(crate) fn fail(&self, error: EmuError) {
        let mut state = self.lock();
        self.fail_locked(&mut state, error);
    }

    fn fail_locked(&self, state: &mut State, error: EmuError) {
        state.error.get_or_insert(error);
        self.wake.notify_all();
    }

    fn divergent(&self, tid: u32, detail: String) -> EmuError {
        EmuError::DivergentBarrier { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), detail }
    }

    /// The first fault, if any (after all threads have been joined).
    pub(crate) fn take_error(&self) -> Option<EmuError> {
        self.lock().error.take()
    }

    /// Thread `tid` reached `sync_threads`: returns when the whole block has, unwinds when it cannot.
    fn sync(&self, tid: u32) {
        let mut state = self.lock();
        state.calls[tid as usize] += 1;
        let call = state.calls[tid as usize];
        if state.error.is_some() {
            abort(state);
        }
        if let Some(gone) = state.first_exited {
            let detail = format!(
                "thread {} reached sync_threads (its call #{call}) but thread {} of the block has already returned \
                 from the kernel after {} call(s): every thread must reach every barrier (is sync_threads inside a \
                 branch or an early return that only some threads take?)",
                self.thread_of(tid),
                self.thread_of(gone),
                state.calls[gone as usize],
            );
            let error = self.divergent(tid, detail);
            self.fail_locked(&mut state, error);
            abort(state);
        }
        state.arrived += 1;
        if state.arrived == self.threads {
            state.arrived = 0;
            state.first_waiter = None;
            state.generation += 1;
            self.wake.notify_all();
            return;
        }
        state.first_waiter.get_or_insert(tid);
        let (generation, deadline) = (state.generation, Instant::now() + WAIT_LIMIT);
        loop {
            let timeout = deadline.saturating_duration_since(Instant::now());
            state = self.wake.wait_timeout(state, timeout).unwrap_or_else(PoisonError::into_inner).0;
            if state.generation != generation {
                return;
            }
            if state.error.is_some() {
                abort(state);
            }
            if Instant::now() >= deadline {
                let detail = format!(
                    "thread {} waited {WAIT_LIMIT:?} at sync_threads (its call #{call}) with {} of {} threads of the block \
                     arrived: the others neither arrive nor return",
                    self.thread_of(tid),
                    state.arrived,
                    self.threads,
                );
                let error = self.divergent(tid, detail);
                self.fail_locked(&mut state, error);
                abort(state);
            }
        }
    }

    /// Thread `tid` left the kernel (returned or unwound): if others wait for it, that is a divergence.
    pub(crate) fn exit(&self, tid: u32) {
        let mut state = self.lock();
        state.exited += 1;
        state.first_exited.get_or_insert(tid);
        if state.error.is_none() && state.arrived > 0 {
            let waiter = state.first_waiter.unwrap_or(tid);
            let detail = format!(
                "thread {} waits at sync_threads (its call #{}) but thread {} of the block returned from the kernel \
                 after {} call(s), so the barrier can never complete: every thread must reach every barrier (is \
                 sync_threads inside a branch or an early return that only some threads take?)",
                self.thread_of(waiter),
                state.calls[waiter as usize],
                self.thread_of(tid),
                state.calls[tid as usize],
            );
            let error = self.divergent(waiter, detail);
            self.fail_locked(&mut state, error);
        }
    }
}

/// Releases the lock and unwinds this thread (without the panic hook: it is not a fault of its own).
fn abort(state: MutexGuard<'_, State>) -> ! {
    drop(state);
    std::panic::resume_unwind(Box::new(Aborted))
}

/// One thread's handle on its block's barrier (what `sync_threads` calls on the host).
pub(crate) struct ThreadHandle {
    pub(crate) block: std::sync::Arc<BlockSync>,
    pub(crate) tid: u32,
}

impl BlockBarrier for ThreadHandle {
    fn sync(&self) {
        self.block.sync(self.tid);
    }
}
