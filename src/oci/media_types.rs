//! Media types strake reads and writes, and how to classify them.

pub const DOCKER_MANIFEST: &str = "application/vnd.docker.distribution.manifest.v2+json";
pub const DOCKER_MANIFEST_LIST: &str = "application/vnd.docker.distribution.manifest.list.v2+json";
pub const DOCKER_CONFIG: &str = "application/vnd.docker.container.image.v1+json";
pub const DOCKER_LAYER_GZIP: &str = "application/vnd.docker.image.rootfs.diff.tar.gzip";
pub const DOCKER_LAYER_FOREIGN_GZIP: &str =
    "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip";

pub const OCI_MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
pub const OCI_INDEX: &str = "application/vnd.oci.image.index.v1+json";
pub const OCI_CONFIG: &str = "application/vnd.oci.image.config.v1+json";
pub const OCI_LAYER_TAR: &str = "application/vnd.oci.image.layer.v1.tar";
pub const OCI_LAYER_GZIP: &str = "application/vnd.oci.image.layer.v1.tar+gzip";
pub const OCI_LAYER_ZSTD: &str = "application/vnd.oci.image.layer.v1.tar+zstd";
pub const OCI_LAYER_NONDIST_TAR: &str = "application/vnd.oci.image.layer.nondistributable.v1.tar";
pub const OCI_LAYER_NONDIST_GZIP: &str =
    "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip";
pub const OCI_LAYER_NONDIST_ZSTD: &str =
    "application/vnd.oci.image.layer.nondistributable.v1.tar+zstd";

/// Every manifest media type, for `Accept` headers.
pub const ALL_MANIFESTS: [&str; 4] = [
    OCI_INDEX,
    OCI_MANIFEST,
    DOCKER_MANIFEST_LIST,
    DOCKER_MANIFEST,
];

/// An image manifest (Docker schema 2 or OCI), as ggcr's `MediaType.IsImage`.
pub fn is_image(media_type: &str) -> bool {
    media_type == DOCKER_MANIFEST || media_type == OCI_MANIFEST
}

/// An index (OCI image index or Docker manifest list).
pub fn is_index(media_type: &str) -> bool {
    media_type == OCI_INDEX || media_type == DOCKER_MANIFEST_LIST
}

/// A manifest of either kind.
pub fn is_manifest(media_type: &str) -> bool {
    is_image(media_type) || is_index(media_type)
}

/// A layer that registries are not expected to serve ("foreign" layers).
pub fn is_non_distributable(media_type: &str) -> bool {
    matches!(
        media_type,
        DOCKER_LAYER_FOREIGN_GZIP
            | OCI_LAYER_NONDIST_TAR
            | OCI_LAYER_NONDIST_GZIP
            | OCI_LAYER_NONDIST_ZSTD
    )
}

/// How a layer's bytes are compressed, judged by media type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// The compression of a layer media type, or `None` if it is not a known layer type.
pub fn layer_compression(media_type: &str) -> Option<Compression> {
    match media_type {
        DOCKER_LAYER_GZIP | DOCKER_LAYER_FOREIGN_GZIP | OCI_LAYER_GZIP | OCI_LAYER_NONDIST_GZIP => {
            Some(Compression::Gzip)
        }
        OCI_LAYER_ZSTD | OCI_LAYER_NONDIST_ZSTD => Some(Compression::Zstd),
        OCI_LAYER_TAR | OCI_LAYER_NONDIST_TAR => Some(Compression::None),
        _ => None,
    }
}
