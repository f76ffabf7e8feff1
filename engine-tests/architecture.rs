//! The layers, checked against the code: every `.rs` file under `src/` (tests included) is
//! read, the paths that reach another top-level module (`crate::X`, `chariot::X`, `super::`
//! up to the crate root, `self::X` and bare `X::` in a crate root) become arrows between
//! top-level modules, and the test asserts that no two modules import each other, that the
//! arrows form no cycle, and that they are exactly the arrows of the ```` ```imports ````
//! block in `docs/architecture.md`. Adding an import the page does not draw, or leaving an
//! arrow on the page that the code no longer has, fails here with the block to write.
//!
//! Comments and string literals are not code and are skipped; `mod` declarations own a
//! module rather than import it and are not arrows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;
/// For each arrow, the first place that draws it (`src/file.rs:line`).
type Evidence = BTreeMap<(String, String), String>;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Rust source to tokens with their line numbers; comments, strings and character literals
/// are dropped, lifetimes keep only their name.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i, 0, &mut line);
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // an escaped character literal: '\n', '\'', '\\', '\u{4e2d}'
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1; // a lifetime or label: its name follows as an identifier
            }
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                i = skip_string(&c, i, 0, &mut line);
            } else if raw_prefix && (at(i) == '"' || at(i) == '#') {
                let mut hashes = 0;
                while at(i + hashes) == '#' {
                    hashes += 1;
                }
                if at(i + hashes) == '"' {
                    i = skip_string(&c, i + hashes, hashes, &mut line);
                } else {
                    out.push((Tok::Ident(word), line)); // r#ident
                }
            } else {
                out.push((Tok::Ident(word), line));
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// Skips the string literal opening at `c[i] == '"'`; `hashes > 0` for a raw string.
fn skip_string(c: &[char], mut i: usize, hashes: usize, line: &mut usize) -> usize {
    i += 1;
    while i < c.len() {
        match c[i] {
            '\\' if hashes == 0 => i += 2,
            '"' if (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) => return i + 1 + hashes,
            ch => {
                if ch == '\n' {
                    *line += 1;
                }
                i += 1;
            }
        }
    }
    i
}

/// The first segments of the path or use tree that starts at `toks[i]`: `X` in `X::…`, and
/// `A`, `B` in `{A::…, B, …}`.
fn first_segments(toks: &[(Tok, usize)], i: usize) -> Vec<String> {
    match toks.get(i) {
        Some((Tok::Ident(s), _)) => vec![s.clone()],
        Some((Tok::Punct('{'), _)) => {
            let mut out = Vec::new();
            let mut depth = 0;
            let mut expect = true;
            for (t, _) in &toks[i..] {
                match t {
                    Tok::Punct('{') => {
                        depth += 1;
                        expect = depth == 1;
                    }
                    Tok::Punct('}') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(',') if depth == 1 => expect = true,
                    Tok::Ident(s) if expect && depth == 1 => {
                        out.push(s.clone());
                        expect = false;
                    }
                    _ => expect = false,
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The top-level modules one file reaches, with line numbers. `module` is the file's module
/// path (`["engine", "book"]` for `src/engine/book.rs`, empty for a crate root), `roots`
/// the modules its crate root declares (for bare paths in the root itself).
fn targets(src: &str, module: &[String], roots: &BTreeSet<String>) -> Vec<(String, usize)> {
    let toks = tokens(src);
    let mut out = Vec::new();
    // the inline modules (`mod tests { … }`) open at each brace depth
    let mut braces: Vec<Option<String>> = Vec::new();
    let mut pending_mod: Option<String> = None;
    for i in 0..toks.len() {
        let (tok, line) = &toks[i];
        let prev_is_path = i > 0 && toks[i - 1].0 == Tok::Path;
        let next_is_path = toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Path);
        match tok {
            Tok::Punct('{') => braces.push(pending_mod.take()),
            Tok::Punct('}') => {
                braces.pop();
            }
            Tok::Punct(';') => pending_mod = None,
            Tok::Ident(w) if w == "mod" => {
                if let Some((Tok::Ident(name), _)) = toks.get(i + 1) {
                    pending_mod = Some(name.clone());
                }
            }
            _ => {}
        }
        let Tok::Ident(word) = tok else { continue };
        if prev_is_path || !next_is_path {
            continue;
        }
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(braces.iter().flatten().cloned())
            .collect();
        let found: Vec<String> = match word.as_str() {
            "crate" | "chariot" => first_segments(&toks, i + 2),
            "super" | "self" => {
                let mut base = here.clone();
                let mut j = i;
                while let Some((Tok::Ident(w), _)) = toks.get(j) {
                    if w == "super" && base.pop().is_none() {
                        break;
                    }
                    if (w != "super" && w != "self")
                        || toks.get(j + 1).map(|t| &t.0) != Some(&Tok::Path)
                    {
                        break;
                    }
                    j += 2;
                }
                if base.is_empty() {
                    first_segments(&toks, j)
                } else {
                    vec![base[0].clone()]
                }
            }
            w if here.is_empty() && roots.contains(w) => vec![w.to_string()],
            _ => continue,
        };
        out.extend(found.into_iter().map(|t| (t, *line)));
    }
    out
}

/// `mod X;` declarations of a crate root.
fn declared(root: &str) -> BTreeSet<String> {
    let toks = tokens(root);
    toks.windows(3)
        .filter_map(|w| match w {
            [
                (Tok::Ident(m), _),
                (Tok::Ident(name), _),
                (Tok::Punct(';'), _),
            ] if m == "mod" => Some(name.clone()),
            _ => None,
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The import graph of `src/`: every node (top-level modules, and `main`/`lib` when they
/// import anything) with its arrows, and where each arrow is drawn.
fn code_graph() -> (Graph, Evidence) {
    let src = repo("src");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{e}"));
    let lib_mods = declared(&read(&src.join("lib.rs")));
    let bin_mods = declared(&read(&src.join("main.rs")));
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph = Graph::new();
    let mut evidence = Evidence::new();
    for m in lib_mods.iter().chain(&bin_mods) {
        graph.entry(m.clone()).or_default();
    }
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let text = read(file);
        let toks = tokens(&text);
        assert!(
            !toks.windows(3).any(|w| w[0].0 == Tok::Punct('#')
                && w[1].0 == Tok::Punct('[')
                && w[2].0 == Tok::Ident("path".into())),
            "src/{}: a #[path] attribute; this test maps files to modules by their place",
            rel.display()
        );
        let mut module: Vec<String> = rel
            .with_extension("")
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["lib"] || module == ["main"] {
            module.clear();
        }
        let (from, roots, root_name) = match module.first() {
            None if rel == Path::new("main.rs") => ("main".to_string(), &bin_mods, "main"),
            None => ("lib".to_string(), &lib_mods, "lib"),
            Some(m) if bin_mods.contains(m) => (m.clone(), &bin_mods, "main"),
            Some(m) => (m.clone(), &lib_mods, "lib"),
        };
        for (to, line) in targets(&text, &module, roots) {
            // a path to an item of the crate root itself rather than to a module
            let to = if lib_mods.contains(&to) || bin_mods.contains(&to) {
                to
            } else {
                root_name.to_string()
            };
            if to == from {
                continue;
            }
            graph.entry(from.clone()).or_default().insert(to.clone());
            graph.entry(to.clone()).or_default();
            evidence
                .entry((from.clone(), to))
                .or_insert_with(|| format!("src/{}:{line}", rel.display()));
        }
    }
    (graph, evidence)
}

/// The ```` ```imports ```` block of `docs/architecture.md`.
fn doc_graph() -> Graph {
    let path = repo("docs/architecture.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "```imports")
        .skip(1)
        .take_while(|l| l.trim() != "```")
        .collect();
    assert!(
        !block.is_empty(),
        "{}: no ```imports block (lines `from -> to, to`)",
        path.display()
    );
    let mut graph = Graph::new();
    for l in block.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        let (from, to) = l
            .split_once("->")
            .unwrap_or_else(|| panic!("docs/architecture.md: '{l}' is not `from -> to, to`"));
        let from = from.trim().to_string();
        let to: BTreeSet<String> = match to.trim() {
            "(none)" => BTreeSet::new(),
            list => list.split(',').map(|t| t.trim().to_string()).collect(),
        };
        assert!(
            !to.contains("") && !to.contains(&from),
            "docs/architecture.md: '{l}' has an empty or self arrow"
        );
        assert!(
            graph.insert(from.clone(), to).is_none(),
            "docs/architecture.md: two lines for '{from}'"
        );
    }
    graph
}

/// The nodes in layer order (each after everything it imports), ties by name; `None` when
/// the graph has a cycle.
fn layer_order(g: &Graph) -> Option<Vec<String>> {
    let mut left: BTreeMap<&String, BTreeSet<&String>> =
        g.iter().map(|(k, v)| (k, v.iter().collect())).collect();
    let mut order = Vec::new();
    while !left.is_empty() {
        let ready: Vec<&String> = left
            .iter()
            .filter(|(_, deps)| deps.iter().all(|d| !left.contains_key(d)))
            .map(|(k, _)| *k)
            .collect();
        if ready.is_empty() {
            return None;
        }
        for k in ready {
            left.remove(k);
            order.push(k.clone());
        }
    }
    Some(order)
}

fn block(g: &Graph) -> String {
    let order = layer_order(g).unwrap_or_else(|| g.keys().cloned().collect());
    let mut s = String::from("```imports\n");
    for n in order {
        let to = &g[&n];
        let list = if to.is_empty() {
            "(none)".to_string()
        } else {
            to.iter().cloned().collect::<Vec<_>>().join(", ")
        };
        s.push_str(&format!("{n} -> {list}\n"));
    }
    s.push_str("```");
    s
}

#[test]
fn no_two_modules_import_each_other_and_no_cycle() {
    let (g, ev) = code_graph();
    let mut pairs = Vec::new();
    for (a, tos) in &g {
        for b in tos {
            if a < b && g[b].contains(a) {
                pairs.push(format!(
                    "{a} <-> {b} ({a} -> {b} at {}, {b} -> {a} at {})",
                    ev[&(a.clone(), b.clone())],
                    ev[&(b.clone(), a.clone())]
                ));
            }
        }
    }
    assert!(
        pairs.is_empty(),
        "modules that import each other:\n{}",
        pairs.join("\n")
    );
    if layer_order(&g).is_none() {
        let arrows: Vec<String> = ev
            .iter()
            .map(|((a, b), at)| format!("{a} -> {b} at {at}"))
            .collect();
        panic!("the imports form a cycle:\n{}", arrows.join("\n"));
    }
}

#[test]
fn imports_match_docs_architecture() {
    let (code, ev) = code_graph();
    let doc = doc_graph();
    let mut wrong = Vec::new();
    for (a, tos) in &code {
        match doc.get(a) {
            None => wrong.push(format!("module '{a}' has no line on the page")),
            Some(d) => {
                for b in tos.difference(d) {
                    wrong.push(format!(
                        "{a} -> {b} is in the code ({}) but not on the page",
                        ev[&(a.clone(), b.clone())]
                    ));
                }
                for b in d.difference(tos) {
                    wrong.push(format!("{a} -> {b} is on the page but not in the code"));
                }
            }
        }
    }
    for a in doc.keys().filter(|a| !code.contains_key(*a)) {
        wrong.push(format!("'{a}' is on the page but is no module of src/"));
    }
    assert!(
        wrong.is_empty(),
        "docs/architecture.md disagrees with the code:\n{}\n\nThe block the code draws:\n{}",
        wrong.join("\n"),
        block(&code)
    );
}

/// The scanner itself, on made-up sources: grouped and nested use trees, `super` from files
/// and inline modules, crate-root bare paths, and paths inside comments and strings.
#[test]
fn scanner_reads_paths_as_rustc_does() {
    let roots: BTreeSet<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
    let here = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let names = |v: Vec<(String, usize)>| v.into_iter().map(|(t, _)| t).collect::<Vec<_>>();
    let src = r##"
        use crate::{b::X, c::{self, Y}};
        use super::Z;
        // use crate::d::Comment;
        /* use crate::d::Block; /* nested */ crate::d::Still */
        const S: &str = "crate::d::InString";
        const R: &str = r#"crate::d::"Raw"#;
        const C: char = '"'; fn f<'a>(x: &'a u8) {}
        mod tests {
            use super::super::super::d::T;
            use super::W;
            const Q: [char; 3] = ['\'','{', '\\'];
        }
        use super::super::c::After;
    "##;
    assert_eq!(
        names(targets(src, &here(&["a", "m"]), &roots)),
        ["b", "c", "a", "d", "a", "c"]
    );
    // a top-level file: `super` is the crate root
    assert_eq!(
        names(targets("use super::b::X;", &here(&["a"]), &roots)),
        ["b"]
    );
    // a crate root: bare module paths and `self::`
    let root = "mod a; fn main() { a::run(); self::b::go(); std::process::exit(0); }";
    assert_eq!(names(targets(root, &[], &roots)), ["a", "b"]);
    assert_eq!(
        names(targets("chariot::c::go(x::y)", &here(&["a"]), &roots)),
        ["c"]
    );
}

#[test]
fn layer_order_finds_cycles() {
    let graph = |arrows: &[(&str, &str)]| {
        let mut g = Graph::new();
        for &(a, b) in arrows {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let order = layer_order(&graph(&[("c", "b"), ("b", "a"), ("c", "a")])).unwrap();
    assert_eq!(order, ["a", "b", "c"]);
    assert!(layer_order(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])).is_none());
}
