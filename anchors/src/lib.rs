//! Measured anchors beside tessera's Rust kernels — never shipped as kernels themselves:
//!
//! - [`CudaC`]: the *same algorithms* as the Rust kernels, written in CUDA C (`anchors/cuda/*.cu`),
//!   compiled at run time by NVRTC for the device, launched with the identical configuration. The ratio
//!   Rust ÷ CUDA C isolates the compiler (rustc's NVPTX backend vs NVCC's front end).
//! - [`Cublas`]: cuBLAS SGEMM in plain FP32 (no TF32), the vendor's ceiling; and (module
//!   [`cublas_ex`]) `cublasGemmEx` with f32 output and accumulation in each [`Precision`] —
//!   FP32, TF32, BF16, FP16 — the same-precision baselines of the tensor-core kernels; (module
//!   [`cublas_views`]) the same on matrix views with transposes and leading dimensions, the baseline of
//!   `tessera::Gpu::gemm`; (module [`cublaslt_fp8`]) cuBLASLt FP8 with per-tensor scales, the
//!   baseline of kernel 25.
//!
//! The precisions, their input rounding and their tolerance rule are the catalogue's
//! (`tessera::catalogue::precision`).
use std::sync::Arc;

use cudarc::cublas::{sys as blas_sys, CudaBlas, Gemm, GemmConfig};
use cudarc::driver::{CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions};
use tessera::ops::launch_config;
use tessera::MatmulShape;
use tessera::{Algo, DeviceBuffer, DeviceMatrix, Gpu};

pub mod cublas_batched;
pub mod cublas_ex;
pub mod cublas_views;
pub mod cublaslt_fp8;

pub use cublas_ex::GemmDims;
pub use tessera::catalogue::precision::Precision;

/// What can go wrong building or running an anchor.
#[derive(Debug, thiserror::Error)]
pub enum AnchorError {
    #[error(transparent)]
    Tessera(#[from] tessera::Error),
    #[error("NVRTC could not compile {file}: {message}")]
    Nvrtc { file: &'static str, message: String },
    #[error("cuBLAS failed: {0}")]
    Cublas(String),
    #[error("CUDA driver call failed: {0}")]
    Driver(#[from] cudarc::driver::DriverError),
}

pub type Result<T, E = AnchorError> = std::result::Result<T, E>;

/// The CUDA C sources, by kernel name.
const SOURCES: [(&str, &str); 3] = [
    ("vec_add", include_str!("../cuda/vec_add.cu")),
    ("matmul_naive", include_str!("../cuda/matmul_naive.cu")),
    ("matmul_tiled", include_str!("../cuda/matmul_tiled.cu")),
];

/// The CUDA C twins of the Rust kernels, compiled by NVRTC for this device.
pub struct CudaC {
    functions: Vec<(&'static str, CudaFunction)>,
}

impl CudaC {
    /// Compiles every anchor for `gpu`'s architecture (`-arch=sm_XY`, NVRTC's default `-O3`, FMA
    /// contraction on as in nvcc).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let (major, minor) = gpu.info()?.compute_capability;
        let arch: &'static str = Box::leak(format!("sm_{major}{minor}").into_boxed_str());
        let mut functions = Vec::new();
        for (name, src) in SOURCES {
            let opts = CompileOptions { arch: Some(arch), ..Default::default() };
            let ptx = compile_ptx_with_opts(src, opts).map_err(|e| AnchorError::Nvrtc { file: name, message: e.to_string() })?;
            let module = gpu.context().load_module(ptx)?;
            functions.push((name, module.load_function(name)?));
        }
        Ok(Self { functions })
    }

    /// Whether `algo` has a CUDA C twin (only the first rungs of the ladder do).
    pub fn has(algo: Algo) -> bool {
        SOURCES.iter().any(|(name, _)| *name == algo.kernel_name())
    }

    fn function(&self, name: &str) -> Result<&CudaFunction> {
        self.functions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| f)
            .ok_or_else(|| AnchorError::Nvrtc { file: "anchors", message: format!("no CUDA C anchor named `{name}`") })
    }

    /// CUDA C `matmul_naive` / `matmul_tiled` with the launch configuration tessera uses for `algo`.
    pub fn matmul(&self, gpu: &Gpu, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        let shape = MatmulShape::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols())).map_err(tessera::Error::from)?;
        let (m, n, k) = (shape.m, shape.n, shape.k);
        if m == 0 || n == 0 || k == 0 {
            return Ok(());
        }
        let kernel = algo
            .kernel()
            .ok_or_else(|| tessera::Error::InvalidArgument { op: "anchor matmul", detail: "Auto has no CUDA C anchor".into() })?;
        let dims = kernel.launch(shape, gpu.target());
        let mut launch = gpu.stream().launch_builder(self.function(algo.kernel_name())?);
        launch
            .arg(a.buffer().as_cuda_slice())
            .arg(b.buffer().as_cuda_slice())
            .arg(c.buffer_mut().as_cuda_slice_mut())
            .arg(&m)
            .arg(&n)
            .arg(&k);
        // SAFETY: the CUDA C kernels index exactly as the Rust ones (A < m·k, B < k·n, C < m·n);
        // MatmulShape::check validated the shapes and DeviceMatrix owns buffers of rows·cols floats.
        unsafe { launch.launch(launch_config(dims)) }?;
        Ok(())
    }

    /// CUDA C `vec_add`, 256 threads per block.
    pub fn vec_add(&self, gpu: &Gpu, a: &DeviceBuffer<f32>, b: &DeviceBuffer<f32>, c: &mut DeviceBuffer<f32>) -> Result<()> {
        let n = a.len();
        if b.len() != n || c.len() != n {
            return Err(tessera::Error::ShapeMismatch { op: "anchor vec_add", detail: format!("{n}, {}, {}", b.len(), c.len()) }.into());
        }
        if n == 0 {
            return Ok(());
        }
        let n64 = n as u64;
        let cfg = LaunchConfig { grid_dim: (n.div_ceil(256) as u32, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
        let mut launch = gpu.stream().launch_builder(self.function("vec_add")?);
        launch.arg(a.as_cuda_slice()).arg(b.as_cuda_slice()).arg(c.as_cuda_slice_mut()).arg(&n64);
        // SAFETY: reads a[0..n], b[0..n], writes c[0..n]; all three hold n floats (checked above).
        unsafe { launch.launch(cfg) }?;
        Ok(())
    }
}

/// cuBLAS on tessera's row-major matrices: SGEMM in FP32 math only (`CUBLAS_DEFAULT_MATH`: no TF32),
/// and the `cublasGemmEx` baselines of [`cublas_ex`] (`gemm_f32`, `gemm_tf32`, `gemm_bf16`,
/// `gemm_f16`), whose compute type says explicitly when tensor cores may be used.
pub struct Cublas {
    blas: CudaBlas,
    /// The stream the handle is bound to (`gpu.stream()` at creation).
    stream: Arc<CudaStream>,
}

impl Cublas {
    /// A cuBLAS handle on `gpu`'s stream.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let blas = CudaBlas::new(Arc::clone(gpu.stream())).map_err(|e| AnchorError::Cublas(e.to_string()))?;
        // SAFETY: the handle is valid (just created); setting the math mode has no other precondition.
        let status = unsafe { blas_sys::cublasSetMathMode(*blas.handle(), blas_sys::cublasMath_t::CUBLAS_DEFAULT_MATH) };
        if status != blas_sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
            return Err(AnchorError::Cublas(format!("cublasSetMathMode: {status:?}")));
        }
        Ok(Self { blas, stream: Arc::clone(gpu.stream()) })
    }

    /// `C = A · B` (row-major). cuBLAS is column-major, so this computes `Cᵀ = Bᵀ · Aᵀ`: the same
    /// memory, with the operands swapped.
    pub fn sgemm(&self, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        let shape = MatmulShape::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols())).map_err(tessera::Error::from)?;
        let (m, n, k) = (shape.m as i32, shape.n as i32, shape.k as i32);
        if m == 0 || n == 0 || k == 0 {
            return Ok(());
        }
        let cfg = GemmConfig {
            transa: blas_sys::cublasOperation_t::CUBLAS_OP_N,
            transb: blas_sys::cublasOperation_t::CUBLAS_OP_N,
            m: n,
            n: m,
            k,
            alpha: 1.0f32,
            lda: n,
            ldb: k,
            beta: 0.0f32,
            ldc: n,
        };
        // SAFETY: column-major Bᵀ is n×k with ld n (B's k·n floats), Aᵀ is k×m with ld k (A's m·k
        // floats), Cᵀ is n×m with ld n (C's m·n floats): every access is inside the buffers.
        unsafe { self.blas.gemm(cfg, b.buffer().as_cuda_slice(), a.buffer().as_cuda_slice(), c.buffer_mut().as_cuda_slice_mut()) }
            .map_err(|e| AnchorError::Cublas(e.to_string()))
    }
}
