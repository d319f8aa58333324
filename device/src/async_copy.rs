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

/// Starts a 4-byte copy `dst[di] ← src[si]` that writes zero instead when `valid` is false
/// (`cp.async.ca.shared.global` with a source size of 4 or 0 bytes: the hardware zero-fills the bytes
/// it does not read). One element at a time, so the copy can transpose a tile on its way into shared
/// memory and needs no alignment; the zero fill gives edge tiles the zeros the dot products expect
/// without a separate guarded path. `.ca` (cached in L1): the neighbouring elements of the same
/// 32-byte sector are copied by the neighbouring lanes.
///
/// # Safety
/// `dst` is a view of this block's shared memory and `di < dst.len()`; `src` is one of global memory
/// and `si < src.len()` **even when `valid` is false** (pass any in-range index, e.g. 0: no byte is
/// read then, but the address must still be a legal one). Nobody may read `dst[di]` before this
/// thread's wait ([`wait_all`] / [`wait_pending`]) and a following barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn copy4_zfill(dst: View<f32>, di: usize, src: View<f32>, si: usize, valid: bool) {
    // SAFETY: addresses in range by the caller's contract; as in `copy16`.
    unsafe {
        let (d, s) = (dst.ptr(di) as u64, src.ptr(si) as u64);
        let bytes: u32 = if valid { 4 } else { 0 };
        core::arch::asm!(
            "{{ .reg .u64 sa, ga; cvta.to.shared.u64 sa, {d}; cvta.to.global.u64 ga, {s}; cp.async.ca.shared.global [sa], [ga], 4, {n}; }}",
            d = in(reg64) d,
            s = in(reg64) s,
            n = in(reg32) bytes,
            options(nostack, preserves_flags)
        );
    }
}

/// Host fallback of [`copy4_zfill`]: the element (or zero) is written immediately.
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn copy4_zfill(dst: View<f32>, di: usize, src: View<f32>, si: usize, valid: bool) {
    // SAFETY: in range by the caller's contract; a host build checks both views (`si` even when not
    // valid, as the GPU contract requires).
    unsafe {
        let v = src.get(si);
        dst.set(di, if valid { v } else { 0.0 })
    }
}

/// Starts a 16-byte copy of `16 / size_of::<T>()` elements `dst[di ..] ← src[si ..]` that writes
/// zeros instead when `valid` is false (`cp.async.cg.shared.global` with a source size of 16 or 0
/// bytes: the hardware zero-fills what it does not read). The tensor-core kernels' tile loads: the
/// zero fill gives edge tiles the zeros their dot products expect, with no separate guarded path.
///
/// # Safety
/// `dst` is a view of this block's shared memory, `src` one of global memory; both 16-byte ranges are
/// inside their views and 16-byte aligned, **and `si` is in range even when `valid` is false** (pass
/// 0: nothing is read then, but the address must be legal). Nobody may read `dst[di ..]` before this
/// thread's wait ([`wait_all`] / [`wait_pending`]) and a following barrier.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn copy16_zfill<T: Copy + Default>(dst: View<T>, di: usize, src: View<T>, si: usize, valid: bool) {
    // SAFETY: addresses in range by the caller's contract; as in `copy16`.
    unsafe {
        let (d, s) = (dst.ptr(di) as u64, src.ptr(si) as u64);
        let bytes: u32 = if valid { 16 } else { 0 };
        core::arch::asm!(
            "{{ .reg .u64 sa, ga; cvta.to.shared.u64 sa, {d}; cvta.to.global.u64 ga, {s}; cp.async.cg.shared.global [sa], [ga], 16, {n}; }}",
            d = in(reg64) d,
            s = in(reg64) s,
            n = in(reg32) bytes,
            options(nostack, preserves_flags)
        );
    }
}

/// Host fallback of [`copy16_zfill`]: the elements (or zeros) are written immediately, each access
/// checked; the 16-byte alignment of both addresses is checked too.
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn copy16_zfill<T: Copy + Default>(dst: View<T>, di: usize, src: View<T>, si: usize, valid: bool) {
    let n = 16 / core::mem::size_of::<T>();
    // SAFETY: in range by the caller's contract; every access below is checked by the host views.
    unsafe {
        if !(dst.ptr(di) as usize).is_multiple_of(16) {
            super::host::out_of_bounds(format_args!("cp.async 16-byte copy to a shared address not 16-byte aligned (element {di})"));
        }
        let _ = src.get(si);
        for e in 0..n {
            dst.set(di + e, if valid { src.get(si + e) } else { T::default() });
        }
    }
}

/// An element of this block's shared memory as `cp.async` addresses it. On the GPU the 32-bit
/// shared-window address, converted from the generic pointer once ([`SharedPtr::new`]) and then moved
/// with integer adds, so a copy's destination is one register plus an immediate (a generic pointer
/// costs a 64-bit address computation and a conversion per copy). On the host the view and index it
/// stands for, so the host build checks every copy as [`copy16_zfill`] does.
#[derive(Clone, Copy)]
pub struct SharedPtr<T> {
    #[cfg(target_arch = "nvptx64")]
    addr: u32,
    #[cfg(target_arch = "nvptx64")]
    elem: core::marker::PhantomData<T>,
    #[cfg(not(target_arch = "nvptx64"))]
    view: View<T>,
    #[cfg(not(target_arch = "nvptx64"))]
    index: usize,
}

impl<T: Copy + Default> SharedPtr<T> {
    /// Element `i` of `view`.
    ///
    /// # Safety
    /// `view` is a view of this block's shared memory and `i ≤ view.len()`.
    #[inline(always)]
    pub unsafe fn new(view: View<T>, i: usize) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            let addr: u32;
            // SAFETY: a generic pointer into shared memory (the caller's contract) has a shared-window
            // address, which fits 32 bits (shared memory is at most 228 KiB).
            unsafe {
                let p = view.ptr(i) as u64;
                core::arch::asm!(
                    "{{ .reg .u64 sa; cvta.to.shared.u64 sa, {p}; cvt.u32.u64 {a}, sa; }}",
                    p = in(reg64) p,
                    a = out(reg32) addr,
                    options(pure, nomem, nostack, preserves_flags)
                );
            }
            Self { addr, elem: core::marker::PhantomData }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        Self { view, index: i }
    }

    /// The shared-window byte address (host: the byte offset from the block's shared base), for the
    /// descriptors and swizzles that work on addresses.
    #[inline(always)]
    pub fn addr(self) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        {
            self.addr
        }
        #[cfg(not(target_arch = "nvptx64"))]
        // SAFETY: `index ≤ len` (`new`'s contract); only the address is formed.
        unsafe {
            (self.view.ptr(0).add(self.index) as usize - super::shared::dynamic::<u8>() as usize) as u32
        }
    }

    /// The element `n` places further on.
    #[inline(always)]
    pub fn offset(self, n: u32) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            Self { addr: self.addr + n * core::mem::size_of::<T>() as u32, elem: core::marker::PhantomData }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        Self { view: self.view, index: self.index + n as usize }
    }
}

/// [`copy16_zfill`] to a destination given as a [`SharedPtr`].
///
/// # Safety
/// As [`copy16_zfill`], for the 16 bytes at `dst`.
#[inline(always)]
#[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
pub unsafe fn copy16_zfill_at<T: Copy + Default>(dst: SharedPtr<T>, src: View<T>, si: usize, valid: bool) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: addresses in range by the caller's contract; `dst.addr` is a shared-window address, which
    // `cp.async` takes in a 32-bit register; the generic source address converts as in `copy16`.
    unsafe {
        let s = src.ptr(si) as u64;
        let bytes: u32 = if valid { 16 } else { 0 };
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {s}; cp.async.cg.shared.global [{d}], [ga], 16, {n}; }}",
            d = in(reg32) dst.addr,
            s = in(reg64) s,
            n = in(reg32) bytes,
            options(nostack, preserves_flags)
        );
    }
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded contract; the host views check every access.
    unsafe {
        copy16_zfill(dst.view, dst.index, src, si, valid)
    }
}

/// A `W`-byte copy (`W` = 4 or 8: `cp.async.ca`, the sizes below 16 go through L1) to a destination
/// given as a [`SharedPtr`], zero-filled when `!valid`: the copy for rows that are 4- or 8-byte but
/// not 16-byte aligned (a 16-bit matrix with N or K a multiple of 4 or 2 but not of 8, an `f32` one
/// with an odd N or K), which otherwise load element by element with no pipeline.
///
/// # Safety
/// As [`copy16_zfill_at`], for `W` bytes at `dst` and `src[si ..]`, both `W`-byte aligned.
#[inline(always)]
#[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
pub unsafe fn copy_narrow_zfill_at<T: Copy + Default, const W: u32>(dst: SharedPtr<T>, src: View<T>, si: usize, valid: bool) {
    const { assert!(W == 4 || W == 8) };
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: as in `copy16_zfill_at`; W is an immediate of the instruction.
    unsafe {
        let s = src.ptr(si) as u64;
        let bytes: u32 = if valid { W } else { 0 };
        if W == 8 {
            core::arch::asm!(
                "{{ .reg .u64 ga; cvta.to.global.u64 ga, {s}; cp.async.ca.shared.global [{d}], [ga], 8, {n}; }}",
                d = in(reg32) dst.addr,
                s = in(reg64) s,
                n = in(reg32) bytes,
                options(nostack, preserves_flags)
            );
        } else {
            core::arch::asm!(
                "{{ .reg .u64 ga; cvta.to.global.u64 ga, {s}; cp.async.ca.shared.global [{d}], [ga], 4, {n}; }}",
                d = in(reg32) dst.addr,
                s = in(reg64) s,
                n = in(reg32) bytes,
                options(nostack, preserves_flags)
            );
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    // SAFETY: forwarded contract; the host views check every access, and both addresses' alignment.
    unsafe {
        let n = W as usize / core::mem::size_of::<T>();
        if !(dst.view.ptr(dst.index) as usize).is_multiple_of(W as usize) || (valid && !(src.ptr(si) as usize).is_multiple_of(W as usize)) {
            super::host::out_of_bounds(format_args!("cp.async {W}-byte copy with an address not {W}-byte aligned"));
        }
        let _ = src.get(si);
        for e in 0..n {
            dst.view.set(dst.index + e, if valid { src.get(si + e) } else { T::default() });
        }
    }
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

/// `cp.async.wait_group n`: waits until at most `n` of this thread's committed copy groups are still
/// in flight (the older ones have landed). A pipeline of `S` stages waits with `n = S - 2`: the tile
/// about to be computed has arrived while the next `S - 2` keep loading. Follow it with `sync_threads`
/// before other threads read the data.
///
/// PTX takes `n` as an immediate, so `n` must be a constant after inlining (the kernels pass a
/// const-generic expression); `n > 3` waits for everything, which is stricter and still correct.
#[inline(always)]
pub fn wait_pending(n: u32) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: immediates only; each blocks this thread until enough of its copies landed (the asm is
    // a memory clobber, so the compiler does not move shared-memory reads above it).
    unsafe {
        use core::arch::asm;
        match n {
            0 => asm!("cp.async.wait_group 0;", options(nostack, preserves_flags)),
            1 => asm!("cp.async.wait_group 1;", options(nostack, preserves_flags)),
            2 => asm!("cp.async.wait_group 2;", options(nostack, preserves_flags)),
            3 => asm!("cp.async.wait_group 3;", options(nostack, preserves_flags)),
            _ => asm!("cp.async.wait_all;", options(nostack, preserves_flags)),
        }
    }
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = n;
}
