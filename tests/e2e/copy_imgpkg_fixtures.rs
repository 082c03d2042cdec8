//! `strake copy` against imgpkg's own results (`tests/fixtures/imgpkg/copy/`, made
//! by imgpkg 0.43.1): its tarballs import into a registry with the relocated tags,
//! locations image and lock output imgpkg wrote, a pull of the relocated bundle
//! rewrites `images.yml` as imgpkg's did, and a tarball exported from an imgpkg
//! tarball is byte for byte the one imgpkg wrote.

use std::path::{Path, PathBuf};

use crate::support::cli::{run_ok, strake};
use crate::support::content::block_on;
use crate::support::registry::TestRegistry;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/imgpkg/copy")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn tags(registry: &TestRegistry, repo: &str) -> Vec<String> {
    block_on(registry.pusher().tags(repo))
}

pub fn get(registry: &TestRegistry, repo: &str, what: &str) -> Vec<u8> {
    block_on(registry.pusher().get(repo, what))
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Every expected tag is there; the extra tag of each locations image (its
/// digest depends on gzip bytes) is matched by shape.
fn assert_tags_match(actual: &[String], expected_file: &Path, locations_images: usize) {
    let expected: Vec<String> = read(expected_file).lines().map(str::to_string).collect();
    let fixed: Vec<&String> = expected
        .iter()
        .filter(|t| !is_locations_extra_tag(t, &expected))
        .collect();
    for tag in &fixed {
        assert!(actual.contains(tag), "missing tag {tag}: {actual:#?}");
    }
    let extra: Vec<&String> = actual.iter().filter(|t| !fixed.contains(t)).collect();
    assert_eq!(extra.len(), locations_images, "{extra:?}");
    for tag in extra {
        assert!(
            tag.starts_with("sha256-") && tag.ends_with(".imgpkg") && tag.len() == 78,
            "{tag}"
        );
    }
    assert_eq!(actual.len(), expected.len(), "{actual:#?}");
}

/// imgpkg's locations-image extra tags are the `sha256-<hex>.imgpkg` tags whose
/// hex is not the digest of any other tagged object in the list.
fn is_locations_extra_tag(tag: &str, all: &[String]) -> bool {
    let Some(hex) = tag
        .strip_prefix("sha256-")
        .and_then(|t| t.strip_suffix(".imgpkg"))
    else {
        return false;
    };
    !hex.contains('.')
        && KNOWN_SOURCE_DIGESTS.iter().all(|d| *d != hex)
        && !all
            .iter()
            .any(|t| t == &format!("sha256-{hex}.image-locations.imgpkg"))
}

/// Digests of the source images and bundles of the fixtures (copy/images,
/// copy/bundle, copy/nested).
const KNOWN_SOURCE_DIGESTS: [&str; 5] = [
    "113ad4c729a8f15321e890e21a5f994fdfbf51b4fb72b585a22492e9d1cf998a",
    "62d0ea4cf7a9ed7fea7711382481cfa141dad2e8889434819bd4838f158cfb6e",
    "6c745feeeb6c72c1fc45ee336cc736ea846890fa2271f00cf777f1ceb9cbd5e5",
    "680ace3245d06bb93033b090baac8001ab69b2e55f05d9045591d71a80e202dd",
    "9b04948e03f592d3ee8fa612758050086424405a8303210811488d231c50d601",
];

#[test]
fn imgpkg_bundle_tarball_imports_with_imgpkgs_tags_locations_image_and_lock() {
    let registry = TestRegistry::start();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let lock = work.path().join("relocated.lock.yml");
    let repo = format!("{}/relocated/b", registry.addr());
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "--tar",
        fixtures().join("bundle/out.tar").to_str().unwrap(),
        "--to-repo",
        &repo,
        "--lock-output",
        lock.to_str().unwrap(),
    ]));
    let bundle = "sha256:6c745feeeb6c72c1fc45ee336cc736ea846890fa2271f00cf777f1ceb9cbd5e5";
    assert_eq!(out.trim(), format!("{repo}@{bundle}"));
    let actual = tags(&registry, "relocated/b");
    assert_tags_match(&actual, &fixtures().join("bundle/relocated-tags.txt"), 1);
    assert_eq!(
        read(&lock),
        read(&fixtures().join("relocated.lock.yml")).replace("127.0.0.1:5000", &registry.addr())
    );

    // The locations image: layer.tar and config byte for byte as imgpkg's.
    let manifest: serde_json::Value = serde_json::from_slice(&get(
        &registry,
        "relocated/b",
        &format!(
            "manifests/{}.image-locations.imgpkg",
            bundle.replace(':', "-")
        ),
    ))
    .unwrap();
    let layer = manifest["layers"][0]["digest"].as_str().unwrap();
    let config = manifest["config"]["digest"].as_str().unwrap();
    assert_eq!(
        gunzip(&get(&registry, "relocated/b", &format!("blobs/{layer}"))),
        std::fs::read(fixtures().join("bundle/locations-image/layer.tar")).unwrap()
    );
    assert_eq!(
        get(&registry, "relocated/b", &format!("blobs/{config}")),
        std::fs::read(fixtures().join("bundle/locations-image/config.json")).unwrap()
    );

    // A pull of the relocated bundle rewrites images.yml to the new place.
    let pulled = work.path().join("pulled");
    run_ok(strake(home.path()).args([
        "bundle",
        "pull",
        "-b",
        &format!("{repo}:v1"),
        "-o",
        pulled.to_str().unwrap(),
    ]));
    assert_eq!(
        read(&pulled.join(".imgpkg/images.yml")),
        read(&fixtures().join("pulled-images.yml")).replace(
            "127.0.0.1:5000/relocated/b",
            &format!("{}/relocated/b", registry.addr())
        )
    );
}

#[test]
fn imgpkg_nested_tarball_imports_and_pulls_recursively_relocated() {
    let registry = TestRegistry::start();
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let repo = format!("{}/relocated/nested", registry.addr());
    run_ok(strake(home.path()).args([
        "copy",
        "--tar",
        fixtures().join("nested/nested.tar").to_str().unwrap(),
        "--to-repo",
        &repo,
    ]));
    let actual = tags(&registry, "relocated/nested");
    assert_tags_match(&actual, &fixtures().join("nested/relocated-tags.txt"), 2);
    let pulled = work.path().join("pulled");
    run_ok(strake(home.path()).args([
        "bundle",
        "pull",
        "-r",
        "-b",
        &format!("{repo}:v1"),
        "-o",
        pulled.to_str().unwrap(),
    ]));
    let here = format!("{}/relocated/nested", registry.addr());
    assert_eq!(
        read(&pulled.join(".imgpkg/images.yml")),
        read(&fixtures().join("pulled-outer-images.yml"))
            .replace("127.0.0.1:5000/relocated/nested", &here)
    );
    let inner = pulled.join(
        ".imgpkg/bundles/sha256-680ace3245d06bb93033b090baac8001ab69b2e55f05d9045591d71a80e202dd",
    );
    assert_eq!(
        read(&inner.join(".imgpkg/images.yml")),
        read(&fixtures().join("pulled-inner-images.yml"))
            .replace("127.0.0.1:5000/relocated/nested", &here)
    );
}

#[test]
fn a_tarball_exported_from_imgpkgs_tarball_is_byte_identical() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    for fixture in ["bundle/out.tar", "nested/nested.tar"] {
        let out = work.path().join("again.tar");
        run_ok(strake(home.path()).args([
            "copy",
            "--tar",
            fixtures().join(fixture).to_str().unwrap(),
            "--to-tar",
            out.to_str().unwrap(),
        ]));
        assert!(
            std::fs::read(&out).unwrap() == std::fs::read(fixtures().join(fixture)).unwrap(),
            "{fixture} differs"
        );
        // Nothing but the tarball is left next to it.
        let names: Vec<String> = std::fs::read_dir(work.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["again.tar".to_string()]);
    }
}
