//! The ytt engine's module graph: imports point down its layers only, and no files
//! import each other in a circle outside the Starlark interpreter. The layers are the
//! numbered list in `src/ytt/mod.rs`'s doc comment; this test reads that list and the
//! `crate::ytt::…` and `super::…` paths of every engine file (comments, strings and
//! `#[cfg(test)]` code left out: tests may drive the whole engine).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::files_below;

/// A module path under `crate::ytt` (empty: the engine's root, `src/ytt/mod.rs`).
type ModPath = Vec<String>;

/// One import: the importing file's module, the imported module, the path as written.
struct Edge {
    from: ModPath,
    to: ModPath,
    text: String,
}

fn engine_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ytt")
}

/// The `.rs` files below `dir`, sorted.
fn rs_files(dir: &Path) -> Vec<PathBuf> {
    files_below(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// The module of a file below `src/ytt` (`eval/mod.rs` → `eval`, `eval/builder.rs` →
/// `eval::builder`).
fn module_of(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

fn show(m: &ModPath) -> String {
    if m.is_empty() {
        "ytt".into()
    } else {
        format!("ytt::{}", m.join("::"))
    }
}

/// `src` with comments and the contents of string and character literals blanked out
/// (line breaks kept).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let is_ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let prev_ident = i > 0 && is_ident(c[i - 1]);
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if !prev_ident && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let mut j = i + if c[i] == 'b' { 2 } else { 1 };
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            c.get(j) == Some(&'"')
        } {
            // raw string: r"…", r#"…"#, br"…"
            let mut j = i + if c[i] == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                blank(&mut out, c[j]);
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            i += 2;
            while c[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The index just past the item that starts at `start` (a `{ … }` block or up to `;`).
fn item_end(s: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < s.len() {
        match s[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    s.len()
}

/// `code` without its `#[cfg(test)]` items; the names of `#[cfg(test)] mod x;` files.
fn without_tests(code: &str) -> (String, Vec<String>) {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = code.to_string();
    let mut test_files = Vec::new();
    while let Some(at) = out.find(ATTR) {
        let end = item_end(out.as_bytes(), at + ATTR.len());
        let item = out[at + ATTR.len()..end].trim();
        if let Some(name) = item
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|r| r.strip_suffix(';'))
        {
            test_files.push(name.trim().to_string());
        }
        let blanked: String = out[at..end]
            .chars()
            .map(|ch| if ch == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blanked);
    }
    (out, test_files)
}

/// The path tree starting at `s` (`eval::{LibRef, load_file}`, `fragment::items_of`).
fn path_tree(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        if b[i..].starts_with(b"::") {
            i += 2;
            if b.get(i) == Some(&b'{') {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'{' {
                        depth += 1;
                    } else if b[i] == b'}' {
                        depth -= 1;
                        if depth == 0 {
                            return &s[..i + 1];
                        }
                    }
                    i += 1;
                }
            }
            continue;
        }
        if b.get(i) == Some(&b'{') {
            return &s[..item_end(b, i)];
        }
        return &s[..i];
    }
}

/// The modules a path tree names, resolved from module `base`.
fn resolve(base: &ModPath, tree: &str, modules: &BTreeSet<ModPath>, out: &mut Vec<ModPath>) {
    let tree = tree.trim();
    if let Some(group) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut start = 0;
        for (i, ch) in group.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    resolve(base, &group[start..i], modules, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        resolve(base, &group[start..], modules, out);
        return;
    }
    let mut current = base.clone();
    let mut rest = tree;
    loop {
        let (seg, tail) = match rest.split_once("::") {
            Some((seg, tail)) => (seg.trim(), Some(tail)),
            None => (rest.split_whitespace().next().unwrap_or(""), None),
        };
        let mut next = current.clone();
        next.push(seg.to_string());
        if !modules.contains(&next) {
            break;
        }
        current = next;
        match tail {
            Some(t) if t.trim_start().starts_with('{') => {
                return resolve(&current, t, modules, out);
            }
            Some(t) => rest = t,
            None => break,
        }
    }
    out.push(current);
}

/// Every import between engine files, and the files that only tests compile.
fn engine_graph() -> (BTreeSet<ModPath>, Vec<Edge>) {
    let dir = engine_dir();
    let files = rs_files(&dir);
    let sources: BTreeMap<ModPath, String> = files
        .iter()
        .map(|p| {
            let m = module_of(p.strip_prefix(&dir).unwrap());
            (m, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let modules: BTreeSet<ModPath> = sources.keys().cloned().collect();
    let mut code: BTreeMap<ModPath, String> = BTreeMap::new();
    let mut test_only: BTreeSet<ModPath> = BTreeSet::new();
    for (m, src) in &sources {
        let (c, test_files) = without_tests(&code_only(src));
        for t in test_files {
            let mut child = m.clone();
            child.push(t);
            test_only.insert(child);
        }
        code.insert(m.clone(), c);
    }
    let mut edges = Vec::new();
    for (m, c) in &code {
        if test_only.iter().any(|t| m.starts_with(t)) {
            continue;
        }
        let bytes = c.as_bytes();
        for (prefix, up) in [("crate::ytt::", None), ("super::", Some(()))] {
            for (at, _) in c.match_indices(prefix) {
                let before = at.checked_sub(1).map(|i| bytes[i]);
                if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                    continue;
                }
                let mut base: ModPath = Vec::new();
                let mut rest = &c[at + prefix.len()..];
                if up.is_some() {
                    // `super` of a file's module; `mod.rs` is its folder's module.
                    base = m.clone();
                    base.pop();
                    while let Some(r) = rest.strip_prefix("super::") {
                        base.pop();
                        rest = r;
                    }
                }
                let tree = path_tree(rest);
                let mut targets = Vec::new();
                resolve(&base, tree, &modules, &mut targets);
                for to in targets {
                    if &to != m {
                        edges.push(Edge {
                            from: m.clone(),
                            to,
                            text: format!("{prefix}{tree}"),
                        });
                    }
                }
            }
        }
    }
    (modules, edges)
}

/// The numbered layer list of `src/ytt/mod.rs`: top-level module name → layer.
fn layers() -> BTreeMap<String, usize> {
    let doc = std::fs::read_to_string(engine_dir().join("mod.rs")).unwrap();
    let mut out = BTreeMap::new();
    for line in doc.lines().filter_map(|l| l.strip_prefix("//! ")) {
        let Some((num, rest)) = line.split_once(". ") else {
            continue;
        };
        let Ok(layer) = num.parse::<usize>() else {
            continue;
        };
        let names = rest.split_once(": ").map(|(n, _)| n).unwrap_or(rest);
        for name in names.split('`').skip(1).step_by(2) {
            out.insert(name.to_string(), layer);
        }
    }
    assert!(out.len() > 5, "no layer list in src/ytt/mod.rs: {out:?}");
    out
}

/// The layer of a module: its top-level module's; the root is the top layer.
fn layer_of(m: &ModPath, layers: &BTreeMap<String, usize>) -> usize {
    match m.first() {
        None => layers.values().copied().max().unwrap(),
        Some(top) => *layers
            .get(top)
            .unwrap_or_else(|| panic!("module ytt::{top} is in no layer of src/ytt/mod.rs's list")),
    }
}

#[test]
fn imports_point_down_the_layers() {
    let layers = layers();
    let (modules, edges) = engine_graph();
    for m in &modules {
        layer_of(m, &layers);
    }
    let upward: Vec<String> = edges
        .iter()
        .filter(|e| layer_of(&e.from, &layers) < layer_of(&e.to, &layers))
        .map(|e| {
            format!(
                "{} (layer {}) imports {} (layer {}): `{}`",
                show(&e.from),
                layer_of(&e.from, &layers),
                show(&e.to),
                layer_of(&e.to, &layers),
                e.text
            )
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let (modules, edges) = engine_graph();
    // A folder's `mod.rs` and the files under it may use each other (declaring and
    // re-exporting children; children taking shared helpers); the interpreter may have
    // knots. Everything else must form no circle.
    let related = |a: &ModPath, b: &ModPath| a.starts_with(b) || b.starts_with(a);
    let mut next: BTreeMap<&ModPath, BTreeSet<&ModPath>> = BTreeMap::new();
    for e in &edges {
        if !related(&e.from, &e.to) && !(e.from.starts_with(&["starlark".to_string()])) {
            next.entry(&e.from).or_default().insert(&e.to);
        }
    }
    let mut circles = Vec::new();
    for start in &modules {
        // A path from `start` back to itself, by depth-first search.
        let mut stack: Vec<(&ModPath, Vec<&ModPath>)> = vec![(start, vec![start])];
        let mut seen: BTreeSet<&ModPath> = BTreeSet::new();
        while let Some((m, path)) = stack.pop() {
            for n in next.get(m).into_iter().flatten() {
                if *n == start {
                    let mut names: Vec<String> = path.iter().map(|p| show(p)).collect();
                    names.push(show(start));
                    circles.push(names.join(" -> "));
                } else if seen.insert(n) {
                    let mut p = path.clone();
                    p.push(n);
                    stack.push((n, p));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_in_use_lines_and_paths() {
    let modules: BTreeSet<ModPath> = [vec!["eval"], vec!["eval", "fragment"], vec!["node"]]
        .iter()
        .map(|m| m.iter().map(|s| s.to_string()).collect())
        .collect();
    let mut out = Vec::new();
    let src = "use crate::ytt::eval::{LibRef, fragment::{Frag}};\n// crate::ytt::node\nlet s = \"crate::ytt::node\"; let c = '\"'; crate::ytt::node::Pos::default();";
    let code = code_only(src);
    for (at, _) in code.match_indices("crate::ytt::") {
        resolve(&Vec::new(), path_tree(&code[at + 12..]), &modules, &mut out);
    }
    let shown: Vec<String> = out.iter().map(show).collect();
    assert_eq!(shown, ["ytt::eval", "ytt::eval::fragment", "ytt::node"]);
    let (rest, files) =
        without_tests("#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod t {\n use x;\n}\nfn f() {}");
    assert_eq!(files, ["tests"]);
    assert!(rest.trim() == "fn f() {}", "{rest:?}");
}
