//! Tag listing: `GET /v2/<name>/tags/list?n=1000`, following `Link: <…>; rel="next"`
//! until the registry stops sending one (or, for a bounded listing, until it has
//! listed more than the caller wants to read). A repository the registry does
//! not know (`NAME_UNKNOWN`) has no tags.

use std::collections::HashSet;

use reqwest::{Method, StatusCode, Url};

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
    let tags = list_tags_paged(store, PAGE_SIZE, usize::MAX).await?;
    Ok(tags.expect("an unbounded listing is complete"))
}

/// The tags, sorted, read `page_size` at a time; `None` as soon as more than
/// `max` are listed and the registry offers a further page (the caller then
/// asks about the tags it wants one by one instead).
pub(super) async fn list_tags_paged(
    store: &RegistryStore,
    page_size: usize,
    max: usize,
) -> Result<Option<Vec<String>>> {
    let mut url = store.url(&format!("tags/list?n={page_size}")).await?;
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
            return Ok(Some(Vec::new()));
        }
        if status != StatusCode::OK {
            return Err(store.error(Subject::Tags, status, &body));
        }
        let page: TagPage = serde_json::from_slice(&body)
            .map_err(|e| store.registry_error(format!("unreadable tag list: {e}")))?;
        tags.extend(page.tags.unwrap_or_default());
        match next {
            Some(_) if tags.len() > max => return Ok(None),
            Some(link) => {
                url = next_page(&url, &link)
                    .map_err(|e| store.registry_error(format!("bad Link header {link:?}: {e}")))?;
            }
            None => break,
        }
    }
    tags.sort();
    tags.dedup();
    Ok(Some(tags))
}

/// The URL of the next page: the `Link` target, relative to the page it came with.
fn next_page(current: &Url, link: &str) -> std::result::Result<Url, url::ParseError> {
    current.join(link)
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

    #[test]
    fn follows_pages_relative_to_the_current_one() {
        let first = Url::parse("http://127.0.0.1:5000/v2/a/b/tags/list?n=2").unwrap();
        // distribution's form: a path with `last` and `n`.
        let link = next_link(r#"</v2/a/b/tags/list?last=t2&n=2>; rel="next""#).unwrap();
        let second = next_page(&first, &link).unwrap();
        assert_eq!(
            second.as_str(),
            "http://127.0.0.1:5000/v2/a/b/tags/list?last=t2&n=2"
        );
        // An absolute target on another host (a CDN, a mirror) is taken as it is.
        let link =
            next_link(r#"<https://mirror.example/v2/a/b/tags/list?last=t4>; rel="next""#).unwrap();
        assert_eq!(
            next_page(&second, &link).unwrap().as_str(),
            "https://mirror.example/v2/a/b/tags/list?last=t4"
        );
        // A bare query keeps the path.
        let link = next_link(r#"<?last=t6&n=2>; rel="next""#).unwrap();
        assert_eq!(
            next_page(&second, &link).unwrap().as_str(),
            "http://127.0.0.1:5000/v2/a/b/tags/list?last=t6&n=2"
        );
    }
}
