//! Warpgroup register reallocation (`setmaxnreg`, sm_90a): in a warp-specialised kernel the
//! producer warpgroup, which only issues copies, hands registers back and the consumer warpgroups,
//! which hold the accumulators, take them, within the block's fixed register file. The kernel is
//! compiled for the launch's per-thread limit (65536 / threads, from `.maxntid` and `.minnctapersm`)
//! and each warpgroup moves to its own count at the start.
//!
//! The host build has no registers to move: both are no-ops there.

/// `setmaxnreg.dec.sync.aligned.u32 N`: this warpgroup's threads keep at most `N` registers each
/// (24 ..= 256, a multiple of 8) and release the rest to the block's pool.
///
/// # Safety
/// Warpgroup-collective (all 128 threads of an aligned warpgroup, converged); `N` at least what the
/// code after it needs (ptxas allocates that code within `N`).
#[inline(always)]
pub unsafe fn release_registers<const N: u32>() {
    const { assert!(N >= 24 && N <= 256 && N.is_multiple_of(8)) };
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: an immediate; the caller's contract makes it warpgroup-uniform.
    unsafe {
        core::arch::asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack, preserves_flags))
    }
}

/// `setmaxnreg.inc.sync.aligned.u32 N`: this warpgroup's threads grow to `N` registers each (24 ..=
/// 256, a multiple of 8), waiting until the block's pool has them (released by
/// [`release_registers`] in other warpgroups).
///
/// # Safety
/// Warpgroup-collective (as [`release_registers`]); the block's warpgroups' counts after all their
/// calls fit the register file (e.g. 128·40 + 256·232 ≤ 65536 for one producer and two consumers),
/// or the call waits forever.
#[inline(always)]
pub unsafe fn claim_registers<const N: u32>() {
    const { assert!(N >= 24 && N <= 256 && N.is_multiple_of(8)) };
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: an immediate; the caller's contract makes it warpgroup-uniform and satisfiable.
    unsafe {
        core::arch::asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack, preserves_flags))
    }
}
