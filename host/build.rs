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
//! How the rebuild works: the host crate is ordinary stable Rust; only the kernels need the pinned
//! nightly (NVPTX target, `-Zbuild-std=core`), so this script runs that toolchain explicitly through
//! rustup. The kernels crate declares only `crate-type = ["rlib"]` (for the host crates that compile the
//! same source for the CPU: the catalogue, the emulator); this build asks for the cdylib on the command
//! line (`cargo rustc --crate-type cdylib`), which the nvptx64 target links into a PTX module through
//! `kernels/ptx-link.sh`. Its profile settings (panic = "abort", codegen-units = 1, opt-level = 3) are
//! passed on the command line too, so the workspace's own release profile cannot change the PTX.
//!
//! The launch bounds ptx-link.sh writes into the PTX, and each module's entry list, come from the
//! catalogue (an optional build dependency, enabled by the feature): each kernel's own `TileConfig`,
//! written to `OUT_DIR` for the link step.
//!
//! The nested cargo gets a clean environment: variables the outer cargo sets for build scripts
//! (`RUSTC`, `CARGO_ENCODED_RUSTFLAGS`, `RUSTUP_TOOLCHAIN`, …) would otherwise leak into it and, for
//! example, silently drop `-Ctarget-cpu=sm_90` (measured: the PTX came out `.target sm_70`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(feature = "build-kernels")]
    kernels::build();
}

/// The `build-kernels` rebuild of the PTX modules from `kernels/`.
#[cfg(feature = "build-kernels")]
mod kernels {
    use std::env;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Stdio};

    const TARGET: &str = "nvptx64-nvidia-cuda";
    /// The release profile of the kernels' GPU build: no unwinding on the GPU (the panic handler
    /// traps), one codegen unit so the link step sees one module, full optimisation, no debug info.
    const PROFILE: [&str; 5] = [
        "profile.release.panic=\"abort\"",
        "profile.release.codegen-units=1",
        "profile.release.opt-level=3",
        "profile.release.debug=false",
        "profile.release.lto=false",
    ];

    /// Builds `kernels/` for the GPU, once per module, and leaves the modules in `OUT_DIR`.
    pub fn build() {
        let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
        let root = manifest_dir.parent().expect("host/ lives inside the tessera workspace").to_path_buf();
        let kernels = root.join("kernels");
        if !kernels.join("Cargo.toml").is_file() {
            fail(&format!(
                "the `build-kernels` feature rebuilds the PTX from the kernels/ folder of a tessera checkout, and {} is not one. \
                 Without the feature tessera uses the PTX it ships with (ptx/).",
                root.display()
            ));
        }
        let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));

        // The root manifest: the kernels are a member of its workspace (its lock file, its profiles,
        // though the settings that shape the PTX are passed below).
        for watched in [
            "device/src",
            "device/Cargo.toml",
            "kernels/src",
            "kernels/Cargo.toml",
            "kernels/ptx-link.sh",
            "rust-toolchain.toml",
            "Cargo.toml",
        ] {
            println!("cargo:rerun-if-changed={}", root.join(watched).display());
        }

        let channel = pinned_channel(&root.join("rust-toolchain.toml"));
        let llvm_bin = llvm_tools_dir(&channel);
        // The launch bounds come from the catalogue (each kernel's own TileConfig); ptx-link.sh applies them.
        let bounds = tessera_catalogue::registry::entries::launch_bounds();
        let bounds_file = out_dir.join("launch-bounds.txt");
        write(&bounds_file, &bounds);
        for module in MODULES {
            let entries = tessera_catalogue::registry::entries::module_entries(module.sm90a);
            let entries_file = out_dir.join(format!("entries-{}.txt", module.cpu));
            write(&entries_file, &entries);
            let target_dir = out_dir.join(format!("kernels-target-{}", module.cpu));
            let mut cmd = Command::new("rustup");
            cmd.args([
                "run",
                &channel,
                "cargo",
                "rustc",
                "--lib",
                "--crate-type",
                "cdylib",
                "--release",
                "--target",
                TARGET,
                "-Zbuild-std=core",
            ])
            .arg("--manifest-path")
            .arg(kernels.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target_dir)
            .args(PROFILE.iter().flat_map(|setting| ["--config", setting]))
            .arg("--config")
            .arg(format!("target.{TARGET}.linker={:?}", kernels.join("ptx-link.sh").display().to_string()))
            .arg("--config")
            .arg(format!(
                "target.{TARGET}.rustflags=[\"-Ctarget-cpu={}\", \"-Ctarget-feature={}\", \"-Cllvm-args=-unroll-threshold=4000\", \"-Clink-arg=--link-inputs={}\"]",
                module.cpu,
                module.ptx_isa,
                link_inputs_hash(&kernels, &[&bounds, &entries])
            ))
            .env("TESSERA_LLVM_BIN", &llvm_bin)
            .env("TESSERA_LAUNCH_BOUNDS", &bounds_file)
            .env("TESSERA_ENTRIES", &entries_file)
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit());
            clean_env(&mut cmd);
            let status = cmd.status().unwrap_or_else(|e| fail(&format!("could not run rustup ({e}).")));
            if !status.success() {
                fail(&format!("building the kernels crate for {TARGET} ({}) with {channel} failed (see the errors above).", module.cpu));
            }
            let ptx = target_dir.join(TARGET).join("release").join("tessera_kernels.ptx");
            std::fs::copy(&ptx, out_dir.join(module.file))
                .unwrap_or_else(|e| fail(&format!("the kernels build produced no {} ({e})", ptx.display())));
        }
    }

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

    /// Writes a file the link step reads, or stops the build.
    fn write(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap_or_else(|e| fail(&format!("cannot write {} ({e})", path.display())));
    }

    /// The `channel = "…"` line of the workspace's rust-toolchain.toml: the one place the nightly is pinned.
    fn pinned_channel(toolchain_file: &Path) -> String {
        let text =
            std::fs::read_to_string(toolchain_file).unwrap_or_else(|e| fail(&format!("cannot read {} ({e})", toolchain_file.display())));
        text.lines()
            .find_map(|line| {
                let (key, value) = line.split_once('=')?;
                (key.trim() == "channel").then(|| value.trim().trim_matches('"').to_string())
            })
            .unwrap_or_else(|| fail(&format!("no `channel = \"…\"` line in {}", toolchain_file.display())))
    }

    /// `<sysroot of the pinned toolchain>/lib/rustlib/<host>/bin`, checked to hold the four LLVM tools.
    fn llvm_tools_dir(channel: &str) -> PathBuf {
        let mut cmd = Command::new("rustup");
        cmd.args(["run", channel, "rustc", "--print", "sysroot"]);
        clean_env(&mut cmd);
        let output = cmd.output().unwrap_or_else(|e| fail(&format!("could not run rustup ({e}).")));
        if !output.status.success() {
            fail(&format!("the pinned toolchain {channel} is not installed ({}).", String::from_utf8_lossy(&output.stderr).trim()));
        }
        let sysroot = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        let host = env::var("HOST").expect("cargo sets HOST");
        let bin = sysroot.join("lib").join("rustlib").join(host).join("bin");
        for tool in ["llvm-ar", "llvm-link", "opt", "llc"] {
            if !bin.join(tool).exists() {
                fail(&format!("{} is missing: the llvm-tools component of {channel} is not installed.", bin.join(tool).display()));
            }
        }
        if !sysroot.join("lib/rustlib/src/rust/library/core").exists() {
            fail(&format!("the rust-src component of {channel} is not installed (needed for -Zbuild-std=core)."));
        }
        bin
    }

    /// Removes what the outer cargo exports to build scripts, keeping only the jobserver and CARGO_HOME.
    fn clean_env(cmd: &mut Command) {
        for (key, _) in env::vars_os() {
            let key = key.to_string_lossy().into_owned();
            let leaks = (key.starts_with("CARGO") && key != "CARGO_HOME" && key != "CARGO_MAKEFLAGS")
                || key.starts_with("RUSTC")
                || key.starts_with("RUSTDOC")
                || key == "RUSTFLAGS"
                || key == "RUSTUP_TOOLCHAIN";
            if leaks {
                cmd.env_remove(&key);
            }
        }
    }

    /// A hash of the link step's inputs that cargo does not track (the linker script, the launch bounds
    /// it applies and the module's entry list, from the catalogue). It reaches the linker as `-Clink-arg=--link-inputs=<hash>`
    /// (ptx-link.sh ignores it), so a change of either changes the kernels' rustflags, hence cargo's
    /// fingerprint, and relinks the PTX; unlike `-Cmetadata` it does not enter symbol mangling, so the PTX
    /// text does not depend on it.
    ///
    /// The unroll threshold in the same flags: the register-blocked kernels (k04+) index their accumulator
    /// arrays in nested constant loops; LLVM's default threshold left the guarded epilogue loops rolled,
    /// which put the whole accumulator array in local memory (`ptxas -v`: 256–360 bytes stack frame).
    fn link_inputs_hash(kernels: &Path, lists: &[&str]) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::fs::read(kernels.join("ptx-link.sh")).unwrap_or_default().hash(&mut h);
        lists.hash(&mut h);
        h.finish()
    }

    /// Stops the build with a message that says how to fix it.
    fn fail(message: &str) -> ! {
        eprintln!("\nerror: tessera could not build its GPU kernels: {message}");
        eprintln!("  `build-kernels` compiles the kernels with the pinned nightly of rust-toolchain.toml. Install it with:");
        eprintln!("    rustup toolchain install <channel from rust-toolchain.toml> --profile minimal -c rust-src -c llvm-tools");
        eprintln!("  Without the feature, tessera uses the PTX it ships with and needs no nightly.\n");
        std::process::exit(1);
    }
}
