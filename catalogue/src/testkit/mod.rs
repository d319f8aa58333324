//! What checks a result, shared by the host's tests, the emulator's and the scorecard: [`matrix`]
//! ([`HostMatrix`](matrix::HostMatrix), a row-major `f32` matrix), [`random`] (the operand and shape
//! generators, seeded), [`reference`](mod@reference) (the f64 reference product), [`gemm_case`] (GEMM test problems
//! over BLAS views), [`grouped`] (batched and grouped products and their check), [`fp8`] (block scales and their reference), [`check`] (a result against the reference, within the precision's tolerance,
//! whose rules are [`crate::precision`]'s).
pub mod check;
pub mod fp8;
pub mod gemm_case;
pub mod grouped;
pub mod matrix;
pub mod random;
pub mod reference;
