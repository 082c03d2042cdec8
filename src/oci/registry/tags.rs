//! Tag listing: `GET /v2/<name>/tags/list?n=1000`, following `Link: <…>; rel="next"`
//! until the registry stops sending one. A repository the registry does not know
//! (`NAME_UNKNOWN`) has no tags.

use std::collections::HashSet;

use reqwest::{Method, StatusCode};

use crate::oci::Result;
use crate::oci::registry::RegistryStore;
use crate::oci::registry::client::Call;
use crate::oci::registry::errors::{self, Subject};
use crate::oci::registry::scope::Scope;

/// Page size asked for (ECR caps it at 1000; ggcr asks the same).
pub const PAGE_SIZE: usize = 1000;

#[derive(serde::Deserialize)]
struct TagPage {
    #[serde(default)]
    tags: Option<Vec<String>>,
}

pub(super) async fn list_tags(store: &RegistryStore) -> Result<Vec<String>> {
    let mut url = store.url(&format!("tags/list?n={PAGE_SIZE}")).await?;
    let mut seen_urls = HashSet::new();
    let mut tags = Vec::new();
    loop {
        if !seen_urls.insert(url.to_string()) {
            return Err(store.registry_error(format!("tag list pagination loops at {url}")));
        }
        let resp = store
            .send(Call::new(
                Method::GET,
                url.clone(),
                vec![Scope::pull(store.repository())],
            ))
            .await?;
        let status = resp.status();
        let next = resp
            .headers()
            .get(reqwest::header::LINK)
            .and_then(|v| v.to_str().ok())
            .and_then(next_link);
        let body = resp.bytes().await.unwrap_or_default();
        if status == StatusCode::NOT_FOUND
            && errors::parse_body(&body)
                .iter()
                .any(|e| e.code == "NAME_UNKNOWN")
        {
            return Ok(Vec::new());
        }
        if status != StatusCode::OK {
            return Err(store.error(Subject::Tags, status, &body));
        }
        let page: TagPage = serde_json::from_slice(&body)
            .map_err(|e| store.registry_error(format!("unreadable tag list: {e}")))?;
        tags.extend(page.tags.unwrap_or_default());
        match next {
            Some(link) => {
                url = url
                    .join(&link)
                    .map_err(|e| store.registry_error(format!("bad Link header {link:?}: {e}")))?;
            }
            None => break,
        }
    }
    tags.sort();
    tags.dedup();
    Ok(tags)
}

/// The target of `rel="next"` in a `Link` header.
fn next_link(header: &str) -> Option<String> {
    header.split(',').find_map(|part| {
        let (target, params) = part.split_once(';')?;
        let target = target.trim().strip_prefix('<')?.strip_suffix('>')?;
        params
            .split(';')
            .any(|p| {
                let p = p.trim().replace(' ', "");
                p == "rel=\"next\"" || p == "rel=next"
            })
            .then(|| target.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_next_link() {
        assert_eq!(
            next_link(r#"</v2/a/b/tags/list?last=t9&n=1000>; rel="next""#).as_deref(),
            Some("/v2/a/b/tags/list?last=t9&n=1000")
        );
        assert_eq!(
            next_link(r#"<https://x/prev>; rel="prev", <https://x/next>; rel=next"#).as_deref(),
            Some("https://x/next")
        );
        assert_eq!(next_link(r#"<https://x/prev>; rel="prev""#), None);
    }
}
