//! The tags `strake copy --to-repo` writes besides the generated
//! `sha256-<hex>.imgpkg` ones, as imgpkg does: `-i repo:TAG` keeps `TAG` (also
//! through a tarball and an OCI layout), a BundleLock's tag and `-b repo:TAG`
//! keep theirs, an ImagesLock and a digest reference add none, and a tag two
//! images claim goes to the first only.

use crate::copy_support::two_registries_with_content;
use crate::support::cli::{run_ok, strake};
use crate::support::content::block_on;
use crate::support::registry::TestRegistry;

fn dashed(digest: &str) -> String {
    digest.replace(':', "-")
}

fn sorted_tags(registry: &TestRegistry, repo: &str) -> Vec<String> {
    let mut tags = block_on(registry.pusher().tags(repo));
    tags.sort();
    tags
}

/// The digest the destination's `tag` points at.
fn tagged(registry: &TestRegistry, repo: &str, tag: &str) -> String {
    let bytes = block_on(registry.pusher().get(repo, &format!("manifests/{tag}")));
    strake::oci::Digest::of(&bytes).to_string()
}

fn sorted(mut tags: Vec<String>) -> Vec<String> {
    tags.sort();
    tags
}

#[test]
fn an_image_copied_by_tag_keeps_its_tag_and_a_digest_reference_adds_none() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let plain = &content.images[3];
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/plain:v1", a.addr()),
        "--to-repo",
        &format!("{}/one", b.addr()),
    ]));
    assert_eq!(
        sorted_tags(&b, "one"),
        sorted(vec![format!("{}.imgpkg", dashed(plain)), "v1".into()])
    );
    assert_eq!(tagged(&b, "one", "v1"), *plain);

    // A signed image: its tag, its signature's cosign tag, and both digest tags.
    let signed = &content.images[1];
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/signed:v1", a.addr()),
        "--to-repo",
        &format!("{}/signed", b.addr()),
    ]));
    assert_eq!(
        sorted_tags(&b, "signed"),
        sorted(vec![
            format!("{}.imgpkg", dashed(signed)),
            format!("{}.sig", dashed(signed)),
            format!("{}.imgpkg", dashed(&content.signature)),
            "v1".into(),
        ])
    );
    assert_eq!(tagged(&b, "signed", "v1"), *signed);

    // By digest: the generated tag only.
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/plain@{plain}", a.addr()),
        "--to-repo",
        &format!("{}/bydigest", b.addr()),
    ]));
    assert_eq!(
        sorted_tags(&b, "bydigest"),
        vec![format!("{}.imgpkg", dashed(plain))]
    );
}

#[test]
fn a_tag_two_images_claim_goes_to_the_first_with_a_warning() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let (_, err) = run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/multi:v1", a.addr()),
        "-i",
        &format!("{}/src/plain:v1", a.addr()),
        "--to-repo",
        &format!("{}/both", b.addr()),
    ]));
    assert_eq!(tagged(&b, "both", "v1"), content.images[0]);
    assert!(
        err.contains("tag v1 is kept for") && err.contains("src/plain:v1"),
        "{err}"
    );
    let tags = sorted_tags(&b, "both");
    assert_eq!(
        tags,
        sorted(vec![
            format!("{}.imgpkg", dashed(&content.images[0])),
            format!("{}.imgpkg", dashed(&content.images[3])),
            "v1".into(),
        ])
    );
}

#[test]
fn a_tagged_image_keeps_its_tag_through_a_tarball_and_an_oci_layout() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let plain = &content.images[3];
    let work = tempfile::tempdir().unwrap();
    let tarball = work.path().join("plain.tar");
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/plain:v1", a.addr()),
        "--to-tar",
        tarball.to_str().unwrap(),
    ]));
    run_ok(strake(home.path()).args([
        "copy",
        "--tar",
        tarball.to_str().unwrap(),
        "--to-repo",
        &format!("{}/fromtar", b.addr()),
    ]));
    assert_eq!(
        sorted_tags(&b, "fromtar"),
        sorted(vec![format!("{}.imgpkg", dashed(plain)), "v1".into()])
    );
    assert_eq!(tagged(&b, "fromtar", "v1"), *plain);

    // An OCI layout names the image v1 too, so `oci:DIR:v1` finds it.
    let dir = work.path().join("layout");
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("{}/src/plain:v1", a.addr()),
        "--to-oci-layout",
        dir.to_str().unwrap(),
    ]));
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("oci:{}:v1", dir.display()),
        "--to-repo",
        &format!("{}/fromlayout", b.addr()),
    ]));
    assert_eq!(tagged(&b, "fromlayout", "v1"), *plain);
}

#[test]
fn bundles_keep_their_tag_from_a_reference_and_from_a_bundle_lock() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let expected = |repo_tag: &str| {
        let mut tags = vec![repo_tag.to_string()];
        for d in [&content.root]
            .into_iter()
            .chain(&content.packages)
            .chain(&content.images)
            .chain([&content.signature, &content.referrers_index])
        {
            tags.push(format!("{}.imgpkg", dashed(d)));
        }
        tags
    };
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &format!("{}/byref", b.addr()),
    ]));
    let tags = sorted_tags(&b, "byref");
    for tag in expected("v1") {
        assert!(tags.contains(&tag), "{tag} missing from {tags:#?}");
    }
    assert_eq!(tagged(&b, "byref", "v1"), content.root);
    // The packages' own tags (1.0.0, 2.0.0) are not in images.yml, so not copied.
    assert!(!tags.contains(&"1.0.0".to_string()), "{tags:#?}");

    let work = tempfile::tempdir().unwrap();
    let lock = work.path().join("bundle.lock.yml");
    std::fs::write(
        &lock,
        format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: BundleLock\nbundle:\n  image: {}/src/repo-bundle@{}\n  tag: release-7\n",
            a.addr(),
            content.root
        ),
    )
    .unwrap();
    run_ok(strake(home.path()).args([
        "copy",
        "--lock",
        lock.to_str().unwrap(),
        "--to-repo",
        &format!("{}/bylock", b.addr()),
    ]));
    let tags = sorted_tags(&b, "bylock");
    for tag in expected("release-7") {
        assert!(tags.contains(&tag), "{tag} missing from {tags:#?}");
    }
    assert!(!tags.contains(&"v1".to_string()), "{tags:#?}");
    assert_eq!(tagged(&b, "bylock", "release-7"), content.root);
}

#[test]
fn an_images_lock_adds_no_tag_even_for_a_tagged_reference() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let plain = &content.images[3];
    let work = tempfile::tempdir().unwrap();
    let lock = work.path().join("images.lock.yml");
    std::fs::write(
        &lock,
        format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: {}/src/plain:v1@{plain}\n",
            a.addr()
        ),
    )
    .unwrap();
    run_ok(strake(home.path()).args([
        "copy",
        "--lock",
        lock.to_str().unwrap(),
        "--to-repo",
        &format!("{}/fromlock", b.addr()),
    ]));
    assert_eq!(
        sorted_tags(&b, "fromlock"),
        vec![format!("{}.imgpkg", dashed(plain))]
    );
}
