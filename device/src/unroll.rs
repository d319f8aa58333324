//! Loop-unrolling control, which Rust cannot express per loop (no `#pragma unroll N`).
//!
//! The kernels build with a high LLVM unroll threshold so that the compute loop over a tile's K-step
//! unrolls fully (constant shared-memory offsets, no loop counter). For the largest tiles that makes
//! the loop body tens of kilobytes of machine code; these two functions let a loop stay a loop:
//! [`opaque`] hides a trip count from LLVM (so it cannot unroll fully), and [`keep_rolled`] asks ptxas
//! not to unroll the loop it heads either.

/// `x`, passed through a PTX `mov` that LLVM cannot see through (host: `x`).
#[inline(always)]
pub fn opaque(x: u32) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    {
        let y: u32;
        // SAFETY: a register move; no memory, no side effects.
        unsafe { core::arch::asm!("mov.u32 {y}, {x};", x = in(reg32) x, y = out(reg32) y, options(pure, nomem, nostack, preserves_flags)) };
        y
    }
    #[cfg(not(target_arch = "nvptx64"))]
    x
}

/// `.pragma "nounroll";` — placed first in a loop body (the loop's header block in the PTX), it stops
/// ptxas from unrolling that loop. A no-op on the host.
#[inline(always)]
pub fn keep_rolled() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: a compiler directive, no instruction.
    unsafe {
        core::arch::asm!(".pragma \"nounroll\";", options(nomem, nostack, preserves_flags))
    }
}
