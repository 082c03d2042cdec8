//! Bearer tokens: fetched from the challenge's realm (GET with Basic credentials or
//! anonymously; the OAuth2 POST form for identity tokens, falling back to GET when
//! the endpoint answers 404/405) and cached per registry with their scopes and
//! expiry. A cached token serves any request whose scopes it covers, so one
//! `push,pull` token also serves the pulls that follow.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;

use crate::oci::registry::credentials::{Credential, Resolved};
use crate::oci::registry::scope::{Scope, all_covered};
use crate::oci::registry::{RegistryOptions, errors, retry, transport_error};
use crate::oci::{OciError, Result};

/// Expiry assumed when the token service gives none (Docker token spec).
const DEFAULT_EXPIRY: Duration = Duration::from_secs(60);
/// Tokens this close to expiry are not reused (at most half their lifetime).
const EXPIRY_MARGIN: Duration = Duration::from_secs(10);

struct Cached {
    scopes: Vec<Scope>,
    token: String,
    expires: Instant,
}

/// Where to ask for a token (from a `Bearer` challenge).
pub struct Realm<'a> {
    pub realm: &'a str,
    pub service: Option<&'a str>,
}

#[derive(Default)]
pub struct TokenCache {
    tokens: Mutex<HashMap<String, Vec<Cached>>>,
    fetch_locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

#[derive(serde::Deserialize)]
struct TokenReply {
    #[serde(default)]
    token: String,
    #[serde(default)]
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

impl TokenCache {
    fn cached(&self, registry: &str, scopes: &[Scope], not_token: Option<&str>) -> Option<String> {
        let now = Instant::now();
        let mut map = self.tokens.lock().unwrap();
        let list = map.get_mut(registry)?;
        list.retain(|c| c.expires > now);
        list.iter()
            .find(|c| all_covered(&c.scopes, scopes) && Some(c.token.as_str()) != not_token)
            .map(|c| c.token.clone())
    }

    /// A token for `scopes`. `rejected` is a token the registry just refused; it is
    /// not handed out again.
    #[allow(clippy::too_many_arguments)]
    pub async fn token(
        &self,
        http: &reqwest::Client,
        options: &RegistryOptions,
        registry: &str,
        realm: &Realm<'_>,
        credential: &Resolved,
        scopes: &[Scope],
        rejected: Option<&str>,
    ) -> Result<String> {
        if let Some(t) = self.cached(registry, scopes, rejected) {
            return Ok(t);
        }
        let lock = self
            .fetch_locks
            .lock()
            .unwrap()
            .entry(registry.to_string())
            .or_default()
            .clone();
        let _guard = lock.lock().await;
        if let Some(t) = self.cached(registry, scopes, rejected) {
            return Ok(t);
        }
        let (token, expires_in) = fetch(http, options, registry, realm, credential, scopes).await?;
        let mut map = self.tokens.lock().unwrap();
        map.entry(registry.to_string()).or_default().push(Cached {
            scopes: scopes.to_vec(),
            token: token.clone(),
            expires: Instant::now() + expires_in - EXPIRY_MARGIN.min(expires_in / 2),
        });
        Ok(token)
    }
}

async fn fetch(
    http: &reqwest::Client,
    options: &RegistryOptions,
    registry: &str,
    realm: &Realm<'_>,
    credential: &Resolved,
    scopes: &[Scope],
) -> Result<(String, Duration)> {
    let scope_strings: Vec<String> = scopes.iter().map(Scope::to_string).collect();
    if let Credential::IdentityToken { token } = &credential.credential {
        let mut form: Vec<(&str, String)> = vec![
            ("grant_type", "refresh_token".into()),
            ("refresh_token", token.clone()),
            ("client_id", "strake".into()),
            ("scope", scope_strings.join(" ")),
        ];
        if let Some(s) = realm.service {
            form.push(("service", s.to_string()));
        }
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form.iter().map(|(k, v)| (*k, v.as_str())))
            .finish();
        let resp = send_retrying(options, registry, realm.realm, || {
            http.post(realm.realm)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body.clone())
        })
        .await?;
        if !matches!(
            resp.status(),
            StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
        ) {
            return read_reply(registry, realm, credential, resp).await;
        }
        // Not every token server speaks OAuth2: fall back to the GET flow.
    }
    let mut url = reqwest::Url::parse(realm.realm).map_err(|e| OciError::Registry {
        registry: registry.to_string(),
        detail: format!("token realm {:?} is not a URL: {e}", realm.realm),
    })?;
    {
        let mut q = url.query_pairs_mut();
        if let Some(s) = realm.service {
            q.append_pair("service", s);
        }
        for s in &scope_strings {
            q.append_pair("scope", s);
        }
    }
    let resp = send_retrying(options, registry, realm.realm, || {
        let req = http.get(url.clone());
        match &credential.credential {
            Credential::Basic { username, password } => req.basic_auth(username, Some(password)),
            _ => req,
        }
    })
    .await?;
    read_reply(registry, realm, credential, resp).await
}

async fn send_retrying(
    options: &RegistryOptions,
    registry: &str,
    what: &str,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<reqwest::Response> {
    let mut attempt = 0;
    loop {
        match build().send().await {
            Ok(resp)
                if retry::is_retryable_status(resp.status()) && attempt < options.retry_count =>
            {
                let wait = retry::delay(options, attempt, retry::retry_after(resp.headers()));
                tokio::time::sleep(wait).await;
            }
            Ok(resp) => return Ok(resp),
            Err(e) if retry::is_retryable_error(&e) && attempt < options.retry_count => {
                tokio::time::sleep(retry::delay(options, attempt, None)).await;
            }
            Err(e) => {
                return Err(OciError::Registry {
                    registry: registry.to_string(),
                    detail: format!("token service {what}: {}", transport_error(&e)),
                });
            }
        }
        attempt += 1;
    }
}

async fn read_reply(
    registry: &str,
    realm: &Realm<'_>,
    credential: &Resolved,
    resp: reqwest::Response,
) -> Result<(String, Duration)> {
    let status = resp.status();
    let body = resp.bytes().await.unwrap_or_default();
    if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
        let hint = match &credential.source {
            Some(source) => format!(
                ": the token service {} rejected the credentials from {source}",
                realm.realm
            ),
            None => format!(
                ": the token service {} requires credentials; run `docker login {registry}` or pass --registry-username/--registry-password",
                realm.realm
            ),
        };
        return Err(OciError::Unauthorized {
            registry: registry.to_string(),
            hint,
        });
    }
    if !status.is_success() {
        return Err(OciError::Registry {
            registry: registry.to_string(),
            detail: format!(
                "token service {}: {}",
                realm.realm,
                errors::describe(status, &body)
            ),
        });
    }
    let reply: TokenReply = serde_json::from_slice(&body).map_err(|e| OciError::Registry {
        registry: registry.to_string(),
        detail: format!("token service {}: unreadable answer: {e}", realm.realm),
    })?;
    let token = if reply.token.is_empty() {
        reply.access_token
    } else {
        reply.token
    };
    if token.is_empty() {
        return Err(OciError::Registry {
            registry: registry.to_string(),
            detail: format!("token service {} returned no token", realm.realm),
        });
    }
    let expires = reply
        .expires_in
        .filter(|s| *s > 0)
        .map(Duration::from_secs)
        .unwrap_or(DEFAULT_EXPIRY);
    Ok((token, expires))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cached_tokens_serve_covered_scopes_until_they_expire() {
        let cache = TokenCache::default();
        let now = Instant::now();
        cache.tokens.lock().unwrap().insert(
            "reg".into(),
            vec![
                Cached {
                    scopes: vec![Scope::push("a/b")],
                    token: "fresh".into(),
                    expires: now + Duration::from_secs(60),
                },
                Cached {
                    scopes: vec![Scope::pull("c/d")],
                    token: "stale".into(),
                    expires: now - Duration::from_secs(1),
                },
            ],
        );
        assert_eq!(
            cache.cached("reg", &[Scope::pull("a/b")], None).as_deref(),
            Some("fresh")
        );
        assert_eq!(
            cache.cached("reg", &[Scope::pull("a/b")], Some("fresh")),
            None
        );
        assert_eq!(cache.cached("reg", &[Scope::pull("c/d")], None), None);
        assert_eq!(cache.cached("reg", &[Scope::push("x/y")], None), None);
        assert_eq!(cache.cached("other", &[Scope::pull("a/b")], None), None);
        // The expired entry was dropped.
        assert_eq!(cache.tokens.lock().unwrap()["reg"].len(), 1);
    }
}
