//! [`TarballStore`]: reads an imgpkg tarball (`imgpkg copy --to-tar`) as a
//! read-only [`Store`]. Manifests and configs come from the inline `Raw` strings of
//! `manifest.json` (verified when the tarball is opened); layers are streamed from
//! their `sha256-<hex>.tar.gz` entries by seeking to the entry's offset, and
//! verified while they stream. Nothing but `manifest.json` is held in memory.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::oci::stream::{bytes_stream, file_range_stream, verify_stream};
use crate::oci::tarball::model::{ImageDescriptor, ImageOrIndex, IndexDescriptor};
use crate::oci::tarball::{ROOT_BUNDLE_LABEL, layer_entry_name};
use crate::oci::{
    BlobRange, BlobStream, Descriptor, Digest, ManifestBytes, OciError, Result, Store, media_types,
};

/// What `manifest.json` says about one top-level image or index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TarballEntry {
    pub descriptor: Descriptor,
    pub refs: Vec<String>,
    pub tag: String,
    pub orig_ref: String,
    pub labels: Option<BTreeMap<String, String>>,
    /// Layer digest → DiffID, for this image (and every child of an index).
    pub diff_ids: BTreeMap<Digest, String>,
}

impl TarballEntry {
    /// True for the root bundle of an `imgpkg copy -b … --to-tar`.
    pub fn is_root_bundle(&self) -> bool {
        self.labels
            .as_ref()
            .is_some_and(|l| l.contains_key(ROOT_BUNDLE_LABEL))
    }
}

/// A layer listed in `manifest.json` and where its bytes are in the tar.
#[derive(Clone, Debug)]
struct LayerInfo {
    size: u64,
    /// `(offset of the body, size in the tar)`; `None` when the tarball omits it.
    position: Option<(u64, u64)>,
}

/// An imgpkg tarball opened for reading.
pub struct TarballStore {
    path: PathBuf,
    entries: Vec<TarballEntry>,
    manifests: HashMap<Digest, ManifestBytes>,
    configs: HashMap<Digest, Bytes>,
    layers: HashMap<Digest, LayerInfo>,
}

impl TarballStore {
    /// Opens `path`, indexes its tar entries and parses and verifies `manifest.json`.
    pub fn open(path: impl Into<PathBuf>) -> Result<TarballStore> {
        let path = path.into();
        let (manifest_json, positions) = scan_tar(&path)?;
        let location = format!("tar:{}", path.display());
        let invalid = |detail: String| OciError::Invalid {
            location: location.clone(),
            detail,
        };
        let manifest_json = manifest_json
            .ok_or_else(|| invalid("no manifest.json entry (not an imgpkg tarball)".into()))?;
        let elements: Vec<ImageOrIndex> = serde_json::from_slice(&manifest_json)
            .map_err(|e| invalid(format!("manifest.json: {e}")))?;
        let mut store = TarballStore {
            path,
            entries: Vec::new(),
            manifests: HashMap::new(),
            configs: HashMap::new(),
            layers: HashMap::new(),
        };
        for (i, element) in elements.iter().enumerate() {
            let mut diff_ids = BTreeMap::new();
            let entry = match (&element.image_index, &element.image) {
                (Some(index), _) => {
                    let descriptor = store.add_index(index, &positions, &mut diff_ids)?;
                    TarballEntry {
                        descriptor,
                        refs: index.refs.clone(),
                        tag: index.tag.clone(),
                        orig_ref: index.orig_ref.clone(),
                        labels: index.labels.clone(),
                        diff_ids,
                    }
                }
                (None, Some(image)) => {
                    let descriptor = store.add_image(image, &positions, &mut diff_ids)?;
                    TarballEntry {
                        descriptor,
                        refs: image.refs.clone(),
                        tag: image.tag.clone(),
                        orig_ref: image.orig_ref.clone(),
                        labels: image.labels.clone(),
                        diff_ids,
                    }
                }
                (None, None) => {
                    return Err(invalid(format!(
                        "manifest.json: element {i} has neither Image nor ImageIndex"
                    )));
                }
            };
            store.entries.push(entry);
        }
        Ok(store)
    }

    /// The tarball's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The top-level images and indexes, in `manifest.json` order.
    pub fn entries(&self) -> &[TarballEntry] {
        &self.entries
    }

    /// The entry labelled as the root bundle, if any.
    pub fn root_bundle(&self) -> Option<&TarballEntry> {
        self.entries.iter().find(|e| e.is_root_bundle())
    }

    fn invalid(&self, detail: impl Into<String>) -> OciError {
        OciError::Invalid {
            location: self.location(),
            detail: detail.into(),
        }
    }

    fn parse_digest(&self, text: &str, what: &str) -> Result<Digest> {
        text.parse::<Digest>()
            .map_err(|e| self.invalid(format!("manifest.json: {what}: {e}")))
    }

    /// Records a manifest after checking that its bytes match its digest.
    fn add_manifest(&mut self, media_type: &str, digest: &str, raw: &str) -> Result<Descriptor> {
        let digest = self.parse_digest(digest, "manifest digest")?;
        let manifest = ManifestBytes::new(media_type, Bytes::from(raw.as_bytes().to_vec()));
        if manifest.digest != digest {
            return Err(OciError::DigestMismatch {
                location: self.location(),
                expected: digest,
                actual: manifest.digest,
                size: raw.len() as u64,
            });
        }
        let descriptor = manifest.descriptor();
        self.manifests.insert(digest, manifest);
        Ok(descriptor)
    }

    fn add_index(
        &mut self,
        index: &IndexDescriptor,
        positions: &HashMap<String, (u64, u64)>,
        diff_ids: &mut BTreeMap<Digest, String>,
    ) -> Result<Descriptor> {
        let descriptor = self.add_manifest(&index.media_type, &index.digest, &index.raw)?;
        for image in &index.images {
            self.add_image(image, positions, diff_ids)?;
        }
        for child in &index.indexes {
            self.add_index(child, positions, diff_ids)?;
        }
        Ok(descriptor)
    }

    fn add_image(
        &mut self,
        image: &ImageDescriptor,
        positions: &HashMap<String, (u64, u64)>,
        diff_ids: &mut BTreeMap<Digest, String>,
    ) -> Result<Descriptor> {
        let descriptor = self.add_manifest(
            &image.manifest.media_type,
            &image.manifest.digest,
            &image.manifest.raw,
        )?;
        let config_digest = self.parse_digest(&image.config.digest, "config digest")?;
        let config = Bytes::from(image.config.raw.as_bytes().to_vec());
        let actual = Digest::of(&config);
        if actual != config_digest {
            return Err(OciError::DigestMismatch {
                location: self.location(),
                expected: config_digest,
                actual,
                size: config.len() as u64,
            });
        }
        self.configs.insert(config_digest, config);
        for layer in &image.layers {
            let digest = self.parse_digest(&layer.digest, "layer digest")?;
            let size = u64::try_from(layer.size).map_err(|_| {
                self.invalid(format!("manifest.json: layer {digest} has negative size"))
            })?;
            let position = positions.get(&layer_entry_name(&digest)).copied();
            diff_ids.insert(digest.clone(), layer.diff_id.clone());
            self.layers.insert(digest, LayerInfo { size, position });
        }
        Ok(descriptor)
    }

    fn manifest_for(&self, reference: &str) -> Result<Option<&ManifestBytes>> {
        if let Ok(digest) = reference.parse::<Digest>() {
            return Ok(self.manifests.get(&digest));
        }
        // A tag, or a full reference as recorded in Refs or OrigRef.
        let by_tag: Vec<&TarballEntry> =
            self.entries.iter().filter(|e| e.tag == reference).collect();
        let chosen = match by_tag.as_slice() {
            [] => self
                .entries
                .iter()
                .find(|e| e.refs.iter().any(|r| r == reference) || e.orig_ref == reference),
            [only] => Some(*only),
            several => {
                let roots: Vec<_> = several.iter().filter(|e| e.is_root_bundle()).collect();
                match roots.as_slice() {
                    [root] => Some(**root),
                    _ if several
                        .iter()
                        .all(|e| e.descriptor.digest == several[0].descriptor.digest) =>
                    {
                        Some(several[0])
                    }
                    _ => {
                        return Err(self.invalid(format!(
                            "several images are tagged {reference:?}; name one by digest"
                        )));
                    }
                }
            }
        };
        Ok(chosen.and_then(|e| self.manifests.get(&e.descriptor.digest)))
    }
}

/// Reads the tar's headers (seeking over bodies): returns the `manifest.json` body
/// and every entry's `(body offset, size)` by name.
#[allow(clippy::type_complexity)]
fn scan_tar(path: &Path) -> Result<(Option<Vec<u8>>, HashMap<String, (u64, u64)>)> {
    use std::io::Read;
    let context = || format!("reading tarball {}", path.display());
    let file = std::fs::File::open(path).map_err(|e| OciError::io(context(), e))?;
    let mut archive = tar::Archive::new(file);
    let mut manifest = None;
    let mut positions = HashMap::new();
    for entry in archive
        .entries_with_seek()
        .map_err(|e| OciError::io(context(), e))?
    {
        let mut entry = entry.map_err(|e| OciError::io(context(), e))?;
        let name = entry
            .path()
            .map_err(|e| OciError::io(context(), e))?
            .to_string_lossy()
            .into_owned();
        let size = entry.size();
        if name == "manifest.json" {
            let mut body = Vec::new();
            entry
                .read_to_end(&mut body)
                .map_err(|e| OciError::io(context(), e))?;
            manifest = Some(body);
        } else {
            positions.insert(name, (entry.raw_file_position(), size));
        }
    }
    Ok((manifest, positions))
}

#[async_trait::async_trait]
impl Store for TarballStore {
    fn location(&self) -> String {
        format!("tar:{}", self.path.display())
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        if let Some(config) = self.configs.get(digest) {
            return Ok(Some(config.len() as u64));
        }
        if let Some(manifest) = self.manifests.get(digest) {
            return Ok(Some(manifest.bytes.len() as u64));
        }
        Ok(self
            .layers
            .get(digest)
            .and_then(|l| l.position.map(|_| l.size)))
    }

    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        match self.layers.get(digest).and_then(|l| l.position) {
            Some((position, size)) if offset < size => {
                let context = format!("{}: reading layer {digest}", self.location());
                Ok(BlobRange {
                    start: offset,
                    stream: file_range_stream(
                        self.path.clone(),
                        position + offset,
                        Some(size - offset),
                        context,
                    ),
                })
            }
            _ => Ok(BlobRange {
                start: 0,
                stream: self.get_blob(digest).await?,
            }),
        }
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        if let Some(config) = self.configs.get(digest) {
            return Ok(bytes_stream(config.clone()));
        }
        if let Some(manifest) = self.manifests.get(digest) {
            return Ok(bytes_stream(manifest.bytes.clone()));
        }
        let Some(layer) = self.layers.get(digest) else {
            return Err(OciError::BlobUnknown {
                location: self.location(),
                digest: digest.clone(),
            });
        };
        let Some((offset, entry_size)) = layer.position else {
            return Err(self.invalid(format!(
                "file {} not found in tar (hint: non-distributable layers are only \
                 included when the tarball was written with --include-non-distributable-layers)",
                layer_entry_name(digest)
            )));
        };
        if entry_size != layer.size {
            return Err(OciError::SizeMismatch {
                location: self.location(),
                digest: digest.clone(),
                expected: layer.size,
                actual: entry_size,
            });
        }
        let context = format!("{}: reading layer {digest}", self.location());
        Ok(verify_stream(
            file_range_stream(self.path.clone(), offset, Some(entry_size), context),
            digest.clone(),
            Some(layer.size),
            self.location(),
        ))
    }

    async fn put_blob(&self, descriptor: &Descriptor, _data: BlobStream) -> Result<()> {
        Err(self.invalid(format!(
            "cannot store blob {}: an existing tarball is read-only",
            descriptor.digest
        )))
    }

    async fn put_blob_stream(&self, _media_type: &str, _data: BlobStream) -> Result<Descriptor> {
        Err(self.invalid("cannot store a blob: an existing tarball is read-only"))
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        Ok(self.manifest_for(reference)?.map(ManifestBytes::descriptor))
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        self.manifest_for(reference)?
            .cloned()
            .ok_or_else(|| OciError::ManifestUnknown {
                location: self.location(),
                reference: reference.to_string(),
            })
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, _tag: Option<&str>) -> Result<()> {
        Err(self.invalid(format!(
            "cannot store manifest {}: an existing tarball is read-only",
            manifest.digest
        )))
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        let mut tags: Vec<String> = self
            .entries
            .iter()
            .filter(|e| !e.tag.is_empty())
            .map(|e| e.tag.clone())
            .collect();
        tags.sort();
        tags.dedup();
        Ok(tags)
    }
}

/// True when `media_type` names a layer whose DiffID imgpkg records (known layer
/// types); other blobs (cosign payloads, …) get an empty DiffID.
pub fn has_diff_id(media_type: &str) -> bool {
    media_types::layer_compression(media_type).is_some()
}
