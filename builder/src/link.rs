//! The PTX link step: what rustc calls as the linker of an nvptx64-nvidia-cuda `cdylib`, with
//! arguments in the `llvm-bitcode-linker`'s form (that component is not distributed for every
//! nightly):
//!
//! ```text
//! --export-symbol <kernel>… <crate objects (.o)> <rlibs> -o <out>.ptx -O<level> --target-cpu <sm_XX>
//! ```
//!
//! Every object is LLVM bitcode. The steps, each one LLVM tool of the toolchain's `llvm-tools`
//! component (`TESSERA_LLVM_BIN` names their folder):
//! 1. `llvm-ar x` every rlib (core, compiler_builtins, the crate's dependencies);
//! 2. `llvm-link` the crate's objects, pulling in only what they use from the rlibs' members;
//! 3. `opt`: internalise everything but the kept entries, drop dead code, optimise;
//! 4. `llc`: lower to PTX for the target GPU;
//! 5. write launch bounds into the entries that have one (`.maxntid`, `.minnctapersm`,
//!    `.reqnctapercluster`), which Rust cannot express.
//!
//! `TESSERA_ENTRIES` (optional) names a file of entry names, one a line: only those are kept.
//! `TESSERA_LAUNCH_BOUNDS` (optional) names a file of `entry threads min_blocks [cluster]` lines.
//! Compiled on its own into a small program by the builder's build script (`src/linker_main.rs`).
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The linker's command line, as rustc passes it.
#[derive(Debug, Default, PartialEq)]
pub struct LinkArgs {
    pub exports: Vec<String>,
    pub objects: Vec<PathBuf>,
    pub rlibs: Vec<PathBuf>,
    pub out: PathBuf,
    pub cpu: String,
    pub opt_level: String,
    pub features: String,
}

/// Reads rustc's linker arguments; an argument this step does not know is an error (rustc's
/// linker interface changed).
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<LinkArgs, String> {
    let mut a = LinkArgs { cpu: "sm_90".into(), opt_level: "3".into(), ..Default::default() };
    let mut it = args.into_iter();
    fn value(it: &mut impl Iterator<Item = String>, flag: &str) -> Result<String, String> {
        it.next().ok_or(format!("{flag} needs a value"))
    }
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--export-symbol" => a.exports.push(value(&mut it, &arg)?),
            "-o" => a.out = value(&mut it, &arg)?.into(),
            "--target-cpu" => a.cpu = value(&mut it, &arg)?,
            "--target-feature" => a.features = value(&mut it, &arg)?,
            "--target" | "-L" => drop(value(&mut it, &arg)?),
            "--fallback-arch" | "--debug" => {}
            _ if arg.starts_with("--target-feature=") => a.features = arg["--target-feature=".len()..].into(),
            // The builder's fingerprint of this step's inputs (entries, bounds): only cargo reads it.
            _ if arg.starts_with("--link-inputs=") => {}
            _ if arg.starts_with("-O") => a.opt_level = arg[2..].into(),
            _ if arg.ends_with(".rlib") => a.rlibs.push(arg.into()),
            _ if arg.ends_with(".o") || arg.ends_with(".bc") => a.objects.push(arg.into()),
            _ => return Err(format!("unexpected argument '{arg}' (rustc's linker interface changed?)")),
        }
    }
    if a.out.as_os_str().is_empty() {
        return Err("no -o <output> given".into());
    }
    if a.objects.is_empty() {
        return Err("no input objects given".into());
    }
    if a.exports.is_empty() {
        return Err("no --export-symbol given: the crate defines no kernels".into());
    }
    if !matches!(a.opt_level.as_str(), "0" | "1" | "2" | "3") {
        a.opt_level = "3".into();
    }
    Ok(a)
}

/// Runs the five steps; `llvm_bin` holds the LLVM tools, `entries` (if any) the entries to keep,
/// `bounds` (if any) the launch bounds file's text.
pub fn link(a: &LinkArgs, llvm_bin: &Path, entries: Option<&str>, bounds: Option<&str>) -> Result<(), String> {
    for tool in ["llvm-ar", "llvm-link", "opt", "llc"] {
        if !llvm_bin.join(tool).exists() {
            return Err(format!("{} not found: the toolchain's llvm-tools component is missing", llvm_bin.join(tool).display()));
        }
    }
    let work = PathBuf::from(format!("{}.link", a.out.display()));
    let _ = fs::remove_dir_all(&work);
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {} ({e})", work.display()))?;
    let result = link_in(a, llvm_bin, entries, bounds, &work);
    let _ = fs::remove_dir_all(&work);
    result
}

fn link_in(a: &LinkArgs, bin: &Path, entries: Option<&str>, bounds: Option<&str>, work: &Path) -> Result<(), String> {
    // 1. Every rlib's members, in name order (deterministic input order, deterministic PTX).
    let mut members = Vec::new();
    for (i, rlib) in a.rlibs.iter().enumerate() {
        let dir = work.join(format!("rlib{i}"));
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {} ({e})", dir.display()))?;
        run(Command::new(bin.join("llvm-ar")).arg("x").arg(rlib).current_dir(&dir))?;
        let mut objs: Vec<PathBuf> = fs::read_dir(&dir)
            .map_err(|e| format!("cannot list {} ({e})", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "o"))
            .collect();
        objs.sort();
        members.extend(objs);
    }
    // 2. One module: the crate's objects and what they use of the rlibs.
    let linked = work.join("linked.bc");
    let mut cmd = Command::new(bin.join("llvm-link"));
    cmd.args(&a.objects);
    if !members.is_empty() {
        cmd.arg("--only-needed").args(&members);
    }
    run(cmd.arg("-o").arg(&linked))?;
    // 3. Keep the module's entries, drop the rest, optimise.
    let kept: Vec<&str> = match entries {
        Some(list) => {
            let wanted: Vec<&str> = list.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            a.exports.iter().map(String::as_str).filter(|e| wanted.contains(e)).collect()
        }
        None => a.exports.iter().map(String::as_str).collect(),
    };
    if kept.is_empty() {
        return Err("none of the crate's kernels is in the module's entry list".into());
    }
    let optimised = work.join("opt.bc");
    run(Command::new(bin.join("opt"))
        .arg(&linked)
        .arg("-o")
        .arg(&optimised)
        .arg(format!("--internalize-public-api-list={}", kept.join(",")))
        .arg(format!("-passes=internalize,globaldce,default<O{}>,globaldce", a.opt_level))
        .args(["-unroll-threshold=4000", "-unroll-max-count=1024"]))?;
    // 4. PTX.
    let mut llc = Command::new(bin.join("llc"));
    llc.arg(&optimised)
        .arg("-o")
        .arg(&a.out)
        .arg(format!("-O{}", a.opt_level))
        .arg("-mtriple=nvptx64-nvidia-cuda")
        .arg(format!("-mcpu={}", a.cpu));
    if !a.features.is_empty() {
        llc.arg(format!("-mattr={}", a.features));
    }
    run(&mut llc)?;
    // 5. Launch bounds.
    if let Some(bounds) = bounds {
        let ptx = fs::read_to_string(&a.out).map_err(|e| format!("cannot read {} ({e})", a.out.display()))?;
        let bounded = apply_launch_bounds(&ptx, &parse_bounds(bounds)?);
        fs::write(&a.out, bounded).map_err(|e| format!("cannot write {} ({e})", a.out.display()))?;
    }
    Ok(())
}

/// Runs one LLVM tool; its failure is the link's.
fn run(cmd: &mut Command) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("cannot run {:?} ({e})", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{:?} failed ({status})", cmd.get_program()))
    }
}

/// One entry's launch bounds: CUDA C's `__launch_bounds__(threads, min_blocks)` and `__cluster_dims__(cluster)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    pub entry: String,
    pub threads: u32,
    pub min_blocks: u32,
    pub cluster: Option<u32>,
}

/// Reads `entry threads min_blocks [cluster]` lines (blank lines skipped).
pub fn parse_bounds(text: &str) -> Result<Vec<Bound>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| s.parse::<u32>().map_err(|_| format!("launch bound '{line}': '{s}' is not a number"));
            match f.as_slice() {
                [entry, t, b] => Ok(Bound { entry: entry.to_string(), threads: num(t)?, min_blocks: num(b)?, cluster: None }),
                [entry, t, b, c] => Ok(Bound { entry: entry.to_string(), threads: num(t)?, min_blocks: num(b)?, cluster: Some(num(c)?) }),
                _ => Err(format!("launch bound '{line}': expected `entry threads min_blocks [cluster]`")),
            }
        })
        .collect()
}

/// Adds each bounded entry's directives after the line that closes its parameter list:
/// `.maxntid threads, 1, 1` and `.minnctapersm min_blocks` (ptxas caps the registers at
/// 65536 / (threads · min_blocks)), `.reqnctapercluster cluster, 1, 1` when it runs in clusters.
pub fn apply_launch_bounds(ptx: &str, bounds: &[Bound]) -> String {
    let mut out = String::with_capacity(ptx.len() + 64 * bounds.len());
    let mut pending: Option<&Bound> = None;
    for line in ptx.lines() {
        let opens = line.strip_prefix(".visible .entry ").map(|rest| rest.split('(').next().unwrap_or("").trim());
        if let Some(name) = opens {
            pending = bounds.iter().find(|b| b.entry == name);
        }
        out.push_str(line);
        out.push('\n');
        let closes = if opens.is_some() { line.contains(')') } else { line.starts_with(')') };
        if let (Some(b), true) = (pending, closes) {
            out.push_str(&format!(".maxntid {}, 1, 1\n.minnctapersm {}\n", b.threads, b.min_blocks));
            if let Some(c) = b.cluster {
                out.push_str(&format!(".reqnctapercluster {c}, 1, 1\n"));
            }
            pending = None;
        }
    }
    out
}

/// The linker program's body: arguments from rustc, configuration from the environment.
pub fn main_with(args: impl IntoIterator<Item = String>) -> Result<(), String> {
    let args = parse_args(args)?;
    let bin = std::env::var_os("TESSERA_LLVM_BIN").ok_or("TESSERA_LLVM_BIN is not set (tessera-builder sets it)")?;
    let read = |var: &str| -> Result<Option<String>, String> {
        match std::env::var_os(var) {
            None => Ok(None),
            Some(path) => fs::read_to_string(&path).map(Some).map_err(|e| format!("cannot read {var} = {path:?} ({e})")),
        }
    };
    link(&args, Path::new(&bin), read("TESSERA_ENTRIES")?.as_deref(), read("TESSERA_LAUNCH_BOUNDS")?.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn reads_rustcs_linker_arguments() {
        let a = parse_args(args(
            "--export-symbol k1 --export-symbol k2 a.o lib/libcore-1.rlib -o out.ptx -O3 --target-cpu sm_90a --target-feature=+ptx81 --link-inputs=42",
        ))
        .unwrap();
        assert_eq!(a.exports, ["k1", "k2"]);
        assert_eq!(a.objects, [PathBuf::from("a.o")]);
        assert_eq!(a.rlibs, [PathBuf::from("lib/libcore-1.rlib")]);
        assert_eq!((a.cpu.as_str(), a.features.as_str(), a.opt_level.as_str()), ("sm_90a", "+ptx81", "3"));
        assert!(parse_args(args("a.o -o x.ptx --surprise")).unwrap_err().contains("--surprise"));
        assert!(parse_args(args("a.o -o x.ptx")).unwrap_err().contains("no kernels"));
        assert!(parse_args(args("--export-symbol k -o x.ptx")).unwrap_err().contains("objects"));
    }

    #[test]
    fn bounds_follow_the_parameter_list() {
        let ptx = ".visible .entry a(\n\t.param .u32 a_param_0\n)\n{\n}\n.visible .entry b()\n{\n}\n.visible .entry c(\n)\n{\n}\n";
        let bounds = parse_bounds("a 256 2\nb 128 1 2\n").unwrap();
        let out = apply_launch_bounds(ptx, &bounds);
        assert_eq!(
            out,
            ".visible .entry a(\n\t.param .u32 a_param_0\n)\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\n}\n\
             .visible .entry b()\n.maxntid 128, 1, 1\n.minnctapersm 1\n.reqnctapercluster 2, 1, 1\n{\n}\n\
             .visible .entry c(\n)\n{\n}\n"
        );
        assert!(parse_bounds("a 256").is_err());
        assert!(parse_bounds("a x 1").is_err());
    }
}
