//! Relocation at a registry or OCI layout destination, as imgpkg does it
//! (`carvel-formats.md` §3.2, §3.4, §3.7): once every blob is there, each item's
//! manifests go into the one destination repository, children by digest and the
//! item itself by its generated tag (`sha256-<hex>.imgpkg`); signatures keep
//! their cosign tags and images their source tags (`-i repo:v1` keeps `v1`,
//! as imgpkg does); every bundle gets its locations image (registries only);
//! the root bundle's own tag is written last, so a tag never points at missing
//! content and a failed copy leaves no root tag. Lock output says where
//! everything went.

use std::collections::BTreeMap;
use std::path::Path;

use crate::bundle::lockfiles::{
    BundleLock, ImageLocation, ImageLocations, ImagesLock, LockedImage,
};
use crate::bundle::push::{PushOptions, push_image};
use crate::copy::closure::{Closure, Item, Kind};
use crate::copy::naming::{TagScheme, locations_tag};
use crate::copy::progress::Progress;
use crate::copy::{CopyError, Result};
use crate::oci::{Reference, Store};

/// How manifests are written.
#[derive(Clone, Debug)]
pub struct RelocateOptions {
    pub tags: TagScheme,
    /// Push a locations image for every bundle (registry destinations).
    pub locations: bool,
}

/// Writes the manifests, tags and locations images of `closure` to `dst`.
/// Returns the tags written, in order.
pub async fn write_manifests(
    closure: &Closure,
    dst: &dyn Store,
    options: &RelocateOptions,
    progress: &Progress,
) -> Result<Vec<String>> {
    let mut written = Vec::new();
    let kept = kept_tags(closure);
    // Images first, then bundles, then signatures (after their subjects), the
    // root bundle last of all.
    let rank = |item: &Item| match (&item.kind, item.root) {
        (_, true) => 3,
        (Kind::Image, _) => 0,
        (Kind::Bundle { .. }, _) => 1,
        (Kind::Signature { .. }, _) => 2,
    };
    let mut ordered: Vec<&Item> = closure.items.iter().collect();
    ordered.sort_by_key(|i| rank(i));
    for item in &ordered {
        let (root, children) = item
            .graph
            .manifests
            .split_last()
            .expect("a graph has a root");
        let refused = |manifest: &crate::oci::Digest, e: crate::oci::OciError| {
            CopyError::invalid(format!(
                "image {}: manifest {manifest} to {}: {e}",
                item.orig_ref,
                dst.location()
            ))
        };
        for child in children {
            dst.put_manifest(child, None)
                .await
                .map_err(|e| refused(&child.digest, e))?;
        }
        let tag = options.tags.tag(&item.digest, &item.orig_ref);
        dst.put_manifest(root, Some(&tag))
            .await
            .map_err(|e| refused(&root.digest, e))?;
        written.push(tag);
        // Its source tag too (`-i repo:v1` keeps `v1`, a signature its cosign
        // or referrers tag); the root bundle's comes last of all.
        if !item.root
            && let Some(source_tag) = kept.get(&item.digest)
        {
            dst.put_manifest(root, Some(source_tag))
                .await
                .map_err(|e| refused(&root.digest, e))?;
            written.push(source_tag.clone());
        }
        progress.image_done(&format!(
            "copied {} -> {}@{}",
            item.orig_ref,
            dst.location(),
            item.digest
        ));
    }
    if options.locations {
        for item in &ordered {
            if item.is_bundle() {
                let tags = write_locations_image(closure, item, dst)
                    .await
                    .map_err(|e| {
                        CopyError::invalid(format!(
                            "bundle {}: locations image {} at {}: {e}",
                            item.orig_ref,
                            locations_tag(&item.digest),
                            dst.location()
                        ))
                    })?;
                written.extend(tags);
            }
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

/// The locations image of `bundle`: its direct images (original references, and
/// whether each is a bundle), as `image-locations.yml` in a plain imgpkg image.
pub fn locations_of(closure: &Closure, bundle: &Item) -> ImageLocations {
    let Kind::Bundle { images } = &bundle.kind else {
        return ImageLocations::default();
    };
    ImageLocations {
        images: images
            .iter()
            .map(|(image, digest)| ImageLocation {
                image: image.clone(),
                is_bundle: closure.get(digest).is_some_and(Item::is_bundle),
            })
            .collect(),
    }
}

async fn write_locations_image(
    closure: &Closure,
    bundle: &Item,
    dst: &dyn Store,
) -> Result<Vec<String>> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix(".strake-locations-")
        .tempdir()
        .map_err(|e| CopyError::invalid(format!("creating a temporary directory: {e}")))?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(|e| CopyError::invalid(format!("{}: {e}", dir.path().display())))?;
    let file = dir.path().join("image-locations.yml");
    crate::bundle::lockfiles::write_file_0600(&file, &locations_of(closure, bundle).to_yaml())?;
    let tag = locations_tag(&bundle.digest);
    let options = PushOptions {
        cache: None,
        ..PushOptions::default()
    };
    let mut attempt = 0;
    let pushed = loop {
        match push_image(
            dst,
            &tag,
            &[dir.path().to_path_buf()],
            &options,
            &BTreeMap::new(),
        )
        .await
        {
            Err(crate::bundle::BundleError::Oci(e))
                if attempt < 5 && crate::copy::transfer::is_transient(&e) =>
            {
                tracing::info!(%e, "pushing the locations image again");
                tokio::time::sleep(std::time::Duration::from_millis(100 << attempt)).await;
                attempt += 1;
            }
            other => break other?,
        }
    };
    Ok(vec![tag, crate::copy::naming::digest_tag(&pushed.digest)])
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
