//! The embedded PTX modules against the kernel catalogue: each module's `.entry` list is exactly the
//! catalogue's for that module (`sm_90`, or `sm_90a` for the Hopper-only kernels), each launch bound
//! is the kernel's own, every list derived from the catalogue agrees with it; the modules target
//! sm_90 / sm_90a and ptxas accepts them with no register spills (none in a K loop for the entries
//! of `SPILLS_OUTSIDE_K_LOOPS`, by their SASS) and no serialized `wgmma`s, and no
//! register-fed `wgmma` has its A registers overwritten in flight (SASS, `nvdisasm`). Runs without a
//! GPU; the ptxas and SASS checks are ignored (with a message) when no ptxas / nvdisasm is found.
//!
//! The modules checked are the ones tessera embeds: the shipped `host/ptx/` files by default, a fresh
//! build of `kernels/` with `--features tessera/build-kernels`. That the shipped files *are* a fresh
//! build is `scripts/ptx.sh --check`'s job (CI); a catalogue line added without refreshing them fails here.
use std::path::PathBuf;
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};
use tessera::catalogue::registry::entries::entries;
use tessera::catalogue::{Algo, MATMUL_KERNELS};
use tessera::module::{kernel_names, PTX, PTX_SM90A};
use tessera::ptx_pieces::PtxPieces;

/// Entries whose spills ptxas may report: measured faster with them, and only where no loop of FMAs
/// (a K loop) touches local memory, which `local_memory_in_fma_loops` checks in their SASS. Kernel
/// 17's 128×256 entry holds `accumulate` and `accumulate_interior` in one loop over pieces; ptxas
/// spills some of that loop's state (64 bytes) outside both K loops (`docs/ladder/k17-stream-k.md`,
/// "The interior path": 4096³ 2970 → 2775 µs).
const SPILLS_OUTSIDE_K_LOOPS: [&str; 1] = ["matmul_streamk_128x256x16"];

/// The two modules: their PTX text, whether it is the sm_90a one, its ptxas architecture.
const MODULES: [(&str, bool, &str); 2] = [(PTX, false, "sm_90"), (PTX_SM90A, true, "sm_90a")];

/// The module's entries, each with its `.maxntid` x and `.minnctapersm` directives if present.
fn ptx_entries(ptx: &str) -> Vec<(String, Option<u32>, Option<u32>)> {
    let mut found = Vec::new();
    let mut lines = ptx.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix(".visible .entry ") else { continue };
        let name = rest.split('(').next().unwrap_or_default().to_string();
        let (mut maxntid, mut minnctapersm) = (None, None);
        // Directives sit between the parameter list and the body's opening brace.
        for l in lines.by_ref() {
            let l = l.trim();
            if l.starts_with('{') {
                break;
            }
            if let Some(v) = l.strip_prefix(".maxntid ") {
                maxntid = v.split(',').next().and_then(|x| x.trim().parse().ok());
            }
            if let Some(v) = l.strip_prefix(".minnctapersm ") {
                minnctapersm = v.trim().parse().ok();
            }
        }
        found.push((name, maxntid, minnctapersm));
    }
    found
}

/// The catalogue and the modules agree both ways: every catalogue entry is an entry of its module
/// with the kernel's launch bound, and every entry of a module is in the catalogue for that module.
fn modules_match_catalogue() -> Result<(), Failed> {
    let mut problems = Vec::new();
    for (text, sm90a, arch) in MODULES {
        module_matches_catalogue(text, sm90a, arch, &mut problems);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// [`modules_match_catalogue`] for one module, its problems appended to `problems`.
fn module_matches_catalogue(text: &str, sm90a: bool, arch: &str, problems: &mut Vec<String>) {
    let ptx = ptx_entries(text);
    let catalogue: Vec<_> = entries().into_iter().filter(|e| e.sm90a == sm90a).collect();
    for e in &catalogue {
        match ptx.iter().find(|(name, ..)| name == e.name) {
            None => problems.push(format!("`{}` is in the catalogue but not in the {arch} PTX", e.name)),
            Some((_, maxntid, minnctapersm)) => {
                let want = if e.min_blocks_per_sm > 0 { (Some(e.threads), Some(e.min_blocks_per_sm)) } else { (None, None) };
                if (*maxntid, *minnctapersm) != want {
                    problems.push(format!(
                        "`{}`: launch bound {:?} in the PTX, {want:?} in the catalogue",
                        e.name,
                        (maxntid, minnctapersm)
                    ));
                }
            }
        }
    }
    for (name, ..) in &ptx {
        if !catalogue.iter().any(|e| e.name == name) {
            problems.push(format!("`{name}` is in the {arch} PTX but not in the catalogue's {arch} list"));
        }
    }
}

/// Every list derived from the catalogue agrees with it: `Algo::ALL`, labels, entry names, the host's
/// module list, launch geometry.
fn derived_lists_match_catalogue() -> Result<(), Failed> {
    let algos: Vec<Algo> = MATMUL_KERNELS.iter().map(|k| k.algo).chain([Algo::Auto]).collect();
    if algos != Algo::ALL {
        return Err(format!("Algo::ALL {:?} differs from the catalogue {algos:?}", Algo::ALL).into());
    }
    for (i, k) in MATMUL_KERNELS.iter().enumerate() {
        if k.algo as usize != i || k.algo.kernel_name() != k.entry || k.algo.label() != k.label || k.algo.config() != Some(k.config) {
            return Err(format!("catalogue line {i} ({}) disagrees with Algo's accessors", k.entry).into());
        }
        if Algo::from_label(k.label) != Some(k.algo) {
            return Err(format!("label `{}` is not unique", k.label).into());
        }
        let c = k.config;
        if c.threads() == 0 || c.threads() > 1024 || c.shared_bytes > 227 * 1024 || c.bm == 0 || c.bn == 0 || c.bk == 0 {
            return Err(format!("{}: impossible launch {c:?}", k.entry).into());
        }
    }
    for sm90a in [false, true] {
        let names: Vec<_> = entries().iter().filter(|e| e.sm90a == sm90a).map(|e| e.name).collect();
        if kernel_names(sm90a) != names {
            return Err(format!("the host loads {:?}, the catalogue lists {names:?}", kernel_names(sm90a)).into());
        }
    }
    Ok(())
}

/// Each module cut into one module per entry (what `Gpu` loads, `tessera::ptx_pieces`): one piece
/// per catalogue entry of the module, no entry in the text every piece shares, and that text with
/// the entries' own is the whole module, byte for byte.
fn pieces_are_the_module() -> Result<(), Failed> {
    for (text, sm90a, arch) in MODULES {
        let pieces = PtxPieces::parse(text)?;
        let mut names: Vec<&str> = pieces.entry_names().collect();
        names.sort_unstable();
        let mut want = kernel_names(sm90a);
        want.sort_unstable();
        if names != want {
            return Err(format!("the {arch} module's pieces are {} entries, the catalogue's {}", names.len(), want.len()).into());
        }
        let shared = pieces.shared_text();
        if let Some(l) = shared.lines().find(|l| l.contains(".entry")) {
            return Err(format!("the {arch} module's shared text keeps an entry: {l}").into());
        }
        let own: usize = names.iter().map(|n| pieces.entry_text(n).map_or(0, str::len)).sum();
        if shared.len() + own != text.len() {
            return Err(format!("the {arch} pieces hold {} bytes of the module's {}", shared.len() + own, text.len()).into());
        }
        // The text every first launch compiles besides its entry: declarations and a few functions.
        if shared.len() * 50 > text.len() {
            return Err(format!("the {arch} module's shared text is {} of its {} bytes", shared.len(), text.len()).into());
        }
    }
    Ok(())
}

/// Pieces compile alone (ptxas): in each module, the entries that call one of its functions, and
/// the first and last entry — each piece's report names its entry and no other.
fn pieces_compile_alone(ptxas: &std::path::Path) -> Result<(), Failed> {
    for (text, _, arch) in MODULES {
        let pieces = PtxPieces::parse(text)?;
        let mut names: Vec<&str> = pieces.entry_names().collect();
        names.sort_unstable();
        let mut sample: Vec<&str> =
            names.iter().copied().filter(|n| pieces.entry_text(n).is_some_and(|t| t.contains("call.uni"))).take(3).collect();
        sample.extend(names.first().into_iter().chain(names.last()));
        for name in sample {
            let module = pieces.module(name).ok_or("a listed entry has no piece")?;
            let compiled = compile(ptxas, &module, arch)?;
            let entries: Vec<&str> = compiled
                .report
                .lines()
                .filter_map(|l| l.split("Compiling entry function '").nth(1))
                .map(|r| r.split('\'').next().unwrap_or_default())
                .collect();
            if entries != [name] {
                return Err(format!("{arch} piece `{name}` compiled {entries:?}").into());
            }
        }
    }
    Ok(())
}

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

/// One module as ptxas compiled it (`-v`): its report and its cubin.
struct Compiled {
    report: String,
    cubin: Vec<u8>,
}

/// Module `sm90a` (an index of [`MODULES`]) compiled by `ptxas`, once per run: the trials that read
/// its report or its SASS share the compile (tens of seconds for the sm_90 module).
fn compiled(ptxas: &std::path::Path, sm90a: bool) -> Result<&'static Compiled, Failed> {
    static MODULE: [std::sync::OnceLock<Result<Compiled, String>>; 2] = [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let (text, _, arch) = MODULES[usize::from(sm90a)];
    MODULE[usize::from(sm90a)].get_or_init(|| compile(ptxas, text, arch)).as_ref().map_err(|e| Failed::from(e.as_str()))
}

fn compile(ptxas: &std::path::Path, text: &str, arch: &str) -> Result<Compiled, String> {
    // A directory per call: trials compile the whole module and its pieces at the same time, and a
    // shared one let one trial's module overwrite or remove another's under ptxas.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tessera-ptx-{}-{arch}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (ptx, cubin) = (dir.join("module.ptx"), dir.join("module.cubin"));
    std::fs::write(&ptx, text).map_err(|e| e.to_string())?;
    let out =
        Command::new(ptxas).arg(format!("-arch={arch}")).arg("-v").arg(&ptx).arg("-o").arg(&cubin).output().map_err(|e| e.to_string());
    let cubin = std::fs::read(&cubin);
    let _ = std::fs::remove_dir_all(&dir);
    let out = out?;
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(format!("ptxas rejected the {arch} module:\n{report}"));
    }
    Ok(Compiled { report, cubin: cubin.map_err(|e| e.to_string())? })
}

/// ptxas's `-v` report of module `sm90a`.
fn ptxas_report(ptxas: &std::path::Path, sm90a: bool) -> Result<&'static str, Failed> {
    Ok(&compiled(ptxas, sm90a)?.report)
}

/// Auto's model sizes occupancy from each kernel's registers (`tuning::cost(..).registers`: the FP32
/// kernels', printed by `scripts/fit-auto-model.py --print-rust`, and the in-place tensor-core
/// kernels', by `scripts/fit-tc-small.py`): they must be what ptxas gives the shipped PTX today, or the
/// model prices a kernel that no longer exists (a kernel edit moves them by tens).
fn model_registers_match(ptxas: &std::path::Path) -> Result<(), Failed> {
    // Both modules: the model prices kernel 14's sm_90a entries too.
    let report = format!("{}\n{}", ptxas_report(ptxas, false)?, ptxas_report(ptxas, true)?);
    let mut used = std::collections::HashMap::new();
    let mut entry = None;
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            entry = rest.split('\'').next().map(str::to_owned);
        } else if let (Some(e), Some(rest)) = (&entry, line.split("Used ").nth(1)) {
            // "Used 255 registers, used 1 barriers, …"
            let mut words = rest.split_whitespace();
            if let (Some(Ok(r)), Some(unit)) = (words.next().map(str::parse::<u32>), words.next()) {
                if unit.starts_with("registers") {
                    used.insert(e.clone(), r);
                }
            }
        }
    }
    let mut wrong = Vec::new();
    for algo in Algo::ALL {
        let Some(cost) = tessera::catalogue::select::tuning::cost(algo) else { continue };
        match used.get(algo.kernel_name()) {
            Some(&r) if r == cost.registers => {}
            got => wrong.push(format!("{}: model {}, ptxas {got:?}", algo.label(), cost.registers)),
        }
        // The by-rows twin (launched where N % 4 != 0) shares the model's constants: its registers may
        // differ, the blocks per SM they allow may not.
        let (Some(kernel), Some(config)) = (algo.kernel(), algo.config()) else { continue };
        if let Some(twin) = kernel.by_rows {
            let blocks = |r: u32| tessera::catalogue::select::tuning::blocks_per_sm(config, r);
            match used.get(twin.entry) {
                Some(&r) if blocks(r) == blocks(cost.registers) => {}
                got => wrong.push(format!(
                    "{}: model {} registers, {} blocks per SM; ptxas {got:?}",
                    twin.entry,
                    cost.registers,
                    blocks(cost.registers)
                )),
            }
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("update tuning::cost's registers and refit (the fit script reads them there):\n{}", wrong.join("\n")).into())
    }
}

/// `nvdisasm` beside `ptxas` (PyPI's nvidia-cuda-nvcc ships both), else on PATH.
fn find_nvdisasm(ptxas: &std::path::Path) -> Option<PathBuf> {
    let sibling = ptxas.with_file_name("nvdisasm");
    if sibling.is_file() {
        return Some(sibling);
    }
    Command::new("nvdisasm").arg("--version").output().is_ok_and(|o| o.status.success()).then(|| PathBuf::from("nvdisasm"))
}

/// Module `sm90a`'s SASS (its cubin through `nvdisasm -c`), one `(entry, text)` per function.
fn module_sass(ptxas: &std::path::Path, nvdisasm: &std::path::Path, sm90a: bool) -> Result<Vec<(String, String)>, Failed> {
    let arch = MODULES[usize::from(sm90a)].2;
    let dir = std::env::temp_dir().join(format!("tessera-sass-{}-{arch}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let cubin = dir.join("module.cubin");
    std::fs::write(&cubin, &compiled(ptxas, sm90a)?.cubin).map_err(|e| e.to_string())?;
    let listing = Command::new(nvdisasm).arg("-c").arg(&cubin).output().map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    let listing = listing?;
    if !listing.status.success() {
        return Err(format!("nvdisasm failed: {}", String::from_utf8_lossy(&listing.stderr)).into());
    }
    let text = String::from_utf8_lossy(&listing.stdout).into_owned();
    let mut functions = Vec::new();
    for part in text.split("\n.text.").skip(1) {
        let (name, body) = part.split_once(':').unwrap_or((part, ""));
        let body = body.split("//----").next().unwrap_or_default();
        functions.push((name.trim().to_string(), body.to_string()));
    }
    Ok(functions)
}

/// In one function's SASS, the instructions that write a register an `HGMMA` reads as its A operand
/// (A from registers: `HGMMA… Rd, Ra, gdesc[…]`, four registers from `Ra`) before a
/// `WARPGROUP.DEPBAR.LE gsb0, 0x0` has completed it. ptxas does not keep those registers for the
/// tensor core's asynchronous read (measured: with one group in flight it gave them to the next
/// step's `ldmatrix`, and every multi-step TF32 product was wrong), so the kernels must not let it.
/// The scan runs in address order and, at a backward branch with groups in flight, once more over
/// the loop body (where that hazard was: the next iteration's loads).
fn a_register_hazards(sass: &str) -> Vec<String> {
    let code = sass_code(sass);
    let at = |name: &str| code.iter().position(|(l, _)| l.as_deref() == Some(name));
    let reg = |s: &str| s.strip_prefix('R').and_then(|r| r.parse::<u32>().ok());
    let mut hazards = Vec::new();
    // One instruction's effect on the registers in flight (first registers of A fragments).
    let mut step = |ins: &str, in_flight: &mut Vec<u32>| {
        let ins = if ins.starts_with('@') { ins.split_once(' ').map_or("", |x| x.1.trim()) } else { ins };
        let (op, args) = ins.split_once(' ').unwrap_or((ins, ""));
        let operands: Vec<&str> = args.split(',').map(str::trim).collect();
        if op.starts_with("HGMMA") {
            in_flight.extend(operands.get(1).and_then(|a| reg(a)));
        } else if op.starts_with("WARPGROUP.DEPBAR") && args.contains("0x0") {
            in_flight.clear();
        } else if let Some(d) = operands.first().and_then(|a| reg(a)) {
            let width = if op.ends_with(".4") || op.contains(".128") {
                4
            } else if op.contains(".64") || op.contains(".WIDE") {
                2
            } else {
                1
            };
            for &a in in_flight.iter().filter(|&&a| d < a + 4 && a < d + width) {
                let h = format!("`{ins}` writes R{d} while an HGMMA still reads R{a}..R{}", a + 3);
                if !hazards.contains(&h) {
                    hazards.push(h);
                }
            }
        }
    };
    let mut in_flight = Vec::new();
    for (i, (_, ins)) in code.iter().enumerate() {
        step(ins, &mut in_flight);
        let target = ins.contains("BRA").then(|| ins.split_once('(').and_then(|(_, t)| t.split(')').next())).flatten();
        if let Some(back) = target.and_then(at).filter(|&b| b <= i && !in_flight.is_empty()) {
            let mut again = in_flight.clone();
            for (_, body) in &code[back..=i] {
                step(body, &mut again);
            }
        }
    }
    hazards
}

/// The SASS scan itself, on hand-written loops (so it is tested where nvdisasm is missing too): one
/// group in flight across the back edge (the broken form) is a hazard, found through the back edge;
/// the full wait before it, or A from descriptors, is none.
fn a_register_scan_finds_writes_in_flight() -> Result<(), Failed> {
    let sass = |wait: &str, a: &str| {
        format!(
            ".L_x_1:\n/*0100*/ LDSM.16.M88.4 R152, [R8] ;\n/*0110*/ WARPGROUP.ARRIVE ;\n\
             /*0120*/ HGMMA.64x256x8.F32.TF32 R24, {a}, gdesc[UR12], R24, gsb0 ;\n\
             /*0130*/ WARPGROUP.DEPBAR.LE gsb0, {wait} ;\n/*0140*/ @P0 BRA `(.L_x_1) ;\n\
             /*0150*/ WARPGROUP.DEPBAR.LE gsb0, 0x0 ;\n"
        )
    };
    let broken = a_register_hazards(&sass("0x1", "R152"));
    if broken.len() != 1 || !broken[0].contains("LDSM.16.M88.4 R152") {
        return Err(format!("one group in flight across the back edge: expected the LDSM hazard, got {broken:?}").into());
    }
    for (wait, a) in [("0x0", "R152"), ("0x1", "gdesc[UR4]")] {
        let found = a_register_hazards(&sass(wait, a));
        if !found.is_empty() {
            return Err(format!("wait {wait}, A {a}: no hazard expected, got {found:?}").into());
        }
    }
    Ok(())
}

/// One function's SASS as (label, instruction) pairs in address order, the label on the first
/// instruction after it (`/*1720*/   LDSM.16.M88.4 R164, [R164] ;   /* 0x… */`).
fn sass_code(sass: &str) -> Vec<(Option<String>, String)> {
    let mut code: Vec<(Option<String>, String)> = Vec::new();
    let mut label = None;
    for line in sass.lines() {
        let t = line.trim();
        if t.starts_with(".L_") && t.ends_with(':') {
            label = Some(t.trim_end_matches(':').to_string());
        } else if let Some((_, rest)) = t.split_once("*/") {
            let ins = rest.split(';').next().unwrap_or_default().trim();
            if !ins.is_empty() {
                code.push((label.take(), ins.to_string()));
            }
        }
    }
    code
}

/// In one function's SASS, the local-memory accesses (`LDL`, `STL`) inside an innermost loop (a
/// backward branch and the code from its target, holding no other loop) that holds FMAs (`FFMA`,
/// `HMMA`, `HGMMA`): a spill in a K loop. (A loop around K loops — kernel 17's over pieces — runs a
/// few times per block; its spills cost what a few loads do.)
fn local_memory_in_fma_loops(sass: &str) -> Vec<String> {
    let code = sass_code(sass);
    let opcode = |ins: &str| {
        ins.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or_default().split('.').next().unwrap_or_default().to_string()
    };
    // (first, last) instruction of every loop: a branch back to a label at or before it.
    let target = |ins: &str| ins.split("BRA `(").nth(1).map(|t| t.trim_end_matches(")`").trim_end_matches(')').to_string());
    let loops: Vec<(usize, usize, String)> = code
        .iter()
        .enumerate()
        .filter_map(|(end, (_, ins))| {
            let to = target(ins)?;
            let start = code.iter().position(|(l, _)| l.as_deref() == Some(to.as_str()))?;
            (start <= end).then_some((start, end, to))
        })
        .collect();
    let mut found = Vec::new();
    for &(start, end, ref to) in &loops {
        if loops.iter().any(|&(s, e, _)| (s, e) != (start, end) && start <= s && e <= end) {
            continue; // holds another loop: not innermost
        }
        let body = &code[start..=end];
        let target = to;
        if body.iter().any(|(_, i)| matches!(opcode(i).as_str(), "FFMA" | "HMMA" | "HGMMA")) {
            found.extend(
                body.iter().filter(|(_, i)| matches!(opcode(i).as_str(), "LDL" | "STL")).map(|(_, i)| format!("loop to {target}: {i}")),
            );
        }
    }
    found
}

/// `local_memory_in_fma_loops` on made-up SASS: a spill in an innermost loop of FMAs is found, one in
/// a loop around it or in a loop without FMAs is not.
fn local_memory_scan_finds_k_loop_spills() -> Result<(), Failed> {
    let sass = |inner: &str, outer: &str| {
        format!(
            ".L_x_1:\n /*0010*/ {outer} ;\n.L_x_2:\n /*0020*/ FFMA R4, R5, R6, R4 ;\n /*0030*/ {inner} ;\n              /*0040*/ @P0 BRA `(.L_x_2) ;\n /*0050*/ @P1 BRA `(.L_x_1) ;\n.L_x_3:\n /*0060*/ LDL R7, [R1] ;\n              /*0070*/ @P2 BRA `(.L_x_3) ;\n"
        )
    };
    let cases =
        [("LDL R8, [R1+0x4]", "IADD3 R2, R2, 0x1, RZ", 1), ("STL [R1], R8", "MOV R2, R3", 1), ("LDS.128 R8, [R2]", "LDL R2, [R1]", 0)];
    for (inner, outer, expected) in cases {
        let found = local_memory_in_fma_loops(&sass(inner, outer));
        if found.len() != expected {
            return Err(format!("inner `{inner}`, outer `{outer}`: expected {expected} finding(s), got {found:?}").into());
        }
    }
    Ok(())
}

/// No function of the sm_90a module overwrites a register-fed `wgmma`'s A registers in flight.
fn register_fed_wgmma_keeps_its_a_registers(ptxas: &std::path::Path, nvdisasm: &std::path::Path) -> Result<(), Failed> {
    let functions = module_sass(ptxas, nvdisasm, true)?;
    // HGMMA with A from registers: its second operand is a register, not `gdesc[…]`.
    let register_fed = |l: &str| l.contains("HGMMA") && l.split(',').nth(1).is_some_and(|a| a.trim().starts_with('R'));
    let fed = functions.iter().filter(|(_, sass)| sass.lines().any(register_fed)).count();
    if fed == 0 {
        return Err("no HGMMA with A from registers in the sm_90a module (the TF32 TMA kernels have them)".into());
    }
    let problems: Vec<String> =
        functions.iter().flat_map(|(name, sass)| a_register_hazards(sass).into_iter().map(move |h| format!("{name}: {h}"))).collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// The `mma_rate` ceiling kernels keep at least one `mma.sync` per chain in their loop.
fn mma_rate_entries_keep_their_mma_instructions() -> Result<(), Failed> {
    for (entry, instruction) in [
        ("mma_rate_tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"),
        ("mma_rate_bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"),
        ("mma_rate_f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
    ] {
        let start = PTX.find(&format!(".visible .entry {entry}(")).ok_or(format!("no entry {entry}"))?;
        let end = PTX[start..].find("\n}\n").ok_or("no end of the entry")?;
        let count = PTX[start..start + end].matches(instruction).count();
        if count < tessera_kernels::mma_rate::CHAINS {
            return Err(format!("{entry}: {count} `{instruction}` lines").into());
        }
    }
    Ok(())
}

/// The `wgmma_rate` ceiling kernels keep at least one group of `wgmma`s in their loop.
fn wgmma_rate_entries_keep_their_wgmma_instructions() -> Result<(), Failed> {
    for (entry, instruction) in [
        ("wgmma_rate_bf16", "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16"),
        ("wgmma_rate_f16", "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16"),
        ("wgmma_rate_tf32", "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32"),
        ("wgmma_rate_e4m3", "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3"),
        ("wgmma_rate_e5m2", "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2"),
    ] {
        let start = PTX_SM90A.find(&format!(".visible .entry {entry}(")).ok_or(format!("no entry {entry}"))?;
        let end = PTX_SM90A[start..].find("\n}\n").ok_or("no end of the entry")?;
        let count = PTX_SM90A[start..start + end].matches(instruction).count();
        if count < tessera_kernels::wgmma_rate::GROUP as usize {
            return Err(format!("{entry}: {count} `{instruction}` lines").into());
        }
    }
    Ok(())
}

fn main() {
    let mut trials = vec![
        Trial::test("wgmma_rate_entries_keep_their_wgmma_instructions", wgmma_rate_entries_keep_their_wgmma_instructions),
        Trial::test("ptx_entries_are_exactly_the_catalogue", modules_match_catalogue),
        Trial::test("pieces_of_a_module_are_the_module", pieces_are_the_module),
        Trial::test("lists_derived_from_the_catalogue_agree", derived_lists_match_catalogue),
        Trial::test("mma_rate_entries_keep_their_mma_instructions", mma_rate_entries_keep_their_mma_instructions),
        Trial::test("ptx_targets_sm_90_and_sm_90a", || {
            // A leaked CARGO_ENCODED_RUSTFLAGS once silently turned this into sm_70 (see host/build.rs).
            for (text, _, arch) in MODULES {
                if !text.lines().any(|l| l.trim() == format!(".target {arch}")) {
                    return Err(format!("a module is not `.target {arch}`").into());
                }
            }
            Ok(())
        }),
        Trial::test("a_register_scan_finds_writes_in_flight", a_register_scan_finds_writes_in_flight),
        Trial::test("local_memory_scan_finds_k_loop_spills", local_memory_scan_finds_k_loop_spills),
        Trial::test("ptx_has_no_unresolved_externs", || {
            // Only the dynamic shared-memory symbol may be extern; an `.extern .func` means a missing link.
            for (text, _, arch) in MODULES {
                if let Some(l) = text.lines().find(|l| l.contains(".extern .func")) {
                    return Err(format!("unresolved function in the {arch} PTX: {l}").into());
                }
            }
            Ok(())
        }),
    ];
    let ptxas = find_ptxas();
    if ptxas.is_none() {
        println!("skipped: ptxas not found (set TESSERA_PTXAS or `pip install nvidia-cuda-nvcc==13.0.88`)");
    }
    trials.push(
        Trial::test("ptxas_accepts_module_without_spills", move || {
            for (_, sm90a, arch) in MODULES {
                let report = ptxas_report(ptxas.as_ref().ok_or("no ptxas")?, sm90a)?;
                for k in kernel_names(sm90a) {
                    if !report.contains(&format!("Compiling entry function '{k}'")) {
                        return Err(format!("ptxas did not compile `{k}`:\n{report}").into());
                    }
                }
                // A stack frame is local memory: a spill, or an array LLVM could not keep in registers
                // (a by-value array iterator, `[T; N]::into_iter`, once put kernel 18's row loop there).
                // Entries of SPILLS_OUTSIDE_K_LOOPS may spill where their SASS shows no local memory
                // access inside a loop of FMAs.
                let mut spills: Vec<(String, &str)> = Vec::new();
                let mut entry = String::new();
                for l in report.lines() {
                    if let Some(rest) = l.split("Compiling entry function '").nth(1) {
                        entry = rest.split('\'').next().unwrap_or_default().to_string();
                    }
                    let spilled = (l.contains("spill") && !l.contains(" 0 bytes spill stores, 0 bytes spill loads"))
                        || (l.contains("bytes stack frame") && !l.contains(" 0 bytes stack frame"));
                    if spilled && !spills.iter().any(|(e, _)| *e == entry) {
                        spills.push((entry.clone(), l));
                    }
                }
                let (allowed, refused): (Vec<_>, Vec<_>) =
                    spills.into_iter().partition(|(e, _)| SPILLS_OUTSIDE_K_LOOPS.contains(&e.as_str()));
                if !refused.is_empty() {
                    let lines: Vec<String> = refused.iter().map(|(e, l)| format!("{e}: {}", l.trim())).collect();
                    return Err(format!("register spills ({arch}):\n{}", lines.join("\n")).into());
                }
                if !allowed.is_empty() {
                    let ptxas = ptxas.as_ref().ok_or("no ptxas")?;
                    let nvdisasm = find_nvdisasm(ptxas).ok_or("spills to check in the SASS, and no nvdisasm")?;
                    let functions = module_sass(ptxas, &nvdisasm, sm90a)?;
                    for (e, _) in &allowed {
                        let sass = &functions.iter().find(|(name, _)| name == e).ok_or(format!("no SASS for {e}"))?.1;
                        let found = local_memory_in_fma_loops(sass);
                        if !found.is_empty() {
                            return Err(format!("{e}: local memory inside a loop of FMAs:\n{}", found.join("\n")).into());
                        }
                    }
                }
                // C7510–C7516, "wgmma.mma_async instructions are serialized due to …": ptxas
                // serialized a function's `wgmma`s (e.g. C7514/C7515: a non-wgmma instruction touches
                // the accumulators while they are in flight): a silent loss of the tensor-core rate
                // (C7515 cost kernel 15 2–3 % once, unnoticed until a review).
                let serialized: Vec<_> = report.lines().filter(|l| l.contains("instructions are serialized")).collect();
                if !serialized.is_empty() {
                    return Err(format!("serialized wgmma ({arch}):\n{}", serialized.join("\n")).into());
                }
                // C7519, "warpgroup.arrive is injected … to allow use of registers in GMMA": ptxas
                // fenced `wgmma`s whose accumulators other code touches (kernel 25's unpromoted tile
                // with a BF16 store beside it, once).
                let fenced: Vec<_> = report.lines().filter(|l| l.contains("warpgroup.arrive is injected")).collect();
                if !fenced.is_empty() {
                    return Err(format!("wgmma fenced by ptxas ({arch}):\n{}", fenced.join("\n")).into());
                }
            }
            Ok(())
        })
        .with_ignored_flag(find_ptxas().is_none()),
    );
    let ptxas_for_model = find_ptxas();
    trials.push(
        Trial::test("auto_model_registers_are_ptxas_counts", move || model_registers_match(ptxas_for_model.as_ref().ok_or("no ptxas")?))
            .with_ignored_flag(find_ptxas().is_none()),
    );
    let ptxas_for_pieces = find_ptxas();
    trials.push(
        Trial::test("pieces_of_a_module_compile_alone", move || pieces_compile_alone(ptxas_for_pieces.as_ref().ok_or("no ptxas")?))
            .with_ignored_flag(find_ptxas().is_none()),
    );
    let tools = find_ptxas().and_then(|p| find_nvdisasm(&p).map(|d| (p, d)));
    if tools.is_none() {
        println!("skipped: nvdisasm not found beside ptxas (the register-fed wgmma check needs it)");
    }
    let missing = tools.is_none();
    trials.push(
        Trial::test("register_fed_wgmma_keeps_its_a_registers", move || {
            let (ptxas, nvdisasm) = tools.as_ref().ok_or("no ptxas / nvdisasm")?;
            register_fed_wgmma_keeps_its_a_registers(ptxas, nvdisasm)
        })
        .with_ignored_flag(missing),
    );
    libtest_mimic::run(&Arguments::from_args(), trials).exit()
}
