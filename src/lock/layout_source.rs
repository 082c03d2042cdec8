//! `--image-source oci:DIR`: an OCI image layout used as an offline source of references
//! for hermetic builds. Each `index.json` entry whose `org.opencontainers.image.ref.name`
//! annotation is a full reference (`registry/repo:tag`) answers for that reference; digest
//! references are answered when the layout holds that manifest under the same repository.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::lock::registry::Found;
use crate::oci::layout::LayoutStore;
use crate::oci::location::LAYOUT_PREFIX;
use crate::oci::{Descriptor, Reference, Store};

/// One layout opened as a source.
pub struct LayoutSource {
    dir: PathBuf,
    store: LayoutStore,
    /// Normalised reference (`name:tag`) to descriptor.
    tags: HashMap<String, Descriptor>,
    /// Normalised repository name to the digests it holds.
    repos: HashMap<String, Vec<Descriptor>>,
}

impl LayoutSource {
    /// Opens `oci:DIR` (the prefix is optional) and indexes its named entries.
    pub async fn open(location: &str) -> Result<LayoutSource, String> {
        let dir = Path::new(location.strip_prefix(LAYOUT_PREFIX).unwrap_or(location)).to_path_buf();
        let ctx = |e: &dyn std::fmt::Display| format!("image source oci:{}: {e}", dir.display());
        let store = LayoutStore::open(&dir).map_err(|e| ctx(&e))?;
        let entries = store.entries().await.map_err(|e| ctx(&e))?;
        let mut tags = HashMap::new();
        let mut repos: HashMap<String, Vec<Descriptor>> = HashMap::new();
        let mut named = 0;
        for entry in entries {
            let Some(name) = entry.ref_name.as_deref() else {
                continue;
            };
            let Ok(reference) = Reference::parse(name) else {
                continue;
            };
            if !name.contains('/') {
                // A bare tag ("v1") says nothing about which repository it belongs to.
                continue;
            }
            named += 1;
            repos
                .entry(reference.name())
                .or_default()
                .push(entry.descriptor.clone());
            if reference.digest().is_none() {
                tags.insert(reference.to_string(), entry.descriptor);
            }
        }
        if named == 0 {
            return Err(ctx(
                &"no index.json entry is named with a full reference (org.opencontainers.image.ref.name: registry/repository:tag)",
            ));
        }
        Ok(LayoutSource {
            dir,
            store,
            tags,
            repos,
        })
    }

    /// Where this source is, for messages.
    pub fn location(&self) -> String {
        format!("oci:{}", self.dir.display())
    }

    /// Looks `reference` up; `None` when this layout does not have it.
    pub async fn lookup(
        &self,
        reference: &Reference,
        want_manifest: bool,
    ) -> Result<Option<Found>, String> {
        let descriptor = match reference.digest() {
            Some(digest) => {
                let in_repo = self
                    .repos
                    .get(&reference.name())
                    .and_then(|ds| ds.iter().find(|d| &d.digest == digest).cloned());
                match in_repo {
                    Some(d) => d,
                    // A child of an index held under this repository.
                    None if self.repos.contains_key(&reference.name()) => {
                        match self.store.resolve(digest.as_str()).await {
                            Ok(Some(d)) => d,
                            Ok(None) => return Ok(None),
                            Err(e) => return Err(format!("{}: {e}", self.location())),
                        }
                    }
                    None => return Ok(None),
                }
            }
            None => match self.tags.get(&reference.to_string()) {
                Some(d) => d.clone(),
                None => return Ok(None),
            },
        };
        let manifest = if want_manifest {
            Some(
                self.store
                    .get_manifest(descriptor.digest.as_str())
                    .await
                    .map_err(|e| format!("{}: {e}", self.location()))?,
            )
        } else {
            None
        };
        Ok(Some(Found {
            descriptor,
            manifest,
        }))
    }
}
