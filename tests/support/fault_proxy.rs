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
    let mut builder = Response::builder().status(upstream.status().as_u16());
    for (name, value) in upstream.headers() {
        if matches!(
            name.as_str(),
            "connection" | "transfer-encoding" | "keep-alive"
        ) {
            continue;
        }
        builder = builder.header(name, value);
    }
    let data = match upstream.bytes().await {
        Ok(b) => b,
        Err(e) => return respond(502, "text/plain", format!("proxy: upstream body: {e}")),
    };
    let body: Body = match fault {
        Some(Fault::Truncate { keep }) => {
            let part = data.slice(..keep.min(data.len()));
            let frames: Vec<Result<Frame<Bytes>, BoxError>> =
                vec![Ok(Frame::data(part)), Err("injected truncation".into())];
            StreamBody::new(futures_util::stream::iter(frames)).boxed()
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
