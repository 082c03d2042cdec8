//! Credentials from docker's `config.json` (or a podman/skopeo `auth.json` when no
//! docker config exists): `credHelpers` per host, then the global `credsStore`,
//! then inline `auths` (`auth` = base64 `user:password`, or `username`/`password`,
//! `identitytoken`, `registrytoken`). Keys are tried as `host/repository`, then
//! `host`; Docker Hub's host is looked up under the legacy key
//! `https://index.docker.io/v1/`; URL-shaped keys (`https://gcr.io/v2/`) match by
//! hostname. Helpers run as `docker-credential-<name> get` with the server on stdin.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use base64::Engine;
use tokio::io::AsyncWriteExt;

use super::{Credential, Resolved};
use crate::oci::reference::DOCKER_HUB;
use crate::oci::registry::RegistryOptions;
use crate::oci::{OciError, Result};

/// Docker Hub's key in `config.json`.
pub const DOCKER_HUB_LEGACY_KEY: &str = "https://index.docker.io/v1/";

#[derive(Debug, Default, serde::Deserialize)]
struct ConfigFile {
    #[serde(default)]
    auths: BTreeMap<String, AuthEntry>,
    #[serde(default, rename = "credsStore")]
    creds_store: Option<String>,
    #[serde(default, rename = "credHelpers")]
    cred_helpers: BTreeMap<String, String>,
}

#[derive(Default, serde::Deserialize)]
struct AuthEntry {
    #[serde(default)]
    auth: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    password: Option<String>,
    #[serde(default)]
    identitytoken: Option<String>,
    #[serde(default)]
    registrytoken: Option<String>,
}

impl std::fmt::Debug for AuthEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AuthEntry(<redacted>)")
    }
}

/// The auth file in use: `config.json` in the docker config dir when it exists,
/// else the first fallback file that exists.
pub fn config_path(options: &RegistryOptions) -> Option<PathBuf> {
    let docker = options
        .docker_config_dir
        .as_ref()
        .map(|d| d.join("config.json"))
        .filter(|p| p.is_file());
    docker.or_else(|| {
        options
            .fallback_auth_files
            .iter()
            .find(|p| p.is_file())
            .cloned()
    })
}

/// Looks the registry up in the auth file; anonymous when nothing matches.
pub async fn lookup(
    options: &RegistryOptions,
    registry: &str,
    repository: &str,
) -> Result<Resolved> {
    let Some(path) = config_path(options) else {
        return Ok(Resolved::anonymous());
    };
    let text =
        std::fs::read(&path).map_err(|e| OciError::io(format!("reading {}", path.display()), e))?;
    let config: ConfigFile = serde_json::from_slice(&text).map_err(|e| OciError::Invalid {
        location: path.display().to_string(),
        detail: format!("not a valid docker config file: {e}"),
    })?;
    let host_key = if registry == DOCKER_HUB {
        DOCKER_HUB_LEGACY_KEY.to_string()
    } else {
        registry.to_string()
    };
    let keys = [format!("{registry}/{repository}"), host_key.clone()];
    let source = |what: &str| Some(format!("{what} in {}", path.display()));

    let helper = config
        .cred_helpers
        .get(registry)
        .or_else(|| config.cred_helpers.get(&host_key))
        .map(|h| (h.clone(), "credHelpers"))
        .or_else(|| {
            config
                .creds_store
                .clone()
                .filter(|s| !s.is_empty())
                .map(|s| (s, "credsStore"))
        });
    if let Some((helper, field)) = helper {
        for key in &keys {
            if let Some(credential) = run_helper(options, &helper, field, &path, key).await? {
                return Ok(Resolved {
                    credential,
                    source: source(&format!("docker-credential-{helper} ({field})")),
                });
            }
        }
        return Ok(Resolved::anonymous());
    }

    let entry = keys.iter().find_map(|k| config.auths.get(k)).or_else(|| {
        config
            .auths
            .iter()
            .find(|(k, _)| hostname_of_key(k) == hostname_of_key(&host_key))
            .map(|(_, v)| v)
    });
    let Some(entry) = entry else {
        return Ok(Resolved::anonymous());
    };
    let credential = entry_credential(entry).map_err(|detail| OciError::Invalid {
        location: path.display().to_string(),
        detail: format!("auths entry for {registry}: {detail}"),
    })?;
    Ok(Resolved {
        credential,
        source: source("auths"),
    })
}

/// `https://gcr.io/v2/` → `gcr.io` (docker's `ConvertToHostname`).
fn hostname_of_key(key: &str) -> &str {
    let k = key
        .strip_prefix("https://")
        .or_else(|| key.strip_prefix("http://"))
        .unwrap_or(key);
    k.split('/').next().unwrap_or(k)
}

fn entry_credential(entry: &AuthEntry) -> std::result::Result<Credential, String> {
    let nonempty = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    if let Some(token) = nonempty(&entry.registrytoken) {
        return Ok(Credential::RegistryToken { token });
    }
    if let Some(token) = nonempty(&entry.identitytoken) {
        return Ok(Credential::IdentityToken { token });
    }
    if let Some(auth) = nonempty(&entry.auth) {
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(auth.trim())
            .map_err(|_| "\"auth\" is not base64".to_string())?;
        let text = String::from_utf8(decoded).map_err(|_| "\"auth\" is not UTF-8".to_string())?;
        let (username, password) = text
            .split_once(':')
            .ok_or_else(|| "\"auth\" does not decode to user:password".to_string())?;
        return Ok(Credential::Basic {
            username: username.to_string(),
            password: password.to_string(),
        });
    }
    if let Some(username) = nonempty(&entry.username) {
        return Ok(Credential::Basic {
            username,
            password: entry.password.clone().unwrap_or_default(),
        });
    }
    Ok(Credential::Anonymous)
}

#[derive(serde::Deserialize)]
struct HelperReply {
    #[serde(rename = "Username", default)]
    username: String,
    #[serde(rename = "Secret", default)]
    secret: String,
}

fn find_program(options: &RegistryOptions, name: &str) -> Option<PathBuf> {
    let path = options
        .helper_path
        .clone()
        .or_else(|| std::env::var_os("PATH"))?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Runs `docker-credential-<helper> get` for `server`; `None` when it has nothing.
async fn run_helper(
    options: &RegistryOptions,
    helper: &str,
    field: &str,
    config: &Path,
    server: &str,
) -> Result<Option<Credential>> {
    let program = format!("docker-credential-{helper}");
    let what = format!("{program} (\"{field}\" in {})", config.display());
    let fail = |detail: String| OciError::Invalid {
        location: what.clone(),
        detail,
    };
    let path = find_program(options, &program)
        .ok_or_else(|| fail("credential helper not found on PATH".into()))?;
    let mut child = tokio::process::Command::new(&path)
        .arg("get")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| fail(format!("cannot run {}: {e}", path.display())))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A helper that exits without reading stdin is not an error here.
        let _ = stdin.write_all(server.as_bytes()).await;
    }
    let output = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .map_err(|_| fail("timed out after 60 s".into()))?
        .map_err(|e| fail(format!("failed: {e}")))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        if stdout.contains("credentials not found") || stderr.contains("credentials not found") {
            return Ok(None);
        }
        let message: String = stdout
            .lines()
            .chain(stderr.lines())
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .chars()
            .take(200)
            .collect();
        return Err(fail(format!(
            "\"get\" for {server} exited with {}: {message}",
            output.status
        )));
    }
    let reply: HelperReply = serde_json::from_slice(&output.stdout)
        .map_err(|e| fail(format!("unreadable answer for {server}: {e}")))?;
    if reply.username == "<token>" {
        return Ok(Some(Credential::IdentityToken {
            token: reply.secret,
        }));
    }
    if reply.username.is_empty() && reply.secret.is_empty() {
        return Ok(None);
    }
    Ok(Some(Credential::Basic {
        username: reply.username,
        password: reply.secret,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options_with(config: &str) -> (tempfile::TempDir, RegistryOptions) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), config).unwrap();
        let options = RegistryOptions {
            docker_config_dir: Some(dir.path().to_path_buf()),
            helper_path: Some(dir.path().as_os_str().to_owned()),
            ..RegistryOptions::default()
        };
        (dir, options)
    }

    fn basic(u: &str, p: &str) -> Credential {
        Credential::Basic {
            username: u.into(),
            password: p.into(),
        }
    }

    #[tokio::test]
    async fn inline_auths_in_every_shape() {
        let b64 = base64::engine::general_purpose::STANDARD.encode("hub:hubpw");
        let config = format!(
            r#"{{"auths":{{
                "https://index.docker.io/v1/":{{"auth":"{b64}"}},
                "reg.io":{{"username":"u","password":"p"}},
                "reg.io/special/repo":{{"registrytoken":"rt"}},
                "https://url.io/v2/":{{"identitytoken":"it"}},
                "empty.io":{{}}
            }}}}"#
        );
        let (_d, o) = options_with(&config);
        let get = |r: &'static str, repo: &'static str| {
            let o = o.clone();
            async move { lookup(&o, r, repo).await.unwrap().credential }
        };
        assert_eq!(
            get(DOCKER_HUB, "library/nginx").await,
            basic("hub", "hubpw")
        );
        assert_eq!(get("reg.io", "a/b").await, basic("u", "p"));
        assert_eq!(
            get("reg.io", "special/repo").await,
            Credential::RegistryToken { token: "rt".into() }
        );
        assert_eq!(
            get("url.io", "a/b").await,
            Credential::IdentityToken { token: "it".into() }
        );
        assert_eq!(get("empty.io", "a/b").await, Credential::Anonymous);
        assert_eq!(get("none.io", "a/b").await, Credential::Anonymous);
    }

    #[tokio::test]
    async fn bad_files_are_named_and_secrets_not_printed() {
        let (d, o) = options_with(r#"{"auths":{"reg.io":{"auth":"!!!"}}}"#);
        let err = lookup(&o, "reg.io", "a/b").await.unwrap_err().to_string();
        assert!(
            err.contains("config.json") && err.contains("not base64"),
            "{err}"
        );
        std::fs::write(d.path().join("config.json"), "{not json").unwrap();
        let err = lookup(&o, "reg.io", "a/b").await.unwrap_err().to_string();
        assert!(err.contains("not a valid docker config"), "{err}");
        assert!(!format!("{:?}", basic("u", "hunter2")).contains("hunter2"));
    }

    #[tokio::test]
    async fn helpers_by_host_then_store() {
        let (d, o) = options_with(
            r#"{"credsStore":"store","credHelpers":{"special.io":"special"},
                "auths":{"reg.io":{"username":"ignored","password":"x"}}}"#,
        );
        let script = |name: &str, body: &str| {
            use std::os::unix::fs::PermissionsExt;
            let p = d.path().join(format!("docker-credential-{name}"));
            std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        script(
            "store",
            r#"read server
case "$server" in
  reg.io) echo '{"ServerURL":"reg.io","Username":"su","Secret":"sp"}';;
  tok.io) echo '{"ServerURL":"tok.io","Username":"<token>","Secret":"idt"}';;
  *) echo "credentials not found in native keychain"; exit 1;;
esac"#,
        );
        script("special", r#"echo "boom" >&2; exit 3"#);
        assert_eq!(
            lookup(&o, "reg.io", "a/b").await.unwrap().credential,
            basic("su", "sp")
        );
        assert_eq!(
            lookup(&o, "tok.io", "a/b").await.unwrap().credential,
            Credential::IdentityToken {
                token: "idt".into()
            }
        );
        assert_eq!(
            lookup(&o, "other.io", "a/b").await.unwrap().credential,
            Credential::Anonymous
        );
        let err = lookup(&o, "special.io", "a/b")
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("docker-credential-special") && err.contains("boom"),
            "{err}"
        );
    }
}
