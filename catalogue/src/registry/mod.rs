//! The kernel registry: which kernels exist and how each is launched — [`algo`] ([`Algo`] and its
//! [`MatmulKernel`] line: entry, label, precision, the kernel's own `TileConfig`), [`entries`] (every
//! PTX entry of both modules), [`grouped`] (kernel 26: batched and grouped products), [`launch`] (grid rules, [`LaunchDims`]), [`tma`] (the TMA kernels'
//! operand layouts and tensor-map boxes), [`ceiling`] (the `wgmma` rate kernels).
//!
//! Adding a matmul kernel: its file in `kernels/src/matmul/` (the kernel and its `TileConfig`
//! constant), its `pub mod` line in `kernels/src/matmul/mod.rs`, and its line in [`algo`].
//!
//! [`Algo`]: algo::Algo
//! [`MatmulKernel`]: algo::MatmulKernel
//! [`LaunchDims`]: launch::LaunchDims
pub mod algo;
pub mod ceiling;
pub mod entries;
pub mod grouped;
pub mod launch;
pub mod tma;
