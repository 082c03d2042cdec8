//! Input file selection as `ytt -f <dir>` does it: every file under the directory, ordered by
//! relative path (byte order, so `c.yml` comes before `c/deep/z.yml`), classified by extension
//! (case-sensitive): `.yml`/`.yaml` YAML templates, `.star` Starlark, `.txt` text templates,
//! anything else data. Names like `x.lib.yml` are library files (loadable, never emitted), as
//! is everything under a `_ytt_lib` directory (private libraries).

use std::io;
use std::path::{Path, PathBuf};

/// What ytt does with a file, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `.yml` / `.yaml`.
    Yaml,
    /// `.star`.
    Starlark,
    /// `.txt`.
    Text,
    /// Anything else (including `.YML`, `.json`, `.md`): data for `data.read()`, not emitted.
    Data,
}

/// One input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputFile {
    /// Path relative to the `-f` directory, with `/` separators (the name ytt uses in
    /// positions and `data.list()`).
    pub rel_path: String,
    /// Path on disk.
    pub path: PathBuf,
    /// Classification by extension.
    pub kind: FileKind,
    /// `*.lib.*` names and files under `_ytt_lib/`: loadable, not templates of their own.
    pub library: bool,
}

impl InputFile {
    /// Whether the file's output goes to stdout: a non-library YAML template.
    pub fn is_emitted_yaml(&self) -> bool {
        self.kind == FileKind::Yaml && !self.library
    }
}

/// Classifies a relative path (`/`-separated).
pub fn classify(rel_path: &str) -> (FileKind, bool) {
    let base = rel_path.rsplit('/').next().unwrap_or(rel_path);
    // ytt's `matchesExt` tests the base name's suffix, so a file named just `.yml` is YAML.
    let ends = |exts: &[&str]| exts.iter().any(|e| base.ends_with(e));
    let kind = if ends(&[".yaml", ".yml"]) {
        FileKind::Yaml
    } else if ends(&[".star"]) {
        FileKind::Starlark
    } else if ends(&[".txt"]) {
        FileKind::Text
    } else {
        FileKind::Data
    };
    let parts: Vec<&str> = base.split('.').collect();
    let lib_name = parts.len() > 2 && parts[parts.len() - 2] == "lib";
    let in_private_lib = rel_path.split('/').any(|seg| seg == "_ytt_lib");
    (kind, lib_name || in_private_lib)
}

/// Lists all files under `dir` (recursively, following no symlinked directories), sorted by
/// relative path bytes. Errors name the path that failed.
pub fn collect_dir(dir: &Path) -> io::Result<Vec<InputFile>> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(|e| {
            let path = e
                .path()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            io::Error::other(format!("reading input directory {path}: {e}"))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(dir)
            .map_err(|e| io::Error::other(format!("{}: {e}", entry.path().display())))?;
        let rel_path = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let (kind, library) = classify(&rel_path);
        out.push(InputFile {
            rel_path,
            path: entry.path().to_path_buf(),
            kind,
            library,
        });
    }
    out.sort_by(|a, b| a.rel_path.as_bytes().cmp(b.rel_path.as_bytes()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classification() {
        assert_eq!(classify("a.yml"), (FileKind::Yaml, false));
        assert_eq!(classify("sub/a.yaml"), (FileKind::Yaml, false));
        assert_eq!(classify("three.YML"), (FileKind::Data, false));
        assert_eq!(classify("helpers.lib.yml"), (FileKind::Yaml, true));
        assert_eq!(classify("lib.yml"), (FileKind::Yaml, false));
        assert_eq!(classify("x.star"), (FileKind::Starlark, false));
        assert_eq!(classify("notes.txt"), (FileKind::Text, false));
        assert_eq!(classify("README.md"), (FileKind::Data, false));
        assert_eq!(classify("d/.yml"), (FileKind::Yaml, false));
        assert_eq!(classify(".lib.txt"), (FileKind::Text, true));
        assert_eq!(
            classify("_ytt_lib/github.com/x/y.yml"),
            (FileKind::Yaml, true)
        );
    }

    #[test]
    fn walk_order_is_by_full_path() {
        let dir = tempfile::tempdir().unwrap();
        for p in [
            "d.yml",
            "c.yml",
            "c/deep/z.yml",
            "0.yml",
            "a/x.yml",
            "b.yml",
            "A.yml",
        ] {
            let full = dir.path().join(p);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, "x: 1\n").unwrap();
        }
        let names: Vec<String> = collect_dir(dir.path())
            .unwrap()
            .into_iter()
            .map(|f| f.rel_path)
            .collect();
        assert_eq!(
            names,
            [
                "0.yml",
                "A.yml",
                "a/x.yml",
                "b.yml",
                "c.yml",
                "c/deep/z.yml",
                "d.yml"
            ]
        );
    }
}
