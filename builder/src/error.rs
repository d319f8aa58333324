//! What can stop a kernel build, each case with what to do about it.
use std::path::PathBuf;

/// Why [`crate::Builder::build`] could not produce the PTX.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// No toolchain named for the kernels: neither [`crate::Builder::toolchain`] nor a
    /// `rust-toolchain.toml` in the kernel crate's folder or above it.
    #[error(
        "no toolchain for the kernel crate at {crate_dir}: put a rust-toolchain.toml with `channel = \"nightly-YYYY-MM-DD\"` in its folder, or call Builder::toolchain"
    )]
    NoToolchain {
        /// The kernel crate's folder.
        crate_dir: PathBuf,
    },
    /// The toolchain named is not a nightly: the NVPTX build needs `-Zbuild-std` and `abi_ptx`.
    #[error("the kernels need a nightly toolchain (nvptx64 has no prebuilt core: -Zbuild-std=core), and {from} names `{channel}`")]
    NotNightly {
        /// The toolchain named.
        channel: String,
        /// Where it was named.
        from: String,
    },
    /// `rustup` could not be run.
    #[error("could not run rustup ({0}); the kernels are compiled with a rustup toolchain: install rustup from https://rustup.rs")]
    NoRustup(std::io::Error),
    /// The pinned toolchain is not installed.
    #[error("the toolchain {channel} is not installed ({detail}). Install it with:\n    rustup toolchain install {channel} --profile minimal -c rust-src -c llvm-tools")]
    ToolchainMissing {
        /// The toolchain.
        channel: String,
        /// rustup's message.
        detail: String,
    },
    /// A component the build needs is missing from the toolchain.
    #[error("{path} is missing: the {component} component of {channel} is not installed. Add it with:\n    rustup component add {component} --toolchain {channel}")]
    ComponentMissing {
        /// The toolchain.
        channel: String,
        /// The component (`rust-src`, `llvm-tools`).
        component: &'static str,
        /// The file it would have provided.
        path: PathBuf,
    },
    /// The kernel crate's `Cargo.toml` could not be read or names no package.
    #[error("cannot read the kernel crate's manifest {path}: {detail}")]
    Manifest {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// Not run from a build script and no output folder given.
    #[error("OUT_DIR is not set: call the builder from a build script, or give Builder::out_dir")]
    NoOutDir,
    /// A file or folder the build writes or reads.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What the build was doing (`read`, `write`, `create`, `copy`).
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The kernel crate did not compile or link for nvptx64 (rustc's errors are above this one).
    #[error("building {krate} for nvptx64-nvidia-cuda ({target_cpu}) with {channel} failed (see the errors above)")]
    Compile {
        /// The kernel crate's library name.
        krate: String,
        /// The GPU architecture.
        target_cpu: String,
        /// The toolchain.
        channel: String,
    },
    /// The build succeeded but left no PTX where cargo puts the cdylib.
    #[error("the kernel build produced no {0}")]
    NoPtx(PathBuf),
    /// The PTX defines no `.entry`: the crate declares no kernels, or the entry list kept none.
    #[error("{0} defines no kernel entry (no `pub unsafe extern \"ptx-kernel\" fn`, or none in the entry list)")]
    NoEntries(PathBuf),
}

impl BuildError {
    /// Prints the error as cargo shows a build script's failure and exits with status 1: for a
    /// `build.rs` whose only job is the kernels.
    pub fn exit(&self) -> ! {
        eprintln!("\nerror: tessera-builder could not build the GPU kernels: {self}\n");
        std::process::exit(1)
    }
}
