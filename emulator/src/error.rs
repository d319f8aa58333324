//! What can go wrong in an emulated launch.
use tessera_device::host::Dim3;

/// A launch the executor refused, or the first fault of a launch it ran.
///
/// Faults name the kernel, the block (`blockIdx`) and the thread (`threadIdx`) that hit them.
#[derive(Debug, thiserror::Error)]
pub enum EmuError {
    #[error("kernel `{kernel}`: invalid launch: {detail}")]
    InvalidLaunch { kernel: &'static str, detail: String },

    #[error("kernel `{kernel}`: a block of {block} is {threads} threads; CUDA allows at most 1024 per block (x, y ≤ 1024, z ≤ 64)")]
    TooManyThreads { kernel: &'static str, block: Dim3, threads: u64 },

    #[error("kernel `{kernel}`: {requested} bytes of dynamic shared memory requested; at most {limit} per block")]
    SharedMemoryTooLarge { kernel: &'static str, requested: usize, limit: usize },

    #[error("kernel `{kernel}`, block {block}, thread {thread}: divergent barrier: {detail}")]
    DivergentBarrier { kernel: &'static str, block: Dim3, thread: Dim3, detail: String },

    #[error("kernel `{kernel}`, block {block}, thread {thread}: divergent warp: {detail}")]
    DivergentWarp { kernel: &'static str, block: Dim3, thread: Dim3, detail: String },

    #[error("kernel `{kernel}`, block {block}, thread {thread}: warp-collective `{op}` in a partial warp: {detail}")]
    PartialWarp { kernel: &'static str, block: Dim3, thread: Dim3, op: &'static str, detail: String },

    #[error("kernel `{kernel}`, block {block}, thread {thread}: out-of-bounds access: {message}")]
    OutOfBounds { kernel: &'static str, block: Dim3, thread: Dim3, message: String },

    #[error("kernel `{kernel}`, block {block}, thread {thread}: panicked: {message}")]
    Panic { kernel: &'static str, block: Dim3, thread: Dim3, message: String },

    #[error("kernel `{kernel}`: could not map the stack of an emulated thread: {source}")]
    Spawn { kernel: &'static str, source: std::io::Error },
}
