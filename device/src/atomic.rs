//! Atomic read-modify-write on global memory.
//!
//! core has no atomic floating-point add that the NVPTX backend accepts, so the one instruction is
//! wrapped here (`red.global.add.f32`, a reduction: it returns nothing, so the memory system need not
//! send the old value back). The host build uses a compare-and-swap loop on the element's bits.
use super::mem::View;

/// `dst[i] += value`, atomically with respect to every other thread's `add_f32` on the same element.
/// The order of concurrent additions is unspecified, so a sum of several may differ in the last bits
/// from run to run.
///
/// # Safety
/// `dst` is a view of global memory and `i < dst.len()`.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn add_f32(dst: View<f32>, i: usize, value: f32) {
    // SAFETY: in range by the caller's contract; `cvta.to.global` turns the generic address into the
    // global-space address `red.global` takes.
    unsafe {
        let p = dst.ptr(i) as u64;
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; red.global.add.f32 [ga], {v}; }}",
            p = in(reg64) p,
            v = in(reg32) value,
            options(nostack, preserves_flags)
        );
    }
}

/// Host build of [`add_f32`]: a compare-and-swap loop on the element's bits.
///
/// # Safety
/// As the GPU version (`i` is checked).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn add_f32(dst: View<f32>, i: usize, value: f32) {
    use core::sync::atomic::{AtomicU32, Ordering};
    // SAFETY: `ptr` checks `i < len`; the element is a valid, 4-byte aligned f32 that other threads
    // only touch through this function while the kernel runs.
    let cell = unsafe { AtomicU32::from_ptr(dst.ptr(i).cast::<u32>()) };
    let _ = cell.try_update(Ordering::Relaxed, Ordering::Relaxed, |bits| Some((f32::from_bits(bits) + value).to_bits()));
}

/// `dst[i] += values[0]` and `dst[i + 1] += values[1]` in one 8-byte reduction
/// (`red.global.add.v2.f32`, sm_90, PTX 8.1): half the atomic operations of two [`add_f32`] — the
/// L2's atomic units, not the bytes, bound a split-K epilogue. Each element atomically as
/// [`add_f32`].
///
/// # Safety
/// `dst` is a view of global memory, `i + 1 < dst.len()` and `i` is even (8-byte aligned: `dst`
/// starts on an 8-byte boundary, as every allocation does).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn add_f32x2(dst: View<f32>, i: usize, values: [f32; 2]) {
    // SAFETY: in range and 8-byte aligned by the caller's contract; `cvta.to.global` as in `add_f32`.
    unsafe {
        let p = dst.ptr(i) as u64;
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; red.global.add.v2.f32 [ga], {{{v0}, {v1}}}; }}",
            p = in(reg64) p,
            v0 = in(reg32) values[0],
            v1 = in(reg32) values[1],
            options(nostack, preserves_flags)
        );
    }
}

/// Host build of [`add_f32x2`]: two [`add_f32`]s (each element atomic; the pair as a whole is not,
/// on the GPU either), after checking the alignment the instruction needs.
///
/// # Safety
/// As the GPU version (`i + 1` is checked; an odd `i` panics).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn add_f32x2(dst: View<f32>, i: usize, values: [f32; 2]) {
    assert!(i.is_multiple_of(2), "add_f32x2 at odd index {i}: not 8-byte aligned");
    // SAFETY: forwarded contract; `ptr` checks each index.
    unsafe {
        add_f32(dst, i, values[0]);
        add_f32(dst, i + 1, values[1]);
    }
}

/// `dst[i + j] += values[j]` for `j` in `0..4` in one 16-byte reduction (`red.global.add.v4.f32`,
/// sm_90, PTX 8.1): a quarter of the atomic operations of four [`add_f32`] — split-K's epilogue is
/// bound by the L2's atomic operations, not its bytes (`docs/ladder/k10-split-k.md`). Each element
/// atomically as [`add_f32`]; the four as a whole are not.
///
/// # Safety
/// `dst` is a view of global memory, `i + 3 < dst.len()` and `i` is a multiple of 4 (16-byte aligned:
/// `dst` starts on a 16-byte boundary, as every allocation does).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn add_f32x4(dst: View<f32>, i: usize, values: [f32; 4]) {
    // SAFETY: in range and 16-byte aligned by the caller's contract; `cvta.to.global` as in `add_f32`.
    unsafe {
        let p = dst.ptr(i) as u64;
        core::arch::asm!(
            "{{ .reg .u64 ga; cvta.to.global.u64 ga, {p}; red.global.add.v4.f32 [ga], {{{v0}, {v1}, {v2}, {v3}}}; }}",
            p = in(reg64) p,
            v0 = in(reg32) values[0],
            v1 = in(reg32) values[1],
            v2 = in(reg32) values[2],
            v3 = in(reg32) values[3],
            options(nostack, preserves_flags)
        );
    }
}

/// Host build of [`add_f32x4`]: four [`add_f32`]s, after checking the alignment the instruction needs.
///
/// # Safety
/// As the GPU version (`i + 3` is checked; an `i` not a multiple of 4 panics).
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn add_f32x4(dst: View<f32>, i: usize, values: [f32; 4]) {
    assert!(i.is_multiple_of(4), "add_f32x4 at index {i}: not 16-byte aligned");
    for (j, v) in values.into_iter().enumerate() {
        // SAFETY: forwarded contract; `ptr` checks each index.
        unsafe { add_f32(dst, i + j, v) }
    }
}
