//! Blob existence (`HEAD`) and download (`GET`, streamed and verified against the
//! digest and the announced length). Redirects are followed by reqwest, which
//! drops `Authorization` when the redirect leads to another host.

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::{RegistryStore, transport_error};
use crate::oci::store::{BlobRange, Store};
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

/// `GET` with `Range: bytes=<offset>-`: a `206` whose `Content-Range` starts at
/// `offset` gives the rest of the blob (not verified: the reader verifies the
/// whole blob); a registry that ignores the range answers `200` with the whole
/// blob, which is returned verified, from byte 0.
pub(super) async fn get_blob_from(
    store: &RegistryStore,
    digest: &Digest,
    offset: u64,
) -> Result<BlobRange> {
    if offset == 0 {
        return Ok(BlobRange {
            start: 0,
            stream: get_blob(store, digest).await?,
        });
    }
    let url = store.url(&format!("blobs/{digest}")).await?;
    let call = Call::new(Method::GET, url, vec![Scope::pull(store.repository())])
        .header("range", &format!("bytes={offset}-"));
    let resp = store.send(call).await?;
    let start = match resp.status() {
        StatusCode::PARTIAL_CONTENT => {
            let header = resp
                .headers()
                .get(reqwest::header::CONTENT_RANGE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            match content_range_start(header) {
                Some(start) if start == offset => start,
                _ => {
                    return Err(store.registry_error(format!(
                        "reading blob {digest} from byte {offset}: the answer's Content-Range is {header:?}"
                    )));
                }
            }
        }
        StatusCode::OK => 0,
        _ => return Err(store.fail(Subject::Blob(digest), resp).await),
    };
    let size = resp.content_length();
    let registry = store.location();
    let what = format!("reading blob {digest}");
    let stream: BlobStream = Box::pin(resp.bytes_stream().map(move |chunk| {
        chunk.map_err(|e| OciError::Registry {
            registry: registry.clone(),
            detail: format!("{what}: {}", transport_error(&e)),
        })
    }));
    let stream = if start == 0 {
        verify_stream(stream, digest.clone(), size, store.location())
    } else {
        stream
    };
    Ok(BlobRange { start, stream })
}

/// The first byte of `Content-Range: bytes <start>-<end>/<total>`.
fn content_range_start(header: &str) -> Option<u64> {
    let range = header.trim().strip_prefix("bytes")?.trim_start();
    let (start, rest) = range.split_once('-')?;
    rest.split_once('/')?;
    start.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::content_range_start;

    #[test]
    fn content_range_start_reads_the_first_byte() {
        assert_eq!(content_range_start("bytes 100-199/200"), Some(100));
        assert_eq!(content_range_start("bytes 0-9/*"), Some(0));
        assert_eq!(content_range_start(" bytes  7-9/10"), Some(7));
        assert_eq!(content_range_start("bytes */200"), None);
        assert_eq!(content_range_start("items 1-2/3"), None);
        assert_eq!(content_range_start(""), None);
    }
}
