//! Blob existence (`HEAD`) and download (`GET`, streamed and verified against the
//! digest and the announced length). Redirects are followed by reqwest, which
//! drops `Authorization` when the redirect leads to another host.

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::{RegistryStore, transport_error};
use crate::oci::store::Store;
use crate::oci::stream::{BlobStream, verify_stream};
use crate::oci::{Digest, OciError, Result};

pub(super) async fn blob_size(store: &RegistryStore, digest: &Digest) -> Result<Option<u64>> {
    let url = store.url(&format!("blobs/{digest}")).await?;
    let resp = store
        .send(Call::new(
            Method::HEAD,
            url,
            vec![Scope::pull(store.repository())],
        ))
        .await?;
    match resp.status() {
        StatusCode::OK => {
            let size = resp
                .headers()
                .get(reqwest::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| {
                    store.registry_error(format!(
                        "HEAD blob {digest} answered without Content-Length"
                    ))
                })?;
            Ok(Some(size))
        }
        StatusCode::NOT_FOUND => Ok(None),
        _ => Err(store.fail(Subject::Blob(digest), resp).await),
    }
}

pub(super) async fn get_blob(store: &RegistryStore, digest: &Digest) -> Result<BlobStream> {
    let url = store.url(&format!("blobs/{digest}")).await?;
    let resp = store
        .send(Call::new(
            Method::GET,
            url,
            vec![Scope::pull(store.repository())],
        ))
        .await?;
    if resp.status() != StatusCode::OK {
        return Err(store.fail(Subject::Blob(digest), resp).await);
    }
    let size = resp.content_length();
    let location = store.location();
    let registry = location.clone();
    let what = format!("reading blob {digest}");
    let stream = resp.bytes_stream().map(move |chunk| {
        chunk.map_err(|e| OciError::Registry {
            registry: registry.clone(),
            detail: format!("{what}: {}", transport_error(&e)),
        })
    });
    Ok(verify_stream(
        Box::pin(stream),
        digest.clone(),
        size,
        location,
    ))
}
