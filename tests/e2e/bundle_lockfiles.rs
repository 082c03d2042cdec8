//! The lock files imgpkg wrote in the conformance corpus parse with our strict
//! models and print back byte for byte.

use crate::support_bundle;

use std::fs;

use strake::bundle::lockfiles::{BundleLock, ImageLocations, ImagesLock};

fn read(rel: &str) -> String {
    fs::read_to_string(support_bundle::fixtures().join(rel)).unwrap()
}

#[test]
fn images_locks_round_trip_byte_for_byte() {
    for rel in [
        "tar/08-imgpkg-dir/input/.imgpkg/images.yml",
        "copy/pulled-images.yml",
        "copy/pulled-inner-images.yml",
        "copy/pulled-outer-images.yml",
    ] {
        let text = read(rel);
        let lock = ImagesLock::parse(&text, rel).unwrap();
        assert!(!lock.images.is_empty(), "{rel}");
        assert_eq!(lock.to_yaml(), text, "{rel}");
    }
}

#[test]
fn kbld_origins_stay_a_literal_block() {
    let text = read("tar/08-imgpkg-dir/input/.imgpkg/images.yml");
    let lock = ImagesLock::parse(&text, "images.yml").unwrap();
    assert_eq!(
        lock.images[0].annotations["kbld.carvel.dev/origins"],
        "- resolved:\n    tag: v1.2.0\n    url: registry.example.com/acme/app:v1.2.0\n"
    );
}

#[test]
fn bundle_lock_round_trips() {
    let text = read("copy/relocated.lock.yml");
    let lock = BundleLock::parse(&text, "relocated.lock.yml").unwrap();
    assert_eq!(lock.tag, "v1");
    assert_eq!(lock.to_yaml(), text);
}

#[test]
fn image_locations_round_trip() {
    let text = read("copy/image-locations.yml");
    let loc = ImageLocations::parse(&text, "image-locations.yml").unwrap();
    assert_eq!(loc.images.len(), 2);
    assert_eq!(loc.to_yaml(), text);
}

#[test]
fn unknown_fields_are_named() {
    let text = read("copy/image-locations.yml").replace("isBundle", "isBundel");
    let err = ImageLocations::parse(&text, "image-locations.yml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("isBundel") && err.contains("image-locations.yml"),
        "{err}"
    );
}
