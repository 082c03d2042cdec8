//! Opening the store a command-line location names: `oci:DIR[:TAG|@DIGEST]` (an
//! OCI image layout) or a registry reference (one repository of a registry).

use crate::oci::location::{Location, open_layout_destination, open_layout_source};
use crate::oci::{OciError, Reference, Store};

/// Opens a registry repository for `reference`.
pub fn open_registry(reference: &Reference) -> crate::oci::Result<Box<dyn Store>> {
    Err(OciError::Registry {
        registry: reference.registry().to_string(),
        detail: "registry access is not available in this build".into(),
    })
}

/// A store opener for images outside the bundle's own store.
pub fn registry_opener() -> impl Fn(&Reference) -> crate::oci::Result<Box<dyn Store>> + Send + Sync
{
    open_registry
}

/// Opens where a push goes: the store and the tag (if the location names one).
pub fn open_destination(location: &str) -> anyhow::Result<(Box<dyn Store>, Option<String>)> {
    match Location::parse(location)? {
        Location::Layout { dir, reference } => {
            let opened = open_layout_destination(&dir, reference)?;
            Ok((opened.store, opened.reference))
        }
        Location::Registry(r) => {
            if r.digest().is_some() {
                anyhow::bail!("-b {location}: push needs a tag, not a digest");
            }
            Ok((open_registry(&r)?, Some(r.manifest_reference())))
        }
        Location::Tarball { path, .. } => {
            anyhow::bail!(
                "{}: pushing to a tarball is not supported here",
                path.display()
            )
        }
    }
}

/// Opens where a pull or describe reads from: the store and the tag or digest.
pub async fn open_source(location: &str) -> anyhow::Result<(Box<dyn Store>, String)> {
    match Location::parse(location)? {
        Location::Layout { dir, reference } => {
            let opened = open_layout_source(&dir, reference).await?;
            let reference = opened
                .reference
                .ok_or_else(|| anyhow::anyhow!("{location}: name a tag or digest"))?;
            Ok((opened.store, reference))
        }
        Location::Registry(r) => Ok((open_registry(&r)?, r.manifest_reference())),
        Location::Tarball { path, .. } => {
            anyhow::bail!(
                "{}: reading bundles from a tarball is not supported here",
                path.display()
            )
        }
    }
}
