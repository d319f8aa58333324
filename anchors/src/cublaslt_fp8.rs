//! cuBLASLt FP8 (E4M3 or E5M2 inputs, f32 accumulation, f32 or BF16 output, per-tensor scales): the
//! same-precision baseline of tessera's kernel 25, in the same process. cudarc's safe `CudaBlasLT`
//! has no FP8 matmul, so this drives its `result` layer: one matmul descriptor
//! (`CUBLAS_COMPUTE_32F`, scale type f32), the FP8 operands in the only layout cuBLASLt takes them
//! ("TN": the first operand transposed), the scales as device pointers
//! (`CUBLASLT_MATMUL_DESC_{A,B}_SCALE_POINTER`), and the heuristic's first algorithm with a 32 MiB
//! workspace (NVIDIA's figure for Hopper).
//!
//! Row-major `C = A·B` with `B` given as `Bᵀ` (`n × k`): cuBLASLt is column-major, so it computes
//! `Cᵀ = (Bᵀ)ᵀᵀ·…`: its first operand is our `Bᵀ` read as a column-major `k × n` and transposed, its
//! second our `A` read as a column-major `k × m`, its output our `C` as a column-major `n × m`.
//!
//! `fast_accum` is `CUBLASLT_MATMUL_DESC_FAST_ACCUM`: off, cuBLASLt promotes its FP8 sums into f32
//! as kernel 25's promoted entries do (torch's `_scaled_mm` default); on, it accumulates in the tensor
//! core's FP8 path, as the `*_fast` entries do.
use std::ffi::c_void;

use cudarc::cublaslt::{result as lt, sys};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use tessera::{DeviceBuffer, DeviceMatrix, Fp8Format, Gpu, OutputElement, OutputFormat};

use crate::{AnchorError, Precision, Result};

/// Bytes of cuBLASLt's workspace (its documentation's recommendation for Hopper).
const WORKSPACE_BYTES: usize = 32 << 20;

/// A cuBLASLt handle on a [`Gpu`]'s stream, with its workspace.
pub struct CublasLtFp8 {
    handle: sys::cublasLtHandle_t,
    workspace: CudaSlice<u8>,
    stream: std::sync::Arc<cudarc::driver::CudaStream>,
}

/// A cuBLAS status as the anchor's error.
fn lt_err(what: &'static str) -> impl Fn(cudarc::cublaslt::result::CublasError) -> AnchorError {
    move |e| AnchorError::Cublas(format!("{what}: {e:?}"))
}

impl CublasLtFp8 {
    /// A handle and a workspace on `gpu`'s stream.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        gpu.context().bind_to_thread()?;
        let handle = lt::create_handle().map_err(lt_err("cublasLtCreate"))?;
        let workspace = gpu.stream().alloc_zeros::<u8>(WORKSPACE_BYTES)?;
        Ok(Self { handle, workspace, stream: std::sync::Arc::clone(gpu.stream()) })
    }

    /// `c = scale_a · scale_b · a · b` with `bt` = `Bᵀ` (`n × k`), all row-major, queued on the
    /// stream; `F`'s format for both operands; each scale element 0 of its buffer; `C` in `f32` or
    /// BF16 (`O`).
    ///
    /// Errors: [`tessera::Error::ShapeMismatch`] for shapes that disagree (as [`AnchorError::Tessera`]),
    /// [`tessera::Error::BufferTooSmall`] for an empty scale, [`AnchorError::Cublas`] where cuBLASLt
    /// has no algorithm for the product (K not a multiple of 16, for one) or fails.
    pub fn matmul<F: Fp8Format, O: OutputElement>(
        &self,
        a: &DeviceMatrix<F>,
        bt: &DeviceMatrix<F>,
        scales: (&DeviceBuffer<f32>, &DeviceBuffer<f32>),
        c: &mut DeviceMatrix<O>,
        fast_accum: bool,
    ) -> Result<()> {
        const OP: &str = "CublasLtFp8::matmul";
        let (m, k, n) = (a.rows(), a.cols(), bt.rows());
        if bt.cols() != k || c.rows() != m || c.cols() != n {
            let detail = format!("A {m}×{k}, Bᵀ {}×{}, C {}×{}", bt.rows(), bt.cols(), c.rows(), c.cols());
            return Err(tessera::Error::ShapeMismatch { op: OP, detail }.into());
        }
        for (name, s) in [("scale_a", scales.0), ("scale_b", scales.1)] {
            if s.is_empty() {
                return Err(tessera::Error::BufferTooSmall { op: OP, name, len: 0, needed: 1 }.into());
            }
        }
        if m == 0 || n == 0 {
            return Ok(());
        }
        let dtype = match F::PRECISION {
            Precision::Fp8E5m2 => sys::cudaDataType::CUDA_R_8F_E5M2,
            _ => sys::cudaDataType::CUDA_R_8F_E4M3,
        };
        let stream = &self.stream;
        let (pa, _ra) = a.buffer().as_cuda_slice().device_ptr(stream);
        let (pb, _rb) = bt.buffer().as_cuda_slice().device_ptr(stream);
        let (pc, _wc) = c.buffer_mut().as_cuda_slice_mut().device_ptr_mut(stream);
        let (psa, _rsa) = scales.0.as_cuda_slice().device_ptr(stream);
        let (psb, _rsb) = scales.1.as_cuda_slice().device_ptr(stream);
        let (pw, _ww) = self.workspace.device_ptr(stream);
        let (m, n, k) = (m as u64, n as u64, k as u64);
        // Column-major: first operand Bᵀ as k × n (transposed), second A as k × m, output n × m.
        let first = lt::create_matrix_layout(dtype, k, n, k as i64).map_err(lt_err("layout of Bᵀ"))?;
        let second = lt::create_matrix_layout(dtype, k, m, k as i64).map_err(lt_err("layout of A"))?;
        let out_type = match O::FORMAT {
            OutputFormat::Bf16 => sys::cudaDataType::CUDA_R_16BF,
            OutputFormat::F16 => sys::cudaDataType::CUDA_R_16F,
            OutputFormat::F32 => sys::cudaDataType::CUDA_R_32F,
        };
        let out = lt::create_matrix_layout(out_type, n, m, n as i64).map_err(lt_err("layout of C"))?;
        let desc = lt::create_matmul_desc(sys::cublasComputeType_t::CUBLAS_COMPUTE_32F, sys::cudaDataType::CUDA_R_32F)
            .map_err(lt_err("matmul descriptor"))?;
        let pref = lt::create_matmul_pref().map_err(lt_err("preference"))?;
        let run = || -> Result<()> {
            let transposed: i32 = 1;
            let fast: i8 = fast_accum.into();
            let workspace = WORKSPACE_BYTES as u64;
            use sys::cublasLtMatmulDescAttributes_t as D;
            let attr = |d, v: *const c_void, size| {
                // SAFETY: a live descriptor; `v` points at `size` bytes of the attribute's type.
                unsafe { lt::set_matmul_desc_attribute(desc, d, v, size) }.map_err(lt_err("descriptor attribute"))
            };
            attr(D::CUBLASLT_MATMUL_DESC_TRANSA, (&transposed as *const i32).cast(), 4)?;
            // The first operand is Bᵀ: its scale is B's; the second is A.
            attr(D::CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, (&psb as *const u64).cast(), 8)?;
            attr(D::CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, (&psa as *const u64).cast(), 8)?;
            attr(D::CUBLASLT_MATMUL_DESC_FAST_ACCUM, (&fast as *const i8).cast(), 1)?;
            // SAFETY: a live preference; the attribute is a u64.
            unsafe {
                lt::set_matmul_pref_attribute(
                    pref,
                    sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                    (&workspace as *const u64).cast(),
                    8,
                )
            }
            .map_err(lt_err("workspace preference"))?;
            // SAFETY: live handle, descriptor, layouts and preference.
            let heuristic = unsafe { lt::get_matmul_algo_heuristic(self.handle, desc, first, second, out, out, pref) }
                .map_err(lt_err("no cuBLASLt FP8 algorithm for this product"))?;
            let (alpha, beta) = (1.0f32, 0.0f32);
            // SAFETY: the layouts describe exactly the buffers (Bᵀ n·k bytes, A m·k, C m·n floats, all
            // checked above via the matrices' shapes), the scales one float each on the device, the
            // workspace WORKSPACE_BYTES; everything lives on this stream until the matmul completes
            // (the guards record their use); β = 0, so C is not read.
            unsafe {
                lt::matmul(
                    self.handle,
                    desc,
                    (&alpha as *const f32).cast(),
                    (&beta as *const f32).cast(),
                    pb as *const c_void,
                    first,
                    pa as *const c_void,
                    second,
                    pc as *const c_void,
                    out,
                    pc as *mut c_void,
                    out,
                    &heuristic.algo,
                    pw as *mut c_void,
                    WORKSPACE_BYTES,
                    stream.cu_stream() as sys::cudaStream_t,
                )
            }
            .map_err(lt_err("cublasLtMatmul"))
        };
        let result = run();
        // SAFETY: created above, destroyed once.
        unsafe {
            let _ = lt::destroy_matmul_pref(pref);
            let _ = lt::destroy_matmul_desc(desc);
            let _ = lt::destroy_matrix_layout(first);
            let _ = lt::destroy_matrix_layout(second);
            let _ = lt::destroy_matrix_layout(out);
        }
        result
    }
}

impl Drop for CublasLtFp8 {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        let _ = unsafe { lt::destroy_handle(self.handle) };
    }
}
