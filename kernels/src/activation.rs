//! The fused epilogue of the matmul kernels that take one (kernel 25): `D = act(α·A·B + bias)`, applied
//! to each `f32` sum once, before the store — no second pass over `C`.
//!
//! A launch names it by one code word: the activation in bits 0–7 ([`IDENTITY`], [`RELU`],
//! [`GELU_TANH`], [`GELU_ERF`], [`SILU`]), the bias in bits 8–9 ([`BIAS_NONE`], [`BIAS_PER_COLUMN`]: one
//! per output column, `n` of them, [`BIAS_PER_ROW`]: one per output row, `m`). The functions are
//! plain Rust on `tessera_device::math` (erf and exp from `exp2` and `rcp`: one `ex2.approx` and one
//! `rcp.approx` on the GPU, `f32::exp2` and a division on the host): the GPU and the CPU executor run
//! the same code. GELU's tanh form is computed as `x/(1 + e^(−2u))`, the same function without a
//! `tanh` (and its division).
use crate::device::math::{erf, exp, exp2, fma, rcp};
use crate::device::mem::View;

/// `act(x) = x`.
pub const IDENTITY: u32 = 0;
/// `max(x, 0)` (NaN stays NaN).
pub const RELU: u32 = 1;
/// GELU, tanh form: `x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³)))` (PyTorch's `approximate="tanh"`).
pub const GELU_TANH: u32 = 2;
/// GELU, exact form: `x/2 · (1 + erf(x/√2))` (PyTorch's default).
pub const GELU_ERF: u32 = 3;
/// SiLU (swish): `x / (1 + e⁻ˣ)`.
pub const SILU: u32 = 4;
/// The largest activation code.
pub const LAST_ACTIVATION: u32 = SILU;

/// No bias.
pub const BIAS_NONE: u32 = 0;
/// One bias per output column (a linear layer's).
pub const BIAS_PER_COLUMN: u32 = 1 << 8;
/// One bias per output row.
pub const BIAS_PER_ROW: u32 = 2 << 8;
/// The bias bits of a code.
pub const BIAS_MASK: u32 = 3 << 8;

/// `act` (a code of this module) applied to `x`; an unknown code leaves `x` (the host refuses them).
/// Not inlined: one copy of the functions per module, called once per output element, rather than
/// one per element of every unrolled epilogue (with `libm`'s, inlined, the sm_90a module grew from 12
/// to 49 MB) — for epilogues applied to registers few enough to stay live across the call (kernel
/// 25's 64 accumulators a thread).
#[inline(never)]
pub fn activate(act: u32, x: f32) -> f32 {
    activate_inline(act, x)
}

/// [`activate`], inlined: for epilogues applied while many accumulators are live (kernel 27's
/// 128-column tiles keep up to 112 of them across each element's activation), where a call makes
/// ptxas save every live register around it (measured: 13 KB of spills at 128×256).
#[inline(always)]
pub fn activate_inline(act: u32, x: f32) -> f32 {
    match act {
        RELU => {
            if x < 0.0 {
                0.0
            } else {
                x
            }
        }
        GELU_TANH => {
            // ½(1 + tanh u) = 1/(1 + e^(−2u)), u = √(2/π)·(x + 0.044715·x³): one ex2, one rcp. −2·√(2/π)·log₂e:
            const K: f32 = -2.302_208_2;
            x * rcp(1.0 + exp2(K * x * fma(0.044_715 * x, x, 1.0)))
        }
        GELU_ERF => 0.5 * x * (1.0 + erf(x * core::f32::consts::FRAC_1_SQRT_2)),
        SILU => x * rcp(1.0 + exp(-x)),
        _ => x,
    }
}

/// A launch's epilogue: its code and its bias vector.
#[derive(Clone, Copy)]
pub struct Fused {
    bias: View<f32>,
    code: u32,
}

impl Fused {
    /// The epilogue of `code` over a `m × n` output, `bias` holding its `n` (per column) or `m` (per
    /// row) values, or null without a bias.
    ///
    /// # Safety
    /// `bias` is valid for the values `code`'s bias kind needs.
    #[inline(always)]
    pub unsafe fn new(bias: *const f32, code: u32, m: u32, n: u32) -> Self {
        let len = match code & BIAS_MASK {
            BIAS_PER_COLUMN => n,
            BIAS_PER_ROW => m,
            _ => 0,
        };
        // SAFETY: the caller's contract (len 0 reads nothing).
        Fused { bias: unsafe { View::from_const(bias, len as usize) }, code }
    }

    /// The identity: no bias, no activation.
    #[inline(always)]
    pub fn none() -> Self {
        // SAFETY: no bias is read.
        unsafe { Self::new(core::ptr::null(), 0, 0, 0) }
    }

    /// Whether it changes anything (a code of 0: identity without a bias).
    #[inline(always)]
    pub fn is_identity(self) -> bool {
        self.code == 0
    }

    /// `act(v + bias)` for the output element `(row, col)`, which must lie inside the output (the
    /// kernels apply it to stored elements only, or clamp).
    ///
    /// # Safety
    /// `row < m` and `col < n` of [`Fused::new`].
    #[inline(always)]
    pub unsafe fn apply(self, v: f32, row: u32, col: u32) -> f32 {
        // SAFETY: the caller's contract.
        let b = unsafe { self.bias_at(row, col) };
        activate(self.code & 0xFF, v + b)
    }

    /// The activation alone, inlined ([`activate_inline`] of this epilogue's code).
    #[inline(always)]
    pub fn activate_inline(self, x: f32) -> f32 {
        activate_inline(self.code & 0xFF, x)
    }

    /// The biases of columns `col .. col + W` where the bias is per column, zeros otherwise: what a
    /// thread storing the same columns of many rows reads once.
    ///
    /// # Safety
    /// `col + W <= n` of [`Fused::new`] where the bias is per column.
    #[inline(always)]
    pub unsafe fn column_bias<const W: usize>(self, col: u32) -> [f32; W] {
        if self.code & BIAS_MASK != BIAS_PER_COLUMN {
            return [0.0; W];
        }
        // SAFETY: in range by the caller's contract.
        core::array::from_fn(|i| unsafe { self.bias.get(col as usize + i) })
    }

    /// The bias of row `row` where the bias is per row, 0 otherwise.
    ///
    /// # Safety
    /// `row < m` of [`Fused::new`] where the bias is per row.
    #[inline(always)]
    pub unsafe fn row_bias(self, row: u32) -> f32 {
        if self.code & BIAS_MASK != BIAS_PER_ROW {
            return 0.0;
        }
        // SAFETY: in range by the caller's contract.
        unsafe { self.bias.get(row as usize) }
    }

    /// The bias of `(row, col)` (0 without one).
    ///
    /// # Safety
    /// As [`Fused::apply`].
    #[inline(always)]
    unsafe fn bias_at(self, row: u32, col: u32) -> f32 {
        // SAFETY: the index is in range (the caller's contract) for the bias kind of the code.
        unsafe {
            match self.code & BIAS_MASK {
                BIAS_PER_COLUMN => self.bias.get(col as usize),
                BIAS_PER_ROW => self.bias.get(row as usize),
                _ => 0.0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activations_match_their_definitions() {
        for x in [-6.0f32, -1.5, -0.3, 0.0, 0.25, 1.0, 3.7] {
            let xd = f64::from(x);
            assert_eq!(activate(IDENTITY, x), x);
            assert_eq!(activate(RELU, x), x.max(0.0));
            let gelu_tanh = 0.5 * xd * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (xd + 0.044715 * xd.powi(3))).tanh());
            assert!((f64::from(activate(GELU_TANH, x)) - gelu_tanh).abs() <= 1e-6 * (1.0 + xd.abs()), "{x}");
            let silu = xd / (1.0 + (-xd).exp());
            assert!((f64::from(activate(SILU, x)) - silu).abs() <= 1e-6 * (1.0 + xd.abs()), "{x}");
        }
        // GELU (erf) at points of known value: Φ(1) = 0.841344746…, Φ(−1) = 0.158655254….
        assert!((f64::from(activate(GELU_ERF, 1.0)) - 0.841_344_746).abs() < 1e-6);
        assert!((f64::from(activate(GELU_ERF, -1.0)) + 0.158_655_254).abs() < 1e-6);
        assert!(activate(RELU, f32::NAN).is_nan());
    }

    #[test]
    fn biases_index_columns_or_rows() {
        let bias = [10.0f32, 20.0, 30.0];
        // SAFETY: three values, n = 3 columns / m = 3 rows.
        let (col, row) =
            unsafe { (Fused::new(bias.as_ptr(), BIAS_PER_COLUMN | RELU, 2, 3), Fused::new(bias.as_ptr(), BIAS_PER_ROW, 3, 2)) };
        // SAFETY: in range.
        unsafe {
            assert_eq!(col.apply(-15.0, 1, 2), 15.0);
            assert_eq!(col.apply(-15.0, 1, 0), 0.0);
            assert_eq!(row.apply(1.0, 2, 0), 31.0);
        }
        // SAFETY: no bias.
        assert!(unsafe { Fused::new(core::ptr::null(), 0, 4, 4) }.is_identity());
    }
}
