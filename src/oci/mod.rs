//! OCI core: references, digests, media types, manifests, and the [`Store`] trait
//! with its three backends (a registry, an OCI image layout directory, an imgpkg
//! tarball) and an in-memory one for small images, and a read-only union of stores.
//! Knows nothing about bundles or packages.

pub mod atomic;
pub mod copy;
pub mod digest;
pub mod error;
pub mod layout;
pub mod layout_archive;
pub mod layout_partial;
pub mod location;
pub mod media_types;
pub mod memory;
pub mod ops;
pub mod piece_writer;
pub mod reference;
pub mod registry;
pub mod store;
pub mod stream;
pub mod tarball;
pub mod union;

pub use digest::Digest;
pub use error::{OciError, Result};
pub use reference::Reference;
pub use store::{BlobRange, Descriptor, ManifestBytes, PartialBlob, Store};
pub use stream::{BlobStream, VerifiedBlob};
