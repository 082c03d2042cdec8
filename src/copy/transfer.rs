//! The transfer engine: moves the plan's blobs from their sources into one
//! destination ([`BlobSink`]), largest first, each verified on the way (the
//! sources' streams are verified, the sinks check sizes and do not hash again). A blob the
//! destination has is not sent again (that is resume for registries and
//! layouts); a registry mount is tried before an upload; a blob a stopped run
//! left partly at the destination ([`BlobSink::resume`]) is continued with the
//! rest of its bytes, read from the source from that offset.
//!
//! Registry etiquette: every registry (each source host and the destination)
//! has its own [`Limiter`] of at most `--concurrency` requests in flight. When a
//! registry client has seen a new 429 since a blob started, that registry's limit
//! halves; each streak of successes as long as the limit grows it back by one.
//! `Retry-After` is honoured by the registry client's retries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::{StreamExt, TryStreamExt};
use tokio::sync::Notify;

use crate::copy::plan::PlannedBlob;
use crate::copy::progress::Progress;
use crate::copy::{CopyError, Result};
use crate::oci::registry::RegistryClient;
use crate::oci::{BlobStream, Descriptor, PartialBlob, Store, VerifiedBlob};

/// Where blobs go.
#[async_trait::async_trait]
pub trait BlobSink: Send + Sync {
    /// For messages.
    fn location(&self) -> String;
    /// The registry host, for its concurrency limit (`None`: not a registry).
    fn registry(&self) -> Option<String> {
        None
    }
    /// Whether the blob is there already, complete.
    async fn has(&self, blob: &Descriptor) -> crate::oci::Result<bool>;
    /// Makes the blob available without moving its bytes, when possible.
    async fn mount(&self, _blob: &Descriptor, _from: &dyn Store) -> crate::oci::Result<bool> {
        Ok(false)
    }
    /// Stores the blob from its source's verified stream.
    async fn put(&self, blob: &Descriptor, data: VerifiedBlob) -> crate::oci::Result<()>;
    /// What a stopped copy left of the blob that can be continued (see
    /// [`Store::resume_blob`]); `None` by default.
    async fn resume(&self, _blob: &Descriptor) -> crate::oci::Result<Option<Box<dyn PartialBlob>>> {
        Ok(None)
    }
}

/// A [`Store`] (registry repository or OCI layout) as a sink.
pub struct StoreSink(pub Arc<dyn Store>);

#[async_trait::async_trait]
impl BlobSink for StoreSink {
    fn location(&self) -> String {
        self.0.location()
    }
    fn registry(&self) -> Option<String> {
        self.0.registry_repository().map(|(r, _)| r)
    }
    async fn has(&self, blob: &Descriptor) -> crate::oci::Result<bool> {
        Ok(self.0.blob_size(&blob.digest).await? == Some(blob.size))
    }
    async fn mount(&self, blob: &Descriptor, from: &dyn Store) -> crate::oci::Result<bool> {
        self.0.mount_blob(blob, from).await
    }
    async fn put(&self, blob: &Descriptor, data: VerifiedBlob) -> crate::oci::Result<()> {
        self.0.put_verified_blob(blob, data).await
    }
    async fn resume(&self, blob: &Descriptor) -> crate::oci::Result<Option<Box<dyn PartialBlob>>> {
        self.0.resume_blob(blob).await
    }
}

/// One blob and the store it is read from.
#[derive(Clone)]
pub struct BlobJob {
    pub blob: PlannedBlob,
    pub source: Arc<dyn Store>,
    /// The destination is known to have it (an image holding it is there whole):
    /// counted as present without asking.
    pub known_present: bool,
}

/// How the engine runs.
#[derive(Clone)]
pub struct TransferOptions {
    /// Requests in flight per registry (at least 1).
    pub concurrency: usize,
    /// The registry client, whose 429 count drives the back-off.
    pub client: Option<RegistryClient>,
    /// Times a blob is moved again after a transient error.
    pub retries: u32,
}

/// What a transfer did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TransferReport {
    pub moved_blobs: usize,
    pub moved_bytes: u64,
    pub present_blobs: usize,
    pub present_bytes: u64,
    pub mounted_blobs: usize,
    /// Blobs (among the moved ones) continued from what a stopped run left at
    /// the destination, and the bytes of theirs that were not fetched again.
    pub resumed_blobs: usize,
    pub resumed_bytes: u64,
    /// Blobs (among the moved ones) read from the tarball an earlier copy left
    /// at the destination (`--resume`) instead of from their source, and their
    /// bytes.
    pub reused_blobs: usize,
    pub reused_bytes: u64,
}

/// Moves `jobs` (in the order given: largest first) into `sink`.
pub async fn transfer(
    jobs: Vec<BlobJob>,
    sink: &dyn BlobSink,
    options: &TransferOptions,
    progress: &Progress,
) -> Result<TransferReport> {
    let concurrency = options.concurrency.max(1);
    let limiters = Limiters::new(concurrency);
    let report = Mutex::new(TransferReport::default());
    let hosts: usize = 1 + jobs
        .iter()
        .filter_map(|j| j.source.registry_repository().map(|(r, _)| r))
        .collect::<std::collections::HashSet<_>>()
        .len();
    futures_util::stream::iter(jobs)
        .map(|job| {
            let limiters = &limiters;
            let report = &report;
            async move {
                let outcome = move_blob(&job, sink, limiters, options, progress).await?;
                let mut r = report.lock().unwrap_or_else(|p| p.into_inner());
                match outcome {
                    Outcome::Present => {
                        r.present_blobs += 1;
                        r.present_bytes += job.blob.size;
                    }
                    Outcome::Mounted => r.mounted_blobs += 1,
                    Outcome::Moved => {
                        r.moved_blobs += 1;
                        r.moved_bytes += job.blob.size;
                    }
                    Outcome::Resumed { kept } => {
                        r.moved_blobs += 1;
                        r.moved_bytes += job.blob.size;
                        r.resumed_blobs += 1;
                        r.resumed_bytes += kept;
                    }
                }
                Ok::<(), CopyError>(())
            }
        })
        .buffer_unordered(concurrency * hosts)
        .try_collect::<Vec<()>>()
        .await?;
    Ok(report.into_inner().unwrap_or_else(|p| p.into_inner()))
}

enum Outcome {
    Present,
    Mounted,
    Moved,
    /// Continued from the first `kept` bytes a stopped run left.
    Resumed {
        kept: u64,
    },
}

async fn move_blob(
    job: &BlobJob,
    sink: &dyn BlobSink,
    limiters: &Limiters,
    options: &TransferOptions,
    progress: &Progress,
) -> Result<Outcome> {
    if job.known_present {
        progress.blob_done();
        return Ok(Outcome::Present);
    }
    let descriptor = job.blob.descriptor();
    let fail = |cause: String| CopyError::Blob {
        image: job.blob.image.clone(),
        blob: format!("{} ({} bytes)", descriptor.digest, descriptor.size),
        source_location: job.source.location(),
        destination: sink.location(),
        cause,
    };
    let source_host = job.source.registry_repository().map(|(r, _)| r);
    let source_limit = source_host.as_deref().map(|h| limiters.get(h));
    let sink_limit = sink.registry().map(|h| limiters.get(&h));
    let _source_permit = match &source_limit {
        Some(l) => Some(l.acquire().await),
        None => None,
    };
    let _sink_permit = match &sink_limit {
        Some(l) => Some(l.acquire().await),
        None => None,
    };
    let throttled_before = options.client.as_ref().map(|c| c.throttled_responses());
    let mut attempt = 0;
    let result = loop {
        match try_move(job, &descriptor, sink, progress).await {
            Err(e) if attempt < options.retries && is_transient(&e) => {
                let wait = std::time::Duration::from_millis(100 << attempt.min(4));
                tracing::info!(blob = %descriptor.digest, %e, ?wait, "moving the blob again");
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
            other => break other,
        }
    };
    if let (Some(client), Some(before)) = (&options.client, throttled_before) {
        let throttled = client.throttled_responses() > before;
        for limit in source_limit.iter().chain(sink_limit.iter()) {
            limit.record(throttled);
        }
    }
    let outcome = result.map_err(|e| fail(e.to_string()))?;
    progress.blob_done();
    Ok(outcome)
}

/// Errors worth moving a blob again for: a registry's answer (a 5xx or 429 that
/// outlived the client's own retries, or a streamed upload that cannot be
/// replayed) or a broken connection. Content errors (digest or size mismatch)
/// and missing or forbidden blobs are final.
pub fn is_transient(e: &crate::oci::OciError) -> bool {
    matches!(
        e,
        crate::oci::OciError::Registry { .. } | crate::oci::OciError::Io { .. }
    )
}

/// One attempt at moving a blob.
async fn try_move(
    job: &BlobJob,
    descriptor: &Descriptor,
    sink: &dyn BlobSink,
    progress: &Progress,
) -> std::result::Result<Outcome, crate::oci::OciError> {
    let descriptor = descriptor.clone();
    {
        if sink.has(&descriptor).await? {
            return Ok(Outcome::Present);
        }
        if sink.mount(&descriptor, job.source.as_ref()).await? {
            return Ok(Outcome::Mounted);
        }
        if let Some(partial) = sink.resume(&descriptor).await? {
            let kept = partial.offset();
            match resume(job, &descriptor, partial, progress).await {
                Ok(()) => return Ok(Outcome::Resumed { kept }),
                // What was kept is dropped: the blob is moved whole below.
                Err(e) => tracing::info!(
                    blob = %descriptor.digest,
                    %e,
                    "continuing the partial blob failed; moving it whole"
                ),
            }
        }
        let stream = job.source.get_verified_blob(&descriptor.digest).await?;
        let counter = progress.counter();
        let counted = stream.inspect(move |bytes| counter.add(bytes.len() as u64));
        sink.put(&descriptor, counted).await?;
        Ok(Outcome::Moved)
    }
}

/// Completes a partial blob with the rest of its bytes, read from the source
/// from the partial's offset on (or whole, skipping the bytes kept, when the
/// source cannot read from an offset). Every byte fetched is counted; the
/// partial verifies the whole blob.
async fn resume(
    job: &BlobJob,
    descriptor: &Descriptor,
    partial: Box<dyn PartialBlob>,
    progress: &Progress,
) -> std::result::Result<(), crate::oci::OciError> {
    let offset = partial.offset();
    let rest: BlobStream = if offset >= descriptor.size {
        progress.kept(offset);
        Box::pin(futures_util::stream::empty())
    } else {
        let range = job.source.get_blob_from(&descriptor.digest, offset).await?;
        // A source that reads the blob whole counts every byte below.
        progress.kept(range.start);
        let counter = progress.counter();
        let counted = range
            .stream
            .inspect(move |chunk| {
                if let Ok(bytes) = chunk {
                    counter.add(bytes.len() as u64);
                }
            })
            .boxed();
        skip_bytes(counted, offset.saturating_sub(range.start))
    };
    partial.complete(rest).await
}

/// `stream` without its first `skip` bytes.
fn skip_bytes(stream: BlobStream, skip: u64) -> BlobStream {
    if skip == 0 {
        return stream;
    }
    Box::pin(stream.scan(skip, |left, chunk| {
        let out = match chunk {
            Ok(mut bytes) if *left > 0 => {
                let drop = (*left).min(bytes.len() as u64);
                *left -= drop;
                Ok(bytes.split_off(drop as usize))
            }
            other => other,
        };
        std::future::ready(Some(out))
    }))
}

/// One [`Limiter`] per registry host.
struct Limiters {
    max: usize,
    by_host: Mutex<HashMap<String, Arc<Limiter>>>,
}

impl Limiters {
    fn new(max: usize) -> Limiters {
        Limiters {
            max,
            by_host: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, host: &str) -> Arc<Limiter> {
        self.by_host
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(host.to_string())
            .or_insert_with(|| Arc::new(Limiter::new(self.max)))
            .clone()
    }
}

/// An adaptive limit of requests in flight: halves on throttling, grows by one
/// after a streak of `limit` successes, never above `max` nor below 1.
pub struct Limiter {
    max: usize,
    state: Mutex<LimiterState>,
    notify: Notify,
}

#[derive(Debug)]
struct LimiterState {
    limit: usize,
    in_flight: usize,
    streak: usize,
}

/// A slot of a [`Limiter`], given back when dropped.
pub struct Permit<'a>(&'a Limiter);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.0.lock().in_flight -= 1;
        self.0.notify.notify_waiters();
    }
}

impl Limiter {
    pub fn new(max: usize) -> Limiter {
        Limiter {
            max: max.max(1),
            state: Mutex::new(LimiterState {
                limit: max.max(1),
                in_flight: 0,
                streak: 0,
            }),
            notify: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LimiterState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The current limit.
    pub fn limit(&self) -> usize {
        self.lock().limit
    }

    /// Waits for a slot.
    pub async fn acquire(&self) -> Permit<'_> {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                if state.in_flight < state.limit {
                    state.in_flight += 1;
                    return Permit(self);
                }
            }
            notified.await;
        }
    }

    /// Records the end of a request: throttled or not.
    pub fn record(&self, throttled: bool) {
        let mut state = self.lock();
        if throttled {
            state.limit = (state.limit / 2).max(1);
            state.streak = 0;
            tracing::info!(
                limit = state.limit,
                "registry throttled; halving concurrency"
            );
        } else {
            state.streak += 1;
            if state.streak >= state.limit && state.limit < self.max {
                state.limit += 1;
                state.streak = 0;
            }
        }
        drop(state);
        self.notify.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn skip_bytes_drops_the_first_bytes_across_chunks() {
        let chunks = [&b"abc"[..], b"defg", b"h"];
        for (skip, want) in [
            (0, "abcdefgh"),
            (2, "cdefgh"),
            (3, "defgh"),
            (5, "fgh"),
            (8, ""),
        ] {
            let pieces: Vec<crate::oci::Result<bytes::Bytes>> = chunks
                .iter()
                .map(|c| Ok(bytes::Bytes::copy_from_slice(c)))
                .collect();
            let stream: BlobStream = Box::pin(futures_util::stream::iter(pieces));
            let out = crate::oci::stream::tests::drain(skip_bytes(stream, skip))
                .await
                .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), want, "skip {skip}");
        }
    }

    #[test]
    fn limit_halves_on_throttling_and_grows_back_one_step_per_streak() {
        let l = Limiter::new(8);
        l.record(true);
        assert_eq!(l.limit(), 4);
        l.record(true);
        assert_eq!(l.limit(), 2);
        l.record(false);
        assert_eq!(l.limit(), 2);
        l.record(false);
        assert_eq!(l.limit(), 3);
        for _ in 0..3 {
            l.record(false);
        }
        assert_eq!(l.limit(), 4);
        for _ in 0..100 {
            l.record(false);
        }
        assert_eq!(l.limit(), 8);
        for _ in 0..10 {
            l.record(true);
        }
        assert_eq!(l.limit(), 1);
    }

    #[tokio::test]
    async fn acquire_waits_for_a_free_slot() {
        let l = Arc::new(Limiter::new(1));
        let first = l.acquire().await;
        let l2 = l.clone();
        let waiter = tokio::spawn(async move {
            let _p = l2.acquire().await;
        });
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        assert!(!waiter.is_finished());
        drop(first);
        tokio::time::timeout(std::time::Duration::from_secs(2), waiter)
            .await
            .unwrap()
            .unwrap();
    }
}
