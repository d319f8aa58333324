//! The embedded PTX module built from the `kernels` crate by `build.rs`.

/// The PTX text of every tessera kernel (`.target sm_90`).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels.ptx"));

/// The kernel entry points the module must define (the catalogue's list); [`crate::Gpu::new`]
/// resolves each once.
pub fn kernel_names() -> Vec<&'static str> {
    tessera_catalogue::entries::entries().iter().map(|e| e.name).collect()
}
