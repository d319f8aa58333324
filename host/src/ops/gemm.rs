//! BLAS-style GEMM: `C = α·op(A)·op(B) + β·C` on matrix views (any layout, leading dimension and
//! offset), in every precision, with the catalogue's plan ([`tessera_catalogue::plan::gemm`]): pack passes
//! where an operand is not dense row-major, one matmul kernel, and the `α`/`β` epilogue.
use cudarc::driver::{CudaSlice, CudaView, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::gemm::{
    GemmArgs, GemmFinish, GemmParams, GemmPlan, Operand, OperandPlan, Output, Pack, ProductPlan, RowMajorView,
};
use tessera_catalogue::registry::launch::tiles;
use tessera_catalogue::{Activation, BiasKind, OutputFormat, Plan, Precision};
use tessera_kernels::{epilogue, pack};

use super::finishing::FinishArgs;
use super::launch_config;
use crate::buffer::{byte_len, DeviceBuffer};
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, OutputElement};
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
        c: MatrixMut<'_, f32>,
    ) -> Result<()> {
        self.gemm_with(params, &GemmEpilogue::new(), a, b, c)
    }

    /// `C = act(α·op(A)·op(B) + β·C + bias)`, queued on the stream: [`Gpu::gemm`] with an epilogue —
    /// a bias (one value per column or per row of `C`) and an activation — and `C` in `f32`, BF16 or
    /// FP16 (`O`; each result rounded once from its `f32` sum; with `β ≠ 0` the old `C` is read in
    /// `O`).
    ///
    /// Where `C` is dense and `β = 0` and the operands need no pack, a kernel that finishes its sums
    /// in its store (kernel 27 on Hopper for BF16, FP16, TF32; kernel 29 for FP32: `Auto`'s pick, or
    /// the named kernel if it is one) computes it in one launch, as [`Gpu::matmul_fused`]; otherwise
    /// (or where the target has no such kernel, or the kernel named does not finish its sums) the
    /// product goes into scratch memory and one more pass (`gemm_finish_*`) applies `α`, `β·C`, the
    /// bias and the activation. `α = 0` or `K = 0`: `C = act(β·C + bias)` without reading `A` or `B`.
    ///
    /// Errors: as [`Gpu::gemm`]'s, and [`Error::BufferTooSmall`] for a bias shorter than its kind
    /// needs (`C`'s columns or rows), [`Error::WrongContext`] for a bias of another GPU.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, Activation, BiasKind, DeviceBuffer, GemmEpilogue, GemmParams, Gpu, MatrixMut, MatrixRef, Transpose};
    /// let gpu = Gpu::new(0)?;
    /// let (m, n, k) = (4096, 1024, 512);
    /// let x = DeviceBuffer::<bf16>::zeros(&gpu, m * k)?;
    /// let w = DeviceBuffer::<bf16>::zeros(&gpu, n * k)?; // a linear layer's weight, n × k
    /// let bias = DeviceBuffer::<f32>::zeros(&gpu, n)?;
    /// let mut y = DeviceBuffer::<bf16>::zeros(&gpu, m * n)?;
    /// // y = GELU(x·wᵀ + bias) in BF16.
    /// let params = GemmParams::new().trans_b(Transpose::Yes);
    /// let epilogue = GemmEpilogue::new().bias(BiasKind::PerColumn, &bias).activation(Activation::GeluTanh);
    /// gpu.gemm_with(&params, &epilogue, MatrixRef::row_major(&x, m, k), MatrixRef::row_major(&w, n, k), MatrixMut::row_major(&mut y, m, n))?;
    /// # Ok(()) }
    /// ```
    pub fn gemm_with<T: DeviceElement, O: OutputElement>(
        &self,
        params: &GemmParams,
        epilogue: &GemmEpilogue<'_>,
        a: MatrixRef<'_, T>,
        b: MatrixRef<'_, T>,
        mut c: MatrixMut<'_, O>,
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
        let out_bytes = std::mem::size_of::<O>();
        let finish = GemmFinish { out_bytes, epilogue: epilogue.finishes() };
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
        .plan_finishing(finish)?;
        if let Some((kind, bias)) = epilogue.bias {
            bias.check_context(self, OP)?;
            let (m, n) = (c.desc().rows, c.desc().cols);
            let needed = kind.len(m, n);
            if bias.len() < needed {
                return Err(Error::BufferTooSmall { op: OP, name: "bias", len: bias.len(), needed });
            }
        }
        // The product's plan (the kernel must compute in the precision asked for, whether or not there
        // is a product to run: an empty one checks that alone).
        let dims = match &gemm {
            GemmPlan::Product(p) => p.dims,
            _ => GemmDims { m: 0, n: 0, k: 0 },
        };
        let plan = self.plan_request(OP, params.algo, precision, dims, (OutputFormat::F32, false), params.k_slices)?;
        self.check_usable()?;
        let stream = self.stream();
        let (pc, _write_c) = c.buffer().as_cuda_slice_mut().device_ptr_mut(stream);
        let bias_guard = epilogue.bias.map(|(_, b)| b.slice.device_ptr(stream));
        let bias = bias_guard.as_ref().map_or(0, |g| g.0);
        // The kernels work on C restated row-major: a column-major C's columns are their rows.
        let finisher = |restated: bool| Finisher { format: O::FORMAT, bias, code: epilogue.code(restated), out_bytes, c: (pc, c_len) };
        match gemm {
            GemmPlan::Nothing => Ok(()),
            GemmPlan::Scale { c: view, beta, restated } => {
                if finish.finishes() {
                    // act(β·C + bias): the finishing pass over a zero product.
                    let zeros = self
                        .stream()
                        .alloc_zeros::<f32>(view.rows * view.cols)
                        .map_err(Error::driver("allocating GEMM scratch", byte_len::<f32>(OP, view.rows * view.cols)?))?;
                    // SAFETY: C is the caller's view of O elements (checked by the plan), the bias holds
                    // what its kind needs (checked), zeros m·n floats.
                    unsafe { self.gemm_finish(&finisher(restated), &zeros, false, view, 0.0, beta) }
                } else {
                    // SAFETY: O is f32 (nothing to finish); C's view checked by the plan.
                    unsafe { self.gemm_scale(pc, c_len, view, beta) }
                }
            }
            GemmPlan::Product(p) => {
                let (a_view, b_view) = (a.buffer().as_cuda_slice().slice(..), b.buffer().as_cuda_slice().slice(..));
                let f = finisher(p.restated);
                // SAFETY: as above; `f` names C's view of O elements and the checked bias.
                unsafe { self.gemm_product(params, precision, &plan, &p, &a_view, &b_view, &f) }
            }
        }
    }

    /// Runs a [`ProductPlan`]: packs, the planned product (into `C` — finishing its sums where the
    /// plan asks and a kernel does — or into scratch), then `α`, the epilogue or the finishing pass.
    ///
    /// # Safety
    /// `f.c` addresses the caller's `C` (its view checked by the plan) of `f.format` elements; `f.bias`
    /// null or the values `f.code` needs.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm_product<T: DeviceElement>(
        &self,
        params: &GemmParams,
        precision: Precision,
        plan: &Plan,
        p: &ProductPlan,
        a: &CudaView<'_, T>,
        b: &CudaView<'_, T>,
        f: &Finisher,
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
        let (c_ptr, c_len) = f.c;
        let c_at = |offset: usize, len: usize| -> Result<u64> {
            if offset + len > c_len {
                return Err(out_of_range("C", offset + len, c_len));
            }
            Ok(c_ptr + (offset * f.out_bytes) as u64)
        };
        let requested = params.algo;
        // One launch of a kernel that finishes its sums, where one runs this product — unless the
        // caller scheduled K slices: their partial sums add in f32, then the finishing pass.
        if p.output == Output::Direct && p.finish && params.k_slices.is_none() {
            let finishing = self.plan_request(OP, requested, precision, p.dims, (f.format, true), None);
            if let Ok(Plan::One(l)) = finishing {
                let out = c_at(p.c.offset, m * n)?;
                let stream = self.stream();
                let (pxp, _read_x) = x.device_ptr(stream);
                let (pyp, _read_y) = y.device_ptr(stream);
                let args = FinishArgs { alpha: p.alpha, bias: f.bias, epilogue: f.code, ..FinishArgs::default() };
                // SAFETY: x, y hold the m·k and k·n inputs the plan's operands view (dense, on 16 bytes:
                // the GEMM plan's Direct operands), `out` C's m·n dense elements of the launch's output
                // format (checked in range above), the bias the code's; the plan is this GPU's.
                return unsafe { self.launch_finishing(stream, &l.launch, pxp, pyp, out, args) };
            }
        }
        match p.output {
            Output::Direct if !p.finish => {
                let out = c_at(p.c.offset, m * n)?;
                self.matmul_views(requested, plan, &x, &y, out, m * n)?;
                if p.alpha != 1.0 {
                    // SAFETY: nothing to finish: C is f32, its view checked by the plan.
                    unsafe { self.gemm_scale(c_ptr, c_len, p.c, p.alpha)? };
                }
                Ok(())
            }
            output => {
                let transposed = matches!(output, Output::Scratch { transposed: true });
                // SAFETY: the matmul kernel writes every one of the m·n elements (split-K and stream-K
                // zero it first) before the epilogue reads any.
                let mut t = unsafe { self.stream().alloc::<f32>(m * n) }
                    .map_err(Error::driver("allocating GEMM scratch", byte_len::<f32>(OP, m * n)?))?;
                let (pt, _write_t) = t.device_ptr_mut(self.stream());
                self.matmul_views(requested, plan, &x, &y, pt, m * n)?;
                drop(_write_t);
                if p.finish {
                    // SAFETY: the caller's contract for C and the bias; t holds the m·n product.
                    unsafe { self.gemm_finish(f, &t, transposed, p.c, p.alpha, p.beta) }
                } else {
                    // SAFETY: nothing to finish: C is f32; t holds the m·n product.
                    unsafe { self.gemm_epilogue(&t, transposed, c_ptr, c_len, p.c, p.alpha, p.beta) }
                }
            }
        }
    }

    /// The planned product on dense row-major views: `x` (m×k), `y` (k×n) into the `m·n` floats at
    /// `out` (`out_len` of them there).
    fn matmul_views<T: DeviceElement>(
        &self,
        requested: tessera_catalogue::Algo,
        plan: &Plan,
        x: &CudaView<'_, T>,
        y: &CudaView<'_, T>,
        out: u64,
        out_len: usize,
    ) -> Result<()> {
        let GemmDims { m, n, k } = plan.dims();
        for (name, len, needed) in [("A", x.len(), m * k), ("B", y.len(), k * n), ("C", out_len, m * n)] {
            if len < needed {
                return Err(out_of_range(name, needed, len));
            }
        }
        let stream = self.stream();
        let (px, _read_x) = x.device_ptr(stream);
        let (py, _read_y) = y.device_ptr(stream);
        // SAFETY: the plan is this GPU's for these dimensions, in the precision asked for, whose input
        // type T is; x, y, out address at least m·k, k·n inputs of T and m·n floats (checked above, the
        // output by the caller: C's f32 view or scratch), in this context (checked by `gemm_with`),
        // 16-byte aligned (whole allocations, or offsets the GEMM plan proved aligned); the guards
        // (the caller's for `out`) record their use after the launches are queued.
        unsafe { self.run_plan(stream, OP, plan, requested, px, py, out) }
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

    /// `C = β·C` over the row-major view (`C = 0` when `β = 0`, without reading it), `C` the `c_len`
    /// floats at `c`.
    ///
    /// # Safety
    /// `c` addresses `c_len` floats of this context, in use by the caller (its guard alive).
    unsafe fn gemm_scale(&self, c: u64, c_len: usize, view: RowMajorView, beta: f32) -> Result<()> {
        if view.offset + view.span() > c_len {
            return Err(out_of_range("C", view.offset + view.span(), c_len));
        }
        let (cv, len) = (c + 4 * view.offset as u64, c_len - view.offset);
        let (m, n, ld) = (view.rows as u32, view.cols as u32, view.ld);
        let mut launch = self.stream().launch_builder(self.kernel("gemm_scale")?);
        launch.arg(&cv).arg(&len).arg(&m).arg(&n).arg(&ld).arg(&beta);
        // SAFETY: gemm_scale(c, c_len, m, n, ldc, beta) touches (r, c) < (m, n) at r·ldc + c < span ≤
        // len (checked), ldc ≥ n (a checked view); the launch is the catalogue's tile launch.
        self.launched(unsafe { launch.launch(launch_config(tiles(view.rows, view.cols, 0))) })
    }

    /// `C = α·T + β·C`, `T` dense `m × n` (or `n × m`, read transposed), `C` the `c_len` floats at `c`.
    ///
    /// # Safety
    /// As [`Gpu::gemm_scale`].
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm_epilogue(
        &self,
        t: &CudaSlice<f32>,
        transposed: bool,
        c: u64,
        c_len: usize,
        view: RowMajorView,
        alpha: f32,
        beta: f32,
    ) -> Result<()> {
        if view.offset + view.span() > c_len || t.len() < view.rows * view.cols {
            return Err(out_of_range("C", view.offset + view.span(), c_len));
        }
        let (cv, len) = (c + 4 * view.offset as u64, c_len - view.offset);
        let (m, n, ld, tr) = (view.rows as u32, view.cols as u32, view.ld, u32::from(transposed));
        let mut launch = self.stream().launch_builder(self.kernel("gemm_epilogue")?);
        launch.arg(t).arg(&cv).arg(&len).arg(&m).arg(&n).arg(&ld).arg(&tr).arg(&alpha).arg(&beta);
        // SAFETY: gemm_epilogue(t, c, c_len, m, n, ldc, t_transposed, alpha, beta) reads t's m·n floats
        // (checked) and touches C's (r, c) < (m, n) at r·ldc + c < span ≤ len (checked), ldc ≥ n; t and
        // C are different allocations; the launch has the kernel's block and shared memory.
        self.launched(unsafe { launch.launch(launch_config(tiles(view.rows, view.cols, epilogue::SHARED_BYTES))) })
    }

    /// `C = act(α·T + β·C + bias)` into `f.c` of `f.format` elements (`gemm_finish_*`).
    ///
    /// # Safety
    /// `f.c` addresses that many elements of `f.format` of this context (in use by the caller); the
    /// bias null or the values `f.code` needs.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm_finish(
        &self,
        f: &Finisher,
        t: &CudaSlice<f32>,
        transposed: bool,
        view: RowMajorView,
        alpha: f32,
        beta: f32,
    ) -> Result<()> {
        let (c, c_len) = f.c;
        if view.offset + view.span() > c_len || t.len() < view.rows * view.cols {
            return Err(out_of_range("C", view.offset + view.span(), c_len));
        }
        let entry = match f.format {
            OutputFormat::F32 => "gemm_finish_f32",
            OutputFormat::Bf16 => "gemm_finish_bf16",
            OutputFormat::F16 => "gemm_finish_f16",
        };
        let (cv, len) = (c + (f.out_bytes * view.offset) as u64, c_len - view.offset);
        let (m, n, ld, tr) = (view.rows as u32, view.cols as u32, view.ld, u32::from(transposed));
        let mut launch = self.stream().launch_builder(self.kernel(entry)?);
        launch.arg(t).arg(&cv).arg(&len).arg(&m).arg(&n).arg(&ld).arg(&tr).arg(&alpha).arg(&beta).arg(&f.bias).arg(&f.code);
        // SAFETY: gemm_finish_*(t, c, c_len, m, n, ldc, t_transposed, alpha, beta, bias, code) reads t's
        // m·n floats (checked) and touches C's (r, c) < (m, n) at r·ldc + c < span ≤ len (checked) as
        // the entry's element type (the format's), ldc ≥ n; the bias the code's (the caller's
        // contract); the launch has the kernel's block and shared memory.
        self.launched(unsafe { launch.launch(launch_config(tiles(view.rows, view.cols, epilogue::SHARED_BYTES))) })
    }
}

/// What a GEMM does after `α·op(A)·op(B) + β·C` ([`Gpu::gemm_with`]): a bias — one value per column
/// (`n`) or per row (`m`) of `C`, added before the activation — and an activation.
#[derive(Clone, Copy, Default)]
pub struct GemmEpilogue<'a> {
    pub bias: Option<(BiasKind, &'a DeviceBuffer<f32>)>,
    pub activation: Activation,
}

impl<'a> GemmEpilogue<'a> {
    /// No bias, no activation: BLAS's GEMM.
    pub fn new() -> Self {
        Self::default()
    }

    /// A bias of `kind`, its values in `bias`.
    pub fn bias(self, kind: BiasKind, bias: &'a DeviceBuffer<f32>) -> Self {
        Self { bias: Some((kind, bias)), ..self }
    }

    /// The activation.
    pub fn activation(self, activation: Activation) -> Self {
        Self { activation, ..self }
    }

    /// Whether it changes anything (a bias or an activation).
    pub(crate) fn finishes(&self) -> bool {
        self.bias.is_some() || self.activation != Activation::Identity
    }

    /// The kernels' code word, on `C` restated as `Cᵀ` when `restated` (a bias per column of `C` is
    /// one per row of what they write).
    pub(crate) fn code(&self, restated: bool) -> u32 {
        let kind = self.bias.map(|(kind, _)| match (kind, restated) {
            (BiasKind::PerColumn, true) => BiasKind::PerRow,
            (BiasKind::PerRow, true) => BiasKind::PerColumn,
            (kind, false) => kind,
        });
        tessera_catalogue::epilogue::code(kind, self.activation)
    }
}

/// Where and how the finishing pass (or kernel) writes `C`: its element format, the bias's device
/// address (0: none), the kernels' code word, bytes per element, and `C`'s address and length.
struct Finisher {
    format: OutputFormat,
    bias: u64,
    code: u32,
    out_bytes: usize,
    c: (u64, usize),
}

/// `view` from element `offset` on.
fn sub_view<'a, T>(view: &CudaView<'a, T>, offset: usize) -> Result<CudaView<'a, T>> {
    view.try_slice(offset..).ok_or_else(|| out_of_range("an operand", offset, view.len()))
}

/// A view the plan proved in range turned out not to be: an internal error, reported, never a panic.
fn out_of_range(name: &'static str, needed: usize, len: usize) -> Error {
    Error::BufferTooSmall { op: OP, name, len, needed }
}
