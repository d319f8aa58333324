//! The typed launches: argument checks, then the kernel call with the catalogue's launch dimensions.
//!
//! - [`matmul`]: `C = A · B` with any [`Algo`](crate::Algo); [`fp32_padding`]: FP32 `Auto`'s unaligned path;
//!   [`auto_tuning`]: FP32 `Auto` tuned on request (its shortlist timed on a shape's first product);
//! - [`grouped`]: a strided batch or grouped products in one launch ([`crate::Gpu::matmul_batched`],
//!   [`crate::Gpu::matmul_grouped`]);
//! - [`gemm`]: BLAS-style `C = α·op(A)·op(B) + β·C` on matrix views ([`crate::MatrixRef`]);
//! - [`planning`]: this GPU's [`Target`](crate::Target) and tuned picks handed to the planner ([`crate::Gpu::plan`]);
//! - [`elementwise`]: `vec_add` (grid-stride float4) and the seed's one-thread-per-element `vec_add`;
//! - [`fp8`]: `f32` / BF16 matrices converted to FP8 E4M3 or E5M2 ([`crate::Gpu::convert_to_fp8`]);
//!   [`fp8_matmul`]: FP8 products with per-tensor scales ([`crate::Gpu::matmul_fp8`]);
//! - [`fused`]: products finishing their sums in the kernel (`α`, bias, activation, a 16-bit `C`:
//!   [`crate::Gpu::matmul_fused`]);
//! - [`tma_probe`]: the TMA's read rate for a row pitch, box and walk, no products ([`crate::Gpu::tma_read`]).
use cudarc::driver::LaunchConfig;
use tessera_catalogue::LaunchDims;

pub mod auto_tuning;
pub mod ceiling;
pub mod elementwise;
pub(crate) mod finishing;
pub mod fp32_padding;
pub mod fp8;
pub mod fp8_matmul;
pub mod fused;
pub mod gemm;
pub mod grouped;
pub mod matmul;
pub mod planning;
pub mod tma_probe;

/// cudarc's form of the catalogue's launch dimensions.
pub fn launch_config(d: LaunchDims) -> LaunchConfig {
    LaunchConfig { grid_dim: d.grid, block_dim: d.block, shared_mem_bytes: d.shared_bytes }
}
