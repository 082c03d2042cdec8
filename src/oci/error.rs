//! Typed errors of the OCI layer. Every variant names the place (registry,
//! repository, layout directory or tarball) and the object (digest, tag) involved.

use crate::oci::Digest;

/// Result alias for the OCI layer.
pub type Result<T, E = OciError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum OciError {
    #[error("invalid reference {input:?}: {reason}")]
    InvalidReference { input: String, reason: String },

    #[error("invalid digest {input:?}: {reason}")]
    InvalidDigest { input: String, reason: String },

    #[error("{location}: blob {digest} not found")]
    BlobUnknown { location: String, digest: Digest },

    #[error("{location}: manifest {reference} not found")]
    ManifestUnknown { location: String, reference: String },

    #[error(
        "{location}: content of {expected} does not match its digest (got {actual}, {size} bytes)"
    )]
    DigestMismatch {
        location: String,
        expected: Digest,
        actual: Digest,
        size: u64,
    },

    #[error("{location}: {digest} is {actual} bytes, expected {expected}")]
    SizeMismatch {
        location: String,
        digest: Digest,
        expected: u64,
        actual: u64,
    },

    #[error("{location}: unsupported media type {media_type:?}")]
    UnsupportedMediaType {
        location: String,
        media_type: String,
    },

    #[error("{registry}: authentication required{hint}")]
    Unauthorized { registry: String, hint: String },

    #[error("{registry}: access denied: {detail}")]
    Denied { registry: String, detail: String },

    #[error("{registry}: {detail}")]
    Registry { registry: String, detail: String },

    #[error("{location}: {detail}")]
    Invalid { location: String, detail: String },

    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl OciError {
    /// Wraps an I/O error with what was being done ("reading /x/index.json").
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        OciError::Io {
            context: context.into(),
            source,
        }
    }
}
