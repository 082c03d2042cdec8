//! [`LayoutStore`]: a [`Store`] over an OCI image layout directory (`oci-layout`,
//! `index.json`, `blobs/<alg>/<hex>`), the format skopeo, oras and crane read and
//! write. Tags are the `org.opencontainers.image.ref.name` annotations of the
//! `index.json` entries, kept as opaque strings (a ref name may be a whole image
//! reference such as `ghcr.io/acme/app:v1`).
//!
//! Every write is atomic: blobs are streamed into a partial file inside the
//! layout while they are hashed (named after the digest, so that a rerun after a
//! crash continues it: [`crate::oci::layout_partial`]), and renamed into place
//! only when digest and size match; `index.json` is rewritten through a temporary file and a rename. Every
//! read is verified against its digest.

use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde_json::{Map, Value, json};
use tokio::sync::Mutex;

use crate::oci::stream::{file_range_stream, verify_stream};
use crate::oci::{
    BlobRange, BlobStream, Descriptor, Digest, ManifestBytes, OciError, PartialBlob, Result, Store,
    VerifiedBlob, atomic, layout_partial, media_types,
};

/// The annotation that names an `index.json` entry (its "tag").
pub const REF_NAME_ANNOTATION: &str = "org.opencontainers.image.ref.name";
/// The only layout version there is.
pub const LAYOUT_VERSION: &str = "1.0.0";
/// Manifests larger than this are refused (registries use 4 MiB as well).
pub const MAX_MANIFEST_SIZE: u64 = 4 << 20;

/// One manifest listed in `index.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutEntry {
    pub descriptor: Descriptor,
    /// The `org.opencontainers.image.ref.name` annotation, if any.
    pub ref_name: Option<String>,
}

/// An OCI image layout directory.
pub struct LayoutStore {
    dir: PathBuf,
    /// Serialises read-modify-write cycles of `index.json` within this process.
    index_lock: Mutex<()>,
}

impl LayoutStore {
    /// Stores a blob from a stream verified (digest and size) on the way: spooled
    /// next to the blobs, renamed into place once complete.
    async fn store_checked(&self, descriptor: &Descriptor, checked: BlobStream) -> Result<()> {
        if self.blob_size(&descriptor.digest).await? == Some(descriptor.size) {
            return Ok(());
        }
        let dest = self.blob_path(&descriptor.digest);
        let dir = atomic::parent_dir(&dest);
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(|e| OciError::io(format!("creating {}", dir.display()), e))?;
        // The partial file lives in the layout directory itself, next to the
        // blobs, under a name a rerun finds (see `layout_partial`); when another
        // writer holds it, a temporary file of this writer's own.
        let Some(checked) =
            layout_partial::write_whole(&self.dir, descriptor, &dest, checked, &self.location())
                .await?
        else {
            return Ok(());
        };
        let temp =
            atomic::spool_checked(&self.dir, &descriptor.digest, checked, &self.location()).await?;
        atomic::commit(temp, &dest)
    }

    /// Opens an existing layout; fails when `dir` has no valid `oci-layout` file.
    pub fn open(dir: impl Into<PathBuf>) -> Result<LayoutStore> {
        let dir = dir.into();
        let marker = dir.join("oci-layout");
        let text = std::fs::read(&marker).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                OciError::Invalid {
                    location: format!("oci:{}", dir.display()),
                    detail: "not an OCI image layout (no oci-layout file)".into(),
                }
            } else {
                OciError::io(format!("reading {}", marker.display()), e)
            }
        })?;
        check_layout_marker(&marker, &text)?;
        Ok(LayoutStore {
            dir,
            index_lock: Mutex::new(()),
        })
    }

    /// Opens the layout at `dir`, creating it (and the directory) when missing. An
    /// existing non-empty directory that is not a layout is refused.
    /// Temporary files a killed writer left in an existing layout are removed.
    pub fn create(dir: impl Into<PathBuf>) -> Result<LayoutStore> {
        let dir = dir.into();
        if dir.join("oci-layout").exists() {
            let store = LayoutStore::open(dir)?;
            let removed = atomic::remove_stale_temp_files(&store.dir);
            if removed > 0 {
                tracing::info!(removed, layout = %store.dir.display(), "removed partial blobs a stopped copy left");
            }
            return Ok(store);
        }
        let location = format!("oci:{}", dir.display());
        match std::fs::read_dir(&dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(OciError::Invalid {
                        location,
                        detail: "directory exists, is not empty and is not an OCI image layout"
                            .into(),
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir_all(&dir)
                    .map_err(|e| OciError::io(format!("creating {}", dir.display()), e))?;
            }
            Err(e) => return Err(OciError::io(format!("reading {}", dir.display()), e)),
        }
        let blobs = dir.join("blobs").join("sha256");
        std::fs::create_dir_all(&blobs)
            .map_err(|e| OciError::io(format!("creating {}", blobs.display()), e))?;
        // index.json first, oci-layout last: a directory with the marker is complete.
        write_small_file_sync(
            &dir.join("index.json"),
            br#"{"schemaVersion":2,"manifests":[]}"#,
        )?;
        write_small_file_sync(&dir.join("oci-layout"), &layout_marker())?;
        Ok(LayoutStore {
            dir,
            index_lock: Mutex::new(()),
        })
    }

    /// The layout directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn index_path(&self) -> PathBuf {
        self.dir.join("index.json")
    }

    fn blob_path(&self, digest: &Digest) -> PathBuf {
        self.dir
            .join("blobs")
            .join(digest.algorithm())
            .join(digest.hex())
    }

    fn invalid(&self, detail: impl Into<String>) -> OciError {
        OciError::Invalid {
            location: self.location(),
            detail: detail.into(),
        }
    }

    /// Reads and parses `index.json`.
    async fn read_index(&self) -> Result<Value> {
        let path = self.index_path();
        let bytes = tokio::fs::read(&path)
            .await
            .map_err(|e| OciError::io(format!("reading {}", path.display()), e))?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| self.invalid(format!("index.json is not valid JSON: {e}")))?;
        if !value.is_object() {
            return Err(self.invalid("index.json is not a JSON object"));
        }
        if !value["manifests"].is_array() && !value["manifests"].is_null() {
            return Err(self.invalid("index.json: \"manifests\" is not an array"));
        }
        Ok(value)
    }

    /// Every entry of `index.json`, in file order.
    pub async fn entries(&self) -> Result<Vec<LayoutEntry>> {
        let index = self.read_index().await?;
        let mut out = Vec::new();
        for (i, entry) in index["manifests"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            out.push(self.parse_entry(i, entry)?);
        }
        Ok(out)
    }

    fn parse_entry(&self, i: usize, entry: &Value) -> Result<LayoutEntry> {
        let bad = |what: &str| self.invalid(format!("index.json: manifests[{i}]: {what}"));
        let digest = entry["digest"]
            .as_str()
            .ok_or_else(|| bad("no digest"))?
            .parse::<Digest>()
            .map_err(|e| bad(&e.to_string()))?;
        let size = entry["size"].as_u64().ok_or_else(|| bad("no size"))?;
        let media_type = entry["mediaType"].as_str().unwrap_or_default().to_string();
        let ref_name = entry["annotations"][REF_NAME_ANNOTATION]
            .as_str()
            .map(str::to_string);
        Ok(LayoutEntry {
            descriptor: Descriptor {
                media_type,
                digest,
                size,
            },
            ref_name,
        })
    }

    /// The entry to use when a location names no tag: the only entry of the
    /// layout, not counting entries that are children of a listed index (the
    /// untagged platform manifests a copied index leaves behind).
    pub async fn sole_entry(&self) -> Result<LayoutEntry> {
        let entries = self.entries().await?;
        let mut children = std::collections::HashSet::new();
        for entry in &entries {
            if media_types::is_index(&entry.descriptor.media_type) {
                let bytes = self.read_small_blob(&entry.descriptor.digest).await?;
                let index = ManifestBytes {
                    media_type: entry.descriptor.media_type.clone(),
                    digest: entry.descriptor.digest.clone(),
                    bytes,
                };
                for child in index.references(&self.location())? {
                    children.insert(child.digest);
                }
            }
        }
        let mut roots: Vec<LayoutEntry> = entries
            .into_iter()
            .filter(|e| !children.contains(&e.descriptor.digest))
            .collect();
        roots.dedup_by(|a, b| a.descriptor.digest == b.descriptor.digest);
        match roots.len() {
            1 => Ok(roots.remove(0)),
            0 => Err(self.invalid("the layout holds no image")),
            n => Err(self.invalid(format!(
                "the layout holds {n} images; name one with oci:DIR:TAG or oci:DIR@DIGEST"
            ))),
        }
    }

    /// Reads a blob that must be small (a manifest) fully and verifies it.
    async fn read_small_blob(&self, digest: &Digest) -> Result<Bytes> {
        if let Some(size) = self.blob_size(digest).await?
            && size > MAX_MANIFEST_SIZE
        {
            return Err(self.invalid(format!(
                "{digest} is {size} bytes, too large for a manifest"
            )));
        }
        let path = self.blob_path(digest);
        let bytes = match tokio::fs::read(&path).await {
            Ok(b) => Bytes::from(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OciError::ManifestUnknown {
                    location: self.location(),
                    reference: digest.to_string(),
                });
            }
            Err(e) => return Err(OciError::io(format!("reading {}", path.display()), e)),
        };
        let actual = Digest::of(&bytes);
        if &actual != digest {
            return Err(OciError::DigestMismatch {
                location: self.location(),
                expected: digest.clone(),
                actual,
                size: bytes.len() as u64,
            });
        }
        Ok(bytes)
    }

    /// Takes an exclusive advisory lock on the `oci-layout` file, so that other
    /// processes updating `index.json` the same way wait for us. Released on drop.
    async fn lock_layout(&self) -> Result<std::fs::File> {
        let path = self.dir.join("oci-layout");
        tokio::task::spawn_blocking(move || {
            let context = || format!("locking {}", path.display());
            let file = std::fs::File::open(&path).map_err(|e| OciError::io(context(), e))?;
            file.lock().map_err(|e| OciError::io(context(), e))?;
            Ok(file)
        })
        .await
        .map_err(|e| self.invalid(format!("lock task failed: {e}")))?
    }

    /// Rewrites `index.json` with `update` applied to its `manifests` array.
    async fn update_index(&self, update: impl FnOnce(&mut Vec<Value>)) -> Result<()> {
        let _guard = self.index_lock.lock().await;
        let _file_lock = self.lock_layout().await?;
        let mut index = self.read_index().await?;
        let object = index.as_object_mut().expect("checked in read_index");
        let mut manifests = match object.remove("manifests") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        };
        let before = manifests.clone();
        update(&mut manifests);
        if manifests == before && object.contains_key("schemaVersion") {
            return Ok(());
        }
        object
            .entry("schemaVersion")
            .or_insert_with(|| Value::from(2));
        object.insert("manifests".into(), Value::Array(manifests));
        let bytes = serde_json::to_vec(&index).expect("JSON values serialise");
        atomic::write_file(&self.index_path(), &bytes).await
    }
}

/// Checks the content of an `oci-layout` file.
fn check_layout_marker(path: &Path, text: &[u8]) -> Result<()> {
    let invalid = |detail: String| OciError::Invalid {
        location: path.display().to_string(),
        detail,
    };
    let value: Value =
        serde_json::from_slice(text).map_err(|e| invalid(format!("not valid JSON: {e}")))?;
    match value["imageLayoutVersion"].as_str() {
        Some(LAYOUT_VERSION) => Ok(()),
        Some(other) => Err(invalid(format!(
            "unsupported imageLayoutVersion {other:?} (expected {LAYOUT_VERSION:?})"
        ))),
        None => Err(invalid("no imageLayoutVersion".into())),
    }
}

/// Synchronous temp-and-rename write, for layout creation outside a runtime.
fn write_small_file_sync(dest: &Path, bytes: &[u8]) -> Result<()> {
    atomic::replace_file(dest, bytes, None)
        .map_err(|e| OciError::io(format!("writing {}", dest.display()), e))
}

/// The manifest `bytes` that `descriptor` names, its media type sniffed from the
/// bytes when an index entry did not record one.
pub fn manifest_of(descriptor: Descriptor, bytes: Bytes) -> ManifestBytes {
    let media_type = if descriptor.media_type.is_empty() {
        sniff_manifest_media_type(&bytes).unwrap_or_default()
    } else {
        descriptor.media_type
    };
    ManifestBytes {
        media_type,
        digest: descriptor.digest,
        bytes,
    }
}

/// The media type of manifest `bytes`: its own `mediaType` field, or a guess from
/// its shape (an OCI manifest may omit the field).
pub fn sniff_manifest_media_type(bytes: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    if let Some(mt) = value["mediaType"].as_str() {
        return Some(mt.to_string());
    }
    if value["manifests"].is_array() {
        Some(media_types::OCI_INDEX.to_string())
    } else if value["config"].is_object() {
        Some(media_types::OCI_MANIFEST.to_string())
    } else {
        None
    }
}

fn entry_json(descriptor: &Descriptor, ref_name: Option<&str>) -> Value {
    let mut entry = Map::new();
    entry.insert("mediaType".into(), json!(descriptor.media_type));
    entry.insert("digest".into(), json!(descriptor.digest.as_str()));
    entry.insert("size".into(), json!(descriptor.size));
    if let Some(name) = ref_name {
        entry.insert("annotations".into(), json!({ REF_NAME_ANNOTATION: name }));
    }
    Value::Object(entry)
}

/// What storing `descriptor` (tagged `tag`, if any) does to the `manifests` of
/// `index.json`: a tag moves to it, replacing an untagged entry of the same
/// digest; an untagged manifest is listed once.
pub fn index_put(manifests: &mut Vec<Value>, descriptor: &Descriptor, tag: Option<&str>) {
    match tag {
        Some(tag) => {
            manifests.retain(|e| {
                let same_digest = e["digest"].as_str() == Some(descriptor.digest.as_str());
                match entry_ref_name(e) {
                    Some(name) => name != tag,
                    None => !same_digest,
                }
            });
            manifests.push(entry_json(descriptor, Some(tag)));
        }
        None => {
            let listed = manifests
                .iter()
                .any(|e| e["digest"].as_str() == Some(descriptor.digest.as_str()));
            if !listed {
                manifests.push(entry_json(descriptor, None));
            }
        }
    }
}

/// The bytes of an `index.json` listing `manifests`, as [`LayoutStore`] writes it.
pub fn index_json(manifests: Vec<Value>) -> Vec<u8> {
    let mut index = Map::new();
    index.insert("schemaVersion".into(), Value::from(2));
    index.insert("manifests".into(), Value::Array(manifests));
    serde_json::to_vec(&Value::Object(index)).expect("JSON values serialise")
}

/// The content of the `oci-layout` file.
pub fn layout_marker() -> Vec<u8> {
    format!(r#"{{"imageLayoutVersion":"{LAYOUT_VERSION}"}}"#).into_bytes()
}

fn entry_ref_name(entry: &Value) -> Option<&str> {
    entry["annotations"][REF_NAME_ANNOTATION].as_str()
}

#[async_trait::async_trait]
impl Store for LayoutStore {
    fn location(&self) -> String {
        format!("oci:{}", self.dir.display())
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        let path = self.blob_path(digest);
        match tokio::fs::metadata(&path).await {
            Ok(m) if m.is_file() => Ok(Some(m.len())),
            Ok(_) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(OciError::io(format!("reading {}", path.display()), e)),
        }
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        let path = self.blob_path(digest);
        match tokio::fs::metadata(&path).await {
            Ok(m) if m.is_file() => {}
            Ok(_) => {
                return Err(OciError::BlobUnknown {
                    location: self.location(),
                    digest: digest.clone(),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(OciError::BlobUnknown {
                    location: self.location(),
                    digest: digest.clone(),
                });
            }
            Err(e) => return Err(OciError::io(format!("opening {}", path.display()), e)),
        }
        let context = format!("reading {}", path.display());
        Ok(verify_stream(
            file_range_stream(path, 0, None, context),
            digest.clone(),
            None,
            self.location(),
        ))
    }

    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        let path = self.blob_path(digest);
        match tokio::fs::metadata(&path).await {
            Ok(m) if m.is_file() && offset < m.len() => Ok(BlobRange {
                start: offset,
                stream: file_range_stream(
                    path.clone(),
                    offset,
                    Some(m.len() - offset),
                    format!("reading {}", path.display()),
                ),
            }),
            _ => Ok(BlobRange {
                start: 0,
                stream: self.get_blob(digest).await?,
            }),
        }
    }

    async fn resume_blob(&self, descriptor: &Descriptor) -> Result<Option<Box<dyn PartialBlob>>> {
        if self.blob_size(&descriptor.digest).await? == Some(descriptor.size) {
            return Ok(None);
        }
        let dest = self.blob_path(&descriptor.digest);
        Ok(
            layout_partial::resume(&self.dir, descriptor, dest, self.location())
                .await?
                .map(|p| Box::new(p) as Box<dyn PartialBlob>),
        )
    }

    async fn finish(&self) -> Result<()> {
        let removed = layout_partial::remove_orphans(&self.dir);
        if removed > 0 {
            tracing::info!(removed, layout = %self.dir.display(), "removed partial blobs no copy continued");
        }
        Ok(())
    }

    async fn put_verified_blob(&self, descriptor: &Descriptor, data: VerifiedBlob) -> Result<()> {
        let checked = data.checked_for(descriptor, self.location());
        self.store_checked(descriptor, checked).await
    }

    async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()> {
        let verified = verify_stream(
            data,
            descriptor.digest.clone(),
            Some(descriptor.size),
            self.location(),
        );
        self.store_checked(descriptor, verified).await
    }

    async fn put_blob_stream(&self, media_type: &str, data: BlobStream) -> Result<Descriptor> {
        // Hashed while it is written next to the blobs, renamed once the digest is known.
        let (temp, digest, size) = atomic::spool_hashed(&self.dir, data, &self.location()).await?;
        let descriptor = Descriptor {
            media_type: media_type.to_string(),
            digest,
            size,
        };
        if self.blob_size(&descriptor.digest).await? != Some(size) {
            let dest = self.blob_path(&descriptor.digest);
            let dir = atomic::parent_dir(&dest);
            tokio::fs::create_dir_all(&dir)
                .await
                .map_err(|e| OciError::io(format!("creating {}", dir.display()), e))?;
            atomic::commit(temp, &dest)?;
        }
        Ok(descriptor)
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        let entries = self.entries().await?;
        if let Ok(digest) = reference.parse::<Digest>() {
            if let Some(entry) = entries.iter().find(|e| e.descriptor.digest == digest)
                && !entry.descriptor.media_type.is_empty()
            {
                return Ok(Some(entry.descriptor.clone()));
            }
            let Some(size) = self.blob_size(&digest).await? else {
                return Ok(None);
            };
            let bytes = self.read_small_blob(&digest).await?;
            let media_type = sniff_manifest_media_type(&bytes).ok_or_else(|| {
                self.invalid(format!("{digest} is not a manifest (no media type)"))
            })?;
            return Ok(Some(Descriptor {
                media_type,
                digest,
                size,
            }));
        }
        let mut matching = entries
            .into_iter()
            .filter(|e| e.ref_name.as_deref() == Some(reference));
        let Some(first) = matching.next() else {
            return Ok(None);
        };
        if matching.any(|e| e.descriptor.digest != first.descriptor.digest) {
            return Err(self.invalid(format!(
                "index.json has several different manifests named {reference:?}"
            )));
        }
        Ok(Some(first.descriptor))
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        let descriptor =
            self.resolve(reference)
                .await?
                .ok_or_else(|| OciError::ManifestUnknown {
                    location: self.location(),
                    reference: reference.to_string(),
                })?;
        let bytes = self.read_small_blob(&descriptor.digest).await?;
        Ok(manifest_of(descriptor, bytes))
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()> {
        manifest.check_digest(&self.location())?;
        let descriptor = manifest.descriptor();
        self.put_blob(
            &descriptor,
            crate::oci::stream::bytes_stream(manifest.bytes.clone()),
        )
        .await?;
        self.update_index(|manifests| index_put(manifests, &descriptor, tag))
            .await
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        let mut tags: Vec<String> = self
            .entries()
            .await?
            .into_iter()
            .filter_map(|e| e.ref_name)
            .collect();
        tags.sort();
        tags.dedup();
        Ok(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::stream::bytes_stream;
    use crate::oci::stream::tests::drain;

    fn manifest(n: u8) -> ManifestBytes {
        let text = format!(
            r#"{{"schemaVersion":2,"mediaType":"{}","config":{{"mediaType":"{}","digest":"{}","size":{n}}},"layers":[]}}"#,
            media_types::OCI_MANIFEST,
            media_types::OCI_CONFIG,
            Digest::of(&[n]),
        );
        ManifestBytes::new(media_types::OCI_MANIFEST, text.into_bytes())
    }

    #[tokio::test]
    async fn creates_missing_directory_and_round_trips() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b/layout");
        let store = LayoutStore::create(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("oci-layout")).unwrap(),
            r#"{"imageLayoutVersion":"1.0.0"}"#
        );
        let blob = Bytes::from_static(b"layer bytes");
        let desc = Descriptor {
            media_type: media_types::OCI_LAYER_GZIP.into(),
            digest: Digest::of(&blob),
            size: blob.len() as u64,
        };
        store
            .put_blob(&desc, bytes_stream(blob.clone()))
            .await
            .unwrap();
        assert_eq!(store.blob_size(&desc.digest).await.unwrap(), Some(11));
        assert_eq!(
            drain(store.get_blob(&desc.digest).await.unwrap())
                .await
                .unwrap(),
            blob
        );
        let m = manifest(1);
        store.put_manifest(&m, None).await.unwrap();
        store
            .put_manifest(&m, Some("ghcr.io/acme/app:v1"))
            .await
            .unwrap();
        store.put_manifest(&m, Some("v2")).await.unwrap();
        let entries = store.entries().await.unwrap();
        assert_eq!(entries.len(), 2, "untagged entry replaced by tagged ones");
        assert_eq!(
            store.list_tags().await.unwrap(),
            vec!["ghcr.io/acme/app:v1".to_string(), "v2".to_string()]
        );
        let got = store.get_manifest("ghcr.io/acme/app:v1").await.unwrap();
        assert_eq!(got, m);
        let by_digest = store.get_manifest(m.digest.as_str()).await.unwrap();
        assert_eq!(by_digest, m);
        // Moving a tag replaces its entry.
        let m2 = manifest(2);
        store.put_manifest(&m2, Some("v2")).await.unwrap();
        assert_eq!(
            store.resolve("v2").await.unwrap().unwrap().digest,
            m2.digest
        );
        assert_eq!(store.entries().await.unwrap().len(), 2);
        // Untagged put of an already listed digest adds nothing.
        store.put_manifest(&m2, None).await.unwrap();
        assert_eq!(store.entries().await.unwrap().len(), 2);
        assert!(store.resolve("missing").await.unwrap().is_none());
        let err = store.sole_entry().await.unwrap_err().to_string();
        assert!(err.contains("holds 2 images"), "{err}");
    }

    #[tokio::test]
    async fn bad_blob_and_corrupt_blob_are_rejected() {
        let tmp = tempfile::tempdir().unwrap();
        let store = LayoutStore::create(tmp.path()).unwrap();
        let desc = Descriptor {
            media_type: media_types::OCI_LAYER_GZIP.into(),
            digest: Digest::of(b"good"),
            size: 4,
        };
        let err = store
            .put_blob(&desc, bytes_stream(Bytes::from_static(b"evil")))
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("does not match its digest"),
            "{err}"
        );
        assert_eq!(store.blob_size(&desc.digest).await.unwrap(), None);
        let names: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            !names.iter().any(|n| n.starts_with(atomic::TEMP_PREFIX)),
            "{names:?}"
        );
        // A blob corrupted on disk fails when read.
        std::fs::write(store.blob_path(&desc.digest), b"evil").unwrap();
        let err = drain(store.get_blob(&desc.digest).await.unwrap())
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("does not match its digest"),
            "{err}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writers_on_one_layout_lose_no_entry() {
        let tmp = tempfile::tempdir().unwrap();
        let first = std::sync::Arc::new(LayoutStore::create(tmp.path()).unwrap());
        let mut tasks = Vec::new();
        for n in 0..40u8 {
            // Half the writers share an instance, half open their own (as separate
            // processes would), so only the file lock keeps them apart.
            let store = if n % 2 == 0 {
                first.clone()
            } else {
                std::sync::Arc::new(LayoutStore::open(tmp.path()).unwrap())
            };
            tasks.push(tokio::spawn(async move {
                store
                    .put_manifest(&manifest(n), Some(&format!("t{n}")))
                    .await
                    .unwrap();
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(first.list_tags().await.unwrap().len(), 40);
    }

    #[test]
    fn refuses_foreign_directories_and_versions() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("file"), "x").unwrap();
        let err = LayoutStore::create(tmp.path()).err().unwrap().to_string();
        assert!(err.contains("not an OCI image layout"), "{err}");
        let err = LayoutStore::open(tmp.path()).err().unwrap().to_string();
        assert!(err.contains("no oci-layout file"), "{err}");
        std::fs::write(
            tmp.path().join("oci-layout"),
            r#"{"imageLayoutVersion":"2.0.0"}"#,
        )
        .unwrap();
        let err = LayoutStore::open(tmp.path()).err().unwrap().to_string();
        assert!(err.contains("unsupported imageLayoutVersion"), "{err}");
    }
}
