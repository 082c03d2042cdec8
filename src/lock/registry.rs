//! Looking references up in a registry with exactly one manifest request each: `HEAD` for a
//! digest, or `GET` when the manifest itself is needed (platform selection). When the
//! registry says 404, one more request (the tag list) tells a missing repository from a
//! missing tag, so the error says which.

use reqwest::{Method, StatusCode};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::errors::parse_body;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::{RegistryClient, RegistryStore};
use crate::oci::{Descriptor, Digest, ManifestBytes, OciError, Reference, Store, media_types};

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
    match head(&store, &target).await {
        Ok(Some(descriptor)) => Ok(Found {
            descriptor,
            manifest: None,
        }),
        Ok(None) => Err(explain_missing(&store, &target).await),
        Err(e) => Err(e.to_string()),
    }
}

/// One `HEAD` request: the digest from `Docker-Content-Digest`, the media type and size
/// from the headers. (reqwest reports no content length for `HEAD` answers, so the header
/// is read directly.) Registries that leave a header out get one `GET` instead.
async fn head(store: &RegistryStore, target: &str) -> Result<Option<Descriptor>, OciError> {
    let url = store.url(&format!("manifests/{target}")).await?;
    let call = Call::new(Method::HEAD, url, vec![Scope::pull(store.repository())])
        .header("accept", &media_types::ALL_MANIFESTS.join(", "));
    let resp = store.send(call).await?;
    match resp.status() {
        StatusCode::OK => {}
        StatusCode::NOT_FOUND => return Ok(None),
        status => return Err(store.error(Subject::Manifest(target), status, b"")),
    }
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let digest = header("docker-content-digest").and_then(|d| d.parse::<Digest>().ok());
    let media_type = header("content-type")
        .map(|m| m.split(';').next().unwrap_or("").trim().to_string())
        .filter(|m| media_types::is_manifest(m));
    let size = header("content-length").and_then(|l| l.parse::<u64>().ok());
    if let (Some(digest), Some(media_type), Some(size)) = (digest, media_type, size) {
        if let Ok(asked) = target.parse::<Digest>()
            && asked != digest
        {
            return Err(OciError::Registry {
                registry: store.registry().to_string(),
                detail: format!(
                    "{}: HEAD manifest {target} answered with digest {digest}",
                    store.location()
                ),
            });
        }
        return Ok(Some(Descriptor {
            media_type,
            digest,
            size,
        }));
    }
    match store.get_manifest(target).await {
        Ok(m) => Ok(Some(m.descriptor())),
        Err(OciError::ManifestUnknown { .. }) => Ok(None),
        Err(e) => Err(e),
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
