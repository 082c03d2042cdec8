//! The library calls behind `strake image digest`, `strake tag list` and
//! `strake image copy`: each takes location strings (see [`Location`]), opens the
//! stores and does one thing.

use crate::oci::copy::{CopyOptions, copy_image};
use crate::oci::location::{Location, Opened, open_destination, open_repository, open_source};
use crate::oci::registry::RegistryOptions;
use crate::oci::{Descriptor, Digest, OciError, Result};

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
    /// `registry/repo@sha256:…` or `oci:DIR@sha256:…`.
    pub location: String,
    /// The tag written at the destination, if any.
    pub tag: Option<String>,
}

/// Copies the image or index at `src` (every platform) to `dst`. The destination
/// tag is the one `dst` names; when `dst` names neither tag nor digest, the source
/// tag is reused (if the source named one); a destination digest must equal the
/// source digest.
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
        Location::Layout { reference, .. } => {
            match reference.as_deref().map(str::parse::<Digest>) {
                Some(Ok(digest)) => (None, Some(digest)),
                _ => (reference.clone(), None),
            }
        }
        Location::Registry(r) => (r.tag().map(str::to_string), r.digest().cloned()),
        Location::Tarball { .. } => (None, None),
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
    Ok(Copied {
        location: dst_location.digest_location(&descriptor.digest),
        descriptor,
        tag,
    })
}
