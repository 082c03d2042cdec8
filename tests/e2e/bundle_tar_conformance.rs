//! Every `tar/` case of the imgpkg conformance corpus (copied into
//! tests/fixtures/imgpkg/tar): our uncompressed layer is byte-identical to imgpkg's
//! `layer.tar`, and the diff_id, config and manifest (except the gzip-dependent
//! layer size/digest) are equal.

use crate::support_bundle;

use std::fs;
use std::path::Path;

use strake::bundle::image::{bundle_labels, config_json, manifest};
use strake::bundle::layer::write_uncompressed;
use strake::bundle::tar::{TarOptions, plan};
use strake::oci::{Descriptor, Digest, media_types};

fn check_case(name: &str, expected_dir: &str, preserve_permissions: bool) {
    let case = support_bundle::fixtures().join("tar").join(name);
    let tmp = tempfile::tempdir().unwrap();
    let root = support_bundle::materialise(&case, tmp.path());
    let expected = case.join(expected_dir);
    let options = TarOptions {
        preserve_permissions,
        ..TarOptions::default()
    };
    let p = plan(std::slice::from_ref(&root), &options).unwrap();
    let mut tar = Vec::new();
    write_uncompressed(&p, &mut tar).unwrap();
    support_bundle::make_removable(&root);

    let want = fs::read(expected.join("layer.tar")).unwrap();
    if tar != want {
        let first = tar.iter().zip(&want).position(|(a, b)| a != b);
        panic!(
            "{name}/{expected_dir}: layer.tar differs (ours {} bytes, imgpkg {} bytes, first difference at byte {first:?})",
            tar.len(),
            want.len()
        );
    }
    assert_eq!(p.archive_size(), tar.len() as u64, "{name}: archive_size");
    let diff_id = Digest::of(&tar);
    let want_diff = fs::read_to_string(expected.join("diff_id")).unwrap();
    assert_eq!(format!("{diff_id}\n"), want_diff, "{name}: diff_id");

    let config = config_json(&diff_id, &bundle_labels(&Default::default()));
    assert_eq!(
        String::from_utf8(config.clone()).unwrap(),
        fs::read_to_string(expected.join("config.json")).unwrap(),
        "{name}: config.json"
    );

    // The manifest must match byte for byte once the layer descriptor is imgpkg's.
    let want_manifest = fs::read(expected.join("manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&want_manifest).unwrap();
    let layer = Descriptor {
        media_type: media_types::DOCKER_LAYER_GZIP.to_string(),
        digest: v["layers"][0]["digest"].as_str().unwrap().parse().unwrap(),
        size: v["layers"][0]["size"].as_u64().unwrap(),
    };
    let config_desc = Descriptor {
        media_type: media_types::DOCKER_CONFIG.to_string(),
        digest: Digest::of(&config),
        size: config.len() as u64,
    };
    let m = manifest(&config_desc, &layer);
    assert_eq!(
        String::from_utf8(m.bytes.to_vec()).unwrap(),
        String::from_utf8(want_manifest).unwrap(),
        "{name}: manifest.json"
    );
}

#[test]
fn case_01_walk_order() {
    check_case("01-walk-order", "expected", false);
}

#[test]
fn case_02_hidden_files() {
    check_case("02-hidden-files", "expected", false);
}

#[test]
fn case_03_empty_dirs() {
    check_case("03-empty-dirs", "expected", false);
}

#[test]
fn case_04_file_modes() {
    check_case("04-file-modes", "expected", false);
}

#[test]
fn case_04_file_modes_preserve_permissions() {
    check_case("04-file-modes", "expected-preserve-permissions", true);
}

#[test]
fn case_05_long_paths() {
    check_case("05-long-paths", "expected", false);
}

#[test]
fn case_06_unicode_names() {
    check_case("06-unicode-names", "expected", false);
}

#[test]
fn case_07_git_excluded() {
    check_case("07-git-excluded", "expected", false);
}

#[test]
fn case_08_imgpkg_dir() {
    check_case("08-imgpkg-dir", "expected", false);
}

#[test]
fn every_fixture_case_is_tested() {
    let mut cases: Vec<String> = fs::read_dir(support_bundle::fixtures().join("tar"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert_eq!(
        cases,
        [
            "01-walk-order",
            "02-hidden-files",
            "03-empty-dirs",
            "04-file-modes",
            "05-long-paths",
            "06-unicode-names",
            "07-git-excluded",
            "08-imgpkg-dir"
        ]
    );
    assert!(
        Path::new(
            &support_bundle::fixtures()
                .join("tar/04-file-modes/expected-preserve-permissions/layer.tar")
        )
        .exists()
    );
}
