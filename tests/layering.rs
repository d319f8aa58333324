//! The layout shows the architecture: no import circle between the modules of the host library, the
//! catalogue or the emulator. A module's imports are read from its source (`crate::x`, `super::x`,
//! `use crate::{x, y}`; test modules left out), and any strongly connected set of more than one
//! module fails the test with its members.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path (`ops::matmul`; `mod.rs`/`lib.rs` name their folder).
fn modules(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path: PathBuf = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let rel = path.strip_prefix(dir).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                    parts.pop();
                }
                let source = std::fs::read_to_string(&path).unwrap();
                out.insert(parts.join("::"), source);
            }
        }
    }
    out
}

/// The source without comments and without its `#[cfg(test)]` module.
fn code(source: &str) -> String {
    let body = source.split("#[cfg(test)]").next().unwrap_or("");
    body.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Module paths named after `prefix` in `code` (`crate::a::b` gives `a::b`; braces expanded one level).
fn references(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        if let Some(inner) = rest.strip_prefix('{') {
            let inner = &inner[..inner.find('}').unwrap_or(0)];
            out.extend(inner.split(',').map(|p| p.trim().replace(' ', "")).filter(|p| !p.is_empty()));
        } else {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
        }
    }
    out
}

/// The import graph of the crate whose sources are under `dir`, and its cycles.
fn cycles(dir: &Path) -> Vec<BTreeSet<String>> {
    let mods = modules(dir);
    let resolve = |path: &str| -> Option<String> {
        let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        (1..=segs.len()).rev().map(|n| segs[..n].join("::")).find(|c| mods.contains_key(c))
    };
    let mut graph: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (name, source) in &mods {
        let code = code(source);
        let parent = name.rsplit_once("::").map_or("", |(p, _)| p);
        let mut refs = references(&code, "crate::");
        refs.extend(references(&code, "super::").into_iter().map(|r| if parent.is_empty() { r } else { format!("{parent}::{r}") }));
        let edges = graph.entry(name).or_default();
        for target in refs.iter().filter_map(|r| resolve(r)) {
            // A module's own parent (its `mod` declarations) and itself are not imports.
            if target != *name && !name.starts_with(&format!("{target}::")) && !target.is_empty() {
                edges.insert(target);
            }
        }
    }
    // Tarjan's strongly connected components.
    struct State<'g> {
        graph: &'g BTreeMap<&'g str, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit(s: &mut State<'_>, v: &str) {
        let i = s.index.len();
        s.index.insert(v.into(), i);
        s.low.insert(v.into(), i);
        s.stack.push(v.into());
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                s.low.entry(v.into()).and_modify(|l| *l = (*l).min(lw));
            } else if s.stack.contains(w) {
                let iw = s.index[w];
                s.low.entry(v.into()).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                let done = w == v;
                comp.insert(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                s.found.push(comp);
            }
        }
    }
    let mut state = State { graph: &graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in graph.keys() {
        if !state.index.contains_key(*v) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn no_import_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["host/src", "catalogue/src", "emulator/src"] {
        let found = cycles(&root.join(krate));
        assert!(found.is_empty(), "{krate}: modules importing each other: {found:?}");
    }
}

#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("tessera-layering-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("ops")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a; mod ops;").unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::ops::b::Thing;").unwrap();
    std::fs::write(dir.join("ops/mod.rs"), "pub mod b;").unwrap();
    std::fs::write(dir.join("ops/b.rs"), "use crate::{a::Other, x};\n// use crate::nothing;").unwrap();
    let found = cycles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![BTreeSet::from(["a".to_string(), "ops::b".to_string()])]);
}
