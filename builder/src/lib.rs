//! Compiles a `no_std` Rust kernel crate to PTX from a `build.rs`: the role `cuda_builder` plays in
//! the rust-cuda stack, on rustc's own NVPTX backend.
//!
//! ```no_run
//! // build.rs of the crate that launches the kernels: the kernel crate is its folder `kernels/`
//! let built = tessera_builder::Builder::new("kernels").target_cpu("sm_90").build().unwrap_or_else(|e| e.exit());
//! // OUT_DIR/own_kernels.ptx and OUT_DIR/own_kernels.entries; the crate embeds the module with
//! // include_str!(concat!(env!("OUT_DIR"), "/own_kernels.ptx"))
//! assert!(!built.entries.is_empty());
//! ```
//!
//! What [`Builder::build`] does:
//! 1. finds the nightly the kernels are pinned to (the `rust-toolchain.toml` nearest the kernel
//!    crate, or [`Builder::toolchain`]) through rustup, and checks its `rust-src` and `llvm-tools`
//!    components — each missing piece is a [`BuildError`] carrying the command that installs it;
//! 2. runs that toolchain's cargo on the kernel crate for `nvptx64-nvidia-cuda` as a `cdylib`, with
//!    `-Zbuild-std=core`, the release profile fixed on the command line (`panic = "abort"`, one
//!    codegen unit, `opt-level = 3`) and an environment cleaned of the outer cargo's variables;
//! 3. links it with this crate's link step (rustc's `llvm-bitcode-linker` is not shipped for every
//!    nightly): the members of core and the dependencies, `llvm-link`, `opt` keeping only the
//!    entries, `llc` to PTX, then the launch bounds ([`LaunchBounds`]) written into their entries;
//! 4. copies the PTX to `OUT_DIR`, writes its entry list beside it, and tells cargo to rerun when
//!    any source the kernels were built from changes (the nested build's dep-info).
//!
//! The output is deterministic: no paths, no dates; two builds from different folders give the
//! same bytes (tessera's CI compares its shipped PTX with a fresh build byte for byte).
//!
//! The kernel crate: `#![no_std]` on the GPU target (`#![cfg_attr(target_arch = "nvptx64", no_std,
//! feature(abi_ptx))]`), `crate-type = ["rlib"]` (this builder asks for the `cdylib`), kernels
//! declared with `tessera_device::kernel!` — see tessera's `docs/writing-kernels.md`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
// The link step is a program of its own (build.rs compiles it); the library's tests check its parsers.
#[cfg(test)]
#[allow(dead_code)]
mod link;
mod toolchain;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use error::BuildError;
use toolchain::{channel_near, clean_env, Toolchain};

/// The GPU target every kernel crate is compiled for.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// The link step, compiled by this crate's build script from `src/link.rs`.
const LINKER: &str = concat!(env!("OUT_DIR"), "/tessera-ptx-link");
/// The link step's source: part of the fingerprint, so a new link step relinks.
const LINKER_SOURCE: &str = include_str!("link.rs");

/// The release profile of the GPU build, passed on the command line so that the kernel
/// workspace's own profile cannot change the PTX: no unwinding on the GPU, one codegen unit (one
/// module for the link step), full optimisation, no debug info.
const PROFILE: [&str; 5] = [
    "profile.release.panic=\"abort\"",
    "profile.release.codegen-units=1",
    "profile.release.opt-level=3",
    "profile.release.debug=false",
    "profile.release.lto=false",
];

/// One entry's launch bounds, which Rust has no attribute for: CUDA C's
/// `__launch_bounds__(threads, min_blocks)` and `__cluster_dims__(cluster)`.
///
/// ptxas then caps the entry's registers at 65536 / (threads · min_blocks); the launch must use
/// at most `threads` threads per block, and a `cluster` entry runs in clusters of that many
/// blocks along x whatever launch call starts it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LaunchBounds {
    /// The kernel's name (its `.entry`).
    pub entry: String,
    /// Most threads per block (`.maxntid`).
    pub threads: u32,
    /// Blocks per SM the registers must allow (`.minnctapersm`).
    pub min_blocks: u32,
    /// Blocks per cluster along x (`.reqnctapercluster`), if the kernel runs in clusters.
    pub cluster: Option<u32>,
}

impl LaunchBounds {
    /// `threads` per block, `min_blocks` resident per SM, no cluster.
    pub fn new(entry: impl Into<String>, threads: u32, min_blocks: u32) -> Self {
        Self { entry: entry.into(), threads, min_blocks, cluster: None }
    }

    /// The same bounds for an entry that runs in clusters of `blocks` blocks.
    pub fn with_cluster(self, blocks: u32) -> Self {
        Self { cluster: Some(blocks), ..self }
    }

    /// The link step's line: `entry threads min_blocks [cluster]`.
    fn line(&self) -> String {
        match self.cluster {
            Some(c) => format!("{} {} {} {c}", self.entry, self.threads, self.min_blocks),
            None => format!("{} {} {}", self.entry, self.threads, self.min_blocks),
        }
    }
}

/// What a build produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// The PTX module, in `OUT_DIR` (or [`Builder::out_dir`]).
    pub ptx: PathBuf,
    /// Its entry names, one a line, beside it (`<name>.entries`).
    pub entries_file: PathBuf,
    /// The entry names, in the module's order.
    pub entries: Vec<String>,
}

/// A kernel crate's PTX build. [`Builder::new`], options, [`Builder::build`].
#[derive(Debug, Clone)]
pub struct Builder {
    crate_dir: PathBuf,
    target_cpu: String,
    target_feature: Option<String>,
    llvm_args: Vec<String>,
    entries: Option<Vec<String>>,
    bounds: Vec<LaunchBounds>,
    toolchain: Option<String>,
    out_dir: Option<PathBuf>,
    output_name: Option<String>,
    target_dir: Option<PathBuf>,
    rerun_if_changed: bool,
}

impl Builder {
    /// A build of the kernel crate in `crate_dir` (relative paths are taken from the calling
    /// crate's `CARGO_MANIFEST_DIR`) for `sm_90`.
    pub fn new(crate_dir: impl AsRef<Path>) -> Self {
        let dir = crate_dir.as_ref();
        let crate_dir = match std::env::var_os("CARGO_MANIFEST_DIR") {
            Some(manifest) if dir.is_relative() => PathBuf::from(manifest).join(dir),
            _ => dir.to_path_buf(),
        };
        Self {
            crate_dir,
            target_cpu: "sm_90".into(),
            target_feature: None,
            llvm_args: Vec::new(),
            entries: None,
            bounds: Vec::new(),
            toolchain: None,
            out_dir: None,
            output_name: None,
            target_dir: None,
            rerun_if_changed: true,
        }
    }

    /// The GPU architecture (`-Ctarget-cpu`): `sm_90`, or `sm_90a` for Hopper-only instructions
    /// (`wgmma`, `setmaxnreg`).
    pub fn target_cpu(mut self, cpu: impl Into<String>) -> Self {
        self.target_cpu = cpu.into();
        self
    }

    /// A target feature, e.g. `+ptx81` for a PTX ISA version newer than the architecture's default.
    pub fn target_feature(mut self, feature: impl Into<String>) -> Self {
        self.target_feature = Some(feature.into());
        self
    }

    /// An argument for LLVM (`-Cllvm-args`), e.g. `-unroll-threshold=4000`.
    pub fn llvm_arg(mut self, arg: impl Into<String>) -> Self {
        self.llvm_args.push(arg.into());
        self
    }

    /// Keep only these kernels in the module (the others are internalised and dropped); by
    /// default every kernel of the crate is an entry.
    pub fn entries<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.entries = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Launch bounds for one entry (see [`LaunchBounds`]).
    pub fn launch_bounds(mut self, bounds: LaunchBounds) -> Self {
        self.bounds.push(bounds);
        self
    }

    /// The rustup toolchain to compile with, instead of the `rust-toolchain.toml` nearest the
    /// kernel crate. Must be a nightly.
    pub fn toolchain(mut self, channel: impl Into<String>) -> Self {
        self.toolchain = Some(channel.into());
        self
    }

    /// Where the PTX goes, instead of `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The PTX file's name, instead of `<library name>.ptx` (two builds of one crate, e.g. for
    /// `sm_90` and `sm_90a`, need two names).
    pub fn output_name(mut self, name: impl Into<String>) -> Self {
        self.output_name = Some(name.into());
        self
    }

    /// The nested build's target folder, instead of `<out dir>/tessera-builder/<name>`.
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.target_dir = Some(dir.into());
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for every source of the kernels (default: yes).
    pub fn rerun_if_changed(mut self, emit: bool) -> Self {
        self.rerun_if_changed = emit;
        self
    }

    /// Compiles, links and lowers the kernel crate; see the [crate] docs for the steps.
    pub fn build(&self) -> Result<Built, BuildError> {
        let manifest = self.crate_dir.join("Cargo.toml");
        let lib = library_name(&manifest)?;
        let (channel, from) = match (&self.toolchain, channel_near(&self.crate_dir)?) {
            (Some(c), _) => (c.clone(), "Builder::toolchain".to_string()),
            (None, Some((c, file))) => {
                self.watch(&file);
                (c, file.display().to_string())
            }
            (None, None) => return Err(BuildError::NoToolchain { crate_dir: self.crate_dir.clone() }),
        };
        if !channel.starts_with("nightly") {
            return Err(BuildError::NotNightly { channel, from });
        }
        let toolchain = Toolchain::locate(&channel)?;
        let out_dir = match (&self.out_dir, std::env::var_os("OUT_DIR")) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => PathBuf::from(d),
            (None, None) => return Err(BuildError::NoOutDir),
        };
        let output = self.output_name.clone().unwrap_or_else(|| format!("{lib}.ptx"));
        let stem = output.strip_suffix(".ptx").unwrap_or(&output).to_string();
        let target_dir = self.target_dir.clone().unwrap_or_else(|| out_dir.join("tessera-builder").join(&stem));
        mkdir(&target_dir)?;

        // The link step's inputs cargo does not see: files it reads, and a fingerprint in the flags.
        let mut link_env = Vec::new();
        if let Some(entries) = &self.entries {
            let file = target_dir.join("link-entries.txt");
            write(&file, &entries.join("\n"))?;
            link_env.push(("TESSERA_ENTRIES", file));
        }
        if !self.bounds.is_empty() {
            let file = target_dir.join("link-bounds.txt");
            write(&file, &self.bounds.iter().map(LaunchBounds::line).collect::<Vec<_>>().join("\n"))?;
            link_env.push(("TESSERA_LAUNCH_BOUNDS", file));
        }
        let mut flags = vec![format!("-Ctarget-cpu={}", self.target_cpu)];
        flags.extend(self.target_feature.iter().map(|f| format!("-Ctarget-feature={f}")));
        flags.extend(self.llvm_args.iter().map(|a| format!("-Cllvm-args={a}")));
        // Unlike -Cmetadata, a link argument does not enter symbol mangling: the PTX text does not
        // depend on it, but cargo's fingerprint does, so new entries or bounds relink.
        flags.push(format!("-Clink-arg=--link-inputs={}", self.fingerprint()));
        let rustflags = format!("target.{TARGET}.rustflags=[{}]", flags.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(", "));

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
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target_dir)
        .args(PROFILE.iter().flat_map(|setting| ["--config", setting]))
        .arg("--config")
        .arg(format!("target.{TARGET}.linker={:?}", LINKER))
        .arg("--config")
        .arg(rustflags)
        .env("TESSERA_LLVM_BIN", &toolchain.llvm_bin)
        .envs(link_env)
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
        clean_env(&mut cmd);
        // Run from the kernel crate: cargo's configuration lookup follows the working folder.
        cmd.current_dir(&self.crate_dir);
        let status = cmd.status().map_err(BuildError::NoRustup)?;
        if !status.success() {
            return Err(BuildError::Compile { krate: lib, target_cpu: self.target_cpu.clone(), channel });
        }

        let release = target_dir.join(TARGET).join("release");
        let produced = release.join(format!("{lib}.ptx"));
        if !produced.is_file() {
            return Err(BuildError::NoPtx(produced));
        }
        let ptx = out_dir.join(&output);
        std::fs::copy(&produced, &ptx).map_err(|source| BuildError::Io { action: "copy", path: produced.clone(), source })?;
        let text = std::fs::read_to_string(&ptx).map_err(|source| BuildError::Io { action: "read", path: ptx.clone(), source })?;
        let entries = entry_names(&text);
        if entries.is_empty() {
            return Err(BuildError::NoEntries(ptx));
        }
        let entries_file = out_dir.join(format!("{stem}.entries"));
        write(&entries_file, &(entries.join("\n") + "\n"))?;

        self.watch(&manifest);
        if self.rerun_if_changed {
            if let Ok(deps) = std::fs::read_to_string(release.join(format!("{lib}.d"))) {
                for source in dep_info_sources(&deps) {
                    println!("cargo:rerun-if-changed={source}");
                }
            }
        }
        Ok(Built { ptx, entries_file, entries })
    }

    fn watch(&self, path: &Path) {
        if self.rerun_if_changed {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }

    /// A hash of what the link step reads besides rustc's arguments: the entry list, the launch
    /// bounds and the link step itself.
    fn fingerprint(&self) -> u64 {
        let mut h = DefaultHasher::new();
        LINKER_SOURCE.hash(&mut h);
        self.entries.hash(&mut h);
        self.bounds.hash(&mut h);
        h.finish()
    }
}

/// The library name of the crate whose manifest is `manifest`: `[lib] name`, else the package's
/// name with `-` as `_` (the name of the `.ptx` cargo produces).
fn library_name(manifest: &Path) -> Result<String, BuildError> {
    let bad = |detail: String| BuildError::Manifest { path: manifest.to_path_buf(), detail };
    let text = std::fs::read_to_string(manifest).map_err(|e| bad(e.to_string()))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| bad(e.to_string()))?;
    let lib = table.get("lib").and_then(|l| l.get("name")).and_then(|n| n.as_str());
    let package = table.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str());
    lib.or(package).map(|n| n.replace('-', "_")).ok_or_else(|| bad("no [package] name".into()))
}

/// The names of the `.entry` directives of a PTX module, in order.
pub fn entry_names(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| l.strip_prefix(".visible .entry "))
        .map(|rest| rest.split('(').next().unwrap_or("").trim().to_string())
        .filter(|name| !name.is_empty())
        .collect()
}

/// The source files of a make-style dep-info file (`out: src src…`, spaces escaped as `\ `).
fn dep_info_sources(deps: &str) -> Vec<String> {
    let Some((_, sources)) = deps.lines().next().and_then(|l| l.split_once(": ")) else { return Vec::new() };
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = sources.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => current.push(chars.next().unwrap_or(' ')),
            ' ' => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn mkdir(dir: &Path) -> Result<(), BuildError> {
    std::fs::create_dir_all(dir).map_err(|source| BuildError::Io { action: "create", path: dir.to_path_buf(), source })
}

fn write(path: &Path, text: &str) -> Result<(), BuildError> {
    std::fs::write(path, text).map_err(|source| BuildError::Io { action: "write", path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names_read_the_entries_in_order() {
        let ptx = ".version 8.1\n.visible .entry b(\n\t.param .u32 b_param_0\n)\n{\n}\n.visible .func f()\n.visible .entry a()       // @a\n{\n}\n";
        assert_eq!(entry_names(ptx), ["b", "a"]);
        assert!(entry_names(".version 8.1\n").is_empty());
    }

    #[test]
    fn dep_info_keeps_escaped_spaces() {
        let d = "/t/x.ptx: /src/a.rs /my\\ dir/b.rs\n\n/src/a.rs:\n";
        assert_eq!(dep_info_sources(d), ["/src/a.rs", "/my dir/b.rs"]);
    }

    #[test]
    fn the_library_name_comes_from_the_manifest() {
        let dir = std::env::temp_dir().join(format!("tessera-builder-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        std::fs::write(&manifest, "[package]\nname = \"my-kernels\"\n").unwrap();
        assert_eq!(library_name(&manifest).unwrap(), "my_kernels");
        std::fs::write(&manifest, "[package]\nname = \"my-kernels\"\n[lib]\nname = \"gpu\"\n").unwrap();
        assert_eq!(library_name(&manifest).unwrap(), "gpu");
        std::fs::write(&manifest, "[dependencies]\n").unwrap();
        assert!(matches!(library_name(&manifest), Err(BuildError::Manifest { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_toolchain_names_the_install_command() {
        let e = Toolchain::locate("nightly-1999-01-01").err().expect("no such toolchain");
        let text = e.to_string();
        assert!(text.contains("rustup toolchain install nightly-1999-01-01") || matches!(e, BuildError::NoRustup(_)), "{text}");
    }

    #[test]
    fn launch_bounds_lines_are_what_the_link_step_reads() {
        let b = [LaunchBounds::new("k", 256, 2), LaunchBounds::new("c", 384, 1).with_cluster(2)];
        let text: Vec<String> = b.iter().map(LaunchBounds::line).collect();
        let parsed = link::parse_bounds(&text.join("\n")).unwrap();
        assert_eq!(parsed[0], link::Bound { entry: "k".into(), threads: 256, min_blocks: 2, cluster: None });
        assert_eq!(parsed[1].cluster, Some(2));
    }
}
