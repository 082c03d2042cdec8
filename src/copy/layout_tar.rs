//! `--to-oci-layout FILE.tar`: a tar of an OCI image layout (`oci-layout`,
//! `blobs/sha256/<hex>`, `index.json`), the archive skopeo reads as
//! `oci-archive:FILE.tar`, written in place like the imgpkg tarball
//! ([`crate::copy::tar_out`]). Every manifest and `index.json` are known before
//! the first blob moves (the manifests and tags are those [`write_manifests`]
//! gives a layout directory, recorded by [`IndexRecorder`]), and so are every
//! entry's size and offset. The archive is created under a hidden partial name
//! next to the output with its headers, small files and end blocks; each blob's
//! body is then streamed straight to its offset. A journal beside it records each
//! blob once its bytes are verified (and synced, with `--fsync`), so a rerun of the same copy keeps
//! the finished entries and moves only the rest (continuing the entries that were
//! in flight, see [`crate::copy::archive_entry`]); a different plan starts afresh.
//! Only a complete archive is renamed to the output name.
//!
//! [`write_manifests`]: crate::copy::relocate::write_manifests

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use bytes::Bytes;
use serde_json::Value;

use crate::copy::Result;
use crate::copy::archive_entry::ArchiveState;
use crate::copy::archive_frame::Frame;
use crate::copy::tar_out::{ResumedArchive, finish_archive};
use crate::copy::transfer::BlobSink;
use crate::oci::layout::{index_json, index_put, layout_marker};
use crate::oci::tarball::ustar;
use crate::oci::{
    BlobStream, Descriptor, Digest, ManifestBytes, OciError, PartialBlob, Store, VerifiedBlob,
};

const JOURNAL_MAGIC: &str = "strake-oci-layout-tar v1";

/// A [`Store`] that keeps the manifests and `index.json` entries written to it,
/// in memory, exactly as a [`crate::oci::layout::LayoutStore`] would list them.
/// It holds no blobs.
pub struct IndexRecorder {
    location: String,
    state: Mutex<Recorded>,
}

#[derive(Default)]
struct Recorded {
    manifests: BTreeMap<Digest, ManifestBytes>,
    index: Vec<Value>,
}

impl IndexRecorder {
    pub fn new(location: impl Into<String>) -> IndexRecorder {
        IndexRecorder {
            location: location.into(),
            state: Mutex::new(Recorded::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Recorded> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The manifests written, and the bytes of `index.json`.
    pub fn into_parts(self) -> (Vec<ManifestBytes>, Vec<u8>) {
        let recorded = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        (
            recorded.manifests.into_values().collect(),
            index_json(recorded.index),
        )
    }
}

#[async_trait::async_trait]
impl Store for IndexRecorder {
    fn location(&self) -> String {
        self.location.clone()
    }

    async fn blob_size(&self, digest: &Digest) -> crate::oci::Result<Option<u64>> {
        Ok(self
            .lock()
            .manifests
            .get(digest)
            .map(|m| m.bytes.len() as u64))
    }

    async fn get_blob(&self, digest: &Digest) -> crate::oci::Result<BlobStream> {
        match self.lock().manifests.get(digest) {
            Some(m) => Ok(crate::oci::stream::bytes_stream(m.bytes.clone())),
            None => Err(OciError::BlobUnknown {
                location: self.location(),
                digest: digest.clone(),
            }),
        }
    }

    async fn put_blob(&self, descriptor: &Descriptor, _data: BlobStream) -> crate::oci::Result<()> {
        Err(OciError::Invalid {
            location: self.location(),
            detail: format!(
                "blob {} must be planned before the archive is written",
                descriptor.digest
            ),
        })
    }

    async fn resolve(&self, reference: &str) -> crate::oci::Result<Option<Descriptor>> {
        let state = self.lock();
        if let Ok(digest) = reference.parse::<Digest>() {
            return Ok(state.manifests.get(&digest).map(ManifestBytes::descriptor));
        }
        Ok(state
            .index
            .iter()
            .rev()
            .find(|e| {
                e["annotations"][crate::oci::layout::REF_NAME_ANNOTATION].as_str()
                    == Some(reference)
            })
            .and_then(|e| e["digest"].as_str()?.parse::<Digest>().ok())
            .and_then(|d| state.manifests.get(&d).map(ManifestBytes::descriptor)))
    }

    async fn get_manifest(&self, reference: &str) -> crate::oci::Result<ManifestBytes> {
        let descriptor =
            self.resolve(reference)
                .await?
                .ok_or_else(|| OciError::ManifestUnknown {
                    location: self.location(),
                    reference: reference.to_string(),
                })?;
        Ok(self.lock().manifests[&descriptor.digest].clone())
    }

    async fn put_manifest(
        &self,
        manifest: &ManifestBytes,
        tag: Option<&str>,
    ) -> crate::oci::Result<()> {
        manifest.check_digest(&self.location())?;
        let mut state = self.lock();
        index_put(&mut state.index, &manifest.descriptor(), tag);
        state
            .manifests
            .insert(manifest.digest.clone(), manifest.clone());
        Ok(())
    }

    async fn list_tags(&self) -> crate::oci::Result<Vec<String>> {
        let mut tags: Vec<String> = self
            .lock()
            .index
            .iter()
            .filter_map(|e| {
                e["annotations"][crate::oci::layout::REF_NAME_ANNOTATION]
                    .as_str()
                    .map(str::to_string)
            })
            .collect();
        tags.sort();
        tags.dedup();
        Ok(tags)
    }
}

/// One entry of the archive.
#[derive(Clone, Debug)]
enum Body {
    Dir,
    /// A small file written with the headers (`oci-layout`, manifests, `index.json`).
    Inline(Bytes),
    /// A blob streamed in by [`BlobSink::put`].
    Blob(Descriptor),
}

#[derive(Clone, Debug)]
struct Placed {
    name: String,
    body: Body,
    /// Offset of the body (its header is the block before).
    offset: u64,
}

impl Placed {
    fn size(&self) -> u64 {
        match &self.body {
            Body::Dir => 0,
            Body::Inline(bytes) => bytes.len() as u64,
            Body::Blob(d) => d.size,
        }
    }
}

/// The archive's contents and where each entry goes, decided before anything
/// is written.
pub struct LayoutTarPlan {
    entries: Vec<Placed>,
    total_size: u64,
}

fn blob_name(digest: &Digest) -> String {
    format!("blobs/{}/{}", digest.algorithm(), digest.hex())
}

impl LayoutTarPlan {
    /// `oci-layout`, the blob folders, every blob and manifest once (by
    /// digest), then `index.json`.
    pub fn new(blobs: &[Descriptor], manifests: &[ManifestBytes], index: Vec<u8>) -> LayoutTarPlan {
        let mut files: BTreeMap<String, Body> = BTreeMap::new();
        for blob in blobs {
            files.insert(blob_name(&blob.digest), Body::Blob(blob.clone()));
        }
        for manifest in manifests {
            files.insert(
                blob_name(&manifest.digest),
                Body::Inline(manifest.bytes.clone()),
            );
        }
        let mut algorithms: Vec<String> = files
            .keys()
            .filter_map(|n| n.split('/').nth(1).map(str::to_string))
            .collect();
        algorithms.dedup();
        let mut order = vec![
            (
                "oci-layout".to_string(),
                Body::Inline(layout_marker().into()),
            ),
            ("blobs/".to_string(), Body::Dir),
        ];
        order.extend(
            algorithms
                .into_iter()
                .map(|a| (format!("blobs/{a}/"), Body::Dir)),
        );
        order.extend(files);
        order.push(("index.json".to_string(), Body::Inline(index.into())));
        let mut offset = 0;
        let mut entries = Vec::new();
        for (name, body) in order {
            let placed = Placed {
                name,
                body,
                offset: offset + ustar::BLOCK,
            };
            offset = placed.offset + ustar::padded(placed.size());
            entries.push(placed);
        }
        LayoutTarPlan {
            entries,
            total_size: offset + 2 * ustar::BLOCK,
        }
    }

    /// A fingerprint of where the blobs go, to tell whether a partial file's
    /// finished blobs are still in the right places (the small files are
    /// rewritten on every open, so a changed tag alone keeps them).
    fn fingerprint(&self) -> Digest {
        let mut text = String::new();
        for e in &self.entries {
            if let Body::Blob(d) = &e.body {
                text.push_str(&format!("{} {} {}\n", d.digest, d.size, e.offset));
            }
        }
        Digest::of(text.as_bytes())
    }

    /// The archive's size in bytes.
    pub fn total_size(&self) -> u64 {
        self.total_size
    }
}

/// An OCI layout tar being written (a [`BlobSink`] for its blobs).
pub struct LayoutTarOut {
    path: PathBuf,
    /// Blob digest → (body offset, size).
    offsets: HashMap<Digest, (u64, u64)>,
    /// Digests written with the headers (manifests): nothing to move.
    inline: HashSet<Digest>,
    state: ArchiveState,
}

impl LayoutTarOut {
    /// Opens the partial archive for `plan`: continues one an earlier run of the
    /// same copy left, else starts a new one. Headers, small files and the end
    /// blocks are (re)written now; blob bodies by [`BlobSink::put`]. `durable`
    /// syncs each blob before it is journalled, and the archive before it is
    /// renamed into place (`--fsync`).
    pub fn open(path: &Path, plan: &LayoutTarPlan, durable: bool) -> Result<LayoutTarOut> {
        let offsets: HashMap<Digest, (u64, u64)> = plan
            .entries
            .iter()
            .filter_map(|e| match &e.body {
                Body::Blob(d) => Some((d.digest.clone(), (e.offset, d.size))),
                _ => None,
            })
            .collect();
        let inline: HashSet<Digest> = plan
            .entries
            .iter()
            .filter(|e| matches!(e.body, Body::Inline(_)))
            .filter_map(|e| {
                let hex = e.name.strip_prefix("blobs/")?.replacen('/', ":", 1);
                hex.parse::<Digest>().ok()
            })
            .collect();
        let header_line = format!("{JOURNAL_MAGIC} {}", plan.fingerprint());
        let resumed =
            ResumedArchive::open(path, &header_line, &offsets, durable, "OCI layout tar")?;
        write_frame(&resumed.files.partial, plan, durable)?;
        let (state, _) = resumed.into_state();
        Ok(LayoutTarOut {
            path: path.to_path_buf(),
            offsets,
            inline,
            state,
        })
    }

    /// Blobs already complete in the partial archive.
    pub fn kept(&self) -> usize {
        self.state.done_count()
    }

    /// Checks that every blob is in and renames the archive into place
    /// ([`finish_archive`], shared with the imgpkg tarball). Nothing to wait for
    /// first: each blob is journalled (after its sync, when durable) in
    /// [`BlobSink::put`] itself, where the imgpkg tarball syncs its layers in the
    /// background.
    pub fn complete(self) -> Result<()> {
        finish_archive(&self.path, &self.state, &self.offsets, "oci:", "blob")
    }
}

/// Writes the frame (see [`crate::copy::archive_frame`]): every header, the
/// small files and the padding after each blob; bodies of finished blobs are
/// left as they are.
fn write_frame(partial: &Path, plan: &LayoutTarPlan, durable: bool) -> Result<()> {
    let frame = Frame::open(partial, plan.total_size)?;
    for entry in &plan.entries {
        match &entry.body {
            Body::Dir => frame.dir(&entry.name, entry.offset)?,
            Body::Inline(bytes) => frame.file(&entry.name, bytes, entry.offset)?,
            Body::Blob(d) => frame.streamed(&entry.name, d.size, entry.offset)?,
        }
    }
    frame.finish(durable)
}

#[async_trait::async_trait]
impl BlobSink for LayoutTarOut {
    fn location(&self) -> String {
        format!("oci:{}", self.path.display())
    }

    async fn has(&self, blob: &Descriptor) -> crate::oci::Result<bool> {
        if self.inline.contains(&blob.digest) {
            return Ok(true);
        }
        if !self.offsets.contains_key(&blob.digest) {
            return Err(OciError::Invalid {
                location: self.location(),
                detail: format!("blob {} is not in the archive's plan", blob.digest),
            });
        }
        Ok(self.state.is_done(&blob.digest))
    }

    async fn resume(&self, blob: &Descriptor) -> crate::oci::Result<Option<Box<dyn PartialBlob>>> {
        self.state
            .resume(&self.offsets, blob, self.location())
            .await
    }

    async fn put(&self, blob: &Descriptor, data: VerifiedBlob) -> crate::oci::Result<()> {
        let Some(&(offset, size)) = self.offsets.get(&blob.digest) else {
            return Err(OciError::Invalid {
                location: self.location(),
                detail: format!("blob {} is not in the archive's plan", blob.digest),
            });
        };
        if size != blob.size {
            return Err(OciError::SizeMismatch {
                location: self.location(),
                digest: blob.digest.clone(),
                expected: size,
                actual: blob.size,
            });
        }
        // Verified (or, for the stream's own digest, size-checked) on the way, so
        // the body never runs into the next entry.
        let data = data.checked_for(blob, self.location());
        let context = format!("{}: writing blob {}", self.location(), blob.digest);
        let file = self
            .state
            .write_body(&blob.digest, offset, 0, data, None, &context)
            .await?;
        // The blob counts as done (journalled) only once its bytes are on disk.
        self.state.mark_done(file, &blob.digest, &context).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copy::tar_out::partial_paths;
    use crate::oci::stream::bytes_stream;

    fn verified(data: &[u8]) -> VerifiedBlob {
        VerifiedBlob::new(bytes_stream(Bytes::from(data.to_vec())), Digest::of(data))
    }

    fn blob(data: &[u8]) -> Descriptor {
        Descriptor {
            media_type: "application/octet-stream".into(),
            digest: Digest::of(data),
            size: data.len() as u64,
        }
    }

    #[tokio::test]
    async fn the_archive_unpacks_to_a_layout_and_resumes_with_finished_blobs_kept() {
        let recorder = IndexRecorder::new("oci:x.tar");
        let manifest = ManifestBytes::new(
            crate::oci::media_types::OCI_MANIFEST,
            br#"{"schemaVersion":2}"#.to_vec(),
        );
        recorder.put_manifest(&manifest, Some("v1")).await.unwrap();
        let (manifests, index) = recorder.into_parts();
        let (one, two) = (vec![1u8; 700], vec![2u8; 1500]);
        let plan = LayoutTarPlan::new(&[blob(&one), blob(&two)], &manifests, index.clone());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.tar");

        let out = LayoutTarOut::open(&path, &plan, true).unwrap();
        out.put(&blob(&one), verified(&one)).await.unwrap();
        drop(out);
        assert!(!path.exists(), "not complete yet");
        // Another tag changes index.json only: the finished blob is kept.
        let retagged = IndexRecorder::new("oci:x.tar");
        retagged
            .put_manifest(&manifest, Some("a-longer-tag"))
            .await
            .unwrap();
        let (_, other_index) = retagged.into_parts();
        let other = LayoutTarPlan::new(&[blob(&one), blob(&two)], &manifests, other_index);
        assert_eq!(LayoutTarOut::open(&path, &other, true).unwrap().kept(), 1);
        let out = LayoutTarOut::open(&path, &plan, true).unwrap();
        assert_eq!(out.kept(), 1);
        assert!(out.has(&manifest.descriptor()).await.unwrap(), "inline");
        assert!(out.has(&blob(&one)).await.unwrap());
        assert!(!out.has(&blob(&two)).await.unwrap());
        let short = out
            .put(
                &blob(&two),
                VerifiedBlob::new(bytes_stream(Bytes::from(vec![2u8; 10])), Digest::of(&two)),
            )
            .await;
        assert!(short.is_err(), "a short body is refused");
        out.put(&blob(&two), verified(&two)).await.unwrap();
        out.complete().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), plan.total_size());

        let unpacked = dir.path().join("unpacked");
        tar::Archive::new(std::fs::File::open(&path).unwrap())
            .unpack(&unpacked)
            .unwrap();
        let layout = crate::oci::layout::LayoutStore::open(&unpacked).unwrap();
        assert_eq!(layout.get_manifest("v1").await.unwrap(), manifest);
        let read = |d: &Digest| std::fs::read(unpacked.join(blob_name(d))).unwrap();
        assert_eq!(read(&Digest::of(&one)), one);
        assert_eq!(read(&Digest::of(&two)), two);
        assert_eq!(std::fs::read(unpacked.join("index.json")).unwrap(), index);
        let (partial, journal) = partial_paths(&path);
        assert!(!partial.exists() && !journal.exists());
    }
}
