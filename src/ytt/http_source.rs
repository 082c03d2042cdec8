//! `-f http://…` and `-f https://…` inputs, read as ytt's `HTTPSource` reads them: one
//! GET whose body is the file, whatever the status, named by the URL's last path
//! element (Go's `path.Base`, query string included).
//!
//! The request runs on a thread of its own with its own single-threaded runtime, so it
//! can be made from synchronous code whether or not a Tokio runtime is running.

/// The body of `url`, or ytt's error (`Requesting URL '…': …`, `Reading URL '…': …`).
pub fn fetch(url: &str) -> Result<Vec<u8>, String> {
    let owned = url.to_string();
    std::thread::spawn(move || fetch_here(&owned))
        .join()
        .unwrap_or_else(|_| Err(format!("Requesting URL '{url}': request panicked")))
}

fn fetch_here(url: &str) -> Result<Vec<u8>, String> {
    let requesting = |e: String| format!("Requesting URL '{url}': Get \"{url}\": {e}");
    let tls = crate::oci::registry::tls::client_config(&[], true)
        .map_err(|e| requesting(e.to_string()))?;
    let client = reqwest::Client::builder()
        .use_preconfigured_tls(tls)
        .build()
        .map_err(|e| requesting(crate::oci::registry::transport_error(&e)))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| requesting(e.to_string()))?;
    rt.block_on(async {
        let resp = client
            .get(url)
            .send()
            .await
            .map_err(|e| requesting(crate::oci::registry::transport_error(&e)))?;
        let body = resp.bytes().await.map_err(|e| {
            format!(
                "Reading URL '{url}': {}",
                crate::oci::registry::transport_error(&e)
            )
        })?;
        Ok(body.to_vec())
    })
}

/// Whether a `-f` argument is a URL ytt fetches.
pub fn is_url(arg: &str) -> bool {
    arg.starts_with("http://") || arg.starts_with("https://")
}

/// Go's `path.Base`: the last `/`-separated element, trailing slashes dropped (`.` for
/// an empty path, `/` for slashes only).
pub fn base_name(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_named_by_the_last_path_element() {
        assert_eq!(
            base_name("https://example.com/a/release.yml"),
            "release.yml"
        );
        assert_eq!(base_name("https://example.com/a/"), "a");
        assert_eq!(base_name("https://example.com"), "example.com");
        assert_eq!(base_name("https://h/x.yml?v=1"), "x.yml?v=1");
        assert_eq!(base_name(""), ".");
        assert_eq!(base_name("///"), "/");
    }

    #[test]
    fn only_http_and_https_are_urls() {
        assert!(is_url("http://h/x.yml"));
        assert!(is_url("https://h/x.yml"));
        assert!(!is_url("ftp://h/x.yml"));
        assert!(!is_url("x.yml"));
    }
}
