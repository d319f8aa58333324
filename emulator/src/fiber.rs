//! The GPU threads of one block (of all the blocks of a cluster, in a cluster launch) as coroutines on
//! the launching OS thread, and the scheduler that runs them.
//!
//! A thread runs until it has to wait (at a barrier, in a warp exchange, on an `mbarrier` phase) and
//! then [`park`]s; the scheduler resumes every live thread once per round, each checks whether what
//! it waits for has happened and parks again if not. A switch costs tens of nanoseconds; an OS
//! thread per GPU thread would cost a thread creation each and system calls at every wait, which is
//! where such an executor spends its time on a pipelined kernel.
//!
//! Rounds alternate direction, and so do blocks (even blocks start with thread 0, odd ones with the
//! last thread; a cluster goes by its first block): a kernel that reads what another thread of its block writes, without a barrier
//! between, reads it before it is written in one of the two orders, whichever thread writes.
use std::cell::{Cell, RefCell};
use std::ptr;

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use tessera_device::host::{self, ThreadContext};

/// Stack of each emulated thread: kernels keep their state in registers-worth of locals. Reserved,
/// not committed: only the pages a kernel touches cost memory.
const STACK_BYTES: usize = 1 << 20;

/// Stacks kept for reuse across blocks and launches, per OS thread (mapping one costs a system call).
const POOLED_STACKS: usize = 1024;

thread_local! {
    /// The yielder of the coroutine running on this OS thread (set by that coroutine).
    static YIELDER: Cell<*const Yielder<(), ()>> = const { Cell::new(ptr::null()) };
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

/// Suspends the calling GPU thread until the scheduler's next round resumes it.
///
/// Panics outside an emulated thread.
pub(crate) fn park() {
    let yielder = YIELDER.with(Cell::get);
    assert!(!yielder.is_null(), "tessera-emulator: park() outside an emulated GPU thread");
    // SAFETY: YIELDER is set by the coroutine running now, at its start and after each resume
    // (below), to its own yielder, which lives on its stack for as long as it runs.
    unsafe { (*yielder).suspend(()) };
    // Other coroutines ran on this OS thread meanwhile and set their own.
    YIELDER.with(|y| y.set(yielder));
}

/// One GPU thread: its coroutine and, while it is suspended, its context.
struct Fiber {
    coroutine: Coroutine<(), (), (), DefaultStack>,
    context: Option<ThreadContext>,
}

/// Runs `body(i)` as GPU thread `i` (context `contexts[i]`) for every thread, all interleaved on this
/// OS thread, and returns when all have returned; the first round runs the threads from the last to
/// the first if `reverse_first`. `body` must not unwind (catch inside it).
///
/// Fails only when a stack cannot be mapped, before any thread has run.
pub(crate) fn run(contexts: Vec<ThreadContext>, reverse_first: bool, body: &(dyn Fn(u32) + Sync)) -> std::io::Result<()> {
    let mut fibers = Vec::with_capacity(contexts.len());
    for (tid, context) in contexts.into_iter().enumerate() {
        let stack = match STACKS.with(|s| s.borrow_mut().pop()) {
            Some(stack) => stack,
            None => DefaultStack::new(STACK_BYTES)?,
        };
        let start = move |yielder: &Yielder<(), ()>, ()| {
            YIELDER.with(|y| y.set(yielder));
            body(tid as u32);
        };
        // SAFETY: `start` borrows only `body`, which outlives this function; every coroutine made
        // here is driven to completion below (or, on an early return, dropped — which unwinds it)
        // before this function returns.
        let coroutine = unsafe { Coroutine::with_stack_unchecked(stack, start) };
        fibers.push(Fiber { coroutine, context: Some(context) });
    }
    let mut forward = !reverse_first;
    while !fibers.is_empty() {
        let mut finished = false;
        let live = fibers.len();
        for j in 0..live {
            let fiber = &mut fibers[if forward { j } else { live - 1 - j }];
            let outer = host::swap(fiber.context.take());
            debug_assert!(outer.is_none(), "a GPU-thread context was installed outside the scheduler");
            let result = fiber.coroutine.resume(());
            fiber.context = host::swap(None);
            if let CoroutineResult::Return(()) = result {
                fiber.context = None;
                finished = true;
            }
        }
        forward = !forward;
        if !finished {
            continue;
        }
        let (done, live): (Vec<_>, Vec<_>) = fibers.into_iter().partition(|f| f.coroutine.done());
        fibers = live;
        STACKS.with(|s| {
            let mut pool = s.borrow_mut();
            for fiber in done {
                let stack = fiber.coroutine.into_stack();
                if pool.len() < POOLED_STACKS {
                    pool.push(stack);
                }
            }
        });
    }
    YIELDER.with(|y| y.set(ptr::null()));
    Ok(())
}
