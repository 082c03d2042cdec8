//! Which symlinked input files a run may read, as ytt decides it: none unless
//! `--dangerous-allow-all-symlink-destinations`, or the link resolves to a path under one
//! of the `--allow-symlink-destination` paths. Also the Go wording of file system errors
//! that ytt's messages carry (`lstat x: no such file or directory`).

use std::path::{Component, Path, PathBuf};

/// The symlink flags of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymlinkPolicy {
    pub allow_all: bool,
    pub allowed_destinations: Vec<String>,
}

impl SymlinkPolicy {
    /// Checks the symlink at `shown` (the path as the user gave it, or as walked below a
    /// given directory; `full` is it resolved against the working directory `cwd`).
    pub fn check(&self, shown: &str, full: &Path, cwd: &Path) -> Result<(), String> {
        if self.allow_all {
            return Ok(());
        }
        let dst = std::fs::canonicalize(full)
            .map_err(|e| format!("Eval symlink: lstat {shown}: {}", go_io_error(&e)))?;
        for allowed in &self.allowed_destinations {
            let allowed = lexical_clean(&cwd.join(allowed));
            if dst.starts_with(&allowed) {
                return Ok(());
            }
        }
        // Go's EvalSymlinks keeps a relative path relative to the working directory.
        let shown_dst = match std::fs::canonicalize(cwd) {
            Ok(base) if Path::new(shown).is_relative() => dst
                .strip_prefix(&base)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| dst.clone()),
            _ => dst.clone(),
        };
        Err(format!(
            "Expected symlink file '{shown}' -> '{}' to be allowed, but was not",
            shown_dst.display()
        ))
    }
}

/// `path` with `.` and `..` resolved without touching the file system (Go's
/// `filepath.Abs` cleans the same way).
fn lexical_clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// How Go prints an I/O error's cause (`no such file or directory`), for the messages
/// ytt builds around them.
pub fn go_io_error(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "no such file or directory".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        ErrorKind::NotADirectory => "not a directory".into(),
        ErrorKind::IsADirectory => "is a directory".into(),
        _ => {
            let s = e.to_string();
            match s.split_once(" (os error") {
                Some((m, _)) => {
                    let mut chars = m.chars();
                    chars
                        .next()
                        .map(|c| c.to_lowercase().chain(chars).collect())
                        .unwrap_or_default()
                }
                None => s,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlinks_are_refused_unless_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(base.join("shared")).unwrap();
        std::fs::write(base.join("shared/c.yml"), "a: 1\n").unwrap();
        std::os::unix::fs::symlink("shared/c.yml", base.join("l.yml")).unwrap();
        let full = base.join("l.yml");
        let deny = SymlinkPolicy::default();
        assert_eq!(
            deny.check("l.yml", &full, &base).unwrap_err(),
            "Expected symlink file 'l.yml' -> 'shared/c.yml' to be allowed, but was not"
        );
        let some = SymlinkPolicy {
            allow_all: false,
            allowed_destinations: vec!["./shared/".into()],
        };
        some.check("l.yml", &full, &base).unwrap();
        let all = SymlinkPolicy {
            allow_all: true,
            allowed_destinations: vec![],
        };
        all.check("l.yml", &full, &base).unwrap();
    }

    #[test]
    fn io_errors_read_as_go_prints_them() {
        let e = std::fs::symlink_metadata("/nonexistent/x").unwrap_err();
        assert_eq!(go_io_error(&e), "no such file or directory");
    }
}
