//! Running the real `strake` binary in tests: a command isolated from the machine's
//! credentials, helpers that assert on success or failure and return the output, and
//! the `oci:`/`tar:` location spellings.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The image layouts copied from the imgpkg conformance data (`multiarch`, `app`, ...).
pub fn image_fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg/lock/images")
        .join(path)
}

/// `strake` with `home` as its home: no docker config, credentials or log settings
/// from the machine running the tests.
pub fn strake(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("strake").unwrap();
    cmd.env("HOME", home)
        .env("DOCKER_CONFIG", home.join(".docker"))
        .env_remove("REGISTRY_AUTH_FILE")
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("RUST_LOG");
    cmd
}

/// Runs `cmd`, asserts it succeeded, returns (stdout, stderr).
pub fn run_ok(cmd: &mut Command) -> (String, String) {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `cmd`, asserts it succeeded, returns its stdout.
pub fn stdout(cmd: &mut Command) -> String {
    run_ok(cmd).0
}

/// Runs `cmd`, asserts it failed, returns its stderr.
pub fn run_err(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(!out.status.success(), "{cmd:?} succeeded");
    String::from_utf8(out.stderr).unwrap()
}

/// `oci:DIR`.
pub fn layout(dir: &Path) -> String {
    format!("oci:{}", dir.display())
}

/// `tar:FILE`.
pub fn tar(path: &Path) -> String {
    format!("tar:{}", path.display())
}
