//! Bounded memory: a 512 MiB blob, generated on the fly from a seeded PRNG (never
//! held in memory), goes up to a real registry in one streamed PATCH and comes back as a
//! verified stream, while the process's peak resident memory (VmHWM) stays under
//! 64 MiB. One test in its own binary, so nothing else inflates the peak.

mod support;

use std::time::Instant;

use bytes::Bytes;
use futures_util::StreamExt;
use strake::oci::digest::Hasher;
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::stream::BlobStream;
use strake::oci::{Descriptor, Store};
use support::registry::TestRegistry;

const SIZE: u64 = 512 << 20;
const PIECE: usize = 256 << 10;
const BLOCK: usize = 1 << 20;
const LIMIT_KIB: u64 = 64 << 10;

/// Deterministic pseudo-random bytes, `len` of them in pieces of 256 KiB. A
/// xorshift64* generator seeded with `seed` fills a 1 MiB block once and then picks,
/// for every piece, a window of that block at a pseudo-random offset: the bytes are
/// made as they are consumed (only the block is held), and copying windows keeps
/// generation fast in a debug build, where a per-word loop is not.
fn generated(seed: u64, len: u64) -> impl Iterator<Item = Bytes> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut block = Vec::with_capacity(BLOCK * 2);
    while block.len() < BLOCK {
        block.extend_from_slice(&next().to_le_bytes());
    }
    // The block twice in a row, so any window is one contiguous slice.
    block.extend_from_within(..BLOCK);
    let mut left = len;
    std::iter::from_fn(move || {
        if left == 0 {
            return None;
        }
        let n = (left as usize).min(PIECE);
        let offset = (next() % BLOCK as u64) as usize;
        left -= n as u64;
        Some(Bytes::copy_from_slice(&block[offset..offset + n]))
    })
}

fn generated_stream(seed: u64, len: u64) -> BlobStream {
    Box::pin(futures_util::stream::iter(generated(seed, len).map(Ok)))
}

/// `VmHWM` (peak resident set) and `VmRSS` of this process, in KiB.
fn memory_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name} missing from /proc/self/status"))
    };
    (field("VmHWM:"), field("VmRSS:"))
}

#[tokio::test]
async fn half_gigabyte_blob_round_trip_in_bounded_memory() {
    let reg = TestRegistry::start();
    let store = RegistryClient::new(RegistryOptions::default())
        .unwrap()
        .repository(&reg.addr(), "memory/big");
    let seed = 0x5eed_1234_abcd_0042;

    let started = Instant::now();
    let mut hasher = Hasher::new();
    for piece in generated(seed, SIZE) {
        hasher.update(&piece);
    }
    assert_eq!(hasher.size(), SIZE);
    let descriptor = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: hasher.finish(),
        size: SIZE,
    };
    let hashed = started.elapsed();

    let started = Instant::now();
    store
        .put_blob(&descriptor, generated_stream(seed, SIZE))
        .await
        .unwrap();
    let uploaded = started.elapsed();
    assert_eq!(
        store.blob_size(&descriptor.digest).await.unwrap(),
        Some(SIZE)
    );
    let patches = reg
        .log()
        .matches("\"PATCH /v2/memory/big/blobs/uploads/")
        .count();
    assert_eq!(patches, 1, "one streamed PATCH expected");
    let (after_upload, _) = memory_kib();

    let started = Instant::now();
    let mut stream = store.get_blob(&descriptor.digest).await.unwrap();
    let mut received = 0u64;
    let mut expected = generated(seed, SIZE);
    let mut pending = Bytes::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap();
        // Compare with the generator as the bytes arrive (the stream also verifies
        // the digest at its end).
        let mut rest = chunk.as_ref();
        while !rest.is_empty() {
            if pending.is_empty() {
                pending = expected.next().expect("more bytes than generated");
            }
            let n = rest.len().min(pending.len());
            assert_eq!(
                &rest[..n],
                &pending[..n],
                "byte mismatch near offset {received}"
            );
            pending = pending.slice(n..);
            rest = &rest[n..];
            received += n as u64;
        }
    }
    assert_eq!(received, SIZE);
    let downloaded = started.elapsed();

    let (peak, rss) = memory_kib();
    let mib = |d: std::time::Duration| SIZE as f64 / (1 << 20) as f64 / d.as_secs_f64();
    println!(
        "blob_memory: 512 MiB: hash {hashed:.2?}, upload {uploaded:.2?} ({:.0} MiB/s), \
         download+verify {downloaded:.2?} ({:.0} MiB/s); VmHWM after upload {} KiB, \
         final VmHWM {} KiB ({:.1} MiB), VmRSS {} KiB",
        mib(uploaded),
        mib(downloaded),
        after_upload,
        peak,
        peak as f64 / 1024.0,
        rss
    );
    assert!(
        peak < LIMIT_KIB,
        "peak resident memory {peak} KiB exceeds {LIMIT_KIB} KiB"
    );
}
