//! A token issuer for the registry's bearer-token mode (the Docker/Distribution
//! token spec): `GET /token?service=…&scope=…` with optional Basic credentials, and
//! the OAuth2 `POST /token` form (`grant_type=password` or `refresh_token`). It
//! answers with a JWT signed RS256 by a key whose certificate the registry trusts
//! (`rootcertbundle`); the certificate travels in the JWT header (`x5c`), so no key
//! id needs computing. Signing uses the `openssl` CLI: no crypto crate is needed
//! for a test fixture. Every request is recorded so tests can count token fetches.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::{Request, Response};

use super::certs::{SigningCert, sign_rs256, signing_cert};
use super::http_server::{Body, Handler, Server, respond};

pub const ISSUER: &str = "strake-test-issuer";
pub const SERVICE: &str = "strake-test-registry";

/// Mints a `push,pull` token for a repository.
pub type Minter = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// One request the issuer saw.
#[derive(Clone, Debug)]
pub struct TokenRequest {
    pub method: String,
    /// `Basic` user name, or the OAuth2 `username`; `None` when anonymous.
    pub user: Option<String>,
    pub grant_type: Option<String>,
    pub scopes: Vec<String>,
    pub granted: bool,
}

struct State {
    username: String,
    password: String,
    identity_token: Option<String>,
    allow_post: bool,
    expires_in: u64,
    signing: SigningCert,
    requests: Mutex<Vec<TokenRequest>>,
}

pub struct TokenIssuer {
    server: Server,
    state: Arc<State>,
}

/// What the issuer accepts.
#[derive(Clone)]
pub struct IssuerConfig {
    pub username: String,
    pub password: String,
    /// A refresh token accepted by the OAuth2 POST flow (an "identity token").
    pub identity_token: Option<String>,
    /// When false, `POST /token` answers 404 (clients fall back to GET).
    pub allow_post: bool,
    pub expires_in: u64,
}

impl IssuerConfig {
    pub fn new(username: &str, password: &str) -> IssuerConfig {
        IssuerConfig {
            username: username.into(),
            password: password.into(),
            identity_token: None,
            allow_post: true,
            expires_in: 300,
        }
    }
}

impl TokenIssuer {
    /// Starts an issuer; its signing key and certificate are written to `dir`.
    pub fn start(dir: &Path, config: IssuerConfig) -> TokenIssuer {
        let state = Arc::new(State {
            username: config.username,
            password: config.password,
            identity_token: config.identity_token,
            allow_post: config.allow_post,
            expires_in: config.expires_in,
            signing: signing_cert(dir),
            requests: Mutex::new(Vec::new()),
        });
        let s = state.clone();
        let handler: Handler = Arc::new(move |req| {
            let s = s.clone();
            Box::pin(async move { handle(s, req).await })
        });
        TokenIssuer {
            server: Server::start(handler),
            state,
        }
    }

    /// `http://127.0.0.1:PORT/token`: the registry's `auth.token.realm`.
    pub fn realm(&self) -> String {
        format!("http://{}/token", self.server.addr())
    }

    /// The certificate the registry must trust (`auth.token.rootcertbundle`).
    pub fn cert_path(&self) -> &Path {
        &self.state.signing.cert
    }

    /// Every token request so far.
    pub fn requests(&self) -> Vec<TokenRequest> {
        self.state.requests.lock().unwrap().clone()
    }

    /// A function minting tokens granting `push,pull` on a repository, as the
    /// issuer's user, without an HTTP round trip (for test content helpers; not
    /// recorded in [`TokenIssuer::requests`]).
    pub fn minter(&self) -> Minter {
        let state = self.state.clone();
        Arc::new(move |repo: &str| {
            make_token(
                &state,
                Some(&state.username),
                &[format!("repository:{repo}:push,pull")],
            )
        })
    }
}

fn b64url(data: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(data)
}

fn make_token(state: &State, user: Option<&str>, scopes: &[String]) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let access: Vec<serde_json::Value> = if user.is_some() {
        scopes
            .iter()
            .filter_map(|scope| {
                let (kind, rest) = scope.split_once(':')?;
                let (name, actions) = rest.rsplit_once(':')?;
                Some(serde_json::json!({
                    "type": kind,
                    "name": name,
                    "actions": actions.split(',').collect::<Vec<_>>(),
                }))
            })
            .collect()
    } else {
        Vec::new()
    };
    let header = serde_json::json!({
        "alg": "RS256",
        "typ": "JWT",
        "x5c": [state.signing.cert_der_base64],
    });
    let claims = serde_json::json!({
        "iss": ISSUER,
        "sub": user.unwrap_or(""),
        "aud": SERVICE,
        "exp": now + state.expires_in,
        "nbf": now - 10,
        "iat": now,
        "jti": format!("{now}-{}", rand::random::<u64>()),
        "access": access,
    });
    let signing_input = format!(
        "{}.{}",
        b64url(header.to_string().as_bytes()),
        b64url(claims.to_string().as_bytes())
    );
    let signature = sign_rs256(&state.signing.key, signing_input.as_bytes());
    format!("{signing_input}.{}", b64url(&signature))
}

fn parse_basic(req: &Request<hyper::body::Incoming>) -> Option<(String, String)> {
    let value = req.headers().get("authorization")?.to_str().ok()?;
    let encoded = value.strip_prefix("Basic ")?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (u, p) = text.split_once(':')?;
    Some((u.to_string(), p.to_string()))
}

fn form_pairs(text: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(text.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn unauthorized() -> Response<Body> {
    respond(
        401,
        "application/json",
        r#"{"errors":[{"code":"UNAUTHORIZED","message":"invalid credentials"}]}"#,
    )
}

async fn handle(state: Arc<State>, req: Request<hyper::body::Incoming>) -> Response<Body> {
    let method = req.method().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let basic = parse_basic(&req);
    let body: Bytes = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => Bytes::new(),
    };
    let mut record = TokenRequest {
        method: method.clone(),
        user: None,
        grant_type: None,
        scopes: Vec::new(),
        granted: false,
    };
    let user: Option<String>;
    let mut refresh_token = None;
    if method == "POST" {
        if !state.allow_post {
            state.requests.lock().unwrap().push(record);
            return respond(404, "text/plain", "not found");
        }
        let pairs = form_pairs(&String::from_utf8_lossy(&body));
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        record.grant_type = get("grant_type");
        record.scopes = get("scope")
            .map(|s| s.split(' ').map(str::to_string).collect())
            .unwrap_or_default();
        match record.grant_type.as_deref() {
            Some("password") => {
                let (u, p) = (get("username"), get("password"));
                record.user = u.clone();
                if u.as_deref() != Some(&state.username) || p.as_deref() != Some(&state.password) {
                    state.requests.lock().unwrap().push(record);
                    return unauthorized();
                }
                user = u;
                if get("access_type").as_deref() == Some("offline") {
                    refresh_token = state.identity_token.clone();
                }
            }
            Some("refresh_token") => {
                let t = get("refresh_token");
                if state.identity_token.is_none() || t != state.identity_token {
                    state.requests.lock().unwrap().push(record);
                    return unauthorized();
                }
                record.user = Some(state.username.clone());
                user = Some(state.username.clone());
            }
            _ => {
                state.requests.lock().unwrap().push(record);
                return respond(
                    400,
                    "application/json",
                    r#"{"error":"unsupported_grant_type"}"#,
                );
            }
        }
    } else {
        let pairs = form_pairs(&query);
        record.scopes = pairs
            .iter()
            .filter(|(k, _)| k == "scope")
            .map(|(_, v)| v.clone())
            .collect();
        match basic {
            Some((u, p)) => {
                record.user = Some(u.clone());
                if u != state.username || p != state.password {
                    state.requests.lock().unwrap().push(record);
                    return unauthorized();
                }
                user = Some(u);
            }
            None => user = None,
        }
    }
    record.granted = user.is_some();
    let scopes = record.scopes.clone();
    state.requests.lock().unwrap().push(record);
    let s = state.clone();
    let token = tokio::task::spawn_blocking(move || make_token(&s, user.as_deref(), &scopes))
        .await
        .expect("token signing");
    let mut reply = serde_json::json!({
        "token": token,
        "access_token": token,
        "expires_in": state.expires_in,
        "issued_at": "2026-01-01T00:00:00Z",
    });
    if let Some(r) = refresh_token {
        reply["refresh_token"] = r.into();
    }
    respond(200, "application/json", reply.to_string())
}
