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
