//! `strake copy` of a repository bundle (two package bundles, four images: a
//! multi-arch index, an image with a `.sig` tag, one with an OCI 1.1 referrer,
//! a plain one) between two real registries: registry → tarball → registry,
//! registry → registry, registry → OCI layout → registry. Every digest is kept,
//! the tags are imgpkg's, and a pull of the relocated bundle resolves every image
//! in the second registry.

use crate::copy_support::{assert_relocated, copy_to_tar, two_registries_with_content};
use crate::support::cli::{run_ok, strake};

#[test]
fn registry_to_tarball_to_second_registry() {
    let (_source, b, home, content) = two_registries_with_content(4096);
    let work = tempfile::tempdir().unwrap();
    let tarball = work.path().join("repo.tar");
    copy_to_tar(home.path(), &content.root_ref, &tarball);
    let lock = work.path().join("lock.yml");
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "--tar",
        tarball.to_str().unwrap(),
        "--to-repo",
        &format!("{}/air/gapped", b.addr()),
        "--lock-output",
        lock.to_str().unwrap(),
    ]));
    assert_eq!(
        out.trim(),
        format!("{}/air/gapped@{}", b.addr(), content.root)
    );
    let lock = std::fs::read_to_string(lock).unwrap();
    assert!(
        lock.contains(&format!("image: {}/air/gapped@{}", b.addr(), content.root))
            && lock.contains("tag: v1"),
        "{lock}"
    );
    assert_relocated(&b, "air/gapped", &content, home.path());
}

#[test]
fn registry_to_second_registry() {
    let (_source, b, home, content) = two_registries_with_content(4096);
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &format!("{}/direct/copy", b.addr()),
    ]));
    assert_relocated(&b, "direct/copy", &content, home.path());
    for blob in &content.blobs {
        assert!(b.stores_blob(blob), "{blob}");
    }
}

#[test]
fn registry_to_oci_layout_to_second_registry() {
    let (_source, b, home, content) = two_registries_with_content(4096);
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("layout");
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-oci-layout",
        dir.to_str().unwrap(),
    ]));
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &format!("oci:{}:v1", dir.display()),
        "--to-repo",
        &format!("{}/from/layout", b.addr()),
    ]));
    assert_relocated(&b, "from/layout", &content, home.path());
}
