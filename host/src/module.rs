//! The embedded PTX module built from the `kernels` crate by `build.rs`.

/// The PTX text of every tessera kernel (`.target sm_90`).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels.ptx"));

/// The kernel entry points the module must define; [`crate::Gpu::new`] resolves each once.
pub const KERNELS: &[&str] = &[
    "vec_add",
    "vec_add_vec4",
    "matmul_naive",
    "matmul_tiled",
    "iterated_fma",
    "diagnostic_trap",
    "matmul_blocktile_1d",
    "matmul_blocktile_2d",
    "matmul_vectorized",
    "matmul_conflict_free",
    "matmul_warptile",
    "matmul_dbuf_128x128x8",
    "matmul_dbuf_128x128x16",
    "matmul_dbuf_128x64x16",
    "matmul_dbuf_64x64x16",
    "matmul_dbuf_128x256x16",
    "matmul_dbuf_128x256x16_rolled",
    "matmul_splitk_128x128x16",
    "matmul_splitk_64x64x16",
    "matmul_async_64x64x16_s3",
    "mma_rate_tf32",
    "mma_rate_bf16",
    "mma_rate_f16",
];
