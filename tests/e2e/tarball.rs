//! imgpkg tarballs: reading the golden `imgpkg copy --to-tar` outputs and writing
//! the same content back byte for byte.

use std::collections::BTreeMap;
use std::path::PathBuf;

use futures_util::StreamExt;
use strake::oci::copy::{CopyOptions, copy_image};
use strake::oci::tarball::{ImageMetadata, TarballStore, TarballWriter};
use strake::oci::{Digest, Store};

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg/copy")
        .join(path)
}

async fn read_blob(store: &dyn Store, digest: &Digest) -> Vec<u8> {
    let mut stream = store.get_blob(digest).await.unwrap();
    let mut out = Vec::new();
    while let Some(chunk) = stream.next().await {
        out.extend_from_slice(&chunk.unwrap());
    }
    out
}

fn d(s: &str) -> Digest {
    s.parse().unwrap()
}

#[tokio::test]
async fn reads_bundle_tarball() {
    let store = TarballStore::open(fixture("bundle/out.tar")).unwrap();
    let entries = store.entries();
    assert_eq!(entries.len(), 3);
    let root = store.root_bundle().expect("root bundle label");
    assert_eq!(
        root.descriptor.digest,
        d("sha256:6c745feeeb6c72c1fc45ee336cc736ea846890fa2271f00cf777f1ceb9cbd5e5")
    );
    assert_eq!(root.tag, "v1");
    assert_eq!(
        root.refs,
        vec![
            "127.0.0.1:5000/conformance/copy/bundle@sha256:6c745feeeb6c72c1fc45ee336cc736ea846890fa2271f00cf777f1ceb9cbd5e5"
        ]
    );
    assert_eq!(store.list_tags().await.unwrap(), vec!["v1".to_string()]);
    // By tag, by digest and by full ref.
    let by_tag = store.get_manifest("v1").await.unwrap();
    assert_eq!(by_tag.digest, root.descriptor.digest);
    assert_eq!(
        by_tag.media_type,
        "application/vnd.docker.distribution.manifest.v2+json"
    );
    let app = store
        .get_manifest("127.0.0.1:5000/conformance/copy/app@sha256:113ad4c729a8f15321e890e21a5f994fdfbf51b4fb72b585a22492e9d1cf998a")
        .await
        .unwrap();
    assert_eq!(
        app.digest,
        d("sha256:113ad4c729a8f15321e890e21a5f994fdfbf51b4fb72b585a22492e9d1cf998a")
    );
    // Every blob of every image reads back and hashes to its digest.
    for entry in entries {
        let manifest = store
            .get_manifest(entry.descriptor.digest.as_str())
            .await
            .unwrap();
        for blob in manifest.references("test").unwrap() {
            assert_eq!(
                store.blob_size(&blob.digest).await.unwrap(),
                Some(blob.size)
            );
            let bytes = read_blob(&store, &blob.digest).await;
            assert_eq!(Digest::of(&bytes), blob.digest);
            assert_eq!(bytes.len() as u64, blob.size);
        }
    }
    // The config of the bundle carries the imgpkg bundle label.
    let config = read_blob(
        &store,
        &d("sha256:c5793bd8517494bb47751b621ee86463de73ff9956f93151816966f63803e3ec"),
    )
    .await;
    assert!(
        String::from_utf8(config)
            .unwrap()
            .contains(r#""dev.carvel.imgpkg.bundle":"true""#)
    );
    assert!(store.get_manifest("v2").await.is_err());
}

/// Copies every top-level entry of `src` into a writer with the same metadata and
/// returns the written bytes.
async fn rewrite(src: &TarballStore, out: &std::path::Path) -> Vec<u8> {
    let writer = TarballWriter::create(out).unwrap();
    for entry in src.entries() {
        let root = copy_image(
            src,
            entry.descriptor.digest.as_str(),
            &writer,
            None,
            &CopyOptions::default(),
        )
        .await
        .unwrap();
        assert_eq!(root, entry.descriptor);
        writer.add_image_metadata(&root.digest, ImageMetadata::from(entry));
    }
    writer.finish().await.unwrap();
    std::fs::read(out).unwrap()
}

#[tokio::test]
async fn writes_bundle_tarball_byte_for_byte() {
    let golden = fixture("bundle/out.tar");
    let src = TarballStore::open(&golden).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let written = rewrite(&src, &tmp.path().join("out.tar")).await;
    assert_eq!(written.len(), 10240);
    assert!(
        written == std::fs::read(&golden).unwrap(),
        "out.tar differs"
    );
    // Nothing but the tarball is left behind (no spool, no temp file).
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["out.tar".to_string()]);
}

#[tokio::test]
async fn reads_and_writes_nested_tarball_byte_for_byte() {
    let golden = fixture("nested/nested.tar");
    let src = TarballStore::open(&golden).unwrap();
    assert_eq!(src.entries().len(), 4);
    let root = src.root_bundle().unwrap();
    assert_eq!(
        root.descriptor.digest,
        d("sha256:9b04948e03f592d3ee8fa612758050086424405a8303210811488d231c50d601")
    );
    let expected_diff_ids: BTreeMap<Digest, String> = [(
        d("sha256:9886791a5a63eb2a2cf9eda3d193990d263657e8b07062770e6ec1bdbe7a8300"),
        "sha256:1ca4c3a0be7bd80b5288766fb2759c01779b0269a39b8adb48ba3ffdd6aaf1f3".to_string(),
    )]
    .into();
    assert_eq!(root.diff_ids, expected_diff_ids);
    let tmp = tempfile::tempdir().unwrap();
    let written = rewrite(&src, &tmp.path().join("nested.tar")).await;
    assert!(
        written == std::fs::read(&golden).unwrap(),
        "nested.tar differs"
    );
    let manifest_json = std::fs::read(fixture("nested/manifest.json")).unwrap();
    assert_eq!(&written[512..512 + manifest_json.len()], &manifest_json[..]);
}

#[tokio::test]
async fn corrupt_layer_in_tarball_is_detected() {
    let mut bytes = std::fs::read(fixture("bundle/out.tar")).unwrap();
    // The first layer entry's body starts after manifest.json (1 + 10 blocks) and
    // its own header; flip a byte in it.
    let offset = 512 * 12 + 20;
    bytes[offset] ^= 0xff;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bad.tar");
    std::fs::write(&path, &bytes).unwrap();
    let store = TarballStore::open(&path).unwrap();
    let digest = d("sha256:09cd660910b7dbd9efa3990da55e2043143a4385d7a4d498c7e430fdfb51a6f0");
    let mut stream = store.get_blob(&digest).await.unwrap();
    let mut error = None;
    while let Some(chunk) = stream.next().await {
        if let Err(e) = chunk {
            error = Some(e.to_string());
        }
    }
    let error = error.expect("corruption must be reported");
    assert!(error.contains("does not match its digest"), "{error}");
}

#[tokio::test]
async fn writer_refuses_missing_metadata_and_leaves_nothing() {
    let src = TarballStore::open(fixture("bundle/out.tar")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.tar");
    let writer = TarballWriter::create(&out).unwrap();
    let entry = &src.entries()[0];
    copy_image(
        &src,
        entry.descriptor.digest.as_str(),
        &writer,
        None,
        &CopyOptions::default(),
    )
    .await
    .unwrap();
    let err = writer.finish().await.unwrap_err().to_string();
    assert!(err.contains("no image metadata"), "{err}");
    assert!(err.contains(entry.descriptor.digest.as_str()), "{err}");
    assert!(!out.exists());
    drop(writer);
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn writes_and_reads_an_index_with_every_platform() {
    use strake::oci::layout::LayoutStore;
    let layout = LayoutStore::open(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/imgpkg/lock/images/multiarch"),
    )
    .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("sub/index.tar");
    let writer = TarballWriter::create(&path).unwrap();
    let root = copy_image(&layout, "v1", &writer, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    let source = format!("127.0.0.1:5000/conformance/lock/multiarch@{}", root.digest);
    writer.add_image_metadata(&root.digest, ImageMetadata::from_ref(source.clone()));
    writer.finish().await.unwrap();
    assert!(writer.finish().await.is_err(), "finishing twice is refused");

    let reader = TarballStore::open(&path).unwrap();
    assert_eq!(reader.entries().len(), 1);
    let entry = &reader.entries()[0];
    assert_eq!(entry.descriptor, root);
    assert_eq!(entry.tag, "v1", "the tag given to put_manifest is recorded");
    assert_eq!(entry.refs, vec![source.clone()]);
    assert_eq!(reader.list_tags().await.unwrap(), vec!["v1".to_string()]);
    // Every platform's manifest, config and layer reads back verified.
    let graph = strake::oci::copy::walk_image(&reader, "v1").await.unwrap();
    assert_eq!(graph.manifests.len(), 3);
    assert_eq!(graph.blobs.len(), 4);
    for blob in &graph.blobs {
        assert_eq!(
            Digest::of(&read_blob(&reader, &blob.digest).await),
            blob.digest
        );
    }
    // manifest.json has imgpkg's shape: one ImageIndex whose children are named
    // `<repo>@<child digest>` and inherit tag and OrigRef.
    let listing = std::process::Command::new("tar")
        .args(["-tvf", path.to_str().unwrap()])
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(lines.len(), 3, "{listing}");
    assert!(lines[0].starts_with("-rw-r--r-- 0/0") && lines[0].ends_with("manifest.json"));
    let names: Vec<&str> = lines
        .iter()
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert!(
        names[1].starts_with("sha256-") && names[1].ends_with(".tar.gz") && names[1] < names[2],
        "{names:?}"
    );
    let json: serde_json::Value = {
        let out = std::process::Command::new("tar")
            .args(["-xOf", path.to_str().unwrap(), "manifest.json"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let index = &json[0]["ImageIndex"];
    assert!(json[0]["Image"].is_null());
    assert_eq!(index["Digest"], root.digest.as_str());
    assert!(index["Indexes"].is_null());
    let images = index["Images"].as_array().unwrap();
    assert_eq!(images.len(), 2);
    for image in images {
        let digest = image["Manifest"]["Digest"].as_str().unwrap();
        assert_eq!(
            image["Refs"][0],
            format!("127.0.0.1:5000/conformance/lock/multiarch@{digest}")
        );
        assert_eq!(image["Tag"], "v1");
        assert_eq!(image["OrigRef"], source.as_str());
        assert!(
            image["Layers"][0]["DiffID"]
                .as_str()
                .unwrap()
                .starts_with("sha256:")
        );
    }
}

#[tokio::test]
async fn truncated_tarball_fails_clearly() {
    let bytes = std::fs::read(fixture("bundle/out.tar")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("cut.tar");
    // Drop the end-of-archive blocks and the tail of the last layer's body.
    std::fs::write(&path, &bytes[..bytes.len() - 1024 - 512 + 40]).unwrap();
    let last = d("sha256:a33fea1bd8e6d139c197c02de02ed80334321536e2d6223a653fc87e097ce0ad");
    let message = match TarballStore::open(&path) {
        Err(e) => e.to_string(),
        Ok(store) => {
            let mut stream = store.get_blob(&last).await.unwrap();
            let mut error = None;
            while let Some(chunk) = stream.next().await {
                if let Err(e) = chunk {
                    error = Some(e.to_string());
                }
            }
            error.expect("a cut layer must not read as complete")
        }
    };
    assert!(message.contains("cut.tar"), "{message}");
}
