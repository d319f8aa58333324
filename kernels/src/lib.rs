//! tessera's GPU kernels, written in Rust and compiled by rustc's NVPTX backend into two PTX modules
//! (`tessera.ptx` for sm_90, `tessera_sm90a.ptx` for the Hopper-only kernels).
//!
//! The pipeline is one straight line: this crate → tessera-builder (compile, the PTX link step) → the modules,
//! committed in `host/ptx/` (`scripts/ptx.sh` rebuilds them through `host/build.rs`) → the `tessera`
//! host crate embeds them and launches the kernels.
//!
//! Kernels use only the vocabulary in [`device`] (thread indices, `sync_threads`, shared tiles, memory
//! views, `fma`), the same words cuda_std offers, so a future rust-cuda backend could compile this source.
//! Each kernel is declared through `kernel!` (`macros.rs`), which gives it the PTX entry ABI on the GPU.
//!
//! The same source also builds for the host, as an ordinary (std, stable-Rust) library: each kernel
//! is then a plain `pub unsafe fn`, and the [`device`] functions read the per-thread context of the CPU
//! executor (crate `tessera-emulator`), which runs a launch with CUDA's thread and barrier semantics
//! and checks every index. Only the nvptx64 build is `no_std` and uses nightly features.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, stdarch_nvptx))]
#![deny(unsafe_op_in_unsafe_fn)]

#[macro_use]
mod macros;
/// The device vocabulary ([`tessera_device`]): the kernels use it as any kernel crate would.
pub use ::tessera_device as device;
pub mod activation;
pub mod diagnostics;
pub mod epilogue;
pub mod fp8;
pub mod iterated_fma;
pub mod launch;
pub mod matmul;
pub mod mma_rate;
pub mod pack;
pub mod tf32_operands;
pub mod tma_read;
pub mod vec_add;
pub mod vec_add_vec4;
pub mod wgmma_rate;
pub mod zero_fill;

/// A kernel that reaches a bounds check or an explicit `panic!` traps: the launch fails with
/// `CUDA_ERROR_LAUNCH_FAILED` (see the host crate's error docs). No formatting code is linked.
/// GPU only: a host build uses std's panic machinery (the CPU executor catches the unwind).
#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` has no preconditions; it aborts this thread's kernel execution.
    unsafe { core::arch::nvptx::trap() }
}
