//! OCI image layouts: reading the fixture layouts (made by skopeo), copying images
//! and indexes between layouts, and interoperating with the real `skopeo`.

use std::path::{Path, PathBuf};
use std::process::Command;

use futures_util::StreamExt;
use strake::oci::copy::{CopyOptions, copy_image, walk_image};
use strake::oci::layout::LayoutStore;
use strake::oci::{Digest, Store, media_types};

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg")
        .join(path)
}

/// `(layout dir, ref name, digest, media type)` from an `images.txt`.
fn images_txt(dir: &str) -> Vec<(String, String, Digest, String)> {
    std::fs::read_to_string(fixture(dir).join("images.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[3].parse().unwrap(),
                f[4].to_string(),
            )
        })
        .collect()
}

async fn read_all(store: &dyn Store, digest: &Digest) -> Vec<u8> {
    let mut s = store.get_blob(digest).await.unwrap();
    let mut out = Vec::new();
    while let Some(c) = s.next().await {
        out.extend_from_slice(&c.unwrap());
    }
    out
}

/// Checks that every manifest and blob of `reference` is in `store` and verifies.
async fn assert_complete(store: &dyn Store, reference: &str) -> usize {
    let graph = walk_image(store, reference).await.unwrap();
    for blob in &graph.blobs {
        let bytes = read_all(store, &blob.digest).await;
        assert_eq!(Digest::of(&bytes), blob.digest);
        assert_eq!(bytes.len() as u64, blob.size);
    }
    graph.manifests.len()
}

fn skopeo(args: &[&str]) -> String {
    let out = Command::new("/usr/bin/skopeo")
        .args(args)
        .output()
        .expect("run skopeo");
    assert!(
        out.status.success(),
        "skopeo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn no_temp_files(dir: &Path) {
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy();
        assert!(!name.starts_with(".strake-tmp-"), "left over: {name}");
    }
}

#[tokio::test]
async fn reads_fixture_layouts_with_their_digests() {
    let mut seen = 0;
    for set in ["lock/images", "copy/images"] {
        for (dir, ref_name, digest, media_type) in images_txt(set) {
            let store = LayoutStore::open(fixture(set).join(&dir)).unwrap();
            let desc = store.resolve(&ref_name).await.unwrap().unwrap();
            assert_eq!(desc.digest, digest, "{set}/{dir}");
            assert_eq!(desc.media_type, media_type);
            assert_eq!(store.list_tags().await.unwrap(), vec![ref_name.clone()]);
            let manifest = store.get_manifest(&ref_name).await.unwrap();
            assert_eq!(manifest.digest, digest);
            let manifests = assert_complete(&store, &ref_name).await;
            let expected = if media_types::is_index(&media_type) {
                3
            } else {
                1
            };
            assert_eq!(manifests, expected, "{set}/{dir}");
            seen += 1;
        }
    }
    assert_eq!(seen, 7);
}

#[tokio::test]
async fn copies_an_index_with_every_platform_between_layouts() {
    let src = LayoutStore::open(fixture("lock/images/multiarch")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dst = LayoutStore::create(tmp.path().join("new/dst")).unwrap();
    let root = copy_image(
        &src,
        "v1",
        &dst,
        Some("ghcr.io/acme/multi:v1"),
        &CopyOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(
        root.digest.as_str(),
        "sha256:aa409817c6ab58f7ca4a26b8754d51fe966fe10928d30ea9677200423a19ba42"
    );
    assert_eq!(root.media_type, media_types::OCI_INDEX);
    assert_eq!(
        dst.list_tags().await.unwrap(),
        vec!["ghcr.io/acme/multi:v1".to_string()]
    );
    assert_eq!(assert_complete(&dst, "ghcr.io/acme/multi:v1").await, 3);
    // Children are listed untagged only if nothing else names them: here only the
    // root has an entry plus one untagged entry per child.
    let entries = dst.entries().await.unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(entries.iter().filter(|e| e.ref_name.is_some()).count(), 1);
    // Copying again changes nothing.
    copy_image(
        &src,
        "v1",
        &dst,
        Some("ghcr.io/acme/multi:v1"),
        &CopyOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(dst.entries().await.unwrap(), entries);
    // A second image joins the same layout under another name.
    let app = LayoutStore::open(fixture("lock/images/app")).unwrap();
    copy_image(
        &app,
        "v1",
        &dst,
        Some("app"),
        &CopyOptions {
            concurrency: 1,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        dst.list_tags().await.unwrap(),
        vec!["app".to_string(), "ghcr.io/acme/multi:v1".to_string()]
    );
    no_temp_files(tmp.path());
}

#[tokio::test]
async fn a_failed_copy_leaves_no_tag() {
    let tmp = tempfile::tempdir().unwrap();
    // A source layout with one layer blob missing.
    let src_dir = tmp.path().join("src");
    let fixture_dir = fixture("lock/images/app");
    for entry in walkdir::WalkDir::new(&fixture_dir) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(&fixture_dir).unwrap();
        let to = src_dir.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    let src = LayoutStore::open(&src_dir).unwrap();
    let graph = walk_image(&src, "v1").await.unwrap();
    let layer = graph.blobs.last().unwrap().digest.clone();
    std::fs::remove_file(src_dir.join("blobs/sha256").join(layer.hex())).unwrap();
    let dst = LayoutStore::create(tmp.path().join("dst")).unwrap();
    let err = copy_image(&src, "v1", &dst, Some("v1"), &CopyOptions::default())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(layer.as_str()) && err.contains("not found"),
        "{err}"
    );
    assert!(dst.list_tags().await.unwrap().is_empty());
    assert!(dst.entries().await.unwrap().is_empty());
    // A corrupted blob is refused the same way, naming the digest.
    std::fs::write(src_dir.join("blobs/sha256").join(layer.hex()), b"corrupt").unwrap();
    let err = copy_image(&src, "v1", &dst, Some("v1"), &CopyOptions::default())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains(layer.as_str()), "{err}");
    assert!(dst.list_tags().await.unwrap().is_empty());
    assert_eq!(dst.blob_size(&layer).await.unwrap(), None);
    no_temp_files(tmp.path());
}

#[tokio::test]
async fn skopeo_reads_our_layouts_and_we_read_skopeos() {
    let tmp = tempfile::tempdir().unwrap();
    // We write an index and an image into a layout.
    let ours = LayoutStore::create(tmp.path().join("ours")).unwrap();
    let multi = LayoutStore::open(fixture("lock/images/multiarch")).unwrap();
    let app = LayoutStore::open(fixture("copy/images/app")).unwrap();
    let multi_root = copy_image(&multi, "v1", &ours, Some("multi"), &CopyOptions::default())
        .await
        .unwrap();
    let app_root = copy_image(&app, "v1", &ours, Some("app"), &CopyOptions::default())
        .await
        .unwrap();
    let ours_dir = ours.dir().display().to_string();
    // skopeo sees exactly our manifest bytes.
    let raw = skopeo(&["inspect", "--raw", &format!("oci:{ours_dir}:app")]);
    assert_eq!(Digest::of(raw.as_bytes()), app_root.digest);
    let raw = skopeo(&["inspect", "--raw", &format!("oci:{ours_dir}:multi")]);
    assert_eq!(Digest::of(raw.as_bytes()), multi_root.digest);
    // skopeo copies out of our layout into its own (every platform, digests kept).
    let theirs = tmp.path().join("theirs");
    let theirs_dir = theirs.display().to_string();
    for tag in ["multi", "app"] {
        skopeo(&[
            "copy",
            "--all",
            "--preserve-digests",
            &format!("oci:{ours_dir}:{tag}"),
            &format!("oci:{theirs_dir}:{tag}"),
        ]);
    }
    // We read skopeo's layout with the digests preserved.
    let theirs = LayoutStore::open(&theirs).unwrap();
    assert_eq!(
        theirs.list_tags().await.unwrap(),
        vec!["app".to_string(), "multi".to_string()]
    );
    assert_eq!(theirs.resolve("multi").await.unwrap().unwrap(), multi_root);
    assert_eq!(theirs.resolve("app").await.unwrap().unwrap(), app_root);
    assert_eq!(assert_complete(&theirs, "multi").await, 3);
    assert_eq!(assert_complete(&theirs, "app").await, 1);
}

#[tokio::test]
async fn non_distributable_layers_are_skipped_unless_asked() {
    use bytes::Bytes;
    use strake::oci::stream::bytes_stream;
    use strake::oci::{Descriptor, ManifestBytes};
    let tmp = tempfile::tempdir().unwrap();
    let src = LayoutStore::create(tmp.path().join("src")).unwrap();
    let config = Bytes::from_static(br#"{"rootfs":{"type":"layers","diff_ids":[]}}"#);
    let config_desc = Descriptor {
        media_type: media_types::OCI_CONFIG.into(),
        digest: Digest::of(&config),
        size: config.len() as u64,
    };
    src.put_blob(&config_desc, bytes_stream(config.clone()))
        .await
        .unwrap();
    let foreign = Bytes::from_static(b"foreign layer bytes");
    let foreign_digest = Digest::of(&foreign);
    let manifest = format!(
        r#"{{"schemaVersion":2,"mediaType":"{}","config":{{"mediaType":"{}","digest":"{}","size":{}}},"layers":[{{"mediaType":"{}","digest":"{}","size":{}}}]}}"#,
        media_types::OCI_MANIFEST,
        media_types::OCI_CONFIG,
        config_desc.digest,
        config_desc.size,
        media_types::OCI_LAYER_NONDIST_GZIP,
        foreign_digest,
        foreign.len()
    );
    let manifest = ManifestBytes::new(media_types::OCI_MANIFEST, manifest.into_bytes());
    // The source does not hold the foreign layer (it lives elsewhere, by URL).
    src.put_manifest(&manifest, Some("v1")).await.unwrap();
    let dst = LayoutStore::create(tmp.path().join("dst")).unwrap();
    let root = copy_image(&src, "v1", &dst, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    assert_eq!(root.digest, manifest.digest);
    assert_eq!(dst.blob_size(&foreign_digest).await.unwrap(), None);
    assert_eq!(
        dst.blob_size(&config_desc.digest).await.unwrap(),
        Some(config_desc.size)
    );
    // Asking for non-distributable layers copies them, so a missing one fails.
    let dst2 = LayoutStore::create(tmp.path().join("dst2")).unwrap();
    let opts = CopyOptions {
        include_non_distributable: true,
        ..CopyOptions::default()
    };
    let err = copy_image(&src, "v1", &dst2, Some("v1"), &opts)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains(foreign_digest.as_str()), "{err}");
    assert!(dst2.list_tags().await.unwrap().is_empty());
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                out.push(
                    e.path()
                        .strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn streamed_blob_of_unknown_digest_is_renamed_into_place_once_hashed() {
    use bytes::Bytes;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("layout");
    let store = LayoutStore::create(&dir).unwrap();
    let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let pieces: Vec<strake::oci::Result<Bytes>> = data
        .chunks(65_536)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    let desc = store
        .put_blob_stream(
            media_types::DOCKER_LAYER_GZIP,
            Box::pin(futures_util::stream::iter(pieces)),
        )
        .await
        .unwrap();
    assert_eq!(desc.media_type, media_types::DOCKER_LAYER_GZIP);
    assert_eq!(desc.digest, Digest::of(&data));
    assert_eq!(desc.size, data.len() as u64);
    let blob = format!("blobs/sha256/{}", desc.digest.hex());
    assert_eq!(std::fs::read(dir.join(&blob)).unwrap(), data);
    assert_eq!(read_all(&store, &desc.digest).await, data);
    assert_eq!(
        files_under(&dir),
        vec![blob.clone(), "index.json".into(), "oci-layout".into()]
    );

    // The same bytes again: same descriptor, still one file.
    let again = store
        .put_blob_stream(
            media_types::DOCKER_LAYER_GZIP,
            strake::oci::stream::bytes_stream(Bytes::from(data.clone())),
        )
        .await
        .unwrap();
    assert_eq!(again, desc);

    // A failing producer: the error comes back and no file is left behind.
    let failing: Vec<strake::oci::Result<Bytes>> = vec![
        Ok(Bytes::from_static(b"partial bytes")),
        Err(strake::oci::OciError::io(
            "test producer",
            std::io::Error::other("disk on fire"),
        )),
    ];
    let err = store
        .put_blob_stream(
            "application/x-test",
            Box::pin(futures_util::stream::iter(failing)),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("disk on fire"), "{err}");
    assert_eq!(
        files_under(&dir),
        vec![blob, "index.json".into(), "oci-layout".into()]
    );
}
