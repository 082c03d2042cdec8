//! [`TarballWriter`]: writes an imgpkg tarball (what `imgpkg copy --to-tar`
//! writes) through the [`Store`] trait. Blobs put before [`Store::finish`] are
//! verified and spooled to a temporary directory next to the output (bounded
//! memory); manifests are kept in memory. `finish` writes the tar to a temporary
//! name and renames it, so a failed or interrupted copy leaves no tarball.
//!
//! The tarball records per-image metadata that the generic trait does not carry
//! (Refs, Tag, OrigRef, Labels, DiffIDs); callers give it with
//! [`TarballWriter::add_image_metadata`] for every top-level image or index.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tokio_util::io::ReaderStream;

use crate::oci::stream::{bytes_stream, verify_stream};
use crate::oci::tarball::model::{
    ConfigDescriptor, ImageDescriptor, ImageOrIndex, IndexDescriptor, LayerDescriptor,
    ManifestDescriptor, encode_manifest_json,
};
use crate::oci::tarball::reader::{TarballEntry, has_diff_id};
use crate::oci::tarball::{layer_entry_name, ustar};
use crate::oci::{
    BlobStream, Descriptor, Digest, ManifestBytes, OciError, Reference, Result, Store, atomic,
    media_types,
};

/// What a tarball records about one top-level image or index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImageMetadata {
    /// Source locations (imgpkg records one digest reference).
    pub refs: Vec<String>,
    /// The source tag, `""` when none.
    pub tag: String,
    /// The reference as written in the parent `images.yml`.
    pub orig_ref: String,
    /// Descriptor labels, e.g. `dev.carvel.imgpkg.copy.root-bundle`; `None` is `null`.
    pub labels: Option<BTreeMap<String, String>>,
    /// DiffIDs by layer digest; layers not listed take the config's `rootfs.diff_ids`.
    pub diff_ids: BTreeMap<Digest, String>,
}

impl ImageMetadata {
    /// Metadata for an image copied from `reference` (a digest reference): it is
    /// both the ref and the original ref, with no tag and no labels.
    pub fn from_ref(reference: impl Into<String>) -> ImageMetadata {
        let reference = reference.into();
        ImageMetadata {
            refs: vec![reference.clone()],
            orig_ref: reference,
            ..ImageMetadata::default()
        }
    }
}

impl From<&TarballEntry> for ImageMetadata {
    fn from(entry: &TarballEntry) -> ImageMetadata {
        ImageMetadata {
            refs: entry.refs.clone(),
            tag: entry.tag.clone(),
            orig_ref: entry.orig_ref.clone(),
            labels: entry.labels.clone(),
            diff_ids: entry.diff_ids.clone(),
        }
    }
}

/// `manifest.json` bytes and the layer entries (digest, size) to write.
type Plan = (Vec<u8>, Vec<(Digest, u64)>);

#[derive(Default)]
struct State {
    /// Spooled blobs and their sizes.
    blobs: HashMap<Digest, u64>,
    manifests: HashMap<Digest, ManifestBytes>,
    tags: BTreeMap<String, Digest>,
    metadata: BTreeMap<Digest, ImageMetadata>,
    finished: bool,
}

/// An imgpkg tarball being written.
pub struct TarballWriter {
    path: PathBuf,
    spool: tempfile::TempDir,
    state: Mutex<State>,
}

impl TarballWriter {
    /// Prepares to write `path` (created by [`Store::finish`]). The parent
    /// directory is created when missing.
    pub fn create(path: impl Into<PathBuf>) -> Result<TarballWriter> {
        let path = path.into();
        let parent = atomic::parent_dir(&path);
        std::fs::create_dir_all(&parent)
            .map_err(|e| OciError::io(format!("creating {}", parent.display()), e))?;
        let spool = tempfile::Builder::new()
            .prefix(atomic::TEMP_PREFIX)
            .tempdir_in(&parent)
            .map_err(|e| {
                OciError::io(
                    format!("creating a spool directory in {}", parent.display()),
                    e,
                )
            })?;
        Ok(TarballWriter {
            path,
            spool,
            state: Mutex::new(State::default()),
        })
    }

    /// The tarball path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records the metadata of the top-level image or index `digest`. Every
    /// manifest that is not a child of a stored index needs this before `finish`.
    pub fn add_image_metadata(&self, digest: &Digest, metadata: ImageMetadata) {
        self.lock().metadata.insert(digest.clone(), metadata);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn spool_path(&self, digest: &Digest) -> PathBuf {
        self.spool
            .path()
            .join(format!("{}-{}", digest.algorithm(), digest.hex()))
    }

    fn invalid(&self, detail: impl Into<String>) -> OciError {
        OciError::Invalid {
            location: self.location(),
            detail: detail.into(),
        }
    }

    fn check_open(&self) -> Result<()> {
        if self.lock().finished {
            return Err(self.invalid("the tarball is already finished"));
        }
        Ok(())
    }

    /// Builds `manifest.json` and the list of layer entries from what was stored.
    fn plan(&self) -> Result<Plan> {
        let state = self.lock();
        let mut children = BTreeSet::new();
        for manifest in state.manifests.values() {
            if manifest.is_index() {
                for child in manifest.references(&self.location())? {
                    children.insert(child.digest);
                }
            }
        }
        let mut top: BTreeSet<Digest> = state.metadata.keys().cloned().collect();
        top.extend(
            state
                .manifests
                .keys()
                .filter(|d| !children.contains(*d))
                .cloned(),
        );
        let tag_of: HashMap<&Digest, &String> = state.tags.iter().map(|(t, d)| (d, t)).collect();
        let mut elements = Vec::new();
        let mut layers = BTreeMap::new();
        for digest in &top {
            let Some(metadata) = state.metadata.get(digest) else {
                return Err(self.invalid(format!(
                    "no image metadata (refs, tag, labels) was given for {digest}"
                )));
            };
            let mut metadata = metadata.clone();
            if metadata.tag.is_empty()
                && let Some(tag) = tag_of.get(digest)
            {
                metadata.tag = (*tag).clone();
            }
            let manifest = state.manifests.get(digest).ok_or_else(|| {
                self.invalid(format!(
                    "image metadata was given for {digest} but its manifest was not stored"
                ))
            })?;
            let element = if manifest.is_index() {
                ImageOrIndex {
                    image_index: Some(self.index_element(
                        &state,
                        manifest,
                        &metadata,
                        &mut layers,
                    )?),
                    image: None,
                }
            } else {
                ImageOrIndex {
                    image_index: None,
                    image: Some(self.image_element(&state, manifest, &metadata, &mut layers)?),
                }
            };
            elements.push(element);
        }
        elements.sort_by_key(ImageOrIndex::sort_key);
        let mut entries = Vec::new();
        for (digest, (media_type, size)) in layers {
            match state.blobs.get(&digest) {
                Some(&stored) if stored == size => entries.push((digest, size)),
                Some(&stored) => {
                    return Err(OciError::SizeMismatch {
                        location: self.location(),
                        digest,
                        expected: size,
                        actual: stored,
                    });
                }
                None if media_types::is_non_distributable(&media_type) => {}
                None => {
                    return Err(self.invalid(format!("layer {digest} was not stored")));
                }
            }
        }
        Ok((encode_manifest_json(&elements), entries))
    }

    fn index_element(
        &self,
        state: &State,
        manifest: &ManifestBytes,
        metadata: &ImageMetadata,
        layers: &mut BTreeMap<Digest, (String, u64)>,
    ) -> Result<IndexDescriptor> {
        let repository = match metadata.refs.first() {
            Some(r) => Reference::parse(r)?.name(),
            None => {
                return Err(self.invalid(format!(
                    "index {} needs a ref to name its children",
                    manifest.digest
                )));
            }
        };
        let mut images = Vec::new();
        let mut indexes = Vec::new();
        for child in manifest.references(&self.location())? {
            let child_manifest = state.manifests.get(&child.digest).ok_or_else(|| {
                self.invalid(format!(
                    "child manifest {} of index {} was not stored",
                    child.digest, manifest.digest
                ))
            })?;
            let child_metadata = ImageMetadata {
                refs: vec![format!("{repository}@{}", child.digest)],
                ..metadata.clone()
            };
            if child_manifest.is_index() {
                indexes.push(self.index_element(state, child_manifest, &child_metadata, layers)?);
            } else {
                images.push(self.image_element(state, child_manifest, &child_metadata, layers)?);
            }
        }
        Ok(IndexDescriptor {
            refs: metadata.refs.clone(),
            images,
            indexes,
            media_type: manifest.media_type.clone(),
            digest: manifest.digest.to_string(),
            raw: manifest_text(manifest, &self.location())?,
            tag: metadata.tag.clone(),
            orig_ref: metadata.orig_ref.clone(),
            labels: metadata.labels.clone(),
        })
    }

    fn image_element(
        &self,
        state: &State,
        manifest: &ManifestBytes,
        metadata: &ImageMetadata,
        layers: &mut BTreeMap<Digest, (String, u64)>,
    ) -> Result<ImageDescriptor> {
        let mut blobs = manifest.references(&self.location())?.into_iter();
        let config = blobs
            .next()
            .ok_or_else(|| self.invalid(format!("image {} has no config", manifest.digest)))?;
        if !state.blobs.contains_key(&config.digest) {
            return Err(self.invalid(format!(
                "config {} of image {} was not stored",
                config.digest, manifest.digest
            )));
        }
        let config_path = self.spool_path(&config.digest);
        let config_bytes = std::fs::read(&config_path)
            .map_err(|e| OciError::io(format!("reading {}", config_path.display()), e))?;
        let config_text = String::from_utf8(config_bytes).map_err(|_| {
            self.invalid(format!(
                "config {} is not UTF-8 text and cannot be stored in an imgpkg tarball",
                config.digest
            ))
        })?;
        let config_json: serde_json::Value = serde_json::from_str(&config_text).unwrap_or_default();
        let rootfs_diff_ids = config_json["rootfs"]["diff_ids"].as_array();
        let mut layer_descriptors = Vec::new();
        for (i, layer) in blobs.enumerate() {
            let diff_id = match metadata.diff_ids.get(&layer.digest) {
                Some(d) => d.clone(),
                None if has_diff_id(&layer.media_type) => rootfs_diff_ids
                    .and_then(|ids| ids.get(i))
                    .and_then(|v| v.as_str())
                    .unwrap_or_default()
                    .to_string(),
                None => String::new(),
            };
            layers.insert(layer.digest.clone(), (layer.media_type.clone(), layer.size));
            layer_descriptors.push(LayerDescriptor {
                media_type: layer.media_type,
                digest: layer.digest.to_string(),
                diff_id,
                size: layer.size as i64,
            });
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
                raw: manifest_text(manifest, &self.location())?,
            },
            tag: metadata.tag.clone(),
            orig_ref: metadata.orig_ref.clone(),
            labels: metadata.labels.clone(),
        })
    }
}

fn manifest_text(manifest: &ManifestBytes, location: &str) -> Result<String> {
    String::from_utf8(manifest.bytes.to_vec()).map_err(|_| OciError::Invalid {
        location: location.to_string(),
        detail: format!("manifest {} is not UTF-8 text", manifest.digest),
    })
}

/// Writes the tar: `manifest.json`, then each layer from the spool, then two zero
/// blocks. Runs on a blocking thread.
fn write_tar(
    out: &mut impl Write,
    manifest_json: &[u8],
    layers: &[(Digest, PathBuf, u64)],
) -> std::io::Result<()> {
    let to_io = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    let zeros = [0u8; 1024];
    out.write_all(
        &ustar::file_header("manifest.json", manifest_json.len() as u64).map_err(to_io)?,
    )?;
    out.write_all(manifest_json)?;
    out.write_all(&zeros[..ustar::padding(manifest_json.len() as u64) as usize])?;
    for (digest, path, size) in layers {
        out.write_all(&ustar::file_header(&layer_entry_name(digest), *size).map_err(to_io)?)?;
        let mut file = std::fs::File::open(path)?;
        let copied = std::io::copy(&mut file, out)?;
        if copied != *size {
            return Err(std::io::Error::other(format!(
                "spooled blob {digest} changed size ({copied} bytes, expected {size})"
            )));
        }
        out.write_all(&zeros[..ustar::padding(*size) as usize])?;
    }
    out.write_all(&zeros)?;
    Ok(())
}

#[async_trait::async_trait]
impl Store for TarballWriter {
    fn location(&self) -> String {
        format!("tar:{}", self.path.display())
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        let state = self.lock();
        if let Some(size) = state.blobs.get(digest) {
            return Ok(Some(*size));
        }
        Ok(state.manifests.get(digest).map(|m| m.bytes.len() as u64))
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        let stored = {
            let state = self.lock();
            if let Some(m) = state.manifests.get(digest) {
                return Ok(bytes_stream(m.bytes.clone()));
            }
            state.blobs.get(digest).copied()
        };
        let Some(size) = stored else {
            return Err(OciError::BlobUnknown {
                location: self.location(),
                digest: digest.clone(),
            });
        };
        let path = self.spool_path(digest);
        let context = format!("reading {}", path.display());
        let file = tokio::fs::File::open(&path)
            .await
            .map_err(|e| OciError::io(context.clone(), e))?;
        let stream = futures_util::TryStreamExt::map_err(
            ReaderStream::with_capacity(file, atomic::READ_CHUNK),
            move |e| OciError::io(context.clone(), e),
        );
        Ok(verify_stream(
            Box::pin(stream),
            digest.clone(),
            Some(size),
            self.location(),
        ))
    }

    async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()> {
        self.check_open()?;
        if self.lock().blobs.contains_key(&descriptor.digest) {
            return Ok(());
        }
        let temp = atomic::spool_verified(
            self.spool.path(),
            &descriptor.digest,
            descriptor.size,
            data,
            &self.location(),
        )
        .await?;
        atomic::commit(temp, &self.spool_path(&descriptor.digest))?;
        self.lock()
            .blobs
            .insert(descriptor.digest.clone(), descriptor.size);
        Ok(())
    }

    async fn put_blob_stream(&self, media_type: &str, data: BlobStream) -> Result<Descriptor> {
        self.check_open()?;
        let (temp, digest, size) =
            atomic::spool_hashed(self.spool.path(), data, &self.location()).await?;
        let descriptor = Descriptor {
            media_type: media_type.to_string(),
            digest,
            size,
        };
        if !self.lock().blobs.contains_key(&descriptor.digest) {
            atomic::commit(temp, &self.spool_path(&descriptor.digest))?;
            self.lock()
                .blobs
                .insert(descriptor.digest.clone(), descriptor.size);
        }
        Ok(descriptor)
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        let state = self.lock();
        let digest = match reference.parse::<Digest>() {
            Ok(d) => d,
            Err(_) => match state.tags.get(reference) {
                Some(d) => d.clone(),
                None => return Ok(None),
            },
        };
        Ok(state.manifests.get(&digest).map(ManifestBytes::descriptor))
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        let descriptor =
            self.resolve(reference)
                .await?
                .ok_or_else(|| OciError::ManifestUnknown {
                    location: self.location(),
                    reference: reference.to_string(),
                })?;
        Ok(self.lock().manifests[&descriptor.digest].clone())
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()> {
        self.check_open()?;
        manifest.check_digest(&self.location())?;
        manifest_text(manifest, &self.location())?;
        let mut state = self.lock();
        state
            .manifests
            .insert(manifest.digest.clone(), manifest.clone());
        if let Some(tag) = tag {
            state.tags.insert(tag.to_string(), manifest.digest.clone());
        }
        Ok(())
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        Ok(self.lock().tags.keys().cloned().collect())
    }

    /// Assembles the tarball: `manifest.json` first, then one entry per distinct
    /// layer sorted by digest, written to a temporary file and renamed into place.
    async fn finish(&self) -> Result<()> {
        self.check_open()?;
        let (manifest_json, entries) = self.plan()?;
        let layers: Vec<(Digest, PathBuf, u64)> = entries
            .into_iter()
            .map(|(d, size)| {
                let path = self.spool_path(&d);
                (d, path, size)
            })
            .collect();
        let dest = self.path.clone();
        let dir = atomic::parent_dir(&dest);
        let temp = tokio::task::spawn_blocking(move || -> Result<tempfile::TempPath> {
            let context = || format!("writing {}", dest.display());
            let named = tempfile::Builder::new()
                .prefix(atomic::TEMP_PREFIX)
                .tempfile_in(&dir)
                .map_err(|e| OciError::io(context(), e))?;
            let (file, path) = named.into_parts();
            let mut out = std::io::BufWriter::new(file);
            write_tar(&mut out, &manifest_json, &layers).map_err(|e| OciError::io(context(), e))?;
            let file = out
                .into_inner()
                .map_err(|e| OciError::io(context(), e.into_error()))?;
            file.sync_all().map_err(|e| OciError::io(context(), e))?;
            Ok(path)
        })
        .await
        .map_err(|e| self.invalid(format!("tar writer task failed: {e}")))??;
        atomic::commit(temp, &self.path)?;
        self.lock().finished = true;
        Ok(())
    }
}
