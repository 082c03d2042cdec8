//! Files a command writes as one set: every file is first written in full to a temporary
//! file beside its target ([`Staged::add`]), and only when all of them are written are they
//! renamed into place ([`Staged::commit`]). A failure before the commit leaves no file
//! behind (the temporary files are removed on drop); a file whose bytes are already those
//! wanted is not touched, so releasing the same input twice changes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::package::PackageError;

/// Files written but not yet in place.
#[derive(Default)]
pub struct Staged {
    files: Vec<(tempfile::NamedTempFile, PathBuf)>,
    unchanged: Vec<PathBuf>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackageError + '_ {
    move |source| PackageError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Staged {
    /// Writes `bytes` for `path` (created with its parent directories on commit).
    pub fn add(&mut self, path: &Path, bytes: &[u8]) -> Result<(), PackageError> {
        if std::fs::read(path).is_ok_and(|old| old == bytes) {
            self.unchanged.push(path.to_path_buf());
            return Ok(());
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".strake-")
            .tempfile_in(&parent)
            .map_err(io(path))?;
        tmp.write_all(bytes).map_err(io(path))?;
        tmp.as_file().sync_all().map_err(io(path))?;
        set_mode(tmp.path()).map_err(io(path))?;
        self.files.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Moves every staged file into place; returns every path of the set.
    pub fn commit(self) -> Result<Vec<PathBuf>, PackageError> {
        let mut written = self.unchanged;
        for (tmp, path) in self.files {
            tmp.persist(&path).map_err(|e| PackageError::Io {
                path: path.clone(),
                source: e.error,
            })?;
            written.push(path);
        }
        Ok(written)
    }
}

/// Generated files are readable by everyone (0644), like files a user writes.
fn set_mode(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_appears_before_commit_and_dropping_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("x/a.yml");
        let mut staged = Staged::default();
        staged.add(&a, b"a: 1\n").unwrap();
        assert!(!a.exists());
        drop(staged);
        assert!(!a.exists());
        assert_eq!(std::fs::read_dir(dir.path().join("x")).unwrap().count(), 0);

        let mut staged = Staged::default();
        staged.add(&a, b"a: 1\n").unwrap();
        assert_eq!(staged.commit().unwrap(), vec![a.clone()]);
        assert_eq!(std::fs::read(&a).unwrap(), b"a: 1\n");
        let before = std::fs::metadata(&a).unwrap().modified().unwrap();
        let mut again = Staged::default();
        again.add(&a, b"a: 1\n").unwrap();
        again.commit().unwrap();
        assert_eq!(std::fs::metadata(&a).unwrap().modified().unwrap(), before);
    }
}
