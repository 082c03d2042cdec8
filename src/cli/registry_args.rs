//! `RegistryArgs`: the registry flags every command that talks to a registry
//! flattens into its own arguments (`#[command(flatten)]`), with imgpkg's names
//! and `IMGPKG_*` environment fallbacks, turned into [`RegistryOptions`].

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::oci::registry::{FlagCredentials, RegistryOptions};

#[derive(Args, Clone, Debug, Default)]
pub struct RegistryArgs {
    /// Username for all registries (after IMGPKG_REGISTRY_* and before docker config)
    #[arg(
        long = "registry-username",
        env = "IMGPKG_USERNAME",
        value_name = "USER"
    )]
    pub username: Option<String>,

    /// Password for --registry-username
    #[arg(
        long = "registry-password",
        env = "IMGPKG_PASSWORD",
        value_name = "PASSWORD",
        hide_env_values = true
    )]
    pub password: Option<String>,

    /// Registry token sent as a bearer token, with no exchange
    #[arg(
        long = "registry-token",
        env = "IMGPKG_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,

    /// Access registries anonymously
    #[arg(long = "registry-anon", env = "IMGPKG_ANON")]
    pub anon: bool,

    /// Extra CA certificate (PEM) to trust; repeatable
    #[arg(
        long = "registry-ca-cert-path",
        env = "IMGPKG_REGISTRY_CA_CERT_PATH",
        value_name = "PATH",
        value_delimiter = ','
    )]
    pub ca_cert_paths: Vec<PathBuf>,

    /// Reach every registry over plain HTTP
    #[arg(long = "registry-insecure", env = "IMGPKG_REGISTRY_INSECURE")]
    pub insecure: bool,

    /// Check each registry's certificate chain and host name (=false: accept any)
    #[arg(
        long = "registry-verify-certs",
        env = "IMGPKG_REGISTRY_VERIFY_CERTS",
        value_name = "BOOL",
        num_args = 0..=1,
        default_value_t = true,
        default_missing_value = "true",
        action = clap::ArgAction::Set
    )]
    pub verify_certs: bool,

    /// Longest wait for a registry's response headers, or for the next bytes of a
    /// body (Go duration: 30s, 2m, 1h30m, 500ms)
    #[arg(
        long = "registry-response-header-timeout",
        env = "IMGPKG_REGISTRY_RESPONSE_HEADER_TIMEOUT",
        value_name = "DURATION",
        default_value = "30s",
        value_parser = parse_go_duration
    )]
    pub response_header_timeout: Duration,

    /// Reach this registry (host or host:port) over plain HTTP; repeatable
    #[arg(long = "insecure-registry", value_name = "HOST")]
    pub insecure_registries: Vec<String>,

    /// Retries of a failed registry request
    #[arg(
        long = "registry-retry-count",
        env = "IMGPKG_REGISTRY_RETRY_COUNT",
        value_name = "N",
        default_value_t = 5
    )]
    pub retry_count: u32,
}

impl RegistryArgs {
    /// The options: the environment's keychain and docker config, plus these flags.
    pub fn options(&self) -> RegistryOptions {
        RegistryOptions {
            insecure_registries: self.insecure_registries.clone(),
            insecure_all: self.insecure,
            ca_cert_paths: self.ca_cert_paths.clone(),
            flag_credentials: FlagCredentials {
                username: self.username.clone(),
                password: self.password.clone(),
                token: self.token.clone(),
                anon: self.anon,
            },
            retry_count: self.retry_count,
            verify_certs: self.verify_certs,
            read_timeout: self.response_header_timeout,
            ..RegistryOptions::from_env()
        }
    }
}

/// A duration as Go's `time.ParseDuration` reads it (imgpkg's flag): a sequence
/// of decimal numbers, each with a unit (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`),
/// such as `30s`, `1m30s`, `1.5h`; a bare `0` is zero. Durations that are not
/// positive are refused (a timeout must wait some time).
fn parse_go_duration(text: &str) -> Result<Duration, String> {
    let invalid = || format!("invalid duration \"{text}\" (examples: 30s, 2m, 1h30m, 500ms)");
    if text == "0" {
        return Err(format!("{}: a timeout must be above zero", invalid()));
    }
    let mut rest = text;
    let mut seconds = 0f64;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(invalid)?;
        let number: f64 = rest[..number_len].parse().map_err(|_| invalid())?;
        rest = &rest[number_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(invalid()),
        };
        seconds += number * scale;
        rest = &rest[unit_len..];
    }
    if text.is_empty() || seconds <= 0.0 || !seconds.is_finite() {
        return Err(format!("{}: a timeout must be above zero", invalid()));
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cmd {
        #[command(flatten)]
        registry: RegistryArgs,
    }

    #[test]
    fn flags_become_options() {
        let cmd = Cmd::try_parse_from([
            "x",
            "--registry-username",
            "u",
            "--registry-password",
            "p",
            "--registry-ca-cert-path",
            "/a.pem",
            "--registry-ca-cert-path",
            "/b.pem",
            "--insecure-registry",
            "reg.local:5000",
            "--registry-retry-count",
            "2",
        ])
        .unwrap();
        let o = cmd.registry.options();
        assert_eq!(o.flag_credentials.username.as_deref(), Some("u"));
        assert_eq!(o.flag_credentials.password.as_deref(), Some("p"));
        assert_eq!(
            o.ca_cert_paths,
            vec![PathBuf::from("/a.pem"), PathBuf::from("/b.pem")]
        );
        assert!(o.is_insecure("reg.local:5000") && !o.is_insecure("gcr.io"));
        assert_eq!(o.retry_count, 2);
        let o = Cmd::try_parse_from(["x", "--registry-insecure", "--registry-anon"])
            .unwrap()
            .registry
            .options();
        assert!(o.is_insecure("gcr.io") && o.flag_credentials.anon);
        assert!(o.verify_certs);
        assert_eq!(o.read_timeout, Duration::from_secs(30));
        let o = Cmd::try_parse_from([
            "x",
            "--registry-verify-certs=false",
            "--registry-response-header-timeout",
            "1m30s",
        ])
        .unwrap()
        .registry
        .options();
        assert!(!o.verify_certs);
        assert_eq!(o.read_timeout, Duration::from_secs(90));
        let o = Cmd::try_parse_from(["x", "--registry-verify-certs"])
            .unwrap()
            .registry
            .options();
        assert!(o.verify_certs);
    }

    #[test]
    fn durations_read_as_go_reads_them() {
        for (text, millis) in [
            ("30s", 30_000),
            ("1m30s", 90_000),
            ("1.5h", 5_400_000),
            ("500ms", 500),
            ("2h45m", 9_900_000),
        ] {
            assert_eq!(
                parse_go_duration(text),
                Ok(Duration::from_millis(millis)),
                "{text}"
            );
        }
        for bad in ["", "0", "30", "s", "1x", "-5s", "1.2.3s"] {
            let err = parse_go_duration(bad).unwrap_err();
            assert!(
                err.starts_with(&format!("invalid duration \"{bad}\"")),
                "{err}"
            );
        }
    }
}
