//! Conversions to FP8 (E4M3, E5M2) on the GPU: `f32` or BF16 in, one byte out per element, rounded
//! to nearest even and saturated to the format's largest finite value (NVIDIA's SATFINITE, what
//! cuBLASLt's FP8 recipes feed the tensor cores). One thread converts a pair of elements with one
//! `cvt.rn.satfinite.*x2.f32` ([`crate::device::math::f32x2_to_e4m3x2`]) and stores both bytes;
//! an odd last element is converted beside a zero and stored alone.
use crate::device::math::{bf16_to_f32, f32x2_to_e4m3x2, f32x2_to_e5m2x2};
use crate::device::{mem::View, thread};

/// Threads per block the host launches.
pub const BLOCK: u32 = 256;

/// Elements one thread converts.
pub const PER_THREAD: usize = 2;

/// The pair of thread `index_1d()`: `load(i)` for both elements, converted by `pack`, stored in `dst`.
///
/// # Safety
/// `dst` holds `n` bytes; `load(i)` is valid for `i < n`.
#[inline(always)]
unsafe fn convert_pair(load: impl Fn(usize) -> f32, pack: impl Fn(f32, f32) -> u16, dst: *mut u8, n: usize) {
    let first = PER_THREAD * thread::index_1d();
    if first >= n {
        return;
    }
    // SAFETY: dst holds n bytes (the contract).
    let out = unsafe { View::new(dst, n) };
    let pair = first + 1 < n;
    let word = pack(load(first), if pair { load(first + 1) } else { 0.0 });
    // SAFETY: first < n, and first + 1 < n where the second byte is stored.
    unsafe {
        out.set(first, word as u8);
        if pair {
            out.set(first + 1, (word >> 8) as u8);
        }
    }
}

macro_rules! fp8_entry {
    ($name:ident, $src:ty, $widen:expr, $pack:ident, $doc:literal) => {
        kernel! {
            #[doc = $doc]
            ///
            /// **Thread mapping**: elements `2t` and `2t + 1` for thread `t` (`index_1d`); threads past
            /// `n` do nothing, so any grid of at least `⌈n / 2⌉` threads is correct.
            ///
            /// # Safety
            /// `src` holds `n` elements, `dst` `n` bytes.
            pub unsafe fn $name(src: *const $src, dst: *mut u8, n: usize) {
                // SAFETY: the caller passes `n` elements.
                let src = unsafe { View::from_const(src, n) };
                // SAFETY: the contract; `convert_pair` reads below `n` only.
                unsafe { convert_pair(|i| $widen(src.get(i)), $pack, dst, n) }
            }
        }
    };
}

fp8_entry!(f32_to_e4m3, f32, |x: f32| x, f32x2_to_e4m3x2, "`dst[i]` = `src[i]` (`f32`) as FP8 E4M3 (nearest even, saturated to ±448).");
fp8_entry!(f32_to_e5m2, f32, |x: f32| x, f32x2_to_e5m2x2, "`dst[i]` = `src[i]` (`f32`) as FP8 E5M2 (nearest even, saturated to ±57344).");
fp8_entry!(bf16_to_e4m3, u16, bf16_to_f32, f32x2_to_e4m3x2, "`dst[i]` = `src[i]` (BF16 bits, widened exactly) as FP8 E4M3.");
fp8_entry!(bf16_to_e5m2, u16, bf16_to_f32, f32x2_to_e5m2x2, "`dst[i]` = `src[i]` (BF16 bits, widened exactly) as FP8 E5M2.");
