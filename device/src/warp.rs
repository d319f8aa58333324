//! Warp shuffles: a lane reads a register of another lane of its warp (`shfl.sync`, sm_30+), the
//! building block of warp reductions. On the host the lanes meet in the executor's warp exchange.
//!
//! Every function here is warp-collective with the full mask: all 32 lanes of the warp call it
//! together, converged (never inside a branch some lanes skip, never in a partial warp).

/// `__shfl_xor_sync(0xffffffff, value, lane_mask)`: the `value` of lane `lane ^ lane_mask`
/// (`shfl.sync.bfly.b32`). With masks 16, 8, 4, 2, 1 every lane ends with the whole warp's reduction.
///
/// # Safety
/// All 32 lanes of the warp call it, converged, with the same `lane_mask` (< 32).
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub unsafe fn shfl_xor_u32(value: u32, lane_mask: u32) -> u32 {
    let out: u32;
    // SAFETY: registers only; the warp's convergence is the caller's contract.
    unsafe {
        core::arch::asm!(
            "shfl.sync.bfly.b32 {o}, {v}, {m}, 0x1f, -1;",
            o = out(reg32) out, v = in(reg32) value, m = in(reg32) lane_mask,
            options(nomem, nostack, preserves_flags)
        );
    }
    out
}

/// `__shfl_xor_sync` on the host: the lanes deposit their values in the warp exchange, each reads its
/// partner's (a lane that never arrives is reported, not waited for).
///
/// # Safety
/// As the GPU version.
#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
#[track_caller]
pub unsafe fn shfl_xor_u32(value: u32, lane_mask: u32) -> u32 {
    let mut words = [0; super::host::LANE_WORDS];
    words[0] = value;
    words[1] = lane_mask;
    let (lane, all) = super::host::warp_exchange("shfl_xor", words);
    if all.iter().any(|w| w[1] != lane_mask) || lane_mask >= 32 {
        super::host::out_of_bounds(format_args!("shfl_xor: the lanes of a warp gave different masks (or one ≥ 32): {lane_mask}"));
    }
    all[lane ^ lane_mask as usize][0]
}

/// [`shfl_xor_u32`] of an `f32` (its bits move unchanged).
///
/// # Safety
/// As [`shfl_xor_u32`].
#[inline(always)]
#[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
pub unsafe fn shfl_xor_f32(value: f32, lane_mask: u32) -> f32 {
    // SAFETY: forwarded contract.
    f32::from_bits(unsafe { shfl_xor_u32(value.to_bits(), lane_mask) })
}

/// `op` over the 32 lanes' `value`s, returned to every lane: five butterfly shuffles. `op` must be
/// associative and commutative (max, min, a sum — whose rounding then follows the butterfly's order).
///
/// # Safety
/// As [`shfl_xor_u32`]: the whole warp, converged.
#[inline(always)]
#[cfg_attr(not(target_arch = "nvptx64"), track_caller)]
pub unsafe fn reduce_f32(value: f32, op: impl Fn(f32, f32) -> f32) -> f32 {
    let mut v = value;
    let mut mask = 16;
    while mask > 0 {
        // SAFETY: forwarded contract; the mask is the same on every lane.
        v = op(v, unsafe { shfl_xor_f32(v, mask) });
        mask /= 2;
    }
    v
}
