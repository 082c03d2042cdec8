//! `strake image digest`, `strake tag list` and `strake image copy` run as the real
//! binary, against OCI layouts and a real registry.

use crate::support;

use support::cli::{image_fixture as fixture, layout, stdout, strake};
use support::registry::TestRegistry;

const MULTIARCH: &str = "sha256:aa409817c6ab58f7ca4a26b8754d51fe966fe10928d30ea9677200423a19ba42";
const APP: &str = "sha256:d4c100fde39b2f35469b60f0202203ec2ef133fc4deab6f5b66cd2d3bedc1cd0";

#[test]
fn digest_and_tags_of_layouts() {
    let home = tempfile::tempdir().unwrap();
    let multi = layout(&fixture("multiarch"));
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &format!("{multi}:v1")])),
        format!("{MULTIARCH}\n")
    );
    // Without a tag, a layout holding one image names it.
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &multi])),
        format!("{MULTIARCH}\n")
    );
    assert_eq!(
        stdout(strake(home.path()).args(["tag", "list", &multi])),
        "v1\n"
    );
    let out = strake(home.path())
        .args(["image", "digest", &format!("{multi}:v2")])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("manifest v2 not found"), "{err}");
    assert!(err.contains("multiarch"), "{err}");
}

#[test]
fn copies_between_layouts() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("out");
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("multiarch"))),
        &format!("{}:multi", layout(&dst)),
    ]));
    assert_eq!(printed, format!("{}@{MULTIARCH}\n", layout(&dst)));
    // Without a destination tag the source tag is kept.
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("app"))),
        &layout(&dst),
    ]));
    assert_eq!(printed, format!("{}@{APP}\n", layout(&dst)));
    assert_eq!(
        stdout(strake(home.path()).args(["tag", "list", &layout(&dst)])),
        "multi\nv1\n"
    );
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &format!("{}:v1", layout(&dst))])),
        format!("{APP}\n")
    );
    // Copying by digest into a layout works too, and a wrong digest is refused.
    let wrong = format!("{}@{MULTIARCH}", layout(&tmp.path().join("other")));
    let out = strake(home.path())
        .args([
            "image",
            "copy",
            &format!("{}:v1", layout(&fixture("app"))),
            &wrong,
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(APP) && err.contains(MULTIARCH), "{err}");
}

#[test]
fn copies_through_a_registry_with_every_platform() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let reg = TestRegistry::start();
    let repo = format!("{}/cli/multi", reg.addr());
    // Layout → registry.
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("multiarch"))),
        &format!("{repo}:v1"),
    ]));
    assert_eq!(printed, format!("{repo}@{MULTIARCH}\n"));
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &format!("{repo}:v1")])),
        format!("{MULTIARCH}\n")
    );
    let out = strake(home.path())
        .args(["image", "digest", &format!("{repo}:nope")])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cli/multi") && err.contains("nope"), "{err}");
    // Registry → registry (another repository, another tag).
    let other = format!("{}/cli/copy", reg.addr());
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{repo}:v1"),
        &format!("{other}:v2"),
    ]));
    assert_eq!(printed, format!("{other}@{MULTIARCH}\n"));
    stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("app"))),
        &format!("{other}:a"),
    ]));
    assert_eq!(
        stdout(strake(home.path()).args(["tag", "list", &other])),
        "a\nv2\n"
    );
    // Registry → layout: every platform arrives, digests unchanged.
    let back = tmp.path().join("back");
    let printed = stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{other}:v2"),
        &format!("{}:v2", layout(&back)),
    ]));
    assert_eq!(printed, format!("{}@{MULTIARCH}\n", layout(&back)));
    let blobs = std::fs::read_dir(back.join("blobs/sha256"))
        .unwrap()
        .count();
    let fixture_blobs = std::fs::read_dir(fixture("multiarch/blobs/sha256"))
        .unwrap()
        .count();
    assert_eq!(blobs, fixture_blobs);
}

#[test]
fn a_layout_holding_one_index_names_it_without_a_tag() {
    let home = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dst = tmp.path().join("one");
    stdout(strake(home.path()).args([
        "image",
        "copy",
        &format!("{}:v1", layout(&fixture("multiarch"))),
        &format!("{}:multi", layout(&dst)),
    ]));
    // index.json lists the index (tagged) and its two platforms (untagged).
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dst.join("index.json")).unwrap()).unwrap();
    assert_eq!(index["manifests"].as_array().unwrap().len(), 3);
    assert_eq!(
        stdout(strake(home.path()).args(["image", "digest", &layout(&dst)])),
        format!("{MULTIARCH}\n")
    );
}
