//! Looking references up in a registry with exactly one manifest request each: `HEAD` for a
//! digest (the shared `Store::resolve`), or `GET` when the manifest itself is needed
//! (platform selection). When the
//! registry says 404, one more request (the tag list) tells a missing repository from a
//! missing tag, so the error says which.

use reqwest::{Method, StatusCode};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::parse_body;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::{RegistryClient, RegistryStore};
use crate::oci::{Descriptor, ManifestBytes, OciError, Reference, Store};

/// What a lookup found: the manifest's descriptor, and its bytes when asked for.
#[derive(Clone, Debug)]
pub struct Found {
    pub descriptor: Descriptor,
    pub manifest: Option<ManifestBytes>,
}

/// Looks up `reference` (its digest if it has one, else its tag) on its registry.
pub async fn lookup(
    client: &RegistryClient,
    reference: &Reference,
    want_manifest: bool,
) -> Result<Found, String> {
    let store = client.store(reference);
    let target = reference.manifest_reference();
    if want_manifest {
        return match store.get_manifest(&target).await {
            Ok(m) => Ok(Found {
                descriptor: m.descriptor(),
                manifest: Some(m),
            }),
            Err(OciError::ManifestUnknown { .. }) => Err(explain_missing(&store, &target).await),
            Err(e) => Err(e.to_string()),
        };
    }
    match store.resolve(&target).await {
        Ok(Some(descriptor)) => Ok(Found {
            descriptor,
            manifest: None,
        }),
        Ok(None) => Err(explain_missing(&store, &target).await),
        Err(e) => Err(e.to_string()),
    }
}

/// Why `target` is missing. The manifest answer (`HEAD` has no body, and distribution says
/// `MANIFEST_UNKNOWN` even for a repository it does not have) cannot tell, so the tag list
/// is asked: `NAME_UNKNOWN` there means the repository itself does not exist.
async fn explain_missing(store: &RegistryStore, target: &str) -> String {
    let location = store.location();
    let what = if target.starts_with("sha256:") || target.starts_with("sha512:") {
        format!("manifest {target}")
    } else {
        format!("tag {target:?}")
    };
    let missing_object = format!("{what} not found in {location}");
    let Ok(url) = store.url("tags/list").await else {
        return missing_object;
    };
    let call = Call::new(Method::GET, url, vec![Scope::pull(store.repository())]);
    let Ok(resp) = store.send(call).await else {
        return missing_object;
    };
    if resp.status() != StatusCode::NOT_FOUND {
        return missing_object;
    }
    let body = resp.bytes().await.unwrap_or_default();
    if parse_body(&body).iter().any(|e| e.code == "NAME_UNKNOWN") {
        format!("repository {location} not found (no such repository)")
    } else {
        missing_object
    }
}
