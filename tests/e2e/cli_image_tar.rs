//! `strake image copy` with imgpkg tarballs (`tar:FILE`) at either end, run as the
//! real binary against OCI layouts and a real registry.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::cli::{image_fixture as fixture, layout, run_err, run_ok, stdout, strake, tar};
use support::registry::TestRegistry;

const MULTIARCH: &str = "sha256:aa409817c6ab58f7ca4a26b8754d51fe966fe10928d30ea9677200423a19ba42";
const APP: &str = "sha256:d4c100fde39b2f35469b60f0202203ec2ef133fc4deab6f5b66cd2d3bedc1cd0";
const INIT: &str = "sha256:3ef57b85e784b730d091a884d9545172c5c215eba48097449b977a953cb0d4e1";

fn blob_count(layout_dir: &Path) -> usize {
    std::fs::read_dir(layout_dir.join("blobs/sha256"))
        .unwrap()
        .count()
}

/// The `manifest.json` of a tarball: the first USTAR entry, read by hand.
fn manifest_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    let name = std::str::from_utf8(&bytes[..100])
        .unwrap()
        .trim_end_matches('\0');
    assert_eq!(name, "manifest.json");
    let size_field = std::str::from_utf8(&bytes[124..136]).unwrap();
    let size =
        usize::from_str_radix(size_field.trim_matches(|c| c == '\0' || c == ' '), 8).unwrap();
    serde_json::from_slice(&bytes[512..512 + size]).unwrap()
}

/// Every entry name in a tarball.
fn entry_names(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let mut names = Vec::new();
    let mut offset = 0;
    while offset + 512 <= bytes.len() && bytes[offset] != 0 {
        let header = &bytes[offset..offset + 512];
        names.push(
            std::str::from_utf8(&header[..100])
                .unwrap()
                .trim_end_matches('\0')
                .to_string(),
        );
        let size_field = std::str::from_utf8(&header[124..136]).unwrap();
        let size =
            usize::from_str_radix(size_field.trim_matches(|c| c == '\0' || c == ' '), 8).unwrap();
        offset += 512 + size.div_ceil(512) * 512;
    }
    names
}

#[test]
fn layout_to_tarball_to_registry_to_layout_round_trip() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let reg = TestRegistry::start();
    let src = format!("{}:v1", layout(&fixture("app")));
    let file = tmp.path().join("app.tar");

    // Layout → tarball, with progress logged at -v.
    let (printed, logs) =
        run_ok(strake(home.path()).args(["--verbose", "image", "copy", &src, &tar(&file)]));
    assert_eq!(printed, format!("{}@{APP}\n", tar(&file)));
    assert!(logs.contains("copying image"), "{logs}");
    assert!(logs.contains("wrote tarball"), "{logs}");
    // imgpkg's `copy -i` metadata.
    let manifest = manifest_json(&file);
    let elements = manifest.as_array().unwrap();
    assert_eq!(elements.len(), 1);
    assert!(elements[0]["ImageIndex"].is_null());
    let image = &elements[0]["Image"];
    assert_eq!(image["Manifest"]["Digest"], APP);
    assert_eq!(
        image["Refs"],
        serde_json::json!([format!("{}@{APP}", layout(&fixture("app")))])
    );
    assert_eq!(image["Tag"], "v1");
    assert_eq!(image["OrigRef"], src.as_str());
    assert!(image["Labels"].is_null());
    let layers = image["Layers"].as_array().unwrap();
    assert!(!layers.is_empty());
    let names = entry_names(&file);
    assert_eq!(names.len(), 1 + layers.len(), "{names:?}");
    for layer in layers {
        let entry = format!(
            "{}.tar.gz",
            layer["Digest"].as_str().unwrap().replace(':', "-")
        );
        assert!(names.contains(&entry), "{entry} not in {names:?}");
    }
    // The tarball reads back: digest and tag.
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &tar(&file)])),
        format!("{APP}\n")
    );
    assert_eq!(
        stdout(strake(home.path()).args(["tag", "list", &tar(&file)])),
        "v1\n"
    );

    // Tarball → registry.
    let repo = format!("{}/tar/app", reg.addr());
    let printed =
        stdout(strake(home.path()).args(["image", "copy", &tar(&file), &format!("{repo}:v1")]));
    assert_eq!(printed, format!("{repo}@{APP}\n"));
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &format!("{repo}:v1")])),
        format!("{APP}\n")
    );

    // Registry → layout: same digest and the same blobs as the start.
    let back = tmp.path().join("back");
    let printed =
        stdout(strake(home.path()).args(["image", "copy", &format!("{repo}:v1"), &layout(&back)]));
    assert_eq!(printed, format!("{}@{APP}\n", layout(&back)));
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &format!("{}:v1", layout(&back))])),
        format!("{APP}\n")
    );
    assert_eq!(blob_count(&back), blob_count(&fixture("app")));
}

#[test]
fn a_tarball_written_from_an_index_keeps_every_platform() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("multi.tar");
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("multiarch"))),
        &tar(&file),
    ]));
    assert_eq!(printed, format!("{}@{MULTIARCH}\n", tar(&file)));
    let manifest = manifest_json(&file);
    let elements = manifest.as_array().unwrap();
    assert_eq!(elements.len(), 1);
    let index = &elements[0]["ImageIndex"];
    assert_eq!(index["Digest"], MULTIARCH);
    assert_eq!(index["Tag"], "v1");
    // Every child of the index, as listed in the index manifest itself.
    let raw: Value = serde_json::from_str(index["Raw"].as_str().unwrap()).unwrap();
    let mut listed: Vec<&str> = raw["manifests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["digest"].as_str().unwrap())
        .collect();
    listed.sort();
    let mut children: Vec<&str> = index["Images"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["Manifest"]["Digest"].as_str().unwrap())
        .collect();
    children.sort();
    assert_eq!(listed.len(), 2);
    assert_eq!(children, listed);

    // And back into a layout: the index, both platforms and every blob.
    let out = tmp.path().join("out");
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &tar(&file),
        &format!("{}:v1", layout(&out)),
    ]));
    assert_eq!(printed, format!("{}@{MULTIARCH}\n", layout(&out)));
    assert_eq!(blob_count(&out), blob_count(&fixture("multiarch")));
    for child in &listed {
        assert_eq!(
            stdout(strake(home.path()).args([
                "image",
                "digest",
                &format!("{}@{child}", layout(&out))
            ])),
            format!("{child}\n")
        );
    }
}

#[test]
fn a_failed_copy_to_a_tarball_leaves_nothing() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("out.tar");
    // Source layout missing.
    let err = run_err(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&tmp.path().join("missing"))),
        &tar(&file),
    ]));
    assert!(err.contains("missing"), "{err}");
    // Source tag missing: fails after the tarball writer was opened.
    let err = run_err(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:nope", layout(&fixture("app"))),
        &tar(&file),
    ]));
    assert!(err.contains("nope"), "{err}");
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    // An existing tarball is not touched by a failed copy.
    std::fs::write(&file, b"old").unwrap();
    run_err(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:nope", layout(&fixture("app"))),
        &tar(&file),
    ]));
    assert_eq!(std::fs::read(&file).unwrap(), b"old");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn a_tarball_is_byte_identical_when_written_twice() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let src = format!("{}:v1", layout(&fixture("multiarch")));
    let first = tmp.path().join("a.tar");
    let second = tmp.path().join("b.tar");
    stdout(strake(home.path()).args(["image", "copy", &src, &tar(&first)]));
    stdout(strake(home.path()).args(["image", "copy", "--concurrency", "1", &src, &tar(&second)]));
    let a = std::fs::read(&first).unwrap();
    assert_eq!(a, std::fs::read(&second).unwrap());
    // Overwriting the same file gives the same bytes again.
    stdout(strake(home.path()).args(["image", "copy", &src, &tar(&first)]));
    assert_eq!(a, std::fs::read(&first).unwrap());
}

#[test]
fn a_tarball_holding_several_images_needs_a_digest() {
    use strake::oci::copy::{CopyOptions, copy_image};
    use strake::oci::layout::LayoutStore;
    use strake::oci::tarball::{ImageMetadata, TarballWriter};
    use strake::oci::{Digest, Store};

    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("two.tar");
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let writer = TarballWriter::create(&file).unwrap();
        for (name, digest) in [("app", APP), ("init", INIT)] {
            let store = LayoutStore::open(fixture(name)).unwrap();
            copy_image(&store, "v1", &writer, None, &CopyOptions::default())
                .await
                .unwrap();
            let digest: Digest = digest.parse().unwrap();
            writer.add_image_metadata(
                &digest,
                ImageMetadata::from_ref(format!("example.com/{name}@{digest}")),
            );
        }
        writer.finish().await.unwrap();
    });
    let out = tmp.path().join("out");
    let err = run_err(strake(home.path()).args(["image", "copy", &tar(&file), &layout(&out)]));
    assert!(err.contains("holds 2 images"), "{err}");
    assert!(err.contains(&format!("{}@{APP}", tar(&file))), "{err}");
    assert!(err.contains(&format!("{}@{INIT}", tar(&file))), "{err}");
    assert!(!out.exists());
    // Named by digest, the image is copied; tarball → tarball keeps its metadata.
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}@{INIT}", tar(&file)),
        &format!("{}:init", layout(&out)),
    ]));
    assert_eq!(printed, format!("{}@{INIT}\n", layout(&out)));
    let single = tmp.path().join("init.tar");
    stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}@{INIT}", tar(&file)),
        &tar(&single),
    ]));
    let manifest = manifest_json(&single);
    assert_eq!(
        manifest[0]["Image"]["Refs"],
        serde_json::json!([format!("example.com/init@{INIT}")])
    );
}
