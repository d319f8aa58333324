//! The nightly the kernels are compiled with: which one (the kernel crate's `rust-toolchain.toml`),
//! where its LLVM tools are, and a clean environment for the nested cargo.
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::BuildError;

/// A located, checked toolchain.
pub(crate) struct Toolchain {
    /// `<sysroot>/lib/rustlib/<host>/bin`: llvm-ar, llvm-link, opt, llc.
    pub llvm_bin: PathBuf,
}

/// The channel named by the nearest `rust-toolchain.toml` (or legacy `rust-toolchain`) in `dir` or
/// above, with the file it came from.
pub(crate) fn channel_near(dir: &Path) -> Result<Option<(String, PathBuf)>, BuildError> {
    for folder in dir.ancestors() {
        for name in ["rust-toolchain.toml", "rust-toolchain"] {
            let file = folder.join(name);
            if !file.is_file() {
                continue;
            }
            let text = std::fs::read_to_string(&file).map_err(|source| BuildError::Io { action: "read", path: file.clone(), source })?;
            let channel = match text.parse::<toml::Table>() {
                Ok(t) => t.get("toolchain").and_then(|t| t.get("channel")).and_then(|c| c.as_str()).map(String::from),
                // The legacy file holds just the channel.
                Err(_) if name == "rust-toolchain" => Some(text.trim().to_string()),
                Err(e) => return Err(BuildError::Manifest { path: file, detail: e.to_string() }),
            };
            if let Some(channel) = channel {
                return Ok(Some((channel, file)));
            }
        }
    }
    Ok(None)
}

impl Toolchain {
    /// Finds `channel` through rustup and checks it has rust-src and llvm-tools.
    pub(crate) fn locate(channel: &str) -> Result<Self, BuildError> {
        let rustc = |args: &[&str]| -> Result<String, BuildError> {
            let mut cmd = Command::new("rustup");
            cmd.args(["run", channel, "rustc"]).args(args);
            // Never install behind the user's back: a missing toolchain is an error naming the command.
            cmd.env("RUSTUP_AUTO_INSTALL", "0");
            clean_env(&mut cmd);
            let out = cmd.output().map_err(BuildError::NoRustup)?;
            if !out.status.success() {
                let detail = String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("rustup failed").trim().to_string();
                return Err(BuildError::ToolchainMissing { channel: channel.into(), detail });
            }
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let sysroot = PathBuf::from(rustc(&["--print", "sysroot"])?.trim());
        let version = rustc(&["-vV"])?;
        let host = version.lines().find_map(|l| l.strip_prefix("host: ")).unwrap_or("x86_64-unknown-linux-gnu").trim();
        let llvm_bin = sysroot.join("lib").join("rustlib").join(host).join("bin");
        for tool in ["llvm-ar", "llvm-link", "opt", "llc"] {
            if !llvm_bin.join(tool).exists() {
                return Err(BuildError::ComponentMissing { channel: channel.into(), component: "llvm-tools", path: llvm_bin.join(tool) });
            }
        }
        let core = sysroot.join("lib/rustlib/src/rust/library/core");
        if !core.exists() {
            return Err(BuildError::ComponentMissing { channel: channel.into(), component: "rust-src", path: core });
        }
        Ok(Self { llvm_bin })
    }
}

/// Removes what an outer cargo exports to build scripts, keeping only the jobserver and
/// `CARGO_HOME`: `RUSTC` would run the outer (stable) compiler, `CARGO_ENCODED_RUSTFLAGS` (always
/// set, even empty) overrides the target's rustflags and silently drops `-Ctarget-cpu`,
/// `RUSTUP_TOOLCHAIN` beats the pinned channel.
pub(crate) fn clean_env(cmd: &mut Command) {
    for (key, _) in std::env::vars_os() {
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
