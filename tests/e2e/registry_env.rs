//! Credentials from the process environment, as the CLI sees them: `DOCKER_CONFIG`
//! with a `credsStore` helper found on `PATH`, the `IMGPKG_REGISTRY_*` keychain, and
//! `IMGPKG_USERNAME`/`IMGPKG_PASSWORD` through `RegistryArgs`. One test in its own
//! binary: it changes environment variables before any other thread exists.

use crate::support;

use clap::Parser;
use strake::cli::registry_args::RegistryArgs;
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::{OciError, Store};
use support::content::block_on;
use support::registry::TestRegistry;

#[derive(Parser)]
struct Cmd {
    #[command(flatten)]
    registry: RegistryArgs,
}

fn tags(
    options: RegistryOptions,
    reg: &TestRegistry,
    repo: &str,
) -> strake::oci::Result<Vec<String>> {
    let store = RegistryClient::new(options)
        .unwrap()
        .repository(&reg.addr(), repo);
    block_on(async move { store.list_tags().await })
}

#[test]
fn credentials_from_the_environment() {
    let reg = TestRegistry::with_htpasswd("envuser", "envpass");
    block_on(reg.pusher().push_image(
        "env/app",
        "v1",
        strake::oci::media_types::OCI_MANIFEST,
        &[b"x"],
    ));
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    support::write_script(
        &bin.join("docker-credential-envtest"),
        r#"read server
echo '{"ServerURL":"x","Username":"envuser","Secret":"envpass"}'
"#,
    );
    let config = dir.path().join("docker");
    std::fs::create_dir(&config).unwrap();
    std::fs::write(config.join("config.json"), r#"{"credsStore":"envtest"}"#).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let stale: Vec<String> = std::env::vars()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("IMGPKG_"))
        .collect();
    // SAFETY: no other thread of this process reads or writes the environment
    // now: this binary holds one test and the registry is a child process.
    unsafe {
        for k in stale {
            std::env::remove_var(k);
        }
        std::env::set_var("DOCKER_CONFIG", &config);
        std::env::set_var("PATH", &path);
    }

    // docker config + helper on PATH.
    assert_eq!(
        tags(RegistryOptions::from_env(), &reg, "env/app").unwrap(),
        vec!["v1"]
    );

    // Without it: anonymous, refused.
    unsafe { std::env::set_var("DOCKER_CONFIG", dir.path().join("nowhere")) };
    let err = tags(RegistryOptions::from_env(), &reg, "env/app").unwrap_err();
    assert!(matches!(err, OciError::Unauthorized { .. }), "{err}");

    // The env keychain.
    unsafe {
        std::env::set_var("IMGPKG_REGISTRY_HOSTNAME_7", reg.addr());
        std::env::set_var("IMGPKG_REGISTRY_USERNAME_7", "envuser");
        std::env::set_var("IMGPKG_REGISTRY_PASSWORD_7", "envpass");
    }
    assert_eq!(
        tags(RegistryOptions::from_env(), &reg, "env/app").unwrap(),
        vec!["v1"]
    );
    unsafe {
        std::env::remove_var("IMGPKG_REGISTRY_HOSTNAME_7");
        std::env::remove_var("IMGPKG_REGISTRY_USERNAME_7");
        std::env::remove_var("IMGPKG_REGISTRY_PASSWORD_7");
    }

    // IMGPKG_USERNAME / IMGPKG_PASSWORD through the CLI flags' env fallbacks.
    unsafe {
        std::env::set_var("IMGPKG_USERNAME", "envuser");
        std::env::set_var("IMGPKG_PASSWORD", "envpass");
    }
    let args = Cmd::try_parse_from(["strake"]).unwrap().registry;
    assert_eq!(args.username.as_deref(), Some("envuser"));
    assert_eq!(tags(args.options(), &reg, "env/app").unwrap(), vec!["v1"]);
    // A flag beats its env variable.
    let args = Cmd::try_parse_from(["strake", "--registry-password", "flag-wrong"])
        .unwrap()
        .registry;
    let text = tags(args.options(), &reg, "env/app")
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("were not accepted") && !text.contains("flag-wrong"),
        "{text}"
    );
}
