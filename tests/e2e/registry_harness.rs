//! Checks the shared test harness itself: every registry mode starts, accepts
//! content from the independent pusher, and the fault proxy injects faults.

use crate::support;

use support::content::block_on;
use support::fault_proxy::{Fault, FaultProxy};
use support::registry::TestRegistry;

fn raw_get(url: &str) -> (u16, Vec<u8>) {
    let url = url.to_string();
    block_on(async move {
        let tls = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
        let client = reqwest::Client::builder()
            .use_preconfigured_tls(tls)
            .no_proxy()
            .build()
            .unwrap();
        let resp = client.get(&url).send().await.unwrap();
        let status = resp.status().as_u16();
        (
            status,
            resp.bytes().await.map(|b| b.to_vec()).unwrap_or_default(),
        )
    })
}

#[test]
fn plain_registry_accepts_pushed_blobs() {
    let reg = TestRegistry::start();
    let digest = block_on(reg.pusher().push_blob("harness/plain", b"hello"));
    assert!(reg.stores_blob(&digest));
    let (status, body) = raw_get(&format!("{}/v2/harness/plain/blobs/{digest}", reg.url()));
    assert_eq!((status, body.as_slice()), (200, &b"hello"[..]));
}

#[test]
fn htpasswd_token_and_tls_registries_start_and_accept_content() {
    let basic = TestRegistry::with_htpasswd("alice", "s3cret");
    let d = block_on(basic.pusher().push_blob("harness/basic", b"basic"));
    assert!(basic.stores_blob(&d));
    let (status, _) = raw_get(&format!("{}/v2/", basic.url()));
    assert_eq!(status, 401);

    let token = TestRegistry::with_token_auth("bob", "pw");
    let d = block_on(token.pusher().push_blob("harness/token", b"token"));
    assert!(token.stores_blob(&d), "{}", token.log());

    let tls = TestRegistry::with_tls();
    let d = block_on(tls.pusher().push_blob("harness/tls", b"tls"));
    assert!(tls.stores_blob(&d));
}

#[test]
fn fault_proxy_injects_statuses_and_damages_bodies() {
    let reg = TestRegistry::start();
    let digest = block_on(reg.pusher().push_blob("harness/proxy", b"0123456789"));
    let proxy = FaultProxy::start(&reg.addr());
    let url = format!("http://{}/v2/harness/proxy/blobs/{digest}", proxy.addr());
    proxy.inject(Some("GET"), "/blobs/", Fault::status(503), 1);
    proxy.inject(Some("GET"), "/blobs/", Fault::FlipByte { offset: 0 }, 1);
    assert_eq!(raw_get(&url).0, 503);
    let (status, body) = raw_get(&url);
    assert_eq!(status, 200);
    assert_eq!(body[0], b'0' ^ 0xff);
    assert_eq!(&body[1..], b"123456789");
    assert_eq!(raw_get(&url), (200, b"0123456789".to_vec()));
    assert_eq!(proxy.requests_matching("GET", "/blobs/").len(), 3);
}

#[test]
fn client_options_and_docker_config_reach_each_mode() {
    use strake::oci::Store;
    use strake::oci::registry::{RegistryClient, RegistryOptions};
    for reg in [
        TestRegistry::with_htpasswd("carol", "pw1"),
        TestRegistry::with_token_auth("dave", "pw2"),
        TestRegistry::with_tls(),
    ] {
        let pushed = block_on(reg.pusher().push_image(
            "harness/opts",
            "v1",
            strake::oci::media_types::DOCKER_MANIFEST,
            &[b"l"],
        ));
        let store = RegistryClient::new(reg.client_options())
            .unwrap()
            .repository(&reg.addr(), "harness/opts");
        let got = block_on(async move { store.get_manifest("v1").await.unwrap() });
        assert_eq!(got.digest.as_str(), pushed.manifest_digest);

        let dir = tempfile::tempdir().unwrap();
        let options = RegistryOptions {
            docker_config_dir: Some(reg.write_docker_config(dir.path())),
            ca_cert_paths: reg
                .ca_cert()
                .map(|c| vec![c.to_path_buf()])
                .unwrap_or_default(),
            ..RegistryOptions::default()
        };
        let store = RegistryClient::new(options)
            .unwrap()
            .repository(&reg.addr(), "harness/opts");
        let tags = block_on(async move { store.list_tags().await.unwrap() });
        assert_eq!(tags, vec!["v1"]);
    }
}
