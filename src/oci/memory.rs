//! An in-memory [`Store`] for small images that are made and moved in one go,
//! such as the locations image a copy builds and pushes: blobs, manifests and
//! tags live in maps and nothing touches the disk. Every blob is held whole, so
//! it is not a place for layers of real size.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;

use crate::oci::digest::Hasher;
use crate::oci::stream::{BlobStream, bytes_stream, verify_stream};
use crate::oci::{Descriptor, Digest, ManifestBytes, OciError, Result, Store};

/// Blobs, manifests and tags held in memory (see the module doc).
pub struct MemoryStore {
    name: String,
    contents: Mutex<Contents>,
}

#[derive(Default)]
struct Contents {
    blobs: HashMap<Digest, Bytes>,
    manifests: HashMap<Digest, ManifestBytes>,
    tags: BTreeMap<String, Digest>,
}

impl MemoryStore {
    /// An empty store; `name` says what it holds in messages (`memory:NAME`).
    pub fn new(name: &str) -> MemoryStore {
        MemoryStore {
            name: name.to_string(),
            contents: Mutex::new(Contents::default()),
        }
    }

    fn contents(&self) -> std::sync::MutexGuard<'_, Contents> {
        self.contents.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads `data` whole; an error in the stream is returned as it is.
    async fn collect(mut data: BlobStream) -> Result<Bytes> {
        let mut all = BytesMut::new();
        while let Some(chunk) = data.next().await {
            all.extend_from_slice(&chunk?);
        }
        Ok(all.freeze())
    }
}

#[async_trait::async_trait]
impl Store for MemoryStore {
    fn location(&self) -> String {
        format!("memory:{}", self.name)
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        let contents = self.contents();
        Ok(contents
            .blobs
            .get(digest)
            .map(|b| b.len() as u64)
            .or_else(|| contents.manifests.get(digest).map(|m| m.bytes.len() as u64)))
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        let contents = self.contents();
        let bytes = contents
            .blobs
            .get(digest)
            .cloned()
            .or_else(|| contents.manifests.get(digest).map(|m| m.bytes.clone()))
            .ok_or_else(|| OciError::BlobUnknown {
                location: self.location(),
                digest: digest.clone(),
            })?;
        Ok(bytes_stream(bytes))
    }

    async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()> {
        let checked = verify_stream(
            data,
            descriptor.digest.clone(),
            Some(descriptor.size),
            self.location(),
        );
        let bytes = MemoryStore::collect(checked).await?;
        self.contents()
            .blobs
            .insert(descriptor.digest.clone(), bytes);
        Ok(())
    }

    async fn put_blob_stream(&self, media_type: &str, data: BlobStream) -> Result<Descriptor> {
        let bytes = MemoryStore::collect(data).await?;
        let mut hasher = Hasher::new();
        hasher.update(&bytes);
        let descriptor = Descriptor {
            media_type: media_type.to_string(),
            digest: hasher.finish(),
            size: bytes.len() as u64,
        };
        self.contents()
            .blobs
            .insert(descriptor.digest.clone(), bytes);
        Ok(descriptor)
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        let contents = self.contents();
        // A tag has no ':', a digest always has one.
        let digest = match reference.parse::<Digest>() {
            Ok(digest) => Some(digest),
            Err(_) => contents.tags.get(reference).cloned(),
        };
        Ok(digest
            .and_then(|d| contents.manifests.get(&d))
            .map(ManifestBytes::descriptor))
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        let found = self.resolve(reference).await?;
        found
            .and_then(|d| self.contents().manifests.get(&d.digest).cloned())
            .ok_or_else(|| OciError::ManifestUnknown {
                location: self.location(),
                reference: reference.to_string(),
            })
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()> {
        manifest.check_digest(&self.location())?;
        let mut contents = self.contents();
        contents
            .manifests
            .insert(manifest.digest.clone(), manifest.clone());
        if let Some(tag) = tag {
            contents
                .tags
                .insert(tag.to_string(), manifest.digest.clone());
        }
        Ok(())
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        Ok(self.contents().tags.keys().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::media_types;

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn blobs_manifests_and_tags_round_trip() {
        block_on(async {
            let store = MemoryStore::new("test");
            let blob = Bytes::from_static(b"layer bytes");
            let descriptor = Descriptor {
                media_type: media_types::OCI_LAYER_GZIP.to_string(),
                digest: Digest::of(&blob),
                size: blob.len() as u64,
            };
            store
                .put_blob(&descriptor, bytes_stream(blob.clone()))
                .await
                .unwrap();
            assert_eq!(store.blob_size(&descriptor.digest).await.unwrap(), Some(11));
            let back = MemoryStore::collect(store.get_blob(&descriptor.digest).await.unwrap())
                .await
                .unwrap();
            assert_eq!(back, blob);

            let manifest = ManifestBytes::new(media_types::OCI_MANIFEST, b"{}".to_vec());
            store.put_manifest(&manifest, Some("v1")).await.unwrap();
            assert_eq!(store.list_tags().await.unwrap(), vec!["v1".to_string()]);
            let by_tag = store.get_manifest("v1").await.unwrap();
            assert_eq!(by_tag, manifest);
            let by_digest = store.resolve(manifest.digest.as_str()).await.unwrap();
            assert_eq!(by_digest, Some(manifest.descriptor()));
            assert_eq!(store.resolve("v2").await.unwrap(), None);
        });
    }

    #[test]
    fn a_blob_that_does_not_match_its_digest_is_refused_and_not_kept() {
        block_on(async {
            let store = MemoryStore::new("test");
            let descriptor = Descriptor {
                media_type: media_types::OCI_LAYER_GZIP.to_string(),
                digest: Digest::of(b"expected"),
                size: 8,
            };
            let err = store
                .put_blob(&descriptor, bytes_stream(Bytes::from_static(b"tampered")))
                .await
                .unwrap_err();
            assert!(
                err.to_string().contains(descriptor.digest.as_str()),
                "{err}"
            );
            assert_eq!(store.blob_size(&descriptor.digest).await.unwrap(), None);
        });
    }
}
