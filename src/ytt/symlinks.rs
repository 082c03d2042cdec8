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
        let dst = match std::fs::canonicalize(full) {
            Ok(dst) => dst,
            Err(e) => {
                return match walk_symlinks(shown, cwd) {
                    // A process substitution (`-f <(...)`) on Linux: `/dev/fd/N` leads to
                    // `/proc/PID/fd/pipe:[INODE]`, which is on no file system, so it could
                    // not have been a trick to include a file (ytt's `symlinkPipeErr`).
                    Err(Walk::Lstat(at, _)) if is_pipe_link(&at) => Ok(()),
                    Err(Walk::Lstat(at, e)) => {
                        Err(format!("Eval symlink: lstat {at}: {}", go_io_error(&e)))
                    }
                    Err(Walk::Other(m)) => Err(format!("Eval symlink: {m}")),
                    Ok(_) => Err(format!("Eval symlink: lstat {shown}: {}", go_io_error(&e))),
                };
            }
        };
        for allowed in &self.allowed_destinations {
            let allowed = lexical_clean(&cwd.join(allowed));
            if dst.starts_with(&allowed) {
                return Ok(());
            }
        }
        let shown_dst = eval_symlinks(shown, cwd).unwrap_or_else(|| dst.display().to_string());
        Err(format!(
            "Expected symlink file '{shown}' -> '{shown_dst}' to be allowed, but was not"
        ))
    }
}

/// Why Go's `filepath.EvalSymlinks` walk stopped: the path it could not `lstat` (as the
/// walk spells it), or another cause in Go's words.
enum Walk {
    Lstat(String, std::io::Error),
    Other(&'static str),
}

/// Whether `path` is where Linux leads a `/dev/fd/N` link of a pipe:
/// `/proc/PID/fd/pipe:[INODE]`.
fn is_pipe_link(path: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some(rest) = path.strip_prefix("/proc/") else {
        return false;
    };
    let Some((pid, rest)) = rest.split_once("/fd/pipe:[") else {
        return false;
    };
    digits(pid) && rest.strip_suffix(']').is_some_and(digits)
}

/// `path` with its symlinks resolved as Go's `filepath.EvalSymlinks` words the result.
/// `None` when the walk fails.
fn eval_symlinks(path: &str, cwd: &Path) -> Option<String> {
    walk_symlinks(path, cwd).ok()
}

/// Go's `filepath.EvalSymlinks` walk: one component at a time (relative paths from
/// `cwd`), a relative path stays relative unless a link on the way points at an absolute
/// path, `..` drops the component before it, and the result is cleaned.
fn walk_symlinks(path: &str, cwd: &Path) -> Result<String, Walk> {
    let on_disk = |p: &str| cwd.join(p);
    let mut path = path.to_string();
    let mut root = path.starts_with('/');
    let mut dest = if root { "/".to_string() } else { String::new() };
    let base_len = |root: bool| usize::from(root);
    let mut links = 0;
    let mut start = base_len(root);
    while start < path.len() {
        let rest = &path[start..];
        let skipped = rest.len() - rest.trim_start_matches('/').len();
        let from = start + skipped;
        let end = path[from..].find('/').map_or(path.len(), |i| from + i);
        if from == end {
            break;
        }
        let piece = path[from..end].to_string();
        start = end;
        if piece == "." {
            continue;
        }
        let vol = base_len(root);
        if piece == ".." {
            match dest[vol..].rfind('/') {
                Some(r) if &dest[vol + r + 1..] != ".." => dest.truncate(vol + r),
                // No slash, or a `..` that had to be kept: keep this one too.
                _ => {
                    if dest.len() > vol {
                        dest.push('/');
                    }
                    dest.push_str("..");
                }
            }
            continue;
        }
        if dest.len() > vol && !dest.ends_with('/') {
            dest.push('/');
        }
        dest.push_str(&piece);
        let meta =
            std::fs::symlink_metadata(on_disk(&dest)).map_err(|e| Walk::Lstat(dest.clone(), e))?;
        if !meta.file_type().is_symlink() {
            if !meta.is_dir() && end < path.len() {
                return Err(Walk::Other("not a directory"));
            }
            continue;
        }
        links += 1;
        if links > 255 {
            return Err(Walk::Other("EvalSymlinks: too many links"));
        }
        let link = std::fs::read_link(on_disk(&dest)).map_err(|e| Walk::Lstat(dest.clone(), e))?;
        let link = link
            .to_str()
            .ok_or(Walk::Other("invalid argument"))?
            .to_string();
        path = format!("{link}{}", &path[end..]);
        if link.starts_with('/') {
            root = true;
            dest = "/".to_string();
            start = 1;
        } else {
            match dest[vol..].rfind('/') {
                Some(r) => dest.truncate(vol + r),
                None => dest.truncate(vol),
            }
            start = 0;
        }
    }
    Ok(go_clean(&dest))
}

/// Go's `filepath.Clean` of a `/`-separated path: `.` and empty pieces dropped, `..`
/// dropping the piece before it (kept at the start of a relative path, dropped at the
/// root), `.` for nothing.
fn go_clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for piece in path.split('/') {
        match piece {
            "" | "." => {}
            ".." => match out.last() {
                Some(&last) if last != ".." => {
                    out.pop();
                }
                _ if rooted => {}
                _ => out.push(".."),
            },
            p => out.push(p),
        }
    }
    match (rooted, out.is_empty()) {
        (true, _) => format!("/{}", out.join("/")),
        (false, true) => ".".into(),
        (false, false) => out.join("/"),
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
    fn paths_are_cleaned_as_go_cleans_them() {
        assert_eq!(go_clean("d/../../sl/shared/c.yml"), "../sl/shared/c.yml");
        assert_eq!(go_clean("/../a//b/./c/.."), "/a/b");
        assert_eq!(go_clean("a/.."), ".");
        assert_eq!(go_clean(""), ".");
    }

    #[test]
    fn io_errors_read_as_go_prints_them() {
        let e = std::fs::symlink_metadata("/nonexistent/x").unwrap_err();
        assert_eq!(go_io_error(&e), "no such file or directory");
    }
}
