//! Relocation at a registry or OCI layout destination, as imgpkg does it
//! (`carvel-formats.md` §3.2, §3.4, §3.7): once every blob is there, each item's
//! manifests go into the one destination repository, children by digest and the
//! item itself by its generated tag (`sha256-<hex>.imgpkg`); signatures keep
//! their cosign tags and images their source tags (`-i repo:v1` keeps `v1`,
//! as imgpkg does); every bundle gets its locations image (registries only);
//! the root bundle's own tag is written last, so a tag never points at missing
//! content and a failed copy leaves no root tag. At a registry the items of
//! one rank (images, bundles, signatures) are written at once, and what the
//! destination holds already (manifest and generated tag) is not written again.
//! Lock output says where everything went.

use std::collections::BTreeMap;
use std::path::Path;

use futures_util::{StreamExt, stream};

use crate::bundle::lockfiles::{BundleLock, ImagesLock, LockedImage};
use crate::copy::closure::{Closure, Item, Kind};
use crate::copy::held::Held;
use crate::copy::locations::write_locations_image;
use crate::copy::naming::{TagScheme, locations_tag};
use crate::copy::progress::Progress;
use crate::copy::{CopyError, Result};
use crate::oci::{Digest, Reference, Store};

/// How manifests are written.
#[derive(Clone, Debug)]
pub struct RelocateOptions {
    pub tags: TagScheme,
    /// Push a locations image for every bundle (registry destinations).
    pub locations: bool,
    /// Items (and locations images) written at once at a registry; a layout
    /// takes them one by one, in order (its `index.json` lists entries in the
    /// order they are written).
    pub concurrency: usize,
}

/// Writes the manifests, tags and locations images of `closure` to `dst`,
/// skipping what `held` says is there. Returns the tags the destination holds
/// for the copy, in order.
pub async fn write_manifests(
    closure: &Closure,
    dst: &dyn Store,
    options: &RelocateOptions,
    held: &Held,
    progress: &Progress,
) -> Result<Vec<String>> {
    let mut written = Vec::new();
    let kept = kept_tags(closure);
    let limit = if dst.registry_repository().is_some() {
        options.concurrency.max(1)
    } else {
        1
    };
    // Images first, then bundles, then signatures (after their subjects), the
    // root bundle last of all; the items of one rank at once.
    let rank = |item: &Item| match (&item.kind, item.root) {
        (_, true) => 3,
        (Kind::Image, _) => 0,
        (Kind::Bundle { .. }, _) => 1,
        (Kind::Signature { .. }, _) => 2,
    };
    let mut ordered: Vec<&Item> = closure.items.iter().collect();
    ordered.sort_by_key(|i| rank(i));
    for group in ordered.chunk_by(|a, b| rank(a) == rank(b)) {
        let results: Vec<Result<Vec<String>>> = stream::iter(group.iter().map(|item| {
            let source_tag = if item.root {
                None
            } else {
                kept.get(&item.digest).map(String::as_str)
            };
            write_item(item, source_tag, dst, options, held)
        }))
        .buffered(limit)
        .collect()
        .await;
        for (item, tags) in group.iter().zip(results) {
            written.extend(tags?);
            progress.image_done(&format!(
                "copied {} -> {}@{}",
                item.orig_ref,
                dst.location(),
                item.digest
            ));
        }
    }
    if options.locations {
        let bundles: Vec<&&Item> = ordered.iter().filter(|i| i.is_bundle()).collect();
        let results: Vec<Result<Vec<String>>> = stream::iter(bundles.iter().map(|item| async {
            write_locations_image(closure, item, dst, held)
                .await
                .map_err(|e| {
                    CopyError::invalid(format!(
                        "bundle {}: locations image {} at {}: {e}",
                        item.orig_ref,
                        locations_tag(&item.digest),
                        dst.location()
                    ))
                })
        }))
        .buffered(limit)
        .collect()
        .await;
        for tags in results {
            written.extend(tags?);
        }
    }
    if let Some(root) = closure.root()
        && !root.tag.is_empty()
    {
        dst.put_manifest(root.graph.root(), Some(&root.tag))
            .await
            .map_err(|e| {
                CopyError::invalid(format!("bundle {}: tag {}: {e}", root.orig_ref, root.tag))
            })?;
        written.push(root.tag.clone());
    }
    Ok(written)
}

/// Writes one item: its child manifests by digest (in graph order, children
/// first), itself by its generated tag, and its source tag (`-i repo:v1` keeps
/// `v1`, a signature its cosign or referrers tag) when it keeps one. An item
/// whose manifest and generated tag the destination holds is not written again
/// (a registry took its children before it), nor a source tag that points at it
/// already. Returns the item's tags.
async fn write_item(
    item: &Item,
    source_tag: Option<&str>,
    dst: &dyn Store,
    options: &RelocateOptions,
    held: &Held,
) -> Result<Vec<String>> {
    let (root, children) = item
        .graph
        .manifests
        .split_last()
        .expect("a graph has a root");
    let refused = |manifest: &Digest, e: crate::oci::OciError| {
        CopyError::invalid(format!(
            "image {}: manifest {manifest} to {}: {e}",
            item.orig_ref,
            dst.location()
        ))
    };
    let tag = options.tags.tag(&item.digest, &item.orig_ref);
    let mut tags = Vec::new();
    if !held.has_tag(dst, &tag, &item.digest, true).await {
        for child in children {
            dst.put_manifest(child, None)
                .await
                .map_err(|e| refused(&child.digest, e))?;
        }
        dst.put_manifest(root, Some(&tag))
            .await
            .map_err(|e| refused(&root.digest, e))?;
    }
    tags.push(tag);
    if let Some(source_tag) = source_tag {
        if !held.has_tag(dst, source_tag, &item.digest, false).await {
            dst.put_manifest(root, Some(source_tag))
                .await
                .map_err(|e| refused(&root.digest, e))?;
        }
        tags.push(source_tag.to_string());
    }
    Ok(tags)
}

/// The source tags the items keep at the destination, by digest: the root
/// bundle's first, then every other item's in the order of the closure. All
/// items share one repository, so a tag two items claim (`-i a/x:v1 -i b/y:v1`)
/// goes to the first of them only, with a warning; a tag never moves between
/// runs of the same copy.
pub fn kept_tags(closure: &Closure) -> BTreeMap<crate::oci::Digest, String> {
    let mut owner: BTreeMap<&str, &Item> = BTreeMap::new();
    let claims = closure
        .root()
        .into_iter()
        .chain(closure.items.iter().filter(|i| !i.root));
    for item in claims {
        if item.tag.is_empty() {
            continue;
        }
        match owner.get(item.tag.as_str()) {
            None => {
                owner.insert(&item.tag, item);
            }
            Some(first) if first.digest != item.digest => {
                tracing::warn!(
                    "tag {} is kept for {} only; {} is copied under its digest tag alone",
                    item.tag,
                    first.orig_ref,
                    item.orig_ref
                );
            }
            Some(_) => {}
        }
    }
    owner
        .into_iter()
        .map(|(tag, item)| (item.digest.clone(), tag.to_string()))
        .collect()
}

/// Where the copy's inputs went, for `--lock-output`.
pub enum LockInput<'a> {
    /// The source had a root bundle.
    Bundle,
    /// The source was an ImagesLock: its order and annotations are kept.
    ImagesLock(&'a ImagesLock),
    /// The source was `-i` images: every item copied, without annotations.
    Images,
}

/// Writes the lock output: a BundleLock for a root bundle, else an ImagesLock,
/// naming `destination` (`registry/repo`) with the same digests.
pub fn write_lock_output(
    closure: &Closure,
    destination: &Reference,
    input: LockInput<'_>,
    path: &Path,
) -> Result<()> {
    let at = |digest: &crate::oci::Digest| -> Result<Reference> {
        Ok(Reference::from_parts(
            destination.registry(),
            destination.repository(),
            None,
            Some(digest.clone()),
        )?)
    };
    match input {
        LockInput::Bundle => {
            let root = closure.root().ok_or_else(|| {
                CopyError::invalid("the copy has no root bundle for a BundleLock")
            })?;
            BundleLock {
                image: at(&root.digest)?.to_string(),
                tag: root.tag.clone(),
            }
            .write(path)?;
        }
        LockInput::ImagesLock(lock) => {
            let mut out = lock.clone();
            for image in &mut out.images {
                let digest = image.image.digest().expect("lock refs are digests").clone();
                image.image = at(&digest)?;
            }
            out.write(path)?;
        }
        LockInput::Images => {
            let mut out = ImagesLock::default();
            for item in &closure.items {
                out.images.push(LockedImage {
                    image: at(&item.digest)?,
                    annotations: BTreeMap::new(),
                });
            }
            out.write(path)?;
        }
    }
    Ok(())
}
