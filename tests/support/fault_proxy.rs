//! A fault-injecting HTTP proxy in front of a real registry. It forwards every
//! request (keeping the `Host` header, so the registry's `Location` URLs point back
//! at the proxy) and, for requests matching a rule, answers with an error status a
//! number of times, or damages the response body (truncates it mid-stream, or flips
//! a byte). Every request is recorded with the time it arrived.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use hyper::{Request, Response};

use super::http_server::{Body, BoxError, Handler, Server, respond};

/// What to do to a matching request.
#[derive(Clone, Debug)]
pub enum Fault {
    /// Answer with this status (and `Retry-After: <secs>` when given) instead of
    /// forwarding.
    Status {
        status: u16,
        retry_after: Option<u64>,
    },
    /// Forward, then send only the first `keep` bytes of the body and break the
    /// connection.
    Truncate { keep: usize },
    /// Forward, flipping the bits of the byte at `offset` in the body.
    FlipByte { offset: usize },
    /// Answer `307 Temporary Redirect` to `location` (which may name another host).
    Redirect { location: String },
    /// Forward, turning an absolute `Location` in the answer into a relative one
    /// (path and query), as some registries send it.
    RelativeLocation,
    /// Forward, adding a header to the registry's answer.
    AddHeader { name: String, value: String },
    /// Forward the request, then throw the registry's answer away and answer
    /// `status` instead (an answer lost after the registry acted).
    LoseAnswer { status: u16 },
}

impl Fault {
    pub fn status(status: u16) -> Fault {
        Fault::Status {
            status,
            retry_after: None,
        }
    }
    pub fn too_many_requests(retry_after: u64) -> Fault {
        Fault::Status {
            status: 429,
            retry_after: Some(retry_after),
        }
    }
}

#[derive(Clone, Debug)]
struct Rule {
    method: Option<String>,
    path_contains: String,
    fault: Fault,
    remaining: usize,
}

/// A request the proxy saw.
#[derive(Clone, Debug)]
pub struct SeenRequest {
    pub method: String,
    /// Path and query.
    pub path: String,
    pub at: Instant,
    pub had_authorization: bool,
    /// The fault applied, if any.
    pub fault: Option<Fault>,
}

struct State {
    upstream: String,
    client: reqwest::Client,
    /// When set, tag lists are paginated (see [`FaultProxy::paginate_tags`]).
    tag_page_cap: Mutex<Option<usize>>,
    rules: Mutex<Vec<Rule>>,
    seen: Mutex<Vec<SeenRequest>>,
}

pub struct FaultProxy {
    server: Server,
    state: Arc<State>,
}

impl FaultProxy {
    /// Starts a proxy forwarding to `upstream` (`127.0.0.1:PORT`, plain HTTP).
    pub fn start(upstream: &str) -> FaultProxy {
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("rustls config")
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
        let client = reqwest::Client::builder()
            .use_preconfigured_tls(tls)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()
            .expect("proxy client");
        let state = Arc::new(State {
            upstream: upstream.to_string(),
            client,
            tag_page_cap: Mutex::new(None),
            rules: Mutex::new(Vec::new()),
            seen: Mutex::new(Vec::new()),
        });
        let s = state.clone();
        let handler: Handler = Arc::new(move |req| {
            let s = s.clone();
            Box::pin(async move { handle(s, req).await })
        });
        FaultProxy {
            server: Server::start(handler),
            state,
        }
    }

    /// `127.0.0.1:PORT`
    pub fn addr(&self) -> String {
        self.server.addr()
    }

    /// Applies `fault` to the next `times` requests whose path contains
    /// `path_contains` (and whose method is `method`, when given).
    pub fn inject(&self, method: Option<&str>, path_contains: &str, fault: Fault, times: usize) {
        self.state.rules.lock().unwrap().push(Rule {
            method: method.map(str::to_string),
            path_contains: path_contains.to_string(),
            fault,
            remaining: times,
        });
    }

    /// Serves `GET /v2/<name>/tags/list` with distribution-spec pagination
    /// (`n`, `last`, `Link: <…>; rel="next"`) on top of the registry's full list,
    /// at most `cap` tags per page whatever `n` asks (as ECR caps at 1000).
    /// distribution 2.8 itself ignores `n` for tags, so this is how clients'
    /// pagination is exercised against real registry content.
    pub fn paginate_tags(&self, cap: usize) {
        *self.state.tag_page_cap.lock().unwrap() = Some(cap);
    }

    /// Removes every rule.
    pub fn clear(&self) {
        self.state.rules.lock().unwrap().clear();
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<SeenRequest> {
        self.state.seen.lock().unwrap().clone()
    }

    /// The requests whose path contains `part`.
    pub fn requests_matching(&self, method: &str, part: &str) -> Vec<SeenRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.method == method && r.path.contains(part))
            .collect()
    }
}

fn take_fault(state: &State, method: &str, path: &str) -> Option<Fault> {
    let mut rules = state.rules.lock().unwrap();
    let rule = rules.iter_mut().find(|r| {
        r.remaining > 0
            && r.method.as_deref().is_none_or(|m| m == method)
            && path.contains(&r.path_contains)
    })?;
    rule.remaining -= 1;
    Some(rule.fault.clone())
}

async fn handle(state: Arc<State>, req: Request<hyper::body::Incoming>) -> Response<Body> {
    let method = req.method().to_string();
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.to_string())
        .unwrap_or_else(|| "/".into());
    let had_authorization = req.headers().contains_key("authorization");
    let fault = take_fault(&state, &method, &path);
    state.seen.lock().unwrap().push(SeenRequest {
        method: method.clone(),
        path: path.clone(),
        at: Instant::now(),
        had_authorization,
        fault: fault.clone(),
    });
    match &fault {
        Some(Fault::Status {
            status,
            retry_after,
        }) => {
            let mut resp = respond(
                *status,
                "application/json",
                format!(
                    r#"{{"errors":[{{"code":"UNAVAILABLE","message":"injected fault {status}"}}]}}"#
                ),
            );
            if let Some(secs) = retry_after {
                resp.headers_mut()
                    .insert("retry-after", secs.to_string().parse().unwrap());
            }
            return resp;
        }
        Some(Fault::Redirect { location }) => {
            return Response::builder()
                .status(307)
                .header("location", location)
                .body(super::http_server::full(Bytes::new()))
                .unwrap();
        }
        _ => {}
    }
    let cap = *state.tag_page_cap.lock().unwrap();
    if let (Some(cap), true) = (cap, method == "GET" && path.contains("/tags/list")) {
        return paginated_tags(&state, &path, cap).await;
    }
    let (parts, body) = req.into_parts();
    let body = match body.collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return respond(502, "text/plain", format!("proxy: reading request: {e}")),
    };
    let url = format!("http://{}{}", state.upstream, path);
    let mut forward = state.client.request(parts.method.clone(), &url).body(body);
    for (name, value) in parts.headers.iter() {
        if matches!(
            name.as_str(),
            "connection" | "transfer-encoding" | "content-length" | "keep-alive"
        ) {
            continue;
        }
        forward = forward.header(name, value);
    }
    let upstream = match forward.send().await {
        Ok(r) => r,
        Err(e) => return respond(502, "text/plain", format!("proxy: upstream: {e}")),
    };
    if let Some(Fault::LoseAnswer { status }) = fault {
        let _ = upstream.bytes().await;
        return respond(
            status,
            "application/json",
            format!(
                r#"{{"errors":[{{"code":"UNAVAILABLE","message":"injected lost answer {status}"}}]}}"#
            ),
        );
    }
    let mut builder = Response::builder().status(upstream.status().as_u16());
    for (name, value) in upstream.headers() {
        if matches!(
            name.as_str(),
            "connection" | "transfer-encoding" | "keep-alive"
        ) {
            continue;
        }
        if name == "location" && matches!(fault, Some(Fault::RelativeLocation)) {
            let text = value.to_str().unwrap_or_default();
            let relative = url::Url::parse(text)
                .map(|u| match u.query() {
                    Some(q) => format!("{}?{q}", u.path()),
                    None => u.path().to_string(),
                })
                .unwrap_or_else(|_| text.to_string());
            builder = builder.header(name, relative);
            continue;
        }
        builder = builder.header(name, value);
    }
    if let Some(Fault::AddHeader { name, value }) = &fault {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let data = match upstream.bytes().await {
        Ok(b) => b,
        Err(e) => return respond(502, "text/plain", format!("proxy: upstream body: {e}")),
    };
    let body: Body = match fault {
        Some(Fault::Truncate { keep }) => {
            let part = data.slice(..keep.min(data.len()));
            // Let the head and the first bytes reach the client before the break.
            let head = futures_util::stream::iter([Ok::<_, BoxError>(Frame::data(part))]);
            let tail = futures_util::stream::once(async {
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                Err::<Frame<Bytes>, BoxError>("injected truncation".into())
            });
            BodyExt::boxed(StreamBody::new(futures_util::StreamExt::chain(head, tail)))
        }
        Some(Fault::FlipByte { offset }) => {
            let mut v = data.to_vec();
            if let Some(b) = v.get_mut(offset) {
                *b ^= 0xff;
            }
            super::http_server::full(v)
        }
        _ => super::http_server::full(data),
    };
    builder.body(body).unwrap()
}

async fn paginated_tags(state: &State, path: &str, cap: usize) -> Response<Body> {
    let (base, query) = path.split_once('?').unwrap_or((path, ""));
    let mut n = None;
    let mut last = None;
    for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
        match k.as_ref() {
            "n" => n = v.parse::<usize>().ok(),
            "last" => last = Some(v.into_owned()),
            _ => {}
        }
    }
    let upstream = match state
        .client
        .get(format!("http://{}{base}", state.upstream))
        .send()
        .await
    {
        Ok(r) => r,
        Err(e) => return respond(502, "text/plain", format!("proxy: upstream: {e}")),
    };
    let status = upstream.status().as_u16();
    let body = upstream.bytes().await.unwrap_or_default();
    if status != 200 {
        return respond(status, "application/json", body);
    }
    let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let mut tags: Vec<String> = value["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    tags.sort();
    let page_size = n.unwrap_or(cap).min(cap);
    let rest: Vec<String> = tags
        .into_iter()
        .filter(|t| last.as_ref().is_none_or(|l| t > l))
        .collect();
    let page: Vec<String> = rest.iter().take(page_size).cloned().collect();
    let mut resp = respond(
        200,
        "application/json",
        serde_json::json!({"name": value["name"], "tags": page}).to_string(),
    );
    if rest.len() > page.len()
        && let Some(last_tag) = page.last()
    {
        let link = format!(
            "<{base}?last={last_tag}&n={}>; rel=\"next\"",
            n.unwrap_or(cap)
        );
        resp.headers_mut().insert("link", link.parse().unwrap());
    }
    resp
}
