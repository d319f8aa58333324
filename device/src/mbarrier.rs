//! Shared-memory barriers (`mbarrier`, sm_80+; transaction counts sm_90): an 8-byte object in shared
//! memory that completes a *phase* once its expected arrivals have arrived **and** its pending
//! transaction bytes (announced with [`arrive_expect_tx`], delivered by the TMA engine,
//! [`super::tma`]) have landed. Waiters ask whether the phase of a given parity has completed
//! ([`try_wait_parity`]), so a barrier is reused round after round without re-initialisation: round
//! `r` of a pipeline stage waits for parity `r % 2`.
//!
//! Unlike `bar.sync`, producers and consumers never wait for each other as a whole block: a stage's
//! "full" barrier releases its consumers when its bytes land, its "empty" barrier releases the
//! producer when its consumers are done with it.
//!
//! Addresses are shared-window byte addresses (`SharedPtr::addr`), 8-byte aligned. Each PTX
//! instruction is one wrapper. The host build (the CPU executor) keeps the same state in the same 8
//! bytes, updated atomically: `phase` (bit 63), pending transaction bytes (bits 32–62), pending
//! arrivals (16–31), expected arrivals (0–15); a waiting thread yields to the others and gives up,
//! as a fault, when its block has faulted or the wait exceeds the executor's limit.

/// `mbarrier.init.shared::cta.b64 [bar], count`: a barrier expecting `count` arrivals per phase
/// (1 ..= 2¹⁶ − 1 on the host model), phase 0, no pending transactions.
///
/// # Safety
/// `bar` is an 8-byte-aligned address in this block's shared memory that no thread uses as a
/// barrier before a block barrier (`sync_threads`) follows this call.
#[inline(always)]
pub unsafe fn init(bar: u32, count: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a shared address and a count (the caller's contract); a memory clobber.
    unsafe {
        core::arch::asm!("mbarrier.init.shared::cta.b64 [{bar}], {count};", bar = in(reg32) bar, count = in(reg32) count, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_impl::init(bar, count);
}

/// `mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], bytes`: announces `bytes` more transaction
/// bytes for the current phase, then arrives once (the producer's step before issuing the copies
/// that complete them).
///
/// # Safety
/// `bar` is an initialised barrier in this block's shared memory ([`init`]).
#[inline(always)]
pub unsafe fn arrive_expect_tx(bar: u32, bytes: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as `init`; the state token is discarded (`_`).
    unsafe {
        core::arch::asm!(
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [{bar}], {bytes};",
            bar = in(reg32) bar,
            bytes = in(reg32) bytes,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_impl::update(bar, bytes as i64, 1);
}

/// `mbarrier.arrive.shared::cta.b64 _, [bar]`: one arrival on the current phase (with release
/// semantics: this thread's earlier accesses happen before the phase completes).
///
/// # Safety
/// `bar` is an initialised barrier in this block's shared memory ([`init`]).
#[inline(always)]
pub unsafe fn arrive(bar: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as `init`; the state token is discarded (`_`).
    unsafe {
        core::arch::asm!("mbarrier.arrive.shared::cta.b64 _, [{bar}];", bar = in(reg32) bar, options(nostack, preserves_flags))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_impl::update(bar, 0, 1);
}

/// `mbarrier.arrive.shared::cluster.b64 _, [bar]`: one arrival on the current phase of a barrier
/// named by a shared::cluster address — a peer block's ([`super::cluster::map_shared`]) or this
/// block's own — with the default release semantics at CTA scope, as CUTLASS's cluster barriers
/// arrive: a consumer releasing a stage whose reads have completed needs no more (the
/// `.release.cluster` form orders every earlier access of the thread at cluster scope).
///
/// # Safety
/// `bar` is an initialised barrier of a block of this cluster that has not exited.
#[inline(always)]
pub unsafe fn arrive_cluster(bar: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as `init`; the state token is discarded (`_`).
    unsafe {
        core::arch::asm!(
            "mbarrier.arrive.shared::cluster.b64 _, [{bar}];",
            bar = in(reg32) bar,
            options(nostack, preserves_flags)
        )
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_impl::update(bar, 0, 1);
}

/// `mbarrier.try_wait.parity.shared::cta.b64 p, [bar], parity`: whether the phase of parity
/// `parity` (0 or 1) has completed — true at once for the phase before the current one, so a fresh
/// barrier answers true for parity 1. The hardware suspends the thread for a while before answering
/// false; callers loop ([`wait_parity`]). Acquire semantics: the completed phase's writes (the
/// transaction bytes, the arrivers' earlier accesses) are visible after a true answer.
///
/// # Safety
/// `bar` is an initialised barrier in this block's shared memory ([`init`]).
#[inline(always)]
pub unsafe fn try_wait_parity(bar: u32, parity: u32) -> bool {
    #[cfg(target_arch = "nvptx64")]
    {
        let done: u32;
        // SAFETY: as `init`; a memory clobber, so no shared read moves above a true answer.
        unsafe {
            core::arch::asm!(
                "{{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [{bar}], {parity}; selp.u32 {done}, 1, 0, p; }}",
                bar = in(reg32) bar,
                parity = in(reg32) parity,
                done = out(reg32) done,
                options(nostack, preserves_flags)
            )
        }
        done != 0
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host_impl::try_wait(bar, parity)
}

/// Waits until the phase of parity `parity` of `bar` has completed ([`try_wait_parity`] in a loop).
///
/// # Safety
/// As [`try_wait_parity`]; the phase must eventually complete (its arrivals and bytes come), or the
/// thread waits forever on the GPU (the host model reports it after the executor's wait limit).
#[inline(always)]
pub unsafe fn wait_parity(bar: u32, parity: u32) {
    #[cfg(not(target_arch = "nvptx64"))]
    let since = std::time::Instant::now();
    // SAFETY: forwarded contract.
    while !unsafe { try_wait_parity(bar, parity) } {
        #[cfg(not(target_arch = "nvptx64"))]
        super::host::spin_wait("mbarrier.try_wait.parity", since);
    }
}

/// The host model: the barrier's state word in its 8 bytes of the block's shared memory.
#[cfg(not(target_arch = "nvptx64"))]
mod host_impl {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::super::host;

    const PHASE: u64 = 1 << 63;
    const COUNT_MASK: u64 = 0xFFFF;

    /// The barrier word at shared::cluster address `bar` (this block's own shared byte, or a peer's
    /// through `mapa`), checked to lie in that block's shared memory.
    #[track_caller]
    fn word(bar: u32) -> &'static AtomicU64 {
        // 'static: the cluster's shared memory outlives every thread that can name it.
        let (region, at) = host::cluster_region(bar);
        if !at.is_multiple_of(8) || at + 8 > region.bytes {
            host::out_of_bounds(format_args!(
                "mbarrier at shared byte {at} (address {bar:#x}): outside the block's {} bytes or not 8-byte aligned",
                region.bytes
            ));
        }
        // SAFETY: 8 aligned bytes inside a block's shared memory (checked), which outlives the
        // kernel's threads; every access to a barrier word goes through this atomic.
        unsafe { &*region.base.add(at).cast::<AtomicU64>() }
    }

    pub(super) fn init(bar: u32, count: u32) {
        if count == 0 || count as u64 > COUNT_MASK {
            host::out_of_bounds(format_args!("mbarrier.init with count {count}: the host model takes 1 ..= 65535"));
        }
        let count = count as u64;
        word(bar).store(count | (count << 16), Ordering::Release);
    }

    /// Transaction bytes: 31 bits, two's complement (a peer's multicast copy may deliver its bytes
    /// before this block's producer announces them, as on the GPU).
    const BYTES_MASK: u64 = 0x7FFF_FFFF;

    /// Adds `tx` pending transaction bytes (negative: bytes delivered) and `arrivals` arrivals; the
    /// phase completes, and the next begins, when both pending counts reach zero. Bytes delivered
    /// ahead of their announcement leave the count negative while arrivals are pending.
    #[track_caller]
    pub(crate) fn update(bar: u32, tx: i64, arrivals: u64) {
        let word = word(bar);
        let mut state = word.load(Ordering::Acquire);
        loop {
            let (phase, expected) = (state & PHASE, state & COUNT_MASK);
            let raw = ((state >> 32) & BYTES_MASK) as i64;
            let (pending, bytes) =
                ((state >> 16) & COUNT_MASK, if raw > (BYTES_MASK >> 1) as i64 { raw - (BYTES_MASK + 1) as i64 } else { raw });
            if expected == 0 {
                host::out_of_bounds(format_args!("mbarrier at shared address {bar:#x} used before mbarrier.init"));
            }
            let (pending, bytes) = (pending as i64 - arrivals as i64, bytes + tx);
            if pending < 0 || (pending == 0 && bytes < 0) {
                host::out_of_bounds(format_args!(
                    "mbarrier at shared address {bar:#x}: more arrivals or transaction bytes than the phase expects"
                ));
            }
            let next = if pending == 0 && bytes == 0 {
                (phase ^ PHASE) | expected | (expected << 16)
            } else {
                phase | expected | ((pending as u64) << 16) | (((bytes as u64) & BYTES_MASK) << 32)
            };
            match word.compare_exchange_weak(state, next, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(now) => state = now,
            }
        }
    }

    pub(super) fn try_wait(bar: u32, parity: u32) -> bool {
        let phase = (word(bar).load(Ordering::Acquire) >> 63) as u32;
        // The phase of parity `parity` has completed iff the current phase has the other parity.
        phase != (parity & 1)
    }
}

/// The host model's state update, for the TMA model's `complete_tx` ([`super::tma`]).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) use host_impl::update as host_update;
