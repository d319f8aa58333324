//! Typed errors: every public function returns [`Result`] and nothing panics on bad input.
//!
//! The few checks that need no GPU and live in the catalogue — [`HostMatrix::new`](crate::HostMatrix::new),
//! [`MatmulShape::check`](crate::MatmulShape::check), [`MatrixDesc::block`](crate::MatrixDesc::block) —
//! return the catalogue's [`ShapeError`](crate::ShapeError) (the catalogue is built without this crate).
//! `?` converts it into [`Error`] (`From`, below: `Mismatch` → [`Error::ShapeMismatch`], `TooLarge` →
//! [`Error::TooLarge`], and so on, variant for variant), so a function returning [`Result`] uses them
//! like any other call; `.map_err(Error::from)` does the same where the value is matched rather than
//! returned.
//!
//! ```
//! use tessera::{Algo, Error, Gpu, HostMatrix};
//! fn product(gpu: &Gpu, a: Vec<f32>, b: Vec<f32>) -> tessera::Result<HostMatrix> {
//!     let a = HostMatrix::new(64, 32, a)?; // a ShapeError becomes Error::ShapeMismatch
//!     let b = HostMatrix::new(32, 16, b)?;
//!     gpu.matmul_host(Algo::Auto, &a, &b)
//! }
//! assert!(matches!(HostMatrix::new(2, 2, vec![0.0; 3]).map_err(Error::from), Err(Error::ShapeMismatch { .. })));
//! ```
use cudarc::driver::{result::DriverError, sys::CUresult};

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `libcuda.so` could not be loaded: no NVIDIA driver on this machine.
    #[error("no CUDA driver: libcuda could not be loaded (is an NVIDIA driver installed?)")]
    NoDriver,
    /// The driver loaded but there is no device with this ordinal.
    #[error("no CUDA device {ordinal}: the driver reports {count} device(s)")]
    NoDevice { ordinal: usize, count: usize },
    /// Operand shapes do not fit together (e.g. `A.cols != B.rows`).
    #[error("shape mismatch in {op}: {detail}")]
    ShapeMismatch { op: &'static str, detail: String },
    /// An argument outside what the operation accepts (e.g. a pipeline with zero streams).
    #[error("invalid argument to {op}: {detail}")]
    InvalidArgument { op: &'static str, detail: String },
    /// A size whose element or byte count does not fit the index types the kernels use.
    #[error("size too large in {op}: {detail}")]
    TooLarge { op: &'static str, detail: String },
    /// The kernel computes in another precision than the one asked for (e.g. a TF32 kernel on `f32`
    /// data through `matmul`, which means FP32: TF32 must be asked for with `matmul_tf32`).
    #[error("{op}: kernel `{kernel}` computes in {kernel_precision:?}, but {requested:?} was asked for")]
    PrecisionMismatch {
        op: &'static str,
        kernel: &'static str,
        kernel_precision: tessera_catalogue::Precision,
        requested: tessera_catalogue::Precision,
    },
    /// The precision asked for does not fit the input type (anything but the inputs' own, or TF32 on
    /// `f32` data), e.g. BF16 requested for `f32` matrices: tessera never converts silently.
    #[error("{op}: {requested:?} was asked for on {input:?} inputs")]
    UnsupportedPrecision { op: &'static str, requested: tessera_catalogue::Precision, input: tessera_catalogue::Precision },
    /// A matrix view's leading dimension is below what its layout needs (BLAS's rule: `ld ≥ max(1,
    /// cols)` row-major, `ld ≥ max(1, rows)` column-major).
    #[error("leading dimension too small in {op}: `{name}` has ld = {ld}, at least {min} needed")]
    LeadingDimension { op: &'static str, name: &'static str, ld: usize, min: usize },
    /// An operand is not aligned as the kernel's copies need (a TMA tensor map: a 16-byte aligned base
    /// and row stride). Nothing was launched. Operands whose rows are not 16-byte multiples are not
    /// refused: the TMA kernels read them from copies with padded rows.
    #[error("unaligned operand in {op}: {detail}")]
    Unaligned { op: &'static str, detail: String },
    /// A buffer is shorter than the operation needs.
    #[error("buffer too small in {op}: `{name}` holds {len} elements, {needed} needed")]
    BufferTooSmall { op: &'static str, name: &'static str, len: usize, needed: usize },
    /// A buffer belongs to another CUDA context than the one asked to use it.
    #[error("buffer from another CUDA context passed to {op}")]
    WrongContext { op: &'static str },
    /// The kernel needs a GPU feature this device lacks (the `wgmma` kernels: Hopper, compute
    /// capability 9.0). Nothing was launched.
    #[error("{kernel} needs {needs}, which this GPU does not have")]
    UnsupportedDevice { kernel: &'static str, needs: &'static str },
    /// No kernel of this GPU multiplies inputs of this precision: FP8 off Hopper (sm_90a), or FP8
    /// through a path with no FP8 kernels (`gemm`'s views). Nothing was launched.
    #[error("{op}: no kernel multiplies {precision:?} inputs here (the FP8 kernels need sm_90a and dense matrices: Gpu::matmul, Gpu::matmul_fp8)")]
    NoKernel { op: &'static str, precision: tessera_catalogue::Precision },
    /// A PTX module has no entry of this name.
    #[error("no kernel `{name}` in the module; it defines: {available}")]
    UnknownKernel { name: String, available: String },
    /// A launch's arguments do not fit the kernel's PTX parameters (count or kind). Nothing was launched.
    #[error("wrong arguments for kernel `{kernel}`: {detail}")]
    KernelArguments { kernel: String, detail: String },
    /// A launch's geometry is outside CUDA's limits, the kernel's launch bound or the device's shared
    /// memory. Nothing was launched.
    #[error("invalid launch of kernel `{kernel}`: {detail}")]
    InvalidLaunch { kernel: String, detail: String },
    /// The device has not enough free memory for an allocation.
    #[error("out of GPU memory allocating {bytes} bytes")]
    OutOfMemory { bytes: usize },
    /// A multi-GPU operation needs more memory on GPU `ordinal` than it has free (checked before
    /// anything is allocated or sent).
    #[error("GPU {ordinal} has {free} bytes free, the operation needs {needed}")]
    OutOfMemoryOn { ordinal: usize, needed: usize, free: usize },
    /// Fewer GPUs are visible than were asked for.
    #[error("{requested} GPU(s) requested, {available} visible")]
    TooFewGpus { requested: usize, available: usize },
    /// `libnccl` could not be loaded (needed to use more than one GPU).
    #[error("no NCCL library: cudarc loads `libnccl.so` (or `.so.1`, …) from the library path; the pip package nvidia-nccl-cu13 ships `libnccl.so.2`, so link it as `libnccl.so` in a folder on LD_LIBRARY_PATH")]
    NoNccl,
    /// An NCCL call failed. After a failure during a transfer the communicators are aborted and
    /// the [`crate::MultiGpu`] answers this error from then on; the `Gpu`s themselves stay usable.
    #[error("NCCL call failed during {during}: {detail}")]
    Nccl { during: &'static str, detail: String },
    /// A kernel failed while running (e.g. it trapped). CUDA leaves the context unusable afterwards:
    /// this [`crate::Gpu`] returns [`Error::ContextPoisoned`] from then on.
    #[error("kernel `{kernel}` failed on the device: {source}")]
    KernelFault { kernel: &'static str, source: DriverError },
    /// An earlier kernel fault made the CUDA context unusable (CUDA's "sticky" errors); create a new
    /// process to use the GPU again.
    #[error("the CUDA context is unusable after an earlier kernel fault ({0})")]
    ContextPoisoned(String),
    /// Any other CUDA driver call failed.
    #[error("CUDA driver call failed during {during}: {source}")]
    Driver { during: &'static str, source: DriverError },
}

/// A catalogue plan error as the host reports it: shape errors as below, the others variant for variant.
impl From<tessera_catalogue::PlanError> for Error {
    fn from(e: tessera_catalogue::PlanError) -> Self {
        use tessera_catalogue::PlanError;
        match e {
            PlanError::Shape(e) => e.into(),
            PlanError::NoKernel { op, precision } => Error::NoKernel { op, precision },
            PlanError::PrecisionMismatch { op, kernel, kernel_precision, requested } => {
                Error::PrecisionMismatch { op, kernel, kernel_precision, requested }
            }
            PlanError::Invalid { op, detail } => Error::InvalidArgument { op, detail },
        }
    }
}

/// The catalogue's shape errors ([`crate::HostMatrix::new`], [`crate::MatmulShape::check`], the views'
/// checks) as this crate's: `Mismatch` is [`Error::ShapeMismatch`]; `TooLarge`, `LeadingDimension`,
/// `BufferTooSmall` and `Unaligned` keep their names. What makes `?` work on them.
impl From<tessera_catalogue::ShapeError> for Error {
    fn from(e: tessera_catalogue::ShapeError) -> Self {
        use tessera_catalogue::ShapeError;
        match e {
            ShapeError::Mismatch { op, detail } => Error::ShapeMismatch { op, detail },
            ShapeError::TooLarge { op, detail } => Error::TooLarge { op, detail },
            ShapeError::LeadingDimension { op, name, ld, min } => Error::LeadingDimension { op, name, ld, min },
            ShapeError::BufferTooSmall { op, name, len, needed } => Error::BufferTooSmall { op, name, len, needed },
            ShapeError::Unaligned { op, detail } => Error::Unaligned { op, detail },
        }
    }
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps a driver error from the step `during`, mapping out-of-memory to its own variant.
    pub fn driver(during: &'static str, bytes: usize) -> impl FnOnce(DriverError) -> Error {
        move |source| {
            if source.0 == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                Error::OutOfMemory { bytes }
            } else {
                Error::Driver { during, source }
            }
        }
    }

    /// Whether this error left the CUDA context unusable (a fault inside a kernel).
    pub fn is_sticky(code: CUresult) -> bool {
        matches!(
            code,
            CUresult::CUDA_ERROR_LAUNCH_FAILED
                | CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
                | CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION
                | CUresult::CUDA_ERROR_MISALIGNED_ADDRESS
                | CUresult::CUDA_ERROR_INVALID_ADDRESS_SPACE
                | CUresult::CUDA_ERROR_INVALID_PC
                | CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR
                | CUresult::CUDA_ERROR_ASSERT
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HostMatrix;

    /// `?` on a catalogue constructor inside a function returning tessera's `Result`.
    fn host(rows: usize, cols: usize, len: usize) -> Result<HostMatrix> {
        Ok(HostMatrix::new(rows, cols, vec![0.0; len])?)
    }

    #[test]
    fn host_matrix_errors_become_tessera_errors_through_question_mark() {
        assert!(host(2, 3, 6).is_ok());
        assert!(matches!(host(2, 3, 5), Err(Error::ShapeMismatch { op: "HostMatrix::new", .. })));
        assert!(matches!(host(usize::MAX, 2, 0), Err(Error::TooLarge { op: "HostMatrix::new", .. })));
    }

    #[test]
    fn shape_errors_map_variant_for_variant() {
        use tessera_catalogue::ShapeError;
        let cases = [
            (ShapeError::Mismatch { op: "o", detail: "d".into() }, "ShapeMismatch"),
            (ShapeError::TooLarge { op: "o", detail: "d".into() }, "TooLarge"),
            (ShapeError::LeadingDimension { op: "o", name: "A", ld: 1, min: 2 }, "LeadingDimension"),
            (ShapeError::BufferTooSmall { op: "o", name: "A", len: 1, needed: 2 }, "BufferTooSmall"),
            (ShapeError::Unaligned { op: "o", detail: "d".into() }, "Unaligned"),
        ];
        for (shape, want) in cases {
            let message = shape.to_string();
            let e = Error::from(shape);
            assert!(format!("{e:?}").starts_with(want), "{e:?} is not {want}");
            assert_eq!(e.to_string(), message, "the message is kept");
        }
    }
}
