//! Uploads a blob whose digest is only known at its end (a bundle layer that is
//! compressed while it is sent; see [`Store::put_blob_stream`]): `POST` opens the
//! session, one `PATCH` carries the whole stream as its body (chunked transfer
//! encoding, no `Content-Range`: go-containerregistry's "stream upload", which
//! imgpkg uses), and `PUT <location>?digest=…` closes it with the digest the bytes
//! turned out to have, computed here as hyper takes them.
//!
//! One request instead of a `PATCH` per chunk: the registry ingests without a
//! pause between chunks and without its per-request work (reopening the upload,
//! saving the hash state), and nothing but the bounded producer channel is held in
//! memory. The price: the body cannot be replayed, so the `PATCH` is not retried
//! (a failed push is simply run again). reqwest's read timeout would count from
//! the start of the request, so instead the upload fails when no byte has moved
//! for `read_timeout`.
//!
//! On any failure (the stream ending in an error, a transport error, a refused
//! answer) the session is cancelled (`DELETE`), so the registry keeps nothing.
//! When the caller's stream fails, the request body is ended normally first (the
//! registry gets a short `PATCH` it answers), then the session is cancelled: an
//! aborted request could still be writing when the `DELETE` arrives.
//!
//! [`Store::put_blob_stream`]: crate::oci::Store::put_blob_stream

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::Stream;
use reqwest::{Method, StatusCode};
use tokio::time::Instant;

use crate::oci::digest::Hasher;
use crate::oci::registry::RegistryStore;
use crate::oci::registry::client::{Call, SendError};
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::transport_error;
use crate::oci::registry::upload_session::{cancel, finish, location_of, start, upload_state};
use crate::oci::store::{Descriptor, Store};
use crate::oci::stream::BlobStream;
use crate::oci::{Digest, OciError, Result};

/// What the body stream saw, shared with the request's caller.
struct Shared {
    /// When a byte last moved (hyper took a piece, or the stream ended).
    progress: Instant,
    /// The error that ended the caller's stream.
    failure: Option<OciError>,
    /// Size and (when hashed) digest, once the stream ended cleanly.
    done: Option<(u64, Option<Digest>)>,
}

/// The caller's stream as a request body: counted (and hashed, when asked) on
/// the way, progress noted.
struct Body {
    inner: BlobStream,
    hasher: Option<Hasher>,
    size: u64,
    ended: bool,
    shared: Arc<Mutex<Shared>>,
}

impl Stream for Body {
    type Item = std::result::Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if this.ended {
                return Poll::Ready(None);
            }
            match this.inner.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(piece))) => {
                    if piece.is_empty() {
                        continue;
                    }
                    if let Some(hasher) = this.hasher.as_mut() {
                        hasher.update(&piece);
                    }
                    this.size += piece.len() as u64;
                    this.shared.lock().expect("upload state").progress = Instant::now();
                    return Poll::Ready(Some(Ok(piece)));
                }
                Poll::Ready(Some(Err(e))) => {
                    // End the body cleanly and let the registry finish the request:
                    // aborting it would race the cancelling DELETE, and the registry
                    // could keep the partial data. Nothing is committed: the
                    // session is cancelled.
                    this.ended = true;
                    this.shared.lock().expect("upload state").failure = Some(e);
                    return Poll::Ready(None);
                }
                Poll::Ready(None) => {
                    this.ended = true;
                    let digest = this.hasher.take().map(Hasher::finish);
                    let mut shared = this.shared.lock().expect("upload state");
                    shared.done = Some((this.size, digest));
                    shared.progress = Instant::now();
                    return Poll::Ready(None);
                }
            }
        }
    }
}

pub(super) async fn put_blob_stream(
    store: &RegistryStore,
    media_type: &str,
    data: BlobStream,
) -> Result<Descriptor> {
    let what = "uploading a blob";
    let session = start(store, None).await?;
    let (next, size, digest) =
        patch_stream(store, what, session.location, data, true, None).await?;
    let digest = digest.expect("hashed");
    close(store, &next, &digest).await?;
    Ok(Descriptor {
        media_type: media_type.to_string(),
        digest,
        size,
    })
}

/// Uploads a blob of known digest whose stream is verified already (digest and
/// size, see [`VerifiedBlob::checked_for`]) in one streamed `PATCH`; the closing
/// `PUT ?digest=` follows only when the stream ended cleanly, and the registry
/// checks the digest again. This is how go-containerregistry (and so imgpkg)
/// uploads every blob.
///
/// [`VerifiedBlob::checked_for`]: crate::oci::stream::VerifiedBlob::checked_for
pub(super) async fn put_blob_streamed(
    store: &RegistryStore,
    descriptor: &Descriptor,
    checked: BlobStream,
) -> Result<()> {
    let session = start(store, Some(&descriptor.digest)).await?;
    // Recorded so that a rerun after a crash can ask how much arrived.
    let state = upload_state(store, &descriptor.digest);
    if let Some(state) = &state {
        state.record(&session.location).await;
    }
    let result = send_rest(store, descriptor, session.location, 0, checked).await;
    if let Some(state) = &state {
        state.forget();
    }
    result
}

/// Sends the blob's bytes from `offset` on (all of them when 0) in one streamed
/// `PATCH` to the open session at `location`, then closes it with
/// `PUT ?digest=`, where the registry checks the digest of the whole blob.
pub(super) async fn send_rest(
    store: &RegistryStore,
    descriptor: &Descriptor,
    location: reqwest::Url,
    offset: u64,
    checked: BlobStream,
) -> Result<()> {
    let what = format!("uploading blob {}", descriptor.digest);
    // From the middle, the range is named, so the registry refuses it when it
    // does not continue what the session holds.
    let range = (offset > 0).then(|| format!("{offset}-{}", descriptor.size.saturating_sub(1)));
    let (next, size, _) = patch_stream(store, &what, location, checked, false, range).await?;
    if offset + size != descriptor.size {
        cancel(store, &next).await;
        return Err(OciError::SizeMismatch {
            location: store.location(),
            digest: descriptor.digest.clone(),
            expected: descriptor.size,
            actual: offset + size,
        });
    }
    close(store, &next, &descriptor.digest).await
}

/// `PUT <location>?digest=…` with no body, closing the session.
pub(super) async fn close(
    store: &RegistryStore,
    next: &reqwest::Url,
    digest: &Digest,
) -> Result<()> {
    let resp = finish(store, next, digest, Bytes::new()).await?;
    if !matches!(
        resp.status(),
        StatusCode::CREATED | StatusCode::NO_CONTENT | StatusCode::OK
    ) {
        let err = store.fail(Subject::Upload(digest), resp).await;
        cancel(store, next).await;
        return Err(err);
    }
    Ok(())
}

/// Sends `data` as the body of one `PATCH` to the open session at `location`
/// (hashing it when `hash`); returns the session's next location, the size
/// sent and the digest. On any failure the session is cancelled.
async fn patch_stream(
    store: &RegistryStore,
    what: &str,
    location: reqwest::Url,
    data: BlobStream,
    hash: bool,
    content_range: Option<String>,
) -> Result<(reqwest::Url, u64, Option<Digest>)> {
    let shared = Arc::new(Mutex::new(Shared {
        progress: Instant::now(),
        failure: None,
        done: None,
    }));
    let body = Body {
        inner: data,
        hasher: hash.then(Hasher::new),
        size: 0,
        ended: false,
        shared: Arc::clone(&shared),
    };
    let mut call = Call::new(
        Method::PATCH,
        location.clone(),
        vec![Scope::push(store.repository())],
    )
    .header("content-type", "application/octet-stream");
    if let Some(range) = &content_range {
        call = call.header("content-range", range);
    }
    let stall = store.client().options().read_timeout;
    let send = store.client().send_streaming(
        store.registry(),
        store.repository(),
        call,
        reqwest::Body::wrap_stream(body),
    );
    tokio::pin!(send);
    let sent = loop {
        let last = shared.lock().expect("upload state").progress;
        tokio::select! {
            sent = &mut send => break Some(sent),
            _ = tokio::time::sleep_until(last + stall) => {
                if shared.lock().expect("upload state").progress.elapsed() >= stall {
                    break None;
                }
            }
        }
    };
    let failure = shared.lock().expect("upload state").failure.take();
    let resp = match sent {
        Some(Ok(resp)) => resp,
        Some(Err(e)) => {
            cancel(store, &location).await;
            return Err(match (failure, e) {
                // The caller's stream failed: its error is the one that matters.
                (Some(f), _) => f,
                (None, SendError::Oci(e)) => e,
                (None, SendError::Transport(e)) => store.registry_error(format!(
                    "{what}: PATCH {}: {}",
                    location.path(),
                    transport_error(&e)
                )),
            });
        }
        None => {
            cancel(store, &location).await;
            return Err(failure.unwrap_or_else(|| {
                store.registry_error(format!("{what}: no progress for {} s", stall.as_secs()))
            }));
        }
    };
    if !matches!(resp.status(), StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
        let err = store.fail(Subject::Other(what), resp).await;
        cancel(store, &location).await;
        return Err(failure.unwrap_or(err));
    }
    // The session moved on: its new location (with the registry's new upload
    // state) is the one to close or cancel.
    let next = match location_of(store, &resp, what) {
        Ok(next) => next,
        Err(e) => {
            cancel(store, &location).await;
            return Err(failure.unwrap_or(e));
        }
    };
    if let Some(f) = failure {
        cancel(store, &next).await;
        return Err(f);
    }
    let Some((size, digest)) = shared.lock().expect("upload state").done.take() else {
        cancel(store, &next).await;
        return Err(store.registry_error(format!(
            "{what}: the registry answered before the whole blob was sent"
        )));
    };
    Ok((next, size, digest))
}
