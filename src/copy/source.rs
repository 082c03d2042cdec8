//! Opening what a copy reads: `-b`/`-i` references (registries, or one OCI
//! layout directory or tar), a BundleLock or ImagesLock (`--lock`), or an imgpkg tarball
//! (`--tar`, whose root bundle is found by imgpkg's label), as the sources of
//! the closure walk and the points it starts from; and the further layouts or
//! tarballs a layout or tarball source is searched beside (`--image-source`).

use std::path::PathBuf;
use std::sync::Arc;

use crate::bundle::lockfiles::{BundleLock, ImagesLock};
use crate::copy::closure::{Sources, Start};
use crate::copy::plan::SourceSpec;
use crate::copy::{CopyError, Result};
use crate::oci::layout::LayoutStore;
use crate::oci::layout_archive::{LayoutArchiveStore, is_archive};
use crate::oci::location::Location;
use crate::oci::registry::RegistryClient;
use crate::oci::tarball::TarballStore;
use crate::oci::union::UnionStore;
use crate::oci::{Digest, Store};

/// The source, opened.
pub struct OpenedSource {
    pub sources: Sources,
    pub starts: Vec<Start>,
    /// The ImagesLock given with `--lock`, for the lock output.
    pub lock: Option<ImagesLock>,
}

pub fn open_source(spec: &SourceSpec, client: &RegistryClient) -> Result<OpenedSource> {
    match spec {
        SourceSpec::Bundle(r) => open_refs(std::slice::from_ref(r), Some(true), client),
        SourceSpec::Images(refs) => open_refs(refs, Some(false), client),
        SourceSpec::Lock(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| CopyError::invalid(format!("reading --lock {file}: {e}")))?;
            if text.lines().any(|l| l.trim() == "kind: BundleLock") {
                let lock = BundleLock::parse(&text, file)?;
                let mut opened = open_refs(std::slice::from_ref(&lock.image), Some(true), client)?;
                if !lock.tag.is_empty() {
                    opened.starts[0].tag = lock.tag.clone();
                }
                Ok(opened)
            } else {
                let lock = ImagesLock::parse(&text, file)?;
                let refs: Vec<String> = lock.images.iter().map(|i| i.image.to_string()).collect();
                let mut opened = open_refs(&refs, Some(false), client)?;
                // imgpkg keeps no tag for an ImagesLock's images (even one
                // written `repo:tag@sha256:…`): only the generated tags.
                for start in &mut opened.starts {
                    start.tag.clear();
                }
                opened.lock = Some(lock);
                Ok(opened)
            }
        }
        SourceSpec::Tar(file) => {
            let store = TarballStore::open(file)?;
            let mut starts = Vec::new();
            if let Some(root) = store.root_bundle() {
                starts.push(Start {
                    reference: root.descriptor.digest.to_string(),
                    orig_ref: root.orig_ref.clone(),
                    tag: root.tag.clone(),
                    expect_bundle: Some(true),
                    root: true,
                });
            }
            for entry in store.entries() {
                if entry.is_root_bundle() {
                    continue;
                }
                starts.push(Start {
                    reference: entry.descriptor.digest.to_string(),
                    orig_ref: entry.orig_ref.clone(),
                    tag: entry.tag.clone(),
                    expect_bundle: None,
                    root: false,
                });
            }
            Ok(OpenedSource {
                sources: Sources::Single(Arc::new(store)),
                starts,
                lock: None,
            })
        }
    }
}

/// `store` searched first, then each `--image-source` location (`oci:DIR`, a
/// layout directory or tar; `tar:FILE`, an imgpkg tarball) for what it locks
/// by digest and does not hold itself: the package bundles that a repository
/// released into OCI layouts locks live in each package's own layout.
fn with_image_sources(store: Arc<dyn Store>, image_sources: &[String]) -> Result<Arc<dyn Store>> {
    if image_sources.is_empty() {
        return Ok(store);
    }
    let mut others: Vec<Arc<dyn Store>> = Vec::new();
    for location in image_sources {
        let other: Arc<dyn Store> = match Location::parse(location)? {
            Location::Layout {
                dir,
                reference: None,
            } if is_archive(&dir) => Arc::new(LayoutArchiveStore::open(&dir)?),
            Location::Layout {
                dir,
                reference: None,
            } => Arc::new(LayoutStore::open(&dir)?),
            Location::Tarball {
                path,
                reference: None,
            } => Arc::new(TarballStore::open(path)?),
            _ => {
                return Err(CopyError::invalid(format!(
                    "--image-source {location}: name an OCI layout (oci:DIR, oci:FILE.tar) \
                     or an imgpkg tarball (tar:FILE), with no tag or digest"
                )));
            }
        };
        others.push(other);
    }
    Ok(Arc::new(UnionStore::new(store, others)))
}

/// Opens the source as [`open_source`] does, with the `--image-source`
/// locations searched beside a layout or tarball source ([`with_image_sources`]);
/// a registry source takes none.
pub fn open_source_with(
    spec: &SourceSpec,
    client: &RegistryClient,
    image_sources: &[String],
) -> Result<OpenedSource> {
    let mut opened = open_source(spec, client)?;
    if image_sources.is_empty() {
        return Ok(opened);
    }
    opened.sources = match opened.sources {
        Sources::Single(store) => Sources::Single(with_image_sources(store, image_sources)?),
        Sources::Registry(_) => {
            return Err(CopyError::invalid(
                "--image-source is searched beside a source in an OCI layout or tarball \
                 (-b oci:DIR:TAG, --tar FILE); registry sources find their images themselves",
            ));
        }
    };
    Ok(opened)
}

/// `-b`/`-i`/lock references: registry references, or `oci:DIR[:TAG|@DIGEST]`
/// (a layout directory, or a tar of one).
fn open_refs(
    refs: &[String],
    expect_bundle: Option<bool>,
    client: &RegistryClient,
) -> Result<OpenedSource> {
    let mut starts = Vec::new();
    let mut layout: Option<(PathBuf, Arc<dyn Store>)> = None;
    let mut registry = false;
    for r in refs {
        match Location::parse(r)? {
            Location::Registry(parsed) => {
                registry = true;
                starts.push(Start {
                    reference: parsed.to_string(),
                    // imgpkg records a bundle by its digest reference; an image
                    // as given.
                    orig_ref: if expect_bundle == Some(true) {
                        String::new()
                    } else {
                        parsed.to_string()
                    },
                    tag: parsed.tag().unwrap_or_default().to_string(),
                    expect_bundle,
                    root: expect_bundle == Some(true),
                });
            }
            Location::Layout { dir, reference } => {
                let store = match &layout {
                    Some((d, s)) if *d == dir => s.clone(),
                    Some((d, _)) => {
                        return Err(CopyError::invalid(format!(
                            "{r}: every source must be in the same layout ({})",
                            d.display()
                        )));
                    }
                    None => {
                        let s: Arc<dyn Store> = if is_archive(&dir) {
                            Arc::new(LayoutArchiveStore::open(&dir)?)
                        } else {
                            Arc::new(LayoutStore::open(&dir)?)
                        };
                        layout = Some((dir.clone(), s.clone()));
                        s
                    }
                };
                let reference = reference.ok_or_else(|| {
                    CopyError::invalid(format!("{r}: name a tag or digest in the layout"))
                })?;
                let _ = store;
                let tag = if reference.parse::<Digest>().is_ok() {
                    String::new()
                } else {
                    reference.clone()
                };
                starts.push(Start {
                    reference,
                    orig_ref: String::new(),
                    tag,
                    expect_bundle,
                    root: expect_bundle == Some(true),
                });
            }
            Location::Tarball { path, .. } => {
                return Err(CopyError::invalid(format!(
                    "{r}: read a tarball with --tar {}",
                    path.display()
                )));
            }
        }
    }
    let sources = match (layout, registry) {
        (Some(_), true) => {
            return Err(CopyError::invalid(
                "sources mix registry references and an OCI layout",
            ));
        }
        (Some((_, store)), false) => Sources::Single(store),
        (None, _) => Sources::Registry(client.clone()),
    };
    Ok(OpenedSource {
        sources,
        starts,
        lock: None,
    })
}
