//! Compiles the kernel crate (`kernels/`) to PTX with tessera-builder: `OUT_DIR/own_kernels.ptx`,
//! which `src/lib.rs` embeds. The pinned nightly comes from `kernels/rust-toolchain.toml`; when it is
//! missing the build stops with the `rustup` command that installs it.
use tessera_builder::{Builder, LaunchBounds};

fn main() {
    Builder::new("kernels")
        .target_cpu("sm_90")
        // The launch each kernel exports uses these block sizes (`.maxntid`). One block an SM is all
        // the registers must allow: measured on the H200 (docs/results/2026-12-04-own-kernel), asking
        // ptxas for 2, 3 or 4 blocks of the softmax gave 0.94, 0.92 and 0.73 of the copy bandwidth
        // against 0.95 for 1 (at 4 its loads in flight spilled).
        .launch_bounds(LaunchBounds::new("softmax_rows_f32", own_kernels::SOFTMAX_THREADS, 1))
        .launch_bounds(LaunchBounds::new("softmax_rows_bf16", own_kernels::SOFTMAX_THREADS, 1))
        .launch_bounds(LaunchBounds::new("silu_mul_f32", own_kernels::SILU_THREADS, 1))
        .build()
        .unwrap_or_else(|e| e.exit());
}
