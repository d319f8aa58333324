//! tessera's kernel registry, the choice of a kernel, and the plan that runs a product — the layers
//! between the kernel source and the two places it runs (the GPU through `tessera`, the CPU through
//! `tessera-emulator`). No cudarc here: the emulator and the PTX build script use this crate without a
//! GPU stack.
//!
//! One straight line, each step a module that uses only the ones before it:
//!
//! 0. **The problem and the machine** — [`shape`] ([`MatmulShape`]; [`ShapeError`] and [`PlanError`] in [`error`]),
//!    [`precision`] ([`Precision`], with its tolerance rules), [`target`] ([`Target`]: SMs, sm_90a).
//! 1. **[`registry`]** — which kernels exist and how each is launched: [`Algo`] and its
//!    [`MatmulKernel`] line (entry, label, precision, the kernel's own `TileConfig`), every PTX entry,
//!    grid rules ([`LaunchDims`]), the TMA kernels' layouts, the `wgmma` rate kernels.
//! 2. **[`select`]** — what `Algo::Auto` runs: [`select::choose`] (the one function, a [`Choice`]),
//!    fed by the models: [`select::tuning`] (FP32's time model) with its [`select::residuals`]
//!    (calibrated on `select/auto-calibration.csv`, beside it), [`select::fp32_padding`] (FP32's
//!    unaligned path), [`select::tc_model`] (the tensor cores), and [`select::shortlist`] (the
//!    candidates timed when tuning is asked for).
//! 3. **[`plan`]** — every step of one product for one [`Target`]: [`Planner`], [`Plan`],
//!    [`LaunchPlan`]; [`plan::blocks`] (products past one launch's 32-bit limits),
//!    [`plan::distribute`] (a product over several GPUs), [`plan::gemm`] (BLAS-style views: packs,
//!    the product, the epilogue), [`plan::grouped`] (a batch or groups of products in one launch).
//! 4. **[`testkit`]** — what checks a result: [`HostMatrix`], the seeded operand and shape
//!    generators, the f64 reference, GEMM test problems.
//!
//! Running a plan is the host's (`tessera::Gpu`) or the emulator's (`tessera_emulator::ops::run_plan`).
//!
//! Adding a matmul kernel: its file in `kernels/src/matmul/` (the kernel and its `TileConfig`
//! constant), its `pub mod` line in `kernels/src/matmul/mod.rs`, and its line in [`registry::algo`].
pub mod epilogue;
pub mod error;
pub mod plan;
pub mod precision;
pub mod registry;
pub mod select;
pub mod shape;
pub mod target;
pub mod testkit;

pub use epilogue::{Activation, BiasKind};
pub use error::{PlanError, ShapeError};
pub use plan::gemm::{GemmParams, Layout, MatrixDesc, Transpose};
pub use plan::{LaunchPlan, Plan, Planner};
pub use precision::{OutputFormat, Precision};
pub use registry::algo::{Algo, MatmulKernel, MATMUL_KERNELS};
pub use registry::launch::LaunchDims;
pub use select::Choice;
pub use shape::MatmulShape;
pub use target::Target;
pub use tessera_kernels::launch::TileConfig;
pub use testkit::matrix::HostMatrix;
