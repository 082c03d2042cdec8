//! Puts test content into a [`TestRegistry`] over plain reqwest calls that do not
//! go through strake's registry client (so tests of that client check it against
//! an independent writer). Handles every registry mode: Basic credentials, tokens
//! taken straight from the test issuer, and the test CA for TLS.

use std::future::Future;
use std::sync::Arc;

use base64::Engine;
use strake::oci::Digest;

use super::registry::{Auth, TestRegistry};
use super::token_issuer::Minter;

/// Runs a future to completion on a fresh runtime in its own thread; usable from
/// sync tests and from inside async tests alike.
pub fn block_on<F>(future: F) -> F::Output
where
    F: Future + Send,
    F::Output: Send,
{
    std::thread::scope(|s| {
        s.spawn(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime")
                .block_on(future)
        })
        .join()
        .expect("block_on thread")
    })
}

/// An image pushed by [`Pusher::push_image`].
#[derive(Clone, Debug)]
pub struct PushedImage {
    pub manifest: Vec<u8>,
    pub manifest_digest: String,
    pub media_type: String,
    pub config: Vec<u8>,
    pub config_digest: String,
    pub layers: Vec<(String, Vec<u8>)>,
}

/// An independent writer into a test registry.
pub struct Pusher {
    client: reqwest::Client,
    base: String,
    auth: Auth,
    registry_token: Option<Minter>,
}

impl TestRegistry {
    /// A writer for this registry, authenticated as its user.
    pub fn pusher(&self) -> Pusher {
        let mut roots = rustls::RootCertStore::empty();
        if let Some(ca) = self.ca_cert() {
            use rustls::pki_types::{CertificateDer, pem::PemObject};
            for cert in CertificateDer::pem_file_iter(ca).expect("reading CA") {
                roots.add(cert.expect("CA cert")).expect("adding CA");
            }
        }
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("rustls config")
        .with_root_certificates(roots)
        .with_no_client_auth();
        let client = reqwest::Client::builder()
            .use_preconfigured_tls(tls)
            .no_proxy()
            .build()
            .expect("pusher client");
        let registry_token = self.issuer().map(|issuer| issuer.minter());
        Pusher {
            client,
            base: self.url(),
            auth: self.config().auth.clone(),
            registry_token,
        }
    }
}

impl Pusher {
    fn authorize(&self, req: reqwest::RequestBuilder, repo: &str) -> reqwest::RequestBuilder {
        match &self.auth {
            Auth::None => req,
            Auth::Htpasswd { username, password } => {
                let encoded = base64::engine::general_purpose::STANDARD
                    .encode(format!("{username}:{password}"));
                req.header("authorization", format!("Basic {encoded}"))
            }
            Auth::Token(_) => {
                let token = (self.registry_token.as_ref().expect("issuer"))(repo);
                req.header("authorization", format!("Bearer {token}"))
            }
        }
    }

    /// `GET /v2/<repo>/<what>` (`tags/list`, `manifests/<ref>` in any media type,
    /// `blobs/<digest>`), asserting success; returns the body.
    pub async fn get(&self, repo: &str, what: &str) -> Vec<u8> {
        let url = format!("{}/v2/{repo}/{what}", self.base);
        let resp = self
            .authorize(self.client.get(&url), repo)
            .header(
                "accept",
                "application/vnd.docker.distribution.manifest.v2+json, \
                 application/vnd.docker.distribution.manifest.list.v2+json, \
                 application/vnd.oci.image.manifest.v1+json, \
                 application/vnd.oci.image.index.v1+json",
            )
            .send()
            .await
            .expect("GET");
        assert!(resp.status().is_success(), "GET {url}: {}", resp.status());
        resp.bytes().await.expect("body").to_vec()
    }

    /// The status of `GET /v2/<repo>/<what>`.
    pub async fn status(&self, repo: &str, what: &str) -> u16 {
        let url = format!("{}/v2/{repo}/{what}", self.base);
        self.authorize(self.client.get(&url), repo)
            .send()
            .await
            .expect("GET")
            .status()
            .as_u16()
    }

    /// Sorted tags of `repo`.
    pub async fn tags(&self, repo: &str) -> Vec<String> {
        let body: serde_json::Value =
            serde_json::from_slice(&self.get(repo, "tags/list").await).expect("tags JSON");
        let mut tags: Vec<String> = body["tags"]
            .as_array()
            .map(|a| a.iter().map(|t| t.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        tags.sort();
        tags
    }

    /// Uploads a blob (POST + PUT) and returns its digest.
    pub async fn push_blob(&self, repo: &str, data: &[u8]) -> String {
        let digest = Digest::of(data).to_string();
        let url = format!("{}/v2/{repo}/blobs/uploads/", self.base);
        let resp = self
            .authorize(self.client.post(&url), repo)
            .header("content-length", "0")
            .send()
            .await
            .expect("POST upload");
        assert_eq!(
            resp.status().as_u16(),
            202,
            "POST {url}: {:?}",
            resp.text().await
        );
        let location = resp.headers()["location"].to_str().unwrap().to_string();
        let mut put = url::Url::parse(&url).unwrap().join(&location).unwrap();
        put.query_pairs_mut().append_pair("digest", &digest);
        let resp = self
            .authorize(self.client.put(put.as_str()), repo)
            .header("content-type", "application/octet-stream")
            .body(data.to_vec())
            .send()
            .await
            .expect("PUT upload");
        assert_eq!(
            resp.status().as_u16(),
            201,
            "PUT {put}: {:?}",
            resp.text().await
        );
        digest
    }

    /// Puts a manifest under `reference` (a tag or digest); returns its digest.
    pub async fn push_manifest(
        &self,
        repo: &str,
        reference: &str,
        media_type: &str,
        bytes: &[u8],
    ) -> String {
        let url = format!("{}/v2/{repo}/manifests/{reference}", self.base);
        let resp = self
            .authorize(self.client.put(&url), repo)
            .header("content-type", media_type)
            .body(bytes.to_vec())
            .send()
            .await
            .expect("PUT manifest");
        assert_eq!(
            resp.status().as_u16(),
            201,
            "PUT {url}: {:?}",
            resp.text().await
        );
        Digest::of(bytes).to_string()
    }

    /// Pushes an image of `media_type` (Docker v2 or OCI manifest) with a small
    /// config and the given layers, tagged `tag`.
    pub async fn push_image(
        &self,
        repo: &str,
        tag: &str,
        media_type: &str,
        layers: &[&[u8]],
    ) -> PushedImage {
        let docker = media_type == strake::oci::media_types::DOCKER_MANIFEST;
        let (config_type, layer_type) = if docker {
            (
                strake::oci::media_types::DOCKER_CONFIG,
                strake::oci::media_types::DOCKER_LAYER_GZIP,
            )
        } else {
            (
                strake::oci::media_types::OCI_CONFIG,
                strake::oci::media_types::OCI_LAYER_GZIP,
            )
        };
        let config = format!(
            r#"{{"architecture":"amd64","os":"linux","rootfs":{{"type":"layers","diff_ids":[]}},"config":{{"Labels":{{"test":"{repo}-{tag}"}}}}}}"#
        )
        .into_bytes();
        let config_digest = self.push_blob(repo, &config).await;
        let mut layer_descs = Vec::new();
        let mut pushed_layers = Vec::new();
        for layer in layers {
            let d = self.push_blob(repo, layer).await;
            layer_descs.push(serde_json::json!({
                "mediaType": layer_type, "digest": d, "size": layer.len()
            }));
            pushed_layers.push((d, layer.to_vec()));
        }
        let manifest = serde_json::to_vec(&serde_json::json!({
            "schemaVersion": 2,
            "mediaType": media_type,
            "config": {"mediaType": config_type, "digest": config_digest, "size": config.len()},
            "layers": layer_descs,
        }))
        .unwrap();
        let manifest_digest = self.push_manifest(repo, tag, media_type, &manifest).await;
        PushedImage {
            manifest,
            manifest_digest,
            media_type: media_type.to_string(),
            config,
            config_digest,
            layers: pushed_layers,
        }
    }
}
