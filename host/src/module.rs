//! The embedded PTX module built from the `kernels` crate by `build.rs`.

/// The PTX text of every tessera kernel (`.target sm_90`).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels.ptx"));

/// The kernel entry points the module must define; [`crate::Gpu::new`] resolves each once.
pub const KERNELS: &[&str] = &["vec_add", "matmul_naive", "matmul_tiled", "iterated_fma", "diagnostic_trap"];
