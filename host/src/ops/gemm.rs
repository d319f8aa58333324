//! BLAS-style GEMM: `C = α·op(A)·op(B) + β·C` on matrix views (any layout, leading dimension and
//! offset), in every precision, with the catalogue's plan ([`tessera_catalogue::plan::gemm`]): pack passes
//! where an operand is not dense row-major, one matmul kernel, and the `α`/`β` epilogue.
use cudarc::driver::{CudaSlice, CudaView, CudaViewMut, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::gemm::{GemmArgs, GemmParams, GemmPlan, Operand, OperandPlan, Output, Pack, ProductPlan, RowMajorView};
use tessera_catalogue::registry::launch::tiles;
use tessera_catalogue::Plan;
use tessera_kernels::{epilogue, pack};

use super::launch_config;
use crate::buffer::byte_len;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::DeviceElement;
use crate::view::{MatrixMut, MatrixRef};

const OP: &str = tessera_catalogue::plan::gemm::OP;

impl Gpu {
    /// `C = α·op(A)·op(B) + β·C` (BLAS's xGEMM), queued on the stream.
    ///
    /// `A`, `B`, `C` are views ([`MatrixRef`], [`MatrixMut`]): row- or column-major, sub-matrices of
    /// larger ones (leading dimension, offset). `op` is [`GemmParams::trans_a`] / `trans_b`. The
    /// product runs in the inputs' precision — FP32 for `f32` (TF32 only when asked for with
    /// `params.precision(Precision::Tf32)`), BF16 for `bf16`, FP16 for `f16` — with `f32`
    /// accumulation; `C` is `f32`. `params.algo` picks the matmul kernel (`Auto` by default).
    ///
    /// BLAS's semantics: `M = 0` or `N = 0` does nothing; `α = 0` or `K = 0` sets `C = β·C` without
    /// reading `A` or `B`; `β = 0` does not read `C` (NaN or infinity in it is overwritten). Only the
    /// view's elements of `C`'s buffer are written.
    ///
    /// Cost: layouts the kernels read directly need no extra pass (row-major `NN`, column-major `NN`,
    /// row-major `TT` up to one transposing epilogue); otherwise an operand is packed (a transpose or
    /// strided copy, about one read and one write of it) into scratch memory allocated on the stream,
    /// and `C` goes through the epilogue when `β ≠ 0` or `C` is not dense. See
    /// [`tessera_catalogue::plan::gemm`] for the plan.
    ///
    /// Errors, all before any GPU work (the `Gpu` stays usable): [`Error::UnsupportedPrecision`] for a precision the inputs cannot take,
    /// [`Error::NoKernel`] for FP8 inputs (their products take dense matrices: [`Gpu::matmul_fp8`]),
    /// [`Error::PrecisionMismatch`] for a kernel of another precision, [`Error::WrongContext`],
    /// [`Error::LeadingDimension`] and [`Error::BufferTooSmall`] for a view that does not fit its
    /// buffer, [`Error::ShapeMismatch`] when `op(A)` (m×k), `op(B)` (k×n) and `C` (m×n) disagree,
    /// [`Error::TooLarge`] beyond the kernels' 32-bit indexing.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{DeviceBuffer, GemmParams, Gpu, MatrixMut, MatrixRef, Transpose};
    /// let gpu = Gpu::new(0)?;
    /// let (m, n, k) = (256, 128, 64);
    /// let a = DeviceBuffer::<f32>::zeros(&gpu, m * k)?; // column-major m×k
    /// let b = DeviceBuffer::<f32>::zeros(&gpu, n * k)?; // column-major n×k, used as Bᵀ
    /// let mut c = DeviceBuffer::<f32>::zeros(&gpu, m * n)?;
    /// // C = 2·A·Bᵀ + C, all column-major as in Fortran BLAS.
    /// let params = GemmParams::new().alpha(2.0).beta(1.0).trans_b(Transpose::Yes);
    /// gpu.gemm(&params, MatrixRef::col_major(&a, m, k), MatrixRef::col_major(&b, n, k), MatrixMut::col_major(&mut c, m, n))?;
    /// # Ok(()) }
    /// ```
    pub fn gemm<T: DeviceElement>(
        &self,
        params: &GemmParams,
        a: MatrixRef<'_, T>,
        b: MatrixRef<'_, T>,
        mut c: MatrixMut<'_, f32>,
    ) -> Result<()> {
        let precision = params.resolve_precision(T::PRECISION).ok_or(Error::UnsupportedPrecision {
            op: OP,
            requested: params.precision.unwrap_or(T::PRECISION),
            input: T::PRECISION,
        })?;
        if precision.is_fp8() {
            // Kernel 25 reads dense A and Bᵀ only: `Gpu::matmul_fp8`.
            return Err(Error::NoKernel { op: OP, precision });
        }
        a.buffer().check_context(self, OP)?;
        b.buffer().check_context(self, OP)?;
        c.buffer().check_context(self, OP)?;
        let c_len = c.buffer().len();
        let gemm = GemmArgs {
            alpha: params.alpha,
            beta: params.beta,
            a: a.desc(),
            a_len: a.buffer().len(),
            trans_a: params.trans_a,
            b: b.desc(),
            b_len: b.buffer().len(),
            trans_b: params.trans_b,
            c: c.desc(),
            c_len,
            elem_bytes: std::mem::size_of::<T>(),
        }
        .plan()?;
        // The product's plan (the kernel must compute in the precision asked for, whether or not there
        // is a product to run: an empty one checks that alone).
        let dims = match &gemm {
            GemmPlan::Product(p) => p.dims,
            _ => GemmDims { m: 0, n: 0, k: 0 },
        };
        let plan = self.plan_as(OP, params.algo, precision, dims)?;
        self.check_usable()?;
        match gemm {
            GemmPlan::Nothing => Ok(()),
            GemmPlan::Scale { c: view, beta } => self.gemm_scale(c.buffer().as_cuda_slice_mut(), view, beta),
            GemmPlan::Product(p) => {
                let (a_view, b_view) = (a.buffer().as_cuda_slice().slice(..), b.buffer().as_cuda_slice().slice(..));
                self.gemm_product(params.algo, &plan, &p, &a_view, &b_view, c.buffer().as_cuda_slice_mut())
            }
        }
    }

    /// Runs a [`ProductPlan`]: packs, the planned product (into `C` or scratch), then `α` or the epilogue.
    fn gemm_product<T: DeviceElement>(
        &self,
        requested: tessera_catalogue::Algo,
        plan: &Plan,
        p: &ProductPlan,
        a: &CudaView<'_, T>,
        b: &CudaView<'_, T>,
        c: &mut CudaSlice<f32>,
    ) -> Result<()> {
        let source = |o: Operand| if o == Operand::A { a } else { b };
        let packed = |o: &OperandPlan| -> Result<Option<CudaSlice<T>>> {
            match o {
                OperandPlan::Direct { .. } => Ok(None),
                OperandPlan::Pack(pk) => self.pack(pk, source(pk.source)).map(Some),
            }
        };
        let (px, py) = (packed(&p.x)?, packed(&p.y)?);
        fn view<'v, T>(
            o: &OperandPlan,
            packed: &'v Option<CudaSlice<T>>,
            a: &CudaView<'v, T>,
            b: &CudaView<'v, T>,
        ) -> Result<CudaView<'v, T>> {
            match (o, packed) {
                (_, Some(buf)) => Ok(buf.slice(..)),
                (OperandPlan::Direct { source: s, offset }, None) => sub_view(if *s == Operand::A { a } else { b }, *offset),
                (OperandPlan::Pack(_), None) => Err(Error::InvalidArgument { op: OP, detail: "a pack produced nothing".into() }),
            }
        }
        let (x, y) = (view(&p.x, &px, a, b)?, view(&p.y, &py, a, b)?);
        let (m, n) = (p.dims.m, p.dims.n);
        match p.output {
            Output::Direct => {
                let c_len = c.len();
                let mut out =
                    c.try_slice_mut(p.c.offset..p.c.offset + m * n).ok_or_else(|| out_of_range("C", p.c.offset + m * n, c_len))?;
                self.matmul_views(requested, plan, &x, &y, &mut out)?;
                if p.alpha != 1.0 {
                    self.gemm_scale(c, p.c, p.alpha)?;
                }
                Ok(())
            }
            Output::Scratch { transposed } => {
                // SAFETY: the matmul kernel writes every one of the m·n elements (split-K and stream-K
                // zero it first) before the epilogue reads any.
                let mut t = unsafe { self.stream().alloc::<f32>(m * n) }
                    .map_err(Error::driver("allocating GEMM scratch", byte_len::<f32>(OP, m * n)?))?;
                self.matmul_views(requested, plan, &x, &y, &mut t.slice_mut(..))?;
                self.gemm_epilogue(&t, transposed, c, p.c, p.alpha, p.beta)
            }
        }
    }

    /// The planned product on dense row-major views: `x` (m×k), `y` (k×n) into `out` (m×n).
    fn matmul_views<T: DeviceElement>(
        &self,
        requested: tessera_catalogue::Algo,
        plan: &Plan,
        x: &CudaView<'_, T>,
        y: &CudaView<'_, T>,
        out: &mut CudaViewMut<'_, f32>,
    ) -> Result<()> {
        let GemmDims { m, n, k } = plan.dims();
        for (name, len, needed) in [("A", x.len(), m * k), ("B", y.len(), k * n), ("C", out.len(), m * n)] {
            if len < needed {
                return Err(out_of_range(name, needed, len));
            }
        }
        let stream = self.stream();
        let (px, _read_x) = x.device_ptr(stream);
        let (py, _read_y) = y.device_ptr(stream);
        let (pc, _write_c) = out.device_ptr_mut(stream);
        // SAFETY: the plan is this GPU's for these dimensions, in the precision asked for, whose input
        // type T is; x, y, out address at least m·k, k·n inputs of T and m·n floats (checked above), in
        // this context (checked by `gemm`), 16-byte aligned (whole allocations, or offsets the GEMM
        // plan proved aligned); the guards record their use after the launches are queued.
        unsafe { self.run_plan(stream, OP, plan, requested, px, py, pc) }
    }

    /// A pack pass into fresh device memory (`pack_b32` / `pack_b16`): also the device transpose of
    /// column-major uploads (`interop`).
    pub(crate) fn pack<T: DeviceElement>(&self, pk: &Pack, source: &CudaView<'_, T>) -> Result<CudaSlice<T>> {
        let len = pk.rows * pk.cols;
        let entry = match std::mem::size_of::<T>() {
            4 => "pack_b32",
            2 => "pack_b16",
            other => return Err(Error::InvalidArgument { op: OP, detail: format!("no pack kernel for {other}-byte elements") }),
        };
        let src = sub_view(source, pk.offset)?;
        if src.len() < pk.source_span() {
            return Err(out_of_range("a packed operand", pk.offset + pk.source_span(), source.len()));
        }
        // SAFETY: the pack kernel writes every one of the rows·cols elements before anything reads them.
        let mut dst =
            unsafe { self.stream().alloc::<T>(len) }.map_err(Error::driver("allocating GEMM scratch", byte_len::<T>(OP, len)?))?;
        let (src_len, ld, rows, cols, transposed) = (src.len(), pk.ld, pk.rows as u32, pk.cols as u32, u32::from(pk.transposed));
        let cfg = launch_config(tiles(pk.rows, pk.cols, pack::shared_bytes(std::mem::size_of::<T>() as u32)));
        let mut launch = self.stream().launch_builder(self.kernel(entry)?);
        launch.arg(&src).arg(&src_len).arg(&ld).arg(&rows).arg(&cols).arg(&transposed).arg(&mut dst);
        // SAFETY: pack_b32/pack_b16(src, src_len, ld, rows, cols, transposed, dst) read src below the
        // span the plan computed (≤ src_len, checked) and write dst's rows·cols elements (its length);
        // T's size is the kernel's element width (its bits are moved, never interpreted); src and dst
        // are different allocations; the launch has the kernel's block and shared memory (catalogue).
        self.launched(unsafe { launch.launch(cfg) })?;
        Ok(dst)
    }

    /// `C = β·C` over the row-major view (`C = 0` when `β = 0`, without reading it).
    fn gemm_scale(&self, c: &mut CudaSlice<f32>, view: RowMajorView, beta: f32) -> Result<()> {
        let c_len = c.len();
        let mut cv = c.try_slice_mut(view.offset..).ok_or_else(|| out_of_range("C", view.offset, c_len))?;
        if cv.len() < view.span() {
            return Err(out_of_range("C", view.offset + view.span(), c_len));
        }
        let (len, m, n, ld) = (cv.len(), view.rows as u32, view.cols as u32, view.ld);
        let mut launch = self.stream().launch_builder(self.kernel("gemm_scale")?);
        launch.arg(&mut cv).arg(&len).arg(&m).arg(&n).arg(&ld).arg(&beta);
        // SAFETY: gemm_scale(c, c_len, m, n, ldc, beta) touches (r, c) < (m, n) at r·ldc + c < span ≤
        // len (checked), ldc ≥ n (a checked view); the launch is the catalogue's tile launch.
        self.launched(unsafe { launch.launch(launch_config(tiles(view.rows, view.cols, 0))) })
    }

    /// `C = α·T + β·C`, `T` dense `m × n` (or `n × m`, read transposed).
    fn gemm_epilogue(
        &self,
        t: &CudaSlice<f32>,
        transposed: bool,
        c: &mut CudaSlice<f32>,
        view: RowMajorView,
        alpha: f32,
        beta: f32,
    ) -> Result<()> {
        let c_len = c.len();
        let mut cv = c.try_slice_mut(view.offset..).ok_or_else(|| out_of_range("C", view.offset, c_len))?;
        if cv.len() < view.span() || t.len() < view.rows * view.cols {
            return Err(out_of_range("C", view.offset + view.span(), c_len));
        }
        let (len, m, n, ld, tr) = (cv.len(), view.rows as u32, view.cols as u32, view.ld, u32::from(transposed));
        let mut launch = self.stream().launch_builder(self.kernel("gemm_epilogue")?);
        launch.arg(t).arg(&mut cv).arg(&len).arg(&m).arg(&n).arg(&ld).arg(&tr).arg(&alpha).arg(&beta);
        // SAFETY: gemm_epilogue(t, c, c_len, m, n, ldc, t_transposed, alpha, beta) reads t's m·n floats
        // (checked) and touches C's (r, c) < (m, n) at r·ldc + c < span ≤ len (checked), ldc ≥ n; t and
        // C are different allocations; the launch has the kernel's block and shared memory.
        self.launched(unsafe { launch.launch(launch_config(tiles(view.rows, view.cols, epilogue::SHARED_BYTES))) })
    }
}

/// `view` from element `offset` on.
fn sub_view<'a, T>(view: &CudaView<'a, T>, offset: usize) -> Result<CudaView<'a, T>> {
    view.try_slice(offset..).ok_or_else(|| out_of_range("an operand", offset, view.len()))
}

/// A view the plan proved in range turned out not to be: an internal error, reported, never a panic.
fn out_of_range(name: &'static str, needed: usize, len: usize) -> Error {
    Error::BufferTooSmall { op: OP, name, len, needed }
}
