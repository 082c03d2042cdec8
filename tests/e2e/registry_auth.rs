//! Authentication against a real `docker-registry`: htpasswd (Basic) with
//! credentials from flags, the env keychain, docker `config.json` and credential
//! helpers; bearer tokens from a token issuer (reuse, scopes, identity tokens,
//! registry tokens); and the errors when credentials are missing or wrong.

use crate::support;

use base64::Engine;
use bytes::Bytes;
use futures_util::StreamExt;
use strake::oci::media_types::OCI_MANIFEST;
use strake::oci::registry::credentials::env_keychain::EnvKeychain;
use strake::oci::registry::{FlagCredentials, RegistryClient, RegistryOptions, RegistryStore};
use strake::oci::stream::bytes_stream;
use strake::oci::{Descriptor, Digest, ManifestBytes, OciError, Store};
use support::registry::{Auth, RegistryConfig, TestRegistry};
use support::token_issuer::IssuerConfig;

const USER: &str = "alice";
const PASS: &str = "pa55-w0rd";

fn with_flags(username: &str, password: &str) -> RegistryOptions {
    RegistryOptions {
        flag_credentials: FlagCredentials {
            username: Some(username.into()),
            password: Some(password.into()),
            ..FlagCredentials::default()
        },
        ..RegistryOptions::default()
    }
}

fn store(options: RegistryOptions, reg: &TestRegistry, repo: &str) -> RegistryStore {
    RegistryClient::new(options)
        .unwrap()
        .repository(&reg.addr(), repo)
}

/// Pushes a one-layer image through `store` and reads it back; returns its digest.
async fn push_and_pull(store: &RegistryStore, tag: &str) -> strake::oci::Result<Digest> {
    let layer = format!("layer of {}:{tag}", store.location()).into_bytes();
    let config = br#"{"architecture":"amd64","os":"linux"}"#.to_vec();
    let desc = |data: &[u8], media_type: &str| Descriptor {
        media_type: media_type.into(),
        digest: Digest::of(data),
        size: data.len() as u64,
    };
    let layer_d = desc(&layer, strake::oci::media_types::OCI_LAYER_GZIP);
    let config_d = desc(&config, strake::oci::media_types::OCI_CONFIG);
    store
        .put_blob(&layer_d, bytes_stream(Bytes::from(layer.clone())))
        .await?;
    store
        .put_blob(&config_d, bytes_stream(Bytes::from(config.clone())))
        .await?;
    let manifest = serde_json::json!({
        "schemaVersion": 2, "mediaType": OCI_MANIFEST,
        "config": {"mediaType": config_d.media_type, "digest": config_d.digest.as_str(), "size": config_d.size},
        "layers": [{"mediaType": layer_d.media_type, "digest": layer_d.digest.as_str(), "size": layer_d.size}],
    });
    let m = ManifestBytes::new(OCI_MANIFEST, serde_json::to_vec(&manifest).unwrap());
    store.put_manifest(&m, Some(tag)).await?;
    let back = store.get_manifest(tag).await?;
    assert_eq!(back, m);
    let mut s = store.get_blob(&layer_d.digest).await?;
    let mut got = Vec::new();
    while let Some(c) = s.next().await {
        got.extend_from_slice(&c?);
    }
    assert_eq!(got, layer);
    assert_eq!(store.list_tags().await?, vec![tag.to_string()]);
    Ok(m.digest)
}

fn docker_config(dir: &std::path::Path, json: &str) -> RegistryOptions {
    std::fs::write(dir.join("config.json"), json).unwrap();
    RegistryOptions {
        docker_config_dir: Some(dir.to_path_buf()),
        helper_path: Some(dir.as_os_str().to_owned()),
        ..RegistryOptions::default()
    }
}

#[tokio::test]
async fn htpasswd_with_flag_credentials() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    push_and_pull(&store(with_flags(USER, PASS), &reg, "basic/flags"), "v1")
        .await
        .unwrap();
    // The same content is refused without the credentials.
    let anon = store(RegistryOptions::default(), &reg, "basic/flags");
    assert!(anon.get_manifest("v1").await.is_err());
}

#[tokio::test]
async fn missing_credentials_say_how_to_log_in() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    let s = store(RegistryOptions::default(), &reg, "basic/anon");
    let err = s.get_manifest("v1").await.unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!("{}: authentication required", reg.addr())),
        "{text}"
    );
    assert!(
        text.contains(&format!("run `docker login {}`", reg.addr()))
            && text.contains("--registry-username/--registry-password")
            && text.contains("basic/anon"),
        "{text}"
    );
}

#[tokio::test]
async fn wrong_password_names_the_source_not_the_secret() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    let s = store(with_flags(USER, "wrong-secret-xyz"), &reg, "basic/wrong");
    let text = s.list_tags().await.unwrap_err().to_string();
    assert!(
        text.contains("authentication required")
            && text.contains(
                "the credentials from --registry-username/--registry-password were not accepted"
            ),
        "{text}"
    );
    assert!(!text.contains("wrong-secret-xyz"), "{text}");
}

#[tokio::test]
async fn env_keychain_wins_over_flags() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    let options = RegistryOptions {
        env_keychain: EnvKeychain::from_vars([
            (
                "IMGPKG_REGISTRY_HOSTNAME_0".to_string(),
                format!("http://{}/v2/", reg.addr()),
            ),
            ("IMGPKG_REGISTRY_USERNAME_0".to_string(), USER.to_string()),
            ("IMGPKG_REGISTRY_PASSWORD_0".to_string(), PASS.to_string()),
        ]),
        ..with_flags(USER, "not-this-one")
    };
    push_and_pull(&store(options, &reg, "basic/env"), "v1")
        .await
        .unwrap();
}

#[tokio::test]
async fn docker_config_inline_auths() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    let dir = tempfile::tempdir().unwrap();
    let b64 = base64::engine::general_purpose::STANDARD.encode(format!("{USER}:{PASS}"));
    let options = docker_config(
        dir.path(),
        &format!(r#"{{"auths":{{"{}":{{"auth":"{b64}"}}}}}}"#, reg.addr()),
    );
    push_and_pull(&store(options, &reg, "basic/config"), "v1")
        .await
        .unwrap();

    // URL-shaped keys match by host.
    let options = docker_config(
        dir.path(),
        &format!(
            r#"{{"auths":{{"http://{}/v2/":{{"username":"{USER}","password":"{PASS}"}}}}}}"#,
            reg.addr()
        ),
    );
    push_and_pull(&store(options, &reg, "basic/config-url"), "v1")
        .await
        .unwrap();

    // A config whose credentials are wrong: the error names the file, not the secret.
    let options = docker_config(
        dir.path(),
        &format!(
            r#"{{"auths":{{"{}":{{"username":"{USER}","password":"bad-pass-123"}}}}}}"#,
            reg.addr()
        ),
    );
    let text = store(options, &reg, "basic/config-bad")
        .list_tags()
        .await
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("config.json") && !text.contains("bad-pass-123"),
        "{text}"
    );
}

#[tokio::test]
async fn docker_credential_helpers() {
    let reg = TestRegistry::with_htpasswd(USER, PASS);
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.log");
    support::write_script(
        &dir.path().join("docker-credential-test"),
        &format!(
            r#"read server
echo "$1 $server" >> {calls}
if [ "$server" = "{addr}" ]; then
  echo '{{"ServerURL":"{addr}","Username":"{USER}","Secret":"{PASS}"}}'
else
  echo "credentials not found in native keychain"; exit 1
fi
"#,
            calls = calls.display(),
            addr = reg.addr()
        ),
    );
    let options = docker_config(dir.path(), r#"{"credsStore":"test"}"#);
    push_and_pull(&store(options, &reg, "helper/store"), "v1")
        .await
        .unwrap();
    let log = std::fs::read_to_string(&calls).unwrap();
    // Asked for the repository key first, then the host; once per client.
    assert_eq!(
        log,
        format!("get {0}/helper/store\nget {0}\n", reg.addr()),
        "{log}"
    );

    let options = docker_config(
        dir.path(),
        &format!(
            r#"{{"credsStore":"missing-helper","credHelpers":{{"{}":"test"}}}}"#,
            reg.addr()
        ),
    );
    push_and_pull(&store(options, &reg, "helper/per-host"), "v1")
        .await
        .unwrap();
}

fn token_registry(config: IssuerConfig) -> TestRegistry {
    TestRegistry::start_with(RegistryConfig {
        auth: Auth::Token(config),
        tls: false,
    })
}

#[tokio::test]
async fn bearer_tokens_are_fetched_once_and_reused() {
    let reg = TestRegistry::with_token_auth(USER, PASS);
    let client = RegistryClient::new(with_flags(USER, PASS)).unwrap();
    let s = client.repository(&reg.addr(), "token/app");
    push_and_pull(&s, "v1").await.unwrap();
    let issuer = reg.issuer().unwrap();
    let requests = issuer.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].user.as_deref(), Some(USER));
    assert_eq!(requests[0].scopes, vec!["repository:token/app:push,pull"]);

    // Concurrent requests of a fresh client share one token fetch.
    let fresh = RegistryClient::new(with_flags(USER, PASS))
        .unwrap()
        .repository(&reg.addr(), "token/busy");
    let blobs: Vec<Vec<u8>> = (0..8).map(|i| format!("blob {i}").into_bytes()).collect();
    let uploads = blobs.iter().map(|b| {
        let d = Descriptor {
            media_type: "application/octet-stream".into(),
            digest: Digest::of(b),
            size: b.len() as u64,
        };
        let fresh = fresh.clone();
        let b = b.clone();
        async move { fresh.put_blob(&d, bytes_stream(Bytes::from(b))).await }
    });
    for r in futures_util::future::join_all(uploads).await {
        r.unwrap();
    }
    let busy: Vec<_> = issuer
        .requests()
        .into_iter()
        .filter(|r| r.scopes.iter().any(|s| s.contains("token/busy")))
        .collect();
    assert_eq!(busy.len(), 1, "{busy:?}");
    let issuer_before_reader = issuer.requests().len();

    // A pull-only client fetches a pull token once for many reads.
    let reader = RegistryClient::new(with_flags(USER, PASS))
        .unwrap()
        .repository(&reg.addr(), "token/app");
    for _ in 0..3 {
        reader.get_manifest("v1").await.unwrap();
        reader.list_tags().await.unwrap();
    }
    let requests = issuer.requests();
    assert_eq!(requests.len(), issuer_before_reader + 1, "{requests:?}");
    assert_eq!(
        requests.last().unwrap().scopes,
        vec!["repository:token/app:pull"]
    );

    // A mount asks for push on the target and pull on the source in one token.
    let target = client.repository(&reg.addr(), "token/copy");
    let manifest = s.get_manifest("v1").await.unwrap();
    for d in manifest.references("t").unwrap() {
        assert!(target.mount_blob(&d, &s).await.unwrap(), "{}", d.digest);
    }
    let last = issuer.requests().last().unwrap().clone();
    let mut scopes = last.scopes.clone();
    scopes.sort();
    assert_eq!(
        scopes,
        vec![
            "repository:token/app:pull",
            "repository:token/copy:push,pull"
        ]
    );
    target.put_manifest(&manifest, Some("v1")).await.unwrap();
    assert_eq!(
        target.resolve("v1").await.unwrap(),
        Some(manifest.descriptor())
    );
}

#[tokio::test]
async fn bearer_errors_without_or_with_wrong_credentials() {
    let reg = TestRegistry::with_token_auth(USER, PASS);
    let anon = store(RegistryOptions::default(), &reg, "token/anon");
    let text = anon.list_tags().await.unwrap_err().to_string();
    assert!(
        text.contains(&format!("run `docker login {}`", reg.addr())) && text.contains("token/anon"),
        "{text}"
    );
    // Anonymous tokens were asked for (and granted nothing).
    let requests = reg.issuer().unwrap().requests();
    assert!(
        !requests.is_empty() && requests.iter().all(|r| r.user.is_none()),
        "{requests:?}"
    );

    let wrong = store(with_flags(USER, "nope-nope"), &reg, "token/wrong");
    let err = wrong.list_tags().await.unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("token service")
            && text.contains("rejected the credentials from --registry-username"),
        "{text}"
    );
    assert!(!text.contains("nope-nope"), "{text}");
}

#[tokio::test]
async fn identity_tokens_use_the_oauth2_post_flow() {
    let mut config = IssuerConfig::new(USER, PASS);
    config.identity_token = Some("id-token-42".into());
    let reg = token_registry(config);
    let dir = tempfile::tempdir().unwrap();
    let options = docker_config(
        dir.path(),
        &format!(
            r#"{{"auths":{{"{}":{{"identitytoken":"id-token-42"}}}}}}"#,
            reg.addr()
        ),
    );
    push_and_pull(&store(options, &reg, "token/oauth"), "v1")
        .await
        .unwrap();
    let requests = reg.issuer().unwrap().requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].grant_type.as_deref(), Some("refresh_token"));
    assert_eq!(requests[0].scopes, vec!["repository:token/oauth:push,pull"]);
}

#[tokio::test]
async fn identity_token_falls_back_to_get_when_post_is_not_served() {
    let mut config = IssuerConfig::new(USER, PASS);
    config.identity_token = Some("id-token-42".into());
    config.allow_post = false;
    let reg = token_registry(config);
    let dir = tempfile::tempdir().unwrap();
    let options = docker_config(
        dir.path(),
        &format!(
            r#"{{"auths":{{"{}":{{"identitytoken":"id-token-42"}}}}}}"#,
            reg.addr()
        ),
    );
    // The GET flow has no way to present an identity token: access is refused,
    // but only after the fallback was tried.
    let err = store(options, &reg, "token/fallback")
        .list_tags()
        .await
        .unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");
    let methods: Vec<String> = reg
        .issuer()
        .unwrap()
        .requests()
        .into_iter()
        .map(|r| r.method)
        .collect();
    assert_eq!(&methods[..2], ["POST", "GET"], "{methods:?}");
}

#[tokio::test]
async fn registry_token_is_sent_without_exchange() {
    let reg = TestRegistry::with_token_auth(USER, PASS);
    let token = (reg.issuer().unwrap().minter())("token/direct");
    let options = RegistryOptions {
        flag_credentials: FlagCredentials {
            token: Some(token),
            ..FlagCredentials::default()
        },
        ..RegistryOptions::default()
    };
    push_and_pull(&store(options, &reg, "token/direct"), "v1")
        .await
        .unwrap();
    assert!(reg.issuer().unwrap().requests().is_empty());
}

/// A streamed upload (digest unknown until the end) is sent once, without the
/// 401 dance: the session's `POST` settles the credentials it then reuses.
#[tokio::test]
async fn streamed_uploads_reuse_the_sessions_credentials() {
    let data: Vec<u8> = (0..(3 << 20) + 99u32).map(|i| (i % 253) as u8).collect();
    let pieces = |data: &[u8]| -> strake::oci::stream::BlobStream {
        let items: Vec<strake::oci::Result<Bytes>> = data
            .chunks(200_000)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        Box::pin(futures_util::stream::iter(items))
    };
    let basic = TestRegistry::with_htpasswd(USER, PASS);
    let token = TestRegistry::with_token_auth(USER, PASS);
    for reg in [&basic, &token] {
        let s = store(with_flags(USER, PASS), reg, "streamed/app");
        let desc = s
            .put_blob_stream("application/octet-stream", pieces(&data))
            .await
            .unwrap();
        assert_eq!(desc.digest, Digest::of(&data));
        assert_eq!(desc.size, data.len() as u64);
        assert!(reg.stores_blob(desc.digest.as_str()));
        let mut got = Vec::new();
        let mut blob = s.get_blob(&desc.digest).await.unwrap();
        while let Some(c) = blob.next().await {
            got.extend_from_slice(&c.unwrap());
        }
        assert_eq!(got, data);
    }
    let requests = token.issuer().unwrap().requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(
        requests[0].scopes,
        vec!["repository:streamed/app:push,pull"]
    );

    // Without credentials the session cannot even start; the error says so.
    let anon = store(RegistryOptions::default(), &basic, "streamed/anon");
    let err = anon
        .put_blob_stream("application/octet-stream", pieces(&data))
        .await
        .unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");
}
