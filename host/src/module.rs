//! The embedded PTX modules built from the `kernels` crate by `build.rs`.

/// The PTX text of every tessera kernel that runs from sm_90 on (`.target sm_90`).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels.ptx"));

/// The PTX text of the Hopper-only kernels (`.target sm_90a`: `wgmma`); loaded on compute
/// capability 9.0 only.
pub const PTX_SM90A: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels_sm90a.ptx"));

/// The kernel entry points a module must define (the catalogue's list): the `sm_90a` module's when
/// `sm90a`, else the `sm_90` one's. [`crate::Gpu::new`] resolves each once.
pub fn kernel_names(sm90a: bool) -> Vec<&'static str> {
    tessera_catalogue::entries::entries().iter().filter(|e| e.sm90a == sm90a).map(|e| e.name).collect()
}
