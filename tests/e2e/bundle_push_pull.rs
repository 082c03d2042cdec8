//! Push and pull bundles through an OCI image layout: round trips (content and
//! modes as imgpkg keeps them), reproducible digests for any thread count, the
//! layer cache, input validation, nested bundles, and refusal of unsafe layers
//! with the target left untouched.

use crate::support_bundle;

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use strake::bundle::cache::LayerCache;
use strake::bundle::image::{bundle_labels, config_json, manifest};
use strake::bundle::layer::write_uncompressed;
use strake::bundle::pull::{PullOptions, pull_bundle, read_small_blob};
use strake::bundle::push::{PushOptions, push_bundle};
use strake::bundle::tar::{TarOptions, plan};
use strake::oci::layout::LayoutStore;
use strake::oci::stream::bytes_stream;
use strake::oci::{Descriptor, Digest, Store, media_types};

const HEX: &str = "1111111111111111111111111111111111111111111111111111111111111111";

fn umask() -> u32 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("Umask:")).unwrap();
    u32::from_str_radix(line.split_whitespace().nth(1).unwrap(), 8).unwrap()
}

fn write(path: &Path, text: &str, mode: u32) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn images_yml(images: &[(&str, &str)]) -> String {
    let mut s = String::from("apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\n");
    if images.is_empty() {
        s.push_str("images: []\n");
    } else {
        s.push_str("images:\n");
        for (image, id) in images {
            s.push_str(&format!(
                "- image: {image}\n  annotations:\n    kbld.carvel.dev/id: {id}\n"
            ));
        }
    }
    s
}

/// A small bundle directory with mixed modes, an empty dir and a nested dir.
fn sample_bundle(root: &Path) {
    write(&root.join(".imgpkg/images.yml"), &images_yml(&[]), 0o644);
    write(&root.join("config/app.yml"), "kind: ConfigMap\n", 0o644);
    write(&root.join("config/run.sh"), "#!/bin/sh\necho hi\n", 0o755);
    write(&root.join("config/private.txt"), "secret\n", 0o600);
    write(&root.join("config/shared.txt"), "shared\n", 0o640);
    write(&root.join("readonly.txt"), "ro\n", 0o444);
    fs::create_dir_all(root.join("empty/inner")).unwrap();
}

fn options(cache: Option<&Path>, threads: usize) -> PushOptions {
    PushOptions {
        threads,
        cache: cache.map(LayerCache::at),
        ..PushOptions::default()
    }
}

fn mode_of(p: &Path) -> u32 {
    fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn push_then_pull_round_trips_through_a_layout() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    sample_bundle(&src);
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let pushed = push_bundle(&store, "v1", std::slice::from_ref(&src), &options(None, 2))
        .await
        .unwrap();
    assert_eq!(
        pushed.reference,
        format!(
            "oci:{}@{}",
            tmp.path().join("layout").display(),
            pushed.digest
        )
    );
    let tags = store.list_tags().await.unwrap();
    assert!(tags.contains(&"v1".to_string()), "{tags:?}");
    assert!(
        tags.contains(&format!("{}.imgpkg", pushed.digest.dashed())),
        "{tags:?}"
    );

    // The manifest and config are imgpkg's; the layer gunzips to our exact tar.
    let m = store.get_manifest("v1").await.unwrap();
    assert_eq!(m.digest, pushed.digest);
    let refs = m.references("t").unwrap();
    let config = read_small_blob(&store, &refs[0]).await.unwrap();
    assert_eq!(
        config,
        config_json(&pushed.diff_id, &bundle_labels(&BTreeMap::new()))
    );
    let gz = read_small_blob(&store, &refs[1]).await.unwrap();
    let mut tar = Vec::new();
    flate2::read::MultiGzDecoder::new(&gz[..])
        .read_to_end(&mut tar)
        .unwrap();
    let mut want = Vec::new();
    write_uncompressed(
        &plan(std::slice::from_ref(&src), &TarOptions::default()).unwrap(),
        &mut want,
    )
    .unwrap();
    assert_eq!(tar, want);
    assert_eq!(Digest::of(&tar), pushed.diff_id);

    // Pull: same content; modes per imgpkg (owner bits copied when group/other empty).
    let out = tmp.path().join("out");
    let report = pull_bundle(&store, "v1", &out, &PullOptions::default(), None)
        .await
        .unwrap();
    assert_eq!(report.bundles.len(), 1);
    assert_eq!(report.bundles[0].digest, pushed.digest);
    let mask = umask();
    for (rel, text, mode) in [
        ("config/app.yml", "kind: ConfigMap\n", 0o666),
        ("config/run.sh", "#!/bin/sh\necho hi\n", 0o777),
        ("config/private.txt", "secret\n", 0o666),
        ("config/shared.txt", "shared\n", 0o666),
        ("readonly.txt", "ro\n", 0o444),
    ] {
        assert_eq!(fs::read_to_string(out.join(rel)).unwrap(), text, "{rel}");
        assert_eq!(mode_of(&out.join(rel)), mode & !mask, "{rel}");
    }
    assert!(out.join("empty/inner").is_dir());
    assert_eq!(mode_of(&out.join("empty")), 0o777 & !mask);
    // A layout has no repository to relocate to: images.yml is kept as shipped.
    assert_eq!(
        fs::read_to_string(out.join(".imgpkg/images.yml")).unwrap(),
        images_yml(&[])
    );
    // No staging directories are left next to the output.
    let leftovers: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".strake"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Pulling again replaces the directory (stale files disappear).
    fs::write(out.join("stale.txt"), "x").unwrap();
    pull_bundle(&store, "v1", &out, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(!out.join("stale.txt").exists());
}

#[tokio::test]
async fn same_directory_gives_same_digest_for_any_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    sample_bundle(&src);
    // Several MiB so that the layer spans many gzip members.
    let mut big = String::new();
    for i in 0..200_000 {
        big.push_str(&format!("line {i}: value-{}\n", i * 7919 % 10007));
    }
    write(&src.join("data/big.txt"), &big, 0o644);
    let mut x: u64 = 42;
    let noise: Vec<u8> = (0..3_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    fs::write(src.join("data/noise.bin"), &noise).unwrap();

    let a = LayoutStore::create(tmp.path().join("a")).unwrap();
    let b = LayoutStore::create(tmp.path().join("b")).unwrap();
    let one = push_bundle(&a, "v1", std::slice::from_ref(&src), &options(None, 1))
        .await
        .unwrap();
    let all = push_bundle(&b, "v1", std::slice::from_ref(&src), &options(None, 8))
        .await
        .unwrap();
    assert_eq!(one.digest, all.digest);
    assert_eq!(one.layer, all.layer);
    assert!(one.layer.size > 2 << 20, "{}", one.layer.size);
    let again = push_bundle(&a, "v2", std::slice::from_ref(&src), &options(None, 3))
        .await
        .unwrap();
    assert_eq!(again.digest, one.digest);
    // Without a cache the layer is built and streamed again; the layout keeps its
    // one copy and no temporary file is left.
    assert_eq!(again.layer, one.layer);
    for dir in [tmp.path().join("a"), tmp.path().join("a/blobs/sha256")] {
        let hidden: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(hidden.is_empty(), "{}: {hidden:?}", dir.display());
    }
}

#[tokio::test]
async fn cache_reuses_the_compressed_layer_only_when_the_store_has_it() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    sample_bundle(&src);
    let cache = tmp.path().join("cache");
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let first = push_bundle(
        &store,
        "v1",
        std::slice::from_ref(&src),
        &options(Some(&cache), 2),
    )
    .await
    .unwrap();
    assert!(!first.layer_reused && first.layer_uploaded);
    let second = push_bundle(
        &store,
        "v2",
        std::slice::from_ref(&src),
        &options(Some(&cache), 2),
    )
    .await
    .unwrap();
    assert!(second.layer_reused);
    assert_eq!(second.digest, first.digest);

    // Another store lacks the blob: it is built and uploaded again.
    let other = LayoutStore::create(tmp.path().join("other")).unwrap();
    let third = push_bundle(
        &other,
        "v1",
        std::slice::from_ref(&src),
        &options(Some(&cache), 2),
    )
    .await
    .unwrap();
    assert!(!third.layer_reused && third.layer_uploaded);
    assert_eq!(third.digest, first.digest);

    // Changed content with the same size and a restored mtime: the diff_id check
    // catches it and the layer is rebuilt.
    let f = src.join("config/app.yml");
    let mtime = fs::metadata(&f).unwrap().modified().unwrap();
    fs::write(&f, "kind: ConfigMaq\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&f)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let fourth = push_bundle(
        &store,
        "v3",
        std::slice::from_ref(&src),
        &options(Some(&cache), 2),
    )
    .await
    .unwrap();
    assert!(!fourth.layer_reused);
    assert_ne!(fourth.digest, first.digest);
}

#[tokio::test]
async fn push_validates_imgpkg_dir_symlinks_duplicates_and_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let run = |inputs: Vec<PathBuf>, opts: PushOptions| {
        let store = &store;
        async move {
            push_bundle(store, "v1", &inputs, &opts)
                .await
                .unwrap_err()
                .to_string()
        }
    };

    let none = tmp.path().join("none");
    write(&none.join("a.yml"), "a: 1\n", 0o644);
    let err = run(vec![none.clone()], options(None, 1)).await;
    assert!(err.contains("missing .imgpkg/images.yml"), "{err}");

    let nested = tmp.path().join("nested");
    write(
        &nested.join("sub/.imgpkg/images.yml"),
        &images_yml(&[]),
        0o644,
    );
    let err = run(vec![nested.clone()], options(None, 1)).await;
    assert!(
        err.contains("direct child") && err.contains("sub/.imgpkg"),
        "{err}"
    );

    let bad_lock = tmp.path().join("badlock");
    write(
        &bad_lock.join(".imgpkg/images.yml"),
        &images_yml(&[("example.com/app:v1", "x")]),
        0o644,
    );
    let err = run(vec![bad_lock.clone()], options(None, 1)).await;
    assert!(
        err.contains("images[0].image") && err.contains("digest form"),
        "{err}"
    );

    let linked = tmp.path().join("linked");
    sample_bundle(&linked);
    std::os::unix::fs::symlink("app.yml", linked.join("config/link.yml")).unwrap();
    let err = run(vec![linked.clone()], options(None, 1)).await;
    assert!(
        err.contains("Expected file")
            && err.contains("config/link.yml")
            && err.contains("regular file"),
        "{err}"
    );
    // Even an excluded symlink is refused (imgpkg checks before excluding).
    let mut opts = options(None, 1);
    opts.tar.exclusions = vec!["config/link.yml".into()];
    let err = run(vec![linked.clone()], opts).await;
    assert!(err.contains("config/link.yml"), "{err}");

    let dup = tmp.path().join("dup");
    sample_bundle(&dup);
    let extra = tmp.path().join("extra");
    write(&extra.join("readonly.txt"), "other\n", 0o644);
    let err = run(vec![dup.clone(), extra.clone()], options(None, 1)).await;
    assert!(
        err.contains("Found duplicate paths") && err.contains("readonly.txt"),
        "{err}"
    );

    let labels = strake::bundle::image::parse_labels(&["dev.carvel.imgpkg.bundle=x".into()]);
    assert!(labels.is_err());
    assert!(
        store.list_tags().await.unwrap().is_empty(),
        "no tag after failures"
    );
}

#[tokio::test]
async fn excluded_git_dir_and_extra_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    sample_bundle(&src);
    write(&src.join(".git/HEAD"), "ref: x\n", 0o644);
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let mut opts = options(None, 1);
    opts.labels.insert("team".into(), "platform".into());
    let pushed = push_bundle(&store, "v1", std::slice::from_ref(&src), &opts)
        .await
        .unwrap();
    let m = store.get_manifest(pushed.digest.as_str()).await.unwrap();
    let config = read_small_blob(&store, &m.references("t").unwrap()[0])
        .await
        .unwrap();
    let text = String::from_utf8(config).unwrap();
    assert!(
        text.ends_with(
            "\"Labels\":{\"dev.carvel.imgpkg.bundle\":\"true\",\"team\":\"platform\"}}}"
        ),
        "{text}"
    );
    let out = tmp.path().join("out");
    pull_bundle(&store, "v1", &out, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(!out.join(".git").exists());
    assert!(out.join("config/app.yml").exists());
}

#[tokio::test]
async fn recursive_pull_puts_nested_bundles_under_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let inner = tmp.path().join("inner");
    write(&inner.join(".imgpkg/images.yml"), &images_yml(&[]), 0o644);
    write(&inner.join("inner.yml"), "inner: true\n", 0o644);
    let inner_pushed = push_bundle(&store, "inner", &[inner], &options(None, 1))
        .await
        .unwrap();
    let outer = tmp.path().join("outer");
    let inner_ref = format!("registry.example.com/acme/inner@{}", inner_pushed.digest);
    write(
        &outer.join(".imgpkg/images.yml"),
        &images_yml(&[(&inner_ref, "registry.example.com/acme/inner:v1")]),
        0o644,
    );
    write(&outer.join("outer.yml"), "outer: true\n", 0o644);
    push_bundle(&store, "outer", &[outer], &options(None, 1))
        .await
        .unwrap();

    let flat = tmp.path().join("flat");
    pull_bundle(&store, "outer", &flat, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(!flat.join(".imgpkg/bundles").exists());

    let out = tmp.path().join("out");
    let nested =
        support_bundle::pull_with_one_nested(&store, "outer", &out, &inner_pushed.digest).await;
    assert_eq!(
        fs::read_to_string(nested.join("inner.yml")).unwrap(),
        "inner: true\n"
    );
}

// ---------------------------------------------------------------------------
// Crafted bundles

enum Evil {
    File(&'static str),
    Symlink(&'static str, &'static str),
    Hardlink(&'static str, &'static str),
}

fn raw_header(name: &str, kind: u8, link: &str, size: u64) -> [u8; 512] {
    let mut h = tar::Header::new_ustar();
    {
        let old = h.as_old_mut();
        old.name[..name.len()].copy_from_slice(name.as_bytes());
        old.linkname[..link.len()].copy_from_slice(link.as_bytes());
    }
    h.set_entry_type(tar::EntryType::new(kind));
    h.set_mode(0o600);
    h.set_size(size);
    h.set_mtime(0);
    h.set_cksum();
    *h.as_bytes()
}

fn evil_layer(evil: &Evil) -> Vec<u8> {
    let mut tar = Vec::new();
    let lock = images_yml(&[]);
    tar.extend_from_slice(&raw_header(".imgpkg", b'5', "", 0));
    tar.extend_from_slice(&raw_header(
        ".imgpkg/images.yml",
        b'0',
        "",
        lock.len() as u64,
    ));
    tar.extend_from_slice(lock.as_bytes());
    tar.resize(tar.len().div_ceil(512) * 512, 0);
    match evil {
        Evil::File(name) => {
            tar.extend_from_slice(&raw_header(name, b'0', "", 5));
            tar.extend_from_slice(b"evil\n");
            tar.resize(tar.len().div_ceil(512) * 512, 0);
        }
        Evil::Symlink(name, target) => tar.extend_from_slice(&raw_header(name, b'2', target, 0)),
        Evil::Hardlink(name, target) => tar.extend_from_slice(&raw_header(name, b'1', target, 0)),
    }
    tar.extend_from_slice(&[0u8; 1024]);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

async fn put_bundle(store: &dyn Store, tag: &str, layer_gz: Vec<u8>, tar_digest: Digest) {
    let layer = Descriptor {
        media_type: media_types::DOCKER_LAYER_GZIP.into(),
        digest: Digest::of(&layer_gz),
        size: layer_gz.len() as u64,
    };
    store
        .put_blob(&layer, bytes_stream(Bytes::from(layer_gz)))
        .await
        .unwrap();
    let config = config_json(&tar_digest, &bundle_labels(&BTreeMap::new()));
    let cdesc = Descriptor {
        media_type: media_types::DOCKER_CONFIG.into(),
        digest: Digest::of(&config),
        size: config.len() as u64,
    };
    store
        .put_blob(&cdesc, bytes_stream(Bytes::from(config)))
        .await
        .unwrap();
    store
        .put_manifest(&manifest(&cdesc, &layer), Some(tag))
        .await
        .unwrap();
}

#[tokio::test]
async fn pull_refuses_unsafe_entries_and_leaves_the_target_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let cases = [
        ("dotdot", Evil::File("../evil"), "'../evil'", "'..'"),
        (
            "nested-dotdot",
            Evil::File("a/../../evil"),
            "'a/../../evil'",
            "'..'",
        ),
        (
            "absolute",
            Evil::File("/tmp/strake-evil-abs"),
            "'/tmp/strake-evil-abs'",
            "absolute",
        ),
        (
            "symlink",
            Evil::Symlink("link", "/etc/passwd"),
            "'link'",
            "symlink",
        ),
        (
            "hardlink",
            Evil::Hardlink("hard", "../../etc/passwd"),
            "'hard'",
            "hardlink",
        ),
    ];
    for (tag, evil, names, why) in &cases {
        put_bundle(&store, tag, evil_layer(evil), Digest::of(tag.as_bytes())).await;
        let parent = tmp.path().join(format!("pull-{tag}"));
        let target = parent.join("out");
        fs::create_dir_all(&target).unwrap();
        fs::write(target.join("keep.txt"), "precious").unwrap();
        let err = pull_bundle(&store, tag, &target, &PullOptions::default(), None)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains(names) && err.contains(why), "{tag}: {err}");
        let left: Vec<_> = fs::read_dir(&target)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("keep.txt")], "{tag}");
        assert_eq!(
            fs::read_to_string(target.join("keep.txt")).unwrap(),
            "precious"
        );
        let siblings: Vec<_> = fs::read_dir(&parent)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            siblings,
            vec![std::ffi::OsString::from("out")],
            "{tag}: staging left behind"
        );
        assert!(!parent.join("evil").exists() && !tmp.path().join("evil").exists());
    }
    assert!(!Path::new("/tmp/strake-evil-abs").exists());
}

#[tokio::test]
async fn pull_refuses_a_plain_image_and_a_tag_that_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let tar = vec![0u8; 1024];
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&tar).unwrap();
    let gz = gz.finish().unwrap();
    let layer = Descriptor {
        media_type: media_types::DOCKER_LAYER_GZIP.into(),
        digest: Digest::of(&gz),
        size: gz.len() as u64,
    };
    store
        .put_blob(&layer, bytes_stream(Bytes::from(gz)))
        .await
        .unwrap();
    let config = config_json(&Digest::of(&tar), &BTreeMap::new());
    let cdesc = Descriptor {
        media_type: media_types::DOCKER_CONFIG.into(),
        digest: Digest::of(&config),
        size: config.len() as u64,
    };
    store
        .put_blob(&cdesc, bytes_stream(Bytes::from(config)))
        .await
        .unwrap();
    store
        .put_manifest(&manifest(&cdesc, &layer), Some("plain"))
        .await
        .unwrap();
    let out = tmp.path().join("out");
    let err = pull_bundle(&store, "plain", &out, &PullOptions::default(), None)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("plain image"), "{err}");
    let err = pull_bundle(&store, "nope", &out, &PullOptions::default(), None)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("nope"), "{err}");
    assert!(!out.exists());
    let _ = HEX;
}
