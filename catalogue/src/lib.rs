//! tessera's kernel registry, the choice of a kernel, and the plan that runs a product — the layers
//! between the kernel source and the two places it runs (the GPU through `tessera`, the CPU through
//! `tessera-emulator`). No cudarc here: the emulator and the PTX build script use this crate without a
//! GPU stack.
//!
//! One straight line, each step a module:
//!
//! 1. **Registry** — which kernels exist and how each is launched: [`algo`] ([`Algo`], its
//!    [`MatmulKernel`] line: entry, label, precision, the kernel's own `TileConfig`), [`entries`]
//!    (every PTX entry), [`launch`] (grid rules, [`LaunchDims`]), [`tma`] (the TMA kernels' tensor
//!    maps), [`shape`] and [`precision`] (what a product is), [`ceiling`] (the `wgmma` rate kernels).
//! 2. **Choosing** — what `Algo::Auto` runs: [`choose`] (the one function, [`Choice`]), fed by the
//!    models: [`tuning`] (FP32's time model) with its [`residuals`] (calibrated on
//!    `data/auto-calibration.csv`), [`fp32_padding`] (FP32's unaligned path), [`tc_model`] (the tensor
//!    cores), and [`shortlist`] (the candidates timed when tuning is asked for).
//! 3. **Planning** — every step of one product for one [`Target`]: [`plan`] ([`Planner`], [`Plan`],
//!    [`LaunchPlan`]), [`blocks`] (products past one launch's 32-bit limits), [`distribute`] (a
//!    product over several GPUs), [`gemm`] (BLAS-style views: packs, the product, the epilogue).
//! 4. **Test kit** — what checks a result: [`matrix`] ([`HostMatrix`]), [`random`] (the shared operand
//!    and shape generators), [`reference`](mod@reference) (the f64 reference), [`gemm_case`] (GEMM
//!    test problems); the tolerance rules are [`precision`]'s.
//!
//! Running a plan is the host's (`tessera::Gpu`) or the emulator's (`tessera_emulator::ops::run_plan`).
//!
//! Adding a matmul kernel: its file in `kernels/src/matmul/` (the kernel and its `TileConfig`
//! constant), its `pub mod` line in `kernels/src/matmul/mod.rs`, and its line in [`algo`].
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
pub use gemm::{GemmParams, Layout, MatrixDesc, Transpose};
pub use launch::LaunchDims;
pub use matrix::HostMatrix;
pub use plan::{LaunchPlan, Plan, Planner};
pub use plan_error::PlanError;
pub use precision::Precision;
pub use shape::{MatmulShape, ShapeError};
pub use target::Target;
pub use tessera_kernels::launch::TileConfig;
