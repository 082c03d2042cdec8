//! Bundles against the real registry (`/usr/bin/docker-registry`, started per
//! test by tests/support): push/pull round trip, imgpkg's tags, the images.yml
//! rewrite on pull (all images present, locations image, not relocated), the
//! layer cache, recursive pulls of relocated nested bundles, and the CLI.

use crate::support;
use crate::support_bundle;

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use assert_cmd::Command;
use strake::bundle::cache::LayerCache;
use strake::bundle::lockfiles::{ImageLocation, ImageLocations};
use strake::bundle::pull::{PullOptions, pull_bundle};
use strake::bundle::push::{PushOptions, push_bundle, push_image};
use strake::oci::registry::{RegistryClient, RegistryStore};
use strake::oci::{Store, media_types};
use support::registry::TestRegistry;

fn write(path: &Path, text: &str, mode: u32) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn repo(reg: &TestRegistry, name: &str) -> RegistryStore {
    RegistryClient::new(reg.client_options())
        .unwrap()
        .repository(&reg.addr(), name)
}

fn opts(cache: Option<&Path>) -> PushOptions {
    PushOptions {
        threads: 2,
        cache: cache.map(LayerCache::at),
        ..PushOptions::default()
    }
}

fn lock_with(images: &[(String, &str)]) -> String {
    let mut s = String::from("---\napiVersion: imgpkg.carvel.dev/v1alpha1\nimages:\n");
    for (image, id) in images {
        s.push_str(&format!(
            "- annotations:\n    kbld.carvel.dev/id: {id}\n  image: {image}\n"
        ));
    }
    s.push_str("kind: ImagesLock\n");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_and_pull_through_a_real_registry() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    write(
        &src.join(".imgpkg/images.yml"),
        "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages: []\n",
        0o644,
    );
    write(&src.join("config/app.yml"), "kind: ConfigMap\n", 0o644);
    write(&src.join("bin/run.sh"), "#!/bin/sh\n", 0o755);
    let store = repo(&reg, "bundles/app");
    let cache = tmp.path().join("cache");
    let pushed = push_bundle(
        &store,
        "v1",
        std::slice::from_ref(&src),
        &opts(Some(&cache)),
    )
    .await
    .unwrap();
    assert_eq!(
        pushed.reference,
        format!("{}/bundles/app@{}", reg.addr(), pushed.digest)
    );
    assert!(reg.stores_blob(pushed.layer.digest.as_str()));
    let tags = store.list_tags().await.unwrap();
    assert_eq!(
        tags,
        vec![
            format!("{}.imgpkg", pushed.digest.dashed()),
            "v1".to_string()
        ]
    );
    let m = store.get_manifest("v1").await.unwrap();
    assert_eq!(m.media_type, media_types::DOCKER_MANIFEST);
    assert_eq!(m.digest, pushed.digest);

    // Again, to another tag: the cached layer is reused, nothing recompressed.
    let again = push_bundle(
        &store,
        "v2",
        std::slice::from_ref(&src),
        &opts(Some(&cache)),
    )
    .await
    .unwrap();
    assert!(again.layer_reused && !again.layer_uploaded);
    assert_eq!(again.digest, pushed.digest);

    let out = tmp.path().join("out");
    let report = pull_bundle(&store, "v1", &out, &PullOptions::default(), None)
        .await
        .unwrap();
    assert_eq!(report.bundles[0].digest, pushed.digest);
    assert_eq!(
        fs::read_to_string(out.join("config/app.yml")).unwrap(),
        "kind: ConfigMap\n"
    );
    let mode = fs::metadata(out.join("bin/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o700, 0o700);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pull_rewrites_images_yml_only_when_relocated() {
    let reg = TestRegistry::start();
    let pusher = reg.pusher();
    let app = pusher
        .push_image(
            "relocated/b",
            "app",
            media_types::DOCKER_MANIFEST,
            &[b"layer-a"],
        )
        .await;
    let tmp = tempfile::tempdir().unwrap();

    // Every image is in the bundle repo: rewritten to <bundle repo>@<digest>.
    let src = tmp.path().join("src");
    let original = format!("registry.example.com/acme/app@{}", app.manifest_digest);
    let shipped = lock_with(&[(original.clone(), "registry.example.com/acme/app:v1")]);
    write(&src.join(".imgpkg/images.yml"), &shipped, 0o644);
    let store = repo(&reg, "relocated/b");
    push_bundle(&store, "v1", std::slice::from_ref(&src), &opts(None))
        .await
        .unwrap();
    let out = tmp.path().join("out");
    let report = pull_bundle(&store, "v1", &out, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(report.bundles[0].relocated);
    let want = lock_with(&[(
        format!("{}/relocated/b@{}", reg.addr(), app.manifest_digest),
        "registry.example.com/acme/app:v1",
    )]);
    assert_eq!(
        fs::read_to_string(out.join(".imgpkg/images.yml")).unwrap(),
        want
    );
    let mode = fs::metadata(out.join(".imgpkg/images.yml"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);

    // A missing image: not relocated, the file stays exactly as shipped.
    let src2 = tmp.path().join("src2");
    let missing = format!("registry.example.com/acme/gone@sha256:{}", "2".repeat(64));
    let shipped2 = lock_with(&[(original.clone(), "app"), (missing, "gone")]);
    write(&src2.join(".imgpkg/images.yml"), &shipped2, 0o644);
    push_bundle(&store, "v2", std::slice::from_ref(&src2), &opts(None))
        .await
        .unwrap();
    let out2 = tmp.path().join("out2");
    let report = pull_bundle(&store, "v2", &out2, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(!report.bundles[0].relocated);
    assert_eq!(
        fs::read_to_string(out2.join(".imgpkg/images.yml")).unwrap(),
        shipped2
    );

    // With a locations image, the bundle counts as relocated without HEADs.
    let pushed3 = push_bundle(&store, "v3", std::slice::from_ref(&src2), &opts(None))
        .await
        .unwrap();
    let locdir = tmp.path().join("loc");
    let locations = ImageLocations {
        images: vec![ImageLocation {
            image: original.clone(),
            is_bundle: false,
        }],
    };
    write(
        &locdir.join("image-locations.yml"),
        &locations.to_yaml(),
        0o644,
    );
    push_image(
        &store,
        &format!("{}.image-locations.imgpkg", pushed3.digest.dashed()),
        &[locdir.join("image-locations.yml")],
        &opts(None),
        &BTreeMap::new(),
    )
    .await
    .unwrap();
    let out3 = tmp.path().join("out3");
    let report = pull_bundle(&store, "v3", &out3, &PullOptions::default(), None)
        .await
        .unwrap();
    assert!(report.bundles[0].relocated);
    let text = fs::read_to_string(out3.join(".imgpkg/images.yml")).unwrap();
    assert!(
        text.contains(&format!(
            "image: {}/relocated/b@sha256:{}",
            reg.addr(),
            "2".repeat(64)
        )),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recursive_pull_of_a_relocated_nested_bundle() {
    let reg = TestRegistry::start();
    let pusher = reg.pusher();
    let tmp = tempfile::tempdir().unwrap();
    let store = repo(&reg, "relocated/nested");
    let app = pusher
        .push_image(
            "relocated/nested",
            "app",
            media_types::DOCKER_MANIFEST,
            &[b"app"],
        )
        .await;
    let inner = tmp.path().join("inner");
    write(
        &inner.join(".imgpkg/images.yml"),
        &lock_with(&[(
            format!("src.example.com/app@{}", app.manifest_digest),
            "app:v1",
        )]),
        0o644,
    );
    write(&inner.join("inner.yml"), "inner: 1\n", 0o644);
    let inner_pushed = push_bundle(&store, "inner", &[inner], &opts(None))
        .await
        .unwrap();
    let outer = tmp.path().join("outer");
    write(
        &outer.join(".imgpkg/images.yml"),
        &lock_with(&[(
            format!("src.example.com/inner@{}", inner_pushed.digest),
            "inner:v1",
        )]),
        0o644,
    );
    push_bundle(&store, "outer", &[outer], &opts(None))
        .await
        .unwrap();

    let out = tmp.path().join("out");
    let nested =
        support_bundle::pull_with_one_nested(&store, "outer", &out, &inner_pushed.digest).await;
    assert_eq!(
        fs::read_to_string(nested.join("inner.yml")).unwrap(),
        "inner: 1\n"
    );
    assert_eq!(
        fs::read_to_string(nested.join(".imgpkg/images.yml")).unwrap(),
        lock_with(&[(
            format!("{}/relocated/nested@{}", reg.addr(), app.manifest_digest),
            "app:v1"
        )])
    );
    assert_eq!(
        fs::read_to_string(out.join(".imgpkg/images.yml")).unwrap(),
        lock_with(&[(
            format!("{}/relocated/nested@{}", reg.addr(), inner_pushed.digest),
            "inner:v1"
        )])
    );
}

#[test]
fn cli_push_pull_describe() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    write(
        &src.join(".imgpkg/images.yml"),
        "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages: []\n",
        0o644,
    );
    write(&src.join("a.yml"), "a: 1\n", 0o644);
    let target = format!("{}/cli/bundle:v1", reg.addr());
    let lock = tmp.path().join("lock.yml");
    let out = Command::cargo_bin("strake")
        .unwrap()
        .env("STRAKE_CACHE_DIR", tmp.path().join("cache"))
        .args(["bundle", "push", "-b", &target, "-f"])
        .arg(&src)
        .arg("--lock-output")
        .arg(&lock)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let stdout = String::from_utf8(out).unwrap();
    let prefix = format!("Pushed '{}/cli/bundle@sha256:", reg.addr());
    assert!(stdout.starts_with(&prefix), "{stdout}");
    let digest_ref = stdout
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("Pushed '")
        .trim_end_matches('\'');
    assert_eq!(
        fs::read_to_string(&lock).unwrap(),
        format!(
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nbundle:\n  image: {digest_ref}\n  tag: v1\nkind: BundleLock\n"
        )
    );

    let dir = tmp.path().join("pulled");
    Command::cargo_bin("strake")
        .unwrap()
        .args(["bundle", "pull", "-b", digest_ref, "-o"])
        .arg(&dir)
        .assert()
        .success();
    assert_eq!(fs::read_to_string(dir.join("a.yml")).unwrap(), "a: 1\n");

    let json = Command::cargo_bin("strake")
        .unwrap()
        .args(["bundle", "describe", "-b", &target, "-o", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["bundle"], digest_ref);
    assert_eq!(v["images"].as_array().unwrap().len(), 0);

    let err = Command::cargo_bin("strake")
        .unwrap()
        .args([
            "bundle",
            "pull",
            "-b",
            &format!("{}/cli/bundle:nope", reg.addr()),
            "-o",
        ])
        .arg(tmp.path().join("nope"))
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("nope"), "{err}");
    assert!(!tmp.path().join("nope").exists());
}
