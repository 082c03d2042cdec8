//! A bundle's locations image at a registry destination, as imgpkg writes it
//! (`carvel-formats.md` §3.4): a plain imgpkg image holding
//! `image-locations.yml` (the bundle's direct images by their original
//! references, and whether each is a bundle), tagged
//! `sha256-<bundle hex>.image-locations.imgpkg` and `sha256-<its hex>.imgpkg`.
//!
//! The image is reproducible, so it is built first in memory (its one file
//! too; nothing is written to disk): when the destination's locations tag points at
//! that very digest already (a copy into a registry that has everything), one
//! HEAD is all it costs; otherwise its blobs and manifest are copied from memory.

use std::collections::BTreeMap;

use crate::bundle::lockfiles::{ImageLocation, ImageLocations};
use crate::bundle::push::{PushOptions, push_planned_image};
use crate::bundle::tar::TarPlan;
use crate::copy::Result;
use crate::copy::closure::{Closure, Item, Kind};
use crate::copy::held::Held;
use crate::copy::naming::{digest_tag, locations_tag};
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
        let layer = TarPlan::of_directory(vec![(
            "image-locations.yml".to_string(),
            locations_of(closure, bundle).to_yaml().into_bytes(),
        )]);
        let options = PushOptions {
            cache: None,
            threads: 1,
            ..PushOptions::default()
        };
        push_planned_image(&built, &tag, layer, &options, &BTreeMap::new()).await?
    };
    let tags = vec![tag.clone(), digest_tag(&pushed.digest)];
    if held.has_all(&tags) && held.points_at(dst, &tag, &pushed.digest).await {
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
