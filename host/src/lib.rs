//! # tessera — Rust GPU kernels and a safe host library to run them
//!
//! The kernels (crate `tessera-kernels`, `#![no_std]` Rust) are compiled by rustc's NVPTX backend into
//! two PTX modules (sm_90, and sm_90a for the Hopper-only kernels), which ship with this crate and are
//! embedded here ([`module::PTX`], [`module::PTX_SM90A`]): building tessera needs only stable Rust.
//! This crate loads them with [cudarc] and offers typed, checked launches:
//!
//! ```no_run
//! use tessera::{Gpu, Algo, HostMatrix};
//! # fn main() -> Result<(), tessera::Error> {
//! let gpu = Gpu::new(0)?;                       // Err(Error::NoDriver / NoDevice) without a GPU
//! let a = HostMatrix::from_fn(64, 32, |r, c| (r + c) as f32);
//! let b = HostMatrix::from_fn(32, 16, |r, c| (r * c) as f32);
//! let c = gpu.matmul_host(Algo::Tiled, &a, &b)?; // upload, launch, download
//! assert_eq!((c.rows, c.cols), (64, 16));
//! # Ok(()) }
//! ```
//!
//! Layers, bottom up: [`context`] (device, context, stream, module), [`buffer`] (device and page-locked
//! host memory), [`event`] (GPU timing), [`ops`] (planning on this GPU — [`Gpu::plan`] prints what a
//! product runs — and running the plan; BLAS-style [`Gpu::gemm`] on [`view`]s), [`multi`] (several
//! GPUs), [`pipeline`] (copy/compute overlap over several streams), [`user_module`] (your own
//! kernels' PTX, launched with [`kernel_args`] checked against it), [`error`].
//! Everything that needs no GPU — the kernel [`catalogue`] ([`Algo`], shapes, the `Auto` rule
//! [`tuning`]), [`HostMatrix`] and the f64 [`reference`](mod@reference) — comes from crate `tessera-catalogue`.
//! Its few fallible constructors (`HostMatrix::new`, `MatmulShape::check`) return the catalogue's
//! [`ShapeError`], which `?` turns into [`Error`] ([`error`] says how).
//! FP32 `Auto` measures nothing by default; [`Gpu::set_auto_tuning`] asks it to time its few best
//! candidates on a shape's first product and keep the fastest ([`ops::auto_tuning`]).
pub(crate) mod blocked;
pub mod buffer;
pub mod comm;
pub mod context;
pub(crate) mod dependent_launch;
pub mod error;
pub mod event;
#[cfg(any(feature = "ndarray", feature = "faer"))]
pub mod interop;
pub mod kernel_args;
pub mod matrix;
pub mod module;
pub mod multi;
pub mod ops;
pub mod pipeline;
pub(crate) mod plan_cache;
pub mod ptx_pieces;
pub mod stack;
pub(crate) mod tensor_maps;
pub mod tuning_state;
pub mod user_module;
pub mod view;

pub use buffer::{DeviceBuffer, PinnedBuffer};
pub use context::{device_count, DeviceInfo, Gpu};
pub use error::{Error, Result};
pub use event::{GpuTimer, QueuedTime, QueuedTimer};
/// The FP8 element types (E4M3, E5M2) [`DeviceMatrix`] holds; cudarc's `f8` feature uses the same crate.
pub use float8;
pub use half::{bf16, f16};
pub use kernel_args::{KernelArg, KernelArgs, ParamKind};
pub use matrix::{DeviceElement, DeviceMatrix, OutputElement};
pub use multi::{LinkReport, MultiGpu, RowBlocks};
pub use ops::fp8::{Fp8Format, Fp8Source};
pub use ops::fp8_matmul::{Fp8Params, Fp8Rhs, Fp8Scales};
pub use ops::fused::FusedParams;
pub use ops::gemm::GemmEpilogue;
pub use pipeline::{MapKernel, Pipeline, PipelinePlan};
pub use stack::{MatrixStack, MatrixStackMut};
pub use tessera_catalogue::plan::gemm::{GemmParams, Layout, MatrixDesc, Transpose};
pub use tessera_catalogue::registry::grouped::GroupedAlgo;
pub use tessera_catalogue::select::tuning;
pub use tessera_catalogue::testkit::reference;
pub use tessera_catalogue::LaunchDims;
pub use tessera_catalogue::{
    self as catalogue, Activation, Algo, BiasKind, Choice, HostMatrix, MatmulShape, OutputFormat, Plan, Precision, ShapeError, Target,
};
pub use tuning_state::{AutoTuning, TunedPick};
pub use user_module::{EntrySignature, UserKernel, UserModule};
pub use view::{MatrixMut, MatrixRef};
