//! The library calls behind `strake image digest`, `strake tag list` and
//! `strake image copy`: each takes location strings (see [`Location`]), opens the
//! stores and does one thing.

use std::path::Path;

use crate::oci::copy::{CopyOptions, copy_image};
use crate::oci::location::{
    Location, Opened, open_destination, open_repository, open_source, open_tarball_destination,
};
use crate::oci::registry::RegistryOptions;
use crate::oci::tarball::{ImageMetadata, TarballStore};
use crate::oci::{Descriptor, Digest, OciError, Result, Store};

/// The descriptor of the manifest a location names (`sha256:…` is its digest).
pub async fn image_digest(location: &str, registry: &RegistryOptions) -> Result<Descriptor> {
    let location = Location::parse(location)?;
    let Opened { store, reference } = open_source(&location, registry).await?;
    let reference = reference.ok_or_else(|| OciError::Invalid {
        location: store.location(),
        detail: "name an image (a tag or a digest)".into(),
    })?;
    store
        .resolve(&reference)
        .await?
        .ok_or_else(|| OciError::ManifestUnknown {
            location: store.location(),
            reference,
        })
}

/// Every tag of a repository or layout, sorted.
pub async fn list_tags(location: &str, registry: &RegistryOptions) -> Result<Vec<String>> {
    let location = Location::parse(location)?;
    let store = open_repository(&location, registry)?;
    let mut tags = store.list_tags().await?;
    tags.sort();
    Ok(tags)
}

/// The result of a copy: the root descriptor and where it now is.
#[derive(Clone, Debug)]
pub struct Copied {
    pub descriptor: Descriptor,
    /// `registry/repo@sha256:…`, `oci:DIR@sha256:…` or `tar:FILE@sha256:…`.
    pub location: String,
    /// The tag written at the destination, if any.
    pub tag: Option<String>,
}

/// Copies the image or index at `src` (every platform) to `dst`. The destination
/// tag is the one `dst` names; when `dst` names neither tag nor digest, the source
/// tag is reused (if the source named one); a destination digest must equal the
/// source digest. A tarball destination is written whole, atomically, holding
/// this one image (or index with every platform), with the metadata imgpkg
/// records for `copy -i`.
pub async fn copy(
    src: &str,
    dst: &str,
    registry: &RegistryOptions,
    opts: &CopyOptions,
) -> Result<Copied> {
    let src_location = Location::parse(src)?;
    let dst_location = Location::parse(dst)?;
    // What the destination names, checked before anything is created there.
    let (dst_tag, dst_digest) = match &dst_location {
        Location::Layout { reference, .. } | Location::Tarball { reference, .. } => {
            match reference.as_deref().map(str::parse::<Digest>) {
                Some(Ok(digest)) => (None, Some(digest)),
                _ => (reference.clone(), None),
            }
        }
        Location::Registry(r) => (r.tag().map(str::to_string), r.digest().cloned()),
    };
    let source = open_source(&src_location, registry).await?;
    let src_reference = source.reference.clone().ok_or_else(|| OciError::Invalid {
        location: source.store.location(),
        detail: "name an image (a tag or a digest)".into(),
    })?;
    let tag = match dst_tag {
        Some(tag) => Some(tag),
        None if dst_digest.is_none() && src_reference.parse::<Digest>().is_err() => {
            Some(src_reference.clone())
        }
        None => None,
    };
    if let Some(expected) = &dst_digest {
        let actual = source.store.resolve(&src_reference).await?.ok_or_else(|| {
            OciError::ManifestUnknown {
                location: source.store.location(),
                reference: src_reference.clone(),
            }
        })?;
        if &actual.digest != expected {
            return Err(OciError::Invalid {
                location: dst.to_string(),
                detail: format!(
                    "destination names digest {expected} but the source image is {}",
                    actual.digest
                ),
            });
        }
    }
    let descriptor = if let Location::Tarball { path, .. } = &dst_location {
        let from = Source {
            input: src,
            location: &src_location,
            store: source.store.as_ref(),
            reference: &src_reference,
        };
        copy_to_tarball(&from, path, tag.as_deref(), opts).await?
    } else {
        let destination = open_destination(&dst_location, registry).await?;
        let descriptor = copy_image(
            source.store.as_ref(),
            &src_reference,
            destination.store.as_ref(),
            tag.as_deref(),
            opts,
        )
        .await?;
        destination.store.finish().await?;
        descriptor
    };
    Ok(Copied {
        location: dst_location.digest_location(&descriptor.digest),
        descriptor,
        tag,
    })
}

/// The source of a copy, as given and as opened.
struct Source<'a> {
    /// The location as the user wrote it.
    input: &'a str,
    location: &'a Location,
    store: &'a dyn Store,
    /// The tag or digest copied.
    reference: &'a str,
}

/// Writes the image `from` names to a new imgpkg tarball at `path` (temporary file
/// renamed into place; nothing is left behind on failure). The image's metadata
/// is what imgpkg records for `copy -i REF --to-tar`: Refs is the source digest
/// reference, Tag the source tag, OrigRef the reference as given, no labels. An
/// image that is itself a top-level entry of a source tarball keeps its metadata.
async fn copy_to_tarball(
    from: &Source<'_>,
    path: &Path,
    tag: Option<&str>,
    opts: &CopyOptions,
) -> Result<Descriptor> {
    let writer = open_tarball_destination(path)?;
    let descriptor = copy_image(from.store, from.reference, &writer, tag, opts).await?;
    let carried = match from.location {
        Location::Tarball { path, .. } => TarballStore::open(path)?
            .entries()
            .iter()
            .find(|e| e.descriptor.digest == descriptor.digest)
            .map(ImageMetadata::from),
        _ => None,
    };
    let metadata = carried.unwrap_or_else(|| ImageMetadata {
        refs: vec![from.location.digest_location(&descriptor.digest)],
        tag: tag.unwrap_or_default().to_string(),
        orig_ref: from.input.to_string(),
        ..ImageMetadata::default()
    });
    writer.add_image_metadata(&descriptor.digest, metadata);
    writer.finish().await?;
    tracing::info!(tarball = %path.display(), digest = %descriptor.digest, "wrote tarball");
    Ok(descriptor)
}
