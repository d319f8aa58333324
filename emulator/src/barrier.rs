//! The block barrier behind `sync_threads`, the warp exchange behind the warp-collective instructions
//! (`mma.sync`, `ldmatrix`), and the block's first-fault record.
//!
//! A plain barrier hangs when a kernel breaks the `__syncthreads` contract (some threads of the block
//! skip it, or call it a different number of times). This one also counts the threads that have
//! returned from the kernel: a thread arriving while another has returned, or a thread returning while
//! others wait, can never complete the barrier, so it is reported at once as a divergent barrier. As a
//! last resort a wait longer than [`WAIT_LIMIT`] is reported too. The first fault of any kind poisons
//! the barrier: every waiting or later-arriving thread unwinds with [`Aborted`] instead of hanging.
//!
//! The warp exchange is the same kind of rendezvous for the 32 lanes of one warp, under the same lock
//! (so that a lane waiting in a warp-collective while another lane of its warp waits at the block
//! barrier — a deadlock on the GPU — is seen at once). It reports, as typed errors: a collective in a
//! partial warp (a block size that is no multiple of 32), a lane that has returned while others wait,
//! lanes of one warp in different collectives, a lane at `sync_threads` while its warp waits in a
//! collective (or the reverse), and, as the last resort, a wait longer than [`WAIT_LIMIT`].
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tessera_kernels::device::host::{BlockBarrier, Dim3, LaneWords, WarpExchange, LANE_WORDS, WARP_SIZE};

use crate::fiber::park;
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
    /// Locked only between two suspensions of a thread: the threads of a block take turns on one OS
    /// thread ([`crate::fiber`]), so it is never contended; it makes the handles `Sync`, as the device
    /// vocabulary's traits ask.
    state: Mutex<State>,
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
    /// The barrier round (`generation`) each thread last arrived in: it waits at the barrier now iff
    /// this equals the current generation.
    barrier_round: Vec<Option<u64>>,
    /// One rendezvous per warp of the block.
    warps: Vec<WarpRound>,
    /// The first fault; once set, the barrier releases everyone with `Aborted`.
    error: Option<EmuError>,
}

/// The warp exchange of one warp.
struct WarpRound {
    /// Lanes this warp has (32, fewer for the last warp of a block of no multiple of 32 threads).
    lanes: u32,
    /// Completed rounds; a waiting lane is released when it changes.
    generation: u64,
    /// Lanes waiting in the current round, the operation they are in, and the first of them.
    arrived: u32,
    op: Option<&'static str>,
    first_waiter: Option<u32>,
    /// Each lane's deposit in the current round.
    slots: [LaneWords; WARP_SIZE],
    /// All 32 deposits of the last completed round, read by the lanes it released.
    result: Option<Arc<[LaneWords; WARP_SIZE]>>,
    /// The first lane (linear thread index) of this warp that has left the kernel.
    first_exited: Option<u32>,
}

impl WarpRound {
    fn new(lanes: u32) -> Self {
        Self {
            lanes,
            generation: 0,
            arrived: 0,
            op: None,
            first_waiter: None,
            slots: [[0; LANE_WORDS]; WARP_SIZE],
            result: None,
            first_exited: None,
        }
    }
}

impl BlockSync {
    pub(crate) fn new(kernel: &'static str, block_idx: Dim3, block_dim: Dim3) -> Self {
        let threads = block_dim.count() as u32;
        let warps = (0..threads.div_ceil(WARP_SIZE as u32))
            .map(|w| WarpRound::new((threads - w * WARP_SIZE as u32).min(WARP_SIZE as u32)))
            .collect();
        let state = State { calls: vec![0; threads as usize], barrier_round: vec![None; threads as usize], warps, ..State::default() };
        Self { kernel, block_idx, block_dim, threads, state: Mutex::new(state) }
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

    /// Waiting threads see the error when next resumed, and unwind.
    fn fail_locked(&self, state: &mut State, error: EmuError) {
        state.error.get_or_insert(error);
    }

    fn divergent(&self, tid: u32, detail: String) -> EmuError {
        EmuError::DivergentBarrier { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), detail }
    }

    fn divergent_warp(&self, tid: u32, detail: String) -> EmuError {
        EmuError::DivergentWarp { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), detail }
    }

    /// Lane `tid` (linear thread index) of its warp reached the warp-collective `op` with `words`:
    /// returns every lane's words once the whole warp has, unwinds when it cannot.
    fn exchange(&self, tid: u32, op: &'static str, words: LaneWords) -> Arc<[LaneWords; WARP_SIZE]> {
        let mut state = self.lock();
        if state.error.is_some() {
            abort(state);
        }
        let (w, lane) = (tid as usize / WARP_SIZE, tid as usize % WARP_SIZE);
        let warp = &state.warps[w];
        let problem = if warp.lanes < WARP_SIZE as u32 {
            let detail = format!(
                "warp {w} of this block of {} threads has only {} lanes, but `{op}` is executed by all 32 lanes of a warp \
                 together: launch blocks of a multiple of 32 threads",
                self.threads, warp.lanes
            );
            Some(EmuError::PartialWarp { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), op, detail })
        } else if let Some(gone) = warp.first_exited {
            Some(self.divergent_warp(
                tid,
                format!(
                    "thread {} reached the warp-collective `{op}` but thread {} of its warp has already returned from the \
                     kernel: every lane of the warp must execute it (is it inside a branch or after an early return that \
                     only some lanes take?)",
                    self.thread_of(tid),
                    self.thread_of(gone)
                ),
            ))
        } else if let Some(other) = warp.op.filter(|&other| other != op) {
            Some(self.divergent_warp(
                tid,
                format!(
                    "thread {} reached the warp-collective `{op}` while thread {} of its warp waits in `{other}`: the lanes \
                     of a warp must execute the same collective together",
                    self.thread_of(tid),
                    self.thread_of(warp.first_waiter.unwrap_or(tid)),
                ),
            ))
        } else {
            let mut warp_threads = (w * WARP_SIZE) as u32..(w * WARP_SIZE) as u32 + warp.lanes;
            let generation = state.generation;
            warp_threads.find(|&t| state.arrived > 0 && state.barrier_round[t as usize] == Some(generation)).map(|at_barrier| {
                self.divergent_warp(
                    tid,
                    format!(
                        "thread {} reached the warp-collective `{op}` while thread {} of its warp waits at sync_threads (its \
                         call #{}): the collective needs every lane of the warp and the barrier every thread of the block, \
                         so neither can complete",
                        self.thread_of(tid),
                        self.thread_of(at_barrier),
                        state.calls[at_barrier as usize],
                    ),
                )
            })
        };
        if let Some(error) = problem {
            self.fail_locked(&mut state, error);
            abort(state);
        }
        let warp = &mut state.warps[w];
        warp.slots[lane] = words;
        warp.op = Some(op);
        warp.arrived += 1;
        if warp.arrived == warp.lanes {
            let result = Arc::new(warp.slots);
            warp.result = Some(Arc::clone(&result));
            warp.arrived = 0;
            warp.op = None;
            warp.first_waiter = None;
            warp.generation += 1;
            return result;
        }
        warp.first_waiter.get_or_insert(tid);
        let (generation, deadline) = (warp.generation, Instant::now() + WAIT_LIMIT);
        loop {
            drop(state);
            park();
            state = self.lock();
            let warp = &state.warps[w];
            if warp.generation != generation {
                return Arc::clone(warp.result.as_ref().expect("a completed round leaves its result"));
            }
            if state.error.is_some() {
                abort(state);
            }
            if Instant::now() >= deadline {
                let detail = format!(
                    "thread {} waited {WAIT_LIMIT:?} in the warp-collective `{op}` with {} of {} lanes of its warp arrived: \
                     the others neither arrive nor return",
                    self.thread_of(tid),
                    warp.arrived,
                    warp.lanes,
                );
                let error = self.divergent_warp(tid, detail);
                self.fail_locked(&mut state, error);
                abort(state);
            }
        }
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
        let warp = &state.warps[tid as usize / WARP_SIZE];
        if warp.arrived > 0 {
            let waiter = warp.first_waiter.unwrap_or(tid);
            let detail = format!(
                "thread {} reached sync_threads (its call #{call}) while thread {} of its warp waits in the warp-collective \
                 `{}` ({} of {} lanes arrived): the collective needs every lane of the warp and the barrier every thread \
                 of the block, so neither can complete",
                self.thread_of(tid),
                self.thread_of(waiter),
                warp.op.unwrap_or("?"),
                warp.arrived,
                warp.lanes,
            );
            let error = self.divergent_warp(tid, detail);
            self.fail_locked(&mut state, error);
            abort(state);
        }
        let generation = state.generation;
        state.barrier_round[tid as usize] = Some(generation);
        state.arrived += 1;
        if state.arrived == self.threads {
            state.arrived = 0;
            state.first_waiter = None;
            state.generation += 1;
            return;
        }
        state.first_waiter.get_or_insert(tid);
        let (generation, deadline) = (state.generation, Instant::now() + WAIT_LIMIT);
        loop {
            drop(state);
            park();
            state = self.lock();
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

    /// One round of thread `tid`'s spin-wait in `what` (an `mbarrier` phase), `waited` long so far:
    /// lets the block's other threads run; unwinds when the block has faulted, when every other thread
    /// has returned (nobody is left to complete the phase), or after [`WAIT_LIMIT`].
    fn spin(&self, tid: u32, what: &'static str, waited: Duration) {
        let mut state = self.lock();
        if state.error.is_some() {
            abort(state);
        }
        if state.exited + 1 >= self.threads || waited >= WAIT_LIMIT {
            let detail = format!(
                "thread {} waited {waited:?} in `{what}` and {} of the block's {} other threads have returned: \
                 the phase it waits for never completes (arrivals or transaction bytes missing)",
                self.thread_of(tid),
                state.exited,
                self.threads - 1,
            );
            let error = self.divergent(tid, detail);
            self.fail_locked(&mut state, error);
            abort(state);
        }
        drop(state);
        park();
    }

    /// Thread `tid` left the kernel (returned or unwound): if others wait for it, that is a divergence.
    pub(crate) fn exit(&self, tid: u32) {
        let mut state = self.lock();
        state.exited += 1;
        state.first_exited.get_or_insert(tid);
        let warp = &mut state.warps[tid as usize / WARP_SIZE];
        warp.first_exited.get_or_insert(tid);
        if warp.arrived > 0 {
            let waiter = warp.first_waiter.unwrap_or(tid);
            let detail = format!(
                "thread {} waits in the warp-collective `{}` ({} of {} lanes arrived) but thread {} of its warp returned \
                 from the kernel, so the collective can never complete: every lane of the warp must execute it (is it \
                 inside a branch or after an early return that only some lanes take?)",
                self.thread_of(waiter),
                warp.op.unwrap_or("?"),
                warp.arrived,
                warp.lanes,
                self.thread_of(tid),
            );
            if state.error.is_none() {
                let error = self.divergent_warp(waiter, detail);
                self.fail_locked(&mut state, error);
            }
        }
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

/// One thread's handle on its block's barrier and its warp's exchange (what `sync_threads` and the
/// warp-collective device functions call on the host).
pub(crate) struct ThreadHandle {
    pub(crate) block: std::sync::Arc<BlockSync>,
    pub(crate) tid: u32,
}

impl BlockBarrier for ThreadHandle {
    fn sync(&self) {
        self.block.sync(self.tid);
    }

    fn spin(&self, what: &'static str, waited: Duration) {
        self.block.spin(self.tid, what, waited);
    }
}

impl WarpExchange for ThreadHandle {
    fn exchange(&self, op: &'static str, words: LaneWords) -> Arc<[LaneWords; WARP_SIZE]> {
        self.block.exchange(self.tid, op, words)
    }
}
