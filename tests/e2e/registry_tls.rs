//! TLS: a registry with a certificate from a test CA is refused until the CA is
//! given with `--registry-ca-cert-path` (here `ca_cert_paths`).

use crate::support;

use bytes::Bytes;
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::stream::bytes_stream;
use strake::oci::{Descriptor, Digest, Store};
use support::registry::TestRegistry;

#[tokio::test]
async fn tls_needs_the_ca_and_works_with_it() {
    let reg = TestRegistry::with_tls();
    let without = RegistryClient::new(RegistryOptions::default())
        .unwrap()
        .repository(&reg.addr(), "tls/app");
    let text = without.list_tags().await.unwrap_err().to_string();
    assert!(
        text.starts_with(&format!(
            "{}: cannot reach the registry: https: ",
            reg.addr()
        )) && text.contains("certificate")
            && text.contains("UnknownIssuer")
            && text.contains("pass --registry-ca-cert-path"),
        "{text}"
    );

    let options = RegistryOptions {
        ca_cert_paths: vec![reg.ca_cert().unwrap().to_path_buf()],
        ..RegistryOptions::default()
    };
    let store = RegistryClient::new(options)
        .unwrap()
        .repository(&reg.addr(), "tls/app");
    let data = Bytes::from_static(b"over tls");
    let d = Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(&data),
        size: data.len() as u64,
    };
    store
        .put_blob(&d, bytes_stream(data.clone()))
        .await
        .unwrap();
    assert_eq!(store.blob_size(&d.digest).await.unwrap(), Some(8));
    assert!(reg.stores_blob(d.digest.as_str()));
    assert_eq!(store.list_tags().await.unwrap(), Vec::<String>::new());
}

#[tokio::test]
async fn insecure_registries_use_plain_http_only() {
    let reg = TestRegistry::start();
    let options = RegistryOptions {
        insecure_registries: vec![reg.addr()],
        ..RegistryOptions::default()
    };
    let store = RegistryClient::new(options)
        .unwrap()
        .repository(&reg.addr(), "tls/plain");
    assert_eq!(store.list_tags().await.unwrap(), Vec::<String>::new());

    let tls = TestRegistry::with_tls();
    let options = RegistryOptions {
        insecure_registries: vec![tls.addr()],
        ..RegistryOptions::default()
    };
    let text = RegistryClient::new(options)
        .unwrap()
        .repository(&tls.addr(), "tls/plain")
        .list_tags()
        .await
        .unwrap_err()
        .to_string();
    // Named insecure: https is not even tried, though it would have worked.
    assert!(
        text.contains("cannot reach the registry: http: ") && !text.contains("https:"),
        "{text}"
    );
}

/// imgpkg's `--registry-verify-certs=false` (and `IMGPKG_REGISTRY_VERIFY_CERTS`)
/// accepts a certificate from a CA nobody trusts; without it the same command is
/// refused for the certificate.
#[test]
fn verify_certs_false_accepts_an_untrusted_certificate() {
    let reg = TestRegistry::with_tls();
    let home = tempfile::tempdir().unwrap();
    let repo = format!("{}/tls/app", reg.addr());
    let image = support::cli::image_fixture("app");
    let src = format!("oci:{}:v1", image.display());
    let refused = support::cli::strake(home.path())
        .args(["image", "copy", &src, &format!("{repo}:v1")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("UnknownIssuer"),
        "{err}"
    );
    let (out, _) = support::cli::run_ok(support::cli::strake(home.path()).args([
        "image",
        "copy",
        &src,
        &format!("{repo}:v1"),
        "--registry-verify-certs=false",
    ]));
    assert!(out.starts_with(&format!("{repo}@sha256:")), "{out}");
    let (tags, _) = support::cli::run_ok(
        support::cli::strake(home.path())
            .args(["tag", "list", &repo])
            .env("IMGPKG_REGISTRY_VERIFY_CERTS", "false"),
    );
    assert_eq!(tags, "v1\n");
}
