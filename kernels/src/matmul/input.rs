//! The input formats the CUDA-core kernels read (kernels 18, 19 and 21) and their exact values as
//! `f32`: `f32` itself, and BF16 or FP16 bit patterns widened — every BF16 and FP16 value is an
//! `f32`, so widening loses nothing and the kernels' `f32` multiply-adds compute as FP32 would.
use super::mma_ops::{Bf16, F16};
use crate::device::math::{bf16_to_f32, f16_to_f32};
use crate::device::mem::{Float4, View};

/// `f32` inputs, read as they are.
pub struct F32;

/// An input format: its element in memory, four consecutive elements as one vector load brings them
/// (16 bytes of `f32`, 8 of a 16-bit format), and their values as `f32`. Loads and widening are
/// apart so that a kernel can issue its loads, keep them in flight as bits, and widen at their use.
pub trait Input {
    /// The element as stored: `f32`, or a 16-bit pattern.
    type Elem: Copy + Default;
    /// Four consecutive elements as loaded.
    type Four: Copy + Default;

    /// Elements `i .. i + 4` of `v` in one vector load.
    ///
    /// # Safety
    /// `i + 4 ≤ v.len()` and the address of element `i` aligned to the load (4 elements: 16 bytes
    /// of `f32`, 8 of a 16-bit format; for buffers from the CUDA allocator, `i % 4 == 0`).
    unsafe fn load4(v: View<Self::Elem>, i: usize) -> Self::Four;

    /// Elements `i .. i + 8` as two fours, in 16-byte loads: one for a 16-bit format, two of `f32`.
    ///
    /// # Safety
    /// `i + 8 ≤ v.len()` and the address of element `i` 16-byte aligned (for buffers from the CUDA
    /// allocator, `i % 8 == 0` for a 16-bit format, `i % 4 == 0` for `f32`).
    unsafe fn load8(v: View<Self::Elem>, i: usize) -> [Self::Four; 2];

    /// The four elements `e` as loaded (for the guarded loads at a matrix's edge).
    fn four(e: [Self::Elem; 4]) -> Self::Four;

    /// The value of one element (`Elem::default()`, the bit pattern 0, is +0.0 in every format).
    fn value(x: Self::Elem) -> f32;

    /// The values of four elements.
    fn values(x: Self::Four) -> [f32; 4];
}

impl Input for F32 {
    type Elem = f32;
    type Four = Float4;

    #[inline(always)]
    unsafe fn load4(v: View<f32>, i: usize) -> Float4 {
        // SAFETY: the caller's contract (16-byte aligned, inside).
        unsafe { v.get4(i) }
    }

    #[inline(always)]
    unsafe fn load8(v: View<f32>, i: usize) -> [Float4; 2] {
        // SAFETY: the caller's contract (both halves 16-byte aligned, inside).
        unsafe { [v.get4(i), v.get4(i + 4)] }
    }

    #[inline(always)]
    fn four(e: [f32; 4]) -> Float4 {
        Float4(e)
    }

    #[inline(always)]
    fn value(x: f32) -> f32 {
        x
    }

    #[inline(always)]
    fn values(x: Float4) -> [f32; 4] {
        x.0
    }
}

/// Four 16-bit elements as the two 32-bit words they are in memory (little-endian: element 0 in the
/// low half of word 0), reinterpreted rather than packed: packing with shifts and ors made every
/// loaded register a use at its load, so ptxas waited for each load before issuing the next.
#[inline(always)]
fn words(e: [u16; 4]) -> [u32; 2] {
    // SAFETY: [u16; 4] and [u32; 2] have the same size and every bit pattern is valid in both.
    unsafe { core::mem::transmute::<[u16; 4], [u32; 2]>(e) }
}

/// A 16-bit format's [`Input`]: `$widen` maps a bit pattern to its value. Four elements are kept as
/// two 32-bit words (elements 0 and 1 in the first, low half first): as `[u16; 4]` across a loop, LLVM
/// put a kernel's loads in flight in local memory (kernel 19's BF16 entry: a 256-byte stack frame).
macro_rules! half_input {
    ($format:ty, $widen:path) => {
        impl Input for $format {
            type Elem = u16;
            type Four = [u32; 2];

            #[inline(always)]
            unsafe fn load4(v: View<u16>, i: usize) -> [u32; 2] {
                // SAFETY: the caller's contract (8-byte aligned, inside).
                words(unsafe { v.get4(i) }.0)
            }

            #[inline(always)]
            unsafe fn load8(v: View<u16>, i: usize) -> [[u32; 2]; 2] {
                // SAFETY: the caller's contract (16-byte aligned, inside).
                let [lo, hi]: [[u16; 4]; 2] = unsafe { core::mem::transmute(v.get8(i).0) };
                [words(lo), words(hi)]
            }

            #[inline(always)]
            fn four(e: [u16; 4]) -> [u32; 2] {
                [u32::from(e[0]) | u32::from(e[1]) << 16, u32::from(e[2]) | u32::from(e[3]) << 16]
            }

            #[inline(always)]
            fn value(x: u16) -> f32 {
                $widen(x)
            }

            #[inline(always)]
            fn values(x: [u32; 2]) -> [f32; 4] {
                let half = |w: u32, hi: bool| $widen((if hi { w >> 16 } else { w & 0xffff }) as u16);
                [half(x[0], false), half(x[0], true), half(x[1], false), half(x[1], true)]
            }
        }
    };
}

half_input!(Bf16, bf16_to_f32);
half_input!(F16, f16_to_f32);
