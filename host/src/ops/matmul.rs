//! `C = A · B` on the GPU with any kernel of the catalogue, in FP32, TF32 (asked for explicitly),
//! BF16 or FP16; `C` is `f32` in every precision.
use std::sync::{Arc, MutexGuard};

use cudarc::driver::{result, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use half::{bf16, f16};
use tessera_catalogue::blocks::GemmDims;
use tessera_catalogue::tma::{self, Layout};
use tessera_catalogue::{Algo, HostMatrix, MatmulShape, Precision};

use super::launch_config;
use crate::blocked::{matmul_blocked, resolve_kernel};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix};

impl Gpu {
    /// `c = a · b` with the chosen kernel (queued on the stream), in the precision of the inputs:
    /// FP32 for `f32` (never TF32: see [`Gpu::matmul_tf32`]), BF16 for `bf16`, FP16 for `f16`.
    /// `Auto` picks a kernel of that precision; in FP32 where N or K is not a multiple of 4 and its
    /// model predicts it pays, it runs that kernel on zero-padded copies ([`Gpu::matmul_fp32_padded`]);
    /// in FP32 under [`AutoTuning::Measured`](crate::AutoTuning) a shape's first product times the
    /// model's few best candidates and keeps the fastest ([`super::auto_tuning`]).
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
    /// A product within one launch's limits (each matrix below 2³¹ elements) is one launch (plus the
    /// copies of FP32 `Auto`'s unaligned path where it pads); a larger one is cut into blocks that
    /// are (see `tessera_catalogue::blocks`), run on the same stream.
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
        let auto_fp32 = algo == Algo::Auto && requested == Precision::Fp32;
        let Some((shape, algo)) = one_launch else {
            return matmul_blocked(self, requested, algo, dims, a, b, c);
        };
        let stream = self.stream();
        let (pa, _read_a) = a.buf.slice.device_ptr(stream);
        let (pb, _read_b) = b.buf.slice.device_ptr(stream);
        let (pc, _write_c) = c.buf.slice.device_ptr_mut(stream);
        if auto_fp32 {
            // SAFETY (both): FP32 was requested, so A, B are f32 (the callers pass inputs of the
            // precision's type), of the checked sizes, in this context, and the guards record their
            // use after the launches are queued; the choice is the catalogue's for this checked shape
            // (the model's: `algo` or its padded path; or tuned on request, `ops::auto_tuning`).
            let choice = unsafe { self.auto_fp32_choice(stream, shape, pa, pb, pc) }?;
            return unsafe { self.run_fp32_choice(stream, shape, choice, pa, pb, pc) };
        }
        // SAFETY: A, B, C hold at least m·k, k·n inputs of the kernel's precision and m·n floats
        // (checked above; the callers pass inputs of the precision's type), whole allocations of this
        // context (16-byte aligned), and the guards record their use after the launch is queued.
        unsafe { self.launch_matmul_raw(stream, algo, shape, pa, pb, pc) }
    }

    /// Queues the concrete kernel `algo` for `shape` on `stream`: zeroes `C` first for split-K and
    /// stream-K (which add partial sums into `C`), prepares the operands of a kernel that takes prepared TF32
    /// operands (kernels 14–16's TF32 entries) in this GPU's workspace first, and copies a TMA kernel's
    /// operands there with padded rows where the TMA cannot read them in place.
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
        // The kernel's by-rows twin where N % 4 != 0 (MatmulKernel::launched).
        let f = self.kernel(kernel.launched(n).0)?;
        if kernel.config.tf32_operands {
            // SAFETY: forwarded contract.
            return unsafe { self.matmul_prepared_tf32(stream, f, kernel, algo, shape, a, b, c) };
        }
        // SAFETY: forwarded contract; C is zeroed above for the kernels that add into it.
        unsafe { self.launch_product(stream, f, kernel, algo, shape, a, b, c) }
    }

    /// Queues the matmul kernel `f` (`kernel`'s entry) on `x` (`m × k`), `y` (`k × n`, or the prepared
    /// `Bᵀ` for TF32-operand kernels) and `c`; a TMA kernel gets the two tensor maps over `x` and `y`
    /// instead of the pointers ([`super::tma`]), in the layouts of [`tessera_catalogue::tma::plan`]:
    /// an operand whose rows are not whole 16-byte units is first copied by `pad_b16` into this GPU's
    /// workspace with rows padded to them (stream-ordered, inside the caller's timing); prepared TF32
    /// operands come with those rows already ([`Gpu::matmul_prepared_tf32`]).
    ///
    /// # Safety
    /// As [`Gpu::launch_matmul_raw`] for `x`, `y`, `c`; `C` zeroed first when `algo` accumulates; for a
    /// TMA kernel with prepared TF32 operands, `x` and `y` have the plan's leading dimensions.
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
        let elem_bytes = kernel.precision.input_bytes();
        let packing = kernel.config.tma.then(|| tma::plan(kernel.config, shape, elem_bytes));
        // Operands the TMA cannot read in place (prepared TF32 operands are already laid out).
        let copies = packing.filter(|p| !kernel.config.tf32_operands && !p.in_place());
        // The workspace stays locked (and its use recorded) until the launch below is queued.
        let work = match copies {
            Some(p) => Some(self.workspace_at_least(stream, workspace_floats(p.copy_bytes(elem_bytes))?)?),
            None => None,
        };
        let staged = work.as_ref().and_then(|w| (**w).as_ref()).map(|w| w.device_ptr(stream));
        let (x, y) = match (copies, &staged) {
            (Some(p), Some((base, _))) => {
                let mut next = *base;
                let mut stage = |src: u64, layout: Layout| -> Result<u64> {
                    if !layout.padded() {
                        return Ok(src);
                    }
                    let dst = next;
                    next += layout.elements() * elem_bytes as u64;
                    // SAFETY: src holds the operand's rows·cols elements (the caller's contract); the
                    // workspace holds copy_bytes() from `base`, of which [dst, next) is this copy's.
                    unsafe { self.pad_rows(stream, src, dst, layout, elem_bytes) }?;
                    Ok(dst)
                };
                (stage(x, p.a)?, stage(y, p.b)?)
            }
            (Some(p), None) => return Err(Error::OutOfMemory { bytes: usize::try_from(p.copy_bytes(elem_bytes)).unwrap_or(usize::MAX) }),
            (None, _) => (x, y),
        };
        let maps = match packing {
            Some(p) => Some(self.tensor_maps.maps(stream, &tma::operands(kernel.config, &p, elem_bytes)?, kernel.precision, x, y)?),
            None => None,
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
        // the kernels take) and 32-bit shapes; a TMA kernel's maps describe exactly those operands in
        // the plan's layouts (the caller's buffers, the padded copies queued above, or the prepared
        // TF32 operands) and live until the launch completes (cached, or freed stream-ordered after
        // it); the launch is the one the kernel states (its TileConfig, through the catalogue: threads
        // and dynamic shared memory, planned for this GPU's SMs, as the zeroing of C for split-K and
        // stream-K by the caller).
        let launched = self.launched(unsafe { launch.launch(launch_config(algo.launch_on(shape, self.sm_count()))) });
        drop(map_guard);
        drop(staged);
        launched
    }

    /// Queues `pad_b16`: the dense `layout.rows × layout.cols` matrix at `src` copied to `dst` with
    /// rows `layout.ld` elements apart (the padding is not written).
    ///
    /// # Safety
    /// `src` addresses `rows·cols` and `dst` `rows·ld` elements of `elem_bytes` bytes in this context,
    /// not overlapping, neither written by other work until the copy completes on `stream`.
    unsafe fn pad_rows(&self, stream: &Arc<CudaStream>, src: u64, dst: u64, layout: Layout, elem_bytes: u32) -> Result<()> {
        if elem_bytes != 2 || layout.ld < layout.cols {
            let detail = format!("no padded copy of {elem_bytes}-byte rows of {} into {}", layout.cols, layout.ld);
            return Err(Error::InvalidArgument { op: "matmul", detail });
        }
        let (rows, cols, ld) = (layout.rows, layout.cols, layout.ld);
        let mut launch = stream.launch_builder(self.kernel("pad_b16")?);
        launch.arg(&src).arg(&dst).arg(&rows).arg(&cols).arg(&ld);
        // SAFETY: pad_b16(src, dst, rows, cols, ld) reads src[0..rows·cols] and writes below dst +
        // rows·ld (ld ≥ cols, checked): the caller's sizes; the launch is the catalogue's for it.
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::pad_b16(rows, cols))) })
    }

    /// This GPU's workspace, grown to at least `floats` `f32` (the old one freed first, stream-ordered,
    /// so work already queued on it finishes first) and locked for the caller's launches.
    pub(crate) fn workspace_at_least(&self, stream: &Arc<CudaStream>, floats: usize) -> Result<MutexGuard<'_, Option<CudaSlice<f32>>>> {
        let mut guard = self.workspace.lock().map_err(|_| Error::ContextPoisoned("the workspace lock was poisoned".into()))?;
        if guard.as_ref().is_none_or(|w| w.len() < floats) {
            *guard = None; // free the old one first
            *guard = Some(stream.alloc_zeros::<f32>(floats).map_err(|_| Error::OutOfMemory { bytes: floats.saturating_mul(4) })?);
        }
        Ok(guard)
    }

    /// A kernel that takes prepared TF32 operands (kernels 14–16's TF32 entries): rounds and
    /// transposes `B` into the workspace (`Bᵀ`, `n × k`), rounds `A` into it unless the kernel rounds
    /// `A` itself and can read it in place (kernels 15–16 where K is a multiple of 4), then runs the
    /// kernel — two or three launches in stream order, all inside the caller's timing. Kernel 14
    /// reads dense rows; for the TMA kernels the preparation writes the rows of
    /// [`tessera_catalogue::tma::plan`] (padded to 4 floats where K is not a multiple of 4), so they
    /// need no further copy. The workspace (`m·lda + n·ldb` floats, or `n·ldb`) is kept for the next
    /// call.
    ///
    /// # Safety
    /// As [`Gpu::launch_matmul_raw`], with `a`, `b` of `f32`; `kernel` is `algo`'s, `f` its entry.
    #[allow(clippy::too_many_arguments)]
    unsafe fn matmul_prepared_tf32(
        &self,
        stream: &Arc<CudaStream>,
        f: &cudarc::driver::CudaFunction,
        kernel: &tessera_catalogue::MatmulKernel,
        algo: Algo,
        shape: MatmulShape,
        a: u64,
        b: u64,
        c: u64,
    ) -> Result<()> {
        let (m, n, k) = (shape.m, shape.n, shape.k);
        let (lda, ldb, a_in_place) = if kernel.config.tma {
            let p = tma::plan(kernel.config, shape, 4);
            (p.a.ld, p.b.ld, kernel.config.rounds_a && !p.a.padded())
        } else {
            (k, k, false)
        };
        let a_len = if a_in_place { 0 } else { m as u64 * lda as u64 };
        let floats = workspace_floats(4 * (a_len + n as u64 * ldb as u64))?;
        let work = self.workspace_at_least(stream, floats)?;
        let Some(work) = work.as_ref() else { return Err(Error::OutOfMemory { bytes: floats.saturating_mul(4) }) };
        let (base, _record) = work.device_ptr(stream);
        let (a_prep, bt_prep) = if a_in_place { (a, base) } else { (base, base + 4 * a_len) };
        if !a_in_place {
            let mut launch = stream.launch_builder(self.kernel("tf32_round")?);
            launch.arg(&a).arg(&a_prep).arg(&m).arg(&k).arg(&lda);
            // SAFETY: tf32_round(src, dst, rows, cols, ld) reads src[0..m·k] and writes below dst + m·lda
            // (lda ≥ k): A holds m·k f32 (the caller's contract; TF32 inputs are f32), the workspace
            // m·lda + n·ldb floats from a_prep; they do not overlap (the workspace is tessera's own).
            self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_round(m, k))) })?;
        }
        let mut launch = stream.launch_builder(self.kernel("tf32_transpose_round")?);
        launch.arg(&b).arg(&bt_prep).arg(&k).arg(&n).arg(&ldb);
        // SAFETY: tf32_transpose_round(src, dst, rows = k, cols = n, ld) reads src[0..k·n] (B) and writes
        // below dst + n·ldb (ldb ≥ k): the workspace after A' (from its start when A is read in place).
        self.launched(unsafe { launch.launch(launch_config(tessera_catalogue::launch::tf32_transpose(k, n))) })?;
        // SAFETY: the kernel reads A' (m × k, rows lda apart: the caller's A where it rounds A itself
        // and lda = k) and Bᵀ' (n × k, rows ldb apart), prepared above in stream order with the
        // leading dimensions it reads (the plan's for a TMA kernel, dense for kernel 14), and writes
        // C < m·n (the caller's contract).
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

/// `bytes` of workspace as a count of `f32` (rounded up), or [`Error::TooLarge`] past this host's
/// address space.
fn workspace_floats(bytes: u64) -> Result<usize> {
    usize::try_from(bytes.div_ceil(4))
        .map_err(|_| Error::TooLarge { op: "matmul", detail: format!("a workspace of {bytes} bytes exceeds the address space") })
}
