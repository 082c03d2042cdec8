//! Which credentials to use for a registry, in imgpkg's order: the env keychain
//! (`IMGPKG_REGISTRY_HOSTNAME[_N]` …), then flags/env (`--registry-username`,
//! `--registry-token`, `--registry-anon`), then docker's `config.json` with its
//! credential helpers. Secrets never appear in `Debug` output or errors; only the
//! *source* of a credential is ever named.

pub mod docker_config;
pub mod env_keychain;

use crate::oci::Result;
use crate::oci::registry::RegistryOptions;

/// A credential for one registry.
#[derive(Clone, PartialEq, Eq)]
pub enum Credential {
    Anonymous,
    Basic {
        username: String,
        password: String,
    },
    /// An OAuth2 refresh token (docker `identitytoken`), exchanged at the token
    /// endpoint.
    IdentityToken {
        token: String,
    },
    /// A token sent as `Bearer` with no exchange (`registrytoken`, `--registry-token`).
    RegistryToken {
        token: String,
    },
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credential::Anonymous => f.write_str("Anonymous"),
            Credential::Basic { username, .. } => {
                write!(
                    f,
                    "Basic {{ username: {username:?}, password: <redacted> }}"
                )
            }
            Credential::IdentityToken { .. } => f.write_str("IdentityToken(<redacted>)"),
            Credential::RegistryToken { .. } => f.write_str("RegistryToken(<redacted>)"),
        }
    }
}

/// A credential and where it came from ("docker config /home/u/.docker/config.json",
/// "--registry-username", …) for messages.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub credential: Credential,
    pub source: Option<String>,
}

impl Resolved {
    pub fn anonymous() -> Resolved {
        Resolved {
            credential: Credential::Anonymous,
            source: None,
        }
    }
}

/// Looks up the credential for `repository` on `registry`.
pub async fn resolve(
    options: &RegistryOptions,
    registry: &str,
    repository: &str,
) -> Result<Resolved> {
    if let Some(found) = options.env_keychain.lookup(registry, repository) {
        return Ok(found);
    }
    let flags = &options.flag_credentials;
    if flags.anon {
        return Ok(Resolved {
            credential: Credential::Anonymous,
            source: Some("--registry-anon".into()),
        });
    }
    if let Some(token) = flags.token.as_ref().filter(|t| !t.is_empty()) {
        return Ok(Resolved {
            credential: Credential::RegistryToken {
                token: token.clone(),
            },
            source: Some("--registry-token".into()),
        });
    }
    if let Some(username) = flags.username.as_ref().filter(|u| !u.is_empty()) {
        return Ok(Resolved {
            credential: Credential::Basic {
                username: username.clone(),
                password: flags.password.clone().unwrap_or_default(),
            },
            source: Some("--registry-username/--registry-password".into()),
        });
    }
    docker_config::lookup(options, registry, repository).await
}
