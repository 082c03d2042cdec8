//! One blob upload session at a registry, as the distribution spec defines it:
//! opening it (`POST /blobs/uploads/`), its `Location`, its status (`GET`, the
//! `Range` it holds), closing it (`PUT …?digest=…`) or abandoning it
//! (`DELETE`), and the state file that records it for a rerun. The ways of
//! sending a blob's bytes through a session (`upload`, `upload_stream`,
//! `upload_resume`) are built on these.

use bytes::Bytes;
use reqwest::{Method, StatusCode, Url};

use crate::oci::registry::RegistryStore;
use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::upload_state::UploadState;
use crate::oci::{Digest, OciError, Result};

/// An open upload session.
pub(super) struct Session {
    pub(super) location: Url,
    pub(super) min_chunk: Option<usize>,
}

pub(super) fn registry_error(store: &RegistryStore, detail: String) -> OciError {
    store.registry_error(detail)
}

/// Resolves a `Location` header against the URL it answered; its query is kept.
pub(super) fn location_of(
    store: &RegistryStore,
    resp: &reqwest::Response,
    what: &str,
) -> Result<Url> {
    let value = resp
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| registry_error(store, format!("{what}: answer without Location")))?;
    resp.url()
        .join(value)
        .map_err(|e| registry_error(store, format!("{what}: bad Location {value:?}: {e}")))
}

pub(super) async fn start(store: &RegistryStore, digest: Option<&Digest>) -> Result<Session> {
    let url = store.url("blobs/uploads/").await?;
    let call = Call::new(Method::POST, url, vec![Scope::push(store.repository())])
        .header("content-length", "0")
        .body(Bytes::new());
    let resp = store.send(call).await?;
    if resp.status() != StatusCode::ACCEPTED {
        let subject = match digest {
            Some(d) => Subject::Upload(d),
            None => Subject::Other("starting a blob upload"),
        };
        return Err(store.fail(subject, resp).await);
    }
    let what = match digest {
        Some(d) => format!("starting upload of {d}"),
        None => "starting a blob upload".to_string(),
    };
    let location = location_of(store, &resp, &what)?;
    let min_chunk = resp
        .headers()
        .get("oci-chunk-min-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok());
    Ok(Session {
        location,
        min_chunk,
    })
}

/// Abandons an upload session; failures are only logged.
pub(super) async fn cancel(store: &RegistryStore, location: &Url) {
    let call = Call::new(
        Method::DELETE,
        location.clone(),
        vec![Scope::push(store.repository())],
    );
    match store.send(call).await {
        Ok(resp) => tracing::debug!(status = %resp.status(), "upload cancelled"),
        Err(e) => tracing::debug!(error = %e, "cancelling upload failed"),
    }
}

/// `PUT <location>?digest=…` closing the session, optionally with the bytes.
pub(super) async fn finish(
    store: &RegistryStore,
    location: &Url,
    digest: &Digest,
    body: Bytes,
) -> Result<reqwest::Response> {
    let mut url = location.clone();
    url.query_pairs_mut().append_pair("digest", digest.as_str());
    let call = Call::new(Method::PUT, url, vec![Scope::push(store.repository())])
        .header("content-type", "application/octet-stream")
        .body(body);
    store.send(call).await
}

pub(super) fn range_end(resp: &reqwest::Response) -> Option<u64> {
    parse_range_end(resp.headers().get("range")?.to_str().ok()?)
}

/// The last byte offset of a `Range: 0-<end>` value (`bytes=` prefix allowed).
pub(super) fn parse_range_end(value: &str) -> Option<u64> {
    let value = value.trim().trim_start_matches("bytes=");
    let (start, end) = value.split_once('-')?;
    if start.trim() != "0" {
        return None;
    }
    end.trim().parse().ok()
}

/// The state file of `digest`'s upload to this repository, when the client
/// records sessions.
pub(super) fn upload_state(store: &RegistryStore, digest: &Digest) -> Option<UploadState> {
    let dir = store.client().options().upload_state_dir.as_ref()?;
    Some(UploadState::new(
        dir,
        store.registry(),
        store.repository(),
        digest,
    ))
}

/// `GET <location>`: the session's next location and the last byte it holds.
pub(super) async fn status(
    store: &RegistryStore,
    location: &Url,
    what: &str,
) -> Result<(Url, Option<u64>)> {
    let call = Call::new(
        Method::GET,
        location.clone(),
        vec![Scope::push(store.repository())],
    );
    let resp = store.send(call).await?;
    if resp.status() != StatusCode::NO_CONTENT {
        return Err(registry_error(
            store,
            format!(
                "{what}: upload status answered HTTP {}",
                resp.status().as_u16()
            ),
        ));
    }
    let next = location_of(store, &resp, what).unwrap_or_else(|_| location.clone());
    Ok((next, range_end(&resp)))
}

#[cfg(test)]
mod tests {
    use super::parse_range_end;

    #[test]
    fn the_session_offset_is_read_from_its_range_header() {
        assert_eq!(parse_range_end("0-1048575"), Some(1048575));
        assert_eq!(parse_range_end("bytes=0-99"), Some(99));
        assert_eq!(parse_range_end(" 0 - 7 "), Some(7));
        // Distribution says 0-0 for an empty session too: callers treat it as nothing.
        assert_eq!(parse_range_end("0-0"), Some(0));
        assert_eq!(parse_range_end("5-9"), None);
        assert_eq!(parse_range_end("0-"), None);
        assert_eq!(parse_range_end("junk"), None);
    }
}
