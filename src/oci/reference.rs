//! Image references, parsed and normalised exactly as go-containerregistry's
//! `pkg/name` does (which is what imgpkg and kbld print): `nginx` becomes
//! `index.docker.io/library/nginx:latest`, `docker.io` is an alias of
//! `index.docker.io`, and `repo:tag@digest` keeps the digest.

use std::fmt;
use std::str::FromStr;

use crate::oci::{Digest, OciError};

/// The registry host Docker Hub references normalise to.
pub const DOCKER_HUB: &str = "index.docker.io";
/// The tag implied when a reference has neither tag nor digest.
pub const DEFAULT_TAG: &str = "latest";

/// A parsed image reference: registry, repository, and a tag and/or digest.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reference {
    registry: String,
    repository: String,
    tag: Option<String>,
    digest: Option<Digest>,
}

impl Reference {
    /// Parses `input` (see the module docs for the normalisation rules).
    pub fn parse(input: &str) -> Result<Reference, OciError> {
        let fail = |reason: String| OciError::InvalidReference {
            input: input.to_string(),
            reason,
        };
        if input.is_empty() {
            return Err(fail("empty reference".into()));
        }
        if input.chars().any(|c| c.is_whitespace()) {
            return Err(fail("contains whitespace".into()));
        }
        let (base, digest) = match input.split_once('@') {
            Some((base, digest)) => {
                let digest = digest.parse::<Digest>().map_err(|e| match e {
                    OciError::InvalidDigest { reason, .. } => fail(format!("bad digest: {reason}")),
                    other => other,
                })?;
                (base, Some(digest))
            }
            None => (input, None),
        };
        // A tag is the text after the last ':' when no '/' follows it (otherwise the
        // ':' belongs to a registry port).
        let (name, tag) = match base.rsplit_once(':') {
            Some((name, tag)) if !tag.contains('/') => (name, Some(tag.to_string())),
            _ => (base, None),
        };
        if let Some(tag) = &tag {
            check_tag(tag).map_err(fail)?;
        }
        let (registry, repository) = split_registry(name);
        let registry = if registry == "docker.io" {
            DOCKER_HUB.to_string()
        } else {
            registry
        };
        check_registry(&registry).map_err(fail)?;
        let repository = if registry == DOCKER_HUB && !repository.contains('/') {
            format!("library/{repository}")
        } else {
            repository
        };
        check_repository(&repository).map_err(fail)?;
        Ok(Reference {
            registry,
            repository,
            tag,
            digest,
        })
    }

    /// Builds a reference from parts that are already normalised.
    pub fn from_parts(
        registry: &str,
        repository: &str,
        tag: Option<&str>,
        digest: Option<Digest>,
    ) -> Result<Reference, OciError> {
        let mut text = format!("{registry}/{repository}");
        if let Some(tag) = tag {
            text.push(':');
            text.push_str(tag);
        }
        if let Some(digest) = &digest {
            text.push('@');
            text.push_str(digest.as_str());
        }
        Reference::parse(&text)
    }

    /// The registry host (with port), e.g. `index.docker.io` or `127.0.0.1:5000`.
    pub fn registry(&self) -> &str {
        &self.registry
    }

    /// The repository path without the host, e.g. `library/nginx`.
    pub fn repository(&self) -> &str {
        &self.repository
    }

    /// The tag as written, if any.
    pub fn tag(&self) -> Option<&str> {
        self.tag.as_deref()
    }

    /// The digest as written, if any.
    pub fn digest(&self) -> Option<&Digest> {
        self.digest.as_ref()
    }

    /// `registry/repository`.
    pub fn name(&self) -> String {
        format!("{}/{}", self.registry, self.repository)
    }

    /// What to put after `/manifests/`: the digest when there is one, else the tag
    /// (`latest` by default).
    pub fn manifest_reference(&self) -> String {
        match (&self.digest, &self.tag) {
            (Some(d), _) => d.to_string(),
            (None, Some(t)) => t.clone(),
            (None, None) => DEFAULT_TAG.to_string(),
        }
    }

    /// The same repository at `digest` (tag dropped), as ggcr's digest references print.
    pub fn with_digest(&self, digest: Digest) -> Reference {
        Reference {
            registry: self.registry.clone(),
            repository: self.repository.clone(),
            tag: None,
            digest: Some(digest),
        }
    }

    /// The same repository at `tag` (digest dropped).
    pub fn with_tag(&self, tag: &str) -> Result<Reference, OciError> {
        check_tag(tag).map_err(|reason| OciError::InvalidReference {
            input: format!("{}:{tag}", self.name()),
            reason,
        })?;
        Ok(Reference {
            registry: self.registry.clone(),
            repository: self.repository.clone(),
            tag: Some(tag.to_string()),
            digest: None,
        })
    }

    /// True for registries reached over loopback (`localhost`, 127.0.0.0/8, `::1`),
    /// where plain HTTP is allowed without the user asking.
    pub fn is_loopback_registry(&self) -> bool {
        is_loopback_host(&self.registry)
    }
}

/// True when `registry` (host with optional port) names a loopback address.
pub fn is_loopback_host(registry: &str) -> bool {
    let host = if let Some(rest) = registry.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        registry
            .rsplit_once(':')
            .map(|(h, _)| h)
            .unwrap_or(registry)
    };
    host == "localhost"
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

fn split_registry(name: &str) -> (String, String) {
    match name.split_once('/') {
        Some((first, rest))
            if first.contains('.') || first.contains(':') || first == "localhost" =>
        {
            (first.to_string(), rest.to_string())
        }
        _ => (DOCKER_HUB.to_string(), name.to_string()),
    }
}

fn check_tag(tag: &str) -> Result<(), String> {
    if tag.is_empty() || tag.len() > 128 {
        return Err(format!("tag {tag:?} must be 1 to 128 characters"));
    }
    let first = tag.as_bytes()[0];
    if !(first.is_ascii_alphanumeric() || first == b'_') {
        return Err(format!(
            "tag {tag:?} must start with a letter, digit or '_'"
        ));
    }
    if let Some(bad) = tag
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        return Err(format!(
            "tag {tag:?} contains {bad:?} (allowed: a-z A-Z 0-9 _ . -)"
        ));
    }
    Ok(())
}

fn check_registry(registry: &str) -> Result<(), String> {
    if registry.is_empty() {
        return Err("empty registry host".into());
    }
    let valid = registry
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']' | '_'));
    if !valid {
        return Err(format!("registry {registry:?} is not a valid host[:port]"));
    }
    Ok(())
}

fn check_repository(repository: &str) -> Result<(), String> {
    if repository.len() < 2 || repository.len() > 255 {
        return Err(format!(
            "repository {repository:?} must be 2 to 255 characters"
        ));
    }
    if repository.chars().any(|c| c.is_ascii_uppercase()) {
        return Err(format!("repository {repository:?} must be lower-case"));
    }
    for component in repository.split('/') {
        if !valid_path_component(component) {
            return Err(format!(
                "repository component {component:?} must match [a-z0-9]+((.|_|__|-+)[a-z0-9]+)*"
            ));
        }
    }
    Ok(())
}

/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`
fn valid_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    if bytes.is_empty() || !alnum(bytes[0]) || !alnum(bytes[bytes.len() - 1]) {
        return false;
    }
    let mut i = 0;
    while i < bytes.len() {
        if alnum(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !alnum(bytes[i]) {
            i += 1;
        }
        let sep = &component[start..i];
        let ok = sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|b| b == b'-');
        if !ok {
            return false;
        }
    }
    true
}

impl FromStr for Reference {
    type Err = OciError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reference::parse(s)
    }
}

/// Prints as ggcr does: `name@digest` when there is a digest (any tag dropped),
/// otherwise `name:tag` with `latest` filled in.
impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.digest, &self.tag) {
            (Some(d), _) => write!(f, "{}/{}@{}", self.registry, self.repository, d),
            (None, Some(t)) => write!(f, "{}/{}:{}", self.registry, self.repository, t),
            (None, None) => write!(f, "{}/{}:{}", self.registry, self.repository, DEFAULT_TAG),
        }
    }
}

impl fmt::Debug for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reference({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    #[test]
    fn normalises_like_ggcr() {
        let cases = [
            ("nginx", "index.docker.io/library/nginx:latest"),
            ("docker.io/nginx", "index.docker.io/library/nginx:latest"),
            ("foo/bar", "index.docker.io/foo/bar:latest"),
            ("docker.io/foo/bar:1", "index.docker.io/foo/bar:1"),
            (
                "registry-1.docker.io/foo/bar",
                "registry-1.docker.io/foo/bar:latest",
            ),
            ("gcr.io/a/b", "gcr.io/a/b:latest"),
            ("localhost/ab", "localhost/ab:latest"),
            (
                "127.0.0.1:5000/conformance/app:v1",
                "127.0.0.1:5000/conformance/app:v1",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                Reference::parse(input).unwrap().to_string(),
                want,
                "{input}"
            );
        }
    }

    #[test]
    fn digest_references() {
        let r = Reference::parse(&format!("busybox@sha256:{HEX}")).unwrap();
        assert_eq!(
            r.to_string(),
            format!("index.docker.io/library/busybox@sha256:{HEX}")
        );
        let r = Reference::parse(&format!("127.0.0.1:5000/a/b:v1@sha256:{HEX}")).unwrap();
        assert_eq!(r.tag(), Some("v1"));
        assert_eq!(r.to_string(), format!("127.0.0.1:5000/a/b@sha256:{HEX}"));
        assert_eq!(r.manifest_reference(), format!("sha256:{HEX}"));
    }

    #[test]
    fn rejects_invalid_input_with_a_reason() {
        let cases = [
            ("Nginx", "lower-case"),
            ("gcr.io/Foo/bar", "lower-case"),
            ("localhost:5000/x", "2 to 255"),
            ("nginx:-bad", "must start"),
            ("nginx:a+b", "contains"),
            ("nginx@sha256:abc", "bad digest"),
            ("", "empty"),
            ("a b", "whitespace"),
            ("foo//bar", "component"),
        ];
        for (input, reason) in cases {
            let err = Reference::parse(input).unwrap_err().to_string();
            assert!(err.contains(reason), "{input}: {err}");
        }
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost:5000",
            "127.0.0.1:5000",
            "127.1.2.3",
            "[::1]:5000",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in ["gcr.io", "10.0.0.1:5000", "example.local"] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
