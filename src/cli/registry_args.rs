//! `RegistryArgs`: the registry flags every command that talks to a registry
//! flattens into its own arguments (`#[command(flatten)]`), with imgpkg's names
//! and `IMGPKG_*` environment fallbacks, turned into [`RegistryOptions`].

use std::path::PathBuf;

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
            ..RegistryOptions::from_env()
        }
    }
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
    }
}
