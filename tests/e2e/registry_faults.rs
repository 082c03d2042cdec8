//! Failures between the client and a real registry: names that do not resolve,
//! refused connections, retried 503s and 429s (with `Retry-After`), exhausted
//! retries, truncated and corrupted downloads, lost upload answers, and redirects
//! to another host (which must not carry the credentials). Faults come from
//! [`FaultProxy`] in front of the registry.

use crate::support;

use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use strake::oci::media_types::OCI_MANIFEST;
use strake::oci::registry::{FlagCredentials, RegistryClient, RegistryOptions, RegistryStore};
use strake::oci::stream::{BlobStream, bytes_stream};
use strake::oci::{Descriptor, Digest, OciError, Reference, Store};
use support::content::PushedImage;
use support::fault_proxy::{Fault, FaultProxy};
use support::registry::TestRegistry;

fn client_with(options: RegistryOptions) -> RegistryClient {
    RegistryClient::new(options).unwrap()
}

fn client() -> RegistryClient {
    client_with(RegistryOptions::default())
}

async fn read_all(mut s: BlobStream) -> strake::oci::Result<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(chunk) = s.next().await {
        out.extend_from_slice(&chunk?);
    }
    Ok(out)
}

/// A registry with one image (`faults/app:v1`, a 20000-byte layer), behind a proxy.
async fn setup() -> (TestRegistry, FaultProxy, PushedImage) {
    let reg = TestRegistry::start();
    let layer: Vec<u8> = (0..20000u32).map(|i| (i * 7 % 251) as u8).collect();
    let image = reg
        .pusher()
        .push_image("faults/app", "v1", OCI_MANIFEST, &[&layer])
        .await;
    let proxy = FaultProxy::start(&reg.addr());
    (reg, proxy, image)
}

fn layer_digest(image: &PushedImage) -> Digest {
    image.layers[0].0.parse().unwrap()
}

#[tokio::test]
async fn unknown_host_fails_fast_with_its_name() {
    let reference = Reference::parse("nonexistent.invalid/some/app:v1").unwrap();
    let store = client().store(&reference);
    let started = Instant::now();
    let text = store.get_manifest("v1").await.unwrap_err().to_string();
    assert!(
        text.starts_with(
            "nonexistent.invalid: cannot reach the registry: https: cannot resolve the host name"
        ),
        "{text}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn connection_refused_is_retried_then_reported() {
    let mut reg = TestRegistry::start();
    let addr = reg.addr();
    reg.stop();
    let store = client_with(RegistryOptions {
        retry_count: 2,
        ..RegistryOptions::default()
    })
    .repository(&addr, "faults/gone");
    let text = store.list_tags().await.unwrap_err().to_string();
    assert!(
        text.starts_with(&format!("{addr}: cannot reach the registry: https: "))
            && text.contains("http: ")
            && text.to_lowercase().contains("connection refused"),
        "{text}"
    );
}

#[tokio::test]
async fn two_503s_then_success() {
    let (_reg, proxy, image) = setup().await;
    let store = client().repository(&proxy.addr(), "faults/app");
    proxy.inject(Some("GET"), "/manifests/v1", Fault::status(503), 2);
    let m = store.get_manifest("v1").await.unwrap();
    assert_eq!(m.bytes.as_ref(), image.manifest.as_slice());
    let seen = proxy.requests_matching("GET", "/manifests/v1");
    assert_eq!(seen.len(), 3);
    assert!(seen[0].fault.is_some() && seen[1].fault.is_some() && seen[2].fault.is_none());
    // Backoff: the retries did not come back to back.
    assert!(seen[2].at - seen[0].at >= Duration::from_millis(100));
}

#[tokio::test]
async fn too_many_requests_waits_for_retry_after() {
    let (_reg, proxy, image) = setup().await;
    let store = client().repository(&proxy.addr(), "faults/app");
    let digest = layer_digest(&image);
    proxy.inject(Some("GET"), "/blobs/", Fault::too_many_requests(1), 1);
    let started = Instant::now();
    let data = read_all(store.get_blob(&digest).await.unwrap())
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(Digest::of(&data), digest);
    let seen = proxy.requests_matching("GET", "/blobs/");
    assert_eq!(seen.len(), 2);
    assert!(seen[1].at - seen[0].at >= Duration::from_secs(1));
}

#[tokio::test]
async fn retries_are_bounded() {
    let (_reg, proxy, _image) = setup().await;
    let store = client_with(RegistryOptions {
        retry_count: 2,
        ..RegistryOptions::default()
    })
    .repository(&proxy.addr(), "faults/app");
    proxy.inject(None, "/tags/list", Fault::status(503), 100);
    let text = store.list_tags().await.unwrap_err().to_string();
    assert!(
        text.contains(&proxy.addr())
            && text.contains("faults/app")
            && text.contains("tag list")
            && text.contains("HTTP 503"),
        "{text}"
    );
    assert_eq!(proxy.requests_matching("GET", "/tags/list").len(), 3);
}

#[tokio::test]
async fn truncated_download_is_an_error() {
    let (_reg, proxy, image) = setup().await;
    let store = client_with(RegistryOptions {
        retry_count: 0,
        ..RegistryOptions::default()
    })
    .repository(&proxy.addr(), "faults/app");
    let digest = layer_digest(&image);
    proxy.inject(Some("GET"), "/blobs/", Fault::Truncate { keep: 5000 }, 1);
    let err = read_all(store.get_blob(&digest).await.unwrap())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(&format!("faults/app: reading blob {digest}")),
        "{text}"
    );
}

#[tokio::test]
async fn corrupted_download_is_an_error() {
    let (_reg, proxy, image) = setup().await;
    let store = client().repository(&proxy.addr(), "faults/app");
    let digest = layer_digest(&image);
    proxy.inject(Some("GET"), "/blobs/", Fault::FlipByte { offset: 1234 }, 1);
    let err = read_all(store.get_blob(&digest).await.unwrap())
        .await
        .unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err}");
    assert!(
        err.to_string()
            .contains(&format!("content of {digest} does not match")),
        "{err}"
    );

    // Manifests are verified too, by digest and by tag (Docker-Content-Digest).
    for reference in [image.manifest_digest.as_str(), "v1"] {
        proxy.inject(
            Some("GET"),
            "/manifests/",
            Fault::FlipByte { offset: 10 },
            1,
        );
        let err = store.get_manifest(reference).await.unwrap_err();
        assert!(
            matches!(err, OciError::DigestMismatch { .. }),
            "{reference}: {err}"
        );
    }
    // And nothing was cached: clean reads work.
    assert_eq!(
        store.get_manifest("v1").await.unwrap().digest.as_str(),
        image.manifest_digest
    );
}

fn pseudo_random(len: usize) -> Vec<u8> {
    let mut x: u32 = 0x9e37_79b9;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

fn chunked_options() -> RegistryOptions {
    RegistryOptions {
        monolithic_upload_max: 64 * 1024,
        upload_chunk_size: 64 * 1024,
        ..RegistryOptions::default()
    }
}

#[tokio::test]
async fn upload_requests_are_retried_with_their_bytes() {
    let (reg, proxy, _image) = setup().await;
    let store = client_with(chunked_options()).repository(&proxy.addr(), "faults/upload");
    let data = pseudo_random(200_000);
    let d = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(&data),
        size: data.len() as u64,
    };
    proxy.inject(Some("POST"), "/blobs/uploads/", Fault::status(503), 1);
    proxy.inject(Some("PATCH"), "/blobs/uploads/", Fault::status(502), 2);
    proxy.inject(Some("PUT"), "/blobs/uploads/", Fault::status(500), 1);
    store
        .put_blob(&d, bytes_stream(Bytes::from(data.clone())))
        .await
        .unwrap();
    assert!(reg.stores_blob(d.digest.as_str()));
    let back = read_all(store.get_blob(&d.digest).await.unwrap())
        .await
        .unwrap();
    assert_eq!(back, data);
    // 4 chunks (3 × 64 KiB + rest), two of them sent twice.
    assert_eq!(proxy.requests_matching("PATCH", "/blobs/uploads/").len(), 6);

    // Monolithic: a lost PUT answer (the registry did store the blob) is retried,
    // the session is gone, and a new session with the held bytes completes.
    let small = b"small and monolithic".to_vec();
    let ds = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(&small),
        size: small.len() as u64,
    };
    proxy.inject(
        Some("PUT"),
        "/blobs/uploads/",
        Fault::LoseAnswer { status: 503 },
        1,
    );
    store
        .put_blob(&ds, bytes_stream(Bytes::from(small.clone())))
        .await
        .unwrap();
    assert_eq!(
        store.blob_size(&ds.digest).await.unwrap(),
        Some(small.len() as u64)
    );
}

#[tokio::test]
async fn chunks_honour_the_registry_minimum() {
    let (reg, proxy, _image) = setup().await;
    let store = client_with(chunked_options()).repository(&proxy.addr(), "faults/minimum");
    let data = pseudo_random(250_000);
    let d = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(&data),
        size: data.len() as u64,
    };
    proxy.inject(
        Some("POST"),
        "/blobs/uploads/",
        Fault::AddHeader {
            name: "OCI-Chunk-Min-Length".into(),
            value: "100000".into(),
        },
        1,
    );
    store
        .put_blob(&d, bytes_stream(Bytes::from(data)))
        .await
        .unwrap();
    assert!(reg.stores_blob(d.digest.as_str()));
    // 100000 + 100000 + 50000 instead of four 64 KiB chunks.
    assert_eq!(proxy.requests_matching("PATCH", "/blobs/uploads/").len(), 3);
}

#[tokio::test]
async fn relative_upload_locations_keep_their_query() {
    let (reg, proxy, _image) = setup().await;
    let store = client_with(chunked_options()).repository(&proxy.addr(), "faults/relative");
    proxy.inject(None, "/blobs/uploads/", Fault::RelativeLocation, 1000);
    for len in [1000usize, 150_000] {
        let data = pseudo_random(len);
        let d = Descriptor {
            media_type: "application/octet-stream".into(),
            digest: Digest::of(&data),
            size: data.len() as u64,
        };
        store
            .put_blob(&d, bytes_stream(Bytes::from(data)))
            .await
            .unwrap();
        assert!(reg.stores_blob(d.digest.as_str()));
    }
    // Every follow-up request carried the registry's `_state` query along.
    let follow_ups: Vec<_> = proxy
        .requests()
        .into_iter()
        .filter(|r| r.method == "PATCH" || r.method == "PUT")
        .collect();
    // One PUT for the small blob; three PATCHes and a PUT for the large one.
    assert_eq!(follow_ups.len(), 1 + 3 + 1);
    assert!(
        follow_ups.iter().all(|r| r.path.contains("_state=")),
        "{follow_ups:?}"
    );
    assert!(
        proxy
            .requests()
            .iter()
            .any(|r| matches!(r.fault, Some(Fault::RelativeLocation)))
    );
}

#[tokio::test]
async fn lost_patch_answer_fails_cleanly() {
    // distribution 2.x cancels a session resumed at a stale offset, so a chunk
    // whose answer was lost cannot be confirmed: the upload fails (the caller
    // re-opens its source) and nothing is stored.
    let (reg, proxy, _image) = setup().await;
    let store = client_with(chunked_options()).repository(&proxy.addr(), "faults/lost");
    let data = pseudo_random(150_000);
    let d = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(&data),
        size: data.len() as u64,
    };
    proxy.inject(
        Some("PATCH"),
        "/blobs/uploads/",
        Fault::LoseAnswer { status: 503 },
        1,
    );
    let text = store
        .put_blob(&d, bytes_stream(Bytes::from(data.clone())))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        text.contains(&proxy.addr()) && text.contains(&format!("{}", d.digest)),
        "{text}"
    );
    assert!(!reg.stores_blob(d.digest.as_str()));
    // A second attempt from the source succeeds.
    store
        .put_blob(&d, bytes_stream(Bytes::from(data)))
        .await
        .unwrap();
    assert!(reg.stores_blob(d.digest.as_str()));
}

#[tokio::test]
async fn redirects_to_another_host_drop_credentials() {
    // The authenticated registry redirects a blob download to a storage host
    // (another registry holding the same bytes, reached as `localhost`).
    let reg = TestRegistry::with_htpasswd("alice", "secret");
    let layer = b"redirected layer bytes".to_vec();
    let image = reg
        .pusher()
        .push_image("faults/redirect", "v1", OCI_MANIFEST, &[&layer])
        .await;
    let storage = TestRegistry::start();
    storage.pusher().push_blob("faults/redirect", &layer).await;
    let front = FaultProxy::start(&reg.addr());
    let back = FaultProxy::start(&storage.addr());
    let digest = layer_digest(&image);
    let back_port = back.addr().rsplit_once(':').unwrap().1.to_string();
    front.inject(
        Some("GET"),
        "/blobs/",
        Fault::Redirect {
            location: format!("http://localhost:{back_port}/v2/faults/redirect/blobs/{digest}"),
        },
        1,
    );
    let store: RegistryStore = client_with(RegistryOptions {
        flag_credentials: FlagCredentials {
            username: Some("alice".into()),
            password: Some("secret".into()),
            ..FlagCredentials::default()
        },
        ..RegistryOptions::default()
    })
    .repository(&front.addr(), "faults/redirect");
    let data = read_all(store.get_blob(&digest).await.unwrap())
        .await
        .unwrap();
    assert_eq!(data, layer);
    let front_seen = front.requests_matching("GET", "/blobs/");
    assert!(front_seen[0].had_authorization);
    let back_seen = back.requests_matching("GET", "/blobs/");
    assert_eq!(back_seen.len(), 1);
    assert!(
        !back_seen[0].had_authorization,
        "credentials followed the redirect"
    );
}
