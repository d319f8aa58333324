//! Barriers that every thread of a cluster must reach together (`barrier.cluster.arrive/wait
//! .aligned`) go through LLVM's intrinsics, which are `convergent`: no pass may copy them into a path
//! that only some threads take. An `asm!` block carries no such mark. In session 58 LLVM's jump
//! threading copied `cluster::sync`'s inline assembly into both sides of an `if thread == 0` (a
//! thread-0 block on each side of the barrier), the divergent `.aligned` barrier hung kernel 25's
//! paired entries on the GPU, and the CPU executor, which has no such copies, passed
//! (`docs/results/2026-12-07-s58`). This test reads the device crate's source.
use std::path::Path;

/// The `asm!` blocks of `source` (from `asm!(` to the first `)` that closes it) that contain `needle`.
fn asm_blocks_with(source: &str, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("asm!(") {
        let body = &rest[at + 5..];
        let mut depth = 1;
        let end = body
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(body.len(), |(i, _)| i);
        if body[..end].contains(needle) {
            found.push(body[..end].trim().to_string());
        }
        rest = &body[end..];
    }
    found
}

#[test]
fn cluster_barriers_are_llvm_intrinsics_not_inline_assembly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../device/src");
    let mut offenders = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "rs") {
            let source = std::fs::read_to_string(&path).unwrap();
            for block in asm_blocks_with(&source, "barrier.cluster") {
                offenders.push(format!("{}: asm!({block})", path.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "cluster barriers in inline assembly (LLVM may duplicate them): {offenders:#?}");
}

#[test]
fn an_inline_cluster_barrier_is_found() {
    let source = r#"
        unsafe { core::arch::asm!("mapa.shared::cluster.u32 {d}, {a}, {r};", d = out(reg32) x) };
        unsafe { core::arch::asm!("barrier.cluster.arrive.release.aligned;", "barrier.cluster.wait.acquire.aligned;", options(nostack)) }
    "#;
    let found = asm_blocks_with(source, "barrier.cluster");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("\"barrier.cluster.arrive"));
}
