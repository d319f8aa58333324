//! cuBLAS baselines for kernel 26 (a batch or groups of products): `cublasGemmStridedBatchedEx`
//! (what `torch.bmm` calls), and grouped products as a loop of `cublasGemmEx` calls on one stream
//! (the grouped layout's anchor where no grouped GEMM is at hand). 16-bit or f32 inputs, f32
//! accumulation and output, row-major operands given as [`Stack`]s, `α = 1`, `β = 0`.
use std::ffi::{c_int, c_longlong, c_void};

use cudarc::cublas::{result as blas_result, sys as blas_sys};
use cudarc::driver::{DevicePtr, DevicePtrMut};
use tessera::catalogue::plan::grouped::Stack;
use tessera::DeviceBuffer;

use crate::cublas_ex::GemmExInput;
use crate::{AnchorError, Cublas, Precision, Result};

/// The stacks' matrices must lie inside their buffers and every size fit cuBLAS's `int`.
fn check(op: &'static str, stacks: [(&'static str, Stack, usize); 3]) -> Result<()> {
    for (name, s, len) in stacks {
        let needed = s.span().ok_or_else(|| tessera::Error::TooLarge { op, detail: format!("{name}'s span overflows") })?;
        if needed > len {
            return Err(tessera::Error::BufferTooSmall { op, name, len, needed }.into());
        }
        if [s.count, s.rows, s.cols].iter().any(|&d| d > c_int::MAX as usize) {
            return Err(tessera::Error::TooLarge { op, detail: format!("{name}: a size past cuBLAS's int") }.into());
        }
    }
    Ok(())
}

impl Cublas {
    /// `C_i = A_i · B_i` for the `count` matrices of the stacks (stride 0: one matrix for all), one
    /// `cublasGemmStridedBatchedEx` call in `precision`: `CUBLAS_COMPUTE_32F` (FP32, BF16, FP16 — as
    /// [`Cublas::gemm_bf16`]) or `CUBLAS_COMPUTE_32F_FAST_TF32` (TF32);
    /// [`tessera::Error::InvalidArgument`] for FP8.
    pub fn gemm_strided_batched<T: GemmExInput>(
        &self,
        a: (&DeviceBuffer<T>, Stack),
        b: (&DeviceBuffer<T>, Stack),
        c: (&mut DeviceBuffer<f32>, Stack),
        precision: Precision,
    ) -> Result<()> {
        const OP: &str = "cuBLAS gemm_strided_batched";
        let compute = match precision {
            Precision::Tf32 => blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
            Precision::Fp32 | Precision::Bf16 | Precision::Fp16 => blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
            Precision::Fp8E4m3 | Precision::Fp8E5m2 => {
                return Err(tessera::Error::InvalidArgument { op: OP, detail: "FP8 has its own anchor (cublaslt_fp8)".into() }.into())
            }
        };
        let ((ab, sa), (bb, sb), (cb, sc)) = (a, b, c);
        check(OP, [("A", sa, ab.len()), ("B", sb, bb.len()), ("C", sc, cb.len())])?;
        if sa.count != sb.count || sa.count != sc.count || sa.cols != sb.rows || sa.rows != sc.rows || sb.cols != sc.cols {
            return Err(tessera::Error::ShapeMismatch { op: OP, detail: format!("{sa:?} · {sb:?} into {sc:?}") }.into());
        }
        let (m, n, k, count) = (sa.rows as c_int, sb.cols as c_int, sa.cols as c_int, sa.count as c_int);
        if m == 0 || n == 0 || k == 0 || count == 0 {
            return Err(tessera::Error::InvalidArgument { op: OP, detail: "an empty product (the anchor times real ones)".into() }.into());
        }
        self.stream.context().bind_to_thread()?;
        let (alpha, beta) = (1.0f32, 0.0f32);
        let (pa, _a) = ab.as_cuda_slice().device_ptr(&self.stream);
        let (pb, _b) = bb.as_cuda_slice().device_ptr(&self.stream);
        let (pc, _c) = cb.as_cuda_slice_mut().device_ptr_mut(&self.stream);
        // SAFETY: the handle is live and bound to `self.stream`, for which the pointers were prepared;
        // column-major, so Cᵀ_i = Bᵀ_i · Aᵀ_i: Bᵀ_i n×k (ld n) from `pb + i·stride_b`, Aᵀ_i k×m (ld k),
        // Cᵀ_i n×m (ld n): `check` proved every matrix of every stack inside its buffer; α, β are f32
        // host scalars that outlive the call.
        unsafe {
            blas_result::gemm_strided_batched_ex(
                *self.blas.handle(),
                blas_sys::cublasOperation_t::CUBLAS_OP_N,
                blas_sys::cublasOperation_t::CUBLAS_OP_N,
                n,
                m,
                k,
                (&alpha as *const f32).cast::<c_void>(),
                pb as *const c_void,
                T::DATA_TYPE,
                n,
                sb.stride as c_longlong,
                pa as *const c_void,
                T::DATA_TYPE,
                k,
                sa.stride as c_longlong,
                (&beta as *const f32).cast::<c_void>(),
                pc as *mut c_void,
                blas_sys::cudaDataType_t::CUDA_R_32F,
                n,
                sc.stride as c_longlong,
                count,
                compute,
                blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
        .map_err(|e| AnchorError::Cublas(format!("cublasGemmStridedBatchedEx ({count} × {m}×{n}×{k}): {e}")))
    }

    /// Grouped products as one `cublasGemmEx` per non-empty group, queued on one stream: rows
    /// `offsets[g] .. offsets[g+1]` of `a` (`m × k`) times matrix `g` of `b` into the same rows of `c`.
    pub fn gemm_grouped_loop<T: GemmExInput>(
        &self,
        a: &DeviceBuffer<T>,
        (bb, sb): (&DeviceBuffer<T>, Stack),
        offsets: &[u32],
        c: &mut DeviceBuffer<f32>,
    ) -> Result<()> {
        const OP: &str = "cuBLAS gemm_grouped_loop";
        let (k, n) = (sb.rows, sb.cols);
        let m = offsets.last().copied().unwrap_or(0) as usize;
        check(
            OP,
            [
                ("A", Stack { count: 1, rows: m, cols: k, stride: 0 }, a.len()),
                ("B", sb, bb.len()),
                ("C", Stack { count: 1, rows: m, cols: n, stride: 0 }, c.len()),
            ],
        )?;
        if offsets.len() != sb.count + 1 || offsets.windows(2).any(|w| w[1] < w[0]) || k == 0 || n == 0 {
            return Err(tessera::Error::InvalidArgument {
                op: OP,
                detail: format!("{} offsets for {} groups of {k}×{n}", offsets.len(), sb.count),
            }
            .into());
        }
        self.stream.context().bind_to_thread()?;
        let (alpha, beta) = (1.0f32, 0.0f32);
        let elem = std::mem::size_of::<T>() as u64;
        let (pa, _a) = a.as_cuda_slice().device_ptr(&self.stream);
        let (pb, _b) = bb.as_cuda_slice().device_ptr(&self.stream);
        let (pc, _c) = c.as_cuda_slice_mut().device_ptr_mut(&self.stream);
        for (g, w) in offsets.windows(2).enumerate() {
            let rows = (w[1] - w[0]) as c_int;
            if rows == 0 {
                continue;
            }
            let first = u64::from(w[0]);
            let (a_g, b_g, c_g) = (pa + first * k as u64 * elem, pb + (g * sb.stride) as u64 * elem, pc + first * n as u64 * 4);
            // SAFETY: as `gemm_strided_batched`, one group: rows `w[0] .. w[1]` ≤ m of A and C (the
            // offsets are non-decreasing, the last is m, and `check` proved m rows inside both buffers),
            // matrix g of B inside its buffer.
            unsafe {
                blas_result::gemm_ex(
                    *self.blas.handle(),
                    blas_sys::cublasOperation_t::CUBLAS_OP_N,
                    blas_sys::cublasOperation_t::CUBLAS_OP_N,
                    n as c_int,
                    rows,
                    k as c_int,
                    (&alpha as *const f32).cast::<c_void>(),
                    b_g as *const c_void,
                    T::DATA_TYPE,
                    n as c_int,
                    a_g as *const c_void,
                    T::DATA_TYPE,
                    k as c_int,
                    (&beta as *const f32).cast::<c_void>(),
                    c_g as *mut c_void,
                    blas_sys::cudaDataType_t::CUDA_R_32F,
                    n as c_int,
                    blas_sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
                    blas_sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
                )
            }
            .map_err(|e| AnchorError::Cublas(format!("cublasGemmEx for group {g} ({rows}×{n}×{k}): {e}")))?;
        }
        Ok(())
    }
}
