//! Tag names at a copy's destination (`carvel-formats.md` §3.2): every manifest
//! is pushed by tag into the one destination repository, as
//! `sha256-<hex>.imgpkg`, or with `--repo-based-tags` as the source repository
//! path, cleaned and cut to 49 characters, followed by `-sha256-<hex>.imgpkg`.
//! A bundle's locations image is tagged `sha256-<hex>.image-locations.imgpkg`.

use crate::oci::Digest;

/// The tag generator imgpkg uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TagScheme {
    /// `sha256-<hex>.imgpkg`.
    #[default]
    Digest,
    /// `<repo path>-sha256-<hex>.imgpkg`.
    RepoBased,
}

impl TagScheme {
    /// The destination tag of the manifest `digest` that came from `orig_ref`.
    pub fn tag(self, digest: &Digest, orig_ref: &str) -> String {
        match self {
            TagScheme::Digest => digest_tag(digest),
            TagScheme::RepoBased => repo_based_tag(digest, orig_ref),
        }
    }
}

/// `sha256-<hex>.imgpkg`.
pub fn digest_tag(digest: &Digest) -> String {
    format!("{}.imgpkg", digest.dashed())
}

/// `sha256-<hex>.image-locations.imgpkg`.
pub fn locations_tag(bundle: &Digest) -> String {
    format!("{}.image-locations.imgpkg", bundle.dashed())
}

/// imgpkg's `RepoBasedTagGenerator`.
pub fn repo_based_tag(digest: &Digest, orig_ref: &str) -> String {
    let without_digest = orig_ref.split('@').next().unwrap_or_default();
    let path = match without_digest.split_once('/') {
        Some((_, rest)) => rest.replace('/', "-"),
        None => without_digest.to_string(),
    };
    let cleaned = clean(&path);
    let start = cleaned.len().saturating_sub(49);
    let cut = clean(&cleaned[start..]);
    let tag = format!("{cut}-{}.imgpkg", digest.dashed());
    match tag.strip_prefix('-') {
        Some(rest) => rest.to_string(),
        None => tag,
    }
}

/// Drops leading characters outside `[A-Za-z0-9_]` and every character outside
/// `[A-Za-z0-9._-]`.
fn clean(text: &str) -> String {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    let kept: String = text.chars().filter(|&c| allowed(c)).collect();
    kept.trim_start_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest() -> Digest {
        format!("sha256:{}", "8d0f".repeat(16)).parse().unwrap()
    }

    #[test]
    fn digest_and_locations_tags() {
        let d = digest();
        assert_eq!(digest_tag(&d), format!("sha256-{}.imgpkg", d.hex()));
        assert_eq!(
            locations_tag(&d),
            format!("sha256-{}.image-locations.imgpkg", d.hex())
        );
    }

    #[test]
    fn repo_based_tags_as_imgpkg_makes_them() {
        let d = digest();
        let tag = repo_based_tag(&d, &format!("127.0.0.1:5111/src/app@{d}"));
        assert_eq!(tag, format!("src-app-sha256-{}.imgpkg", d.hex()));
        let long = format!("reg.io/{}/x@{d}", "abcdefghij".repeat(8));
        let tag = repo_based_tag(&d, &long);
        assert!(tag.len() <= 128, "{}", tag.len());
        assert!(
            tag.ends_with(&format!("j-x-sha256-{}.imgpkg", d.hex())),
            "{tag}"
        );
        let odd = repo_based_tag(&d, &format!("reg.io/__/.-weird@{d}"));
        assert_eq!(odd, format!("__-.-weird-sha256-{}.imgpkg", d.hex()));
    }
}
