//! `strake copy`: moves a bundle (a repository bundle with every package bundle it
//! lists, nested bundles, every image they lock and every platform of an index,
//! plus signatures and referrers) or a set of images between registries, OCI
//! layouts and imgpkg tarballs, the way `imgpkg copy` does (`carvel-formats.md` §3).
//!
//! The stages, each in its own module: [`closure`] walks what must move (with
//! [`signatures`] finding each image's signatures and referrers), [`plan`]
//! turns it into a deduplicated list of blobs (and shards it), [`transfer`] moves
//! the blobs with bounded, registry-friendly concurrency, [`relocate`] writes the
//! manifests, tags, locations images ([`locations`]) and lock output at a
//! registry or layout, and
//! [`tar_out`] writes an imgpkg tarball in place, resumably, and [`layout_tar`]
//! a tar of an OCI layout the same way; both write their headers and end blocks
//! with [`archive_frame`] and their blob bodies with [`archive_entry`]. [`run`]
//! ties them together for the command line.

pub mod archive_entry;
pub mod archive_frame;
pub mod closure;
pub mod destination;
pub mod held;
pub mod layout_tar;
pub mod locations;
pub mod naming;
pub mod plan;
pub mod progress;
pub mod relocate;
pub mod run;
pub mod signatures;
pub mod source;
pub mod tar_out;
pub mod transfer;

use crate::bundle::BundleError;
use crate::oci::OciError;

/// Result alias for copies.
pub type Result<T, E = CopyError> = std::result::Result<T, E>;

/// Errors of a copy. Every message names the image, the blob, the store and the
/// cause.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error(transparent)]
    Oci(#[from] OciError),

    #[error(transparent)]
    Bundle(#[from] BundleError),

    /// A blob could not be moved.
    #[error("image {image}: blob {blob} from {source_location} to {destination}: {cause}")]
    Blob {
        image: String,
        blob: String,
        source_location: String,
        destination: String,
        cause: String,
    },

    /// Bad input, with a message naming the culprit.
    #[error("{0}")]
    Invalid(String),
}

impl CopyError {
    pub fn invalid(message: impl Into<String>) -> CopyError {
        CopyError::Invalid(message.into())
    }
}
