//! imgpkg-compatible bundles: reproducible layer tar, config label, `.imgpkg/`
//! metadata, push, pull (safe extraction) and describe.
//!
//! The layer is built exactly as imgpkg builds it (see `carvel-formats.md` §1), so
//! the uncompressed tar, its diff_id and the image config are byte-identical to
//! imgpkg's; only the gzip bytes differ (ours are deterministic and parallel).

pub mod cache;
pub mod describe;
pub mod extract;
pub mod gzip;
pub mod image;
pub mod layer;
pub mod lockfiles;
pub mod pull;
pub mod push;
pub mod tar;
pub mod yaml_out;

use crate::oci::OciError;

/// Result alias for bundle operations.
pub type Result<T, E = BundleError> = std::result::Result<T, E>;

/// Errors of bundle operations. Every message names the file, entry, image or
/// store involved.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },

    #[error(transparent)]
    Oci(#[from] OciError),

    /// Bad input or content, with a message that names the culprit.
    #[error("{0}")]
    Invalid(String),
}

impl BundleError {
    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        BundleError::Io {
            context: context.into(),
            source,
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        BundleError::Invalid(message.into())
    }
}
