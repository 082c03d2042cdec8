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
        seen: 0,
        done: false,
        expected,
        size,
        location,
    })
}

/// Like [`verify_stream`] for a stream already verified against `expected` (a
/// [`VerifiedBlob`]), or whose digest is checked elsewhere (the rest of a blob
/// a registry's upload session completes): only the size is checked, the bytes
/// are not hashed.
pub fn check_size(inner: BlobStream, expected: Digest, size: u64, location: String) -> BlobStream {
    Box::pin(VerifyingStream {
        inner,
        hasher: None,
        seen: 0,
        done: false,
        expected,
        size: Some(size),
        location,
    })
}

/// A blob stream verified against `digest` by the store that produced it (see
/// [`Store::get_verified_blob`](crate::oci::Store::get_verified_blob)): its end
/// is replaced by an error when the bytes do not match. A sink that stores it
/// under the same digest needs only check the size, not hash the bytes again.
pub struct VerifiedBlob {
    stream: BlobStream,
    digest: Digest,
}

impl VerifiedBlob {
    /// `stream` must already be verified against `digest` (a [`Store`]'s
    /// `get_blob` stream, or bytes this process has just hashed to `digest`).
    ///
    /// [`Store`]: crate::oci::Store
    pub fn new(stream: BlobStream, digest: Digest) -> VerifiedBlob {
        VerifiedBlob { stream, digest }
    }

    /// The digest the stream is verified against.
    pub fn digest(&self) -> &Digest {
        &self.digest
    }

    /// Shows every chunk to `observe` (progress counting) as it passes.
    pub fn inspect(self, observe: impl Fn(&Bytes) + Send + 'static) -> VerifiedBlob {
        let stream = Box::pin(self.stream.inspect(move |chunk| {
            if let Ok(bytes) = chunk {
                observe(bytes);
            }
        }));
        VerifiedBlob {
            stream,
            digest: self.digest,
        }
    }

    /// The bytes, verified for `expected` (digest and size): when it is the
    /// digest the stream is verified against, only the size is checked on the
    /// way; otherwise the bytes are hashed as by [`verify_stream`].
    pub fn checked_for(self, expected: &crate::oci::Descriptor, location: String) -> BlobStream {
        if self.digest == expected.digest {
            check_size(self.stream, self.digest, expected.size, location)
        } else {
            verify_stream(
                self.stream,
                expected.digest.clone(),
                Some(expected.size),
                location,
            )
        }
    }
}

struct VerifyingStream {
    inner: BlobStream,
    /// `None` when the stream is verified already and only its size is checked.
    hasher: Option<Hasher>,
    seen: u64,
    done: bool,
    expected: Digest,
    size: Option<u64>,
    location: String,
}

impl VerifyingStream {
    fn size_mismatch(&self) -> OciError {
        OciError::SizeMismatch {
            location: self.location.clone(),
            digest: self.expected.clone(),
            expected: self.size.unwrap_or_default(),
            actual: self.seen,
        }
    }
}

impl Stream for VerifyingStream {
    type Item = Result<Bytes>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        match this.inner.as_mut().poll_next(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(Ok(chunk))) => {
                if let Some(hasher) = this.hasher.as_mut() {
                    hasher.update(&chunk);
                }
                this.seen += chunk.len() as u64;
                if let Some(size) = this.size
                    && this.seen > size
                {
                    this.done = true;
                    return Poll::Ready(Some(Err(this.size_mismatch())));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.done = true;
                Poll::Ready(Some(Err(e)))
            }
            Poll::Ready(None) => {
                this.done = true;
                if let Some(size) = this.size
                    && this.seen != size
                {
                    return Poll::Ready(Some(Err(this.size_mismatch())));
                }
                if let Some(hasher) = this.hasher.take() {
                    let actual = hasher.finish();
                    if actual != this.expected {
                        return Poll::Ready(Some(Err(OciError::DigestMismatch {
                            location: this.location.clone(),
                            expected: this.expected.clone(),
                            actual,
                            size: this.seen,
                        })));
                    }
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
    let context = format!("reading {}", path.display());
    file_range_stream(path, 0, None, context)
}

/// Streams `len` bytes of the file at `path` from `offset` (to its end when `len`
/// is `None`) in [`STREAM_CHUNK`] pieces, not verified. Each piece is read by a
/// blocking task straight into the buffer it is handed on in (one copy, no
/// intermediate buffer); one piece is read at a time. A file shorter than `len`
/// ends the stream with an error; `context` names what is read in errors.
pub fn file_range_stream(
    path: PathBuf,
    offset: u64,
    len: Option<u64>,
    context: String,
) -> BlobStream {
    struct Reader {
        file: Option<std::fs::File>,
        path: PathBuf,
        offset: u64,
        left: Option<u64>,
        context: String,
    }
    let reader = Reader {
        file: None,
        path,
        offset,
        left: len,
        context,
    };
    Box::pin(futures_util::stream::try_unfold(
        reader,
        |mut reader| async move {
            let want = match reader.left {
                Some(0) => return Ok(None),
                Some(left) => left.min(STREAM_CHUNK as u64),
                None => STREAM_CHUNK as u64,
            };
            let file = reader.file.take();
            let path = reader.path.clone();
            let start = reader.offset;
            let read = tokio::task::spawn_blocking(move || -> std::io::Result<_> {
                use std::io::{Read, Seek};
                let mut file = match file {
                    Some(f) => f,
                    None => {
                        let mut f = std::fs::File::open(&path)?;
                        f.seek(std::io::SeekFrom::Start(start))?;
                        f
                    }
                };
                let mut buf = Vec::with_capacity(want as usize);
                (&mut file).take(want).read_to_end(&mut buf)?;
                Ok((file, buf))
            })
            .await
            .map_err(std::io::Error::other)
            .and_then(|r| r);
            let (file, buf) = read.map_err(|e| OciError::io(reader.context.clone(), e))?;
            let got = buf.len() as u64;
            match reader.left.as_mut() {
                Some(left) if got < want => {
                    return Err(OciError::io(
                        reader.context.clone(),
                        std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            format!("the file ends {} bytes early", *left - got),
                        ),
                    ));
                }
                Some(left) => *left -= got,
                None if got == 0 => return Ok(None),
                None => {}
            }
            reader.file = Some(file);
            Ok(Some((Bytes::from(buf), reader)))
        },
    ))
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

    #[tokio::test]
    async fn a_verified_blob_is_only_size_checked_for_its_own_digest() {
        let data = Bytes::from_static(b"hello");
        let digest = Digest::of(&data);
        let descriptor = |size| crate::oci::Descriptor {
            media_type: String::new(),
            digest: digest.clone(),
            size,
        };
        // Stands for a stream its store verified: wrong bytes are not hashed again…
        let blob = VerifiedBlob::new(bytes_stream(Bytes::from_static(b"hellO")), digest.clone());
        assert_eq!(
            drain(blob.checked_for(&descriptor(5), "t".into()))
                .await
                .unwrap(),
            b"hellO"
        );
        // …but the size is checked, too long and too short.
        for size in [4, 6] {
            let blob = VerifiedBlob::new(bytes_stream(data.clone()), digest.clone());
            let err = drain(blob.checked_for(&descriptor(size), "t".into()))
                .await
                .unwrap_err()
                .to_string();
            assert!(err.contains(&format!("expected {size}")), "{err}");
        }
        // Verified for another digest: hashed as by verify_stream.
        let blob = VerifiedBlob::new(
            bytes_stream(Bytes::from_static(b"hellO")),
            Digest::of(b"hellO"),
        );
        let err = drain(blob.checked_for(&descriptor(5), "t".into()))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not match its digest"), "{err}");
    }

    #[tokio::test]
    async fn file_range_stream_reads_the_range_in_chunks_and_fails_when_short() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        let data: Vec<u8> = (0..(STREAM_CHUNK * 2 + 100))
            .map(|i| (i % 253) as u8)
            .collect();
        std::fs::write(&path, &data).unwrap();
        let all = drain(file_stream(path.clone())).await.unwrap();
        assert_eq!(all, data);
        let len = STREAM_CHUNK as u64 + 7;
        let range = drain(file_range_stream(path.clone(), 50, Some(len), "r".into()))
            .await
            .unwrap();
        assert_eq!(range, &data[50..50 + len as usize]);
        let err = drain(file_range_stream(
            path,
            50,
            Some(data.len() as u64),
            "r".into(),
        ))
        .await
        .unwrap_err()
        .to_string();
        assert!(err.contains("r") && err.contains("50 bytes early"), "{err}");
    }
}
