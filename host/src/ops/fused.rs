//! Products that finish their sums in the kernel's store (kernel 27 on Hopper for BF16, FP16, TF32;
//! kernel 29 for FP32): `D = act(α·A·B + bias)`, `D` in `f32`, BF16 or FP16 — a linear layer in one
//! launch ([`Gpu::matmul_fused`]).
use cudarc::driver::{DevicePtr, DevicePtrMut};
use tessera_catalogue::plan::blocks::GemmDims;
use tessera_catalogue::{Activation, Algo, BiasKind, Plan, Precision};

use super::finishing::FinishArgs;
use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};
use crate::matrix::{DeviceElement, DeviceMatrix, OutputElement};

const OP: &str = "Gpu::matmul_fused";

/// What a fused product does beside `A·B`: the kernel (`Auto` unless named), the precision (`None`:
/// the inputs' own; TF32 on `f32` inputs only when asked for), `α`, and the epilogue
/// (`D = act(α·A·B + bias)`, bias per column or per row).
#[derive(Clone, Copy)]
pub struct FusedParams<'a> {
    pub algo: Algo,
    /// `None`: the inputs' own precision (FP32, BF16, FP16).
    pub precision: Option<Precision>,
    pub alpha: f32,
    /// A bias and where it applies (`n` values per column, `m` per row), added before the activation.
    pub bias: Option<(BiasKind, &'a DeviceBuffer<f32>)>,
    pub activation: Activation,
}

impl<'a> FusedParams<'a> {
    /// `Auto`, the inputs' precision, `α = 1`, no bias, no activation.
    pub fn new() -> Self {
        Self { algo: Algo::Auto, precision: None, alpha: 1.0, bias: None, activation: Activation::Identity }
    }

    /// The kernel (`Auto` by default).
    pub fn algo(self, algo: Algo) -> Self {
        Self { algo, ..self }
    }

    /// The precision (TF32 for `f32` inputs).
    pub fn precision(self, precision: Precision) -> Self {
        Self { precision: Some(precision), ..self }
    }

    /// `α`.
    pub fn alpha(self, alpha: f32) -> Self {
        Self { alpha, ..self }
    }

    /// A bias of `kind`, its values in `bias`.
    pub fn bias(self, kind: BiasKind, bias: &'a DeviceBuffer<f32>) -> Self {
        Self { bias: Some((kind, bias)), ..self }
    }

    /// The activation.
    pub fn activation(self, activation: Activation) -> Self {
        Self { activation, ..self }
    }

    /// Whether anything but `A·B` is asked for (a bias, an activation, `α ≠ 1`).
    fn finishes(&self) -> bool {
        self.bias.is_some() || self.activation != Activation::Identity || self.alpha != 1.0
    }
}

impl Default for FusedParams<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl Gpu {
    /// `c = act(α · a · b + bias)`, each sum finished in the kernel's store, queued on the stream:
    /// BF16 or FP16 inputs (kernel 27, Hopper), `f32` inputs in FP32 (kernel 29, any GPU) or in TF32
    /// with `params.precision(Precision::Tf32)` (kernel 27); `f32` accumulation, `c` in `f32`, BF16 or
    /// FP16 (`O`: [`OutputElement`], each sum rounded once). `a` is `m × k`, `b` `k × n`, both row-major.
    ///
    /// `params.algo`: `Auto` (the finishing tile of least predicted time; a product with nothing to
    /// finish — `α = 1`, no bias, no activation, `f32` out — is [`Gpu::matmul`]'s, kernel 27 or not)
    /// or a kernel by name, which must finish its sums (`Algo::FusedBf16`, …, `Algo::FusedF32`). Every tile
    /// is computed whole (no K slices: an activation is not additive).
    ///
    /// Errors, all before any GPU work (the `Gpu` stays usable): [`Error::UnsupportedPrecision`] for
    /// a precision the inputs cannot take, [`Error::NoKernel`] for FP8 inputs
    /// ([`Gpu::matmul_fp8`] fuses the same epilogue), [`Error::InvalidArgument`] where no kernel of
    /// this GPU finishes its sums in the precision (BF16, FP16, TF32 without sm_90a), for a named kernel
    /// that does not, and for `K = 0` with a bias or an activation (an empty sum's epilogue is
    /// `act(bias)`, which no kernel here computes), [`Error::PrecisionMismatch`],
    /// [`Error::ShapeMismatch`], [`Error::BufferTooSmall`] (the bias too), [`Error::WrongContext`],
    /// [`Error::TooLarge`] past one launch's 32-bit indexing.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tessera::Error> {
    /// use tessera::{bf16, Activation, BiasKind, DeviceBuffer, DeviceMatrix, FusedParams, Gpu};
    /// let gpu = Gpu::new(0)?;
    /// let x = DeviceMatrix::<bf16>::zeros(&gpu, 8192, 4096)?;
    /// let w = DeviceMatrix::<bf16>::zeros(&gpu, 4096, 4096)?;
    /// let bias = DeviceBuffer::<f32>::zeros(&gpu, 4096)?;
    /// let mut y = DeviceMatrix::<bf16>::zeros(&gpu, 8192, 4096)?;
    /// let params = FusedParams::new().bias(BiasKind::PerColumn, &bias).activation(Activation::GeluTanh);
    /// gpu.matmul_fused(&params, &x, &w, &mut y)?; // y = GELU(x·w + bias), in BF16
    /// # Ok(()) }
    /// ```
    pub fn matmul_fused<T: DeviceElement, O: OutputElement>(
        &self,
        params: &FusedParams<'_>,
        a: &DeviceMatrix<T>,
        b: &DeviceMatrix<T>,
        c: &mut DeviceMatrix<O>,
    ) -> Result<()> {
        let requested = params.precision.unwrap_or(T::PRECISION);
        let precision = params.precision.map_or(Some(T::PRECISION), |p| {
            let gemm = tessera_catalogue::GemmParams::new().precision(p);
            gemm.resolve_precision(T::PRECISION)
        });
        let precision = precision.ok_or(Error::UnsupportedPrecision { op: OP, requested, input: T::PRECISION })?;
        if precision.is_fp8() {
            return Err(Error::NoKernel { op: OP, precision });
        }
        let dims = GemmDims::check((a.rows(), a.cols()), (b.rows(), b.cols()), (c.rows(), c.cols()))?;
        let epilogue = tessera_catalogue::epilogue::code(params.bias.map(|(k, _)| k), params.activation);
        if dims.k == 0 && epilogue != 0 {
            return Err(Error::InvalidArgument {
                op: OP,
                detail: "K = 0 with a bias or an activation: the epilogue of an empty sum".into(),
            });
        }
        let plan = self.plan_request(OP, params.algo, precision, dims, (O::FORMAT, params.finishes()), None)?;
        a.buffer().check_context(self, OP)?;
        b.buffer().check_context(self, OP)?;
        c.buffer().check_context(self, OP)?;
        if let Some((kind, bias)) = params.bias {
            bias.check_context(self, OP)?;
            let needed = kind.len(dims.m, dims.n);
            if bias.len() < needed {
                return Err(Error::BufferTooSmall { op: OP, name: "bias", len: bias.len(), needed });
            }
        }
        self.check_usable()?;
        let stream = self.stream();
        let (pa, _read_a) = a.buffer().slice.device_ptr(stream);
        let (pb, _read_b) = b.buffer().slice.device_ptr(stream);
        let (pc, _write_c) = c.buffer_mut().slice.device_ptr_mut(stream);
        let bias = params.bias.map(|(_, b)| b.slice.device_ptr(stream));
        let finish = FinishArgs { alpha: params.alpha, bias: bias.as_ref().map_or(0, |b| b.0), epilogue, ..FinishArgs::default() };
        match &plan {
            Plan::Nothing { .. } => Ok(()),
            Plan::ZeroC { .. } => {
                // SAFETY: c addresses m·n elements of O (a DeviceMatrix of that shape); zero bits are
                // zero in f32, BF16 and FP16.
                unsafe { self.zero_bytes(stream, pc, dims.m * dims.n * std::mem::size_of::<O>()) }
            }
            // SAFETY: A and B hold m·k and k·n elements of T (DeviceMatrix shapes, checked), the
            // precision's input type (TF32's: f32); C m·n elements of the plan's output format (O's);
            // the bias null or its values (checked); all of this context; the guards record their
            // use after the launch is queued; the plan is this GPU's for these dimensions.
            Plan::One(l) => unsafe { self.launch_finishing(stream, &l.launch, pa, pb, pc, finish) },
            Plan::Blocks(_) => Err(Error::TooLarge {
                op: OP,
                detail: format!("{}×{}×{}: a fused product past one launch's limits (2³¹ elements a matrix)", dims.m, dims.n, dims.k),
            }),
        }
    }
}
