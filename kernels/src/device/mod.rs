//! The device vocabulary kernels are written in (modelled on cuda_std's names).
//!
//! - [`thread`]: where am I (thread/block indices and dimensions) and the block barrier;
//! - [`shared`]: the block's shared memory;
//! - [`mem`]: typed views over global or shared memory;
//! - [`math`]: fused multiply-add.
pub mod math;
pub mod mem;
pub mod shared;
pub mod thread;
