//! The [`Store`] trait: the one abstraction every mover of content is written
//! against. A registry repository, an OCI image layout directory and an imgpkg
//! tarball all hold blobs by digest, manifests by digest, and tags; copy, push and
//! pull are one loop over this trait, whatever the two ends are.

use bytes::Bytes;

use crate::oci::stream::{self, BlobStream, VerifiedBlob};
use crate::oci::{Digest, OciError, Result, atomic, media_types};

/// A content descriptor: what a manifest says about a blob or child manifest.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Descriptor {
    pub media_type: String,
    pub digest: Digest,
    pub size: u64,
}

/// A manifest exactly as stored: the raw bytes are kept because re-serialising
/// would change the digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestBytes {
    pub media_type: String,
    pub digest: Digest,
    pub bytes: Bytes,
}

impl ManifestBytes {
    /// Wraps raw manifest bytes, computing their digest.
    pub fn new(media_type: impl Into<String>, bytes: impl Into<Bytes>) -> ManifestBytes {
        let bytes = bytes.into();
        ManifestBytes {
            media_type: media_type.into(),
            digest: Digest::of(&bytes),
            bytes,
        }
    }

    /// Fails, naming `location`, when the bytes do not match the digest this
    /// manifest claims (a store checks this before it keeps a manifest).
    pub fn check_digest(&self, location: &str) -> Result<()> {
        let actual = Digest::of(&self.bytes);
        if actual != self.digest {
            return Err(OciError::DigestMismatch {
                location: location.to_string(),
                expected: self.digest.clone(),
                actual,
                size: self.bytes.len() as u64,
            });
        }
        Ok(())
    }

    /// The descriptor that points at this manifest.
    pub fn descriptor(&self) -> Descriptor {
        Descriptor {
            media_type: self.media_type.clone(),
            digest: self.digest.clone(),
            size: self.bytes.len() as u64,
        }
    }

    pub fn is_index(&self) -> bool {
        media_types::is_index(&self.media_type)
    }

    pub fn is_image(&self) -> bool {
        media_types::is_image(&self.media_type)
    }

    /// The blobs an image manifest references (config first, then layers), or the
    /// child manifests of an index, in manifest order.
    pub fn references(&self, location: &str) -> Result<Vec<Descriptor>> {
        let invalid = |detail: String| OciError::Invalid {
            location: location.to_string(),
            detail: format!("manifest {}: {detail}", self.digest),
        };
        let value: serde_json::Value =
            serde_json::from_slice(&self.bytes).map_err(|e| invalid(format!("not JSON: {e}")))?;
        let parse = |v: &serde_json::Value| -> Result<Descriptor> {
            let media_type = v["mediaType"].as_str().unwrap_or_default().to_string();
            let digest = v["digest"]
                .as_str()
                .ok_or_else(|| invalid("descriptor without digest".into()))?
                .parse::<Digest>()?;
            let size = v["size"]
                .as_u64()
                .ok_or_else(|| invalid(format!("descriptor {digest} without size")))?;
            Ok(Descriptor {
                media_type,
                digest,
                size,
            })
        };
        if self.is_index() {
            value["manifests"]
                .as_array()
                .ok_or_else(|| invalid("index without manifests".into()))?
                .iter()
                .map(parse)
                .collect()
        } else if self.is_image() {
            let mut out = vec![parse(&value["config"])?];
            for layer in value["layers"].as_array().into_iter().flatten() {
                out.push(parse(layer)?);
            }
            Ok(out)
        } else {
            Err(OciError::UnsupportedMediaType {
                location: location.to_string(),
                media_type: self.media_type.clone(),
            })
        }
    }
}

/// A blob read from an offset (see [`Store::get_blob_from`]): the blob's bytes
/// from `start` on, not verified.
pub struct BlobRange {
    pub start: u64,
    pub stream: BlobStream,
}

/// The first bytes of a blob a stopped copy left at a destination (see
/// [`Store::resume_blob`]), to be completed with the rest.
#[async_trait::async_trait]
pub trait PartialBlob: Send {
    /// Bytes of the blob the destination holds already.
    fn offset(&self) -> u64;

    /// Stores `rest` (the blob's bytes from [`PartialBlob::offset`] on, not
    /// verified) after the bytes kept, and commits the blob only when the whole
    /// of it matches the descriptor's digest and size. On any error what was
    /// kept is dropped, so the next attempt starts from the first byte.
    async fn complete(self: Box<Self>, rest: BlobStream) -> Result<()>;
}

/// A place that holds blobs, manifests and tags. Implementations: the registry
/// client (one repository), the OCI layout directory, the imgpkg tarball.
#[async_trait::async_trait]
pub trait Store: Send + Sync {
    /// Where this store is, for messages: `127.0.0.1:5000/app`, `oci:/tmp/dir`.
    fn location(&self) -> String;

    /// The blob's size when the store has it, `None` when it does not.
    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>>;

    /// Streams a blob; the stream is verified (see [`BlobStream`]).
    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream>;

    /// Streams a blob from byte `offset` on, for continuing a partial copy. The
    /// bytes are NOT verified (the one reading them verifies the whole blob,
    /// with the bytes it has already). [`BlobRange::start`] says where the stream
    /// starts: `offset`, or 0 when the store can only read the blob whole (the
    /// default, and a registry that ignores `Range`).
    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        let _ = offset;
        Ok(BlobRange {
            start: 0,
            stream: self.get_blob(digest).await?,
        })
    }

    /// What a stopped copy left of the blob here that can be continued: a
    /// registry's upload session that still holds bytes, a layout's partial
    /// file. `None` (the default) when there is nothing to continue.
    async fn resume_blob(&self, _descriptor: &Descriptor) -> Result<Option<Box<dyn PartialBlob>>> {
        Ok(None)
    }

    /// Stores a blob read from `data`. The bytes are verified against the
    /// descriptor's digest and size while they are written; on mismatch nothing is
    /// kept and the error names the digest.
    async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()>;

    /// [`Store::get_blob`] marked as verified, for a sink that stores it as it is
    /// (see [`Store::put_verified_blob`]).
    async fn get_verified_blob(&self, digest: &Digest) -> Result<VerifiedBlob> {
        Ok(VerifiedBlob::new(
            self.get_blob(digest).await?,
            digest.clone(),
        ))
    }

    /// Stores a blob read from a stream verified already (another store's
    /// [`Store::get_verified_blob`]): as [`Store::put_blob`], but when the stream
    /// is verified for the descriptor's digest the bytes are not hashed a second
    /// time (the size is still checked, and nothing is kept when the stream ends
    /// in an error). The default hands it to [`Store::put_blob`].
    async fn put_verified_blob(&self, descriptor: &Descriptor, data: VerifiedBlob) -> Result<()> {
        self.put_blob(descriptor, data.checked_for(descriptor, self.location()))
            .await
    }

    /// Stores a blob whose digest is only known once its last byte is produced (a
    /// layer compressed while it is uploaded). The bytes are hashed as they are
    /// written and the blob's descriptor (with `media_type`) is returned. A producer
    /// that fails must end `data` with an error, never quietly: on any error nothing
    /// is kept. The default spools to a temporary file, then calls
    /// [`Store::put_blob`]; stores that can commit after the fact (a registry's
    /// upload session, a layout's rename) stream instead.
    async fn put_blob_stream(&self, media_type: &str, data: BlobStream) -> Result<Descriptor> {
        let (temp, digest, size) =
            atomic::spool_hashed(&std::env::temp_dir(), data, &self.location()).await?;
        let descriptor = Descriptor {
            media_type: media_type.to_string(),
            digest,
            size,
        };
        if self.blob_size(&descriptor.digest).await? != Some(size) {
            self.put_blob(&descriptor, stream::file_stream(temp.to_path_buf()))
                .await?;
        }
        drop(temp);
        Ok(descriptor)
    }

    /// Makes a blob that `from` holds available here without moving its bytes (a
    /// registry's cross-repository mount). `Ok(false)` means "not possible, upload it".
    async fn mount_blob(&self, _descriptor: &Descriptor, _from: &dyn Store) -> Result<bool> {
        Ok(false)
    }

    /// For registry stores: `(registry host, repository)`; used to decide mounts.
    fn registry_repository(&self) -> Option<(String, String)> {
        None
    }

    /// Looks up a tag or digest (`sha256:…`) without fetching the manifest body.
    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>>;

    /// Fetches a manifest by tag or digest; bytes fetched by digest are verified.
    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes>;

    /// Stores a manifest (by digest) and, with `tag`, points the tag at it. Callers
    /// store every blob and child first, so a tag never points at missing content.
    async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()>;

    /// All tags, sorted.
    async fn list_tags(&self) -> Result<Vec<String>>;

    /// All tags, sorted, when there are at most about `max` of them; `None` when
    /// there are more (a registry stops reading pages once it has listed more
    /// than `max`), for a caller that would rather ask about a few tags one by one
    /// than read a long listing.
    async fn list_tags_up_to(&self, max: usize) -> Result<Option<Vec<String>>> {
        let tags = self.list_tags().await?;
        Ok((tags.len() <= max).then_some(tags))
    }

    /// The manifests whose `subject` is `digest`, from the OCI 1.1 referrers API;
    /// `None` when the store has no such API (the default; callers fall back to
    /// the `sha256-<hex>` tag schema).
    async fn referrers(&self, _digest: &Digest) -> Result<Option<Vec<Descriptor>>> {
        Ok(None)
    }

    /// Completes pending writes (a tarball is assembled here). No-op by default.
    async fn finish(&self) -> Result<()> {
        Ok(())
    }
}
