//! cuBLAS's GEMM on tessera's matrix views: `C = α·op(A)·op(B) + β·C` through `cublasGemmEx` with its
//! own transposes and leading dimensions — the baseline each transposed or column-major
//! `tessera::Gpu::gemm` variant is measured against (same views, same scalars, same precision).
//!
//! cuBLAS is column-major. A row-major view with leading dimension `ld` is, to cuBLAS, the
//! column-major transpose with the same `ld`, so each operand's cuBLAS operation is its transpose
//! flag flipped when it is row-major; a row-major `C` is handled as `Cᵀ = op(B)ᵀ·op(A)ᵀ`.
use std::ffi::{c_int, c_void};

use cudarc::cublas::{result as blas_result, sys as blas_sys};
use cudarc::driver::{DevicePtr, DevicePtrMut};
use tessera::catalogue::plan::gemm::{GemmArgs, GemmPlan};
use tessera::{GemmParams, Layout, MatrixMut, MatrixRef, Transpose};

use crate::cublas_ex::GemmExInput;
use crate::{AnchorError, Cublas, Precision, Result};

/// cuBLAS's operation for an operand stored with `layout` of which the GEMM wants `op` — in cuBLAS's
/// column-major view of the memory.
fn cublas_op(layout: Layout, op: Transpose) -> blas_sys::cublasOperation_t {
    let transposed = (layout == Layout::RowMajor) != (op == Transpose::Yes);
    if transposed {
        blas_sys::cublasOperation_t::CUBLAS_OP_T
    } else {
        blas_sys::cublasOperation_t::CUBLAS_OP_N
    }
}

fn flip(t: Transpose) -> Transpose {
    match t {
        Transpose::No => Transpose::Yes,
        Transpose::Yes => Transpose::No,
    }
}

impl Cublas {
    /// `C = α·op(A)·op(B) + β·C` by `cublasGemmEx` on views, in `precision` (its inputs' own, or
    /// TF32 on `f32`: `CUBLAS_COMPUTE_32F_FAST_TF32`), f32 accumulation and output. The views are
    /// checked as `tessera::Gpu::gemm` checks them (tessera's typed errors).
    pub fn gemm_views<T: GemmExInput + tessera::DeviceElement>(
        &self,
        params: &GemmParams,
        a: MatrixRef<'_, T>,
        b: MatrixRef<'_, T>,
        mut c: MatrixMut<'_, f32>,
    ) -> Result<()> {
        const OP: &str = "cuBLAS gemm_views";
        let precision = params.resolve_precision(T::PRECISION).ok_or(tessera::Error::UnsupportedPrecision {
            op: OP,
            requested: params.precision.unwrap_or(T::PRECISION),
            input: T::PRECISION,
        })?;
        let (ad, bd, cd) = (a.desc(), b.desc(), c.desc());
        let c_len = c.buffer().len();
        let args = GemmArgs {
            alpha: params.alpha,
            beta: params.beta,
            a: ad,
            a_len: a.buffer().len(),
            trans_a: params.trans_a,
            b: bd,
            b_len: b.buffer().len(),
            trans_b: params.trans_b,
            c: cd,
            c_len,
            elem_bytes: std::mem::size_of::<T>(),
        };
        let plan = args.plan().map_err(tessera::Error::from)?;
        if plan == GemmPlan::Nothing {
            return Ok(());
        }
        let ctx = self.stream.context();
        if a.buffer().as_cuda_slice().context().cu_ctx() != ctx.cu_ctx()
            || b.buffer().as_cuda_slice().context().cu_ctx() != ctx.cu_ctx()
            || c.buffer().as_cuda_slice().context().cu_ctx() != ctx.cu_ctx()
        {
            return Err(tessera::Error::WrongContext { op: OP }.into());
        }
        // In cuBLAS's terms: column-major C (m×n) = op(X)·op(Y); a row-major C is Cᵀ = op(B)ᵀ·op(A)ᵀ.
        let (x, tx, y, ty, rows, cols) = match cd.layout {
            Layout::ColMajor => (&a, params.trans_a, &b, params.trans_b, cd.rows, cd.cols),
            Layout::RowMajor => (&b, flip(params.trans_b), &a, flip(params.trans_a), cd.cols, cd.rows),
        };
        let k = if params.trans_a == Transpose::No { ad.cols } else { ad.rows };
        let dim =
            |d: usize| c_int::try_from(d).map_err(|_| tessera::Error::TooLarge { op: OP, detail: format!("{d} exceeds cuBLAS's int") });
        let (m, n, kk, ldx, ldy, ldc) = (dim(rows)?, dim(cols)?, dim(k)?, dim(x.desc().ld)?, dim(y.desc().ld)?, dim(cd.ld)?);
        let compute = if precision == Precision::Tf32 {
            blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32
        } else {
            blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F
        };
        ctx.bind_to_thread()?;
        let (xd, yd) = (x.desc(), y.desc());
        let xs = x.buffer().as_cuda_slice().slice(xd.offset..);
        let ys = y.buffer().as_cuda_slice().slice(yd.offset..);
        let mut cs = c.buffer().as_cuda_slice_mut().slice_mut(cd.offset..);
        let (alpha, beta) = (params.alpha, params.beta);
        let (x_ptr, _x_use) = xs.device_ptr(&self.stream);
        let (y_ptr, _y_use) = ys.device_ptr(&self.stream);
        let (c_ptr, _c_use) = cs.device_ptr_mut(&self.stream);
        // SAFETY: the handle is live and bound to `self.stream`, for which the pointers were prepared;
        // the three buffers belong to its context (checked). GemmArgs::plan checked that every view
        // fits its buffer with its ld ≥ its layout's minimum, and the shapes agree, so cuBLAS's
        // column-major X (rows × k after op, ld ldx), Y (k × cols after op, ld ldy) and C (rows × cols,
        // ld ldc) touch only the views' elements; m, n, k ≥ 1 (GemmPlan::Nothing returned above for
        // m or n = 0; k = 0 is cuBLAS's C = β·C, every ld ≥ 1). α, β are f32 host values (the handle's
        // default pointer mode) that outlive the call. C does not alias A or B (`&mut` beside `&`).
        unsafe {
            blas_result::gemm_ex(
                *self.blas.handle(),
                cublas_op(xd.layout, tx),
                cublas_op(yd.layout, ty),
                m,
                n,
                kk,
                (&alpha as *const f32).cast::<c_void>(),
                x_ptr as *const c_void,
                T::DATA_TYPE,
                ldx,
                y_ptr as *const c_void,
                T::DATA_TYPE,
                ldy,
                (&beta as *const f32).cast::<c_void>(),
                c_ptr as *mut c_void,
                blas_sys::cudaDataType_t::CUDA_R_32F,
                ldc,
                compute,
                blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(|e| AnchorError::Cublas(format!("cublasGemmEx in {OP} ({rows}×{cols}×{k}): {e}")))
    }
}
