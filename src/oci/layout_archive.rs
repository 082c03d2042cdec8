//! [`LayoutArchiveStore`]: a read-only [`Store`] over a tar of an OCI image
//! layout (what `strake copy --to-oci-layout FILE.tar`, `skopeo copy …
//! oci-archive:FILE.tar` and `oras` write), read in place: opening it walks the
//! tar headers once (seeking over the bodies) and keeps where each file's body
//! is; a blob is streamed from its offset and verified against its digest. Tags
//! are the `org.opencontainers.image.ref.name` annotations of `index.json`, as
//! in a layout directory.

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncSeekExt};
use tokio_util::io::ReaderStream;

use crate::oci::layout::{LAYOUT_VERSION, MAX_MANIFEST_SIZE, REF_NAME_ANNOTATION};
use crate::oci::layout::{manifest_of, sniff_manifest_media_type};
use crate::oci::stream::verify_stream;
use crate::oci::{
    BlobRange, BlobStream, Descriptor, Digest, ManifestBytes, OciError, Result, Store, atomic,
};

/// A tar of an OCI image layout, opened for reading.
pub struct LayoutArchiveStore {
    path: PathBuf,
    /// Normalised entry name → (body offset, size).
    files: HashMap<String, (u64, u64)>,
    /// The `manifests` of `index.json`.
    index: Vec<Value>,
}

/// Whether `path` is a file (a tar) rather than a layout directory.
pub fn is_archive(path: &Path) -> bool {
    path.is_file()
}

fn normalise(name: &str) -> String {
    let mut name = name;
    while let Some(rest) = name.strip_prefix("./") {
        name = rest;
    }
    name.trim_start_matches('/').to_string()
}

impl LayoutArchiveStore {
    /// Opens the tar at `path`: it must hold `oci-layout` (version 1.0.0) and
    /// `index.json`.
    pub fn open(path: impl Into<PathBuf>) -> Result<LayoutArchiveStore> {
        let path = path.into();
        let location = format!("oci:{}", path.display());
        let invalid = |detail: String| OciError::Invalid {
            location: location.clone(),
            detail,
        };
        let context = || format!("reading {}", path.display());
        let file = std::fs::File::open(&path).map_err(|e| OciError::io(context(), e))?;
        let mut archive = tar::Archive::new(file);
        let mut files = HashMap::new();
        for entry in archive
            .entries_with_seek()
            .map_err(|e| OciError::io(context(), e))?
        {
            let entry = entry.map_err(|e| invalid(format!("not a tar archive: {e}")))?;
            if !matches!(
                entry.header().entry_type(),
                tar::EntryType::Regular | tar::EntryType::Continuous
            ) {
                continue;
            }
            let name = entry
                .path()
                .map_err(|e| invalid(format!("bad entry name: {e}")))?
                .to_string_lossy()
                .into_owned();
            files.insert(normalise(&name), (entry.raw_file_position(), entry.size()));
        }
        let mut file = archive.into_inner();
        let mut small = |name: &str| -> Result<Vec<u8>> {
            let &(offset, size) = files
                .get(name)
                .ok_or_else(|| invalid(format!("not an OCI image layout tar (no {name})")))?;
            if size > MAX_MANIFEST_SIZE {
                return Err(invalid(format!("{name} is {size} bytes, too large")));
            }
            let mut bytes = vec![0u8; size as usize];
            file.seek(SeekFrom::Start(offset))
                .and_then(|_| file.read_exact(&mut bytes))
                .map_err(|e| OciError::io(context(), e))?;
            Ok(bytes)
        };
        let marker: Value = serde_json::from_slice(&small("oci-layout")?)
            .map_err(|e| invalid(format!("oci-layout is not valid JSON: {e}")))?;
        if marker["imageLayoutVersion"].as_str() != Some(LAYOUT_VERSION) {
            return Err(invalid(format!(
                "unsupported imageLayoutVersion {} (expected {LAYOUT_VERSION:?})",
                marker["imageLayoutVersion"]
            )));
        }
        let index: Value = serde_json::from_slice(&small("index.json")?)
            .map_err(|e| invalid(format!("index.json is not valid JSON: {e}")))?;
        let index = match &index["manifests"] {
            Value::Array(a) => a.clone(),
            Value::Null => Vec::new(),
            _ => return Err(invalid("index.json: \"manifests\" is not an array".into())),
        };
        Ok(LayoutArchiveStore { path, files, index })
    }

    fn blob_entry(&self, digest: &Digest) -> Option<(u64, u64)> {
        self.files
            .get(&format!("blobs/{}/{}", digest.algorithm(), digest.hex()))
            .copied()
    }

    fn entry_descriptor(&self, entry: &Value) -> Option<Descriptor> {
        Some(Descriptor {
            media_type: entry["mediaType"].as_str().unwrap_or_default().to_string(),
            digest: entry["digest"].as_str()?.parse().ok()?,
            size: entry["size"].as_u64()?,
        })
    }

    /// The descriptor the index names `reference` (a ref name), if any.
    fn named(&self, reference: &str) -> Result<Option<Descriptor>> {
        let mut matching = self
            .index
            .iter()
            .filter(|e| e["annotations"][REF_NAME_ANNOTATION].as_str() == Some(reference))
            .filter_map(|e| self.entry_descriptor(e));
        let Some(first) = matching.next() else {
            return Ok(None);
        };
        if matching.any(|d| d.digest != first.digest) {
            return Err(OciError::Invalid {
                location: self.location(),
                detail: format!("index.json has several different manifests named {reference:?}"),
            });
        }
        Ok(Some(first))
    }

    async fn read_small_blob(&self, digest: &Digest) -> Result<Bytes> {
        let (offset, size) = self
            .blob_entry(digest)
            .ok_or_else(|| OciError::ManifestUnknown {
                location: self.location(),
                reference: digest.to_string(),
            })?;
        if size > MAX_MANIFEST_SIZE {
            return Err(OciError::Invalid {
                location: self.location(),
                detail: format!("{digest} is {size} bytes, too large for a manifest"),
            });
        }
        let context = || format!("reading {}", self.path.display());
        let mut file = tokio::fs::File::open(&self.path)
            .await
            .map_err(|e| OciError::io(context(), e))?;
        file.seek(SeekFrom::Start(offset))
            .await
            .map_err(|e| OciError::io(context(), e))?;
        let mut bytes = vec![0u8; size as usize];
        file.read_exact(&mut bytes)
            .await
            .map_err(|e| OciError::io(context(), e))?;
        let actual = Digest::of(&bytes);
        if &actual != digest {
            return Err(OciError::DigestMismatch {
                location: self.location(),
                expected: digest.clone(),
                actual,
                size,
            });
        }
        Ok(Bytes::from(bytes))
    }
}

#[async_trait::async_trait]
impl Store for LayoutArchiveStore {
    fn location(&self) -> String {
        format!("oci:{}", self.path.display())
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        Ok(self.blob_entry(digest).map(|(_, size)| size))
    }

    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        match self.blob_entry(digest) {
            Some((position, size)) if offset < size => Ok(BlobRange {
                start: offset,
                stream: crate::oci::stream::file_range_stream(
                    self.path.clone(),
                    position + offset,
                    Some(size - offset),
                    format!("reading {}", self.path.display()),
                ),
            }),
            _ => Ok(BlobRange {
                start: 0,
                stream: self.get_blob(digest).await?,
            }),
        }
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        let (offset, size) = self
            .blob_entry(digest)
            .ok_or_else(|| OciError::BlobUnknown {
                location: self.location(),
                digest: digest.clone(),
            })?;
        let context = format!("reading {}", self.path.display());
        let mut file = tokio::fs::File::open(&self.path)
            .await
            .map_err(|e| OciError::io(context.clone(), e))?;
        file.seek(SeekFrom::Start(offset))
            .await
            .map_err(|e| OciError::io(context.clone(), e))?;
        let stream = futures_util::TryStreamExt::map_err(
            ReaderStream::with_capacity(file.take(size), atomic::READ_CHUNK),
            move |e| OciError::io(context.clone(), e),
        );
        Ok(verify_stream(
            Box::pin(stream),
            digest.clone(),
            Some(size),
            self.location(),
        ))
    }

    async fn put_blob(&self, descriptor: &Descriptor, _data: BlobStream) -> Result<()> {
        Err(OciError::Invalid {
            location: self.location(),
            detail: format!(
                "an OCI layout tar is read-only (blob {}); write a layout directory or FILE.tar with strake copy --to-oci-layout",
                descriptor.digest
            ),
        })
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        let Ok(digest) = reference.parse::<Digest>() else {
            return self.named(reference);
        };
        if let Some(d) = self
            .index
            .iter()
            .filter_map(|e| self.entry_descriptor(e))
            .find(|d| d.digest == digest && !d.media_type.is_empty())
        {
            return Ok(Some(d));
        }
        let Some((_, size)) = self.blob_entry(&digest) else {
            return Ok(None);
        };
        let bytes = self.read_small_blob(&digest).await?;
        let media_type = sniff_manifest_media_type(&bytes).ok_or_else(|| OciError::Invalid {
            location: self.location(),
            detail: format!("{digest} is not a manifest (no media type)"),
        })?;
        Ok(Some(Descriptor {
            media_type,
            digest,
            size,
        }))
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

    async fn put_manifest(&self, manifest: &ManifestBytes, _tag: Option<&str>) -> Result<()> {
        Err(OciError::Invalid {
            location: self.location(),
            detail: format!(
                "an OCI layout tar is read-only (manifest {})",
                manifest.digest
            ),
        })
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        let mut tags: Vec<String> = self
            .index
            .iter()
            .filter_map(|e| e["annotations"][REF_NAME_ANNOTATION].as_str())
            .map(str::to_string)
            .collect();
        tags.sort();
        tags.dedup();
        Ok(tags)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::layout::LayoutStore;
    use crate::oci::stream::bytes_stream;
    use crate::oci::stream::tests::drain;

    #[tokio::test]
    async fn reads_a_tar_of_a_layout_directory_made_by_another_tool() {
        let dir = tempfile::tempdir().unwrap();
        let layout = LayoutStore::create(dir.path().join("layout")).unwrap();
        let data = Bytes::from(vec![7u8; 3000]);
        let blob = Descriptor {
            media_type: "application/octet-stream".into(),
            digest: Digest::of(&data),
            size: data.len() as u64,
        };
        layout
            .put_blob(&blob, bytes_stream(data.clone()))
            .await
            .unwrap();
        let manifest = ManifestBytes::new(
            crate::oci::media_types::OCI_MANIFEST,
            format!(
                r#"{{"schemaVersion":2,"config":{{"mediaType":"a","digest":"{}","size":3000}},"layers":[]}}"#,
                blob.digest
            ),
        );
        layout.put_manifest(&manifest, Some("v1")).await.unwrap();
        // A tar as GNU tar or Go's archive/tar writes it, with ./ names.
        let file = dir.path().join("layout.tar");
        let mut builder = tar::Builder::new(std::fs::File::create(&file).unwrap());
        builder.append_dir_all(".", layout.dir()).unwrap();
        builder.finish().unwrap();

        let store = LayoutArchiveStore::open(&file).unwrap();
        assert_eq!(store.get_manifest("v1").await.unwrap(), manifest);
        assert_eq!(
            store.get_manifest(manifest.digest.as_str()).await.unwrap(),
            manifest
        );
        assert_eq!(store.list_tags().await.unwrap(), vec!["v1".to_string()]);
        assert_eq!(store.blob_size(&blob.digest).await.unwrap(), Some(3000));
        assert_eq!(
            drain(store.get_blob(&blob.digest).await.unwrap())
                .await
                .unwrap(),
            data
        );
        assert!(store.resolve("v2").await.unwrap().is_none());

        let err = LayoutArchiveStore::open(dir.path().join("layout/index.json"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("not"), "{err}");
    }
}
