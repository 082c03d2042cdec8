//! Turns a registry's error answer (`{"errors":[{"code","message","detail"}]}`)
//! into an [`OciError`] that names the registry, repository and object.

use reqwest::StatusCode;

use crate::oci::{Digest, OciError};

/// What a failed request was about, for the error message.
pub enum Subject<'a> {
    Blob(&'a Digest),
    Manifest(&'a str),
    Tags,
    Upload(&'a Digest),
    Other(&'a str),
}

/// One entry of the registry's `errors` array.
#[derive(Debug, Default, serde::Deserialize)]
pub struct RegistryErrorEntry {
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub detail: serde_json::Value,
}

#[derive(Debug, Default, serde::Deserialize)]
struct Body {
    #[serde(default)]
    errors: Vec<RegistryErrorEntry>,
}

/// Parses the error body; empty when it is not the registry JSON shape.
pub fn parse_body(body: &[u8]) -> Vec<RegistryErrorEntry> {
    serde_json::from_slice::<Body>(body)
        .map(|b| b.errors)
        .unwrap_or_default()
}

/// `CODE: message (detail)` for each entry, or a bit of the raw body.
pub fn describe(status: StatusCode, body: &[u8]) -> String {
    let entries = parse_body(body);
    let mut text = format!("HTTP {}", status.as_u16());
    if let Some(reason) = status.canonical_reason() {
        text.push(' ');
        text.push_str(reason);
    }
    if entries.is_empty() {
        let raw = String::from_utf8_lossy(body);
        let raw = raw.trim();
        if !raw.is_empty() {
            let cut: String = raw.chars().take(200).collect();
            text.push_str(": ");
            text.push_str(&cut);
        }
    }
    for e in &entries {
        text.push_str(": ");
        text.push_str(&e.code);
        if !e.message.is_empty() {
            text.push_str(": ");
            text.push_str(&e.message);
        }
        match &e.detail {
            serde_json::Value::Null => {}
            serde_json::Value::String(s) if s.is_empty() => {}
            serde_json::Value::String(s) => text.push_str(&format!(" ({s})")),
            other => text.push_str(&format!(" ({other})")),
        }
    }
    text
}

/// The error for a non-success answer. `location` is `registry/repository`; it
/// leads the message.
pub fn from_response(
    location: &str,
    subject: Subject<'_>,
    status: StatusCode,
    body: &[u8],
) -> OciError {
    let entries = parse_body(body);
    let has = |code: &str| entries.iter().any(|e| e.code == code);
    match subject {
        Subject::Blob(d) if status == StatusCode::NOT_FOUND => {
            return OciError::BlobUnknown {
                location: location.to_string(),
                digest: d.clone(),
            };
        }
        Subject::Manifest(r)
            if status == StatusCode::NOT_FOUND
                && (entries.is_empty() || has("MANIFEST_UNKNOWN") || has("NAME_UNKNOWN")) =>
        {
            return OciError::ManifestUnknown {
                location: location.to_string(),
                reference: r.to_string(),
            };
        }
        _ => {}
    }
    let what = match subject {
        Subject::Blob(d) => format!("blob {d}"),
        Subject::Manifest(r) => format!("manifest {r}"),
        Subject::Tags => "tag list".to_string(),
        Subject::Upload(d) => format!("uploading blob {d}"),
        Subject::Other(s) => s.to_string(),
    };
    let detail = format!("{what}: {}", describe(status, body));
    if status == StatusCode::FORBIDDEN || has("DENIED") {
        return OciError::Denied {
            registry: location.to_string(),
            detail,
        };
    }
    OciError::Registry {
        registry: location.to_string(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_known_codes() {
        let d = Digest::of(b"x");
        let body = br#"{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown","detail":{"Tag":"v9"}}]}"#;
        let e = from_response(
            "r:5000/a/b",
            Subject::Manifest("v9"),
            StatusCode::NOT_FOUND,
            body,
        );
        assert_eq!(e.to_string(), "r:5000/a/b: manifest v9 not found");
        let e = from_response("r:5000/a/b", Subject::Blob(&d), StatusCode::NOT_FOUND, b"");
        assert!(e.to_string().contains("blob sha256:"), "{e}");
        let body = br#"{"errors":[{"code":"DIGEST_INVALID","message":"provided digest did not match uploaded content"}]}"#;
        let e = from_response(
            "r:5000/a/b",
            Subject::Upload(&d),
            StatusCode::BAD_REQUEST,
            body,
        );
        let text = e.to_string();
        assert!(
            text.contains("r:5000/a/b: uploading blob sha256:")
                && text.contains("HTTP 400 Bad Request: DIGEST_INVALID: provided digest"),
            "{text}"
        );
        let e = from_response("r/a/b", Subject::Tags, StatusCode::FORBIDDEN, b"{}");
        assert!(matches!(e, OciError::Denied { .. }), "{e}");
    }
}
