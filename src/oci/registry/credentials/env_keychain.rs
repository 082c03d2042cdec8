//! imgpkg's environment keychain: `IMGPKG_REGISTRY_HOSTNAME[<suffix>]` with
//! `IMGPKG_REGISTRY_USERNAME<suffix>`, `…_PASSWORD<suffix>`,
//! `…_IDENTITY_TOKEN<suffix>` and `…_REGISTRY_TOKEN<suffix>` (suffix such as `_1`).
//! A hostname may carry a scheme, a `/v2/` path or a repository path, and `*`
//! globs per dot-separated part (`*.docker.io`); exact matches beat glob matches.

use std::collections::BTreeMap;

use super::{Credential, Resolved};

const PREFIX: &str = "IMGPKG_REGISTRY_";
const KEYS: [&str; 5] = [
    "HOSTNAME",
    "USERNAME",
    "PASSWORD",
    "IDENTITY_TOKEN",
    "REGISTRY_TOKEN",
];

/// One `IMGPKG_REGISTRY_*` group.
#[derive(Clone, Default)]
struct Entry {
    suffix: String,
    hostname: String,
    username: String,
    password: String,
    identity_token: String,
    registry_token: String,
}

/// The entries found in the environment.
#[derive(Clone, Default)]
pub struct EnvKeychain {
    entries: Vec<Entry>,
}

impl std::fmt::Debug for EnvKeychain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| &e.hostname))
            .finish()
    }
}

impl EnvKeychain {
    /// Collects entries from `(name, value)` pairs (normally `std::env::vars()`).
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> EnvKeychain {
        let mut groups: BTreeMap<String, Entry> = BTreeMap::new();
        for (name, value) in vars {
            let Some(rest) = name.strip_prefix(PREFIX) else {
                continue;
            };
            // REGISTRY_TOKEN must be tried before a shorter key could claim it.
            let Some(key) = KEYS.iter().find(|k| rest.starts_with(*k)) else {
                continue;
            };
            let suffix = rest[key.len()..].to_string();
            let entry = groups.entry(suffix.clone()).or_insert_with(|| Entry {
                suffix,
                ..Entry::default()
            });
            match *key {
                "HOSTNAME" => entry.hostname = value,
                "USERNAME" => entry.username = value,
                "PASSWORD" => entry.password = value,
                "IDENTITY_TOKEN" => entry.identity_token = value,
                _ => entry.registry_token = value,
            }
        }
        EnvKeychain {
            entries: groups
                .into_values()
                .filter(|e| !e.hostname.is_empty())
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The credential for `registry`/`repository`, if an entry matches.
    pub fn lookup(&self, registry: &str, repository: &str) -> Option<Resolved> {
        let mut best: Option<(&Entry, bool)> = None;
        for entry in &self.entries {
            for pattern in entry.hostname.split(',').map(str::trim) {
                if let Some(glob) = matches(pattern, registry, repository)
                    && best.is_none_or(|(_, best_glob)| best_glob && !glob)
                {
                    best = Some((entry, glob));
                }
            }
        }
        let (entry, _) = best?;
        let credential = if !entry.registry_token.is_empty() {
            Credential::RegistryToken {
                token: entry.registry_token.clone(),
            }
        } else if !entry.identity_token.is_empty() {
            Credential::IdentityToken {
                token: entry.identity_token.clone(),
            }
        } else if !entry.username.is_empty() {
            Credential::Basic {
                username: entry.username.clone(),
                password: entry.password.clone(),
            }
        } else {
            Credential::Anonymous
        };
        Some(Resolved {
            credential,
            source: Some(format!("{PREFIX}HOSTNAME{}", entry.suffix)),
        })
    }
}

/// `Some(is_glob)` when `pattern` matches the registry and repository.
fn matches(pattern: &str, registry: &str, repository: &str) -> Option<bool> {
    let without_scheme = pattern
        .strip_prefix("https://")
        .or_else(|| pattern.strip_prefix("http://"))
        .unwrap_or(pattern);
    let (host, path) = without_scheme
        .split_once('/')
        .unwrap_or((without_scheme, ""));
    let path = path.trim_end_matches('/');
    let path = path
        .strip_prefix("v2")
        .map(|p| p.trim_start_matches('/'))
        .unwrap_or(path);
    let (pattern_host, pattern_port) = split_port(host);
    let (reg_host, reg_port) = split_port(registry);
    if pattern_port != reg_port {
        return None;
    }
    let p_parts: Vec<&str> = pattern_host.split('.').collect();
    let r_parts: Vec<&str> = reg_host.split('.').collect();
    if p_parts.len() != r_parts.len() {
        return None;
    }
    if !p_parts.iter().zip(&r_parts).all(|(p, r)| glob(p, r)) {
        return None;
    }
    let path_matches =
        path.is_empty() || repository == path || repository.starts_with(&format!("{path}/"));
    if !path_matches {
        return None;
    }
    Some(pattern_host.contains('*'))
}

fn split_port(host: &str) -> (&str, Option<&str>) {
    match host.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || host.starts_with('[') => {
            if p.bytes().all(|b| b.is_ascii_digit()) {
                (h, Some(p))
            } else {
                (host, None)
            }
        }
        _ => (host, None),
    }
}

/// `*` matches any run of characters (within one host label).
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern.eq_ignore_ascii_case(text),
        Some((head, tail)) => {
            if text.len() < head.len() || !text[..head.len()].eq_ignore_ascii_case(head) {
                return false;
            }
            let rest = &text[head.len()..];
            (0..=rest.len()).any(|i| rest.is_char_boundary(i) && glob(tail, &rest[i..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(vars: &[(&str, &str)]) -> EnvKeychain {
        EnvKeychain::from_vars(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    }

    #[test]
    fn matches_by_suffix_group() {
        let k = chain(&[
            ("IMGPKG_REGISTRY_HOSTNAME", "reg.io"),
            ("IMGPKG_REGISTRY_USERNAME", "u0"),
            ("IMGPKG_REGISTRY_PASSWORD", "p0"),
            ("IMGPKG_REGISTRY_HOSTNAME_1", "https://other.io:5000/v2/"),
            ("IMGPKG_REGISTRY_REGISTRY_TOKEN_1", "rt"),
            ("IMGPKG_REGISTRY_HOSTNAME_2", "id.io"),
            ("IMGPKG_REGISTRY_IDENTITY_TOKEN_2", "it"),
            ("UNRELATED", "x"),
        ]);
        let r = k.lookup("reg.io", "a/b").unwrap();
        assert_eq!(
            r.credential,
            Credential::Basic {
                username: "u0".into(),
                password: "p0".into()
            }
        );
        assert_eq!(r.source.as_deref(), Some("IMGPKG_REGISTRY_HOSTNAME"));
        let r = k.lookup("other.io:5000", "x/y").unwrap();
        assert_eq!(
            r.credential,
            Credential::RegistryToken { token: "rt".into() }
        );
        assert_eq!(r.source.as_deref(), Some("IMGPKG_REGISTRY_HOSTNAME_1"));
        assert!(k.lookup("other.io", "x/y").is_none());
        assert_eq!(
            k.lookup("id.io", "x/y").unwrap().credential,
            Credential::IdentityToken { token: "it".into() }
        );
        assert!(k.lookup("nope.io", "a/b").is_none());
    }

    #[test]
    fn globs_and_paths_with_exact_winning() {
        let k = chain(&[
            ("IMGPKG_REGISTRY_HOSTNAME_A", "*.docker.io"),
            ("IMGPKG_REGISTRY_USERNAME_A", "glob"),
            ("IMGPKG_REGISTRY_HOSTNAME_B", "index.docker.io"),
            ("IMGPKG_REGISTRY_USERNAME_B", "exact"),
            ("IMGPKG_REGISTRY_HOSTNAME_C", "gcr.io/team"),
            ("IMGPKG_REGISTRY_USERNAME_C", "team"),
        ]);
        let user = |r: &str, repo: &str| match k.lookup(r, repo).map(|x| x.credential) {
            Some(Credential::Basic { username, .. }) => username,
            other => format!("{other:?}"),
        };
        assert_eq!(user("index.docker.io", "library/x"), "exact");
        assert_eq!(user("registry-1.docker.io", "library/x"), "glob");
        assert_eq!(user("docker.io", "library/x"), "None");
        assert_eq!(user("gcr.io", "team/app"), "team");
        assert_eq!(user("gcr.io", "teamx/app"), "None");
    }
}
