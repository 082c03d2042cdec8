//! Opening the store a command-line location names: `oci:DIR[:TAG|@DIGEST]` (an
//! OCI image layout) or a registry reference (one repository of a registry,
//! reached with the registry flags and the usual credential sources).

use crate::oci::location::{Location, open_layout_destination, open_layout_source};
use crate::oci::registry::{RegistryClient, RegistryOptions};
use crate::oci::{Reference, Store};

/// Opens stores: layouts directly, registries through one shared client.
pub struct Stores {
    client: RegistryClient,
}

impl Stores {
    pub fn new(options: RegistryOptions) -> anyhow::Result<Stores> {
        Ok(Stores {
            client: RegistryClient::new(options)?,
        })
    }

    /// Opens the registry repository of `reference`.
    pub fn registry(&self, reference: &Reference) -> crate::oci::Result<Box<dyn Store>> {
        Ok(Box::new(self.client.store(reference)))
    }

    /// Opens where a push goes: the store and the tag (if the location names one).
    pub fn destination(&self, location: &str) -> anyhow::Result<(Box<dyn Store>, Option<String>)> {
        match Location::parse(location)? {
            Location::Layout { dir, reference } => {
                let opened = open_layout_destination(&dir, reference)?;
                Ok((opened.store, opened.reference))
            }
            Location::Registry(r) => {
                if r.digest().is_some() {
                    anyhow::bail!("-b {location}: push needs a tag, not a digest");
                }
                Ok((self.registry(&r)?, Some(r.manifest_reference())))
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
    pub async fn source(&self, location: &str) -> anyhow::Result<(Box<dyn Store>, String)> {
        match Location::parse(location)? {
            Location::Layout { dir, reference } => {
                let opened = open_layout_source(&dir, reference).await?;
                let reference = opened
                    .reference
                    .ok_or_else(|| anyhow::anyhow!("{location}: name a tag or digest"))?;
                Ok((opened.store, reference))
            }
            Location::Registry(r) => Ok((self.registry(&r)?, r.manifest_reference())),
            Location::Tarball { path, .. } => anyhow::bail!(
                "{}: reading bundles from a tarball is not supported here",
                path.display()
            ),
        }
    }
}
