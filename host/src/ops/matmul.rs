//! `C = A · B` on the GPU with any kernel of the catalogue, in FP32, TF32 (asked for explicitly),
//! BF16 or FP16; `C` is `f32` in every precision.
use std::sync::Arc;

use cudarc::driver::{result, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use half::{bf16, f16};
use tessera_catalogue::blocks::GemmDims;
use tessera_catalogue::{Algo, HostMatrix, MatmulShape, Precision};

use super::launch_config;
use crate::blocked::{matmul_blocked, resolve_kernel};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};

impl Gpu {
    /// `c = a · b` with the chosen kernel (queued on the stream), in the precision of the inputs:
    /// FP32 for `f32` (never TF32: see [`Gpu::matmul_tf32`]), BF16 for `bf16`, FP16 for `f16`.
    /// `Auto` picks a kernel of that precision.
    ///
    /// Errors, before any launch: [`Error::MixedTypes`] when `a` and `b` differ in type,
    /// [`Error::PrecisionMismatch`] when `algo` computes in another precision, shape and buffer
    /// errors as below. `m = 0` or `n = 0` is a no-op (C is empty); `k = 0` sets `C` to zeros.
    pub fn matmul<TA: DeviceElement, TB: DeviceElement>(
        &self,
        algo: Algo,
        a: &DeviceMatrix<TA>,
        b: &DeviceMatrix<TB>,
        c: &mut DeviceMatrix,
    ) -> Result<()> {
        if TA::PRECISION != TB::PRECISION {
            return Err(Error::MixedTypes { op: "matmul", a: TA::PRECISION, b: TB::PRECISION });
        }
        self.matmul_in(TA::PRECISION, algo, a, b, c)
    }

    /// `c = a · b` on `f32` data in TF32 on the tensor cores: the caller's explicit choice of the
    /// lower precision (inputs rounded to 10 mantissa bits). `algo`: a TF32 kernel or `Auto`.
    pub fn matmul_tf32(&self, algo: Algo, a: &DeviceMatrix, b: &DeviceMatrix, c: &mut DeviceMatrix) -> Result<()> {
        self.matmul_in(Precision::Tf32, algo, a, b, c)
    }

    /// The common path: `requested` is the precision asked for (`T`'s own, or TF32 on `f32`).
    ///
    /// A product within one launch's limits (each matrix below 2³¹ elements) is one launch; a larger
    /// one is cut into blocks that are (see `tessera_catalogue::blocks`), run on the same stream.
    fn matmul_in<TA: DeviceElement, TB: DeviceElement>(
        &self,
        requested: Precision,
        algo: Algo,
        a: &DeviceMatrix<TA>,
        b: &DeviceMatrix<TB>,
        c: &mut DeviceMatrix,
    ) -> Result<()> {
        const OP: &str = "matmul";
        let dims = GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (c.rows, c.cols))?;
        // One launch: the kernel it resolves to must compute in the requested precision (blocks
        // check each of their launches the same way before anything is queued).
        let one_launch = if dims.fits_one_launch() {
            let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (c.rows, c.cols))?;
            Some((shape, resolve_kernel(OP, algo, shape, requested, self)?))
        } else {
            None
        };
        a.buf.check_context(self, OP)?;
        b.buf.check_context(self, OP)?;
        c.buf.check_context(self, OP)?;
        for (name, len, needed) in
            [("A", a.buf.len(), dims.m * dims.k), ("B", b.buf.len(), dims.k * dims.n), ("C", c.buf.len(), dims.m * dims.n)]
        {
            if len < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed });
            }
        }
        if dims.m == 0 || dims.n == 0 {
            return Ok(());
        }
        if dims.k == 0 {
            let mut out = c.buf.slice.slice_mut(0..dims.m * dims.n);
            return self.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0));
        }
        let Some((shape, algo)) = one_launch else {
            return matmul_blocked(self, requested, algo, dims, a, b, c);
        };
        let stream = self.stream();
        let (pa, _read_a) = a.buf.slice.device_ptr(stream);
        let (pb, _read_b) = b.buf.slice.device_ptr(stream);
        let (pc, _write_c) = c.buf.slice.device_ptr_mut(stream);
        // SAFETY: A, B, C hold at least m·k, k·n inputs of the kernel's precision and m·n floats
        // (checked above; the callers pass inputs of the precision's type), whole allocations of this
        // context (16-byte aligned), and the guards record their use after the launch is queued.
        unsafe { self.launch_matmul_raw(stream, algo, shape, pa, pb, pc) }
    }

    /// Queues the concrete kernel `algo` for `shape` on `stream`: zeroes `C` first for split-K (which
    /// adds its partial sums into `C`), and prepares the operands of a kernel that takes prepared
    /// TF32 operands (kernel 14's TF32 entry) in this GPU's workspace first.
    ///
    /// # Safety
    /// `algo` must be a concrete kernel (not `Auto`) this GPU runs; `a`, `b` must address `m·k` and
    /// `k·n` elements of the kernel's input type and `c` `m·n` floats, in this GPU's context, 16-byte
    /// aligned, not written by other work until the launch completes on `stream` (a stream of this
    /// context); the shape must pass [`MatmulShape::check`] (32-bit indices, grid limits).
    pub(crate) unsafe fn launch_matmul_raw(
        &self,
        stream: &Arc<CudaStream>,
        algo: Algo,
        shape: MatmulShape,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        let kernel = algo.kernel().ok_or(Error::InvalidArgument { op: "matmul", detail: "Auto is not a kernel".into() })?;
        let (m, n) = (shape.m, shape.n);
        if algo.accumulates_into_c_on(shape, self.sm_count()) {
            self.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
            let bytes = m as usize * n as usize * 4;
            // SAFETY: c addresses m·n floats (the caller's contract).
            unsafe { result::memset_d8_async(c, 0, bytes, stream.cu_stream()) }.map_err(Error::driver("zeroing C", 0))?;
        }
        let f = self.kernel(kernel.entry)?;
        if kernel.config.tf32_operands {
            // SAFETY: forwarded contract.
            return unsafe { self.matmul_prepared_tf32(stream, f, algo, shape, a, b, c) };
        }
        // SAFETY: forwarded contract; C is zeroed for split-K above.
        unsafe { self.launch_product(stream, f, kernel, algo, shape, a, b, c) }
    }

    /// Queues the matmul kernel `f` (`kernel`'s entry) on `x` (`m × k`), `y` (`k × n`, or the prepared
    /// `Bᵀ` for TF32-operand kernels) and `c`; a TMA kernel gets the two tensor maps over `x` and `y`
    /// instead of the pointers ([`super::tma`]).
    ///
    /// # Safety
    /// As [`Gpu::launch_matmul_raw`] for `x`, `y`, `c`; `C` zeroed first when `algo` accumulates.
    #[allow(clippy::too_many_arguments)]
    unsafe fn launch_product(
        &self,
        stream: &Arc<CudaStream>,
        f: &cudarc::driver::CudaFunction,
        kernel: &tessera_catalogue::MatmulKernel,
        algo: Algo,
        shape: MatmulShape,
        x: u64,
        y: u64,
        c: u64,
    ) -> Result<()> {
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let maps = if kernel.config.tma {
            let ops = tessera_catalogue::tma::operands(kernel.config, shape, kernel.precision.input_bytes())?;
            Some(self.tensor_maps.maps(stream, &ops, kernel.precision, x, y)?)
        } else {
            None
        };
        let map_guard = maps.as_ref().map(|m| m.device_ptr(stream));
        let (x, y) = match &map_guard {
            Some((p, _)) => (*p, *p + super::tma::MAP_BYTES),
            None => (x, y),
        };
        let mut launch = stream.launch_builder(f);
        launch.arg(&x).arg(&y).arg(&c).arg(&m).arg(&n).arg(&k);
        // SAFETY: matmul_*(a, b, c, m, n, k) index A < m·k, B < k·n, C < m·n (see the kernel docs):
        // the caller vouches for those sizes, the input type (bf16/f16 have the layout of the u16 bits
        // the kernels take) and 32-bit shapes; a TMA kernel's maps describe exactly those buffers
        // (the catalogue's operands for this shape) and live until the launch completes (cached, or
        // freed stream-ordered after it); the launch is the one the kernel states (its TileConfig, through the
        // catalogue: threads and dynamic shared memory, planned for this GPU's SMs, as the zeroing
        // of C for split-K by the caller).
        let launched = self.launched(unsafe { launch.launch(launch_config(algo.launch_on(shape, self.sm_count()))) });
        drop(map_guard);
        launched
    }

    /// A kernel that takes prepared TF32 operands (kernel 14's TF32 entry): rounds `A` into the
    /// workspace, rounds and transposes `B` into it (`Bᵀ`, `n × k`), then runs the kernel on them —
    /// three launches in stream order, all inside the caller's timing. The workspace (`(m + n)·k`
    /// floats) is kept for the next call.
    ///
    /// # Safety
    /// As [`Gpu::launch_matmul_raw`], with `a`, `b` of `f32`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn matmul_prepared_tf32(
        &self,
        stream: &Arc<CudaStream>,
        f: &cudarc::driver::CudaFunction,
        algo: Algo,
        shape: MatmulShape,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let (a_len, b_len) = (m as usize * k as usize, n as usize * k as usize);
        let mut guard = self.workspace.lock().map_err(|_| Error::ContextPoisoned("the workspace lock was poisoned".into()))?;
        if guard.as_ref().is_none_or(|w| w.len() < a_len + b_len) {
            *guard = None; // free the old one first
            *guard = Some(stream.alloc_zeros::<f32>(a_len + b_len).map_err(|_| Error::OutOfMemory { bytes: 4 * (a_len + b_len) })?);
        }
        let Some(work) = guard.as_ref() else { return Err(Error::OutOfMemory { bytes: 4 * (a_len + b_len) }) };
        let (a_prep, _record) = work.device_ptr(stream);
        let bt_prep = a_prep + 4 * a_len as u64;
        let kernel = algo.kernel().ok_or(Error::InvalidArgument { op: "matmul", detail: "Auto is not a kernel".into() })?;
        {
            let len = u32::try_from(a_len).map_err(|_| Error::TooLarge { op: "matmul", detail: "A past 32-bit indexing".into() })?;
            let mut launch = stream.launch_builder(self.kernel("tf32_round")?);
            launch.arg(&a).arg(&a_prep).arg(&len);
            // SAFETY: tf32_round(src, dst, len) reads src[0..len], writes dst[0..len]: A holds m·k f32
            // (the caller's contract; TF32 inputs are f32), the workspace holds a_len + b_len floats from
            // a_prep; they do not overlap (the workspace is tessera's own allocation).
            self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_round(a_len)?)) })?;
        }
        let mut launch = stream.launch_builder(self.kernel("tf32_transpose_round")?);
        launch.arg(&b).arg(&bt_prep).arg(&k).arg(&n);
        // SAFETY: tf32_transpose_round(src, dst, rows = k, cols = n) reads src[0..k·n] (B) and writes
        // dst[0..k·n] (the workspace after A', n·k floats) with its own launch.
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_transpose(k, n))) })?;
        // SAFETY: the kernel reads A' (m·k) and Bᵀ' (n·k), both prepared above in stream order, and
        // writes C < m·n (the caller's contract).
        unsafe { self.launch_product(stream, f, kernel, algo, shape, a_prep, bt_prep, c) }
    }

    /// Uploads `a` and `b`, runs [`Gpu::matmul`] (FP32), and downloads the product.
    pub fn matmul_host(&self, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        self.matmul_host_in(Precision::Fp32, algo, a, b)
    }

    /// Uploads `a` and `b` rounded to `precision`'s input type (`f32`, `bf16`, `f16`), runs the
    /// product in `precision` (TF32 through [`Gpu::matmul_tf32`]), and downloads `C`.
    pub fn matmul_host_in(&self, precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        GemmDims::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
        let mut dc = DeviceMatrix::<f32>::zeros(self, a.rows, b.cols)?;
        match precision {
            Precision::Fp32 | Precision::Tf32 => {
                let (da, db) = (DeviceMatrix::<f32>::from_host(self, a)?, DeviceMatrix::<f32>::from_host(self, b)?);
                self.matmul_in(precision, algo, &da, &db, &mut dc)?;
            }
            Precision::Bf16 => {
                let (da, db) = (DeviceMatrix::<bf16>::from_host(self, a)?, DeviceMatrix::<bf16>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
            Precision::Fp16 => {
                let (da, db) = (DeviceMatrix::<f16>::from_host(self, a)?, DeviceMatrix::<f16>::from_host(self, b)?);
                self.matmul(algo, &da, &db, &mut dc)?;
            }
        }
        self.synchronize()?;
        dc.to_host(self)
    }
}
