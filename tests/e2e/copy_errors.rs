//! `strake copy` error texts name the image, the blob, the registries and the
//! cause: a blob missing at the source, a destination that refuses the push
//! (401 without credentials, and with wrong ones), a missing source image and
//! one missing behind the bundle that locks it; and
//! nothing is tagged at the destination after such a failure.

use crate::copy_support::two_registries_with_content;
use crate::support::cli::{run_err, strake};
use crate::support::content::block_on;
use crate::support::fault_proxy::{Fault, FaultProxy};
use crate::support::registry::TestRegistry;

#[test]
fn a_blob_missing_at_the_source_is_named_with_its_image_and_both_registries() {
    let (a, b, home, _content) = two_registries_with_content(1024);
    // The plain image's layer: drop its data from the source registry's storage.
    let manifest: serde_json::Value =
        serde_json::from_slice(&block_on(a.pusher().get("src/plain", "manifests/v1"))).unwrap();
    let layer = manifest["layers"][0]["digest"]
        .as_str()
        .unwrap()
        .to_string();
    let hex = layer.strip_prefix("sha256:").unwrap();
    let data = a
        .storage()
        .join("docker/registry/v2/blobs/sha256")
        .join(&hex[..2])
        .join(hex)
        .join("data");
    std::fs::remove_file(&data).unwrap();
    let err = run_err(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/plain:v1", a.addr()),
        "--to-repo",
        &format!("{}/dst", b.addr()),
    ]));
    eprintln!("{err}");
    for part in [
        format!("{}/src/plain:v1", a.addr()),
        layer.clone(),
        format!("{}/src/plain", a.addr()),
        format!("{}/dst", b.addr()),
        "not found".to_string(),
    ] {
        assert!(err.contains(&part), "{part:?} missing from: {err}");
    }
    assert_eq!(
        block_on(b.pusher().status("dst", "tags/list")),
        404,
        "nothing tagged"
    );
}

#[test]
fn an_image_missing_behind_a_bundle_is_named_with_the_bundle_that_locks_it() {
    let (a, b, home, _content) = two_registries_with_content(1024);
    let gone = format!("{}/src/gone@sha256:{}", a.addr(), "0".repeat(64));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".imgpkg")).unwrap();
    std::fs::write(
        dir.path().join(".imgpkg/images.yml"),
        format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: {gone}\n"
        ),
    )
    .unwrap();
    let bundle = format!("{}/src/broken:v1", a.addr());
    crate::support::cli::run_ok(strake(home.path()).args([
        "bundle",
        "push",
        "-b",
        &bundle,
        "-f",
        dir.path().to_str().unwrap(),
    ]));
    let err = run_err(strake(home.path()).args([
        "copy",
        "-b",
        &bundle,
        "--to-repo",
        &format!("{}/dst", b.addr()),
    ]));
    eprintln!("{err}");
    for part in [
        gone.as_str(),
        "locked by bundle",
        &format!("{}/src/broken@sha256:", a.addr()),
        "not found",
    ] {
        assert!(err.contains(part), "{part:?} missing from: {err}");
    }
    assert_eq!(
        block_on(b.pusher().status("dst", "tags/list")),
        404,
        "nothing tagged"
    );
}

#[test]
fn a_destination_refusing_the_push_is_named_with_the_image_the_blob_and_the_cause() {
    let (a, _b, home, _content) = two_registries_with_content(1024);
    let locked = TestRegistry::with_htpasswd("user", "secret");
    // No credentials at all, then wrong ones.
    for extra in [
        vec![],
        vec![
            "--registry-username",
            "user",
            "--registry-password",
            "wrong",
        ],
    ] {
        let mut cmd = strake(home.path());
        cmd.args([
            "copy",
            "-i",
            &format!("{}/src/plain:v1", a.addr()),
            "--to-repo",
            &format!("{}/dst", locked.addr()),
        ]);
        cmd.args(&extra);
        let err = run_err(&mut cmd);
        eprintln!("{err}");
        for part in [
            format!("{}/src/plain:v1", a.addr()),
            format!("{}/dst", locked.addr()),
            format!("from {}/src/plain to {}/dst", a.addr(), locked.addr()),
            "sha256:".to_string(),
            "authentication required".to_string(),
        ] {
            assert!(err.contains(&part), "{part:?} missing from: {err}");
        }
    }
}

#[test]
fn a_missing_source_image_is_named_with_its_registry() {
    let (a, b, home, _content) = two_registries_with_content(1024);
    let err = run_err(strake(home.path()).args([
        "copy",
        "-b",
        &format!("{}/src/nothere:v9", a.addr()),
        "--to-repo",
        &format!("{}/dst", b.addr()),
    ]));
    eprintln!("{err}");
    assert!(
        err.contains(&format!("{}/src/nothere", a.addr())) && err.contains("v9"),
        "{err}"
    );
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn a_destination_answering_403_to_uploads_or_manifests_is_named_with_the_image() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let proxy = FaultProxy::start(&b.addr());
    let plain = format!("{}/src/plain:v1", a.addr());
    // 403 to every blob upload: the error names the image, the blob and both ends.
    proxy.inject(
        Some("POST"),
        "/blobs/uploads/",
        Fault::status(403),
        usize::MAX,
    );
    let err = run_err(strake(home.path()).args([
        "copy",
        "-i",
        &plain,
        "--to-repo",
        &format!("{}/dst", proxy.addr()),
    ]));
    eprintln!("{err}");
    for part in [
        format!("image {plain}: blob sha256:"),
        format!("from {}/src/plain to {}/dst", a.addr(), proxy.addr()),
        "403".to_string(),
    ] {
        assert!(err.contains(&part), "{part:?} missing from: {err}");
    }
    assert_eq!(
        block_on(b.pusher().status("dst", "tags/list")),
        404,
        "nothing tagged"
    );

    // Blobs go in, the manifest is refused: the image and the registry are named.
    proxy.clear();
    proxy.inject(Some("PUT"), "/manifests/", Fault::status(403), usize::MAX);
    let err = run_err(strake(home.path()).args([
        "copy",
        "-i",
        &plain,
        "--to-repo",
        &format!("{}/dst", proxy.addr()),
    ]));
    eprintln!("{err}");
    for part in [
        format!("image {plain}"),
        format!("{}/dst", proxy.addr()),
        content.images[3].clone(),
        "403".to_string(),
    ] {
        assert!(err.contains(&part), "{part:?} missing from: {err}");
    }
    assert_eq!(
        block_on(b.pusher().status("dst", "tags/list")),
        404,
        "nothing tagged"
    );
}
