//! OCI layouts and imgpkg tarballs against a real registry, with the real `skopeo`
//! on the other side: what we write skopeo reads, what skopeo writes we read, and
//! digests never change.

use crate::support;

use std::path::PathBuf;

use futures_util::StreamExt;
use strake::oci::copy::{CopyOptions, copy_image, walk_image};
use strake::oci::layout::LayoutStore;
use strake::oci::registry::{RegistryClient, RegistryOptions, RegistryStore};
use strake::oci::tarball::TarballStore;
use strake::oci::{Digest, Store};
use support::registry::TestRegistry;

const MULTIARCH: &str = "sha256:aa409817c6ab58f7ca4a26b8754d51fe966fe10928d30ea9677200423a19ba42";
const APP: &str = "sha256:113ad4c729a8f15321e890e21a5f994fdfbf51b4fb72b585a22492e9d1cf998a";

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg")
        .join(path)
}

fn repo(reg: &TestRegistry, name: &str) -> RegistryStore {
    RegistryClient::new(RegistryOptions::default())
        .unwrap()
        .repository(&reg.addr(), name)
}

fn skopeo(args: &[&str]) -> String {
    let out = std::process::Command::new("/usr/bin/skopeo")
        .args(args)
        .output()
        .expect("run skopeo");
    assert!(
        out.status.success(),
        "skopeo {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every manifest and blob of `reference` in `store` reads back verified; returns
/// the number of manifests.
async fn assert_complete(store: &dyn Store, reference: &str) -> usize {
    let graph = walk_image(store, reference).await.unwrap();
    for blob in &graph.blobs {
        let mut stream = store.get_blob(&blob.digest).await.unwrap();
        let mut bytes = Vec::new();
        while let Some(chunk) = stream.next().await {
            bytes.extend_from_slice(&chunk.unwrap());
        }
        assert_eq!(Digest::of(&bytes), blob.digest);
    }
    graph.manifests.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skopeo_pushes_a_layout_we_wrote() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let ours = LayoutStore::create(tmp.path().join("ours")).unwrap();
    let multi = LayoutStore::open(fixture("lock/images/multiarch")).unwrap();
    let app = LayoutStore::open(fixture("copy/images/app")).unwrap();
    copy_image(&multi, "v1", &ours, Some("multi"), &CopyOptions::default())
        .await
        .unwrap();
    copy_image(&app, "v1", &ours, Some("app"), &CopyOptions::default())
        .await
        .unwrap();
    let dir = ours.dir().display().to_string();
    for (tag, repo_name) in [("multi", "skopeo/multi"), ("app", "skopeo/app")] {
        skopeo(&[
            "copy",
            "--all",
            "--preserve-digests",
            "--dest-tls-verify=false",
            &format!("oci:{dir}:{tag}"),
            &format!("docker://{}/{repo_name}:{tag}", reg.addr()),
        ]);
    }
    // Our registry client sees the same digests and complete content.
    let multi_repo = repo(&reg, "skopeo/multi");
    let desc = multi_repo.resolve("multi").await.unwrap().unwrap();
    assert_eq!(desc.digest.as_str(), MULTIARCH);
    assert_eq!(assert_complete(&multi_repo, "multi").await, 3);
    let app_repo = repo(&reg, "skopeo/app");
    assert_eq!(
        app_repo
            .resolve("app")
            .await
            .unwrap()
            .unwrap()
            .digest
            .as_str(),
        APP
    );
    assert_eq!(assert_complete(&app_repo, "app").await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn we_read_what_skopeo_pulled_and_push_it_back() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    // skopeo pushes the fixture, then pulls it into a layout of its own.
    let fixture_dir = fixture("lock/images/multiarch").display().to_string();
    skopeo(&[
        "copy",
        "--all",
        "--preserve-digests",
        "--dest-tls-verify=false",
        &format!("oci:{fixture_dir}:v1"),
        &format!("docker://{}/src/multi:v1", reg.addr()),
    ]);
    let pulled = tmp.path().join("pulled").display().to_string();
    skopeo(&[
        "copy",
        "--all",
        "--preserve-digests",
        "--src-tls-verify=false",
        &format!("docker://{}/src/multi:v1", reg.addr()),
        &format!("oci:{pulled}:v1"),
    ]);
    let layout = LayoutStore::open(&pulled).unwrap();
    assert_eq!(
        layout.resolve("v1").await.unwrap().unwrap().digest.as_str(),
        MULTIARCH
    );
    assert_eq!(assert_complete(&layout, "v1").await, 3);
    // We copy skopeo's layout into the registry and back out of it.
    let dst = repo(&reg, "ours/multi");
    let root = copy_image(&layout, "v1", &dst, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    assert_eq!(root.digest.as_str(), MULTIARCH);
    assert_eq!(dst.list_tags().await.unwrap(), vec!["v1".to_string()]);
    let raw = skopeo(&[
        "inspect",
        "--raw",
        "--tls-verify=false",
        &format!("docker://{}/ours/multi:v1", reg.addr()),
    ]);
    assert_eq!(Digest::of(raw.as_bytes()).as_str(), MULTIARCH);
    let back = LayoutStore::create(tmp.path().join("back")).unwrap();
    let root = copy_image(&dst, "v1", &back, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    assert_eq!(root.digest.as_str(), MULTIARCH);
    assert_eq!(assert_complete(&back, "v1").await, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tarball_images_copy_into_a_registry_unchanged() {
    let reg = TestRegistry::start();
    let tarball = TarballStore::open(fixture("copy/nested/nested.tar")).unwrap();
    let dst = repo(&reg, "relocated/nested");
    for entry in tarball.entries() {
        let tag = format!("{}.imgpkg", entry.descriptor.digest.dashed());
        let root = copy_image(
            &tarball,
            entry.descriptor.digest.as_str(),
            &dst,
            Some(&tag),
            &CopyOptions::default(),
        )
        .await
        .unwrap();
        assert_eq!(root, entry.descriptor);
        assert_eq!(dst.resolve(&tag).await.unwrap().unwrap(), entry.descriptor);
        assert_eq!(assert_complete(&dst, &tag).await, 1);
    }
    assert_eq!(dst.list_tags().await.unwrap().len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_copies_mount_blobs_and_failed_copies_leave_no_tag() {
    use support::fault_proxy::{Fault, FaultProxy};
    let reg = TestRegistry::start();
    let proxy = FaultProxy::start(&reg.addr());
    let client = RegistryClient::new(RegistryOptions::default()).unwrap();
    let src = client.repository(&proxy.addr(), "mount/src");
    let multi = LayoutStore::open(fixture("lock/images/multiarch")).unwrap();
    copy_image(&multi, "v1", &src, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    // Same registry, other repository: every blob is mounted, none uploaded.
    let before = proxy.requests().len();
    let dst = client.repository(&proxy.addr(), "mount/dst");
    let root = copy_image(&src, "v1", &dst, Some("v1"), &CopyOptions::default())
        .await
        .unwrap();
    assert_eq!(root.digest.as_str(), MULTIARCH);
    let after: Vec<_> = proxy.requests()[before..].to_vec();
    let mounts: Vec<_> = after
        .iter()
        .filter(|r| r.method == "POST" && r.path.contains("mount="))
        .collect();
    assert_eq!(mounts.len(), 4, "{after:#?}");
    assert!(
        mounts.iter().all(|r| r.path.contains("from=mount")),
        "{mounts:#?}"
    );
    assert!(
        !after.iter().any(|r| r.method == "PATCH"),
        "no blob bytes were uploaded: {after:#?}"
    );
    assert_eq!(assert_complete(&dst, "v1").await, 3);

    // A copy whose blob uploads fail leaves no tag (and no manifest) behind.
    proxy.inject(None, "/v2/fail/dst/blobs/uploads", Fault::status(400), 100);
    let failing = client.repository(&proxy.addr(), "fail/dst");
    let app = LayoutStore::open(fixture("copy/images/app")).unwrap();
    let err = copy_image(&app, "v1", &failing, Some("v1"), &CopyOptions::default())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("400") || err.to_lowercase().contains("bad request"),
        "{err}"
    );
    proxy.clear();
    let direct = repo(&reg, "fail/dst");
    assert!(direct.resolve("v1").await.unwrap().is_none());
    assert!(
        direct.resolve(APP).await.unwrap().is_none(),
        "no manifest was written"
    );
}
