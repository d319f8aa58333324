//! The block barrier behind `sync_threads`, the warp exchange behind the warp-collective instructions
//! (`mma.sync`, `ldmatrix`), the cluster barrier behind `cluster::sync`, and the cluster's first-fault
//! record.
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
//!
//! The blocks of a thread-block cluster share a [`ClusterSync`]: the cluster barrier behind
//! `cluster::sync` (with the same checks: a thread of the cluster that has returned while others wait,
//! a thread at `cluster::sync` while a thread of its block waits at `sync_threads` or a lane of its
//! warp in a collective, or the reverse), the count of the cluster's returned threads (an `mbarrier`
//! spin-wait gives up once nobody in the cluster is left to complete its phase: a peer block may), and
//! the first fault, which poisons every barrier, exchange and spin of every block of the cluster. A
//! block launched without a cluster is a cluster of one.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tessera_device::host::{BlockBarrier, Dim3, LaneWords, WarpExchange, LANE_WORDS, WARP_SIZE};

use crate::fiber::park;
use crate::EmuError;

/// The longest a thread waits at a barrier before the launch is reported as divergent.
pub const WAIT_LIMIT: Duration = Duration::from_secs(10);

/// The unwind payload of a thread released from a poisoned barrier: not a fault of its own.
pub(crate) struct Aborted;

/// One cluster's shared synchronisation state (a block launched without a cluster is a cluster of
/// one): the cluster barrier, the count of returned threads, and the cluster's first fault.
///
/// Threads are numbered across the cluster by rank, then linear thread index:
/// `rank · threads_per_block + tid`.
pub(crate) struct ClusterSync {
    kernel: &'static str,
    /// `blockIdx` of each block of the cluster, by rank.
    blocks: Vec<Dim3>,
    block_dim: Dim3,
    /// Threads per block, and in the whole cluster.
    block_threads: u32,
    threads: u32,
    /// Set with the first fault of any block of the cluster: every barrier, exchange and spin of the
    /// cluster's threads unwinds from then on. (All threads of a cluster run on one OS thread, so
    /// `Relaxed` suffices.)
    poisoned: AtomicBool,
    /// The first fault. A leaf lock: nothing else is locked while it is held.
    error: Mutex<Option<EmuError>>,
    /// Locked, like a block's state, only between two suspensions of a thread; taken after the
    /// block's state when both are needed.
    state: Mutex<ClusterState>,
}

struct ClusterState {
    /// Completed cluster-barrier rounds; a waiter is released when it changes.
    generation: u64,
    /// Threads waiting in the current round, and the first of them (cluster index, for messages).
    arrived: u32,
    first_waiter: Option<u32>,
    /// Threads of each block (by rank) waiting in the current round.
    block_waiters: Vec<u32>,
    /// Threads of the cluster that have returned from the kernel, and the first of them.
    exited: u32,
    first_exited: Option<u32>,
    /// `cluster::sync` calls per thread (cluster index), for messages.
    calls: Vec<u32>,
    /// The round (`generation`) each thread last arrived in: it waits at the cluster barrier now iff
    /// this equals the current generation.
    round: Vec<Option<u64>>,
}

impl ClusterSync {
    /// The synchronisation state of a cluster whose blocks, by rank, are `blocks`.
    pub(crate) fn new(kernel: &'static str, blocks: Vec<Dim3>, block_dim: Dim3) -> Self {
        let block_threads = block_dim.count() as u32;
        let threads = block_threads * blocks.len() as u32;
        let state = ClusterState {
            generation: 0,
            arrived: 0,
            first_waiter: None,
            block_waiters: vec![0; blocks.len()],
            exited: 0,
            first_exited: None,
            calls: vec![0; threads as usize],
            round: vec![None; threads as usize],
        };
        Self {
            kernel,
            blocks,
            block_dim,
            block_threads,
            threads,
            poisoned: AtomicBool::new(false),
            error: Mutex::new(None),
            state: Mutex::new(state),
        }
    }

    /// The state; no code panics while holding the lock, so a poisoned mutex still holds valid state.
    fn lock(&self) -> MutexGuard<'_, ClusterState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a block of the cluster has faulted.
    fn poisoned(&self) -> bool {
        self.poisoned.load(Ordering::Relaxed)
    }

    /// Records `error` if it is the cluster's first fault, and poisons the cluster: waiting threads
    /// see it when next resumed, and unwind.
    pub(crate) fn fail(&self, error: EmuError) {
        self.error.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(error);
        self.poisoned.store(true, Ordering::Relaxed);
    }

    /// The first fault, if any (after all threads have been joined).
    pub(crate) fn take_error(&self) -> Option<EmuError> {
        self.error.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// The cluster index of thread `tid` of the block of rank `rank`.
    fn index(&self, rank: u32, tid: u32) -> u32 {
        rank * self.block_threads + tid
    }

    /// `blockIdx` and `threadIdx` of the thread with cluster index `at`.
    fn who(&self, at: u32) -> (Dim3, Dim3) {
        let (rank, tid) = (at / self.block_threads, at % self.block_threads);
        (self.blocks[rank as usize], thread_of(self.block_dim, tid))
    }

    /// "thread T of block B" (the block named only in a cluster of several), for messages.
    fn name(&self, at: u32) -> String {
        let (block, thread) = self.who(at);
        if self.blocks.len() > 1 {
            format!("{thread} of block {block}")
        } else {
            format!("{thread}")
        }
    }

    fn divergent(&self, at: u32, detail: String) -> EmuError {
        let (block, thread) = self.who(at);
        EmuError::DivergentBarrier { kernel: self.kernel, block, thread, detail }
    }
}

/// `threadIdx` of the thread with linear index `tid` in a block of `block_dim` (x fastest, as in CUDA).
fn thread_of(block_dim: Dim3, tid: u32) -> Dim3 {
    let (bx, by) = (block_dim.x, block_dim.y);
    Dim3::new(tid % bx, tid / bx % by, tid / (bx * by))
}

/// One block's synchronisation state, shared by its threads.
pub(crate) struct BlockSync {
    kernel: &'static str,
    block_idx: Dim3,
    block_dim: Dim3,
    threads: u32,
    /// The block's cluster (its own alone without one), and its rank there.
    cluster: Arc<ClusterSync>,
    rank: u32,
    /// Locked only between two suspensions of a thread: the threads of a cluster take turns on one OS
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
    /// The block of rank `rank` of `cluster`.
    pub(crate) fn new(cluster: Arc<ClusterSync>, rank: u32) -> Self {
        let (block_idx, block_dim, threads) = (cluster.blocks[rank as usize], cluster.block_dim, cluster.block_threads);
        let warps = (0..threads.div_ceil(WARP_SIZE as u32))
            .map(|w| WarpRound::new((threads - w * WARP_SIZE as u32).min(WARP_SIZE as u32)))
            .collect();
        let state = State { calls: vec![0; threads as usize], barrier_round: vec![None; threads as usize], warps, ..State::default() };
        Self { kernel: cluster.kernel, block_idx, block_dim, threads, cluster, rank, state: Mutex::new(state) }
    }

    /// `blockIdx` of this block.
    pub(crate) fn block_idx(&self) -> Dim3 {
        self.block_idx
    }

    /// `threadIdx` of the thread with linear index `tid` (x fastest, as in CUDA).
    pub(crate) fn thread_of(&self, tid: u32) -> Dim3 {
        thread_of(self.block_dim, tid)
    }

    /// The state; no code panics while holding the lock, so a poisoned mutex still holds valid state.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `error` if it is the cluster's first fault, and releases every waiting thread of the
    /// cluster.
    pub(crate) fn fail(&self, error: EmuError) {
        self.cluster.fail(error);
    }

    fn divergent(&self, tid: u32, detail: String) -> EmuError {
        EmuError::DivergentBarrier { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), detail }
    }

    fn divergent_warp(&self, tid: u32, detail: String) -> EmuError {
        EmuError::DivergentWarp { kernel: self.kernel, block: self.block_idx, thread: self.thread_of(tid), detail }
    }

    /// A thread of this block that waits at the cluster barrier now, if any.
    fn cluster_waiter(&self, cluster: &ClusterState, mut among: impl Iterator<Item = u32>) -> Option<u32> {
        if cluster.block_waiters[self.rank as usize] == 0 {
            return None;
        }
        among.find(|&t| cluster.round[self.cluster.index(self.rank, t) as usize] == Some(cluster.generation))
    }

    /// Lane `tid` (linear thread index) of its warp reached the warp-collective `op` with `words`:
    /// returns every lane's words once the whole warp has, unwinds when it cannot.
    fn exchange(&self, tid: u32, op: &'static str, words: LaneWords) -> Arc<[LaneWords; WARP_SIZE]> {
        let mut state = self.lock();
        if self.cluster.poisoned() {
            abort(state);
        }
        let (w, lane) = (tid as usize / WARP_SIZE, tid as usize % WARP_SIZE);
        let warp = &state.warps[w];
        let warp_threads = (w * WARP_SIZE) as u32..(w * WARP_SIZE) as u32 + warp.lanes;
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
            let generation = state.generation;
            let at_barrier = warp_threads.clone().find(|&t| state.arrived > 0 && state.barrier_round[t as usize] == Some(generation));
            let at_barrier = at_barrier.map(|t| (t, "sync_threads", state.calls[t as usize]));
            let at_barrier = at_barrier.or_else(|| {
                let cluster = self.cluster.lock();
                self.cluster_waiter(&cluster, warp_threads)
                    .map(|t| (t, "cluster::sync", cluster.calls[self.cluster.index(self.rank, t) as usize]))
            });
            at_barrier.map(|(at_barrier, which, call)| {
                let whose = if which == "sync_threads" { "block" } else { "cluster" };
                self.divergent_warp(
                    tid,
                    format!(
                        "thread {} reached the warp-collective `{op}` while thread {} of its warp waits at {which} (its \
                         call #{call}): the collective needs every lane of the warp and the barrier every thread of the \
                         {whose}, so neither can complete",
                        self.thread_of(tid),
                        self.thread_of(at_barrier),
                    ),
                )
            })
        };
        if let Some(error) = problem {
            self.fail(error);
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
            if self.cluster.poisoned() {
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
                self.fail(error);
                abort(state);
            }
        }
    }

    /// Thread `tid` reached `sync_threads`: returns when the whole block has, unwinds when it cannot.
    fn sync(&self, tid: u32) {
        let mut state = self.lock();
        state.calls[tid as usize] += 1;
        let call = state.calls[tid as usize];
        if self.cluster.poisoned() {
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
            self.fail(error);
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
            self.fail(error);
            abort(state);
        }
        let cluster = self.cluster.lock();
        if let Some(waiter) = self.cluster_waiter(&cluster, 0..self.threads) {
            let detail = format!(
                "thread {} reached sync_threads (its call #{call}) while thread {} of the block waits at cluster::sync (its \
                 call #{}): the block barrier needs every thread of the block and the cluster barrier every thread of the \
                 cluster, so neither can complete",
                self.thread_of(tid),
                self.thread_of(waiter),
                cluster.calls[self.cluster.index(self.rank, waiter) as usize],
            );
            drop(cluster);
            let error = self.divergent(tid, detail);
            self.fail(error);
            abort(state);
        }
        drop(cluster);
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
            if self.cluster.poisoned() {
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
                self.fail(error);
                abort(state);
            }
        }
    }

    /// Thread `tid` reached `cluster::sync`: returns when every thread of every block of the cluster
    /// has, unwinds when it cannot.
    fn cluster_sync(&self, tid: u32) {
        let state = self.lock();
        let me = self.cluster.index(self.rank, tid);
        let mut cluster = self.cluster.lock();
        cluster.calls[me as usize] += 1;
        let call = cluster.calls[me as usize];
        if self.cluster.poisoned() {
            drop(cluster);
            abort(state);
        }
        let warp = &state.warps[tid as usize / WARP_SIZE];
        let problem = if let Some(gone) = cluster.first_exited {
            let detail = format!(
                "thread {} reached cluster::sync (its call #{call}) but thread {} of the cluster has already returned from \
                 the kernel after {} call(s): every thread of every block of the cluster must reach every cluster barrier \
                 (is cluster::sync inside a branch or an early return that only some threads or blocks take?)",
                self.cluster.name(me),
                self.cluster.name(gone),
                cluster.calls[gone as usize],
            );
            Some(self.divergent(tid, detail))
        } else if state.arrived > 0 {
            let waiter = state.first_waiter.unwrap_or(tid);
            let detail = format!(
                "thread {} reached cluster::sync (its call #{call}) while thread {} of the block waits at sync_threads (its \
                 call #{}): the cluster barrier needs every thread of the cluster and the block barrier every thread of the \
                 block, so neither can complete",
                self.thread_of(tid),
                self.thread_of(waiter),
                state.calls[waiter as usize],
            );
            Some(self.divergent(tid, detail))
        } else if warp.arrived > 0 {
            let waiter = warp.first_waiter.unwrap_or(tid);
            let detail = format!(
                "thread {} reached cluster::sync (its call #{call}) while thread {} of its warp waits in the warp-collective \
                 `{}` ({} of {} lanes arrived): the collective needs every lane of the warp and the barrier every thread \
                 of the cluster, so neither can complete",
                self.thread_of(tid),
                self.thread_of(waiter),
                warp.op.unwrap_or("?"),
                warp.arrived,
                warp.lanes,
            );
            Some(self.divergent_warp(tid, detail))
        } else {
            None
        };
        if let Some(error) = problem {
            drop(cluster);
            self.fail(error);
            abort(state);
        }
        drop(state);
        let generation = cluster.generation;
        cluster.round[me as usize] = Some(generation);
        cluster.arrived += 1;
        if cluster.arrived == self.cluster.threads {
            cluster.arrived = 0;
            cluster.first_waiter = None;
            cluster.block_waiters.fill(0);
            cluster.generation += 1;
            return;
        }
        cluster.first_waiter.get_or_insert(me);
        cluster.block_waiters[self.rank as usize] += 1;
        let deadline = Instant::now() + WAIT_LIMIT;
        loop {
            drop(cluster);
            park();
            cluster = self.cluster.lock();
            if cluster.generation != generation {
                return;
            }
            if self.cluster.poisoned() {
                abort(cluster);
            }
            if Instant::now() >= deadline {
                let detail = format!(
                    "thread {} waited {WAIT_LIMIT:?} at cluster::sync (its call #{call}) with {} of {} threads of the \
                     cluster arrived: the others neither arrive nor return",
                    self.thread_of(tid),
                    cluster.arrived,
                    self.cluster.threads,
                );
                let error = self.divergent(tid, detail);
                self.fail(error);
                abort(cluster);
            }
        }
    }

    /// One round of thread `tid`'s spin-wait in `what` (an `mbarrier` phase), `waited` long so far:
    /// lets the cluster's other threads run; unwinds when the cluster has faulted, when every other
    /// thread of the cluster has returned (nobody is left to complete the phase: in a cluster, a peer
    /// block's thread may), or after [`WAIT_LIMIT`].
    fn spin(&self, tid: u32, what: &'static str, waited: Duration) {
        let cluster = self.cluster.lock();
        if self.cluster.poisoned() {
            abort(cluster);
        }
        if cluster.exited + 1 >= self.cluster.threads || waited >= WAIT_LIMIT {
            let whose = if self.cluster.blocks.len() > 1 { "cluster" } else { "block" };
            let detail = format!(
                "thread {} waited {waited:?} in `{what}` and {} of the {whose}'s {} other threads have returned: \
                 the phase it waits for never completes (arrivals or transaction bytes missing)",
                self.thread_of(tid),
                cluster.exited,
                self.cluster.threads - 1,
            );
            let error = self.divergent(tid, detail);
            self.fail(error);
            abort(cluster);
        }
        drop(cluster);
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
            if !self.cluster.poisoned() {
                let error = self.divergent_warp(waiter, detail);
                self.fail(error);
            }
        }
        if !self.cluster.poisoned() && state.arrived > 0 {
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
            self.fail(error);
        }
        drop(state);
        let me = self.cluster.index(self.rank, tid);
        let mut cluster = self.cluster.lock();
        cluster.exited += 1;
        cluster.first_exited.get_or_insert(me);
        if !self.cluster.poisoned() && cluster.arrived > 0 {
            let waiter = cluster.first_waiter.unwrap_or(me);
            let detail = format!(
                "thread {} waits at cluster::sync (its call #{}) but thread {} of the cluster returned from the kernel \
                 after {} call(s), so the cluster barrier can never complete: every thread of every block of the cluster \
                 must reach every cluster barrier (is cluster::sync inside a branch or an early return that only some \
                 threads or blocks take?)",
                self.cluster.name(waiter),
                cluster.calls[waiter as usize],
                self.cluster.name(me),
                cluster.calls[me as usize],
            );
            let error = self.cluster.divergent(waiter, detail);
            drop(cluster);
            self.fail(error);
        }
    }
}

/// Releases the lock and unwinds this thread (without the panic hook: it is not a fault of its own).
fn abort<T>(guard: MutexGuard<'_, T>) -> ! {
    drop(guard);
    std::panic::resume_unwind(Box::new(Aborted))
}

/// One thread's handle on its block's barrier, its cluster's barrier and its warp's exchange (what
/// `sync_threads`, `cluster::sync` and the warp-collective device functions call on the host).
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

    fn cluster_sync(&self) {
        self.block.cluster_sync(self.tid);
    }
}

impl WarpExchange for ThreadHandle {
    fn exchange(&self, op: &'static str, words: LaneWords) -> Arc<[LaneWords; WARP_SIZE]> {
        self.block.exchange(self.tid, op, words)
    }
}
