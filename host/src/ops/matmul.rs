//! `C = A · B` on the GPU with any kernel of the catalogue, in FP32, TF32 (asked for explicitly),
//! BF16 or FP16; `C` is `f32` in every precision.
use cudarc::driver::PushKernelArg;
use half::{bf16, f16};
use tessera_catalogue::{Algo, HostMatrix, MatmulShape, Precision};

use super::launch_config;
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
    fn matmul_in<TA: DeviceElement, TB: DeviceElement>(
        &self,
        requested: Precision,
        algo: Algo,
        a: &DeviceMatrix<TA>,
        b: &DeviceMatrix<TB>,
        c: &mut DeviceMatrix,
    ) -> Result<()> {
        const OP: &str = "matmul";
        let shape = MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (c.rows, c.cols))?;
        let algo = algo.resolve_on(shape, requested, self.has_sm90a());
        let kernel = algo.kernel().ok_or(Error::InvalidArgument { op: OP, detail: "Auto resolved to no kernel".into() })?;
        if kernel.precision != requested {
            return Err(Error::PrecisionMismatch { op: OP, kernel: kernel.entry, kernel_precision: kernel.precision, requested });
        }
        a.buf.check_context(self, OP)?;
        b.buf.check_context(self, OP)?;
        c.buf.check_context(self, OP)?;
        for (name, len, needed) in
            [("A", a.buf.len(), a.rows * a.cols), ("B", b.buf.len(), b.rows * b.cols), ("C", c.buf.len(), c.rows * c.cols)]
        {
            if len < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed });
            }
        }
        if shape.m == 0 || shape.n == 0 {
            return Ok(());
        }
        if shape.k == 0 || algo.accumulates_into_c(shape) {
            let mut out = c.buf.slice.slice_mut(0..c.rows * c.cols);
            self.stream().memset_zeros(&mut out).map_err(Error::driver("zeroing C", 0))?;
            if shape.k == 0 {
                return Ok(());
            }
        }
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let f = self.kernel(kernel.entry)?;
        if kernel.config.tf32_operands {
            return self.matmul_prepared_tf32(f, algo, shape, &a.buf.slice, &b.buf.slice, c);
        }
        let mut launch = self.stream().launch_builder(f);
        launch.arg(&a.buf.slice).arg(&b.buf.slice).arg(&mut c.buf.slice).arg(&m).arg(&n).arg(&k);
        // SAFETY: matmul_*(a, b, c, m, n, k) index A < m·k, B < k·n, C < m·n (see the kernel docs);
        // the buffers hold at least that many elements of the kernel's input type (the kernel's
        // precision is the one asked for, and the callers pass A and B of that precision's type; bf16/f16 have the layout of the u16 bits the kernels
        // take), the launch is the one the kernel states (its TileConfig, through the catalogue:
        // threads and dynamic shared memory), C is zeroed for split-K, and every product fits in
        // 32 bits (MatmulShape::check).
        self.launched(unsafe { launch.launch(launch_config(algo.launch(shape))) })
    }

    /// A kernel that takes prepared TF32 operands (kernel 14's TF32 entry): rounds `A` into the
    /// workspace, rounds and transposes `B` into it (`Bᵀ`, `n × k`), then runs the kernel on them —
    /// three launches in stream order, all inside the caller's timing. The workspace (`(m + n)·k`
    /// floats) is kept for the next call.
    fn matmul_prepared_tf32<TA: DeviceElement, TB: DeviceElement>(
        &self,
        f: &cudarc::driver::CudaFunction,
        algo: Algo,
        shape: MatmulShape,
        a: &cudarc::driver::CudaSlice<TA>,
        b: &cudarc::driver::CudaSlice<TB>,
        c: &mut DeviceMatrix,
    ) -> Result<()> {
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let (a_len, b_len) = (m as usize * k as usize, n as usize * k as usize);
        let mut guard = self.workspace.lock().map_err(|_| Error::ContextPoisoned("the workspace lock was poisoned".into()))?;
        if guard.as_ref().is_none_or(|w| w.len() < a_len + b_len) {
            *guard = None; // free the old one first
            *guard = Some(self.stream().alloc_zeros::<f32>(a_len + b_len).map_err(|_| Error::OutOfMemory { bytes: 4 * (a_len + b_len) })?);
        }
        let Some(work) = guard.as_mut() else { return Err(Error::OutOfMemory { bytes: 4 * (a_len + b_len) }) };
        let (mut a_prep, mut rest) = work.split_at_mut(a_len);
        let mut bt_prep = rest.slice_mut(0..b_len);
        let len = u32::try_from(a_len).map_err(|_| Error::TooLarge { op: "matmul", detail: "A past 32-bit indexing".into() })?;
        let mut launch = self.stream().launch_builder(self.kernel("tf32_round")?);
        launch.arg(a).arg(&mut a_prep).arg(&len);
        // SAFETY: tf32_round(src, dst, len) reads src[0..len], writes dst[0..len]: A holds m·k f32
        // (the caller checked; TF32 inputs are f32), the workspace view a_len = m·k floats; they do
        // not overlap (the workspace is tessera's own allocation).
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_round(a_len)?)) })?;
        let mut launch = self.stream().launch_builder(self.kernel("tf32_transpose_round")?);
        launch.arg(b).arg(&mut bt_prep).arg(&k).arg(&n);
        // SAFETY: tf32_transpose_round(src, dst, rows = k, cols = n) reads src[0..k·n] (B, checked)
        // and writes dst[0..k·n] (the workspace view of n·k floats) with its own launch.
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_transpose(k, n))) })?;
        let mut launch = self.stream().launch_builder(f);
        launch.arg(&mut a_prep).arg(&mut bt_prep).arg(&mut c.buf.slice).arg(&m).arg(&n).arg(&k);
        // SAFETY: the kernel reads A' (m·k) and Bᵀ' (n·k), both prepared above in stream order, and
        // writes C < m·n (checked); the launch is its TileConfig's.
        self.launched(unsafe { launch.launch(launch_config(algo.launch(shape))) })
    }

    /// Uploads `a` and `b`, runs [`Gpu::matmul`] (FP32), and downloads the product.
    pub fn matmul_host(&self, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        self.matmul_host_in(Precision::Fp32, algo, a, b)
    }

    /// Uploads `a` and `b` rounded to `precision`'s input type (`f32`, `bf16`, `f16`), runs the
    /// product in `precision` (TF32 through [`Gpu::matmul_tf32`]), and downloads `C`.
    pub fn matmul_host_in(&self, precision: Precision, algo: Algo, a: &HostMatrix, b: &HostMatrix) -> Result<HostMatrix> {
        MatmulShape::check((a.rows, a.cols), (b.rows, b.cols), (a.rows, b.cols))?;
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
