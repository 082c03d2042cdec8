//! Blob entries of an archive written in place (the imgpkg tarball of
//! [`crate::copy::tar_out`] and the OCI layout tar of [`crate::copy::layout_tar`]),
//! continued after a stop.
//!
//! Each entry's body is written at its offset in the partial archive; every
//! [`PROGRESS_STEP`] bytes whose write finished, a `part <digest> <bytes>` line
//! is appended to the archive's journal (not synced). A blob counts as complete
//! only with a closing line, written after its bytes are verified: `done
//! <digest>` when the copy is durable (`--fsync`: the bytes, then that line,
//! are synced first), else `written <digest>` (nothing synced, as imgpkg, tar
//! and curl write their files; a process that is killed loses nothing the
//! kernel already has). A rerun trusts `done` entries and hashes each `written`
//! entry again from the partial archive before it keeps it, so an entry whose
//! bytes a power cut lost is written again. A rerun of the same copy continues
//! an entry from its last `part` line: those bytes are read back from the
//! partial archive and hashed again (they are not fetched again), the rest is
//! fetched from the source from that offset, and the whole body is verified
//! against the blob's digest before it is journalled complete. Bytes that do
//! not add up (a `part` line that outlived its data in a power cut) fail that
//! check, and the entry is written again from its first byte, so the archive
//! never holds an entry it claims but does not have.

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;

use crate::oci::digest::Hasher;
use crate::oci::piece_writer::PieceWriter;
use crate::oci::stream::check_size;
use crate::oci::{BlobStream, Descriptor, Digest, OciError, PartialBlob, Result};

/// Bytes written between two `part` lines of an entry.
pub const PROGRESS_STEP: u64 = 1 << 20;

/// The `part` lines of a journal: the bytes of each entry written so far (the
/// last line for each blob wins; lines that do not parse are skipped).
pub fn parse_parts(journal: &str) -> HashMap<Digest, u64> {
    let mut parts = HashMap::new();
    for line in journal.lines() {
        let Some(rest) = line.strip_prefix("part ") else {
            continue;
        };
        let Some((digest, bytes)) = rest.split_once(' ') else {
            continue;
        };
        if let (Ok(digest), Ok(bytes)) = (digest.parse::<Digest>(), bytes.trim().parse::<u64>()) {
            parts.insert(digest, bytes);
        }
    }
    parts
}

/// What the writers of one archive share: the partial file, its journal and
/// the set of complete blobs.
#[derive(Clone)]
pub struct ArchiveState {
    pub partial: PathBuf,
    pub journal: PathBuf,
    pub journal_file: Arc<Mutex<std::fs::File>>,
    pub done: Arc<Mutex<HashSet<Digest>>>,
    /// Bytes of each unfinished entry a stopped run wrote (its `part` lines).
    pub parts: Arc<HashMap<Digest, u64>>,
    /// Whether each finished entry is synced before it is journalled (`done`
    /// lines, trusted by a rerun), rather than journalled at once (`written`
    /// lines, checked again by a rerun).
    pub durable: bool,
}

impl ArchiveState {
    /// Appends one line to the journal, synced when `sync`.
    pub fn journal_line(&self, line: &str, sync: bool) -> Result<()> {
        let mut journal = self.journal_file.lock().unwrap_or_else(|p| p.into_inner());
        // One write call per line, so a line is never interleaved or split.
        journal
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| if sync { journal.sync_data() } else { Ok(()) })
            .map_err(|e| OciError::io(format!("writing {}", self.journal.display()), e))
    }

    /// Writes `data` (the entry's bytes from `start` on) into the body at
    /// `offset`, journalling progress, showing every chunk to `hasher` when
    /// given. Returns the archive file, not synced.
    pub async fn write_body(
        &self,
        digest: &Digest,
        offset: u64,
        start: u64,
        mut data: BlobStream,
        mut hasher: Option<&mut Hasher>,
        context: &str,
    ) -> Result<std::fs::File> {
        let io_error = |e| OciError::io(context.to_string(), e);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.partial)
            .map_err(io_error)?;
        let mut out = PieceWriter::new(file, offset + start);
        let mut journalled = start;
        let mut pushed = start;
        while let Some(chunk) = data.next().await {
            let chunk = match chunk {
                Ok(chunk) => chunk,
                Err(e) => {
                    // A source cut off: what it gave stays for the next attempt.
                    if out.finish(false).await.is_ok() && pushed > journalled {
                        let _ = self.journal_line(&format!("part {digest} {pushed}"), false);
                    }
                    return Err(e);
                }
            };
            pushed += chunk.len() as u64;
            if let Some(h) = hasher.as_deref_mut() {
                h.update(&chunk);
            }
            out.write(chunk).await.map_err(io_error)?;
            let written = out.written() - offset;
            if written >= journalled + PROGRESS_STEP {
                self.journal_line(&format!("part {digest} {written}"), false)?;
                journalled = written;
            }
        }
        out.finish(false).await.map_err(io_error)
    }

    /// Syncs the body when the archive is durable, then journals the blob
    /// complete and records it.
    pub async fn mark_done(
        &self,
        file: std::fs::File,
        digest: &Digest,
        context: &str,
    ) -> Result<()> {
        if self.durable {
            let context = context.to_string();
            tokio::task::spawn_blocking(move || file.sync_data())
                .await
                .map_err(|e| OciError::io(context.clone(), std::io::Error::other(e)))?
                .map_err(|e| OciError::io(context.clone(), e))?;
        }
        self.record_done(digest.clone())
    }

    /// Journals `digest` complete and records it: `done` (synced) when the
    /// archive is durable, and then its bytes must be synced already; else
    /// `written`.
    pub fn record_done(&self, digest: Digest) -> Result<()> {
        let word = if self.durable { "done" } else { "written" };
        self.journal_line(&format!("{word} {digest}"), self.durable)?;
        self.done_set().insert(digest);
        Ok(())
    }

    /// The set of complete blobs.
    fn done_set(&self) -> std::sync::MutexGuard<'_, HashSet<Digest>> {
        self.done.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `digest` is complete in the archive.
    pub fn is_done(&self, digest: &Digest) -> bool {
        self.done_set().contains(digest)
    }

    /// How many blobs are complete in the archive.
    pub fn done_count(&self) -> usize {
        self.done_set().len()
    }

    /// The complete blobs, as they are now.
    pub fn done_now(&self) -> HashSet<Digest> {
        self.done_set().clone()
    }

    /// The unfinished entry of `blob` a stopped run left some bytes of, hashed
    /// again from the partial archive; `offsets` is the archive's plan (each
    /// entry's body offset and size), and a blob it does not hold at that size
    /// has nothing to continue.
    pub async fn resume(
        &self,
        offsets: &HashMap<Digest, (u64, u64)>,
        blob: &Descriptor,
        location: String,
    ) -> Result<Option<Box<dyn PartialBlob>>> {
        let Some(&(offset, size)) = offsets.get(&blob.digest) else {
            return Ok(None);
        };
        if size != blob.size {
            return Ok(None);
        }
        let Some(&written) = self.parts.get(&blob.digest) else {
            return Ok(None);
        };
        if written == 0 || written > blob.size || self.is_done(&blob.digest) {
            return Ok(None);
        }
        let partial = self.partial.clone();
        let context = format!(
            "{location}: reading back the partial entry of {}",
            blob.digest
        );
        let hasher = tokio::task::spawn_blocking(move || rehash(&partial, offset, written))
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e)))
            .map_err(|e| OciError::io(context, e))?;
        Ok(Some(Box::new(ArchivePartial {
            state: self.clone(),
            blob: blob.clone(),
            body: offset,
            start: written,
            hasher,
            location,
        })))
    }
}

/// Hashes `len` bytes of `path` from `offset`.
pub fn rehash(path: &Path, offset: u64, len: u64) -> std::io::Result<Hasher> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path)?;
    let mut hasher = Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut at = 0;
    while at < len {
        let want = (len - at).min(buf.len() as u64) as usize;
        file.read_exact_at(&mut buf[..want], offset + at)?;
        hasher.update(&buf[..want]);
        at += want as u64;
    }
    Ok(hasher)
}

/// An unfinished entry: the blob's first `start` bytes are in the archive.
struct ArchivePartial {
    state: ArchiveState,
    blob: Descriptor,
    /// Where the entry's body starts in the archive.
    body: u64,
    start: u64,
    hasher: Hasher,
    location: String,
}

#[async_trait::async_trait]
impl PartialBlob for ArchivePartial {
    fn offset(&self) -> u64 {
        self.start
    }

    async fn complete(self: Box<Self>, rest: BlobStream) -> Result<()> {
        let ArchivePartial {
            state,
            blob,
            body,
            start,
            mut hasher,
            location,
        } = *self;
        let context = format!("{location}: writing blob {}", blob.digest);
        // The size is checked on the way, so the body never runs into the next entry.
        let rest = check_size(
            rest,
            blob.digest.clone(),
            blob.size - start,
            location.clone(),
        );
        let file = state
            .write_body(&blob.digest, body, start, rest, Some(&mut hasher), &context)
            .await?;
        let actual = hasher.finish();
        if actual != blob.digest {
            // Written again from its first byte by the caller.
            return Err(OciError::DigestMismatch {
                location,
                expected: blob.digest.clone(),
                actual,
                size: blob.size,
            });
        }
        state.mark_done(file, &blob.digest, &context).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::stream::bytes_stream;
    use bytes::Bytes;

    #[test]
    fn part_lines_give_the_last_count_of_each_blob() {
        let a = Digest::of(b"a");
        let b = Digest::of(b"b");
        let text = format!(
            "strake-imgpkg-tar v1 sha256:00\npart {a} 10\ndone {b}\npart {a} 20\npart {b} x\npart {b}\njunk\npart {a} 3"
        );
        let parts = parse_parts(&text);
        assert_eq!(parts.get(&a), Some(&3));
        assert_eq!(parts.get(&b), None);
    }

    fn state(dir: &Path, parts: HashMap<Digest, u64>) -> ArchiveState {
        let partial = dir.join("partial");
        let journal = dir.join("journal");
        if !partial.exists() {
            std::fs::write(&partial, vec![0u8; 8 << 20]).unwrap();
        }
        let journal_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&journal)
            .unwrap();
        ArchiveState {
            partial,
            journal,
            journal_file: Arc::new(Mutex::new(journal_file)),
            done: Arc::new(Mutex::new(HashSet::new())),
            parts: Arc::new(parts),
            durable: true,
        }
    }

    #[tokio::test]
    async fn an_entry_journalled_in_part_is_continued_and_verified() {
        let tmp = tempfile::tempdir().unwrap();
        let data: Vec<u8> = (0..(3 << 20) + 5).map(|i| (i % 249) as u8).collect();
        let data = Bytes::from(data);
        let blob = Descriptor {
            media_type: String::new(),
            digest: Digest::of(&data),
            size: data.len() as u64,
        };
        let first = state(tmp.path(), HashMap::new());
        // A first run writes 2.5 MiB of the body at offset 512, then stops.
        let pieces: Vec<Result<Bytes>> = (0..10)
            .map(|i| Ok(data.slice(i << 18..(i + 1) << 18)))
            .collect();
        first
            .write_body(
                &blob.digest,
                512,
                0,
                Box::pin(futures_util::stream::iter(pieces)),
                None,
                "t",
            )
            .await
            .unwrap();
        let text = std::fs::read_to_string(&first.journal).unwrap();
        let parts = parse_parts(&text);
        let written = parts[&blob.digest];
        assert!((1 << 20..=5 << 19).contains(&written), "{written}");
        // The rerun continues from the journalled count.
        let second = state(tmp.path(), parts);
        let offsets = HashMap::from([(blob.digest.clone(), (512, blob.size))]);
        let partial = second
            .resume(&offsets, &blob, "t".into())
            .await
            .unwrap()
            .expect("an entry to continue");
        assert_eq!(partial.offset(), written);
        partial
            .complete(bytes_stream(data.slice(written as usize..)))
            .await
            .unwrap();
        assert!(second.done.lock().unwrap().contains(&blob.digest));
        let archive = std::fs::read(&second.partial).unwrap();
        assert!(archive[512..512 + data.len()] == data[..]);
        let journal = std::fs::read_to_string(&second.journal).unwrap();
        assert!(
            journal.ends_with(&format!("done {}\n", blob.digest)),
            "{journal}"
        );
        // Done: nothing to continue any more.
        assert!(
            second
                .resume(&offsets, &blob, "t".into())
                .await
                .unwrap()
                .is_none()
        );
        // A count whose bytes are not the blob's fails the check and is not done.
        std::fs::write(&second.partial, vec![0u8; 8 << 20]).unwrap();
        let third = state(tmp.path(), HashMap::from([(blob.digest.clone(), written)]));
        let partial = third
            .resume(&offsets, &blob, "t".into())
            .await
            .unwrap()
            .unwrap();
        let err = partial
            .complete(bytes_stream(data.slice(written as usize..)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not match its digest"), "{err}");
        assert!(third.done.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_source_cut_off_leaves_a_part_line_for_what_it_gave() {
        let tmp = tempfile::tempdir().unwrap();
        let digest = Digest::of(b"x");
        let first = state(tmp.path(), HashMap::new());
        let cut: BlobStream = Box::pin(futures_util::stream::iter(vec![
            Ok(Bytes::from(vec![7u8; 3000])),
            Err(OciError::io("source", std::io::Error::other("cut off"))),
        ]));
        let Err(err) = first.write_body(&digest, 0, 100, cut, None, "t").await else {
            panic!("the cut-off source fails the write");
        };
        assert!(err.to_string().contains("cut off"));
        let text = std::fs::read_to_string(&first.journal).unwrap();
        assert_eq!(parse_parts(&text).get(&digest), Some(&3100));
        assert_eq!(
            std::fs::read(&first.partial).unwrap()[100..3100],
            [7u8; 3000]
        );
    }
}
