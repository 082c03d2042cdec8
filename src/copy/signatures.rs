//! Finding what a copy carries beside each image: its cosign signature,
//! attestation and SBOM tags (`sha256-<hex>.sig`, `.att`, `.sbom`), its OCI 1.1
//! referrers from the referrers API, and the tag-schema index `sha256-<hex>`
//! that registries without the API hold.
//!
//! Asking for each of those per image costs five round trips. Instead, a
//! registry repository's tags are listed once (one `GET tags/list`, shared by
//! every image of that repository) and only the signature tags it lists are
//! fetched; when the listing is refused (401, 403, 404, 405) or too long, the
//! tags are asked about one by one as before. A registry that answers the
//! referrers API with anything but an OCI index (distribution 2.8 answers 404:
//! the spec's "not supported") is not asked again during the walk. A missing
//! tag (404, or DENIED/UNAUTHORIZED) is not an error.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

use crate::bundle::pull::is_absent;
use crate::oci::{Descriptor, Digest, OciError, Store};

/// The tag suffixes cosign uses for signatures, attestations and SBOMs.
pub const SIGNATURE_SUFFIXES: [&str; 3] = ["sig", "att", "sbom"];

/// A listing longer than this is not read to its end: a repository with more
/// tags (a public image with years of releases) is asked about its signature
/// tags one by one.
pub const MAX_LISTED_TAGS: usize = 3000;

/// What an image carries: its referrers (from the API) and the signature tags
/// its repository has, in [`signature_tags`] order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub referrers: Vec<Descriptor>,
    pub tags: Vec<String>,
}

type Listing = Option<Arc<HashSet<String>>>;

/// Finds signatures and referrers during one walk, remembering what it learnt
/// about each repository and registry.
#[derive(Default)]
pub struct SignatureFinder {
    /// Each registry repository's tags, listed once (`None`: refused or too long).
    listings: Mutex<HashMap<String, Arc<OnceCell<Listing>>>>,
    /// Registries known to have no referrers API.
    without_referrers: Mutex<HashSet<String>>,
}

impl SignatureFinder {
    pub fn new() -> SignatureFinder {
        SignatureFinder::default()
    }

    /// The referrers and signature tags of `digest` in `store`.
    pub async fn find(&self, store: &dyn Store, digest: &Digest) -> Result<Found, OciError> {
        let (referrers, tags) =
            futures_util::join!(self.referrers(store, digest), self.tags(store, digest));
        Ok(Found {
            referrers: referrers?,
            tags: tags?,
        })
    }

    async fn referrers(
        &self,
        store: &dyn Store,
        digest: &Digest,
    ) -> Result<Vec<Descriptor>, OciError> {
        let registry = store.registry_repository().map(|(r, _)| r);
        if let Some(registry) = &registry
            && self.lock_registries().contains(registry)
        {
            return Ok(Vec::new());
        }
        match store.referrers(digest).await {
            Ok(Some(listed)) => Ok(listed),
            Ok(None) => {
                if let Some(registry) = registry {
                    tracing::debug!(registry, "no referrers API; using the tag schema");
                    self.lock_registries().insert(registry);
                }
                Ok(Vec::new())
            }
            Err(e) if is_absent(&e) => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }

    fn lock_registries(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.without_referrers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// The signature tags of `digest` that `store` has: from its listing, or
    /// asked about one by one.
    async fn tags(&self, store: &dyn Store, digest: &Digest) -> Result<Vec<String>, OciError> {
        if let Some(listing) = self.listing(store).await {
            return Ok(listed_signature_tags(digest, &listing));
        }
        let wanted = signature_tags(digest);
        let resolved =
            futures_util::future::join_all(wanted.iter().map(|tag| store.resolve(tag))).await;
        let mut found = Vec::new();
        for (tag, result) in wanted.into_iter().zip(resolved) {
            match result {
                Ok(Some(_)) => found.push(tag),
                Ok(None) => {}
                Err(e) if is_absent(&e) => tracing::debug!(%digest, tag, "no signature: {e}"),
                Err(e) => return Err(e),
            }
        }
        Ok(found)
    }

    /// The tags of `store`'s repository, listed once per walk; `None` for stores
    /// that are not registries (asking them is local and cheap) and when the
    /// registry refuses the listing or it is too long.
    async fn listing(&self, store: &dyn Store) -> Listing {
        store.registry_repository()?;
        let cell = self
            .listings
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(store.location())
            .or_default()
            .clone();
        cell.get_or_init(|| async {
            match store.list_tags_up_to(MAX_LISTED_TAGS).await {
                Ok(Some(tags)) => Some(Arc::new(tags.into_iter().collect())),
                Ok(None) => {
                    tracing::debug!(
                        repository = store.location(),
                        "over {MAX_LISTED_TAGS} tags; asking for signature tags one by one"
                    );
                    None
                }
                Err(e) => {
                    tracing::debug!(
                        repository = store.location(),
                        "tags not listed ({e}); asking for signature tags one by one"
                    );
                    None
                }
            }
        })
        .await
        .clone()
    }
}

/// The tags under which signatures, attestations, SBOMs and the referrers
/// index (OCI 1.1's tag schema) of `digest` live.
pub fn signature_tags(digest: &Digest) -> Vec<String> {
    let mut tags: Vec<String> = SIGNATURE_SUFFIXES
        .iter()
        .map(|s| format!("{}.{s}", digest.dashed()))
        .collect();
    tags.push(digest.dashed());
    tags
}

/// The signature tags of `digest` that a repository listing `listed` holds, in
/// [`signature_tags`] order.
pub fn listed_signature_tags(digest: &Digest, listed: &HashSet<String>) -> Vec<String> {
    signature_tags(digest)
        .into_iter()
        .filter(|tag| listed.contains(tag))
        .collect()
}

/// The subject of a signature, attestation, SBOM or referrers tag
/// (`sha256-<hex>.sig`, …, `sha256-<hex>`), `None` for other tags.
pub fn signature_subject(tag: &str) -> Option<Digest> {
    let rest = tag.strip_prefix("sha256-")?;
    let hex = match rest.split_once('.') {
        Some((hex, suffix)) if SIGNATURE_SUFFIXES.contains(&suffix) => hex,
        Some(_) => return None,
        None => rest,
    };
    format!("sha256:{hex}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_tags_and_their_subjects() {
        let digest = Digest::of(b"image");
        let tags = signature_tags(&digest);
        assert_eq!(tags.len(), 4);
        for tag in &tags {
            assert_eq!(signature_subject(tag), Some(digest.clone()), "{tag}");
        }
        assert_eq!(signature_subject("v1"), None);
        assert_eq!(
            signature_subject(&format!("{}.imgpkg", digest.dashed())),
            None
        );
        assert_eq!(signature_subject("sha256-xyz.sig"), None);
    }

    #[test]
    fn signature_tags_are_picked_from_a_listing() {
        let image = Digest::of(b"image");
        let other = Digest::of(b"other");
        let dashed = image.dashed();
        let listed: HashSet<String> = [
            "v1".to_string(),
            "latest".to_string(),
            format!("{dashed}.sbom"),
            format!("{dashed}.sig"),
            format!("{dashed}.imgpkg"),
            format!("{dashed}.image-locations.imgpkg"),
            format!("{dashed}.sig.bak"),
            format!("{}.att", other.dashed()),
            other.dashed(),
        ]
        .into_iter()
        .collect();
        // Only this image's cosign tags, in signature_tags order; not another
        // image's, nor generated or look-alike tags.
        assert_eq!(
            listed_signature_tags(&image, &listed),
            vec![format!("{dashed}.sig"), format!("{dashed}.sbom")]
        );
        // The tag-schema referrers index is picked like the cosign tags.
        assert_eq!(
            listed_signature_tags(&other, &listed),
            vec![format!("{}.att", other.dashed()), other.dashed()]
        );
        assert!(listed_signature_tags(&Digest::of(b"unsigned"), &listed).is_empty());
    }
}
