//! Several read-only stores seen as one, for a copy whose bundles lock images
//! that other OCI layouts hold (`strake copy --image-source oci:DIR`): tags are
//! the first store's, and anything named by digest (a manifest, a blob) is read
//! from the first store that holds it. Writing is refused: a union is only ever
//! a source.

use std::sync::Arc;

use crate::oci::{
    BlobRange, BlobStream, Descriptor, Digest, ManifestBytes, OciError, PartialBlob, Result, Store,
};

/// The first store, then the others, searched in order.
pub struct UnionStore {
    stores: Vec<Arc<dyn Store>>,
}

impl UnionStore {
    /// `first` holds the tags; `others` are searched by digest after it.
    pub fn new(first: Arc<dyn Store>, others: Vec<Arc<dyn Store>>) -> UnionStore {
        let mut stores = vec![first];
        stores.extend(others);
        UnionStore { stores }
    }

    fn first(&self) -> &dyn Store {
        self.stores[0].as_ref()
    }

    /// The first store holding blob `digest`, else the first store (whose
    /// error then names what is missing).
    async fn with_blob(&self, digest: &Digest) -> &dyn Store {
        for store in &self.stores {
            if matches!(store.blob_size(digest).await, Ok(Some(_))) {
                return store.as_ref();
            }
        }
        self.first()
    }

    /// The first store where `reference` resolves: any store for a digest,
    /// only the first for a tag.
    async fn with_manifest(&self, reference: &str) -> &dyn Store {
        if reference.parse::<Digest>().is_ok() {
            for store in &self.stores {
                if matches!(store.resolve(reference).await, Ok(Some(_))) {
                    return store.as_ref();
                }
            }
        }
        self.first()
    }

    fn read_only(&self, what: &str) -> OciError {
        OciError::Invalid {
            location: self.location(),
            detail: format!("cannot store {what}: a copy's sources are read-only"),
        }
    }
}

#[async_trait::async_trait]
impl Store for UnionStore {
    fn location(&self) -> String {
        self.first().location()
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        for store in &self.stores {
            if let Ok(Some(size)) = store.blob_size(digest).await {
                return Ok(Some(size));
            }
        }
        // None holds it: the first store's answer (its error, or `None`).
        self.first().blob_size(digest).await
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        self.with_blob(digest).await.get_blob(digest).await
    }

    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        self.with_blob(digest)
            .await
            .get_blob_from(digest, offset)
            .await
    }

    async fn resume_blob(&self, _descriptor: &Descriptor) -> Result<Option<Box<dyn PartialBlob>>> {
        Ok(None)
    }

    async fn put_blob(&self, descriptor: &Descriptor, _data: BlobStream) -> Result<()> {
        Err(self.read_only(&format!("blob {}", descriptor.digest)))
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        if reference.parse::<Digest>().is_ok() {
            for store in &self.stores {
                if let Ok(Some(found)) = store.resolve(reference).await {
                    return Ok(Some(found));
                }
            }
        }
        self.first().resolve(reference).await
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        self.with_manifest(reference)
            .await
            .get_manifest(reference)
            .await
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, _tag: Option<&str>) -> Result<()> {
        Err(self.read_only(&format!("manifest {}", manifest.digest)))
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        self.first().list_tags().await
    }

    async fn referrers(&self, digest: &Digest) -> Result<Option<Vec<Descriptor>>> {
        self.with_manifest(digest.as_str())
            .await
            .referrers(digest)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::memory::MemoryStore;
    use crate::oci::stream::bytes_stream;
    use bytes::Bytes;
    use futures_util::StreamExt;

    async fn blob(store: &dyn Store, data: &'static [u8]) -> Digest {
        let bytes = Bytes::from_static(data);
        let descriptor = Descriptor {
            media_type: "application/octet-stream".into(),
            digest: Digest::of(&bytes),
            size: bytes.len() as u64,
        };
        store
            .put_blob(&descriptor, bytes_stream(bytes))
            .await
            .unwrap();
        descriptor.digest
    }

    #[tokio::test]
    async fn blobs_come_from_the_first_store_that_holds_them() {
        let first = Arc::new(MemoryStore::new("first"));
        let second = Arc::new(MemoryStore::new("second"));
        let a = blob(first.as_ref(), b"in the first").await;
        let b = blob(second.as_ref(), b"in the second").await;
        let union = UnionStore::new(first, vec![second]);
        assert_eq!(union.blob_size(&a).await.unwrap(), Some(12));
        assert_eq!(union.blob_size(&b).await.unwrap(), Some(13));
        let mut read = Vec::new();
        let mut stream = union.get_blob(&b).await.unwrap();
        while let Some(chunk) = stream.next().await {
            read.extend_from_slice(&chunk.unwrap());
        }
        assert_eq!(read, b"in the second");
        let missing = Digest::of(b"nowhere");
        assert_eq!(union.blob_size(&missing).await.unwrap(), None);
        assert!(union.get_blob(&missing).await.is_err());
        assert_eq!(union.location(), "memory:first");
        let err = union
            .put_blob(
                &Descriptor {
                    media_type: String::new(),
                    digest: a.clone(),
                    size: 12,
                },
                bytes_stream(Bytes::new()),
            )
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("read-only"), "{err}");
    }
}
