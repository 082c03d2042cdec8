//! A minimal HTTP/1.1 server for test fixtures (the token issuer and the fault
//! proxy): hyper on a 127.0.0.1 port, served from its own thread and tokio
//! runtime so that sync and async tests alike can use it. Stops on drop.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub type Body = BoxBody<Bytes, BoxError>;
pub type HandlerFuture = Pin<Box<dyn Future<Output = Response<Body>> + Send>>;
pub type Handler = Arc<dyn Fn(Request<Incoming>) -> HandlerFuture + Send + Sync>;

/// A body held in memory.
pub fn full(data: impl Into<Bytes>) -> Body {
    Full::new(data.into()).map_err(|e| match e {}).boxed()
}

/// A response with a status and an in-memory body.
pub fn respond(status: u16, content_type: &str, body: impl Into<Bytes>) -> Response<Body> {
    Response::builder()
        .status(status)
        .header("content-type", content_type)
        .body(full(body))
        .expect("valid response")
}

/// A running server; dropping it stops accepting connections.
pub struct Server {
    addr: SocketAddr,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Server {
    pub fn start(handler: Handler) -> Server {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("local addr");
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("test server runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                loop {
                    tokio::select! {
                        _ = &mut rx => break,
                        accepted = listener.accept() => {
                            let Ok((stream, _)) = accepted else { continue };
                            let handler = handler.clone();
                            tokio::spawn(async move {
                                let service = hyper::service::service_fn(move |req| {
                                    let fut = handler(req);
                                    async move { Ok::<_, std::convert::Infallible>(fut.await) }
                                });
                                let _ = hyper::server::conn::http1::Builder::new()
                                    .serve_connection(TokioIo::new(stream), service)
                                    .await;
                            });
                        }
                    }
                }
            });
            rt.shutdown_background();
        });
        Server {
            addr,
            shutdown: Some(tx),
        }
    }

    /// `127.0.0.1:PORT`
    pub fn addr(&self) -> String {
        self.addr.to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}
