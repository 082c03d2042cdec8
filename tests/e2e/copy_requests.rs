//! The requests `strake copy` makes, counted in the real registries' access
//! logs: a copy into a registry that has everything lists each source
//! repository's tags once instead of asking for every cosign tag, asks the
//! referrers API of a registry without one only once, and writes at the
//! destination only the root tag (plus the locations images); a signature tag
//! that moved at the source since is written again. Tag listings stop once
//! they are longer than asked.

use futures_util::StreamExt;
use strake::oci::Store;
use strake::oci::media_types::OCI_MANIFEST;
use strake::oci::registry::{RegistryClient, RegistryOptions};

use crate::copy_support::{assert_relocated, two_registries_with_content};
use crate::support::cli::{run_ok, strake};
use crate::support::content::block_on;
use crate::support::fault_proxy::FaultProxy;
use crate::support::registry::TestRegistry;

/// One request of a registry's access log: method and path.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Logged {
    method: String,
    path: String,
}

/// Every `/v2/` request in the registry's access log so far, in order.
fn logged(registry: &TestRegistry) -> Vec<Logged> {
    registry
        .log()
        .lines()
        .filter_map(|line| {
            // Combined log format: `… "GET /v2/… HTTP/1.1" 200 …`.
            let request = line.split('"').nth(1)?;
            let mut parts = request.split(' ');
            let (method, path) = (parts.next()?, parts.next()?);
            path.starts_with("/v2/").then(|| Logged {
                method: method.to_string(),
                path: path.to_string(),
            })
        })
        .collect()
}

/// The requests logged while `f` ran.
fn during(registries: [&TestRegistry; 2], f: impl FnOnce()) -> [Vec<Logged>; 2] {
    let before = registries.map(|r| logged(r).len());
    f();
    // The access log is written after each answer; give the last lines a moment.
    std::thread::sleep(std::time::Duration::from_millis(300));
    [0, 1].map(|i| logged(registries[i])[before[i]..].to_vec())
}

fn count(requests: &[Logged], method: &str, matches: impl Fn(&str) -> bool) -> usize {
    requests
        .iter()
        .filter(|r| r.method == method && matches(&r.path))
        .count()
}

fn is_signature_tag(path: &str) -> bool {
    let Some((_, tag)) = path.rsplit_once("/manifests/") else {
        return false;
    };
    tag.starts_with("sha256-") && !tag.ends_with(".imgpkg")
}

#[test]
fn a_copy_into_a_registry_that_has_everything_lists_tags_and_writes_only_the_root_tag() {
    let (source, destination, home, content) = two_registries_with_content(4096);
    let to = format!("{}/full/copy", destination.addr());
    let copy = || {
        run_ok(strake(home.path()).args(["copy", "-b", &content.root_ref, "--to-repo", &to]));
    };
    let [first_src, first_dst] = during([&source, &destination], copy);
    assert_relocated(&destination, "full/copy", &content, home.path());
    let [src, dst] = during([&source, &destination], copy);
    assert_relocated(&destination, "full/copy", &content, home.path());

    // Source: 7 repositories (the root, two packages, four images) listed once
    // each; no signature tag asked about unless listed (the `.sig` and the
    // referrers index are fetched, by GET); the referrers API asked once.
    for requests in [&first_src, &src] {
        assert_eq!(
            count(requests, "GET", |p| p.ends_with("/tags/list?n=1000")),
            7,
            "{requests:#?}"
        );
        assert_eq!(
            count(requests, "HEAD", is_signature_tag),
            0,
            "{requests:#?}"
        );
        assert_eq!(count(requests, "GET", is_signature_tag), 2, "{requests:#?}");
        assert_eq!(
            count(requests, "GET", |p| p.contains("/referrers/")),
            1,
            "{requests:#?}"
        );
    }
    // Destination: the second copy asks about each item's manifest (9 HEADs),
    // lists the tags once, asks where the two source tags and the three
    // locations tags point, uploads nothing and writes the root tag alone.
    let manifest_puts: Vec<&Logged> = dst
        .iter()
        .filter(|r| r.method == "PUT" && r.path.contains("/manifests/"))
        .collect();
    assert_eq!(
        manifest_puts,
        [&Logged {
            method: "PUT".into(),
            path: "/v2/full/copy/manifests/v1".into()
        }],
        "{dst:#?}"
    );
    assert!(
        count(&first_dst, "PUT", |p| p.contains("/manifests/")) > 10,
        "{first_dst:#?}"
    );
    assert_eq!(
        count(&dst, "POST", |p| p.contains("/blobs/uploads")),
        0,
        "{dst:#?}"
    );
    assert_eq!(
        count(&dst, "HEAD", |p| p.contains("/manifests/sha256:")),
        9,
        "{dst:#?}"
    );
    assert_eq!(count(&dst, "HEAD", is_signature_tag), 2, "{dst:#?}");
    assert_eq!(
        count(&dst, "HEAD", |p| p.ends_with(".image-locations.imgpkg")),
        3,
        "{dst:#?}"
    );
    assert_eq!(
        count(&dst, "GET", |p| p.contains("/tags/list")),
        1,
        "{dst:#?}"
    );
    assert_eq!(dst.len(), 1 + 9 + 1 + 2 + 3 + 1, "{dst:#?}");
}

#[test]
fn a_signature_tag_that_moved_at_the_source_moves_at_the_destination() {
    let (source, destination, home, content) = two_registries_with_content(1024);
    let to = format!("{}/resigned", destination.addr());
    let copy = || {
        run_ok(strake(home.path()).args(["copy", "-b", &content.root_ref, "--to-repo", &to]));
    };
    copy();
    let sig_tag = format!("{}.sig", content.images[1].replace(':', "-"));
    let pusher = source.pusher();
    let resigned = block_on(pusher.push_image(
        "src/signed",
        &sig_tag,
        OCI_MANIFEST,
        &[b"a second cosign signature payload"],
    ));
    assert_ne!(resigned.manifest_digest, content.signature);
    copy();
    let at_destination = block_on(
        destination
            .pusher()
            .get("resigned", &format!("manifests/{sig_tag}")),
    );
    assert_eq!(
        strake::oci::Digest::of(&at_destination).to_string(),
        resigned.manifest_digest
    );
    let tags = block_on(destination.pusher().tags("resigned"));
    for signature in [&content.signature, &resigned.manifest_digest] {
        let tag = format!("{}.imgpkg", signature.replace(':', "-"));
        assert!(tags.contains(&tag), "{tag} in {tags:#?}");
    }
}

#[tokio::test]
async fn a_bounded_tag_listing_stops_after_the_page_that_passes_the_bound() {
    let registry = TestRegistry::start();
    let repo = "bounded/tags";
    let pusher = registry.pusher();
    let image = pusher.push_image(repo, "t000", OCI_MANIFEST, &[b"x"]).await;
    futures_util::stream::iter(1..250)
        .map(|i| {
            let (pusher, image) = (&pusher, &image);
            async move {
                pusher
                    .push_manifest(repo, &format!("t{i:03}"), OCI_MANIFEST, &image.manifest)
                    .await
            }
        })
        .buffer_unordered(8)
        .collect::<Vec<_>>()
        .await;
    // distribution 2.8 answers every tag at once; the proxy pages by 100.
    let proxy = FaultProxy::start(&registry.addr());
    proxy.paginate_tags(100);
    let store = RegistryClient::new(RegistryOptions::default())
        .unwrap()
        .repository(&proxy.addr(), repo);
    let pages = || -> Vec<String> {
        proxy
            .requests_matching("GET", "/tags/list")
            .into_iter()
            .map(|r| r.path)
            .collect()
    };
    // Over the bound after the second page: no third page is asked for.
    assert_eq!(store.list_tags_up_to(150).await.unwrap(), None);
    assert_eq!(
        pages(),
        [
            format!("/v2/{repo}/tags/list?n=1000"),
            format!("/v2/{repo}/tags/list?last=t099&n=1000"),
        ]
    );
    let want: Vec<String> = (0..250).map(|i| format!("t{i:03}")).collect();
    assert_eq!(
        store.list_tags_up_to(250).await.unwrap(),
        Some(want.clone())
    );
    assert_eq!(pages().len(), 5);
    // A smaller page size is asked for and followed.
    let paged = store.list_tags_paged(60, usize::MAX).await.unwrap();
    assert_eq!(paged, Some(want));
    assert_eq!(
        pages()[5..],
        [
            format!("/v2/{repo}/tags/list?n=60"),
            format!("/v2/{repo}/tags/list?last=t059&n=60"),
            format!("/v2/{repo}/tags/list?last=t119&n=60"),
            format!("/v2/{repo}/tags/list?last=t179&n=60"),
            format!("/v2/{repo}/tags/list?last=t239&n=60"),
        ]
    );
}

/// `--resume` (imgpkg's flag): a copy to a tarball that an earlier copy left
/// complete reads every layer the tarball holds from it, so the source is asked
/// for no layer but the bundles' (which the walk reads), and writes the same
/// archive again; without the flag the layers are fetched again.
#[test]
fn resume_reads_the_layers_of_the_earlier_tarball_instead_of_the_source() {
    let (source, destination, home, content) = two_registries_with_content(4096);
    let work = tempfile::tempdir().unwrap();
    let tarball = work.path().join("out.tar");
    let tar = tarball.to_str().unwrap();
    let copy = |extra: &[&str]| {
        let mut cmd = strake(home.path());
        cmd.args(["copy", "-b", &content.root_ref, "--to-tar", tar, "--json"]);
        cmd.args(extra);
        let (out, _) = run_ok(&mut cmd);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let mut first = serde_json::Value::Null;
    let [src, _] = during([&source, &destination], || first = copy(&[]));
    let written = std::fs::read(&tarball).unwrap();
    // The layers are the tarball's `sha256-<hex>.tar.gz` entries (configs
    // travel inside manifest.json, and are fetched again to write it).
    let layer_paths: Vec<String> = tar::Archive::new(&written[..])
        .entries()
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().path().unwrap().display().to_string();
            let hex = name.strip_prefix("sha256-")?.strip_suffix(".tar.gz")?;
            Some(format!("/blobs/sha256:{hex}"))
        })
        .collect();
    let layers = layer_paths.len() as u64;
    let blob_gets = |requests: &[Logged]| {
        count(requests, "GET", |p| {
            layer_paths.iter().any(|l| p.ends_with(l))
        })
    };
    assert!(layers > 0 && blob_gets(&src) as u64 >= layers, "{src:?}");
    assert_eq!(
        first["transfer"]["moved_blobs"].as_u64(),
        Some(layers),
        "{first}"
    );

    // Without --resume every layer is fetched again, besides the bundle layers
    // the walk reads for their images.yml; with it, only those.
    let mut again = serde_json::Value::Null;
    let [plain, _] = during([&source, &destination], || again = copy(&[]));
    assert_eq!(
        again["transfer"]["reused_blobs"].as_u64(),
        Some(0),
        "{again}"
    );
    assert_eq!(std::fs::read(&tarball).unwrap(), written);
    let [resumed, _] = during([&source, &destination], || again = copy(&["--resume"]));
    assert_eq!(
        again["transfer"]["reused_blobs"].as_u64(),
        Some(layers),
        "{again}"
    );
    assert_eq!(std::fs::read(&tarball).unwrap(), written);
    let bundle_layers = 3;
    assert_eq!(
        blob_gets(&plain) as u64,
        layers + bundle_layers,
        "{plain:?}"
    );
    assert_eq!(blob_gets(&resumed) as u64, bundle_layers, "{resumed:?}");

    // A layer the earlier tarball holds damaged is fetched from its source.
    let mut damaged = written.clone();
    let (_, body) = largest_layer(&written);
    damaged[body] ^= 0xff;
    std::fs::write(&tarball, &damaged).unwrap();
    let [resumed, _] = during([&source, &destination], || again = copy(&["--resume"]));
    assert_eq!(
        again["transfer"]["reused_blobs"].as_u64(),
        Some(layers - 1),
        "{again}"
    );
    assert_eq!(blob_gets(&resumed) as u64, bundle_layers + 1, "{resumed:?}");
    assert_eq!(std::fs::read(&tarball).unwrap(), written);

    // The tarball imports with every digest.
    let repo = format!("{}/resumed", destination.addr());
    run_ok(strake(home.path()).args(["copy", "--tar", tar, "--to-repo", &repo]));
    assert_relocated(&destination, "resumed", &content, home.path());
}

/// `--resume` belongs to `--to-tar`.
#[test]
fn resume_without_a_tarball_destination_is_a_usage_error() {
    let out = strake(std::path::Path::new("/"))
        .args([
            "copy",
            "-b",
            "127.0.0.1:1/x:y",
            "--to-repo",
            "127.0.0.1:1/z",
            "--resume",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--to-tar"), "{err}");
}

/// The name and body offset of the largest `sha256-*.tar.gz` entry of a tarball.
fn largest_layer(tarball: &[u8]) -> (String, usize) {
    let mut archive = tar::Archive::new(tarball);
    let mut best = (String::new(), 0, 0);
    for entry in archive.entries().unwrap() {
        let entry = entry.unwrap();
        let name = entry.path().unwrap().display().to_string();
        if name.starts_with("sha256-") && entry.size() > best.2 {
            best = (name, entry.raw_file_position() as usize, entry.size());
        }
    }
    (best.0, best.1)
}
