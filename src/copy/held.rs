//! What a destination holds of a closure before manifests are written, learnt
//! with as few requests as possible (every item's manifest by digest, the tags
//! listed once), so that what is there already is not written again. A
//! [`Prober`] asks a destination registry while the closure is still being
//! walked, as each manifest, bundle and kept tag is found, so that a copy into a
//! registry that has everything waits for no round of its own.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::copy::closure::{Closure, Discovered};
use crate::copy::naming::locations_tag;
use crate::oci::{Digest, Store};

/// Tags listed at most, whatever the size of the copy, before a repository is
/// taken as too large to list (its tags are then asked about one by one).
const MIN_LISTED_TAGS: usize = 10_000;

/// What the destination holds before manifests are written, learnt with as
/// few requests as possible: an item whose manifest and generated tag are both
/// there is not written again.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// Manifests it has, by digest.
    pub manifests: HashSet<Digest>,
    /// Its tags, when it listed them.
    pub tags: Option<HashSet<String>>,
    /// Tags asked about ahead (HEAD requests), with the digest each points at.
    pub resolved_tags: HashMap<String, Digest>,
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
    /// of the tag (made ahead, or now), since a signature tag moves when an
    /// image is signed again.
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
        generated || self.points_at(dst, tag, digest).await
    }

    /// Whether `tag` points at `digest` in `dst`: from what a [`Prober`]
    /// learnt, or by a HEAD of the tag.
    pub async fn points_at(&self, dst: &dyn Store, tag: &str, digest: &Digest) -> bool {
        if let Some(found) = self.resolved_tags.get(tag) {
            return found == digest;
        }
        matches!(dst.resolve(tag).await, Ok(Some(found)) if &found.digest == digest)
    }
}

/// What the destination holds of the closure: every item's manifest is asked
/// about by digest (HEAD requests, concurrently), and a registry's tags are
/// listed once (a listing it refuses only means every tag is written).
pub async fn held_by(closure: &Closure, dest: Arc<dyn Store>, concurrency: usize) -> Held {
    Prober::start(dest, concurrency).finish(closure).await
}

/// One question for the destination.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Ask {
    /// Whether it has this manifest.
    Manifest(Digest),
    /// Where this tag points.
    Tag(String),
}

/// Asks a destination what it holds while the closure is walked: its tags are
/// listed at once, and every manifest, bundle (its locations tag) and kept tag
/// the walk finds is asked about as soon as it is found, up to `concurrency`
/// requests at a time, each question once. Errors only mean "not held": the
/// copy then writes what it could not confirm.
pub struct Prober {
    /// Questions, and `None` once the last has been asked.
    sender: mpsc::UnboundedSender<Option<Ask>>,
    answers: tokio::task::JoinHandle<Held>,
    dest: Arc<dyn Store>,
}

impl Prober {
    /// Starts asking `dest` (its tags are listed at once).
    pub fn start(dest: Arc<dyn Store>, concurrency: usize) -> Prober {
        let (sender, receiver) = mpsc::unbounded_channel();
        let answers = tokio::spawn(answer(dest.clone(), receiver, concurrency.max(1)));
        Prober {
            sender,
            answers,
            dest,
        }
    }

    /// What the walk found, turned into questions; for
    /// [`WalkOptions::discovered`](crate::copy::closure::WalkOptions::discovered).
    pub fn watcher(&self) -> Arc<dyn Fn(Discovered) + Send + Sync> {
        let sender = self.sender.clone();
        Arc::new(move |found| {
            let ask = match found {
                Discovered::Manifest(digest) => Ask::Manifest(digest),
                Discovered::Bundle(digest) => Ask::Tag(locations_tag(&digest)),
                Discovered::Tag(tag) => Ask::Tag(tag),
            };
            // The prober is gone only once its answers are in.
            let _ = sender.send(Some(ask));
        })
    }

    /// Asks what is left of `closure` (every item's manifest, every bundle's
    /// locations tag) and returns everything learnt.
    pub async fn finish(self, closure: &Closure) -> Held {
        for item in &closure.items {
            let _ = self.sender.send(Some(Ask::Manifest(item.digest.clone())));
            if item.is_bundle() {
                let _ = self
                    .sender
                    .send(Some(Ask::Tag(locations_tag(&item.digest))));
            }
        }
        let Prober {
            sender,
            answers,
            dest,
        } = self;
        // Watchers the walk still holds may outlive this: the questions end
        // here, not when the last sender is dropped.
        let _ = sender.send(None);
        let mut held = answers.await.unwrap_or_else(|e| {
            tracing::debug!("asking the destination failed: {e}");
            Held::default()
        });
        // A copy so large that its own tags may pass the first limit lists a
        // repository that had more than that again, with its own limit.
        let max = closure.items.len() * 8;
        if held.tags.is_none() && max > MIN_LISTED_TAGS && dest.registry_repository().is_some() {
            held.tags = list_tags(dest.as_ref(), max).await;
        }
        held
    }
}

/// Answers the questions `receiver` brings until the last (`None`).
async fn answer(
    dest: Arc<dyn Store>,
    receiver: mpsc::UnboundedReceiver<Option<Ask>>,
    concurrency: usize,
) -> Held {
    let new_questions = futures_util::stream::unfold(
        (receiver, HashSet::new()),
        |(mut receiver, mut asked)| async move {
            loop {
                let ask = receiver.recv().await??;
                if asked.insert(ask.clone()) {
                    return Some((ask, (receiver, asked)));
                }
            }
        },
    );
    let dest_ref = dest.as_ref();
    let answers = new_questions
        .map(|ask| async move {
            let reference = match &ask {
                Ask::Manifest(digest) => digest.to_string(),
                Ask::Tag(tag) => tag.clone(),
            };
            let found = match dest_ref.resolve(&reference).await {
                Ok(found) => found.map(|d| d.digest),
                // An error here only means the item is written again.
                Err(e) => {
                    tracing::debug!(reference, "not confirmed at the destination: {e}");
                    None
                }
            };
            (ask, found)
        })
        .buffer_unordered(concurrency)
        .fold(Held::default(), |mut held, (ask, found)| async move {
            match (ask, found) {
                (Ask::Manifest(digest), Some(found)) if found == digest => {
                    held.manifests.insert(digest);
                }
                (Ask::Tag(tag), Some(found)) => {
                    held.resolved_tags.insert(tag, found);
                }
                _ => {}
            }
            held
        });
    let tags = async {
        dest_ref.registry_repository()?;
        list_tags(dest_ref, MIN_LISTED_TAGS).await
    };
    let (mut held, tags) = futures_util::join!(answers, tags);
    held.tags = tags;
    held
}

/// A registry's tags, when it lists them and has at most about `max`: a
/// repository with far more tags than the copy writes is not read to its end,
/// and its tags are then written as if absent.
async fn list_tags(dest: &dyn Store, max: usize) -> Option<HashSet<String>> {
    match dest.list_tags_up_to(max).await {
        Ok(tags) => Some(tags?.into_iter().collect()),
        Err(e) => {
            tracing::debug!(destination = dest.location(), "tags not listed: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::Descriptor;
    use crate::oci::memory::MemoryStore;

    fn descriptor(data: &[u8]) -> Descriptor {
        Descriptor {
            media_type: crate::oci::media_types::DOCKER_CONFIG.to_string(),
            digest: Digest::of(data),
            size: data.len() as u64,
        }
    }

    #[tokio::test]
    async fn a_prober_answers_what_the_walk_found_even_while_a_watcher_lives_on() {
        let store = MemoryStore::new("dest");
        let manifest = crate::bundle::image::manifest(&descriptor(b"c"), &descriptor(b"l"));
        store.put_manifest(&manifest, Some("v1")).await.unwrap();
        let dest: Arc<dyn Store> = Arc::new(store);
        let prober = Prober::start(dest, 2);
        let watcher = prober.watcher();
        let absent = Digest::of(b"absent");
        for found in [
            Discovered::Manifest(manifest.digest.clone()),
            Discovered::Manifest(manifest.digest.clone()),
            Discovered::Manifest(absent.clone()),
            Discovered::Tag("v1".to_string()),
            Discovered::Tag("v2".to_string()),
        ] {
            watcher(found);
        }
        // `watcher` is still alive: finishing must not wait for it.
        let held = prober.finish(&Closure::default()).await;
        assert_eq!(held.manifests, HashSet::from([manifest.digest.clone()]));
        assert_eq!(
            held.resolved_tags,
            HashMap::from([("v1".to_string(), manifest.digest.clone())])
        );
        // Not a registry: no listing.
        assert!(held.tags.is_none());
        let other = MemoryStore::new("other");
        assert!(held.points_at(&other, "v1", &manifest.digest).await);
        assert!(!held.points_at(&other, "v1", &absent).await);
        watcher(Discovered::Bundle(absent));
    }
}
