//! [`TestRegistry`]: the real CNCF distribution registry (`/usr/bin/docker-registry`)
//! started for one test on a free 127.0.0.1 port, with its own config and storage
//! in a temp dir, killed on drop. Modes: plain HTTP, htpasswd basic auth, bearer
//! token auth (with a [`TokenIssuer`] on another loopback port), and TLS (a CA and
//! server certificate made with openssl).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::certs::{ServerCerts, server_certs};
use super::token_issuer::{ISSUER, IssuerConfig, SERVICE, TokenIssuer};
use super::{free_port, run};

pub const REGISTRY_BIN: &str = "/usr/bin/docker-registry";

/// How the registry authenticates clients.
#[derive(Clone)]
pub enum Auth {
    None,
    /// `auth.htpasswd` with one bcrypt user.
    Htpasswd {
        username: String,
        password: String,
    },
    /// `auth.token`, with a [`TokenIssuer`] started for it.
    Token(IssuerConfig),
}

/// What to start.
#[derive(Clone)]
pub struct RegistryConfig {
    pub auth: Auth,
    pub tls: bool,
}

impl RegistryConfig {
    pub fn plain() -> RegistryConfig {
        RegistryConfig {
            auth: Auth::None,
            tls: false,
        }
    }
}

pub struct TestRegistry {
    dir: TempDir,
    child: Child,
    port: u16,
    config: RegistryConfig,
    certs: Option<ServerCerts>,
    issuer: Option<TokenIssuer>,
}

impl TestRegistry {
    /// Plain HTTP, no auth.
    pub fn start() -> TestRegistry {
        Self::start_with(RegistryConfig::plain())
    }

    /// Plain HTTP with htpasswd basic auth for one user.
    pub fn with_htpasswd(username: &str, password: &str) -> TestRegistry {
        Self::start_with(RegistryConfig {
            auth: Auth::Htpasswd {
                username: username.into(),
                password: password.into(),
            },
            tls: false,
        })
    }

    /// Plain HTTP with bearer-token auth; the issuer accepts this one user.
    pub fn with_token_auth(username: &str, password: &str) -> TestRegistry {
        Self::start_with(RegistryConfig {
            auth: Auth::Token(IssuerConfig::new(username, password)),
            tls: false,
        })
    }

    /// HTTPS with a certificate signed by a test CA ([`TestRegistry::ca_cert`]).
    pub fn with_tls() -> TestRegistry {
        Self::start_with(RegistryConfig {
            auth: Auth::None,
            tls: true,
        })
    }

    pub fn start_with(config: RegistryConfig) -> TestRegistry {
        let dir = tempfile::Builder::new()
            .prefix("strake-registry-")
            .tempdir()
            .expect("temp dir");
        let certs = config.tls.then(|| server_certs(dir.path()));
        let issuer = match &config.auth {
            Auth::Token(c) => Some(TokenIssuer::start(dir.path(), c.clone())),
            _ => None,
        };
        if let Auth::Htpasswd { username, password } = &config.auth {
            let line = run(Command::new("htpasswd").args(["-Bbn", username, password]));
            std::fs::write(dir.path().join("htpasswd"), line).expect("writing htpasswd");
        }
        let mut last_log = String::new();
        for _ in 0..5 {
            let port = free_port();
            let config_path = write_config(dir.path(), port, &config, &certs, &issuer);
            let log_path = dir.path().join("registry.log");
            let log = std::fs::File::create(&log_path).expect("registry log");
            let mut child = Command::new(REGISTRY_BIN)
                .arg("serve")
                .arg(&config_path)
                .stdin(Stdio::null())
                .stdout(log.try_clone().expect("log handle"))
                .stderr(log)
                .spawn()
                .unwrap_or_else(|e| panic!("starting {REGISTRY_BIN}: {e}"));
            if wait_ready(&mut child, port, config.tls) {
                return TestRegistry {
                    dir,
                    child,
                    port,
                    config,
                    certs,
                    issuer,
                };
            }
            let _ = child.kill();
            let _ = child.wait();
            last_log = std::fs::read_to_string(&log_path).unwrap_or_default();
        }
        panic!("docker-registry did not start; last log:\n{last_log}");
    }

    /// `127.0.0.1:PORT`
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT` or `https://…` in TLS mode.
    pub fn url(&self) -> String {
        let scheme = if self.config.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr())
    }

    /// The CA certificate that signed the TLS certificate (TLS mode only).
    pub fn ca_cert(&self) -> Option<&Path> {
        self.certs.as_ref().map(|c| c.ca_cert.as_path())
    }

    /// The token issuer (token mode only).
    pub fn issuer(&self) -> Option<&TokenIssuer> {
        self.issuer.as_ref()
    }

    /// `(username, password)` the registry accepts, if it has auth.
    pub fn credentials(&self) -> Option<(String, String)> {
        match &self.config.auth {
            Auth::None => None,
            Auth::Htpasswd { username, password } => Some((username.clone(), password.clone())),
            Auth::Token(c) => Some((c.username.clone(), c.password.clone())),
        }
    }

    pub fn config(&self) -> &RegistryConfig {
        &self.config
    }

    /// The registry's temp dir (config, storage, log); removed on drop.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The registry's storage root.
    pub fn storage(&self) -> PathBuf {
        self.dir.path().join("storage")
    }

    /// The registry's log so far (for failure messages).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("registry.log")).unwrap_or_default()
    }

    /// True when the registry's storage holds blob data for `digest`
    /// (`sha256:…`) under any repository.
    pub fn stores_blob(&self, digest: &str) -> bool {
        let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
        self.storage()
            .join("docker/registry/v2/blobs/sha256")
            .join(&hex[..2])
            .join(hex)
            .join("data")
            .exists()
    }

    /// Options for strake's registry client that reach this registry: its user's
    /// credentials (as `--registry-username/--registry-password`) and, in TLS mode,
    /// its CA. Nothing is read from the environment.
    pub fn client_options(&self) -> strake::oci::registry::RegistryOptions {
        let mut options = strake::oci::registry::RegistryOptions::default();
        if let Some((username, password)) = self.credentials() {
            options.flag_credentials.username = Some(username);
            options.flag_credentials.password = Some(password);
        }
        if let Some(ca) = self.ca_cert() {
            options.ca_cert_paths.push(ca.to_path_buf());
        }
        options
    }

    /// Writes `<dir>/config.json` holding this registry's credentials (docker's
    /// base64 `auth` form) and returns `dir`: point `DOCKER_CONFIG` at it when
    /// running the `strake` binary, so tests never read the user's own config.
    pub fn write_docker_config(&self, dir: &Path) -> PathBuf {
        use base64::Engine;
        let auths = match self.credentials() {
            Some((u, p)) => {
                let auth = base64::engine::general_purpose::STANDARD.encode(format!("{u}:{p}"));
                serde_json::json!({ self.addr(): { "auth": auth } })
            }
            None => serde_json::json!({}),
        };
        std::fs::create_dir_all(dir).expect("creating docker config dir");
        std::fs::write(
            dir.join("config.json"),
            serde_json::to_vec_pretty(&serde_json::json!({ "auths": auths })).unwrap(),
        )
        .expect("writing config.json");
        dir.to_path_buf()
    }

    /// Stops the registry now (the port becomes free, e.g. for connection-refused tests).
    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for TestRegistry {
    fn drop(&mut self) {
        self.stop();
    }
}

fn write_config(
    dir: &Path,
    port: u16,
    config: &RegistryConfig,
    certs: &Option<ServerCerts>,
    issuer: &Option<TokenIssuer>,
) -> PathBuf {
    let mut yaml = format!(
        "version: 0.1\n\
         log:\n  level: info\n  accesslog:\n    disabled: false\n\
         storage:\n  filesystem:\n    rootdirectory: {storage}\n  delete:\n    enabled: true\n  \
         maintenance:\n    uploadpurging:\n      enabled: false\n\
         http:\n  addr: 127.0.0.1:{port}\n  secret: strake-test-secret\n",
        storage = dir.join("storage").display(),
    );
    if let Some(c) = certs {
        yaml.push_str(&format!(
            "  tls:\n    certificate: {}\n    key: {}\n",
            c.cert.display(),
            c.key.display()
        ));
    }
    match &config.auth {
        Auth::None => {}
        Auth::Htpasswd { .. } => yaml.push_str(&format!(
            "auth:\n  htpasswd:\n    realm: strake-test\n    path: {}\n",
            dir.join("htpasswd").display()
        )),
        Auth::Token(_) => {
            let issuer = issuer.as_ref().expect("issuer started");
            yaml.push_str(&format!(
                "auth:\n  token:\n    realm: {}\n    service: {SERVICE}\n    issuer: {ISSUER}\n    \
                 rootcertbundle: {}\n",
                issuer.realm(),
                issuer.cert_path().display()
            ));
        }
    }
    let path = dir.join("config.yml");
    std::fs::write(&path, yaml).expect("writing config.yml");
    path
}

/// Waits until `/v2/` answers (HTTP), or the port accepts connections (TLS).
fn wait_ready(child: &mut Child, port: u16, tls: bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return false;
        }
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
            if tls {
                return true;
            }
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let request = "GET /v2/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            if stream.write_all(request.as_bytes()).is_ok() {
                let mut head = [0u8; 12];
                if stream.read_exact(&mut head).is_ok()
                    && (head.starts_with(b"HTTP/1.1 200") || head.starts_with(b"HTTP/1.1 401"))
                {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}
