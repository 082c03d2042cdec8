//! Manifests: `HEAD` to resolve a tag or digest, `GET` (bytes verified against
//! the digest asked for, or the one the registry announces), `PUT` with the
//! manifest's own media type. All four manifest types are accepted: Docker v2
//! manifest and manifest list, OCI manifest and index.

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::{RegistryStore, transport_error};
use crate::oci::store::{Descriptor, ManifestBytes, Store};
use crate::oci::{Digest, OciError, Result, media_types};

/// Manifests larger than this are refused (distribution's own limit is 4 MiB).
const MAX_MANIFEST: u64 = 16 << 20;
const DIGEST_HEADER: &str = "docker-content-digest";

fn accept() -> String {
    media_types::ALL_MANIFESTS.join(", ")
}

fn header<'a>(resp: &'a reqwest::Response, name: &str) -> Option<&'a str> {
    resp.headers().get(name).and_then(|v| v.to_str().ok())
}

/// `Content-Type` without parameters.
fn content_type(resp: &reqwest::Response) -> Option<String> {
    header(resp, "content-type").map(|v| v.split(';').next().unwrap_or("").trim().to_string())
}

pub(super) async fn resolve(store: &RegistryStore, reference: &str) -> Result<Option<Descriptor>> {
    let url = store.url(&format!("manifests/{reference}")).await?;
    let call = Call::new(Method::HEAD, url, vec![Scope::pull(store.repository())])
        .header("accept", &accept());
    let resp = store.send(call).await?;
    match resp.status() {
        StatusCode::NOT_FOUND => return Ok(None),
        StatusCode::OK => {}
        _ => return Err(store.fail(Subject::Manifest(reference), resp).await),
    }
    let digest = header(&resp, DIGEST_HEADER).and_then(|d| d.parse::<Digest>().ok());
    let media_type = content_type(&resp).filter(|m| media_types::is_manifest(m));
    // reqwest's `content_length()` is None for HEAD answers (no body follows), so the
    // header the registry sent is read directly.
    let size = header(&resp, "content-length")
        .and_then(|l| l.trim().parse::<u64>().ok())
        .filter(|s| *s > 0);
    match (digest, media_type, size) {
        (Some(digest), Some(media_type), Some(size)) => {
            if let Ok(asked) = reference.parse::<Digest>()
                && asked != digest
            {
                return Err(store.registry_error(format!(
                    "HEAD manifest {reference} answered with digest {digest}"
                )));
            }
            Ok(Some(Descriptor {
                media_type,
                digest,
                size,
            }))
        }
        // Some registries leave headers out of HEAD answers: fetch the manifest.
        _ => match get_manifest(store, reference).await {
            Ok(m) => Ok(Some(m.descriptor())),
            Err(OciError::ManifestUnknown { .. }) => Ok(None),
            Err(e) => Err(e),
        },
    }
}

pub(super) async fn get_manifest(store: &RegistryStore, reference: &str) -> Result<ManifestBytes> {
    let url = store.url(&format!("manifests/{reference}")).await?;
    let call = Call::new(Method::GET, url, vec![Scope::pull(store.repository())])
        .header("accept", &accept());
    let resp = store.send(call).await?;
    if resp.status() != StatusCode::OK {
        return Err(store.fail(Subject::Manifest(reference), resp).await);
    }
    let location = store.location();
    let invalid = |detail: String| OciError::Invalid {
        location: location.clone(),
        detail: format!("manifest {reference}: {detail}"),
    };
    let announced = header(&resp, DIGEST_HEADER).and_then(|d| d.parse::<Digest>().ok());
    let header_type = content_type(&resp);
    if resp.content_length().is_some_and(|l| l > MAX_MANIFEST) {
        return Err(invalid(format!("larger than {MAX_MANIFEST} bytes")));
    }
    let mut body = BytesMut::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            store.registry_error(format!(
                "reading manifest {reference}: {}",
                transport_error(&e)
            ))
        })?;
        body.extend_from_slice(&chunk);
        if body.len() as u64 > MAX_MANIFEST {
            return Err(invalid(format!("larger than {MAX_MANIFEST} bytes")));
        }
    }
    let body: Bytes = body.freeze();
    let media_type = match header_type.filter(|m| media_types::is_manifest(m)) {
        Some(m) => m,
        None => media_type_from_body(&body)
            .ok_or_else(|| invalid("not a Docker v2 or OCI manifest or index".into()))?,
    };
    let manifest = ManifestBytes::new(media_type, body);
    let expected = reference
        .parse::<Digest>()
        .ok()
        .or(announced.filter(|d| d.algorithm() == "sha256"));
    if let Some(expected) = expected
        && expected != manifest.digest
    {
        return Err(OciError::DigestMismatch {
            location,
            expected,
            actual: manifest.digest.clone(),
            size: manifest.bytes.len() as u64,
        });
    }
    Ok(manifest)
}

/// `GET /v2/<repo>/referrers/<digest>` (OCI distribution 1.1): the manifests
/// whose `subject` is `digest`. `None` when the registry has no referrers API
/// (404 for the route, as distribution 2.8 answers, or an answer that is not an
/// OCI index); the caller then falls back to the `sha256-<hex>` tag schema.
pub(super) async fn referrers(
    store: &RegistryStore,
    digest: &Digest,
) -> Result<Option<Vec<Descriptor>>> {
    let url = store.url(&format!("referrers/{digest}")).await?;
    let call = Call::new(Method::GET, url, vec![Scope::pull(store.repository())])
        .header("accept", media_types::OCI_INDEX);
    let resp = store.send(call).await?;
    if resp.status() != StatusCode::OK
        || content_type(&resp).as_deref() != Some(media_types::OCI_INDEX)
    {
        return Ok(None);
    }
    let body = resp.bytes().await.map_err(|e| {
        store.registry_error(format!(
            "reading the referrers of {digest}: {}",
            transport_error(&e)
        ))
    })?;
    if body.len() as u64 > MAX_MANIFEST {
        return Ok(None);
    }
    let index = ManifestBytes::new(media_types::OCI_INDEX, body);
    Ok(Some(index.references(&store.location())?))
}

/// The media type a manifest declares, or the one its shape implies.
fn media_type_from_body(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    if let Some(m) = value["mediaType"]
        .as_str()
        .filter(|m| media_types::is_manifest(m))
    {
        return Some(m.to_string());
    }
    if value["schemaVersion"].as_u64() != Some(2) {
        return None;
    }
    if value["manifests"].is_array() {
        Some(media_types::OCI_INDEX.to_string())
    } else if value["config"].is_object() {
        Some(media_types::OCI_MANIFEST.to_string())
    } else {
        None
    }
}

pub(super) async fn put_manifest(
    store: &RegistryStore,
    manifest: &ManifestBytes,
    tag: Option<&str>,
) -> Result<()> {
    let reference = match tag {
        Some(t) => t.to_string(),
        None => manifest.digest.to_string(),
    };
    let url = store.url(&format!("manifests/{reference}")).await?;
    let call = Call::new(Method::PUT, url, vec![Scope::push(store.repository())])
        .header("content-type", &manifest.media_type)
        .body(manifest.bytes.clone());
    let resp = store.send(call).await?;
    if !matches!(
        resp.status(),
        StatusCode::OK | StatusCode::CREATED | StatusCode::ACCEPTED
    ) {
        return Err(store.fail(Subject::Manifest(&reference), resp).await);
    }
    if let Some(stored) = header(&resp, DIGEST_HEADER).and_then(|d| d.parse::<Digest>().ok())
        && stored.algorithm() == manifest.digest.algorithm()
        && stored != manifest.digest
    {
        return Err(store.registry_error(format!(
            "manifest {} was stored as {stored}",
            manifest.digest
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_type_from_shape() {
        assert_eq!(
            media_type_from_body(br#"{"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.manifest.v2+json"}"#).as_deref(),
            Some(media_types::DOCKER_MANIFEST)
        );
        assert_eq!(
            media_type_from_body(br#"{"schemaVersion":2,"manifests":[]}"#).as_deref(),
            Some(media_types::OCI_INDEX)
        );
        assert_eq!(
            media_type_from_body(br#"{"schemaVersion":2,"config":{}}"#).as_deref(),
            Some(media_types::OCI_MANIFEST)
        );
        assert_eq!(media_type_from_body(br#"{"schemaVersion":1}"#), None);
        assert_eq!(media_type_from_body(b"nope"), None);
    }
}
