//! What a destination holds of a closure before manifests are written, learnt
//! with as few requests as possible (every item's manifest by digest, the tags
//! listed once), so that what is there already is not written again.

use std::collections::HashSet;

use crate::copy::closure::Closure;
use crate::oci::{Digest, Store};

/// What the destination holds before manifests are written, learnt with as
/// few requests as possible: an item whose manifest and generated tag are both
/// there is not written again.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// Manifests it has, by digest.
    pub manifests: HashSet<Digest>,
    /// Its tags, when it listed them.
    pub tags: Option<HashSet<String>>,
}

impl Held {
    /// Whether every one of `tags` is listed.
    pub fn has_all(&self, tags: &[String]) -> bool {
        self.tags
            .as_ref()
            .is_some_and(|listed| tags.iter().all(|t| listed.contains(t)))
    }

    /// Whether `tag` is there, pointing at `digest`: by name for a generated tag
    /// (`sha256-<hex>.imgpkg` names its digest), and for any other tag by a HEAD
    /// of the tag, since a signature tag moves when an image is signed again.
    pub async fn has_tag(
        &self,
        dst: &dyn Store,
        tag: &str,
        digest: &Digest,
        generated: bool,
    ) -> bool {
        if !self.manifests.contains(digest)
            || !self.tags.as_ref().is_some_and(|tags| tags.contains(tag))
        {
            return false;
        }
        if generated {
            return true;
        }
        matches!(dst.resolve(tag).await, Ok(Some(found)) if &found.digest == digest)
    }
}

/// What the destination holds of the closure: every item's manifest is asked
/// about by digest (HEAD requests, concurrently), and a registry's tags are
/// listed once (a listing it refuses only means every tag is written).
pub async fn held_by(closure: &Closure, dest: &dyn Store, concurrency: usize) -> Held {
    use futures_util::StreamExt;
    let manifests = futures_util::stream::iter(closure.items.iter())
        .map(|item| async move {
            match dest.resolve(item.digest.as_str()).await {
                Ok(Some(found)) if found.digest == item.digest => Some(item.digest.clone()),
                // An error here only means the item is written again.
                Ok(_) | Err(_) => None,
            }
        })
        .buffered(concurrency.max(1))
        .filter_map(|held| async move { held })
        .collect();
    let tags = async {
        dest.registry_repository()?;
        // A repository with far more tags than the copy writes is not read to
        // its end: its tags are then written as if absent.
        let max = (closure.items.len() * 8).max(10_000);
        match dest.list_tags_up_to(max).await {
            Ok(tags) => Some(tags?.into_iter().collect()),
            Err(e) => {
                tracing::debug!(destination = dest.location(), "tags not listed: {e}");
                None
            }
        }
    };
    let (manifests, tags) = futures_util::join!(manifests, tags);
    Held { manifests, tags }
}
