//! Compiles the PTX link step (`src/link.rs`, std only) into a program of its own in `OUT_DIR`: rustc
//! runs it as the linker of the kernel crates this library builds, so it must be an executable file.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/link.rs");
    println!("cargo:rerun-if-changed=src/linker_main.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("tessera-ptx-link");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let status = Command::new(rustc)
        .args(["--edition=2021", "--crate-type=bin", "--crate-name=tessera_ptx_link", "-Copt-level=2", "src/linker_main.rs", "-o"])
        .arg(&out)
        .status()
        .expect("cargo's rustc runs");
    assert!(status.success(), "compiling the PTX link step (src/link.rs) failed");
}
