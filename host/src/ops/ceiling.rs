//! The tensor-core ceiling: a launcher for the `mma_rate_*` microbenchmark kernels
//! (`kernels/src/mma_rate.rs`), which issue nothing but independent `mma.sync` instructions on
//! register operands. Timing one launch (CUDA events) over its returned FLOPs gives the rate at which
//! the SMs accept `mma.sync` in a precision: the roof a tensor-core GEMM written with `mma.sync` can reach.
//!
//! And the `wgmma` ceiling: [`Gpu::wgmma_rate`] launches the `wgmma_rate_*` kernels
//! (`kernels/src/wgmma_rate.rs`, sm_90a), back-to-back `wgmma.mma_async` `m64n256k16` / `m64n256k8`
//! on a fixed shared-memory tile: the roof of a GEMM built on `wgmma` (kernel 14 on), reported beside
//! the datasheet's dense peak ([`datasheet_dense_peak`]).
use cudarc::driver::{LaunchConfig, PushKernelArg};
pub use tessera_catalogue::registry::ceiling::{
    datasheet_dense_peak, wgmma_rate_entry, wgmma_rate_expected, wgmma_rate_flops, DatasheetPeak,
};
use tessera_catalogue::Precision;
use tessera_kernels::{mma_rate, wgmma_rate};

use crate::buffer::DeviceBuffer;
use crate::context::Gpu;
use crate::error::{Error, Result};

/// Threads per block of every `wgmma_rate` launch (one warpgroup); `out` needs `blocks · WGMMA_RATE_BLOCK` floats.
pub const WGMMA_RATE_BLOCK: u32 = wgmma_rate::BLOCK;

/// Threads per block of every `mma_rate` launch (8 warps); `out` needs `blocks · MMA_RATE_BLOCK` floats.
pub const MMA_RATE_BLOCK: u32 = mma_rate::BLOCK;

/// The `mma_rate` entry of `precision` and the FLOPs of one of its `mma.sync` instructions
/// (`2·16·8·K`: `m16n8k8` for TF32, `m16n8k16` for BF16 and FP16); `None` for FP32 (no tensor cores).
pub fn mma_rate_entry(precision: Precision) -> Option<(&'static str, f64)> {
    match precision {
        // FP8 (`m16n8k32` e4m3/e5m2): no rate kernel yet.
        Precision::Fp32 | Precision::Fp8E4m3 | Precision::Fp8E5m2 => None,
        Precision::Tf32 => Some(("mma_rate_tf32", 2.0 * 16.0 * 8.0 * 8.0)),
        Precision::Bf16 => Some(("mma_rate_bf16", 2.0 * 16.0 * 8.0 * 16.0)),
        Precision::Fp16 => Some(("mma_rate_f16", 2.0 * 16.0 * 8.0 * 16.0)),
    }
}

/// FLOPs of one `mma_rate` launch of `blocks` blocks of [`mma_rate::BLOCK`] threads running `iters`
/// iterations: `warps · iters · CHAINS · flops_per_mma`. `None` for FP32.
pub fn mma_rate_flops(precision: Precision, blocks: u32, iters: u32) -> Option<f64> {
    let (_, per_mma) = mma_rate_entry(precision)?;
    let warps = f64::from(blocks) * f64::from(mma_rate::BLOCK / 32);
    Some(warps * f64::from(iters) * mma_rate::CHAINS as f64 * per_mma)
}

impl Gpu {
    /// Queues one launch of the `mma.sync` rate kernel of `precision` (`mma_rate_tf32`,
    /// `mma_rate_bf16`, `mma_rate_f16`) on `blocks` blocks of [`mma_rate::BLOCK`] threads, each warp
    /// running `iters` rounds of [`mma_rate::CHAINS`] independent `mma.sync`s, and returns the
    /// launch's floating-point operations (see [`mma_rate_flops`]). Each thread writes one float to
    /// `out` (a sum of its accumulators, so the work cannot be optimized away).
    ///
    /// Time the launch with [`crate::GpuTimer`]; fill every SM (e.g. 8 blocks per SM) and pick
    /// `iters` so a launch lasts tens of milliseconds.
    ///
    /// Errors, before any launch: [`Error::InvalidArgument`] for [`Precision::Fp32`] (no `mma.sync`
    /// in FP32), `blocks == 0` or `iters == 0`; [`Error::TooLarge`] when `blocks · BLOCK` exceeds
    /// the 32-bit thread index; [`Error::BufferTooSmall`] when `out` holds fewer than
    /// `blocks · BLOCK` floats; [`Error::WrongContext`] for a buffer of another context.
    pub fn mma_rate(&self, precision: Precision, blocks: u32, iters: u32, out: &mut DeviceBuffer<f32>) -> Result<f64> {
        const OP: &str = "mma_rate";
        let Some((entry, _)) = mma_rate_entry(precision) else {
            return Err(Error::InvalidArgument {
                op: OP,
                detail: "FP32 has no mma.sync: the ceiling exists for TF32, BF16 and FP16".into(),
            });
        };
        let flops = mma_rate_flops(precision, blocks, iters).unwrap_or(0.0);
        // SAFETY: mma_rate_*(out, iters) is a 1-D launch of BLOCK (a multiple of 32) threads per block
        // with no shared memory, as its contract asks; each thread writes out[global thread id] only.
        unsafe { self.launch_rate(OP, entry, RateLaunch { block: mma_rate::BLOCK, shared_bytes: 0, blocks, iters }, out)? };
        Ok(flops)
    }
}

impl Gpu {
    /// Queues one launch of the `wgmma` rate kernel of `precision` (`wgmma_rate_tf32`,
    /// `wgmma_rate_bf16`, `wgmma_rate_f16`, sm_90a) on `blocks` blocks of [`WGMMA_RATE_BLOCK`] threads
    /// (one warpgroup each: `blocks = w · SMs` puts `w` warpgroups on every SM, 1 ≤ w ≤ 3), each running
    /// `iters` groups of [`wgmma_rate::GROUP`] `wgmma`s, and returns the launch's floating-point
    /// operations (see [`wgmma_rate_flops`]). Each thread writes one float to `out`: a weighted sum of
    /// its accumulators, exactly [`wgmma_rate_expected`] while `iters ≤ 8`.
    ///
    /// Time the launch with [`crate::GpuTimer`] and pick `iters` so a launch lasts tens of milliseconds.
    ///
    /// Errors, before any launch: [`Error::InvalidArgument`] for [`Precision::Fp32`] (no `wgmma` in
    /// FP32), `blocks == 0` or `iters == 0`; [`Error::UnsupportedDevice`] off compute capability 9.0
    /// (the kernels are in the sm_90a module); [`Error::TooLarge`] when `blocks · BLOCK` exceeds the
    /// 32-bit thread index; [`Error::BufferTooSmall`] when `out` holds fewer than `blocks · BLOCK`
    /// floats; [`Error::WrongContext`] for a buffer of another context.
    pub fn wgmma_rate(&self, precision: Precision, blocks: u32, iters: u32, out: &mut DeviceBuffer<f32>) -> Result<f64> {
        const OP: &str = "wgmma_rate";
        let Some((entry, _)) = wgmma_rate_entry(precision) else {
            return Err(Error::InvalidArgument { op: OP, detail: "FP32 has no wgmma: the ceiling exists for TF32, BF16 and FP16".into() });
        };
        if !self.has_sm90a() {
            return Err(Error::UnsupportedDevice { kernel: entry, needs: "compute capability 9.0 (sm_90a)" });
        }
        let flops = wgmma_rate_flops(precision, blocks, iters).unwrap_or(0.0);
        let launch = RateLaunch { block: wgmma_rate::BLOCK, shared_bytes: wgmma_rate::SHARED_BYTES, blocks, iters };
        // SAFETY: wgmma_rate_*(out, iters) is a 1-D launch of BLOCK (one warpgroup) threads per block
        // with SHARED_BYTES of dynamic shared memory on an sm_90a device (checked above), as its
        // contract asks; each thread writes out[global thread id] only.
        unsafe { self.launch_rate(OP, entry, launch, out)? };
        Ok(flops)
    }
}

/// The geometry of one rate-kernel launch: `blocks` blocks of `block` threads with `shared_bytes` of
/// dynamic shared memory, each thread running `iters` iterations.
struct RateLaunch {
    block: u32,
    shared_bytes: u32,
    blocks: u32,
    iters: u32,
}

impl Gpu {
    /// The checks and the launch both rate kernels share: `blocks` and `iters` at least 1, a 32-bit
    /// thread count, `out` of this context with a float per thread; then `entry(out, iters)`.
    ///
    /// # Safety
    /// `entry` is a rate kernel taking `(out, iters)` whose contract `launch`'s geometry meets and
    /// whose threads write only `out[global thread id]`.
    unsafe fn launch_rate(&self, op: &'static str, entry: &'static str, launch: RateLaunch, out: &mut DeviceBuffer<f32>) -> Result<()> {
        let RateLaunch { block, shared_bytes, blocks, iters } = launch;
        if blocks == 0 || iters == 0 {
            return Err(Error::InvalidArgument { op, detail: format!("blocks ({blocks}) and iters ({iters}) must be at least 1") });
        }
        let threads = blocks
            .checked_mul(block)
            .ok_or_else(|| Error::TooLarge { op, detail: format!("{blocks} blocks of {block} threads exceed a 32-bit thread index") })?;
        out.check_context(self, op)?;
        if out.len() < threads as usize {
            return Err(Error::BufferTooSmall { op, name: "out", len: out.len(), needed: threads as usize });
        }
        let cfg = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: shared_bytes };
        let mut builder = self.stream().launch_builder(self.kernel(entry)?);
        builder.arg(&mut out.slice).arg(&iters);
        // SAFETY: the geometry is the kernel's (the caller's contract); out holds at least one float
        // per thread (checked above) in this context.
        self.launched(unsafe { builder.launch(cfg) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flops_per_launch_match_hand_worked_values() {
        // One block: 8 warps · 1 iteration · 8 chains · 2048 (TF32) or 4096 (BF16/FP16) FLOPs.
        assert_eq!(mma_rate_flops(Precision::Tf32, 1, 1), Some(8.0 * 8.0 * 2048.0));
        assert_eq!(mma_rate_flops(Precision::Bf16, 1, 1), Some(8.0 * 8.0 * 4096.0));
        assert_eq!(mma_rate_flops(Precision::Fp16, 132 * 8, 1000), Some(132.0 * 8.0 * 8.0 * 1000.0 * 8.0 * 4096.0));
        assert_eq!(mma_rate_flops(Precision::Fp32, 1, 1), None);
    }
}
