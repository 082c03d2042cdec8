//! Warnings about strings that look like image references but that no search rule found
//! (for example `--image=` style arguments, or a key kbld does not know): such images would
//! be left unlocked, so `strake lock` names the file and YAML path on stderr.

use crate::oci::Reference;

/// Whether `s` looks like a fully qualified image reference: `host.tld[:port]/repo` (or
/// `localhost/...`) with a `:tag` or `@sha256:...`, no spaces, no URL scheme.
pub fn looks_like_image(s: &str) -> bool {
    if s.len() > 512 || s.contains("://") || s.chars().any(char::is_whitespace) {
        return false;
    }
    let Some((host, rest)) = s.split_once('/') else {
        return false;
    };
    let host_like = host == "localhost"
        || (host.contains('.') || host.contains(':'))
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if !host_like || host.starts_with('.') || host.ends_with('.') {
        return false;
    }
    let last = rest.rsplit('/').next().unwrap_or("");
    let pinned_or_tagged = last.contains(':') || rest.contains("@sha256:");
    pinned_or_tagged && Reference::parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristics() {
        assert!(looks_like_image("ghcr.io/acme/app:v1"));
        assert!(looks_like_image("127.0.0.1:5000/conformance/lock/app:v1"));
        assert!(looks_like_image(
            "localhost/app@sha256:0000000000000000000000000000000000000000000000000000000000000001"
        ));
        assert!(!looks_like_image("ghcr.io/acme/app"));
        assert!(!looks_like_image("https://example.com/a:b"));
        assert!(!looks_like_image("app:v1"));
        assert!(!looks_like_image("0 3 * * *"));
        assert!(!looks_like_image("example.com/path"));
        assert!(!looks_like_image("a.b/c:d e"));
    }
}
