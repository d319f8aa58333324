//! Kernel 29: kernel 8 finishing its sums in its store — `D = act(α·A·B + bias)`, `D` in `f32`, BF16
//! or FP16 — for FP32 on the CUDA cores: kernel 27's epilogue for the precision without tensor cores.
//!
//! Kernel 8's main loop, unchanged (`k08_double_buffer::accumulate`); then each thread finishes its
//! 64 accumulators where they are — a thread holds 8×8 outputs of the 128×128 tile, whose rows and
//! columns `k07_warptile::thread_origin` gives — and stores them: four consecutive columns at once
//! (16 bytes of `f32`, 8 of a 16-bit type) where they lie inside `C` and `N` is a multiple of 4,
//! element by element otherwise. The activation is a call (`activation::activate`): 64 accumulators
//! stay live across it without spilling, as in kernel 25.
use super::k07_warptile::{thread_origin, WSUB_M, WSUB_N};
use super::k08_double_buffer::{self, accumulate};
use crate::activation::Fused;
use crate::device::math::{f32_to_bf16_bits, f32_to_f16_bits, f32x4_to_bf16x4, f32x4_to_f16x4};
use crate::device::mem::{Float4, Half4, View};
use crate::device::thread;
use crate::launch::TileConfig;
use crate::matmul::k27_fused::out;

/// The launch of [`matmul_fused_f32_128x128x16`]: kernel 8's 128×128×16 tile, finishing its sums.
pub const FUSED_F32_128X128X16: TileConfig = k08_double_buffer::DBUF_128X128X16.fused_epilogue();

kernel! {
    /// Kernel 29: kernel 8's 128×128×16 tile (FP32), each sum finished in the store: `act(α·sum +
    /// bias)`, `C` in `f32`, BF16 or FP16 (`out`, `k27_fused::out`'s codes).
    ///
    /// # Safety
    /// As kernel 8's entries, with `c` holding `m·n` elements of `out`'s type and `bias` what
    /// `epilogue`'s bias kind needs (`Fused::new`).
    #[allow(clippy::too_many_arguments)] // the entry's parameters are its ABI, one per launch argument
    #[allow(clippy::needless_range_loop)] // the indices also compute the output rows and columns (as kernel 7's `store_acc`)
    pub unsafe fn matmul_fused_f32_128x128x16(a: *const f32, b: *const f32, c: *mut f32, m: u32, n: u32, k: u32, alpha: f32, out: u32, bias: *const f32, epilogue: u32) {
        const BM: u32 = 128;
        const BN: u32 = 128;
        const WMI: usize = 2;
        const WNI: usize = 2;
        // SAFETY: the caller's lengths (C as floats is not read: its views are made below).
        let (av, bv) = unsafe { (View::from_const(a, (m * k) as usize), View::from_const(b, (k * n) as usize)) };
        // SAFETY: the bias as the caller states.
        let fused = unsafe { Fused::new(bias, epilogue, m, n) };
        let (row0, col0) = (thread::block_idx_y() * BM, thread::block_idx_x() * BN);
        // SAFETY: kernel 8's contract, the whole K range.
        let acc = unsafe { accumulate::<BM, BN, 16, { BM + 4 }, WMI, WNI, 256, 2, 2, 16>(av, bv, m, n, k, (row0, col0), (0, k)) };
        let (ar, bc) = thread_origin::<BN, WMI, WNI>(thread::thread_idx_x());
        let len = (m * n) as usize;
        // SAFETY: C holds m·n elements of `out`'s type (the caller's): one of these views is written.
        let (c32, c16) = unsafe { (View::new(c, len), View::new(c.cast::<u16>(), len)) };
        let whole = n.is_multiple_of(4);
        for wm in 0..WMI {
            for i in 0..4 {
                let row = row0 + ar + wm as u32 * WSUB_M + i as u32;
                for wn in 0..WNI {
                    let col = col0 + bc + wn as u32 * WSUB_N;
                    if row >= m {
                        continue;
                    }
                    let v = acc[wm][i][wn];
                    if whole && col + 4 <= n {
                        // SAFETY: row < m and col + 3 < n: in range of the bias; C's four elements
                        // in range, 4-element aligned (n and col multiples of 4).
                        unsafe {
                            let v = [0, 1, 2, 3].map(|j| fused.apply(alpha * v[j], row, col + j as u32));
                            let at = (row * n + col) as usize;
                            match out {
                                out::BF16 => c16.set4(at, Half4(f32x4_to_bf16x4(v))),
                                out::F16 => c16.set4(at, Half4(f32x4_to_f16x4(v))),
                                _ => c32.set4(at, Float4(v)),
                            }
                        }
                        continue;
                    }
                    for (j, &x) in v.iter().enumerate() {
                        let col = col + j as u32;
                        if col < n {
                            // SAFETY: row < m, col < n.
                            unsafe {
                                let y = fused.apply(alpha * x, row, col);
                                let at = (row * n + col) as usize;
                                match out {
                                    out::BF16 => c16.set(at, f32_to_bf16_bits(y)),
                                    out::F16 => c16.set(at, f32_to_f16_bits(y)),
                                    _ => c32.set(at, y),
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
