//! The GEMM epilogue: `C = α·T + β·C` over a strided `C`, reading the product `T` (dense, possibly
//! transposed) that a matmul kernel wrote into scratch memory, and the scaling pass `C = β·C` for the
//! GEMMs with nothing to multiply (`α = 0` or `K = 0`); with a bias and an activation, or a 16-bit
//! `C`, the `gemm_finish_*` entries (`D = act(α·T + β·C + bias)`, rounded once).
//!
//! BLAS semantics, kept here on the device: with `β = 0`, `C` is not read (NaN or infinity in it does
//! not propagate); `T` is `f32` (all of tessera's products accumulate in `f32`).
use crate::activation::Fused;
use crate::device::math::{bf16_to_f32, f16_to_f32, f32_to_bf16_bits, f32_to_f16_bits, fma};
use crate::device::mem::View;
use crate::device::thread::{block_idx_x, block_idx_y, grid_dim_x, grid_dim_y, thread_idx_x, thread_idx_y};
use crate::pack::{for_each_element, ROWS, TILE};

/// Threads per block of both kernels (the pack kernels' tile walk).
pub const BLOCK: (u32, u32) = crate::pack::BLOCK;

/// Dynamic shared memory of an epilogue launch: one padded `f32` tile.
pub const SHARED_BYTES: u32 = crate::pack::shared_bytes(4);

/// `α·t + β·c` with `c` not read when `β = 0`: one rounding for the product `β·c` and one for the FMA.
#[inline(always)]
pub fn combine(alpha: f32, t: f32, beta: f32, c: impl FnOnce() -> f32) -> f32 {
    if beta == 0.0 {
        alpha * t
    } else {
        fma(alpha, t, beta * c())
    }
}

kernel! {
    /// `C[r·ldc + c] = α·T(r, c) + β·C[r·ldc + c]` for the `m × n` matrix `C` (row-major, rows `ldc`
    /// apart), where `T(r, c)` is `t[r·n + c]`, or `t[c·m + r]` when `t_transposed != 0` (the product
    /// was computed as `Tᵀ = op(B)ᵀ·op(A)ᵀ`, the cheaper form for some transposes). With `β = 0`, `C`
    /// is written without being read.
    ///
    /// **Tiling**: the pack kernels' walk ([`for_each_element`]): stores along rows of `C`, and a
    /// transposed `T` goes through the padded shared tile, so both global sides stay coalesced.
    ///
    /// # Safety
    /// `t` is valid for `m·n` floats; `c` for `c_len ≥ (m-1)·ldc + n` floats (when `m, n > 0`), with
    /// `ldc ≥ n`, not overlapping `t`; the launch has [`BLOCK`] threads and [`SHARED_BYTES`] of dynamic
    /// shared memory.
    #[allow(clippy::too_many_arguments)] // the kernel's parameters are its launch ABI
    pub unsafe fn gemm_epilogue(t: *const f32, c: *mut f32, c_len: usize, m: u32, n: u32, ldc: usize, t_transposed: u32, alpha: f32, beta: f32) {
        let transposed = t_transposed != 0;
        // SAFETY: the caller's lengths.
        let (t, cv) = unsafe { (View::from_const(t, m as usize * n as usize), View::new(c, c_len)) };
        // T as a source matrix of the walk: m × n with rows n apart, or its transpose (n × m, rows m apart).
        let ld_t = if transposed { m as usize } else { n as usize };
        // SAFETY: T holds m·n floats, exactly what the walk reads for either orientation; each (r, c)
        // is stored once at r·ldc + c ≤ (m-1)·ldc + n - 1 < c_len; uniform arguments, the launch as stated.
        unsafe {
            for_each_element(t, ld_t, transposed, m, n, |r, col, v| {
                let at = r as usize * ldc + col as usize;
                cv.set(at, combine(alpha, v, beta, || cv.get(at)))
            })
        }
    }
}

kernel! {
    /// `C[r·ldc + c] = β·C[r·ldc + c]` over the `m × n` row-major `C`, and `C = 0` without reading it
    /// when `β = 0`: the whole GEMM when `α = 0` or `K = 0`, and the `α` scaling of a product that a
    /// matmul kernel wrote straight into `C`.
    ///
    /// **Thread mapping**: the epilogue's tiles, without the shared tile: each element once.
    ///
    /// # Safety
    /// `c` is valid for `c_len ≥ (m-1)·ldc + n` floats (when `m, n > 0`), `ldc ≥ n`; the launch has
    /// [`BLOCK`] threads.
    pub unsafe fn gemm_scale(c: *mut f32, c_len: usize, m: u32, n: u32, ldc: usize, beta: f32) {
        // SAFETY: the caller's length.
        let cv = unsafe { View::new(c, c_len) };
        let (tx, ty) = (thread_idx_x(), thread_idx_y());
        let mut tr = block_idx_y();
        while tr < m.div_ceil(TILE) {
            let mut tc = block_idx_x();
            while tc < n.div_ceil(TILE) {
                let mut i = 0;
                while i < TILE {
                    let (r, col) = (tr * TILE + ty + i, tc * TILE + tx);
                    if r < m && col < n {
                        let at = r as usize * ldc + col as usize;
                        // SAFETY: r < m and col < n, so `at` ≤ (m-1)·ldc + n - 1 < c_len.
                        unsafe { cv.set(at, if beta == 0.0 { 0.0 } else { beta * cv.get(at) }) };
                    }
                    i += ROWS;
                }
                tc += grid_dim_x();
            }
            tr += grid_dim_y();
        }
    }
}

/// Declares a `gemm_finish_*` entry: `D = act(α·T + β·C + bias)` into a `C` of `$elem` (read through
/// `$load`, rounded once by `$store`).
macro_rules! finish_entry {
    ($name:ident, $elem:ty, $load:expr, $store:expr, $doc:literal) => {
        kernel! {
            #[doc = $doc]
            ///
            /// `C[r·ldc + c] = act(α·T(r, c) + β·C[r·ldc + c] + bias)` over the `m × n` row-major `C`
            /// (rows `ldc` apart), `T` as [`gemm_epilogue`] reads it (`t_transposed`), the bias and the
            /// activation named by `code` (`crate::activation`: per column `n` values, per row `m`);
            /// with `β = 0`, `C` is not read. The sum is formed in `f32` and rounded once into `C`'s type.
            ///
            /// # Safety
            /// As [`gemm_epilogue`] with `C` of this entry's element type, and `bias` valid for the
            /// values `code` needs (null without a bias).
            #[allow(clippy::too_many_arguments)] // the kernel's parameters are its launch ABI
            pub unsafe fn $name(
                t: *const f32,
                c: *mut $elem,
                c_len: usize,
                m: u32,
                n: u32,
                ldc: usize,
                t_transposed: u32,
                alpha: f32,
                beta: f32,
                bias: *const f32,
                code: u32,
            ) {
                let transposed = t_transposed != 0;
                // SAFETY: the caller's lengths; the bias as `code` needs it.
                let (t, cv, fused) =
                    unsafe { (View::from_const(t, m as usize * n as usize), View::new(c, c_len), Fused::new(bias, code, m, n)) };
                let ld_t = if transposed { m as usize } else { n as usize };
                let (load, store): (fn($elem) -> f32, fn(f32) -> $elem) = ($load, $store);
                // SAFETY: as in `gemm_epilogue`; (r, col) < (m, n), the bias's range.
                unsafe {
                    for_each_element(t, ld_t, transposed, m, n, |r, col, v| {
                        let at = r as usize * ldc + col as usize;
                        let sum = combine(alpha, v, beta, || load(cv.get(at)));
                        cv.set(at, store(fused.apply(sum, r, col)))
                    })
                }
            }
        }
    };
}

finish_entry!(gemm_finish_f32, f32, |x| x, |x| x, "The GEMM epilogue with a bias and an activation, into an `f32` `C`.");
finish_entry!(
    gemm_finish_bf16,
    u16,
    bf16_to_f32,
    f32_to_bf16_bits,
    "The GEMM epilogue with a bias and an activation, into a BF16 `C` (its bits)."
);
finish_entry!(
    gemm_finish_f16,
    u16,
    f16_to_f32,
    f32_to_f16_bits,
    "The GEMM epilogue with a bias and an activation, into an FP16 `C` (its bits)."
);
