//! Opening where a copy writes: a registry repository or an OCI layout
//! directory as a [`Store`]. `--to-oci-layout FILE.tar` is no store: it is
//! written in place by [`crate::copy::layout_tar`].

use std::path::PathBuf;
use std::sync::Arc;

use crate::copy::plan::DestinationSpec;
use crate::copy::{CopyError, Result};
use crate::oci::layout::LayoutStore;
use crate::oci::registry::RegistryClient;
use crate::oci::{Reference, Store};

/// The destination as a store, for registries and layout directories; `create`
/// makes a missing layout.
pub fn open_destination_store(
    spec: &DestinationSpec,
    client: &RegistryClient,
    create: bool,
) -> Result<Arc<dyn Store>> {
    match spec {
        DestinationSpec::Repo(repo) => Ok(Arc::new(client.store(&Reference::parse(repo)?))),
        DestinationSpec::OciLayout(file) if is_layout_tar(file) => Err(CopyError::invalid(
            format!("oci:{file} is an archive, written whole, not a store"),
        )),
        DestinationSpec::OciLayout(dir) => {
            let dir = PathBuf::from(dir);
            Ok(if create {
                Arc::new(LayoutStore::create(&dir)?)
            } else {
                Arc::new(LayoutStore::open(&dir)?)
            })
        }
        DestinationSpec::Tar(t) => Err(CopyError::invalid(format!("tar:{t} is not a store"))),
    }
}

/// Whether `--to-oci-layout DEST` names a tar of a layout (`FILE.tar`) rather
/// than a directory; [`crate::copy::layout_tar`] writes those.
pub fn is_layout_tar(dest: &str) -> bool {
    dest.ends_with(".tar")
}
