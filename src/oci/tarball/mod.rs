//! imgpkg's tarball format (`imgpkg copy --to-tar`, carvel-formats.md §3.5): an
//! uncompressed USTAR archive holding `manifest.json` (image descriptors with
//! manifests and configs inline) followed by one `sha256-<hex>.tar.gz` entry per
//! distinct layer. [`TarballStore`] reads one, [`TarballWriter`] writes one; both
//! are [`crate::oci::Store`]s.

pub mod model;
pub mod reader;
pub mod ustar;
pub mod writer;

pub use reader::{TarballEntry, TarballStore};
pub use writer::{ImageMetadata, TarballWriter};

use crate::oci::Digest;

/// The descriptor label imgpkg puts on the root bundle of a copy.
pub const ROOT_BUNDLE_LABEL: &str = "dev.carvel.imgpkg.copy.root-bundle";

/// The tar entry name of a layer: `sha256-<hex>.tar.gz`, whatever its compression.
pub fn layer_entry_name(digest: &Digest) -> String {
    format!("{}.tar.gz", digest.dashed())
}
