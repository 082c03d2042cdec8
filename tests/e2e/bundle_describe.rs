//! `describe` on bundles in an OCI layout: image kinds, nested bundles, sizes
//! and the three output formats.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use strake::bundle::describe::{describe_bundle, to_json, to_text, to_yaml};
use strake::bundle::push::{PushOptions, push_bundle, push_image};
use strake::oci::Store;
use strake::oci::layout::LayoutStore;

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn opts() -> PushOptions {
    PushOptions {
        threads: 1,
        cache: None,
        ..PushOptions::default()
    }
}

#[tokio::test]
async fn describes_images_and_nested_bundles() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();

    let plain = tmp.path().join("plain");
    write(&plain.join("app.txt"), "app\n");
    let app = push_image(&store, "app", &[plain], &opts(), &BTreeMap::new())
        .await
        .unwrap();

    let inner = tmp.path().join("inner");
    write(
        &inner.join(".imgpkg/images.yml"),
        "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages: []\n",
    );
    let inner_pushed = push_bundle(&store, "inner", &[inner], &opts())
        .await
        .unwrap();

    let outer = tmp.path().join("outer");
    write(
        &outer.join(".imgpkg/images.yml"),
        &format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: example.com/acme/app@{}\n  annotations:\n    kbld.carvel.dev/id: example.com/acme/app:v1\n- image: example.com/acme/inner@{}\n",
            app.digest, inner_pushed.digest
        ),
    );
    write(
        &outer.join(".imgpkg/bundle.yml"),
        "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: Bundle\nmetadata:\n  name: outer-bundle\n",
    );
    let outer_pushed = push_bundle(&store, "outer", &[outer], &opts())
        .await
        .unwrap();

    let d = describe_bundle(&store, "outer", None).await.unwrap();
    assert_eq!(d.digest, outer_pushed.digest);
    assert_eq!(d.name.as_deref(), Some("outer-bundle"));
    assert_eq!(d.images.len(), 2);
    assert_eq!(d.images[0].kind, "image");
    assert_eq!(
        d.images[0].annotations["kbld.carvel.dev/id"],
        "example.com/acme/app:v1"
    );
    let manifest = store.get_manifest("app").await.unwrap();
    let refs = manifest.references("t").unwrap();
    assert_eq!(
        d.images[0].size,
        Some(manifest.bytes.len() as u64 + refs.iter().map(|r| r.size).sum::<u64>())
    );
    assert_eq!(d.images[1].kind, "bundle");
    let nested = d.images[1].bundle.as_ref().unwrap();
    assert_eq!(nested.digest, inner_pushed.digest);
    assert!(nested.images.is_empty());

    let text = to_text(&d);
    assert!(text.contains("Name: outer-bundle"), "{text}");
    assert!(text.contains("Type: bundle"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&to_json(&d)).unwrap();
    assert_eq!(
        v["images"][1]["bundle"]["digest"],
        inner_pushed.digest.to_string()
    );
    let yaml = to_yaml(&d);
    assert!(yaml.starts_with("---\nbundle: "), "{yaml}");
    assert!(yaml.contains("  type: bundle\n"), "{yaml}");
}

#[tokio::test]
async fn a_missing_image_is_reported_not_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let store = LayoutStore::create(tmp.path().join("layout")).unwrap();
    let b = tmp.path().join("b");
    write(
        &b.join(".imgpkg/images.yml"),
        &format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: example.com/acme/gone@sha256:{}\n",
            "3".repeat(64)
        ),
    );
    push_bundle(&store, "v1", &[b], &opts()).await.unwrap();
    let d = describe_bundle(&store, "v1", None).await.unwrap();
    assert_eq!(d.images[0].kind, "unknown");
    let err = d.images[0].error.as_deref().unwrap();
    assert!(err.contains("not found"), "{err}");
}
