//! Asynchronous global → shared copies (`cp.async`, sm_80 and later; plain sm_90, no `a` suffix).
//!
//! A thread issues copies that the memory system completes in the background while the thread keeps
//! computing; `commit` closes a group of them and `wait_all` blocks until this thread's groups have
//! landed. Other threads see the data only after a `sync_threads` that follows the wait.
//!
//! Each PTX instruction is one small wrapper with inline `asm!` (core has no intrinsic for them); the
//! host build (the CPU executor) does the copy at once, which is one legal schedule of the async copy,
//! and makes `commit` / `wait_all` no-ops.
use super::mem::View;

/// Starts a 16-byte copy `dst[di .. di + 4] ← src[si .. si + 4]` (`cp.async.cg.shared.global`, which
/// bypasses L1: the data is used once from shared memory).
///
/// # Safety
/// `dst` is a view of this block's shared memory, `src` one of global memory; both ranges are in
/// bounds and 16-byte aligned (`di % 4 == 0`, `si % 4 == 0` for 16-byte aligned bases). Nobody may
/// read `dst[di..di+4]` before this thread's [`wait_all`] and a following barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn copy16(dst: View<f32>, di: usize, src: View<f32>, si: usize) {
    // SAFETY: ranges by the caller's contract; `cvta.to.shared` / `cvta.to.global` turn the generic
    // addresses Rust holds into the state-space addresses `cp.async` takes.
    unsafe {
        let (d, s) = (dst.ptr4(di) as u64, src.ptr4(si) as u64);
        core::arch::asm!(
            "{{ .reg .u64 sa, ga; cvta.to.shared.u64 sa, {d}; cvta.to.global.u64 ga, {s}; cp.async.cg.shared.global [sa], [ga], 16; }}",
            d = in(reg64) d,
            s = in(reg64) s,
            options(nostack, preserves_flags)
        );
    }
}

/// Host fallback of [`copy16`]: the copy happens immediately (checked like any view access).
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn copy16(dst: View<f32>, di: usize, src: View<f32>, si: usize) {
    // SAFETY: in range by the caller's contract; a host build checks both views.
    unsafe { dst.set4(di, src.get4(si)) }
}

/// `cp.async.commit_group`: closes the copies this thread issued since the last commit into a group.
#[inline(always)]
pub fn commit() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; it only marks a group boundary in this thread's copy queue.
    unsafe {
        core::arch::asm!("cp.async.commit_group;", options(nostack, preserves_flags))
    }
}

/// `cp.async.wait_all`: waits until every copy this thread issued has completed. Follow it with
/// `sync_threads` before other threads read the data.
#[inline(always)]
pub fn wait_all() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: no operands; it blocks this thread until its copies landed (the asm is a memory clobber,
    // so the compiler does not move shared-memory reads above it).
    unsafe {
        core::arch::asm!("cp.async.wait_all;", options(nostack, preserves_flags))
    }
}
