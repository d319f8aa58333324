//! Counters in global memory through which the blocks of one launch hand work to each other:
//! a release-add after a thread's own stores, an acquire-wait before a thread reads what others
//! published, and the plain read-modify-write and store that recycle a counter.
//!
//! Each GPU function is one PTX instruction at `.gpu` scope (`red.release`, `ld.acquire`,
//! `atom.relaxed`, `st.relaxed`). Every thread that waits acquires for itself, so no ordering has to
//! travel through a block barrier. A wait only ends when another block makes progress: the blocks
//! involved must be resident together (a persistent grid no larger than the GPU keeps at once), and
//! the waited-for block must not itself wait on the waiter.
//!
//! The host builds use `core`'s atomics. The CPU executor runs clusters one after another, so a wait
//! there can only be on a counter that earlier clusters completed: a wait that is not already
//! satisfied panics (a fault naming the thread), instead of spinning forever.

/// `*flag += value` with release semantics at GPU scope: every store this thread made before it is
/// visible to a thread that acquires the new value ([`wait_at_least`]).
///
/// # Safety
/// `flag` points to a 4-byte aligned `u32` of global memory that other threads touch only through
/// this module while the kernel runs.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn release_add(flag: *mut u32, value: u32) {
    // SAFETY: the caller's contract; `cvta.to.global` gives the global-space address `red.global` takes.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; red.release.gpu.global.add.u32 [ga], {v}; }}",
            p = in(reg64) flag as u64,
            v = in(reg32) value,
            options(nostack, preserves_flags)
        );
    }
}

/// Host build of [`release_add`].
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn release_add(flag: *mut u32, value: u32) {
    use core::sync::atomic::{AtomicU32, Ordering};
    // SAFETY: a valid, aligned u32 touched only atomically during the launch (the caller's contract).
    unsafe { AtomicU32::from_ptr(flag) }.fetch_add(value, Ordering::Release);
}

/// Waits until `*flag ≥ at_least`, reading it with acquire semantics at GPU scope: the stores that
/// the releasing threads made before their [`release_add`] are visible to this thread afterwards.
///
/// # Safety
/// As [`release_add`]; other resident blocks bring the counter to `at_least` without waiting on this
/// thread (else it never returns).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn wait_at_least(flag: *const u32, at_least: u32) {
    loop {
        let v: u32;
        // SAFETY: the caller's contract; as `release_add`.
        unsafe {
            core::arch::asm!(
                "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; ld.acquire.gpu.global.u32 {v}, [ga]; }}",
                p = in(reg64) flag as u64,
                v = out(reg32) v,
                options(nostack, preserves_flags)
            );
        }
        if v >= at_least {
            return;
        }
    }
}

/// Host build of [`wait_at_least`]: the counter must already have reached `at_least` (the executor
/// runs the clusters that could raise it before this one); otherwise the thread faults.
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn wait_at_least(flag: *const u32, at_least: u32) {
    use core::sync::atomic::{AtomicU32, Ordering};
    // SAFETY: as `release_add`.
    let v = unsafe { AtomicU32::from_ptr(flag.cast_mut()) }.load(Ordering::Acquire);
    assert!(
        v >= at_least,
        "a wait for a counter at {v} to reach {at_least}: no earlier cluster raised it (the executor runs clusters in order, so a block may wait only on lower ones)"
    );
}

/// `*flag += value`, atomically, returning the old value (relaxed: no ordering beyond the counter's own).
///
/// # Safety
/// As [`release_add`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn fetch_add(flag: *mut u32, value: u32) -> u32 {
    let old: u32;
    // SAFETY: the caller's contract; as `release_add`.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; atom.relaxed.gpu.global.add.u32 {o}, [ga], {v}; }}",
            p = in(reg64) flag as u64,
            v = in(reg32) value,
            o = out(reg32) old,
            options(nostack, preserves_flags)
        );
    }
    old
}

/// Host build of [`fetch_add`].
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn fetch_add(flag: *mut u32, value: u32) -> u32 {
    use core::sync::atomic::{AtomicU32, Ordering};
    // SAFETY: as `release_add`.
    unsafe { AtomicU32::from_ptr(flag) }.fetch_add(value, Ordering::Relaxed)
}

/// `*flag = value` (relaxed, GPU scope): resets a counter nobody waits on any more.
///
/// # Safety
/// As [`release_add`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn store(flag: *mut u32, value: u32) {
    // SAFETY: the caller's contract; as `release_add`.
    unsafe {
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; st.relaxed.gpu.global.u32 [ga], {v}; }}",
            p = in(reg64) flag as u64,
            v = in(reg32) value,
            options(nostack, preserves_flags)
        );
    }
}

/// Host build of [`store`].
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub unsafe fn store(flag: *mut u32, value: u32) {
    use core::sync::atomic::{AtomicU32, Ordering};
    // SAFETY: as `release_add`.
    unsafe { AtomicU32::from_ptr(flag) }.store(value, Ordering::Relaxed);
}
