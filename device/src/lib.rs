//! tessera's device vocabulary: what a kernel written in plain Rust says to the GPU (modelled on
//! cuda_std's names), for tessera's kernels and any other kernel crate.
//!
//! - [`launch`]: a kernel's launch geometry ([`launch::LaunchDims`]), exported beside it for the host;
//! - [`thread`]: where am I (thread/block indices and dimensions, the lane) and the block and warp barriers;
//! - [`shared`]: the block's shared memory;
//! - [`mem`]: typed views over global or shared memory;
//! - [`math`]: fused multiply-add, the 16-bit formats' exact widening, the FP8 conversions;
//! - [`atomic`]: atomic additions in global memory;
//! - [`async_copy`]: `cp.async` global → shared copies (sm_80+), each PTX instruction one wrapper;
//! - [`mma`]: tensor-core `mma.sync` (TF32, BF16, FP16 with f32 accumulation), `ldmatrix` and the
//!   TF32 rounding, warp-collective wrappers of one PTX instruction each;
//! - [`wgmma`]: Hopper's warpgroup MMA from shared-memory descriptors (sm_90a), its fences and groups;
//! - [`tma`]: the Tensor Memory Accelerator's box copies global → shared (sm_90);
//! - [`mbarrier`]: shared-memory barriers with phases and transaction counts (what TMA signals);
//! - [`dependent_launch`]: a launch that overlaps the one before it (`griddepcontrol`, sm_90);
//! - [`flag`]: counters in global memory that hand work between the blocks of a launch (release / acquire);
//! - [`cluster`]: thread-block clusters — ranks, peers' shared memory, the cluster barrier (sm_90);
//! - [`warpgroup`]: `setmaxnreg`, moving registers between warpgroups (sm_90a);
//! - [`warp`]: warp shuffles and warp reductions (`shfl.sync`);
//! - [`unroll`]: loops the compiler must unroll.
//!
//! Every function has a GPU implementation (`target_arch = "nvptx64"`: special registers, PTX
//! barriers, `.shared` memory, one PTX instruction per inline-assembly wrapper where Rust has no
//! word for it) and a host implementation that reads the context a CPU executor installs per thread
//! ([`host`], host builds only: the `tessera-emulator` crate is such an executor). A kernel is
//! written once against these names and runs on both.
//!
//! The nvptx64 build is `no_std` and needs the nightly features below; the host build is plain
//! stable Rust with `std`.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(
    target_arch = "nvptx64",
    feature(
        f16,
        stdarch_nvptx,
        asm_experimental_arch,
        core_intrinsics,
        gpu_intrinsics,
        gpu_launch_sized_workgroup_mem,
        link_llvm_intrinsics
    )
)]
#![cfg_attr(target_arch = "nvptx64", allow(internal_features))]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod async_copy;
pub mod atomic;
pub mod cluster;
pub mod dependent_launch;
pub mod flag;
#[cfg(not(target_arch = "nvptx64"))]
pub mod host;
pub mod launch;
pub mod math;
pub mod mbarrier;
pub mod mem;
pub mod mma;
pub mod shared;
pub mod thread;
pub mod tma;
pub mod unroll;
pub mod warp;
pub mod warpgroup;
pub mod wgmma;

pub use launch::LaunchDims;

/// Declares a kernel entry point, written once for the GPU and the host.
///
/// On the GPU target the function becomes `#[no_mangle] pub unsafe extern "ptx-kernel"`: a `.entry`
/// of the PTX module named as the function (the kernel crate enables `#![feature(abi_ptx)]` for its
/// nvptx64 build). On the host it is a plain `pub unsafe fn` with the same parameters, which a CPU
/// executor (`tessera-emulator`) calls once per emulated thread. The body uses this crate's words.
///
/// ```
/// use tessera_device::{kernel, thread};
///
/// kernel! {
///     /// `y[i] = 2·x[i]` for `i < n`.
///     ///
///     /// # Safety
///     /// `x` and `y` hold `n` floats; one thread per element.
///     pub unsafe fn double(x: *const f32, y: *mut f32, n: u32) {
///         let i = thread::index_1d();
///         if i < n as usize {
///             // SAFETY: i < n (the contract).
///             unsafe { *y.add(i) = 2.0 * *x.add(i) }
///         }
///     }
/// }
/// ```
#[macro_export]
macro_rules! kernel {
    (
        $(#[$meta:meta])*
        pub unsafe fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $body:block
    ) => {
        $(#[$meta])*
        #[cfg(target_arch = "nvptx64")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body

        $(#[$meta])*
        #[cfg(not(target_arch = "nvptx64"))]
        pub unsafe fn $name($($arg: $ty),*) $body
    };
}
