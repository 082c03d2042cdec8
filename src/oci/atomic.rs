//! Crash-safe file writes shared by the OCI layout and the tarball writer: a blob
//! stream is spooled into a temporary file next to its destination while it is
//! verified, and only a complete, verified file is renamed into place. Small files
//! (`index.json`) are written to a temporary name and renamed the same way.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use tempfile::TempPath;

use crate::oci::digest::Hasher;
use crate::oci::piece_writer::PieceWriter;
use crate::oci::stream::{BlobStream, verify_stream};
use crate::oci::{Digest, OciError, Result};

/// Prefix of every temporary file strake creates; readers skip such names.
pub const TEMP_PREFIX: &str = ".strake-tmp-";

/// Prefix of the partial blobs an OCI layout keeps for a rerun to continue
/// (`crate::oci::layout_partial`); a [`TEMP_PREFIX`] name, so readers skip them,
/// but [`remove_stale_temp_files`] leaves them.
pub const PARTIAL_PREFIX: &str = ".strake-tmp-partial-";

/// Size of the chunks blobs are read from disk in (bounded memory per stream).
pub const READ_CHUNK: usize = 64 * 1024;

/// Creates an empty temporary file in `dir` (deleted again when the returned path is
/// dropped). The file is locked (`flock`) while it is written, so that
/// [`remove_stale_temp_files`] tells it from the leftover of a killed process.
fn temp_file_in(dir: &Path) -> Result<(std::fs::File, TempPath)> {
    let context = || format!("creating a temporary file in {}", dir.display());
    let named = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| OciError::io(context(), e))?;
    named
        .as_file()
        .lock()
        .map_err(|e| OciError::io(context(), e))?;
    Ok(named.into_parts())
}

/// Writes `data` into a new temporary file in `dir`, verifying it against
/// `digest` and `size` on the way. Returns the temporary path of the
/// complete, synced file; on any error the temporary file is already removed.
pub async fn spool_verified(
    dir: &Path,
    digest: &Digest,
    size: u64,
    data: BlobStream,
    location: &str,
) -> Result<TempPath> {
    let stream = verify_stream(data, digest.clone(), Some(size), location.to_string());
    spool_checked(dir, digest, stream, location).await
}

/// [`spool_verified`] for a stream that is verified (digest and size) already,
/// such as [`VerifiedBlob::checked_for`](crate::oci::VerifiedBlob::checked_for)'s.
pub async fn spool_checked(
    dir: &Path,
    digest: &Digest,
    checked: BlobStream,
    location: &str,
) -> Result<TempPath> {
    let context = format!("{location}: writing blob {digest}");
    spool(dir, checked, &context, |_| {}).await
}

/// Writes `data` into a new temporary file in `dir`, hashing it on the way, for a
/// blob whose digest is only known at its end. Returns the temporary path of the
/// complete, synced file with the digest and size of what was written; on any
/// error (including an error that ends `data`) the temporary file is removed.
pub async fn spool_hashed(
    dir: &Path,
    data: BlobStream,
    location: &str,
) -> Result<(TempPath, Digest, u64)> {
    let mut hasher = Hasher::new();
    let context = format!("{location}: writing a blob");
    let path = spool(dir, data, &context, |chunk| hasher.update(chunk)).await?;
    let size = hasher.size();
    Ok((path, hasher.finish(), size))
}

/// Copies `stream` into a new synced temporary file in `dir`, showing every chunk to
/// `inspect` first; the file is removed again on any error (`context` names it).
async fn spool(
    dir: &Path,
    mut stream: BlobStream,
    context: &str,
    mut inspect: impl FnMut(&[u8]),
) -> Result<TempPath> {
    let (file, path) = temp_file_in(dir)?;
    let io_error = |e| OciError::io(context.to_string(), e);
    let mut out = PieceWriter::new(file, 0);
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        inspect(&chunk);
        out.write(chunk).await.map_err(io_error)?;
    }
    out.finish(true).await.map_err(io_error)?;
    Ok(path)
}

/// Renames a finished temporary file to `dest` (replacing it).
pub fn commit(path: TempPath, dest: &Path) -> Result<()> {
    path.persist(dest).map_err(|e| {
        OciError::io(
            format!("moving a finished file into place at {}", dest.display()),
            e.error,
        )
    })
}

/// Writes `bytes` to `dest` through a temporary file in the same directory and a
/// rename, so `dest` is either the old or the new content, never a mix. With `mode`, the
/// file gets those permission bits (the default is the temporary file's 0600). The one
/// helper for writing a whole file in place.
pub fn replace_file(dest: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    write_through_temp(
        dest,
        bytes,
        tempfile::Builder::new(),
        mode.map(std::fs::Permissions::from_mode),
    )
}

/// [`replace_file`] for a file a user's tool writes, with the modes a plain
/// `open(O_CREAT|O_TRUNC)` would leave: an existing `dest` keeps its permission bits,
/// a new one gets `create_mode` less the process umask. Still all or nothing: the
/// content goes through a temporary file and a rename.
pub fn replace_file_keeping_mode(
    dest: &Path,
    bytes: &[u8],
    create_mode: u32,
) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let existing = std::fs::metadata(dest).ok().filter(|m| m.is_file());
    let mut builder = tempfile::Builder::new();
    if existing.is_none() {
        // Applied at creation, so the kernel takes the umask off as open(2) does.
        builder.permissions(std::fs::Permissions::from_mode(create_mode));
    }
    write_through_temp(dest, bytes, builder, existing.map(|m| m.permissions()))
}

/// The temporary file (made by `builder` beside `dest`, locked), its bytes, then
/// `permissions` if any, a sync and the rename onto `dest`.
fn write_through_temp(
    dest: &Path,
    bytes: &[u8],
    mut builder: tempfile::Builder<'_, '_>,
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut temp = builder.prefix(TEMP_PREFIX).tempfile_in(parent_dir(dest))?;
    temp.as_file().lock()?;
    temp.write_all(bytes)?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    temp.persist(dest).map(drop).map_err(|e| e.error)
}

/// [`replace_file`] from async code (the write runs on a blocking thread).
pub async fn write_file(dest: &Path, bytes: &[u8]) -> Result<()> {
    let (path, data) = (dest.to_path_buf(), bytes.to_vec());
    tokio::task::spawn_blocking(move || replace_file(&path, &data, None))
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)))
        .map_err(|e| OciError::io(format!("writing {}", dest.display()), e))
}

/// Removes the temporary files a killed process left in `dir` (the partial
/// blobs of a copy stopped half-way): those no live writer holds locked, but
/// not the partial blobs ([`PARTIAL_PREFIX`]) a rerun continues.
/// Returns how many were removed.
pub fn remove_stale_temp_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(TEMP_PREFIX)
            || name.starts_with(PARTIAL_PREFIX)
            || !entry.file_type().is_ok_and(|t| t.is_file())
        {
            continue;
        }
        let path = entry.path();
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::stream::bytes_stream;
    use bytes::Bytes;

    #[test]
    fn stale_temporary_files_go_and_those_being_written_stay() {
        let dir = tempfile::tempdir().unwrap();
        let (_writing, writing_path) = temp_file_in(dir.path()).unwrap();
        let stale = dir
            .path()
            .join(format!("{TEMP_PREFIX}left-by-a-killed-copy"));
        std::fs::write(&stale, b"partial").unwrap();
        let other = dir.path().join("index.json");
        std::fs::write(&other, b"{}").unwrap();
        assert_eq!(remove_stale_temp_files(dir.path()), 1);
        assert!(!stale.exists() && writing_path.exists() && other.exists());
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[tokio::test]
    async fn bad_blob_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let digest = Digest::of(b"hello");
        let err = spool_verified(
            dir.path(),
            &digest,
            5,
            bytes_stream(Bytes::from_static(b"hellO")),
            "t",
        )
        .await
        .unwrap_err();
        assert!(
            err.to_string().contains("does not match its digest"),
            "{err}"
        );
        assert!(leftovers(dir.path()).is_empty());
    }

    #[tokio::test]
    async fn good_blob_is_committed_and_write_file_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let digest = Digest::of(b"hello");
        let path = spool_verified(
            dir.path(),
            &digest,
            5,
            bytes_stream(Bytes::from_static(b"hello")),
            "t",
        )
        .await
        .unwrap();
        let dest = dir.path().join("blob");
        commit(path, &dest).unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        write_file(&dest, b"new").await.unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"new");
        assert_eq!(leftovers(dir.path()), vec!["blob".to_string()]);
    }
}
