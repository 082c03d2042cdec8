//! Blob byte streams: the [`BlobStream`] every [`Store`](crate::oci::Store) reads and
//! writes, its verification against a digest and size, and streams over bytes in memory
//! or a file on disk.

use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::{Stream, StreamExt};

use crate::oci::digest::Hasher;
use crate::oci::{Digest, OciError, Result};

/// A stream of blob bytes. Streams returned by a [`Store`] are verified: a stream
/// whose bytes do not hash to the requested digest (or are cut short) ends with an
/// error instead of its last chunk.
pub type BlobStream = Pin<Box<dyn Stream<Item = Result<Bytes>> + Send>>;

/// Size of the chunks a spooled file is streamed back in by [`file_stream`].
pub const STREAM_CHUNK: usize = 1 << 20;

/// Wraps `inner` so that it hashes what passes through and fails at the end when
/// the bytes do not match `expected` (digest, and size when given). The error
/// replaces the end of the stream, so a consumer that writes to a temporary file
/// and commits only after the stream ends never commits bad content.
pub fn verify_stream(
    inner: BlobStream,
    expected: Digest,
    size: Option<u64>,
    location: String,
) -> BlobStream {
    Box::pin(VerifyingStream {
        inner,
        hasher: Some(Hasher::new()),
        expected,
        size,
        location,
    })
}

struct VerifyingStream {
    inner: BlobStream,
    hasher: Option<Hasher>,
    expected: Digest,
    size: Option<u64>,
    location: String,
}

impl Stream for VerifyingStream {
    type Item = Result<Bytes>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let Some(hasher) = this.hasher.as_mut() else {
            return Poll::Ready(None);
        };
        match this.inner.as_mut().poll_next(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(Ok(chunk))) => {
                hasher.update(&chunk);
                if let Some(size) = this.size
                    && hasher.size() > size
                {
                    let actual = hasher.size();
                    this.hasher = None;
                    return Poll::Ready(Some(Err(OciError::SizeMismatch {
                        location: this.location.clone(),
                        digest: this.expected.clone(),
                        expected: size,
                        actual,
                    })));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.hasher = None;
                Poll::Ready(Some(Err(e)))
            }
            Poll::Ready(None) => {
                let hasher = this.hasher.take().expect("checked above");
                let actual_size = hasher.size();
                if let Some(size) = this.size
                    && actual_size != size
                {
                    return Poll::Ready(Some(Err(OciError::SizeMismatch {
                        location: this.location.clone(),
                        digest: this.expected.clone(),
                        expected: size,
                        actual: actual_size,
                    })));
                }
                let actual = hasher.finish();
                if actual != this.expected {
                    return Poll::Ready(Some(Err(OciError::DigestMismatch {
                        location: this.location.clone(),
                        expected: this.expected.clone(),
                        actual,
                        size: actual_size,
                    })));
                }
                Poll::Ready(None)
            }
        }
    }
}

/// A [`BlobStream`] over bytes already in memory (configs, manifests, small files).
pub fn bytes_stream(data: Bytes) -> BlobStream {
    Box::pin(futures_util::stream::once(async move { Ok(data) }))
}

/// Streams the file at `path` in [`STREAM_CHUNK`] pieces (not verified: for files
/// this process just wrote and hashed).
pub fn file_stream(path: PathBuf) -> BlobStream {
    let s = futures_util::stream::once(async move {
        tokio::fs::File::open(&path)
            .await
            .map_err(|e| OciError::io(format!("opening {}", path.display()), e))
            .map(|file| (file, path))
    })
    .map(|opened| match opened {
        Ok((file, path)) => tokio_util::io::ReaderStream::with_capacity(file, STREAM_CHUNK)
            .map(move |r| r.map_err(|e| OciError::io(format!("reading {}", path.display()), e)))
            .boxed(),
        Err(e) => futures_util::stream::once(async move { Err(e) }).boxed(),
    })
    .flatten();
    Box::pin(s)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use futures_util::StreamExt;

    /// All the bytes of a stream (for tests of every store).
    pub(crate) async fn drain(mut s: BlobStream) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        while let Some(chunk) = s.next().await {
            out.extend_from_slice(&chunk?);
        }
        Ok(out)
    }

    #[tokio::test]
    async fn verify_stream_passes_good_bytes() {
        let data = Bytes::from_static(b"hello");
        let s = verify_stream(
            bytes_stream(data.clone()),
            Digest::of(&data),
            Some(5),
            "t".into(),
        );
        assert_eq!(drain(s).await.unwrap(), b"hello");
    }

    #[tokio::test]
    async fn verify_stream_rejects_wrong_digest_and_truncation() {
        let s = verify_stream(
            bytes_stream(Bytes::from_static(b"hellO")),
            Digest::of(b"hello"),
            None,
            "t".into(),
        );
        let err = drain(s).await.unwrap_err().to_string();
        assert!(err.contains("does not match its digest"), "{err}");
        let s = verify_stream(
            bytes_stream(Bytes::from_static(b"hell")),
            Digest::of(b"hello"),
            Some(5),
            "t".into(),
        );
        let err = drain(s).await.unwrap_err().to_string();
        assert!(err.contains("is 4 bytes, expected 5"), "{err}");
    }
}
