//! tessera's kernel catalogue, and everything else about the kernels that needs no GPU.
//!
//! The layers, one straight line: `tessera-kernels` (the kernel source, each kernel with its own
//! launch constant) → **this crate** (which kernels exist, what they are called, how they are
//! launched, which one `Auto` picks; shapes, host matrices, the f64 reference) → `tessera` (the
//! GPU host library, on cudarc) and `tessera-emulator` (the CPU executor) → tests, benches, scorecard.
//! No cudarc here: the emulator and the PTX build script depend on this crate without a GPU stack.
//!
//! Adding a matmul kernel: its file in `kernels/src/matmul/` (the kernel and its `TileConfig`
//! constant), its `pub mod` line in `kernels/src/matmul/mod.rs`, and its line in [`algo`].
//!
//! - [`algo`]: the matmul catalogue and [`Algo`];
//! - [`entries`]: every PTX entry and the launch bounds;
//! - [`ceiling`]: the `wgmma` rate kernels' FLOPs and exact results, the datasheet peaks;
//! - [`shape`]: [`MatmulShape`] and its checks;
//! - [`tuning`]: the `Auto` rule; [`residuals`]: its time model's measured residuals near a shape; [`tc_model`]: its time model of the TMA kernels (tensor cores, Hopper);
//!   [`fp32_padding`]: FP32 `Auto`'s unaligned path (padded copies where the model says they pay);
//!   [`shortlist`]: the candidates FP32 `Auto` times when tuning is asked for;
//! - [`blocks`]: products past the kernels' 32-bit indexing, cut into sub-GEMMs;
//! - [`distribute`]: the 1D split of a product over several GPUs and the order its operands travel in;
//! - [`launch`]: grid rules ([`LaunchDims`]); [`tma`]: the tensor maps of the TMA kernels;
//! - [`gemm`]: BLAS-style GEMM on strided views ([`gemm::MatrixDesc`]): argument checks and the plan
//!   (packs, matmul, epilogue) the host and the emulator both run; [`gemm_case`]: GEMM test problems;
//! - [`matrix`], [`random`], [`reference`](mod@reference), [`precision`]: host matrices, the shared operand
//!   generator, the f64 reference and the tolerance rules (FP32, and per input precision).
pub mod algo;
pub mod blocks;
pub mod ceiling;
pub mod choose;
pub mod distribute;
pub mod entries;
pub mod error;
pub mod fp32_padding;
pub mod gemm;
pub mod gemm_case;
pub mod launch;
pub mod matrix;
pub mod plan;
pub mod plan_error;
pub mod precision;
pub mod random;
pub mod reference;
pub mod residuals;
pub mod shape;
pub mod shortlist;
pub mod target;
pub mod tc_model;
pub mod tma;
pub mod tuning;

pub use algo::{Algo, MatmulKernel, MATMUL_KERNELS};
pub use choose::Choice;
pub use plan_error::PlanError;
pub use plan::{LaunchPlan, Plan, Planner};
pub use target::Target;
pub use gemm::{GemmParams, Layout, MatrixDesc, Transpose};
pub use launch::LaunchDims;
pub use matrix::HostMatrix;
pub use precision::Precision;
pub use shape::{MatmulShape, ShapeError};
pub use tessera_kernels::launch::TileConfig;
