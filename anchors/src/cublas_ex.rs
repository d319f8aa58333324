//! cuBLAS GEMMs with f32 output and f32 accumulation through `cublasGemmEx`: the same-precision
//! baselines for tessera's tensor-core kernels, one per [`Precision`]:
//!
//! | method | A, B | C | compute type |
//! |---|---|---|---|
//! | [`Cublas::gemm_f32`] | `CUDA_R_32F` | `CUDA_R_32F` | `CUBLAS_COMPUTE_32F` (no TF32: the handle's math mode is the default) |
//! | [`Cublas::gemm_tf32`] | `CUDA_R_32F` | `CUDA_R_32F` | `CUBLAS_COMPUTE_32F_FAST_TF32` |
//! | [`Cublas::gemm_bf16`] | `CUDA_R_16BF` | `CUDA_R_32F` | `CUBLAS_COMPUTE_32F` |
//! | [`Cublas::gemm_f16`] | `CUDA_R_16F` | `CUDA_R_32F` | `CUBLAS_COMPUTE_32F` |
//!
//! All take row-major `A` (m×k), `B` (k×n), `C` (m×n) in [`DeviceBuffer`]s of exactly that many
//! elements, `α = 1`, `β = 0`, and `CUBLAS_GEMM_DEFAULT` (cuBLAS picks the kernel; for 16-bit inputs
//! it uses tensor cores whenever the shapes and alignments allow). cudarc 0.19's safe `Gemm` trait
//! has no mixed-type GEMM (its `f16`/`bf16` impls write C in the input type), so these call
//! `cudarc::cublas::result::gemm_ex` directly.
use std::ffi::{c_int, c_void};

use cudarc::cublas::{result as blas_result, sys as blas_sys};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut, DeviceRepr, ValidAsZeroBits};
use half::{bf16, f16};
use tessera::DeviceBuffer;

use crate::{AnchorError, Cublas, Precision, Result};

/// The validated dimensions of one GEMM: `A` is m×k, `B` k×n, `C` m×n, all row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GemmDims {
    pub m: usize,
    pub n: usize,
    pub k: usize,
}

impl GemmDims {
    /// Checks `m, n, k` against the element counts of `A`, `B` and `C` (`lens`), before anything
    /// touches the GPU.
    ///
    /// Errors (as [`AnchorError::Tessera`]): [`tessera::Error::TooLarge`] when a dimension exceeds
    /// cuBLAS's `int` or an element count overflows `usize`; [`tessera::Error::BufferTooSmall`] when a
    /// buffer holds fewer elements than its matrix; [`tessera::Error::ShapeMismatch`] when it holds more
    /// (a buffer must be exactly its matrix, so a wrong `m, n, k` cannot pass silently).
    pub fn check(op: &'static str, lens: (usize, usize, usize), m: usize, n: usize, k: usize) -> Result<Self> {
        for (name, d) in [("m", m), ("n", n), ("k", k)] {
            if d > c_int::MAX as usize {
                return Err(tessera::Error::TooLarge { op, detail: format!("{name} = {d} exceeds cuBLAS's int ({})", c_int::MAX) }.into());
            }
        }
        let (a_len, b_len, c_len) = lens;
        for (name, len, rows, cols) in [("A", a_len, m, k), ("B", b_len, k, n), ("C", c_len, m, n)] {
            let needed = rows
                .checked_mul(cols)
                .ok_or_else(|| tessera::Error::TooLarge { op, detail: format!("{name} is {rows}×{cols}: the element count overflows") })?;
            if len < needed {
                return Err(tessera::Error::BufferTooSmall { op, name, len, needed }.into());
            }
            if len > needed {
                return Err(tessera::Error::ShapeMismatch {
                    op,
                    detail: format!("`{name}` holds {len} elements but is {rows}×{cols} = {needed} (m = {m}, n = {n}, k = {k})"),
                }
                .into());
            }
        }
        Ok(Self { m, n, k })
    }

    /// Floating-point operations: one multiply and one add per `(i, j, k)`.
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
}

/// An element type `cublasGemmEx` reads for `A` and `B` (with the bounds of [`DeviceBuffer`]'s methods).
pub trait GemmExInput: DeviceRepr + ValidAsZeroBits + Default + Clone {
    const DATA_TYPE: blas_sys::cudaDataType_t;
}

impl GemmExInput for f32 {
    const DATA_TYPE: blas_sys::cudaDataType_t = blas_sys::cudaDataType_t::CUDA_R_32F;
}

impl GemmExInput for bf16 {
    const DATA_TYPE: blas_sys::cudaDataType_t = blas_sys::cudaDataType_t::CUDA_R_16BF;
}

impl GemmExInput for f16 {
    const DATA_TYPE: blas_sys::cudaDataType_t = blas_sys::cudaDataType_t::CUDA_R_16F;
}

impl Cublas {
    /// `C = A · B` (row-major), f32 inputs, plain FP32 math through `cublasGemmEx`
    /// (`CUBLAS_COMPUTE_32F`): the [`Precision::Fp32`] row, on buffers like the others.
    pub fn gemm_f32(
        &self,
        a: &DeviceBuffer<f32>,
        b: &DeviceBuffer<f32>,
        c: &mut DeviceBuffer<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        self.gemm_ex("cuBLAS gemm_f32", a, b, c, (m, n, k), blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F)
    }

    /// `C = A · B` (row-major), f32 inputs that the tensor cores may read as TF32
    /// (`CUBLAS_COMPUTE_32F_FAST_TF32`), f32 accumulation and output.
    pub fn gemm_tf32(
        &self,
        a: &DeviceBuffer<f32>,
        b: &DeviceBuffer<f32>,
        c: &mut DeviceBuffer<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        self.gemm_ex("cuBLAS gemm_tf32", a, b, c, (m, n, k), blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32)
    }

    /// `C = A · B` (row-major), `bf16` inputs, f32 accumulation (`CUBLAS_COMPUTE_32F`) and output.
    pub fn gemm_bf16(
        &self,
        a: &DeviceBuffer<bf16>,
        b: &DeviceBuffer<bf16>,
        c: &mut DeviceBuffer<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        self.gemm_ex("cuBLAS gemm_bf16", a, b, c, (m, n, k), blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F)
    }

    /// `C = A · B` (row-major), `f16` inputs, f32 accumulation (`CUBLAS_COMPUTE_32F`) and output.
    pub fn gemm_f16(
        &self,
        a: &DeviceBuffer<f16>,
        b: &DeviceBuffer<f16>,
        c: &mut DeviceBuffer<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        self.gemm_ex("cuBLAS gemm_f16", a, b, c, (m, n, k), blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F)
    }

    /// The f32-input GEMM of `precision` ([`Precision::Fp32`] or [`Precision::Tf32`]);
    /// [`tessera::Error::InvalidArgument`] for the 16-bit and 8-bit precisions, whose inputs are other types.
    #[allow(clippy::too_many_arguments)] // the arguments of gemm_f32 / gemm_tf32, plus the precision
    pub fn gemm_f32_inputs(
        &self,
        precision: Precision,
        a: &DeviceBuffer<f32>,
        b: &DeviceBuffer<f32>,
        c: &mut DeviceBuffer<f32>,
        m: usize,
        n: usize,
        k: usize,
    ) -> Result<()> {
        match precision {
            Precision::Fp32 => self.gemm_f32(a, b, c, m, n, k),
            Precision::Tf32 => self.gemm_tf32(a, b, c, m, n, k),
            Precision::Bf16 | Precision::Fp16 | Precision::Fp8E4m3 | Precision::Fp8E5m2 => Err(tessera::Error::InvalidArgument {
                op: "cuBLAS gemm_f32_inputs",
                detail: format!("{} takes {} inputs, not f32", precision.label(), precision.label()),
            }
            .into()),
        }
    }

    /// `C = A · B` through `cublasGemmEx`. cuBLAS is column-major, so this computes `Cᵀ = Bᵀ · Aᵀ`:
    /// the same memory, with the operands swapped (as [`Cublas::sgemm`]).
    fn gemm_ex<T: GemmExInput>(
        &self,
        op: &'static str,
        a: &DeviceBuffer<T>,
        b: &DeviceBuffer<T>,
        c: &mut DeviceBuffer<f32>,
        (m, n, k): (usize, usize, usize),
        compute: blas_sys::cublasComputeType_t,
    ) -> Result<()> {
        let dims = GemmDims::check(op, (a.len(), b.len(), c.len()), m, n, k)?;
        let ctx = self.stream.context();
        if !same_context(a.as_cuda_slice(), ctx) || !same_context(b.as_cuda_slice(), ctx) || !same_context(c.as_cuda_slice(), ctx) {
            return Err(tessera::Error::WrongContext { op }.into());
        }
        if dims.m == 0 || dims.n == 0 {
            return Ok(());
        }
        if dims.k == 0 {
            // An empty sum: C is zero (as tessera's kernels give). cuBLAS would need lda/ldb ≥ 1 here.
            self.stream.memset_zeros(c.as_cuda_slice_mut())?;
            return Ok(());
        }
        ctx.bind_to_thread()?;
        // Checked ≤ c_int::MAX in GemmDims::check.
        let (m, n, k) = (dims.m as c_int, dims.n as c_int, dims.k as c_int);
        let (alpha, beta) = (1.0f32, 0.0f32);
        // The stream waits for earlier writes of A, B and C; the guards record these uses when dropped
        // at the end of this function, after the GEMM is enqueued.
        let (a_ptr, _a_use) = a.as_cuda_slice().device_ptr(&self.stream);
        let (b_ptr, _b_use) = b.as_cuda_slice().device_ptr(&self.stream);
        let (c_ptr, _c_use) = c.as_cuda_slice_mut().device_ptr_mut(&self.stream);
        // SAFETY: the handle is live (owned by `self.blas`) and bound to `self.stream`, the stream the
        // pointers were prepared for; all three buffers belong to its context (checked above). In cuBLAS's
        // column-major view the first operand is Bᵀ, n×k with ld n (B holds exactly k·n elements of
        // `T::DATA_TYPE`), the second Aᵀ, k×m with ld k (A holds m·k), the output Cᵀ, n×m with ld n
        // (C holds m·n f32): GemmDims::check proved those lengths, and m, n, k ≥ 1 make every ld ≥ 1
        // and ≥ its matrix's row count, so every access is inside the buffers. α and β are f32 (the
        // scale type of both compute types) read from host memory (the handle's default pointer mode)
        // during the call, and outlive it. C does not alias A or B (`&mut` beside `&`).
        unsafe {
            blas_result::gemm_ex(
                *self.blas.handle(),
                blas_sys::cublasOperation_t::CUBLAS_OP_N,
                blas_sys::cublasOperation_t::CUBLAS_OP_N,
                n,
                m,
                k,
                (&alpha as *const f32).cast::<c_void>(),
                b_ptr as *const c_void,
                T::DATA_TYPE,
                n,
                a_ptr as *const c_void,
                T::DATA_TYPE,
                k,
                (&beta as *const f32).cast::<c_void>(),
                c_ptr as *mut c_void,
                blas_sys::cudaDataType_t::CUDA_R_32F,
                n,
                compute,
                blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(|e| AnchorError::Cublas(format!("cublasGemmEx in {op} ({}×{}×{}): {e}", dims.m, dims.n, dims.k)))
    }
}

fn same_context<T>(slice: &CudaSlice<T>, ctx: &cudarc::driver::CudaContext) -> bool {
    slice.context().cu_ctx() == ctx.cu_ctx()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OP: &str = "test";

    fn err(lens: (usize, usize, usize), m: usize, n: usize, k: usize) -> tessera::Error {
        match GemmDims::check(OP, lens, m, n, k) {
            Err(AnchorError::Tessera(e)) => e,
            other => panic!("expected a tessera error, got {other:?}"),
        }
    }

    #[test]
    fn exact_buffers_pass() {
        assert_eq!(GemmDims::check(OP, (6, 12, 8), 2, 4, 3).unwrap(), GemmDims { m: 2, n: 4, k: 3 });
        assert_eq!(GemmDims::check(OP, (6, 12, 8), 2, 4, 3).unwrap().flops(), 48.0);
    }

    #[test]
    fn empty_dimensions_pass_with_empty_buffers() {
        GemmDims::check(OP, (0, 0, 0), 0, 0, 0).unwrap();
        GemmDims::check(OP, (0, 0, 15), 3, 5, 0).unwrap(); // k = 0: C is zeroed
        GemmDims::check(OP, (0, 20, 0), 0, 5, 4).unwrap();
    }

    #[test]
    fn short_buffers_are_named() {
        for (lens, name, len, needed) in [((5, 12, 8), "A", 5, 6), ((6, 11, 8), "B", 11, 12), ((6, 12, 7), "C", 7, 8)] {
            match err(lens, 2, 4, 3) {
                tessera::Error::BufferTooSmall { op, name: got_name, len: got_len, needed: got_needed } => {
                    assert_eq!((op, got_name, got_len, got_needed), (OP, name, len, needed));
                }
                e => panic!("{lens:?}: {e:?}"),
            }
        }
    }

    #[test]
    fn long_buffers_are_a_shape_mismatch() {
        // k = 1 instead of 3: A and B are longer than their matrices.
        assert!(matches!(err((6, 12, 8), 2, 4, 1), tessera::Error::ShapeMismatch { .. }));
        assert!(matches!(err((6, 13, 8), 2, 4, 3), tessera::Error::ShapeMismatch { .. }));
        let msg = err((6, 12, 9), 2, 4, 3).to_string();
        assert!(msg.contains("`C` holds 9 elements"), "{msg}");
    }

    #[test]
    fn dimensions_beyond_int_are_too_large() {
        let big = c_int::MAX as usize + 1;
        assert!(matches!(err((0, 0, 0), big, 0, 0), tessera::Error::TooLarge { .. }));
        assert!(matches!(err((0, 0, 0), 0, 0, big), tessera::Error::TooLarge { .. }));
        // Every dimension fits int: a buffer that cannot hold the matrix is too small, not an overflow
        // (the element count overflows usize only on 32-bit targets).
        let max = c_int::MAX as usize;
        assert!(matches!(err((0, 0, 0), max, 1, 1), tessera::Error::BufferTooSmall { name: "A", needed, .. } if needed == max));
    }
}
