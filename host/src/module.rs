//! tessera's PTX modules: every kernel of `kernels/`, compiled by rustc's NVPTX backend.
//!
//! The modules ship with the crate (`ptx/tessera.ptx`, `ptx/tessera_sm90a.ptx`), so building tessera
//! needs no nightly Rust and no CUDA toolkit. They are plain PTX text: any CUDA driver API user can load
//! them (`cuModuleLoadData`, cust's `Module::from_ptx`, cudarc's `load_module`), with the entry names
//! and launch geometry of the [catalogue](crate::catalogue) (`examples/cust-interop` in the repository).
//! With the `build-kernels` feature they are the modules `build.rs` just built from `kernels/` instead.

/// The PTX text of every tessera kernel that runs from sm_90 on (`.target sm_90`).
#[cfg(not(feature = "build-kernels"))]
pub const PTX: &str = include_str!("../ptx/tessera.ptx");
/// The PTX text of every tessera kernel that runs from sm_90 on (`.target sm_90`).
#[cfg(feature = "build-kernels")]
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels.ptx"));

/// The PTX text of the Hopper-only kernels (`.target sm_90a`: `wgmma`); loaded on compute
/// capability 9.0 only.
#[cfg(not(feature = "build-kernels"))]
pub const PTX_SM90A: &str = include_str!("../ptx/tessera_sm90a.ptx");
/// The PTX text of the Hopper-only kernels (`.target sm_90a`: `wgmma`); loaded on compute
/// capability 9.0 only.
#[cfg(feature = "build-kernels")]
pub const PTX_SM90A: &str = include_str!(concat!(env!("OUT_DIR"), "/tessera_kernels_sm90a.ptx"));

/// The kernel entry points a module must define (the catalogue's list): the `sm_90a` module's when
/// `sm90a`, else the `sm_90` one's. A [`crate::Gpu`] loads each, alone, when first launched
/// ([`crate::ptx_pieces`]).
pub fn kernel_names(sm90a: bool) -> Vec<&'static str> {
    tessera_catalogue::registry::entries::entries().iter().filter(|e| e.sm90a == sm90a).map(|e| e.name).collect()
}
