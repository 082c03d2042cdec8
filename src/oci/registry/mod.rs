//! The registry backend of the [`Store`](crate::oci::Store) trait: a thin OCI
//! distribution client over reqwest + tokio.
//!
//! * [`RegistryClient`] (cheap to clone) holds one HTTP client (connections are
//!   reused), the per-registry endpoint (scheme chosen by a `/v2/` ping, and the
//!   auth challenge), resolved credentials and cached bearer tokens.
//! * [`RegistryStore`] is one repository on one registry, implementing `Store`.
//! * Requests are retried on connection errors and 408/429/5xx with exponential
//!   backoff and jitter, honouring `Retry-After`. Only requests whose body is in
//!   memory are ever retried; see [`upload`] for how blob uploads stay retryable.

pub mod challenge;
pub mod client;
pub mod credentials;
pub mod errors;
pub mod options;
pub mod retry;
pub mod scope;
pub mod store;
pub mod tls;
pub mod token;
pub mod upload;
pub mod upload_resume;
pub mod upload_session;
pub mod upload_state;
pub mod upload_stream;

mod blobs;
mod manifests;
mod tags;

pub use client::RegistryClient;
pub use options::{FlagCredentials, RegistryOptions};
pub use store::RegistryStore;

/// A transport error with its whole cause chain (reqwest's own message alone
/// says little: "error sending request").
pub fn transport_error(err: &reqwest::Error) -> String {
    let mut parts: Vec<String> = vec![err.without_url_ref().to_string()];
    let mut source = std::error::Error::source(err);
    while let Some(e) = source {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = e.source();
    }
    let joined = parts.join(": ");
    if retry::is_dns_error(err) {
        format!("cannot resolve the host name ({joined})")
    } else {
        joined
    }
}

trait WithoutUrl {
    fn without_url_ref(&self) -> String;
}

impl WithoutUrl for reqwest::Error {
    fn without_url_ref(&self) -> String {
        // reqwest appends " for url (…)"; the caller names the registry already,
        // and upload URLs carry session state that is noise in a message.
        let text = self.to_string();
        match text.find(" for url (") {
            Some(i) => text[..i].to_string(),
            None => text,
        }
    }
}
