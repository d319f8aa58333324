//! The embedded PTX module: every kernel entry is there, it targets sm_90, and ptxas accepts it with no
//! register spills. Runs without a GPU; the ptxas check is ignored (with a message) when no ptxas is found.
use std::path::PathBuf;
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};
use tessera::module::{KERNELS, PTX};

/// `TESSERA_PTXAS`, else `ptxas` on PATH, else the one PyPI's nvidia-cuda-nvcc package installs.
fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TESSERA_PTXAS") {
        return Some(PathBuf::from(p));
    }
    if Command::new("ptxas").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Some(PathBuf::from("ptxas"));
    }
    let out = Command::new("python3")
        .args(["-c", "import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], 'cu13', 'bin', 'ptxas'))"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    path.is_file().then_some(path)
}

fn ptxas_report(ptxas: &PathBuf) -> Result<String, Failed> {
    let dir = std::env::temp_dir().join(format!("tessera-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let ptx = dir.join("tessera_kernels.ptx");
    std::fs::write(&ptx, PTX).map_err(|e| e.to_string())?;
    let out = Command::new(ptxas).arg("-arch=sm_90").arg("-v").arg(&ptx).arg("-o").arg(dir.join("out.cubin")).output().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(format!("ptxas rejected the module:\n{text}").into());
    }
    Ok(text)
}

fn main() {
    let mut trials = vec![
        Trial::test("ptx_defines_every_kernel", || {
            let missing: Vec<_> = KERNELS.iter().filter(|k| !PTX.contains(&format!(".visible .entry {k}("))).collect();
            if missing.is_empty() { Ok(()) } else { Err(format!("PTX lacks entries {missing:?}").into()) }
        }),
        Trial::test("ptx_targets_sm_90", || {
            // A leaked CARGO_ENCODED_RUSTFLAGS once silently turned this into sm_70 (see host/build.rs).
            if PTX.lines().any(|l| l.trim() == ".target sm_90") { Ok(()) } else { Err("PTX is not `.target sm_90`".into()) }
        }),
        Trial::test("ptx_has_no_unresolved_externs", || {
            // Only the dynamic shared-memory symbol may be extern; an `.extern .func` means a missing link.
            match PTX.lines().find(|l| l.contains(".extern .func")) {
                None => Ok(()),
                Some(l) => Err(format!("unresolved function in PTX: {l}").into()),
            }
        }),
    ];
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        println!("skipped: ptxas not found (set TESSERA_PTXAS or `pip install nvidia-cuda-nvcc==13.0.88`)");
    }
    trials.push(
        Trial::test("ptxas_accepts_module_without_spills", move || {
            let report = ptxas_report(ptxas.as_ref().ok_or("no ptxas")?)?;
            for k in KERNELS {
                if !report.contains(&format!("Compiling entry function '{k}'")) {
                    return Err(format!("ptxas did not compile `{k}`:\n{report}").into());
                }
            }
            let spills: Vec<_> = report.lines().filter(|l| l.contains("spill") && !l.contains(" 0 bytes spill stores, 0 bytes spill loads")).collect();
            if spills.is_empty() { Ok(()) } else { Err(format!("register spills:\n{}", spills.join("\n")).into()) }
        })
        .with_ignored_flag(find_ptxas().is_none()),
    );
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}
