//! Partial blobs of an OCI layout directory that a rerun continues.
//!
//! A blob written into a layout goes to one partial file per blob, named after
//! its digest (`.strake-tmp-partial-<alg>-<hex>` in the layout's root) and locked
//! (`flock`) while it is written, so that a copy stopped half-way leaves its
//! first bytes there. The rerun ([`resume`]) takes the lock, hashes those bytes
//! again locally (they are not fetched again), the caller reads the rest from
//! the source from that offset, and [`LayoutPartial::complete`] appends it,
//! checks the digest and size of the whole blob, and renames the file into
//! `blobs/`. A partial whose bytes do not add up to the digest is removed and the
//! blob written again from its first byte. A partial another live writer holds
//! locked is left alone (the blob then goes through a temporary file of its
//! own); partials no copy continued are removed when the layout is finished,
//! and a write given up inside the process (its future dropped) removes its own.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use futures_util::StreamExt;

use crate::oci::atomic::{self, PARTIAL_PREFIX};
use crate::oci::digest::Hasher;
use crate::oci::piece_writer::PieceWriter;
use crate::oci::{BlobStream, Descriptor, OciError, PartialBlob, Result};

/// The partial file of `descriptor`'s blob in the layout at `dir`.
pub fn partial_path(dir: &Path, descriptor: &Descriptor) -> PathBuf {
    let digest = &descriptor.digest;
    dir.join(format!(
        "{PARTIAL_PREFIX}{}-{}",
        digest.algorithm(),
        digest.hex()
    ))
}

/// Whether `name` is a partial blob's (kept across runs, unlike other
/// temporary files).
pub fn is_partial_name(name: &str) -> bool {
    name.starts_with(PARTIAL_PREFIX)
}

/// Opens (creating it) and locks the partial file at `path`; `None` when
/// another writer holds it.
fn open_locked(path: &Path, create: bool) -> std::io::Result<Option<std::fs::File>> {
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .truncate(false)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if !create && e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Writes a blob from `checked` (verified on the way: digest and size) into its
/// partial file from the first byte, and renames it to `dest` once complete.
/// When another writer holds the partial nothing is written and the stream is
/// handed back (`Ok(Some(checked))`).
/// A stream that ends in a content error removes the partial; after other
/// errors (a source cut off) it is kept for the next attempt to continue.
pub async fn write_whole(
    dir: &Path,
    descriptor: &Descriptor,
    dest: &Path,
    checked: BlobStream,
    location: &str,
) -> Result<Option<BlobStream>> {
    let path = partial_path(dir, descriptor);
    let context = format!("{location}: writing blob {}", descriptor.digest);
    // Opened in place, not on a blocking thread: a writer cancelled while a
    // blocking open was still running would leave a partial that no guard removes.
    // The open and the lock attempt do not wait.
    let opened = open_locked(&path, true).and_then(|file| {
        if let Some(f) = &file {
            f.set_len(0)?;
        }
        Ok(file)
    });
    let Some(file) = opened.map_err(|e| OciError::io(context.clone(), e))? else {
        return Ok(Some(checked));
    };
    let guard = RemoveIfDropped(Some(path.clone()));
    let written = write_from(file, 0, checked, |_| Ok(()), &context).await;
    guard.disarm();
    finish(written, &path, dest, &context).map(|()| None)
}

/// Writes `data` into `file` from `offset`, showing each chunk to `inspect`,
/// and syncs it.
async fn write_from(
    file: std::fs::File,
    offset: u64,
    mut data: BlobStream,
    mut inspect: impl FnMut(&[u8]) -> Result<()>,
    context: &str,
) -> Result<std::fs::File> {
    let io_error = |e| OciError::io(context.to_string(), e);
    let mut out = PieceWriter::new(file, offset);
    while let Some(chunk) = data.next().await {
        match chunk.and_then(|c| inspect(&c).map(|()| c)) {
            Ok(chunk) => out.write(chunk).await.map_err(io_error)?,
            Err(e) => {
                // What was written stays whole (and the file is closed, its
                // lock released) for the next attempt to continue.
                let _ = out.finish(false).await;
                return Err(e);
            }
        }
    }
    out.finish(true).await.map_err(io_error)
}

/// Renames the written partial into place, or, when the bytes were wrong,
/// removes it.
fn finish(written: Result<std::fs::File>, path: &Path, dest: &Path, context: &str) -> Result<()> {
    match written {
        Ok(file) => {
            let dir = atomic::parent_dir(dest);
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::rename(path, dest))
                .map_err(|e| OciError::io(format!("{context}: moving it into place"), e))?;
            drop(file);
            Ok(())
        }
        Err(e) => {
            if matches!(
                e,
                OciError::DigestMismatch { .. } | OciError::SizeMismatch { .. }
            ) {
                let _ = std::fs::remove_file(path);
            }
            Err(e)
        }
    }
}

/// The partial blob a stopped writer left for `descriptor`, hashed again, when
/// there is one that no live writer holds and that holds some bytes.
pub async fn resume(
    dir: &Path,
    descriptor: &Descriptor,
    dest: PathBuf,
    location: String,
) -> Result<Option<LayoutPartial>> {
    let path = partial_path(dir, descriptor);
    let size = descriptor.size;
    let context = format!("{location}: reading the partial blob {}", path.display());
    let found = {
        let path = path.clone();
        tokio::task::spawn_blocking(move || -> std::io::Result<_> {
            let Some(mut file) = open_locked(&path, false)? else {
                return Ok(None);
            };
            let len = file.metadata()?.len();
            if len == 0 || len > size {
                return Ok(None);
            }
            let mut hasher = Hasher::new();
            let mut buf = vec![0u8; 1 << 20];
            let mut left = len;
            while left > 0 {
                let want = left.min(buf.len() as u64) as usize;
                file.read_exact(&mut buf[..want])?;
                hasher.update(&buf[..want]);
                left -= want as u64;
            }
            Ok(Some((file, hasher)))
        })
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)))
        .map_err(|e| OciError::io(context, e))?
    };
    Ok(found.map(|(file, hasher)| LayoutPartial {
        file,
        offset: hasher.size(),
        hasher,
        path,
        dest,
        descriptor: descriptor.clone(),
        location,
    }))
}

/// A locked partial blob holding the blob's first `offset` bytes.
pub struct LayoutPartial {
    file: std::fs::File,
    hasher: Hasher,
    offset: u64,
    path: PathBuf,
    dest: PathBuf,
    descriptor: Descriptor,
    location: String,
}

#[async_trait::async_trait]
impl PartialBlob for LayoutPartial {
    fn offset(&self) -> u64 {
        self.offset
    }

    async fn complete(self: Box<Self>, rest: BlobStream) -> Result<()> {
        let LayoutPartial {
            file,
            mut hasher,
            offset,
            path,
            dest,
            descriptor,
            location,
        } = *self;
        let context = format!("{location}: writing blob {}", descriptor.digest);
        let guard = RemoveIfDropped(Some(path.clone()));
        let too_long = |seen: u64| OciError::SizeMismatch {
            location: location.clone(),
            digest: descriptor.digest.clone(),
            expected: descriptor.size,
            actual: seen,
        };
        let written = write_from(
            file,
            offset,
            rest,
            |chunk| {
                hasher.update(chunk);
                if hasher.size() > descriptor.size {
                    return Err(too_long(hasher.size()));
                }
                Ok(())
            },
            &context,
        )
        .await
        .and_then(|file| {
            let seen = hasher.size();
            if seen != descriptor.size {
                return Err(too_long(seen));
            }
            let actual = hasher.finish();
            if actual != descriptor.digest {
                return Err(OciError::DigestMismatch {
                    location: location.clone(),
                    expected: descriptor.digest.clone(),
                    actual,
                    size: seen,
                });
            }
            Ok(file)
        });
        guard.disarm();
        finish(written, &path, &dest, &context)
    }
}

/// Removes a partial whose writer is dropped half-way inside the process (a
/// sibling transfer failed and the copy gives up): only a process that is
/// killed leaves its partial blobs for the rerun.
struct RemoveIfDropped(Option<PathBuf>);

impl RemoveIfDropped {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for RemoveIfDropped {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Removes the partial blobs in `dir` that no live writer holds (what stopped
/// copies left and no rerun continued). Returns how many were removed.
pub fn remove_orphans(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !is_partial_name(&entry.file_name().to_string_lossy()) {
            continue;
        }
        let path = entry.path();
        if let Ok(Some(_locked)) = open_locked(&path, false)
            && std::fs::remove_file(&path).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::Digest;
    use crate::oci::stream::bytes_stream;
    use bytes::Bytes;

    fn blob() -> (Bytes, Descriptor) {
        let data: Vec<u8> = (0..(3 << 20) + 17).map(|i| (i * 7 % 251) as u8).collect();
        let data = Bytes::from(data);
        let descriptor = Descriptor {
            media_type: String::new(),
            digest: Digest::of(&data),
            size: data.len() as u64,
        };
        (data, descriptor)
    }

    #[tokio::test]
    async fn a_partial_is_hashed_again_continued_verified_and_renamed() {
        let tmp = tempfile::tempdir().unwrap();
        let (data, descriptor) = blob();
        let dest = tmp.path().join("blobs/sha256/x");
        let path = partial_path(tmp.path(), &descriptor);
        std::fs::write(&path, &data[..1_000_000]).unwrap();
        let partial = resume(tmp.path(), &descriptor, dest.clone(), "t".into())
            .await
            .unwrap()
            .expect("a partial");
        assert_eq!(partial.offset(), 1_000_000);
        // Locked while it is continued: another writer keeps away.
        assert!(open_locked(&path, false).unwrap().is_none());
        Box::new(partial)
            .complete(bytes_stream(data.slice(1_000_000..)))
            .await
            .unwrap();
        assert!(std::fs::read(&dest).unwrap() == data);
        assert!(!path.exists());
    }

    #[tokio::test]
    async fn a_partial_that_does_not_add_up_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let (data, descriptor) = blob();
        let dest = tmp.path().join("blobs/sha256/x");
        let path = partial_path(tmp.path(), &descriptor);
        let mut wrong = data[..500].to_vec();
        wrong[3] ^= 1;
        std::fs::write(&path, &wrong).unwrap();
        let partial = resume(tmp.path(), &descriptor, dest.clone(), "t".into())
            .await
            .unwrap()
            .unwrap();
        let err = Box::new(partial)
            .complete(bytes_stream(data.slice(500..)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not match its digest"), "{err}");
        assert!(!path.exists() && !dest.exists());
        // Too many bytes: refused on the way, removed too.
        std::fs::write(&path, &data[..500]).unwrap();
        let partial = resume(tmp.path(), &descriptor, dest.clone(), "t".into())
            .await
            .unwrap()
            .unwrap();
        let mut long = data[500..].to_vec();
        long.push(0);
        let err = Box::new(partial)
            .complete(bytes_stream(Bytes::from(long)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected"), "{err}");
        assert!(!path.exists() && !dest.exists());
    }

    #[tokio::test]
    async fn empty_oversized_and_locked_partials_are_not_continued() {
        let tmp = tempfile::tempdir().unwrap();
        let (data, descriptor) = blob();
        let dest = tmp.path().join("d");
        let resumed = || resume(tmp.path(), &descriptor, dest.clone(), "t".into());
        assert!(resumed().await.unwrap().is_none(), "no partial");
        let path = partial_path(tmp.path(), &descriptor);
        std::fs::write(&path, b"").unwrap();
        assert!(resumed().await.unwrap().is_none(), "empty");
        let mut long = data.to_vec();
        long.push(1);
        std::fs::write(&path, &long).unwrap();
        assert!(resumed().await.unwrap().is_none(), "longer than the blob");
        std::fs::write(&path, &data[..10]).unwrap();
        let held = open_locked(&path, false).unwrap().unwrap();
        assert!(resumed().await.unwrap().is_none(), "held by a live writer");
        assert_eq!(remove_orphans(tmp.path()), 0, "a held partial stays");
        drop(held);
        assert_eq!(remove_orphans(tmp.path()), 1);
        assert!(!path.exists());
    }

    #[tokio::test]
    async fn a_write_dropped_half_way_removes_its_partial() {
        let tmp = tempfile::tempdir().unwrap();
        let (data, descriptor) = blob();
        let dest = tmp.path().join("blobs/sha256/x");
        let stalled: BlobStream = Box::pin(
            futures_util::stream::iter(vec![Ok(data.slice(..1 << 20))])
                .chain(futures_util::stream::pending()),
        );
        let write = write_whole(tmp.path(), &descriptor, &dest, stalled, "t");
        assert!(
            tokio::time::timeout(std::time::Duration::from_millis(300), write)
                .await
                .is_err()
        );
        assert!(!partial_path(tmp.path(), &descriptor).exists());
    }

    #[tokio::test]
    async fn a_whole_write_keeps_what_it_wrote_when_the_source_is_cut_off() {
        let tmp = tempfile::tempdir().unwrap();
        let (data, descriptor) = blob();
        let dest = tmp.path().join("blobs/sha256/x");
        let cut: BlobStream = Box::pin(futures_util::stream::iter(vec![
            Ok(data.slice(..2 << 20)),
            Err(OciError::io("source", std::io::Error::other("cut off"))),
        ]));
        let Err(err) = write_whole(tmp.path(), &descriptor, &dest, cut, "t").await else {
            panic!("a cut-off source fails the write");
        };
        let err = err.to_string();
        assert!(err.contains("cut off"), "{err}");
        let partial = resume(tmp.path(), &descriptor, dest.clone(), "t".into())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(partial.offset(), 2 << 20);
        drop(partial);
        let handed_back = write_whole(
            tmp.path(),
            &descriptor,
            &dest,
            bytes_stream(data.clone()),
            "t",
        )
        .await
        .unwrap();
        assert!(handed_back.is_none());
        assert!(std::fs::read(&dest).unwrap() == data);
        assert_eq!(remove_orphans(tmp.path()), 0);
    }
}
