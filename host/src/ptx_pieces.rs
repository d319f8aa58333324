//! The embedded PTX cut into one module per kernel, so that a kernel is compiled when it is first
//! launched and not before.
//!
//! **Why**: the driver compiles a PTX module to machine code as a whole when it is loaded. tessera's
//! two modules hold every kernel (~220 entries, 33 MB of text); compiling them all took ~40 s on a
//! fresh machine (ptxas alone: 25 s for the sm_90a module), paid by the first [`crate::Gpu::new`] of
//! every process until the driver's cache held them — for a program that runs one GEMM. A module of
//! one entry compiles in a fraction of a second and is cached by the driver like any other.
//!
//! **How**: rustc's NVPTX output is a header (`.version`, `.target`, `.address_size`), declarations
//! (`.extern .shared`, `.func` prototypes), the entries and the few `.func` bodies the entries call.
//! An entry's piece is that text with every *other* entry taken out: the header, declarations and
//! functions stay whole, so whatever the entry calls is still defined. An entry's text runs from its
//! `.entry` line to the brace that closes its body (braces counted outside `//` comments; inline
//! assembly's `{ }` scopes nest inside it).
use std::collections::HashMap;
use std::ops::Range;

/// A PTX module and where each of its entries lies in it.
#[derive(Debug)]
pub struct PtxPieces {
    /// The module with every entry taken out.
    shared: String,
    /// Each entry's text, as byte ranges of the module.
    entries: HashMap<String, Range<usize>>,
    /// The module as given.
    whole: &'static str,
}

impl PtxPieces {
    /// Finds the entries of `ptx`.
    ///
    /// Errors: an entry whose body's braces do not close, or an entry name defined twice.
    pub fn parse(ptx: &'static str) -> Result<Self, String> {
        let mut entries = HashMap::new();
        let mut shared = String::with_capacity(4096);
        let mut kept = 0;
        let mut offset = 0;
        let mut lines = ptx.split_inclusive('\n').peekable();
        while let Some(line) = lines.next() {
            let start = offset;
            offset += line.len();
            let Some(name) = entry_name(line) else { continue };
            // The entry's text: from this line to the line whose brace closes its body.
            let (mut depth, mut opened) = (0i64, false);
            let mut scan = |l: &str| {
                for c in l.split("//").next().unwrap_or("").chars() {
                    match c {
                        '{' => (depth, opened) = (depth + 1, true),
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                opened && depth == 0
            };
            let mut closed = scan(line);
            while !closed {
                let Some(l) = lines.next() else { return Err(format!("entry `{name}`: its body's braces never close")) };
                offset += l.len();
                closed = scan(l);
            }
            if depth != 0 {
                return Err(format!("entry `{name}`: a brace closes more than its body"));
            }
            shared.push_str(&ptx[kept..start]);
            kept = offset;
            if entries.insert(name.to_string(), start..offset).is_some() {
                return Err(format!("entry `{name}` is defined twice"));
            }
        }
        shared.push_str(&ptx[kept..]);
        Ok(PtxPieces { shared, entries, whole: ptx })
    }

    /// The module that defines `entry` alone: the shared text with the entry's own; `None` for a
    /// name the module has no entry of.
    pub fn module(&self, entry: &str) -> Option<String> {
        let range = self.entries.get(entry)?.clone();
        let mut m = String::with_capacity(self.shared.len() + range.len() + 1);
        m.push_str(&self.shared);
        if !m.ends_with('\n') {
            m.push('\n');
        }
        m.push_str(&self.whole[range]);
        Some(m)
    }

    /// Entry `entry`'s own text (its `.entry` line to its closing brace).
    pub fn entry_text(&self, entry: &str) -> Option<&'static str> {
        self.entries.get(entry).map(|r| &self.whole[r.clone()])
    }

    /// The names of the module's entries, in no particular order.
    pub fn entry_names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// The text every piece carries (the module with its entries taken out).
    pub fn shared_text(&self) -> &str {
        &self.shared
    }
}

/// The entry a line of PTX begins, if it begins one (`.entry name(` with `.visible` or `.weak`
/// before it or not).
fn entry_name(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix(".visible").or_else(|| rest.strip_prefix(".weak")).unwrap_or(rest).trim_start();
    let rest = rest.strip_prefix(".entry")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let name = rest.trim_start();
    let end = name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')).unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "//\n.version 8.1\n.target sm_90\n.address_size 64\n\n.func helper\n()\n;\n\
.extern .shared .align 4 .b8 smem[];\n\
.visible .entry first(\n\t.param .u64 first_param_0\n)\n{\n\t// begin inline asm\n\t{\n\t.reg .pred p; // } not a brace\n\t}\n\t// end inline asm\n\tret;\n\n}\n\
\t// .globl\tsecond\n.visible .entry second()\n{\n\tcall.uni helper, ();\n\tret;\n}\n\
.func helper()\n{\n\tret;\n}\n";

    #[test]
    fn each_piece_is_the_module_with_one_entry() {
        let p = PtxPieces::parse(SAMPLE).unwrap();
        let mut names: Vec<_> = p.entry_names().collect();
        names.sort();
        assert_eq!(names, ["first", "second"]);
        let first = p.module("first").unwrap();
        assert!(first.starts_with("//\n.version 8.1\n.target sm_90\n"));
        assert!(first.contains(".visible .entry first(") && first.contains("// } not a brace"));
        assert!(!first.contains(".entry second"));
        // The functions an entry calls stay defined in every piece.
        let second = p.module("second").unwrap();
        assert!(second.contains(".func helper()\n{\n\tret;\n}") && second.contains("call.uni helper"));
        assert!(!second.contains(".entry first"));
        assert_eq!(second.matches('{').count(), second.matches('}').count());
        assert!(p.module("third").is_none());
    }

    #[test]
    fn a_body_that_never_closes_is_an_error() {
        let err = PtxPieces::parse(".version 8.1\n.visible .entry open()\n{\n\tret;\n").unwrap_err();
        assert!(err.contains("`open`") && err.contains("never close"), "{err}");
        let twice = PtxPieces::parse(".entry a()\n{\n}\n.entry a()\n{\n}\n").unwrap_err();
        assert!(twice.contains("defined twice"), "{twice}");
    }

    #[test]
    fn only_entry_lines_name_entries() {
        assert_eq!(entry_name(".visible .entry matmul_x(\n"), Some("matmul_x"));
        assert_eq!(entry_name(".entry k()\n"), Some("k"));
        assert_eq!(entry_name(".weak .entry w(\n"), Some("w"));
        assert_eq!(entry_name("\t// .globl\tmatmul_x\n"), None);
        assert_eq!(entry_name(".entryx y(\n"), None);
        assert_eq!(entry_name(".func f()\n"), None);
    }
}
