//! The device vocabulary kernels are written in (modelled on cuda_std's names).
//!
//! - [`thread`]: where am I (thread/block indices and dimensions, the lane) and the block and warp barriers;
//! - [`shared`]: the block's shared memory;
//! - [`mem`]: typed views over global or shared memory;
//! - [`math`]: fused multiply-add;
//! - [`async_copy`]: `cp.async` global → shared copies (sm_80+), each PTX instruction one wrapper;
//! - [`mma`]: tensor-core `mma.sync` (TF32, BF16, FP16 with f32 accumulation), `ldmatrix` and the
//!   TF32 rounding, warp-collective wrappers of one PTX instruction each;
//! - [`wgmma`]: Hopper's warpgroup MMA from shared-memory descriptors (sm_90a), its fences and groups;
//! - [`tma`]: the Tensor Memory Accelerator's box copies global → shared (sm_90);
//! - [`mbarrier`]: shared-memory barriers with phases and transaction counts (what TMA signals);
//! - [`flag`]: counters in global memory that hand work between the blocks of a launch (release / acquire);
//! - [`cluster`]: thread-block clusters — ranks, peers' shared memory, the cluster barrier (sm_90);
//! - [`warpgroup`]: `setmaxnreg`, moving registers between warpgroups (sm_90a).
//!
//! Every function has a GPU implementation (`target_arch = "nvptx64"`: special registers, PTX
//! barriers, `.shared` memory) and a host implementation that reads the context a CPU executor
//! installs per thread ([`host`], host builds only). Kernels are written once against these names.
pub mod async_copy;
pub mod atomic;
pub mod cluster;
pub mod flag;
#[cfg(not(target_arch = "nvptx64"))]
pub mod host;
pub mod math;
pub mod mbarrier;
pub mod mem;
pub mod mma;
pub mod shared;
pub mod thread;
pub mod tma;
pub mod unroll;
pub mod warpgroup;
pub mod wgmma;
