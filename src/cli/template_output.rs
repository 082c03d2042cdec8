//! `strake template --output-files DIR` / `--dangerous-emptied-output-directory DIR`:
//! the output files written under a directory as ytt's `OutputDirectory` writes them,
//! each announced on stdout (`creating: DIR/PATH`), with Go's wording for what fails.

use std::io::Write;
use std::path::Path;

use crate::ytt::files::go_join;
use crate::ytt::symlinks::go_io_error;

/// Writes every output file under `dir` as ytt's `WriteFiles` does: `dir` is made first
/// (mode 0700, as are missing directories on the way to a file), then each file is
/// announced and written at `dir` joined with its relative path as Go's `filepath.Join`
/// joins them (so no relative path leaves `dir` by being absolute). A new file gets mode
/// 0700 (less the umask, so a templated script stays executable) and an existing one
/// keeps its mode. Unlike ytt, each file goes to a temporary file first and is renamed
/// into place, so no half-written file is left behind.
pub fn write_files(
    dir: &str,
    files: &[(String, Vec<u8>)],
    out: &mut dyn Write,
) -> Result<(), String> {
    go_mkdir_all(dir)?;
    for (rel, bytes) in files {
        let target = go_join(dir, rel);
        writeln!(out, "creating: {target}").map_err(|e| e.to_string())?;
        go_mkdir_all(&parent_of(&target))?;
        if Path::new(&target).is_dir() {
            return Err(format!("open {target}: is a directory"));
        }
        crate::oci::atomic::replace_file_keeping_mode(Path::new(&target), bytes, 0o700)
            .map_err(|e| format!("open {target}: {}", go_io_error(&e)))?;
    }
    Ok(())
}

/// Go's `filepath.Dir` of a cleaned path.
fn parent_of(path: &str) -> String {
    match path.rfind('/') {
        Some(0) => "/".to_string(),
        Some(i) => path[..i].to_string(),
        None => ".".to_string(),
    }
}

/// Go's `os.MkdirAll(path, 0700)`, with its errors' words: an existing path that is no
/// directory is `mkdir PATH: not a directory`; otherwise the parent is made first, then
/// the path itself.
fn go_mkdir_all(path: &str) -> Result<(), String> {
    use std::os::unix::fs::DirBuilderExt as _;
    if let Ok(meta) = std::fs::metadata(path) {
        return match meta.is_dir() {
            true => Ok(()),
            false => Err(format!("mkdir {path}: not a directory")),
        };
    }
    let trimmed = path.trim_end_matches('/');
    if let Some(j) = trimmed.rfind('/')
        && j > 0
    {
        go_mkdir_all(&path[..j])?;
    }
    match std::fs::DirBuilder::new().mode(0o700).create(path) {
        Ok(()) => Ok(()),
        Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) => Ok(()),
        Err(e) => Err(format!("mkdir {path}: {}", go_io_error(&e))),
    }
}

/// `--dangerous-emptied-output-directory`: refuses output files that share a path and
/// ytt's suspicious directories, then deletes the directory (ytt's `OutputDirectory.Write`).
pub fn empty_output_directory(dir: &str, files: &[(String, Vec<u8>)]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    for (rel, _) in files {
        if !seen.insert(rel.as_str()) {
            return Err(format!(
                "Multiple files have same output destination paths: {rel}"
            ));
        }
    }
    if ["/", ".", "./", ""].contains(&dir) {
        return Err(
            "Expected output directory path to not be one of '/', '.', './', ''".to_string(),
        );
    }
    match std::fs::remove_dir_all(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("unlinkat {dir}: {}", go_io_error(&e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_are_gos() {
        assert_eq!(parent_of("out/a.yml"), "out");
        assert_eq!(parent_of("/a.yml"), "/");
        assert_eq!(parent_of("a.yml"), ".");
    }
}
