//! The registry client against a real `docker-registry` over plain HTTP: blobs
//! (monolithic and chunked uploads, streamed verified downloads, mounts),
//! manifests of all four media types, tag pagination, and the errors for unknown
//! manifests and blobs whose bytes do not match their digest.

use crate::support;

use bytes::Bytes;
use futures_util::StreamExt;
use strake::oci::media_types::{DOCKER_MANIFEST, DOCKER_MANIFEST_LIST, OCI_INDEX, OCI_MANIFEST};
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::stream::{BlobStream, bytes_stream};
use strake::oci::{Descriptor, Digest, ManifestBytes, OciError, Store};
use support::fault_proxy::FaultProxy;
use support::registry::TestRegistry;

fn client() -> RegistryClient {
    RegistryClient::new(RegistryOptions::default()).unwrap()
}

async fn read_all(mut s: BlobStream) -> strake::oci::Result<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(chunk) = s.next().await {
        out.extend_from_slice(&chunk?);
    }
    Ok(out)
}

fn descriptor(data: &[u8]) -> Descriptor {
    Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(data),
        size: data.len() as u64,
    }
}

fn pseudo_random(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Splits data into a stream of small pieces, as a file reader would.
fn pieces(data: &[u8], size: usize) -> BlobStream {
    let chunks: Vec<strake::oci::Result<Bytes>> = data
        .chunks(size)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    Box::pin(futures_util::stream::iter(chunks))
}

#[tokio::test]
async fn blobs_round_trip_monolithic_and_chunked() {
    let reg = TestRegistry::start();
    let store = RegistryClient::new(RegistryOptions {
        monolithic_upload_max: 1 << 20,
        upload_chunk_size: 1 << 20,
        ..RegistryOptions::default()
    })
    .unwrap()
    .repository(&reg.addr(), "plain/blobs");
    assert_eq!(store.location(), format!("{}/plain/blobs", reg.addr()));

    let small = b"small blob".to_vec();
    let large = pseudo_random((3 << 20) + 12345, 7);
    for data in [&small, &large] {
        let d = descriptor(data);
        assert_eq!(store.blob_size(&d.digest).await.unwrap(), None);
        store.put_blob(&d, pieces(data, 64 * 1024)).await.unwrap();
        assert_eq!(
            store.blob_size(&d.digest).await.unwrap(),
            Some(data.len() as u64)
        );
        let back = read_all(store.get_blob(&d.digest).await.unwrap())
            .await
            .unwrap();
        assert_eq!(Digest::of(&back), d.digest);
        assert_eq!(&back, data);
        assert!(reg.stores_blob(d.digest.as_str()));
    }
    // The large blob went up in four PATCHes (three full chunks and the rest).
    let log = reg.log();
    let patches = log
        .matches("\"PATCH /v2/plain/blobs/blobs/uploads/")
        .count();
    assert_eq!(patches, 4, "{log}");

    // An empty blob works too.
    let empty = descriptor(b"");
    store
        .put_blob(&empty, bytes_stream(Bytes::new()))
        .await
        .unwrap();
    assert_eq!(store.blob_size(&empty.digest).await.unwrap(), Some(0));

    let missing = Digest::of(b"never pushed");
    let err = match store.get_blob(&missing).await {
        Ok(_) => panic!("missing blob streamed"),
        Err(e) => e,
    };
    assert!(matches!(err, OciError::BlobUnknown { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!("{}/plain/blobs: blob {missing} not found", reg.addr())
    );
}

#[tokio::test]
async fn blob_with_wrong_bytes_is_rejected_and_nothing_is_stored() {
    let reg = TestRegistry::start();
    let store = RegistryClient::new(RegistryOptions {
        monolithic_upload_max: 1 << 20,
        upload_chunk_size: 1 << 20,
        ..RegistryOptions::default()
    })
    .unwrap()
    .repository(&reg.addr(), "plain/wrong");
    for len in [1000usize, (2 << 20) + 17] {
        let good = pseudo_random(len, 3);
        let mut bad = good.clone();
        bad[len / 2] ^= 1;
        let d = descriptor(&good);
        let err = store.put_blob(&d, pieces(&bad, 100_000)).await.unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, OciError::DigestMismatch { .. }), "{text}");
        assert!(
            text.contains(d.digest.as_str()) && text.contains("does not match its digest"),
            "{text}"
        );
        assert!(!reg.stores_blob(d.digest.as_str()));
        assert!(!reg.stores_blob(Digest::of(&bad).as_str()));
        assert_eq!(store.blob_size(&d.digest).await.unwrap(), None);

        // Too many bytes for the declared size fail the same way.
        let mut longer = good.clone();
        longer.push(0);
        let err = store
            .put_blob(&d, pieces(&longer, 100_000))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("expected"), "{err}");
        assert!(!reg.stores_blob(d.digest.as_str()));
    }
}

#[tokio::test]
async fn large_blobs_go_up_in_one_streamed_patch_and_bad_bytes_are_kept_out() {
    let reg = TestRegistry::start();
    let store = client().repository(&reg.addr(), "plain/streamed");
    let good = pseudo_random((9 << 20) + 3, 11);
    let d = descriptor(&good);
    store.put_blob(&d, pieces(&good, 64 * 1024)).await.unwrap();
    let back = read_all(store.get_blob(&d.digest).await.unwrap())
        .await
        .unwrap();
    assert_eq!(Digest::of(&back), d.digest);
    let log = reg.log();
    let patches = log
        .matches("\"PATCH /v2/plain/streamed/blobs/uploads/")
        .count();
    assert_eq!(patches, 1, "{log}");

    // A verified stream from another store goes up without a second hash, and
    // one whose verification fails at its end leaves nothing behind.
    let other = pseudo_random((9 << 20) + 5, 12);
    let od = descriptor(&other);
    let mut bad = other.clone();
    bad[1 << 20] ^= 1;
    let failing = strake::oci::stream::verify_stream(
        pieces(&bad, 64 * 1024),
        od.digest.clone(),
        Some(od.size),
        "source".into(),
    );
    let err = store
        .put_verified_blob(
            &od,
            strake::oci::VerifiedBlob::new(failing, od.digest.clone()),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, OciError::DigestMismatch { .. }), "{err}");
    assert!(!reg.stores_blob(od.digest.as_str()));
    assert!(!reg.stores_blob(Digest::of(&bad).as_str()));
    let good_source = strake::oci::stream::verify_stream(
        pieces(&other, 64 * 1024),
        od.digest.clone(),
        Some(od.size),
        "source".into(),
    );
    store
        .put_verified_blob(
            &od,
            strake::oci::VerifiedBlob::new(good_source, od.digest.clone()),
        )
        .await
        .unwrap();
    assert_eq!(store.blob_size(&od.digest).await.unwrap(), Some(od.size));
}

fn manifest_json(media_type: &str, config: &Descriptor, layers: &[Descriptor]) -> Vec<u8> {
    let desc = |d: &Descriptor| serde_json::json!({"mediaType": d.media_type, "digest": d.digest.as_str(), "size": d.size});
    serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": media_type,
        "config": desc(config),
        "layers": layers.iter().map(desc).collect::<Vec<_>>(),
    }))
    .unwrap()
}

fn index_json(media_type: &str, children: &[&ManifestBytes]) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": media_type,
        "manifests": children.iter().map(|m| serde_json::json!({
            "mediaType": m.media_type,
            "digest": m.digest.as_str(),
            "size": m.bytes.len(),
            "platform": {"architecture": "amd64", "os": "linux"},
        })).collect::<Vec<_>>(),
    }))
    .unwrap()
}

#[tokio::test]
async fn manifests_of_all_four_media_types() {
    let reg = TestRegistry::start();
    let store = client().repository(&reg.addr(), "plain/manifests");
    let mut images = Vec::new();
    for (media_type, config_type, layer_type) in [
        (
            DOCKER_MANIFEST,
            strake::oci::media_types::DOCKER_CONFIG,
            strake::oci::media_types::DOCKER_LAYER_GZIP,
        ),
        (
            OCI_MANIFEST,
            strake::oci::media_types::OCI_CONFIG,
            strake::oci::media_types::OCI_LAYER_GZIP,
        ),
    ] {
        let config = format!(r#"{{"architecture":"amd64","os":"linux","t":"{media_type}"}}"#);
        let layer = pseudo_random(5000, media_type.len() as u64);
        let mut config_d = descriptor(config.as_bytes());
        config_d.media_type = config_type.into();
        let mut layer_d = descriptor(&layer);
        layer_d.media_type = layer_type.into();
        store
            .put_blob(&config_d, bytes_stream(Bytes::from(config.clone())))
            .await
            .unwrap();
        store
            .put_blob(&layer_d, bytes_stream(Bytes::from(layer)))
            .await
            .unwrap();
        let m = ManifestBytes::new(
            media_type,
            manifest_json(media_type, &config_d, &[layer_d.clone()]),
        );
        // By digest first (no tag), then tagged.
        store.put_manifest(&m, None).await.unwrap();
        let tag = if media_type == DOCKER_MANIFEST {
            "docker"
        } else {
            "oci"
        };
        store.put_manifest(&m, Some(tag)).await.unwrap();
        assert_eq!(m.references("t").unwrap(), vec![config_d, layer_d]);
        images.push((tag, m));
    }
    let docker_list = ManifestBytes::new(
        DOCKER_MANIFEST_LIST,
        index_json(DOCKER_MANIFEST_LIST, &[&images[0].1]),
    );
    let oci_index = ManifestBytes::new(OCI_INDEX, index_json(OCI_INDEX, &[&images[1].1]));
    store
        .put_manifest(&docker_list, Some("list"))
        .await
        .unwrap();
    store.put_manifest(&oci_index, Some("index")).await.unwrap();

    let all = [
        ("docker", &images[0].1),
        ("oci", &images[1].1),
        ("list", &docker_list),
        ("index", &oci_index),
    ];
    for (tag, m) in all {
        let by_tag = store.get_manifest(tag).await.unwrap();
        assert_eq!(&by_tag, m, "{tag}");
        let by_digest = store.get_manifest(m.digest.as_str()).await.unwrap();
        assert_eq!(by_digest.bytes, m.bytes);
        assert_eq!(by_digest.media_type, m.media_type);
        assert_eq!(
            store.resolve(tag).await.unwrap(),
            Some(m.descriptor()),
            "{tag}"
        );
        assert_eq!(
            store.resolve(m.digest.as_str()).await.unwrap(),
            Some(m.descriptor())
        );
    }
    assert_eq!(
        store.list_tags().await.unwrap(),
        vec!["docker", "index", "list", "oci"]
    );
    // Independent check: the pusher's view of the registry agrees.
    let pushed = support::content::block_on(reg.pusher().push_image(
        "plain/manifests",
        "pushed",
        OCI_MANIFEST,
        &[b"layer"],
    ));
    let got = store.get_manifest("pushed").await.unwrap();
    assert_eq!(got.bytes.as_ref(), pushed.manifest.as_slice());
    assert_eq!(got.digest.as_str(), pushed.manifest_digest);
}

#[tokio::test]
async fn unknown_manifests_and_repositories() {
    let reg = TestRegistry::start();
    let store = client().repository(&reg.addr(), "plain/unknown");
    let err = store.get_manifest("v404").await.unwrap_err();
    assert!(matches!(err, OciError::ManifestUnknown { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!("{}/plain/unknown: manifest v404 not found", reg.addr())
    );
    assert_eq!(store.resolve("v404").await.unwrap(), None);
    let d = Digest::of(b"nothing");
    assert_eq!(store.resolve(d.as_str()).await.unwrap(), None);
    assert_eq!(store.list_tags().await.unwrap(), Vec::<String>::new());

    // A manifest pointing at blobs the registry lacks is refused with its reason.
    let m = ManifestBytes::new(
        OCI_MANIFEST,
        manifest_json(OCI_MANIFEST, &descriptor(b"cfg"), &[]),
    );
    let err = store
        .put_manifest(&m, Some("broken"))
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&reg.addr())
            && err.contains("manifest broken")
            && err.contains("MANIFEST_BLOB_UNKNOWN"),
        "{err}"
    );
}

#[tokio::test]
async fn tag_list_follows_pagination() {
    let reg = TestRegistry::start();
    let repo = "plain/many-tags";
    let pusher = reg.pusher();
    let image = pusher.push_image(repo, "t000", OCI_MANIFEST, &[b"x"]).await;
    let count = 250;
    futures_util::stream::iter(1..count)
        .map(|i| {
            let pusher = &pusher;
            let image = &image;
            async move {
                pusher
                    .push_manifest(repo, &format!("t{i:03}"), OCI_MANIFEST, &image.manifest)
                    .await
            }
        })
        .buffer_unordered(8)
        .collect::<Vec<_>>()
        .await;
    // distribution 2.8 ignores `n` for tags: the proxy paginates its real list,
    // capping pages at 100 tags whatever the client asks.
    let proxy = FaultProxy::start(&reg.addr());
    proxy.paginate_tags(100);
    let store = client().repository(&proxy.addr(), repo);
    let tags = store.list_tags().await.unwrap();
    let want: Vec<String> = (0..count).map(|i| format!("t{i:03}")).collect();
    assert_eq!(tags, want);
    let pages: Vec<String> = proxy
        .requests_matching("GET", "/tags/list")
        .into_iter()
        .map(|r| r.path)
        .collect();
    assert_eq!(
        pages,
        vec![
            format!("/v2/{repo}/tags/list?n=1000"),
            format!("/v2/{repo}/tags/list?last=t099&n=1000"),
            format!("/v2/{repo}/tags/list?last=t199&n=1000"),
        ]
    );
}

#[tokio::test]
async fn cross_repository_mount() {
    let reg = TestRegistry::start();
    let c = client();
    let src = c.repository(&reg.addr(), "plain/source");
    let dst = c.repository(&reg.addr(), "plain/dest");
    let data = b"mount me".to_vec();
    let d = descriptor(&data);
    src.put_blob(&d, bytes_stream(Bytes::from(data.clone())))
        .await
        .unwrap();
    assert_eq!(dst.blob_size(&d.digest).await.unwrap(), None);
    assert!(dst.mount_blob(&d, &src).await.unwrap());
    assert_eq!(
        dst.blob_size(&d.digest).await.unwrap(),
        Some(data.len() as u64)
    );
    let log = reg.log();
    assert!(
        log.contains("\"POST /v2/plain/dest/blobs/uploads/?from=plain%2Fsource&mount=sha256")
            || log.contains("mount=sha256"),
        "{log}"
    );

    // A blob the source does not hold: the registry opens an upload (202), which
    // is cancelled, and the answer is "upload it".
    let other = descriptor(b"not in source");
    assert!(!dst.mount_blob(&other, &src).await.unwrap());
    assert_eq!(dst.blob_size(&other.digest).await.unwrap(), None);

    // Another registry, or the same repository: no mount attempted.
    let reg2 = TestRegistry::start();
    let elsewhere = c.repository(&reg2.addr(), "plain/source");
    assert!(!elsewhere.mount_blob(&d, &src).await.unwrap());
    assert!(!src.mount_blob(&d, &src).await.unwrap());
}

/// The manifest requests (method, path) in the registry's access log.
fn manifest_requests(reg: &TestRegistry) -> Vec<(String, String)> {
    reg.log()
        .lines()
        .filter(|l| l.contains("response completed") && l.contains("/manifests/"))
        .filter_map(|l| {
            let field = |key: &str| {
                let start = l.find(key)? + key.len();
                let rest = &l[start..];
                Some(
                    rest.split_whitespace()
                        .next()?
                        .trim_matches('"')
                        .to_string(),
                )
            };
            Some((field("http.request.method=")?, field("http.request.uri=")?))
        })
        .collect()
}

#[tokio::test]
async fn resolve_makes_exactly_one_head_request() {
    let reg = TestRegistry::start();
    let pushed = support::content::block_on(reg.pusher().push_image(
        "plain/resolve",
        "v1",
        OCI_MANIFEST,
        &[b"resolve layer"],
    ));
    let before = manifest_requests(&reg).len();
    let store = client().repository(&reg.addr(), "plain/resolve");
    let by_tag = store.resolve("v1").await.unwrap().expect("tag v1");
    assert_eq!(by_tag.digest.as_str(), pushed.manifest_digest);
    assert_eq!(by_tag.size, pushed.manifest.len() as u64);
    assert_eq!(by_tag.media_type, OCI_MANIFEST);
    let by_digest = store
        .resolve(&pushed.manifest_digest)
        .await
        .unwrap()
        .expect("by digest");
    assert_eq!(by_digest, by_tag);
    let made = manifest_requests(&reg)[before..].to_vec();
    assert_eq!(
        made,
        vec![
            (
                "HEAD".to_string(),
                "/v2/plain/resolve/manifests/v1".to_string()
            ),
            (
                "HEAD".to_string(),
                format!("/v2/plain/resolve/manifests/{}", pushed.manifest_digest)
            ),
        ],
        "{}",
        reg.log()
    );
}

/// A stream of `data` in `size` pieces that ends in an error after `fail_after`
/// bytes (a producer that failed part-way).
fn failing_pieces(data: &[u8], size: usize, fail_after: usize) -> BlobStream {
    let mut items: Vec<strake::oci::Result<Bytes>> = data[..fail_after]
        .chunks(size)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    items.push(Err(OciError::io(
        "test producer",
        std::io::Error::other("disk on fire"),
    )));
    Box::pin(futures_util::stream::iter(items))
}

/// Upload sessions of `repo` that still hold data. (distribution 2.8 leaves the
/// `hashstates/` of a cancelled session behind, but removes its `data`.)
fn upload_sessions_with_data(reg: &TestRegistry, repo: &str) -> Vec<String> {
    let dir = reg
        .storage()
        .join("docker/registry/v2/repositories")
        .join(repo)
        .join("_uploads");
    match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("data").exists())
            .map(|p| p.display().to_string())
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[tokio::test]
async fn streamed_blob_of_unknown_digest_is_hashed_on_the_way() {
    let reg = TestRegistry::start();
    let store = RegistryClient::new(RegistryOptions {
        upload_chunk_size: 1 << 20,
        ..RegistryOptions::default()
    })
    .unwrap()
    .repository(&reg.addr(), "plain/streamed");

    let data = pseudo_random((3 << 20) + 4321, 11);
    let desc = store
        .put_blob_stream("application/x-test", pieces(&data, 100_000))
        .await
        .unwrap();
    assert_eq!(desc.media_type, "application/x-test");
    assert_eq!(desc.digest, Digest::of(&data));
    assert_eq!(desc.size, data.len() as u64);
    assert!(reg.stores_blob(desc.digest.as_str()));
    let back = read_all(store.get_blob(&desc.digest).await.unwrap())
        .await
        .unwrap();
    assert_eq!(back, data);
    // The whole stream went up in one PATCH (whatever upload_chunk_size says).
    let log = reg.log();
    let patches = log
        .matches("\"PATCH /v2/plain/streamed/blobs/uploads/")
        .count();
    assert_eq!(patches, 1, "{log}");

    // Small and empty blobs work too.
    for small in [&b"tiny"[..], &b""[..]] {
        let desc = store
            .put_blob_stream("application/x-test", pieces(small, 3))
            .await
            .unwrap();
        assert_eq!(desc.digest, Digest::of(small));
        assert_eq!(
            store.blob_size(&desc.digest).await.unwrap(),
            Some(small.len() as u64)
        );
    }

    // A producer that fails part-way: its error comes back, the registry keeps
    // nothing (no blob under the partial bytes' digest, the session cancelled).
    let other = pseudo_random(3 << 20, 12);
    let cut = (1 << 20) + 500_000;
    let err = store
        .put_blob_stream("application/x-test", failing_pieces(&other, 100_000, cut))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("disk on fire"), "{err}");
    assert!(!reg.stores_blob(Digest::of(&other[..cut]).as_str()));
    assert!(!reg.stores_blob(Digest::of(&other[..1 << 20]).as_str()));
    assert_eq!(
        upload_sessions_with_data(&reg, "plain/streamed"),
        Vec::<String>::new()
    );
}
