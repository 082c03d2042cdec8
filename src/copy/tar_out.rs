//! An imgpkg tarball (`--to-tar`, `carvel-formats.md` §3.5) written in place,
//! from the plan: since `manifest.json` and every layer's size are known before
//! the first byte moves, every entry's offset is known too. The archive is
//! created under a hidden partial name next to the output, with its headers,
//! `manifest.json` and end blocks, and each layer's body is streamed straight to
//! its offset (no spool, no second copy). A journal beside it records each layer
//! once its bytes are verified (and, with `--fsync`, synced: the sync runs in the
//! background while the next blobs move), so a rerun of the same copy keeps the finished entries
//! and moves only the rest, continuing the entries that were in flight from the
//! bytes the journal records of them ([`crate::copy::archive_entry`]); a
//! different plan starts afresh.
//! Only a complete archive is renamed to the output name, so a tarball that
//! looks complete always is (after a power cut too, with `--fsync`: without it,
//! the files are left to the kernel to write back, as imgpkg and tar leave them).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;

use crate::copy::archive_entry::{ArchiveState, parse_parts, rehash};
use crate::copy::archive_frame::Frame;
use crate::copy::closure::{Closure, Item};
use crate::copy::transfer::BlobSink;
use crate::copy::{CopyError, Result};
use crate::oci::tarball::model::{
    ConfigDescriptor, ImageDescriptor, ImageOrIndex, IndexDescriptor, LayerDescriptor,
    ManifestDescriptor, encode_manifest_json,
};
use crate::oci::tarball::reader::has_diff_id;
use crate::oci::tarball::{ROOT_BUNDLE_LABEL, layer_entry_name, ustar};
use crate::oci::{
    Descriptor, Digest, ManifestBytes, OciError, PartialBlob, Reference, VerifiedBlob, media_types,
};

const JOURNAL_MAGIC: &str = "strake-imgpkg-tar v1";

/// The archive's contents, decided before anything is written.
pub struct TarLayout {
    pub manifest_json: Vec<u8>,
    /// Layer entries in archive order (by digest), with the offset of each body.
    pub layers: Vec<(Descriptor, u64)>,
    pub total_size: u64,
}

impl TarLayout {
    /// A fingerprint of the archive's shape, to tell whether a partial file
    /// belongs to the same copy.
    fn fingerprint(&self) -> Digest {
        let mut text = self.manifest_json.clone();
        for (d, offset) in &self.layers {
            text.extend_from_slice(format!("\n{} {} {offset}", d.digest, d.size).as_bytes());
        }
        Digest::of(&text)
    }
}

/// Builds `manifest.json` (imgpkg's metadata for every item: Refs, Tag, OrigRef,
/// Labels, configs inline) and places the layers.
pub async fn layout(closure: &Closure, include_non_distributable: bool) -> Result<TarLayout> {
    let mut elements = Vec::new();
    let mut layers: BTreeMap<Digest, Descriptor> = BTreeMap::new();
    for item in &closure.items {
        let manifests: HashMap<&Digest, &ManifestBytes> = item
            .graph
            .manifests
            .iter()
            .map(|m| (&m.digest, m))
            .collect();
        let metadata = Metadata {
            refs: vec![item.source_ref.clone()],
            tag: item.tag.clone(),
            orig_ref: item.orig_ref.clone(),
            labels: item
                .root
                .then(|| BTreeMap::from([(ROOT_BUNDLE_LABEL.to_string(), String::new())])),
        };
        let root = item.graph.root();
        let element = if root.is_index() {
            ImageOrIndex {
                image_index: Some(
                    index_element(item, &manifests, root, &metadata, &mut layers).await?,
                ),
                image: None,
            }
        } else {
            ImageOrIndex {
                image_index: None,
                image: Some(image_element(item, root, &metadata, &mut layers).await?),
            }
        };
        elements.push(element);
    }
    elements.sort_by_key(ImageOrIndex::sort_key);
    let manifest_json = encode_manifest_json(&elements);
    let mut offset = ustar::BLOCK + ustar::padded(manifest_json.len() as u64);
    let mut placed = Vec::new();
    for (_, descriptor) in layers {
        if media_types::is_non_distributable(&descriptor.media_type) && !include_non_distributable {
            continue;
        }
        let body = offset + ustar::BLOCK;
        offset = body + ustar::padded(descriptor.size);
        placed.push((descriptor, body));
    }
    Ok(TarLayout {
        manifest_json,
        layers: placed,
        total_size: offset + 2 * ustar::BLOCK,
    })
}

struct Metadata {
    refs: Vec<String>,
    tag: String,
    orig_ref: String,
    labels: Option<BTreeMap<String, String>>,
}

fn text(bytes: &[u8], what: &str) -> Result<String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        CopyError::invalid(format!(
            "{what} is not UTF-8 text and cannot be stored in an imgpkg tarball"
        ))
    })
}

async fn image_element(
    item: &Item,
    manifest: &ManifestBytes,
    metadata: &Metadata,
    layers: &mut BTreeMap<Digest, Descriptor>,
) -> Result<ImageDescriptor> {
    let here = format!("{}@{}", item.source.location(), manifest.digest);
    let mut blobs = manifest.references(&here)?.into_iter();
    let config = blobs
        .next()
        .ok_or_else(|| CopyError::invalid(format!("{here}: image has no config")))?;
    let config_bytes = crate::bundle::pull::read_small_blob(item.source.as_ref(), &config)
        .await
        .map_err(|e| CopyError::invalid(format!("image {}: config: {e}", item.orig_ref)))?;
    let config_text = text(&config_bytes, &format!("{here}: config {}", config.digest))?;
    let config_json: serde_json::Value = serde_json::from_str(&config_text).unwrap_or_default();
    let diff_ids = config_json["rootfs"]["diff_ids"].as_array();
    let mut layer_descriptors = Vec::new();
    for (i, layer) in blobs.enumerate() {
        let diff_id = if has_diff_id(&layer.media_type) {
            diff_ids
                .and_then(|ids| ids.get(i))
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        } else {
            String::new()
        };
        layer_descriptors.push(LayerDescriptor {
            media_type: layer.media_type.clone(),
            digest: layer.digest.to_string(),
            diff_id,
            size: layer.size as i64,
        });
        layers.insert(layer.digest.clone(), layer);
    }
    Ok(ImageDescriptor {
        refs: metadata.refs.clone(),
        layers: layer_descriptors,
        config: ConfigDescriptor {
            digest: config.digest.to_string(),
            raw: config_text,
        },
        manifest: ManifestDescriptor {
            media_type: manifest.media_type.clone(),
            digest: manifest.digest.to_string(),
            raw: text(&manifest.bytes, &format!("{here}: manifest"))?,
        },
        tag: metadata.tag.clone(),
        orig_ref: metadata.orig_ref.clone(),
        labels: metadata.labels.clone(),
    })
}

fn index_element<'a>(
    item: &'a Item,
    manifests: &'a HashMap<&Digest, &ManifestBytes>,
    manifest: &'a ManifestBytes,
    metadata: &'a Metadata,
    layers: &'a mut BTreeMap<Digest, Descriptor>,
) -> futures_util::future::BoxFuture<'a, Result<IndexDescriptor>> {
    Box::pin(async move {
        let here = format!("{}@{}", item.source.location(), manifest.digest);
        let repository = metadata
            .refs
            .first()
            .map(|r| match Reference::parse(r) {
                Ok(parsed) => parsed.name(),
                Err(_) => r.split('@').next().unwrap_or_default().to_string(),
            })
            .unwrap_or_default();
        let mut images = Vec::new();
        let mut indexes = Vec::new();
        for child in manifest.references(&here)? {
            let child_manifest = manifests.get(&child.digest).ok_or_else(|| {
                CopyError::invalid(format!("{here}: child {} was not walked", child.digest))
            })?;
            let child_metadata = Metadata {
                refs: vec![format!("{repository}@{}", child.digest)],
                tag: metadata.tag.clone(),
                orig_ref: metadata.orig_ref.clone(),
                labels: metadata.labels.clone(),
            };
            if child_manifest.is_index() {
                indexes.push(
                    index_element(item, manifests, child_manifest, &child_metadata, layers).await?,
                );
            } else {
                images.push(image_element(item, child_manifest, &child_metadata, layers).await?);
            }
        }
        Ok(IndexDescriptor {
            refs: metadata.refs.clone(),
            images,
            indexes,
            media_type: manifest.media_type.clone(),
            digest: manifest.digest.to_string(),
            raw: text(&manifest.bytes, &format!("{here}: manifest"))?,
            tag: metadata.tag.clone(),
            orig_ref: metadata.orig_ref.clone(),
            labels: metadata.labels.clone(),
        })
    })
}

/// A tarball being written (a [`BlobSink`] for its layers).
pub struct TarOut {
    path: PathBuf,
    offsets: HashMap<Digest, (u64, u64)>,
    state: ArchiveState,
    /// Layers whose bytes are written are synced and journalled in the background
    /// (so the transfer goes on meanwhile), at most [`SYNC_SLOTS`] at a time.
    sync_slots: Arc<tokio::sync::Semaphore>,
    /// The first error of a background sync.
    sync_failure: Arc<Mutex<Option<OciError>>>,
}

/// Layers synced at the same time in the background.
const SYNC_SLOTS: usize = 4;

/// The hidden names of the archive in progress and of its journal.
pub fn partial_paths(path: &Path) -> (PathBuf, PathBuf) {
    let dir = crate::oci::atomic::parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out.tar".into());
    (
        dir.join(format!(".{name}.strake-partial")),
        dir.join(format!(".{name}.strake-journal")),
    )
}

fn io(context: String) -> impl FnOnce(std::io::Error) -> CopyError {
    move |e| CopyError::Oci(OciError::io(context, e))
}

/// The partial file and journal of an archive, owned.
pub struct OwnedArchiveFiles {
    pub partial: PathBuf,
    pub journal: PathBuf,
}

/// An archive in progress, continued or started anew.
pub struct ResumedArchive {
    pub files: OwnedArchiveFiles,
    /// The blobs its journal records as complete (none for a new archive).
    pub done: HashSet<Digest>,
    /// The journal, opened for appending.
    pub journal_file: std::fs::File,
    /// Bytes of each unfinished entry the journal records (`part` lines).
    pub parts: HashMap<Digest, u64>,
    /// Whether finished entries are synced before they are journalled.
    pub durable: bool,
}

impl ResumedArchive {
    /// The state its writers share.
    pub fn into_state(self) -> (ArchiveState, HashSet<Digest>) {
        let done = self.done.clone();
        (
            ArchiveState {
                partial: self.files.partial,
                journal: self.files.journal,
                journal_file: Arc::new(Mutex::new(self.journal_file)),
                done: Arc::new(Mutex::new(self.done)),
                parts: Arc::new(self.parts),
                durable: self.durable,
            },
            done,
        )
    }
}

impl ResumedArchive {
    /// Continues the partial archive of `path` when its journal starts with
    /// `header_line` (the same plan), keeping the complete blobs that `offsets`
    /// still holds (those journalled `written` only once their bytes, hashed
    /// again, are the blob's); else starts an empty partial file and a new
    /// journal. `durable` syncs what is written (see [`ArchiveState::durable`]);
    /// `what` names the archive in the log.
    pub fn open(
        path: &Path,
        header_line: &str,
        offsets: &HashMap<Digest, (u64, u64)>,
        durable: bool,
        what: &str,
    ) -> Result<ResumedArchive> {
        let dir = crate::oci::atomic::parent_dir(path);
        std::fs::create_dir_all(&dir).map_err(io(format!("creating {}", dir.display())))?;
        let (partial, journal) = partial_paths(path);
        let mut done = HashSet::new();
        let mut written = HashSet::new();
        let mut parts = HashMap::new();
        let resumable = partial.is_file()
            && std::fs::read_to_string(&journal).ok().is_some_and(|text| {
                let mut lines = text.lines();
                if lines.next() != Some(header_line) {
                    return false;
                }
                parts = parse_parts(&text);
                for line in lines {
                    let (set, rest) = match line.split_once(' ') {
                        Some(("done", rest)) => (&mut done, rest),
                        Some(("written", rest)) => (&mut written, rest),
                        _ => continue,
                    };
                    if let Ok(d) = rest.parse::<Digest>()
                        && offsets.contains_key(&d)
                    {
                        set.insert(d);
                    }
                }
                true
            });
        if resumable {
            written.retain(|d| !done.contains(d));
            for digest in written {
                let (offset, size) = offsets[&digest];
                if rehash(&partial, offset, size).is_ok_and(|h| h.finish() == digest) {
                    done.insert(digest);
                } else {
                    tracing::info!(%digest, "a {what} entry journalled written does not hold its bytes; writing it again");
                }
            }
        }
        parts.retain(|d, _| offsets.contains_key(d) && !done.contains(d));
        if resumable {
            tracing::info!(
                partial = %partial.display(),
                kept = done.len(),
                continued = parts.len(),
                "continuing a partial {what}"
            );
        } else {
            done.clear();
            parts.clear();
            let mut j = std::fs::File::create(&journal)
                .map_err(io(format!("creating {}", journal.display())))?;
            writeln!(j, "{header_line}").map_err(io(format!("writing {}", journal.display())))?;
            if durable {
                j.sync_all()
                    .map_err(io(format!("writing {}", journal.display())))?;
            }
            std::fs::File::create(&partial)
                .map_err(io(format!("creating {}", partial.display())))?;
        }
        let journal_file = std::fs::OpenOptions::new()
            .append(true)
            .open(&journal)
            .map_err(io(format!("opening {}", journal.display())))?;
        Ok(ResumedArchive {
            files: OwnedArchiveFiles { partial, journal },
            done,
            journal_file,
            parts,
            durable,
        })
    }
}

/// Checks that every planned blob is complete in `state`, renames the partial
/// archive into place at `path` and drops the journal; a durable archive is
/// synced before the rename and its directory after it. `scheme` (`tar:`,
/// `oci:`) and `blob_word` (`layer`, `blob`) word the error.
pub fn finish_archive(
    path: &Path,
    state: &ArchiveState,
    offsets: &HashMap<Digest, (u64, u64)>,
    scheme: &str,
    blob_word: &str,
) -> Result<()> {
    let done = state.done_now();
    if let Some(missing) = offsets.keys().find(|d| !done.contains(*d)) {
        return Err(CopyError::invalid(format!(
            "{scheme}{}: {blob_word} {missing} was not written",
            path.display()
        )));
    }
    let (partial, journal) = (&state.partial, &state.journal);
    if state.durable {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(partial)
            .map_err(io(format!("opening {}", partial.display())))?;
        file.sync_all()
            .map_err(io(format!("syncing {}", partial.display())))?;
    }
    std::fs::rename(partial, path).map_err(io(format!(
        "moving the finished archive to {}",
        path.display()
    )))?;
    let _ = std::fs::remove_file(journal);
    if state.durable
        && let Ok(dir) = std::fs::File::open(crate::oci::atomic::parent_dir(path))
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

impl TarOut {
    /// Opens the partial archive for `layout`: continues one left by an earlier
    /// run of the same copy, else starts a new one. Headers, `manifest.json` and
    /// the end blocks are (re)written now; layer bodies by [`BlobSink::put`].
    /// `durable` syncs each layer before it is journalled, and the archive
    /// before it is renamed into place (`--fsync`).
    pub fn open(path: &Path, layout: &TarLayout, durable: bool) -> Result<TarOut> {
        let offsets: HashMap<Digest, (u64, u64)> = layout
            .layers
            .iter()
            .map(|(d, offset)| (d.digest.clone(), (*offset, d.size)))
            .collect();
        let header_line = format!("{JOURNAL_MAGIC} {}", layout.fingerprint());
        let resumed = ResumedArchive::open(path, &header_line, &offsets, durable, "tarball")?;
        write_frame(&resumed.files.partial, layout, durable)?;
        let (state, _) = resumed.into_state();
        Ok(TarOut {
            path: path.to_path_buf(),
            offsets,
            state,
            sync_slots: Arc::new(tokio::sync::Semaphore::new(SYNC_SLOTS)),
            sync_failure: Arc::new(Mutex::new(None)),
        })
    }

    /// Layers already complete in the partial archive.
    pub fn kept(&self) -> usize {
        self.state.done_count()
    }

    /// Waits for the background syncs, checks that every layer is in, syncs,
    /// and renames the archive into place. Unlike the OCI layout tar's, it must
    /// first wait for the layers still syncing in the background (see
    /// [`TarOut::sync_slots`]) and give the first of their errors; the rest is
    /// [`finish_archive`], shared with it.
    pub async fn complete(self) -> Result<()> {
        let _all = self
            .sync_slots
            .acquire_many(SYNC_SLOTS as u32)
            .await
            .expect("the semaphore is never closed");
        if let Some(e) = self
            .sync_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            return Err(e.into());
        }
        finish_archive(&self.path, &self.state, &self.offsets, "tar:", "layer")
    }
}

/// Writes the frame (see [`crate::copy::archive_frame`]): `manifest.json`
/// first, then every layer's header and padding; bodies of finished layers are
/// left as they are.
fn write_frame(partial: &Path, layout: &TarLayout, durable: bool) -> Result<()> {
    let frame = Frame::open(partial, layout.total_size)?;
    frame.file("manifest.json", &layout.manifest_json, ustar::BLOCK)?;
    for (descriptor, body) in &layout.layers {
        frame.streamed(
            &layer_entry_name(&descriptor.digest),
            descriptor.size,
            *body,
        )?;
    }
    frame.finish(durable)
}

#[async_trait::async_trait]
impl BlobSink for TarOut {
    fn location(&self) -> String {
        format!("tar:{}", self.path.display())
    }

    async fn has(&self, blob: &Descriptor) -> crate::oci::Result<bool> {
        if !self.offsets.contains_key(&blob.digest) {
            // Configs live inside manifest.json, which is written already.
            return Ok(true);
        }
        Ok(self.state.is_done(&blob.digest))
    }

    async fn resume(&self, blob: &Descriptor) -> crate::oci::Result<Option<Box<dyn PartialBlob>>> {
        self.state
            .resume(&self.offsets, blob, self.location())
            .await
    }

    async fn put(&self, blob: &Descriptor, data: VerifiedBlob) -> crate::oci::Result<()> {
        let mut data = data.checked_for(blob, self.location());
        let Some(&(offset, size)) = self.offsets.get(&blob.digest) else {
            // A config: drain it so that its verification runs.
            while let Some(chunk) = data.next().await {
                chunk?;
            }
            return Ok(());
        };
        if size != blob.size {
            return Err(OciError::SizeMismatch {
                location: self.location(),
                digest: blob.digest.clone(),
                expected: size,
                actual: blob.size,
            });
        }
        let context = format!("{}: writing layer {}", self.location(), blob.digest);
        // The size is checked on the way (`checked_for`), so the body never
        // runs into the next entry.
        let file = self
            .state
            .write_body(&blob.digest, offset, 0, data, None, &context)
            .await?;
        if !self.state.durable {
            return self.state.record_done(blob.digest.clone());
        }
        // A durable layer counts as done (journalled) only once its bytes are on
        // disk; that happens in the background while the next blobs move.
        let slot = self
            .sync_slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let digest = blob.digest.clone();
        let (state, failure) = (self.state.clone(), self.sync_failure.clone());
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let synced = file
                .sync_data()
                .map_err(|e| OciError::io(context, e))
                .and_then(|()| state.record_done(digest));
            if let Err(e) = synced {
                failure
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e);
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rerun keeps an entry journalled `done` as it is, an entry journalled
    /// `written` only when its bytes in the partial archive are the blob's, and
    /// continues the entries journalled in `part`.
    #[test]
    fn written_entries_are_kept_only_when_their_bytes_hash_to_the_blob() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("out.tar");
        let (partial, journal) = partial_paths(&path);
        let bodies: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i + 1; 3000]).collect();
        let digests: Vec<Digest> = bodies.iter().map(|b| Digest::of(b)).collect();
        let offsets: HashMap<Digest, (u64, u64)> = digests
            .iter()
            .enumerate()
            .map(|(i, d)| (d.clone(), (i as u64 * 4096, 3000)))
            .collect();
        // Entry 0 is done (trusted), 1 written with its bytes, 2 written but
        // its bytes lost (zeros), 3 half written.
        let mut archive = vec![0u8; 4 * 4096];
        for i in [0, 1] {
            archive[i * 4096..i * 4096 + 3000].copy_from_slice(&bodies[i]);
        }
        archive[3 * 4096..3 * 4096 + 1000].copy_from_slice(&bodies[3][..1000]);
        std::fs::write(&partial, &archive).unwrap();
        let header = "strake-imgpkg-tar v1 sha256:test";
        std::fs::write(
            &journal,
            format!(
                "{header}\ndone {}\nwritten {}\nwritten {}\npart {} 1000\n",
                digests[0], digests[1], digests[2], digests[3]
            ),
        )
        .unwrap();
        let resumed = ResumedArchive::open(&path, header, &offsets, false, "tarball").unwrap();
        assert_eq!(
            resumed.done,
            HashSet::from([digests[0].clone(), digests[1].clone()])
        );
        assert_eq!(resumed.parts, HashMap::from([(digests[3].clone(), 1000)]));
        // Another plan starts afresh.
        let fresh = ResumedArchive::open(&path, "other", &offsets, false, "tarball").unwrap();
        assert!(fresh.done.is_empty() && fresh.parts.is_empty());
    }

    /// Complete entries are journalled `written` with nothing synced, or `done`
    /// once synced when the archive is durable.
    #[test]
    fn complete_entries_are_journalled_by_durability() {
        for (durable, word) in [(false, "written"), (true, "done")] {
            let tmp = tempfile::tempdir().unwrap();
            let path = tmp.path().join("out.tar");
            let resumed =
                ResumedArchive::open(&path, "header", &HashMap::new(), durable, "tarball").unwrap();
            let (state, _) = resumed.into_state();
            let digest = Digest::of(b"x");
            state.record_done(digest.clone()).unwrap();
            assert!(state.is_done(&digest));
            let text = std::fs::read_to_string(&state.journal).unwrap();
            assert_eq!(text, format!("header\n{word} {digest}\n"));
        }
    }
}
