//! A bundle's locations image at a registry destination, as imgpkg writes it
//! (`carvel-formats.md` §3.4): a plain imgpkg image holding
//! `image-locations.yml` (the bundle's direct images by their original
//! references, and whether each is a bundle), tagged
//! `sha256-<bundle hex>.image-locations.imgpkg` and `sha256-<its hex>.imgpkg`.
//!
//! The image is reproducible, so it is built first in memory (its input file in
//! a private scratch directory): when the destination's locations tag points at
//! that very digest already (a copy into a registry that has everything), one
//! HEAD is all it costs; otherwise its blobs and manifest are copied from memory.

use std::collections::BTreeMap;

use crate::bundle::lockfiles::{ImageLocation, ImageLocations};
use crate::bundle::push::{PushOptions, push_image};
use crate::copy::closure::{Closure, Item, Kind};
use crate::copy::held::Held;
use crate::copy::naming::{digest_tag, locations_tag};
use crate::copy::{CopyError, Result};
use crate::oci::Store;
use crate::oci::copy::{CopyOptions, copy_graph, walk_image};
use crate::oci::memory::MemoryStore;

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

/// Writes the locations image of `bundle` to `dst`, unless `held` and a HEAD of
/// its tag show it there already. Returns its two tags.
pub async fn write_locations_image(
    closure: &Closure,
    bundle: &Item,
    dst: &dyn Store,
    held: &Held,
) -> Result<Vec<String>> {
    let tag = locations_tag(&bundle.digest);
    let built = MemoryStore::new(&tag);
    let pushed = {
        let input = scratch_input(&locations_of(closure, bundle).to_yaml())?;
        let options = PushOptions {
            cache: None,
            threads: 1,
            ..PushOptions::default()
        };
        let inputs = [input.path().join("input")];
        push_image(&built, &tag, &inputs, &options, &BTreeMap::new()).await?
    };
    let tags = vec![tag.clone(), digest_tag(&pushed.digest)];
    if held.has_all(&tags)
        && matches!(dst.resolve(&tag).await, Ok(Some(found)) if found.digest == pushed.digest)
    {
        return Ok(tags);
    }
    let graph = walk_image(&built, pushed.digest.as_str()).await?;
    let mut attempt = 0;
    loop {
        let copied = async {
            copy_graph(&built, &graph, dst, Some(&tag), &CopyOptions::default()).await?;
            dst.put_manifest(graph.root(), Some(&tags[1])).await
        };
        match copied.await {
            Ok(()) => break,
            Err(e) if attempt < 5 && crate::copy::transfer::is_transient(&e) => {
                tracing::info!(%e, "pushing the locations image again");
                tokio::time::sleep(std::time::Duration::from_millis(100 << attempt)).await;
                attempt += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(tags)
}

/// A private scratch directory (0700) holding `input/image-locations.yml`
/// (0600) with `yaml`; removed when dropped. Nothing in it outlives the push,
/// so nothing is synced.
fn scratch_input(yaml: &str) -> Result<tempfile::TempDir> {
    use std::io::Write as _;
    use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
    let dir = tempfile::Builder::new()
        .prefix(".strake-locations-")
        .tempdir()
        .map_err(|e| CopyError::invalid(format!("creating a temporary directory: {e}")))?;
    let input = dir.path().join("input");
    let file = input.join("image-locations.yml");
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&input)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&file)
        })
        .and_then(|mut f| f.write_all(yaml.as_bytes()))
        .map_err(|e| CopyError::invalid(format!("{}: {e}", file.display())))?;
    Ok(dir)
}
