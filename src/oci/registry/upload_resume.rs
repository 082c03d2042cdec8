//! Continuing the upload of a blob that a stopped copy left half sent.
//!
//! Uploads of blobs larger than `monolithic_upload_max` record their session's
//! location (`upload_state`). On the rerun, [`resume_blob`] asks the session how
//! much it holds (`GET <location>` → `204` with `Range: 0-<last byte>`); the
//! caller reads the source from that byte on, and [`RegistryPartial`] sends the
//! rest (`PATCH` with `Content-Range`) and closes the session with
//! `PUT ?digest=`. The bytes the session holds are not here to hash: the
//! registry's check of the whole blob's digest at that `PUT` is the verification
//! (the rest's size is checked on the way). Whatever fails (the session is gone
//! or expired, it holds nothing, the `PUT` refuses the digest) drops the
//! record, and the blob is sent again from its first byte.
//!
//! How much a session keeps after a `PATCH` cut off mid-body depends on the
//! registry. CNCF distribution (2.8) writes the bytes it received but then
//! refuses the session (its upload state token still names the offset before
//! that `PATCH`: "upload resumed at wrong offset", `BLOB_UPLOAD_INVALID`), so
//! with distribution only a session whose last `PATCH` was answered continues,
//! such as a chunked upload (`upload_chunk_size`) stopped between chunks.

use reqwest::Url;

use crate::oci::Result;
use crate::oci::registry::RegistryStore;
use crate::oci::registry::upload_session::{cancel, status, upload_state};
use crate::oci::registry::upload_state::UploadState;
use crate::oci::registry::upload_stream::{close, send_rest};
use crate::oci::store::{Descriptor, PartialBlob, Store};
use crate::oci::stream::{BlobStream, check_size};

/// The recorded session of `descriptor`'s upload, when it still holds some of
/// its bytes.
pub(super) async fn resume_blob(
    store: &RegistryStore,
    descriptor: &Descriptor,
) -> Result<Option<Box<dyn PartialBlob>>> {
    let Some(state) = upload_state(store, &descriptor.digest) else {
        return Ok(None);
    };
    let Some(location) = state.load() else {
        return Ok(None);
    };
    let what = format!("continuing the upload of {}", descriptor.digest);
    match status(store, &location, &what).await {
        // `0-0` is also what distribution says of an empty session: start over.
        Ok((next, Some(end))) if end > 0 && end < descriptor.size => {
            tracing::info!(
                blob = %descriptor.digest,
                held = end + 1,
                "continuing an upload session"
            );
            Ok(Some(Box::new(RegistryPartial {
                store: store.clone(),
                descriptor: descriptor.clone(),
                location: next,
                offset: end + 1,
                state,
            })))
        }
        Ok((next, held)) => {
            tracing::debug!(blob = %descriptor.digest, ?held, "upload session not worth continuing");
            cancel(store, &next).await;
            state.forget();
            Ok(None)
        }
        Err(e) => {
            tracing::info!(blob = %descriptor.digest, %e, "upload session gone; sending the blob again");
            state.forget();
            Ok(None)
        }
    }
}

/// An open upload session holding the blob's first `offset` bytes.
pub struct RegistryPartial {
    store: RegistryStore,
    descriptor: Descriptor,
    location: Url,
    offset: u64,
    state: UploadState,
}

#[async_trait::async_trait]
impl PartialBlob for RegistryPartial {
    fn offset(&self) -> u64 {
        self.offset
    }

    async fn complete(self: Box<Self>, rest: BlobStream) -> Result<()> {
        let left = self.descriptor.size - self.offset;
        let result = if left == 0 {
            close(&self.store, &self.location, &self.descriptor.digest).await
        } else {
            let rest = check_size(
                rest,
                self.descriptor.digest.clone(),
                left,
                self.store.location(),
            );
            send_rest(
                &self.store,
                &self.descriptor,
                self.location.clone(),
                self.offset,
                rest,
            )
            .await
        };
        // Committed, or refused and cancelled: either way nothing to continue.
        self.state.forget();
        result
    }
}
