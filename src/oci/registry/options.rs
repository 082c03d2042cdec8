//! [`RegistryOptions`]: everything the user can say about how to reach registries
//! (plain-HTTP registries, extra CA certificates, credentials from flags or env,
//! retries, timeouts). Built by the CLI from `RegistryArgs`, or directly by tests.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::oci::registry::credentials::env_keychain::EnvKeychain;

/// Credentials given on the command line (`--registry-username`/`--registry-password`,
/// `--registry-token`, `--registry-anon`) or their `IMGPKG_*` environment variables.
/// They apply to every registry, after the env keychain and before docker config.
#[derive(Clone, Default)]
pub struct FlagCredentials {
    pub username: Option<String>,
    pub password: Option<String>,
    /// A registry token sent as `Bearer` with no exchange.
    pub token: Option<String>,
    /// Force anonymous access.
    pub anon: bool,
}

impl std::fmt::Debug for FlagCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlagCredentials")
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("anon", &self.anon)
            .finish()
    }
}

/// How to reach registries. [`RegistryOptions::default`] reads nothing from the
/// environment; [`RegistryOptions::from_env`] fills in the env keychain and the
/// docker config location as imgpkg does.
#[derive(Clone, Debug)]
pub struct RegistryOptions {
    /// Registries (`host` or `host:port`) to reach over plain HTTP.
    pub insecure_registries: Vec<String>,
    /// Reach every registry over plain HTTP (`--registry-insecure`).
    pub insecure_all: bool,
    /// Extra PEM CA certificate files trusted besides the system roots.
    pub ca_cert_paths: Vec<PathBuf>,
    /// Check each registry's certificate chain and name (`--registry-verify-certs`,
    /// on unless turned off).
    pub verify_certs: bool,
    pub flag_credentials: FlagCredentials,
    /// `IMGPKG_REGISTRY_HOSTNAME[_N]` and friends.
    pub env_keychain: EnvKeychain,
    /// The directory holding docker's `config.json`; `None` means no docker config.
    pub docker_config_dir: Option<PathBuf>,
    /// Further auth files tried when `config.json` does not exist
    /// (`$REGISTRY_AUTH_FILE`, `$XDG_RUNTIME_DIR/containers/auth.json`).
    pub fallback_auth_files: Vec<PathBuf>,
    /// The `PATH` searched for `docker-credential-*` helpers; `None` = the process's.
    pub helper_path: Option<OsString>,
    /// Attempts per request after the first (`--registry-retry-count`, default 5).
    pub retry_count: u32,
    /// First backoff delay; doubles per attempt up to `retry_max_delay`, with jitter.
    pub retry_base_delay: Duration,
    pub retry_max_delay: Duration,
    /// Longest `Retry-After` honoured.
    pub retry_after_cap: Duration,
    pub connect_timeout: Duration,
    /// Longest wait for a response or for the next bytes of a body.
    pub read_timeout: Duration,
    /// Blobs up to this size are uploaded in one PUT; larger ones in chunks.
    pub monolithic_upload_max: u64,
    /// Larger blobs are uploaded in one streamed `PATCH` when 0 (the default), else
    /// in chunks of this size (raised to the registry's `OCI-Chunk-Min-Length`).
    pub upload_chunk_size: usize,
    /// Where the upload session of each blob in flight is recorded, so that a
    /// rerun of a stopped copy can continue it (see `upload_state`); `None`: not
    /// recorded. [`RegistryOptions::from_env`] sets `$XDG_STATE_HOME/strake/uploads`
    /// (else `~/.local/state/strake/uploads`).
    pub upload_state_dir: Option<PathBuf>,
}

impl Default for RegistryOptions {
    fn default() -> Self {
        RegistryOptions {
            insecure_registries: Vec::new(),
            insecure_all: false,
            ca_cert_paths: Vec::new(),
            verify_certs: true,
            flag_credentials: FlagCredentials::default(),
            env_keychain: EnvKeychain::default(),
            docker_config_dir: None,
            fallback_auth_files: Vec::new(),
            helper_path: None,
            retry_count: 5,
            retry_base_delay: Duration::from_millis(100),
            retry_max_delay: Duration::from_secs(1),
            retry_after_cap: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(30),
            read_timeout: Duration::from_secs(30),
            monolithic_upload_max: 8 << 20,
            upload_chunk_size: 0,
            upload_state_dir: None,
        }
    }
}

impl RegistryOptions {
    /// Defaults plus what the environment says: the env keychain, `$DOCKER_CONFIG`
    /// (else `~/.docker`), `$REGISTRY_AUTH_FILE` and
    /// `$XDG_RUNTIME_DIR/containers/auth.json`, and the upload state directory.
    pub fn from_env() -> Self {
        let docker_config_dir = std::env::var_os("DOCKER_CONFIG")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".docker")));
        let mut fallback_auth_files = Vec::new();
        if let Some(f) = std::env::var_os("REGISTRY_AUTH_FILE").filter(|v| !v.is_empty()) {
            fallback_auth_files.push(PathBuf::from(f));
        }
        if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|v| !v.is_empty()) {
            fallback_auth_files.push(PathBuf::from(d).join("containers/auth.json"));
        }
        let upload_state_dir = std::env::var_os("XDG_STATE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
            .map(|d| d.join("strake/uploads"));
        RegistryOptions {
            env_keychain: EnvKeychain::from_vars(std::env::vars()),
            docker_config_dir,
            fallback_auth_files,
            upload_state_dir,
            ..RegistryOptions::default()
        }
    }

    /// True when `registry` must be reached over plain HTTP only.
    pub fn is_insecure(&self, registry: &str) -> bool {
        if self.insecure_all {
            return true;
        }
        let host = strip_port(registry);
        self.insecure_registries
            .iter()
            .any(|r| r == registry || r == host)
    }
}

/// `host` of `host:port` (IPv6 in brackets kept whole).
pub(crate) fn strip_port(registry: &str) -> &str {
    if registry.starts_with('[') {
        return registry
            .find(']')
            .map(|i| &registry[..=i])
            .unwrap_or(registry);
    }
    match registry.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => registry,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insecure_matches_host_with_or_without_port() {
        let o = RegistryOptions {
            insecure_registries: vec!["reg.local".into(), "other:5000".into()],
            ..RegistryOptions::default()
        };
        assert!(o.is_insecure("reg.local:443"));
        assert!(o.is_insecure("reg.local"));
        assert!(o.is_insecure("other:5000"));
        assert!(!o.is_insecure("other:5001"));
        assert!(!o.is_insecure("gcr.io"));
        assert_eq!(strip_port("[::1]:5000"), "[::1]");
    }

    #[test]
    fn debug_never_prints_secrets() {
        let c = FlagCredentials {
            username: Some("u".into()),
            password: Some("hunter2".into()),
            token: Some("tok".into()),
            anon: false,
        };
        let text = format!("{c:?}");
        assert!(
            !text.contains("hunter2") && !text.contains("tok\""),
            "{text}"
        );
    }
}
