//! Blob uploads and cross-repository mounts.
//!
//! * Blobs up to `monolithic_upload_max` (8 MiB by default) are read into memory,
//!   verified, then sent as `POST /blobs/uploads/` + `PUT <location>?digest=…`.
//! * Larger blobs go, by default (`upload_chunk_size` 0), as go-containerregistry
//!   sends every blob: `POST`, one `PATCH` whose body is the source stream, then
//!   an empty `PUT …?digest=…` (see `upload_stream`). Nothing is held in memory
//!   but the piece in flight; the `PATCH` cannot be retried, so a failure fails
//!   the blob and the caller moves it again from its source.
//! * With `upload_chunk_size` set, larger blobs go in chunks instead: `POST`, then
//!   one `PATCH` per chunk with `Content-Range: <start>-<end>`, then an empty
//!   `PUT …?digest=…`. The chunk size is raised to the registry's
//!   `OCI-Chunk-Min-Length`. A chunk is sent as the pieces the source produced
//!   (no copy into one buffer). Memory stays at about one chunk per upload.
//! * A blob whose digest is not known in advance goes in one streamed `PATCH`
//!   (see `upload_stream`).
//!
//! Retries: monolithic and chunked requests carry a body held in memory (the
//! whole blob when monolithic, the current chunk when chunked), so the
//! transport's retries re-send exactly the same bytes. A `PATCH` whose answer was lost after the
//! registry took the chunk is recognised: the retry gets 416, the upload's status
//! (`GET <location>` → `Range`) shows the chunk arrived, and the upload goes on.
//! A monolithic upload whose session the registry forgot starts a new session
//! with the bytes it holds. A chunked upload whose session is lost fails; the
//! caller re-opens its source and calls `put_blob` again.
//!
//! The source is verified while it is read (digest and size); on mismatch, or on
//! any error, the upload session is cancelled (`DELETE`) before the final `PUT`,
//! so the registry keeps nothing.
//!
//! The session of a streamed or chunked upload is recorded (`upload_state`)
//! until it is committed or cancelled, so that a process killed half-way can be
//! followed by one that continues it (`upload_resume`).

use std::collections::VecDeque;

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode, Url};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::Subject;
use crate::oci::registry::scope::Scope;
use crate::oci::registry::upload_session::{
    cancel, finish, location_of, range_end, registry_error, start, status, upload_state,
};
use crate::oci::registry::upload_state::UploadState;
use crate::oci::registry::{RegistryStore, upload_stream};
use crate::oci::store::{Descriptor, Store};
use crate::oci::stream::{BlobStream, verify_stream};
use crate::oci::{OciError, Result};

pub(super) async fn put_blob(
    store: &RegistryStore,
    descriptor: &Descriptor,
    data: BlobStream,
) -> Result<()> {
    let verified = verify_stream(
        data,
        descriptor.digest.clone(),
        Some(descriptor.size),
        store.location(),
    );
    put_checked(store, descriptor, verified).await
}

/// Uploads a blob from a stream that is verified (digest and size) on the way.
pub(super) async fn put_checked(
    store: &RegistryStore,
    descriptor: &Descriptor,
    checked: BlobStream,
) -> Result<()> {
    let options = store.client().options();
    if descriptor.size <= options.monolithic_upload_max {
        put_monolithic(store, descriptor, checked).await
    } else if options.upload_chunk_size == 0 {
        upload_stream::put_blob_streamed(store, descriptor, checked).await
    } else {
        put_chunked(store, descriptor, checked).await
    }
}

async fn put_monolithic(
    store: &RegistryStore,
    descriptor: &Descriptor,
    mut data: BlobStream,
) -> Result<()> {
    let digest = &descriptor.digest;
    let mut buffer = BytesMut::with_capacity(descriptor.size as usize);
    while let Some(chunk) = data.next().await {
        buffer.extend_from_slice(&chunk?);
    }
    let body = buffer.freeze();
    let mut restarted = false;
    loop {
        let session = start(store, Some(digest)).await?;
        let resp = finish(store, &session.location, digest, body.clone()).await?;
        match resp.status() {
            StatusCode::CREATED | StatusCode::NO_CONTENT | StatusCode::OK => return Ok(()),
            StatusCode::NOT_FOUND if !restarted => {
                tracing::debug!(%digest, "upload session lost; starting again");
                restarted = true;
            }
            _ => {
                let err = store.fail(Subject::Upload(digest), resp).await;
                cancel(store, &session.location).await;
                return Err(err);
            }
        }
    }
}

async fn put_chunked(
    store: &RegistryStore,
    descriptor: &Descriptor,
    data: BlobStream,
) -> Result<()> {
    let digest = &descriptor.digest;
    let session = start(store, Some(digest)).await?;
    let chunk_size = store
        .client()
        .options()
        .upload_chunk_size
        .max(session.min_chunk.unwrap_or(0))
        .max(1);
    let mut location = session.location;
    let state = upload_state(store, digest);
    if let Some(state) = &state {
        state.record(&location).await;
    }
    let what = format!("uploading blob {digest}");
    let sent = send_chunks(
        store,
        &what,
        &mut location,
        chunk_size,
        data,
        state.as_ref(),
    )
    .await;
    let result = match sent {
        Ok(()) => match finish(store, &location, digest, Bytes::new()).await {
            Ok(resp)
                if matches!(
                    resp.status(),
                    StatusCode::CREATED | StatusCode::NO_CONTENT | StatusCode::OK
                ) =>
            {
                Ok(())
            }
            Ok(resp) => {
                let err = store.fail(Subject::Upload(digest), resp).await;
                cancel(store, &location).await;
                Err(err)
            }
            Err(e) => Err(e),
        },
        Err(e) => {
            cancel(store, &location).await;
            Err(e)
        }
    };
    if let Some(state) = &state {
        state.forget();
    }
    result
}

async fn send_chunks(
    store: &RegistryStore,
    what: &str,
    location: &mut Url,
    chunk_size: usize,
    mut data: BlobStream,
    state: Option<&UploadState>,
) -> Result<()> {
    // The chunk is kept as the pieces the source produced (no copy into one
    // buffer); the last piece is split where the chunk ends.
    let mut pending: VecDeque<Bytes> = VecDeque::new();
    let mut pending_len = 0usize;
    let mut offset: u64 = 0;
    loop {
        let done = match data.next().await {
            Some(piece) => {
                let piece = piece?;
                if !piece.is_empty() {
                    pending_len += piece.len();
                    pending.push_back(piece);
                }
                false
            }
            None => true,
        };
        while pending_len >= chunk_size || (done && pending_len > 0) {
            let take = pending_len.min(chunk_size);
            let mut parts = Vec::new();
            let mut left = take;
            while left > 0 {
                let mut piece = pending.pop_front().expect("pending holds `take` bytes");
                if piece.len() > left {
                    pending.push_front(piece.split_off(left));
                }
                left -= piece.len();
                parts.push(piece);
            }
            pending_len -= take;
            *location = patch(store, what, location, offset, take, parts).await?;
            offset += take as u64;
            if let Some(state) = state {
                state.record(location).await;
            }
        }
        if done {
            return Ok(());
        }
    }
}

/// Sends one chunk at `offset`; returns the session's next location.
async fn patch(
    store: &RegistryStore,
    what: &str,
    location: &Url,
    offset: u64,
    len: usize,
    parts: Vec<Bytes>,
) -> Result<Url> {
    let end = offset + len as u64 - 1;
    let call = Call::new(
        Method::PATCH,
        location.clone(),
        vec![Scope::push(store.repository())],
    )
    .header("content-type", "application/octet-stream")
    .header("content-range", &format!("{offset}-{end}"))
    .header("content-length", &len.to_string())
    .body_parts(parts);
    let resp = store.send(call).await?;
    let what = format!("{what}: bytes {offset}-{end}");
    match resp.status() {
        StatusCode::ACCEPTED | StatusCode::NO_CONTENT => {
            let next = location_of(store, &resp, &what)?;
            if let Some(range_end) = range_end(&resp)
                && range_end != end
            {
                return Err(registry_error(
                    store,
                    format!("{what}: the registry holds bytes up to {range_end}"),
                ));
            }
            Ok(next)
        }
        StatusCode::RANGE_NOT_SATISFIABLE => {
            // A retried PATCH whose first try did arrive: check what the registry has.
            let (next, have) = status(store, location, &what).await?;
            if have == Some(end) {
                Ok(next)
            } else {
                Err(registry_error(
                    store,
                    format!(
                        "{what}: the registry refused the range (it holds {})",
                        have.map(|h| format!("bytes 0-{h}"))
                            .unwrap_or_else(|| "no bytes".into())
                    ),
                ))
            }
        }
        _ => Err(store.fail(Subject::Other(&what), resp).await),
    }
}

/// The last byte offset of `Range: 0-<end>` (`None` when the header is absent or
/// says nothing has arrived).
pub(super) async fn mount_blob(
    store: &RegistryStore,
    descriptor: &Descriptor,
    from: &dyn Store,
) -> Result<bool> {
    let Some((registry, source)) = from.registry_repository() else {
        return Ok(false);
    };
    if registry != store.registry() || source == store.repository() {
        return Ok(false);
    }
    let digest = &descriptor.digest;
    let mut url = store.url("blobs/uploads/").await?;
    url.query_pairs_mut()
        .append_pair("mount", digest.as_str())
        .append_pair("from", &source);
    let call = Call::new(
        Method::POST,
        url,
        vec![Scope::push(store.repository()), Scope::pull(&source)],
    )
    .header("content-length", "0")
    .body(Bytes::new());
    let resp = match store.send(call).await {
        Ok(resp) => resp,
        Err(OciError::Unauthorized { .. } | OciError::Denied { .. }) => return Ok(false),
        Err(e) => return Err(e),
    };
    match resp.status() {
        StatusCode::CREATED => Ok(true),
        StatusCode::ACCEPTED => {
            // The registry opened an ordinary upload instead: close it, upload later.
            if let Ok(location) = location_of(store, &resp, "mount") {
                cancel(store, &location).await;
            }
            Ok(false)
        }
        other => {
            tracing::debug!(status = %other, %digest, from = %source, "mount refused");
            Ok(false)
        }
    }
}
