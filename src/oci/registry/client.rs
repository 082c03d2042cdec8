//! [`RegistryClient`]: the shared HTTP client, the `/v2/` ping that picks the
//! scheme and learns the auth challenge, credential and token caches, and
//! [`RegistryClient::send`], which authorizes, retries and re-authenticates one
//! request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use reqwest::header::{AUTHORIZATION, HeaderMap, WWW_AUTHENTICATE};
use reqwest::{Method, StatusCode, Url};
use tokio::sync::OnceCell;

use crate::oci::reference::is_loopback_host;
use crate::oci::registry::challenge::Challenge;
use crate::oci::registry::credentials::{self, Credential, Resolved};
use crate::oci::registry::scope::{self, Scope};
use crate::oci::registry::token::{Realm, TokenCache};
use crate::oci::registry::{RegistryOptions, RegistryStore, errors, retry, tls, transport_error};
use crate::oci::{OciError, Reference, Result};

/// A registry as reached: its base URL and what `/v2/` asked for.
pub(crate) struct Endpoint {
    pub base: Url,
    pub challenge: RwLock<Challenge>,
}

struct Inner {
    http: reqwest::Client,
    /// The same client without a read timeout, for streamed request bodies.
    streaming: reqwest::Client,
    options: RegistryOptions,
    endpoints: Mutex<HashMap<String, Arc<OnceCell<Arc<Endpoint>>>>>,
    credentials: tokio::sync::Mutex<HashMap<(String, String), Resolved>>,
    tokens: TokenCache,
    /// How many 429 (Too Many Requests) answers this client has seen.
    throttled: std::sync::atomic::AtomicU64,
}

/// A registry client; clones share connections, credentials and tokens.
#[derive(Clone)]
pub struct RegistryClient {
    inner: Arc<Inner>,
}

/// One request to send: the body is in memory, so it can be sent again.
pub(crate) struct Call {
    pub method: Method,
    pub url: Url,
    pub headers: HeaderMap,
    pub body: Option<Bytes>,
    /// A body held as several pieces, sent one after the other (set
    /// `content-length` with it: the pieces are streamed).
    pub parts: Option<Vec<Bytes>>,
    pub scopes: Vec<Scope>,
}

impl Call {
    pub fn new(method: Method, url: Url, scopes: Vec<Scope>) -> Call {
        Call {
            method,
            url,
            headers: HeaderMap::new(),
            body: None,
            parts: None,
            scopes,
        }
    }

    pub fn header(mut self, name: &'static str, value: &str) -> Call {
        if let Ok(v) = value.parse() {
            self.headers.insert(name, v);
        }
        self
    }

    pub fn body(mut self, body: Bytes) -> Call {
        self.body = Some(body);
        self
    }

    pub fn body_parts(mut self, parts: Vec<Bytes>) -> Call {
        match <[Bytes; 1]>::try_from(parts) {
            Ok([one]) => self.body = Some(one),
            Err(parts) => self.parts = Some(parts),
        }
        self
    }
}

impl std::fmt::Debug for RegistryClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegistryClient")
            .field("options", &self.inner.options)
            .finish_non_exhaustive()
    }
}

impl RegistryClient {
    /// Builds the client (TLS roots are read here: a bad CA file fails now).
    pub fn new(options: RegistryOptions) -> Result<RegistryClient> {
        let tls = tls::client_config(&options.ca_cert_paths, options.verify_certs)?;
        let builder = |read_timeout: Option<Duration>| {
            let mut b = reqwest::Client::builder()
                .use_preconfigured_tls(tls.clone())
                .http1_only()
                .connect_timeout(options.connect_timeout)
                .pool_idle_timeout(Duration::from_secs(90))
                .redirect(reqwest::redirect::Policy::limited(10))
                .user_agent(concat!("strake/", env!("CARGO_PKG_VERSION")));
            if let Some(t) = read_timeout {
                b = b.read_timeout(t);
            }
            b.build().map_err(|e| OciError::Invalid {
                location: "registry client".into(),
                detail: transport_error(&e),
            })
        };
        let http = builder(Some(options.read_timeout))?;
        // reqwest's read timeout runs from the start of a request to its answer,
        // which a long streamed upload would exceed; streamed requests watch for
        // stalls themselves (see `upload_stream`).
        let streaming = builder(None)?;
        Ok(RegistryClient {
            inner: Arc::new(Inner {
                http,
                streaming,
                options,
                endpoints: Mutex::new(HashMap::new()),
                credentials: tokio::sync::Mutex::new(HashMap::new()),
                tokens: TokenCache::default(),
                throttled: std::sync::atomic::AtomicU64::new(0),
            }),
        })
    }

    pub fn options(&self) -> &RegistryOptions {
        &self.inner.options
    }

    /// How many 429 (Too Many Requests) answers this client has seen so far, retried
    /// or not; a caller that schedules many requests backs off when it grows.
    pub fn throttled_responses(&self) -> u64 {
        self.inner
            .throttled
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The repository `reference` names (its tag or digest is not used).
    pub fn store(&self, reference: &Reference) -> RegistryStore {
        self.repository(reference.registry(), reference.repository())
    }

    /// Repository `repository` on `registry` (`host[:port]`).
    pub fn repository(&self, registry: &str, repository: &str) -> RegistryStore {
        RegistryStore::new(self.clone(), registry, repository)
    }

    /// The registry's endpoint, pinging `/v2/` the first time.
    pub(crate) async fn endpoint(&self, registry: &str) -> Result<Arc<Endpoint>> {
        let cell = self
            .inner
            .endpoints
            .lock()
            .unwrap()
            .entry(registry.to_string())
            .or_default()
            .clone();
        cell.get_or_try_init(|| async { self.ping(registry).await.map(Arc::new) })
            .await
            .cloned()
    }

    /// `<base>/v2/<path>` on `registry`.
    pub(crate) async fn url(&self, registry: &str, path: &str) -> Result<Url> {
        let endpoint = self.endpoint(registry).await?;
        endpoint
            .base
            .join(&format!("v2/{path}"))
            .map_err(|e| OciError::Registry {
                registry: registry.to_string(),
                detail: format!("bad path {path:?}: {e}"),
            })
    }

    /// Plain HTTP for registries the user named insecure; https then http for
    /// loopback registries (as ggcr); https otherwise.
    async fn ping(&self, registry: &str) -> Result<Endpoint> {
        let options = &self.inner.options;
        let schemes: &[&str] = if options.is_insecure(registry) {
            &["http"]
        } else if is_loopback_host(registry) {
            &["https", "http"]
        } else {
            &["https"]
        };
        let mut failures = Vec::new();
        for (i, scheme) in schemes.iter().enumerate() {
            let last = i + 1 == schemes.len();
            let base =
                Url::parse(&format!("{scheme}://{registry}/")).map_err(|e| OciError::Registry {
                    registry: registry.to_string(),
                    detail: format!("not a valid host: {e}"),
                })?;
            let url = base.join("v2/").expect("static path");
            let mut attempt = 0;
            let outcome = loop {
                let mut probe = self.inner.http.get(url.clone());
                if !last {
                    // A server that never answers a TLS hello must not stall the
                    // fallback to plain HTTP.
                    probe = probe.timeout(Duration::from_secs(10));
                }
                match probe.send().await {
                    Ok(resp)
                        if retry::is_retryable_status(resp.status())
                            && last
                            && attempt < options.retry_count =>
                    {
                        let wait =
                            retry::delay(options, attempt, retry::retry_after(resp.headers()));
                        tokio::time::sleep(wait).await;
                    }
                    Ok(resp) => break Ok(resp),
                    Err(e)
                        if last
                            && retry::is_retryable_error(&e)
                            && attempt < options.retry_count =>
                    {
                        tokio::time::sleep(retry::delay(options, attempt, None)).await;
                    }
                    Err(e) => break Err(e),
                }
                attempt += 1;
            };
            match outcome {
                Ok(resp) => {
                    let status = resp.status();
                    let challenge = match status {
                        StatusCode::OK => Challenge::None,
                        StatusCode::UNAUTHORIZED => resp
                            .headers()
                            .get_all(WWW_AUTHENTICATE)
                            .iter()
                            .filter_map(|v| v.to_str().ok())
                            .filter_map(Challenge::parse)
                            .max_by_key(|c| matches!(c, Challenge::Bearer { .. }))
                            .unwrap_or(Challenge::Basic),
                        _ => {
                            let body = resp.bytes().await.unwrap_or_default();
                            failures.push(format!(
                                "{scheme}: {url} does not answer like an OCI registry: {}",
                                errors::describe(status, &body)
                            ));
                            continue;
                        }
                    };
                    tracing::debug!(registry, %base, ?challenge, "registry endpoint");
                    return Ok(Endpoint {
                        base,
                        challenge: RwLock::new(challenge),
                    });
                }
                Err(e) => failures.push(format!("{scheme}: {}", transport_error(&e))),
            }
        }
        let mut detail = format!("cannot reach the registry: {}", failures.join("; "));
        if failures.iter().any(|f| f.contains("certificate")) {
            detail.push_str(
                " (for a registry with a private CA, pass --registry-ca-cert-path; \
                 for plain HTTP, --insecure-registry; to accept any certificate, \
                 --registry-verify-certs=false)",
            );
        }
        Err(OciError::Registry {
            registry: registry.to_string(),
            detail,
        })
    }

    /// The credential for a repository (looked up once per client).
    pub(crate) async fn credential(&self, registry: &str, repository: &str) -> Result<Resolved> {
        let mut cache = self.inner.credentials.lock().await;
        let key = (registry.to_string(), repository.to_string());
        if let Some(found) = cache.get(&key) {
            return Ok(found.clone());
        }
        let found = credentials::resolve(&self.inner.options, registry, repository).await?;
        tracing::debug!(registry, repository, source = ?found.source, "credentials");
        cache.insert(key, found.clone());
        Ok(found)
    }

    async fn authorization(
        &self,
        registry: &str,
        endpoint: &Endpoint,
        credential: &Resolved,
        scopes: &[Scope],
        rejected: Option<&str>,
    ) -> Result<Option<String>> {
        if let Credential::RegistryToken { token } = &credential.credential {
            return Ok(Some(format!("Bearer {token}")));
        }
        let challenge = endpoint.challenge.read().unwrap().clone();
        match challenge {
            Challenge::None => Ok(None),
            Challenge::Basic => Ok(match &credential.credential {
                Credential::Basic { username, password } => Some(format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD
                        .encode(format!("{username}:{password}"))
                )),
                _ => None,
            }),
            Challenge::Bearer { realm, service, .. } => {
                let realm = Realm {
                    realm: &realm,
                    service: service.as_deref(),
                };
                let token = self
                    .inner
                    .tokens
                    .token(
                        &self.inner.http,
                        &self.inner.options,
                        registry,
                        &realm,
                        credential,
                        scopes,
                        rejected,
                    )
                    .await?;
                Ok(Some(format!("Bearer {token}")))
            }
        }
    }

    /// Sends `call` for `repository` on `registry`: authorizes it (Basic, a cached
    /// or fresh bearer token for its scopes, or a registry token), retries
    /// connection errors and retryable statuses with backoff, and answers a 401
    /// once by taking the new challenge (merging its scopes) and a new token.
    /// Any other status is returned for the caller to judge; a final 401 is an
    /// [`OciError::Unauthorized`] that says how to log in.
    pub(crate) async fn send(
        &self,
        registry: &str,
        repository: &str,
        call: Call,
    ) -> Result<reqwest::Response> {
        let options = &self.inner.options;
        let endpoint = self.endpoint(registry).await?;
        let credential = self.credential(registry, repository).await?;
        let mut scopes = call.scopes.clone();
        let mut rejected: Option<String> = None;
        let mut reauthenticated = false;
        let mut attempt = 0;
        loop {
            let auth = self
                .authorization(
                    registry,
                    &endpoint,
                    &credential,
                    &scopes,
                    rejected.as_deref(),
                )
                .await?;
            let mut request = self
                .inner
                .http
                .request(call.method.clone(), call.url.clone())
                .headers(call.headers.clone());
            if let Some(a) = &auth
                && let Ok(mut value) = reqwest::header::HeaderValue::from_str(a)
            {
                value.set_sensitive(true);
                request = request.header(AUTHORIZATION, value);
            }
            if let Some(body) = &call.body {
                request = request.body(body.clone());
            } else if let Some(parts) = &call.parts {
                let pieces = futures_util::stream::iter(
                    parts.clone().into_iter().map(Ok::<Bytes, std::io::Error>),
                );
                request = request.body(reqwest::Body::wrap_stream(pieces));
            }
            let resp = match request.send().await {
                Ok(resp) => resp,
                Err(e) => {
                    if attempt < options.retry_count && retry::is_retryable_error(&e) {
                        let wait = retry::delay(options, attempt, None);
                        tracing::debug!(registry, error = %transport_error(&e), ?wait, "retrying");
                        tokio::time::sleep(wait).await;
                        attempt += 1;
                        continue;
                    }
                    return Err(OciError::Registry {
                        registry: registry.to_string(),
                        detail: format!(
                            "{} {}: {}",
                            call.method,
                            call.url.path(),
                            transport_error(&e)
                        ),
                    });
                }
            };
            let status = resp.status();
            if status == StatusCode::UNAUTHORIZED {
                let challenge = resp
                    .headers()
                    .get_all(WWW_AUTHENTICATE)
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .filter_map(Challenge::parse)
                    .max_by_key(|c| matches!(c, Challenge::Bearer { .. }));
                if !reauthenticated && let Some(challenge) = challenge {
                    if let Challenge::Bearer { scopes: extra, .. } = &challenge {
                        let extra: Vec<Scope> =
                            extra.iter().filter_map(|s| Scope::parse(s)).collect();
                        scope::merge(&mut scopes, &extra);
                    }
                    *endpoint.challenge.write().unwrap() = challenge;
                    rejected = auth.and_then(|a| a.strip_prefix("Bearer ").map(str::to_string));
                    reauthenticated = true;
                    continue;
                }
                let body = resp.bytes().await.unwrap_or_default();
                return Err(unauthorized(
                    registry,
                    repository,
                    &credential,
                    status,
                    &body,
                ));
            }
            if status == StatusCode::TOO_MANY_REQUESTS {
                self.inner
                    .throttled
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if retry::is_retryable_status(status) && attempt < options.retry_count {
                let wait = retry::delay(options, attempt, retry::retry_after(resp.headers()));
                tracing::debug!(registry, %status, ?wait, "retrying");
                tokio::time::sleep(wait).await;
                attempt += 1;
                continue;
            }
            return Ok(resp);
        }
    }
}

impl RegistryClient {
    /// Sends `call` with a streamed `body`, once. A stream cannot be replayed, so
    /// there is no retry and no second attempt after a 401: callers first open the
    /// upload session with [`RegistryClient::send`], which settles authentication
    /// for the same scopes, so the token used here is the one that just worked.
    /// There is no read timeout either (the caller watches for stalls).
    pub(crate) async fn send_streaming(
        &self,
        registry: &str,
        repository: &str,
        call: Call,
        body: reqwest::Body,
    ) -> std::result::Result<reqwest::Response, SendError> {
        let endpoint = self.endpoint(registry).await.map_err(SendError::Oci)?;
        let credential = self
            .credential(registry, repository)
            .await
            .map_err(SendError::Oci)?;
        let auth = self
            .authorization(registry, &endpoint, &credential, &call.scopes, None)
            .await
            .map_err(SendError::Oci)?;
        let mut request = self
            .inner
            .streaming
            .request(call.method.clone(), call.url.clone())
            .headers(call.headers.clone())
            .body(body);
        if let Some(a) = &auth
            && let Ok(mut value) = reqwest::header::HeaderValue::from_str(a)
        {
            value.set_sensitive(true);
            request = request.header(AUTHORIZATION, value);
        }
        let resp = request.send().await.map_err(SendError::Transport)?;
        if resp.status() == StatusCode::UNAUTHORIZED {
            let status = resp.status();
            let body = resp.bytes().await.unwrap_or_default();
            return Err(SendError::Oci(unauthorized(
                registry,
                repository,
                &credential,
                status,
                &body,
            )));
        }
        Ok(resp)
    }
}

/// Why [`RegistryClient::send_streaming`] failed: before the request or with an
/// answer (an error as usual), or in the transport (the caller may know better,
/// e.g. when its own body stream failed).
#[derive(Debug)]
pub(crate) enum SendError {
    Oci(OciError),
    Transport(reqwest::Error),
}

fn unauthorized(
    registry: &str,
    repository: &str,
    credential: &Resolved,
    status: StatusCode,
    body: &[u8],
) -> OciError {
    let said = errors::describe(status, body);
    let hint = match (&credential.credential, &credential.source) {
        (Credential::Anonymous, None) => format!(
            " for {registry}/{repository} ({said}); no credentials found: run `docker login {registry}` \
             or pass --registry-username/--registry-password"
        ),
        (_, Some(source)) => format!(
            " for {registry}/{repository} ({said}); the credentials from {source} were not accepted"
        ),
        (_, None) => format!(" for {registry}/{repository} ({said})"),
    };
    OciError::Unauthorized {
        registry: registry.to_string(),
        hint,
    }
}
