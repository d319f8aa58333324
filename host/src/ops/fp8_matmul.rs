//! FP8 products (kernel 25, Hopper): `C = scale_a · scale_b · A · B` on E4M3 or E5M2 matrices, `C`
//! in `f32`, the sums promoted into `f32` every 128 elements of K unless the caller names an
//! unpromoted kernel ([`Gpu::matmul_fp8`]). [`Gpu::matmul`] runs the same kernels with unit scales.
//!
//! FP8 `wgmma` reads both operands K-major: `A` (`m × k`, row-major) as it is, `B` as `Bᵀ`
//! (`n × k`). Given `B` (`k × n`), the host transposes it first (`pack_b8`, one read and one write
//! of its bytes, stream-ordered into this GPU's workspace); given `Bᵀ` — the layout of torch's
//! `_scaled_mm(a, b.t())` and cuBLASLt's FP8 "TN" — nothing runs before the kernel.
use std::sync::Arc;

use cudarc::driver::{result, CudaFunction, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::plan::KernelLaunch;
use tessera_catalogue::registry::launch;
use tessera_catalogue::select::{fp8_scaled, Fp8Scaling};
use tessera_catalogue::{Activation, Algo, BiasKind, Plan};
use tessera_kernels::matmul::k25_fp8::SCALE_BLOCK;

use super::finishing::FinishArgs;
use super::fp8::Fp8Format;
use super::launch_config;
use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceMatrix, OutputElement};

/// How the caller gives `B` to an FP8 product.
#[derive(Clone, Copy)]
pub enum Fp8Rhs<'a, F> {
    /// `B` itself, `k × n` row-major: transposed by the host before the kernel.
    B(&'a DeviceMatrix<F>),
    /// `Bᵀ`, `n × k` row-major (B column-major): read as it is.
    Bt(&'a DeviceMatrix<F>),
}

/// The scales of an FP8 product, as device `f32` scalars (computed on the GPU by a quantisation step
/// and never copied to the host): `C = scale_a · scale_b · A·B`.
#[derive(Clone, Copy, Default)]
pub enum Fp8Scales<'a> {
    /// `scale_a = scale_b = 1`.
    #[default]
    Unit,
    /// One scale per tensor: element 0 of each buffer.
    PerTensor { a: &'a DeviceBuffer<f32>, b: &'a DeviceBuffer<f32> },
    /// Block scales (DeepSeek-V3's recipe): `a` one per row of A and 128 elements of K
    /// (`m × ⌈k/128⌉`, row-major), `b` one per 128 × 128 block of `Bᵀ` (`⌈n/128⌉ × ⌈k/128⌉`,
    /// row-major). Run by kernel 25's block-scaled entries.
    Blocks { a: &'a DeviceBuffer<f32>, b: &'a DeviceBuffer<f32> },
}

/// What an FP8 product does beside `A·B`: the kernel (`Auto` unless named), the scales, and a fused
/// epilogue (`C = act(scale_a · scale_b · A·B + bias)`, bias per column or per row).
///
/// ```
/// use tessera::{Activation, Algo, Fp8Params};
/// let p = Fp8Params::new().activation(Activation::GeluTanh);
/// assert_eq!((p.algo, p.activation), (Algo::Auto, Activation::GeluTanh));
/// ```
#[derive(Clone, Copy)]
pub struct Fp8Params<'a> {
    pub algo: Algo,
    pub scales: Fp8Scales<'a>,
    /// A bias and where it applies (`n` values per column, `m` per row), added before the activation.
    pub bias: Option<(BiasKind, &'a DeviceBuffer<f32>)>,
    pub activation: Activation,
}

impl<'a> Fp8Params<'a> {
    /// `Auto`, unit scales, no epilogue.
    pub fn new() -> Self {
        Self { algo: Algo::Auto, scales: Fp8Scales::Unit, bias: None, activation: Activation::Identity }
    }

    /// The kernel (`Auto` by default).
    pub fn algo(self, algo: Algo) -> Self {
        Self { algo, ..self }
    }

    /// The scales.
    pub fn scales(self, scales: Fp8Scales<'a>) -> Self {
        Self { scales, ..self }
    }

    /// A bias of `kind`, its values in `bias`.
    pub fn bias(self, kind: BiasKind, bias: &'a DeviceBuffer<f32>) -> Self {
        Self { bias: Some((kind, bias)), ..self }
    }

    /// The activation.
    pub fn activation(self, activation: Activation) -> Self {
        Self { activation, ..self }
    }

    /// Whether the kernel applies a fused epilogue.
    fn fused(&self) -> bool {
        self.bias.is_some() || self.activation != Activation::Identity
    }
}

impl Default for Fp8Params<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether the kernel's `y` operand is the caller's `B` (transposed first) or its `Bᵀ`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BGiven {
    Rows,
    Transposed,
}

impl Gpu {
    /// `c = act(scale_a · scale_b · a · b + bias)` in FP8 (`F`: [`float8::F8E4M3`] or
    /// [`float8::F8E5M2`], both operands of one format), `c` in `f32` or BF16 (`O`: [`OutputElement`]; FP16 is refused; BF16
    /// rounds each `f32` result once as it is stored), queued on the stream. `b` is `B` (`k × n`) or
    /// `Bᵀ` (`n × k`, no transposition: [`Fp8Rhs`]); `params` ([`Fp8Params`]) the kernel, the scales
    /// (per tensor, per block or unit: [`Fp8Scales`]) and the fused epilogue (a bias, an
    /// [`Activation`]), applied in the kernel's store — with BF16 output or an epilogue every tile is
    /// computed whole (no K slices).
    ///
    /// `params.algo`: `Auto` (kernel 25's promoted entry of the format: sums moved into `f32` every 128
    /// elements of K, within [`tessera_catalogue::precision::FP8_WINDOW_ROUNDOFF`]'s rule; its
    /// block-scaled entry for [`Fp8Scales::Blocks`]) or an FP8 kernel of the format by name, which
    /// must take the scales given — the `*_fast` ones keep the whole sum in the tensor core's narrower
    /// FP8 accumulator: faster, less accurate, never picked for you. Needs a Hopper GPU.
    ///
    /// Errors, before any GPU work (the `Gpu` stays usable): [`Error::ShapeMismatch`] when the shapes
    /// disagree, [`Error::Unaligned`] when K is not a multiple of 16 (FP8 rows
    /// are read in place, 16 bytes apart: pad K with zeros), [`Error::PrecisionMismatch`] for a
    /// kernel of another precision, [`Error::InvalidArgument`] for a kernel that takes the other kind
    /// of scales or has no epilogue (the unpromoted ones), for an FP16 `C` (kernel 25 writes `f32` or
    /// BF16) and for `K = 0` with a bias or an activation, [`Error::NoKernel`] off sm_90a,
    /// [`Error::WrongContext`], [`Error::BufferTooSmall`] (a scale or bias buffer shorter than its
    /// values included), [`Error::TooLarge`] for a matrix of 2³¹ elements or more.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::float8::F8E4M3;
    /// use tessera::{bf16, Activation, BiasKind, DeviceBuffer, DeviceMatrix, Fp8Params, Fp8Rhs, Fp8Scales, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let (m, n, k) = (256, 512, 1024);
    /// let (x, w) = (DeviceMatrix::<f32>::zeros(&gpu, m, k)?, DeviceMatrix::<f32>::zeros(&gpu, n, k)?);
    /// let (mut xq, mut wq) = (DeviceMatrix::<F8E4M3>::zeros(&gpu, m, k)?, DeviceMatrix::<F8E4M3>::zeros(&gpu, n, k)?);
    /// gpu.convert_to_fp8(&x, &mut xq)?;
    /// gpu.convert_to_fp8(&w, &mut wq)?; // the weight as Bᵀ: n × k, as a linear layer stores it
    /// let (sx, sw) = (DeviceBuffer::from_host(&gpu, &[1.0f32])?, DeviceBuffer::from_host(&gpu, &[1.0f32])?);
    /// let bias = DeviceBuffer::<f32>::zeros(&gpu, n)?;
    /// let mut y = DeviceMatrix::<bf16>::zeros(&gpu, m, n)?;
    /// // y = GELU(sx · sw · xq · wqᵀ + bias), in BF16: a linear layer in one launch.
    /// let params = Fp8Params::new()
    ///     .scales(Fp8Scales::PerTensor { a: &sx, b: &sw })
    ///     .bias(BiasKind::PerColumn, &bias)
    ///     .activation(Activation::GeluTanh);
    /// gpu.matmul_fp8(&params, &xq, Fp8Rhs::Bt(&wq), &mut y)?;
    /// # Ok(()) }
    /// ```
    pub fn matmul_fp8<F: Fp8Format, O: OutputElement>(
        &self,
        params: &Fp8Params<'_>,
        a: &DeviceMatrix<F>,
        b: Fp8Rhs<'_, F>,
        c: &mut DeviceMatrix<O>,
    ) -> Result<()> {
        let (algo, scales) = (params.algo, params.scales);
        const OP: &str = "Gpu::matmul_fp8";
        let (given, bm) = match b {
            Fp8Rhs::B(m) => (BGiven::Rows, m),
            Fp8Rhs::Bt(m) => (BGiven::Transposed, m),
        };
        // The (k × n) shape of B, whichever way it is given.
        let b_shape = if given == BGiven::Rows { (bm.rows(), bm.cols()) } else { (bm.cols(), bm.rows()) };
        let dims = GemmDims::check((a.rows(), a.cols()), b_shape, (c.rows(), c.cols()))?;
        let (scale_buffers, scaling, needed) = match scales {
            Fp8Scales::Unit => (None, Fp8Scaling::PerTensor, (0, 0)),
            Fp8Scales::PerTensor { a, b } => (Some((a, b)), Fp8Scaling::PerTensor, (1, 1)),
            Fp8Scales::Blocks { a, b } => {
                let (block, blocks) = (SCALE_BLOCK as usize, dims.k.div_ceil(SCALE_BLOCK as usize));
                (Some((a, b)), Fp8Scaling::Blocks, (dims.m * blocks, dims.n.div_ceil(block) * blocks))
            }
        };
        if dims.k == 0 && params.fused() {
            return Err(Error::InvalidArgument {
                op: OP,
                detail: "K = 0 with a bias or an activation: the epilogue of an empty sum".into(),
            });
        }
        let shape = tessera_catalogue::MatmulShape {
            m: dims.m.min(u32::MAX as usize) as u32,
            n: dims.n.min(u32::MAX as usize) as u32,
            k: dims.k.min(u32::MAX as usize) as u32,
        };
        let requested = fp8_scaled(OP, algo, F::PRECISION, scaling, shape, self.target().sms)?;
        let plan = self.plan_request(OP, requested, F::PRECISION, dims, (O::FORMAT, params.fused()), None)?;
        a.buffer().check_context(self, OP)?;
        bm.buffer().check_context(self, OP)?;
        c.buffer().check_context(self, OP)?;
        if let Some((sa, sb)) = scale_buffers {
            for (name, s, needed) in [("scale_a", sa, needed.0), ("scale_b", sb, needed.1)] {
                s.check_context(self, OP)?;
                if s.len() < needed.max(1) {
                    return Err(Error::BufferTooSmall { op: OP, name, len: s.len(), needed: needed.max(1) });
                }
            }
        }
        if let Some((kind, bias)) = params.bias {
            bias.check_context(self, OP)?;
            let needed = kind.len(dims.m, dims.n);
            if bias.len() < needed {
                return Err(Error::BufferTooSmall { op: OP, name: "bias", len: bias.len(), needed });
            }
        }
        for (name, len, needed) in
            [("A", a.buffer().len(), dims.m * dims.k), ("B", bm.buffer().len(), dims.k * dims.n), ("C", c.buffer().len(), dims.m * dims.n)]
        {
            if len < needed {
                return Err(Error::BufferTooSmall { op: OP, name, len, needed });
            }
        }
        self.check_usable()?;
        let stream = self.stream();
        let (pa, _read_a) = a.buffer().slice.device_ptr(stream);
        let (pb, _read_b) = bm.buffer().slice.device_ptr(stream);
        let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(stream);
        let sa = scale_buffers.map(|(s, _)| s.slice.device_ptr(stream));
        let sb = scale_buffers.map(|(_, s)| s.slice.device_ptr(stream));
        let bias = params.bias.map(|(_, b)| b.slice.device_ptr(stream));
        let fp8 = FinishArgs {
            scales: (sa.as_ref().map_or(0, |s| s.0), sb.as_ref().map_or(0, |s| s.0)),
            bias: bias.as_ref().map_or(0, |b| b.0),
            epilogue: tessera_catalogue::epilogue::code(params.bias.map(|(k, _)| k), params.activation),
            ..FinishArgs::default()
        };
        match &plan {
            Plan::Nothing { .. } => Ok(()),
            Plan::ZeroC { .. } => {
                // SAFETY: c addresses m·n elements of O (checked above).
                unsafe { self.zero_bytes(stream, pc, dims.m * dims.n * std::mem::size_of::<O>()) }
            }
            Plan::One(l) => {
                // SAFETY: A holds m·k bytes, B (or Bᵀ) k·n, C m·n elements of O (the plan's output
                // format), the scales their floats or null (all checked above), of this context; the guards record their use after
                // the launches are queued; the plan is this GPU's for these dimensions.
                unsafe {
                    let f = self.kernel(l.launch.entry)?;
                    self.launch_fp8(stream, f, &l.launch, pa, given, pb, fp8, pc)
                }
            }
            Plan::Blocks(_) => Err(Error::TooLarge {
                op: OP,
                detail: format!("{}×{}×{}: an FP8 product past one launch's limits (2³¹ elements a matrix)", dims.m, dims.n, dims.k),
            }),
        }
    }

    /// Queues zeros over `bytes` bytes at `c`.
    ///
    /// # Safety
    /// `c` addresses `bytes` bytes of this context, not used by other work until the memset completes.
    pub(crate) unsafe fn zero_bytes(&self, stream: &Arc<CudaStream>, c: u64, bytes: usize) -> Result<()> {
        self.context().bind_to_thread().map_err(Error::driver("binding the context", 0))?;
        // SAFETY: the caller's contract.
        unsafe { result::memset_d8_async(c, 0, bytes, stream.cu_stream()) }.map_err(Error::driver("zeroing C", 0))
    }

    /// Queues an FP8 kernel (`launch`'s entry `f`) on `a` and `b` — `B` (`k × n`, transposed first by
    /// `pack_b8` into this GPU's workspace) or `Bᵀ` (`given`) — with `fp8`'s scales (0: null, read as
    /// 1) and epilogue.
    ///
    /// # Safety
    /// As [`Gpu::launch_kernel`], with `a` `m·k` bytes, `b` `k·n` bytes, each scale null or its `f32`s
    /// of this context, the bias null or the values its code names (`C` is zeroed here where the
    /// launch adds into it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn launch_fp8(
        &self,
        stream: &Arc<CudaStream>,
        f: &CudaFunction,
        launch: &KernelLaunch,
        a: u64,
        given: BGiven,
        b: u64,
        fp8: FinishArgs,
        c: u64,
    ) -> Result<()> {
        let (n, k) = (launch.shape.n, launch.shape.k);
        if given == BGiven::Transposed {
            // SAFETY: forwarded contract, B given as Bᵀ.
            return unsafe { self.launch_product(stream, f, launch, a, b, c, fp8) };
        }
        let len = n as usize * k as usize;
        let floats = len.div_ceil(4);
        // The workspace stays locked (and its use recorded) until the kernel is queued;
        // `launch_product` takes no workspace of its own for FP8 operands (read in place).
        let work = self.workspace_at_least(stream, floats)?;
        let Some(work) = work.as_ref() else { return Err(Error::OutOfMemory { bytes: len }) };
        let (bt, _record) = work.device_ptr(stream);
        let (transposed, ld) = (1u32, n as usize);
        let mut pack = stream.launch_builder(self.kernel("pack_b8")?);
        pack.arg(&b).arg(&len).arg(&ld).arg(&n).arg(&k).arg(&transposed).arg(&bt);
        // SAFETY: pack_b8(src, src_len, ld, rows = n, cols = k, transposed, dst) reads B's k·n bytes
        // ((cols-1)·ld + rows = k·n) and writes n·k bytes from dst: the workspace holds ⌈n·k / 4⌉
        // floats; no overlap (the workspace is tessera's own); the launch is the pack walk's.
        self.launched(unsafe { pack.launch(launch_config(launch::pack_transpose(k, n, 1))) })?;
        // SAFETY: the kernel reads A (the caller's) and Bᵀ (n × k, queued above in stream order).
        unsafe { self.launch_product(stream, f, launch, a, bt, c, fp8) }
    }
}
