//! Provides the PTX modules tessera embeds: `sm_90` (every kernel that runs from Hopper on) and
//! `sm_90a` (the Hopper-only `wgmma` kernels).
//!
//! By default there is nothing to build: the modules ship with the crate as `ptx/tessera.ptx` and
//! `ptx/tessera_sm90a.ptx` (committed, and part of the published package), and `src/module.rs` embeds
//! them. Building tessera therefore needs only stable Rust — no nightly, no CUDA — which is what
//! crates.io users, docs.rs and `examples/consumer` get.
//!
//! With the `build-kernels` feature this script rebuilds both modules from the `kernels/` folder of a
//! tessera checkout into `OUT_DIR`, and the crate embeds those instead. `scripts/ptx.sh` uses it to
//! refresh `ptx/` after a kernel changes; CI rebuilds them and fails if a committed file differs by one
//! byte (the build is deterministic: no paths, no dates in the PTX).
//!
//! The rebuild is tessera-builder's, as any kernel crate's: the pinned nightly of the workspace's
//! rust-toolchain.toml, the PTX link step, the launch bounds. What is tessera's own: each module's
//! entry list and the launch bounds, from the catalogue (an optional build dependency, enabled by the
//! feature: each kernel's own `TileConfig`), and the unroll threshold — the register-blocked kernels
//! (k04+) index their accumulator arrays in nested constant loops, and LLVM's default threshold left
//! the guarded epilogue loops rolled, which put the whole accumulator array in local memory
//! (`ptxas -v`: 256–360 bytes of stack frame).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "build-kernels")]
    kernels::build();
}

/// The `build-kernels` rebuild of the PTX modules from `kernels/`.
#[cfg(feature = "build-kernels")]
mod kernels {
    use tessera_builder::{Builder, LaunchBounds};

    /// One PTX module: the GPU architecture it targets, the PTX ISA version it is written in (8.1 for
    /// `red.global.add.v2.f32` / `.v4.f32`), which kernels it holds, its file in `OUT_DIR`.
    struct Module {
        cpu: &'static str,
        ptx_isa: &'static str,
        sm90a: bool,
        file: &'static str,
    }

    /// The `sm_90` module (every kernel that runs from Hopper on) and the `sm_90a` one (Hopper-only
    /// instructions: `wgmma`), which the host loads on compute capability 9.0 only.
    const MODULES: [Module; 2] = [
        Module { cpu: "sm_90", ptx_isa: "+ptx81", sm90a: false, file: "tessera_kernels.ptx" },
        Module { cpu: "sm_90a", ptx_isa: "+ptx81", sm90a: true, file: "tessera_kernels_sm90a.ptx" },
    ];

    /// Builds `kernels/` for the GPU, once per module, and leaves the modules in `OUT_DIR`.
    pub fn build() {
        let kernels = std::path::Path::new("../kernels");
        if !kernels.join("Cargo.toml").is_file() {
            eprintln!(
                "error: the `build-kernels` feature rebuilds the PTX from the kernels/ folder of a tessera checkout, \
                 and this is not one. Without the feature tessera uses the PTX it ships with (ptx/)."
            );
            std::process::exit(1);
        }
        let entries = tessera_catalogue::registry::entries::entries();
        for module in MODULES {
            let in_module = entries.iter().filter(|e| e.sm90a == module.sm90a);
            let bounds = in_module.clone().filter(|e| e.min_blocks_per_sm > 0).map(|e| {
                let b = LaunchBounds::new(e.name, e.threads, e.min_blocks_per_sm);
                if e.cluster > 1 {
                    b.with_cluster(e.cluster)
                } else {
                    b
                }
            });
            let builder = Builder::new(kernels)
                .target_cpu(module.cpu)
                .target_feature(module.ptx_isa)
                .llvm_arg("-unroll-threshold=4000")
                .entries(in_module.map(|e| e.name))
                .output_name(module.file);
            let builder = bounds.fold(builder, Builder::launch_bounds);
            if let Err(e) = builder.build() {
                e.exit();
            }
        }
    }
}
