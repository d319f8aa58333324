//! Programmatic dependent launch (sm_90): a launch that overlaps the end of the launch before it on
//! the stream.
//!
//! The host may queue a kernel with the *programmatic stream serialization* attribute; the GPU then
//! starts its blocks as soon as every block of the kernel before it has called [`allow_dependents`]
//! (or exited), instead of after that kernel has finished and its writes are flushed. The dependent
//! kernel must call [`wait_for_prior_grids`] before it touches anything the earlier kernel writes.
//! tessera uses it for `C`'s zeroing before a split-K launch: the slices run their K-loops while the
//! zeroing finishes and wait only before their first add into `C`.
//!
//! Each GPU function is one PTX instruction (`griddepcontrol`, PTX 7.8). A kernel launched without
//! the attribute returns from the wait at once. The host builds do nothing: the CPU executor runs
//! launches one after another, so every prior launch has finished.

/// Blocks until every kernel this launch depends on has completed and its memory writes are visible
/// (`griddepcontrol.wait`); returns at once when the launch was not queued as a dependent.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn wait_for_prior_grids() {
    // SAFETY: the instruction only waits; it reads and writes no memory the program sees.
    unsafe { core::arch::asm!("griddepcontrol.wait;", options(nostack, preserves_flags)) }
}

/// Host build of [`wait_for_prior_grids`]: earlier launches have finished.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn wait_for_prior_grids() {}

/// Lets the launch queued after this one as a dependent start its blocks once every block of this
/// launch has called it or exited (`griddepcontrol.launch_dependents`). It says nothing about this
/// launch's writes: the dependent still waits for them with [`wait_for_prior_grids`].
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn allow_dependents() {
    // SAFETY: the instruction only signals the scheduler; it touches no memory.
    unsafe { core::arch::asm!("griddepcontrol.launch_dependents;", options(nostack, preserves_flags)) }
}

/// Host build of [`allow_dependents`]: launches run one after another.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
pub fn allow_dependents() {}

/// A kernel's first act when the host may queue it as the dependent of the launch before it: lets
/// the launch after this one start its blocks (they wait in turn), then, unless `follows_zeroing`,
/// waits for the launches before ([`wait_for_prior_grids`]), so that nothing this kernel reads or
/// writes is still in use by them. `follows_zeroing`: the host queued this launch right after `C`'s
/// zeroing, which writes only `C` and started after everything before it had finished; the launch
/// then reads its operands at once and must wait before its first write of `C`. Every thread calls
/// it, block-uniformly.
#[inline(always)]
pub fn follow_prior(follows_zeroing: bool) {
    allow_dependents();
    if !follows_zeroing {
        wait_for_prior_grids();
    }
}
