//! `strake lock` end to end against the real registry: the kbld 0.42 conformance cases
//! byte for byte (stdout, ImagesLock, kbld Config lock, `--platform`), failures of
//! several kinds reported together, re-applying a lock with no registry, and resolving
//! from an OCI layout image source, and `--render` of a deploy directory.

use crate::support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use strake::oci::copy::{CopyOptions, copy_image};
use strake::oci::layout::LayoutStore;
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::{Reference, Store};
use support::registry::TestRegistry;

const RECORDED_REGISTRY: &str = "127.0.0.1:5000";

/// Runs a future on a current-thread runtime (the copy futures are not `Send`-general).
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

fn fixture(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg/lock")
        .join(path)
}

/// `(layout dir, ref name, pushed-as)` from `images/images.txt`.
fn images_txt() -> Vec<(String, String, String)> {
    std::fs::read_to_string(fixture("images/images.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

/// Pushes the fixture layouts to `registry` with our copy code (digests are preserved).
fn push_fixture_images(registry: &str) {
    block_on(async {
        let client = RegistryClient::new(RegistryOptions {
            insecure_registries: vec![registry.to_string()],
            ..RegistryOptions::default()
        })
        .unwrap();
        for (dir, ref_name, pushed_as) in images_txt() {
            let src = LayoutStore::open(fixture(&format!("images/{dir}"))).unwrap();
            let dst_ref = Reference::parse(&format!("{registry}/{pushed_as}")).unwrap();
            let dst = client.store(&dst_ref);
            copy_image(
                &src,
                &ref_name,
                &dst,
                dst_ref.tag(),
                &CopyOptions::default(),
            )
            .await
            .unwrap();
        }
    });
}

fn read_sub(path: &Path, registry: &str) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .replace(RECORDED_REGISTRY, registry)
}

fn strake() -> Command {
    let mut cmd = Command::cargo_bin("strake").unwrap();
    cmd.env("DOCKER_CONFIG", "/nonexistent-docker-config");
    cmd
}

struct Run {
    stdout: String,
    stderr: String,
    ok: bool,
}

fn lock(args: &[&str]) -> Run {
    let out = strake().arg("lock").args(args).output().unwrap();
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        ok: out.status.success(),
    }
}

fn assert_mode_0600(path: &Path) {
    let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", path.display());
}

const CASES: [&str; 6] = [
    "01-deployment-tag",
    "02-deployment-tag-digest",
    "03-pod-initcontainers",
    "04-cronjob",
    "05-package-cr",
    "06-multiarch-index",
];

#[test]
fn conformance_cases_match_kbld_byte_for_byte() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_fixture_images(&addr);
    let work = tempfile::tempdir().unwrap();
    let mut variants: Vec<(&str, &str, Option<&str>)> =
        CASES.iter().map(|c| (*c, "expected", None)).collect();
    variants.push((
        "06-multiarch-index",
        "expected-platform-linux-arm64",
        Some("linux/arm64"),
    ));
    let mut compared = 0;
    for (case, expected_dir, platform) in variants {
        let input = work.path().join(format!("{case}-input.yml"));
        std::fs::write(
            &input,
            read_sub(&fixture(&format!("{case}/input.yml")), &addr),
        )
        .unwrap();
        let expected = |f: &str| read_sub(&fixture(&format!("{case}/{expected_dir}/{f}")), &addr);
        let images_out = work
            .path()
            .join(format!("{case}-{expected_dir}-images.yml"));
        let config_out = work
            .path()
            .join(format!("{case}-{expected_dir}-kbld-lock.yml"));
        let mut args = vec![
            "-f".to_string(),
            input.display().to_string(),
            "--imgpkg-lock-output".to_string(),
            images_out.display().to_string(),
        ];
        if let Some(p) = platform {
            args.extend(["--platform".to_string(), p.to_string()]);
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = lock(&argv);
        assert!(run.ok, "{case}: {}", run.stderr);
        assert_eq!(
            run.stdout,
            expected("stdout.yml"),
            "{case}/{expected_dir} stdout"
        );
        assert_eq!(
            std::fs::read_to_string(&images_out).unwrap(),
            expected("images.yml"),
            "{case}/{expected_dir} images.yml"
        );
        assert_mode_0600(&images_out);
        args[2] = "--lock-output".to_string();
        args[3] = config_out.display().to_string();
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = lock(&argv);
        assert!(run.ok, "{case}: {}", run.stderr);
        assert_eq!(
            run.stdout,
            expected("stdout.yml"),
            "{case}/{expected_dir} stdout (2)"
        );
        assert_eq!(
            std::fs::read_to_string(&config_out).unwrap(),
            expected("kbld-lock.yml"),
            "{case}/{expected_dir} kbld-lock.yml"
        );
        assert_mode_0600(&config_out);
        compared += 3;
    }
    assert_eq!(compared, 21);
}

#[test]
fn case_02_needs_no_registry_when_offline() {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("input.yml");
    let addr = "127.0.0.1:9"; // nothing listens on the discard port
    std::fs::write(
        &input,
        read_sub(&fixture("02-deployment-tag-digest/input.yml"), addr),
    )
    .unwrap();
    let lock_out = work.path().join("images.yml");
    let run = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--offline",
        "--imgpkg-lock-output",
        lock_out.to_str().unwrap(),
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        read_sub(
            &fixture("02-deployment-tag-digest/expected/stdout.yml"),
            addr
        )
    );
    assert_eq!(
        std::fs::read_to_string(&lock_out).unwrap(),
        read_sub(
            &fixture("02-deployment-tag-digest/expected/images.yml"),
            addr
        )
    );
}

#[test]
fn three_failures_reported_together_with_causes() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_fixture_images(&addr);
    let down = format!("127.0.0.1:{}", support::free_port());
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("input.yml");
    std::fs::write(
        &input,
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - image: {addr}/conformance/lock/app:v1\n  - image: {addr}/no/such-repo:v1\n  - image: {addr}/conformance/lock/app:no-such-tag\n  - image: {down}/down/app:v1\n"
        ),
    )
    .unwrap();
    let out = work.path().join("images.yml");
    let run = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--registry-retry-count",
        "0",
        "--imgpkg-lock-output",
        out.to_str().unwrap(),
    ]);
    assert!(!run.ok);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(!out.exists(), "no lock is written when resolution fails");
    let err = &run.stderr;
    assert!(
        err.contains("could not resolve 3 image references:"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "- {addr}/no/such-repo:v1: repository {addr}/no/such-repo not found (no such repository)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "- {addr}/conformance/lock/app:no-such-tag: tag \"no-such-tag\" not found in {addr}/conformance/lock/app\n"
        )),
        "{err}"
    );
    let down_line = err
        .lines()
        .find(|l| l.starts_with(&format!("- {down}/down/app:v1: ")))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        down_line.contains("cannot reach the registry") && down_line.contains("onnection refused"),
        "{down_line}"
    );
    assert!(!err.contains("conformance/lock/app:v1:"), "{err}");
}

#[test]
fn reapplying_a_lock_needs_no_registry() {
    let mut registry = TestRegistry::start();
    let addr = registry.addr();
    push_fixture_images(&addr);
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("input.yml");
    let text = format!(
        "{}---\n{}",
        read_sub(&fixture("03-pod-initcontainers/input.yml"), &addr),
        read_sub(&fixture("05-package-cr/input.yml"), &addr)
    );
    std::fs::write(&input, text).unwrap();
    let images = work.path().join("images.yml");
    let config = work.path().join("kbld-lock.yml");
    let first = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--imgpkg-lock-output",
        images.to_str().unwrap(),
    ]);
    assert!(first.ok, "{}", first.stderr);
    let second = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--lock-output",
        config.to_str().unwrap(),
    ]);
    assert!(second.ok, "{}", second.stderr);
    registry.stop();

    let image_lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| {
                l.trim_start().starts_with("- image:") || l.trim_start().starts_with("image:")
            })
            .map(str::to_string)
            .collect()
    };
    for lock_file in [&images, &config] {
        let again_lock = work.path().join("again.yml");
        let run = lock(&[
            "-f",
            input.to_str().unwrap(),
            "-f",
            lock_file.to_str().unwrap(),
            "--registry-retry-count",
            "0",
            "--imgpkg-lock-output",
            again_lock.to_str().unwrap(),
        ]);
        assert!(run.ok, "{}: {}", lock_file.display(), run.stderr);
        // Same documents, same digests; kbld adds a `preresolved` origin to each image.
        assert_eq!(image_lines(&run.stdout), image_lines(&first.stdout));
        assert_eq!(
            run.stdout.matches("---\n").count(),
            2,
            "lock documents are not printed"
        );
        assert!(run.stdout.contains(&format!("        - preresolved:\n            url: {addr}/conformance/lock/app@sha256:d4c100fde39b2f35469b60f0202203ec2ef133fc4deab6f5b66cd2d3bedc1cd0\n")), "{}", run.stdout);
        let again = std::fs::read_to_string(&again_lock).unwrap();
        assert_eq!(
            image_lines(&again),
            image_lines(&std::fs::read_to_string(&images).unwrap())
        );
    }
    // With the ImagesLock the recorded origins are kept, then `preresolved` is appended.
    let run = lock(&[
        "-f",
        input.to_str().unwrap(),
        "-f",
        images.to_str().unwrap(),
        "--offline",
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "        - resolved:\n            tag: v1\n            url: {addr}/conformance/lock/init:v1\n        - preresolved:\n"
        )),
        "{}",
        run.stdout
    );
}

/// Builds a layout whose index.json names each image with its full reference.
fn layout_source(dir: &Path, registry: &str) {
    block_on(async {
        let dst = LayoutStore::create(dir).unwrap();
        for (layout, ref_name, pushed_as) in images_txt() {
            let src = LayoutStore::open(fixture(&format!("images/{layout}"))).unwrap();
            let full = format!("{registry}/{pushed_as}");
            copy_image(&src, &ref_name, &dst, Some(&full), &CopyOptions::default())
                .await
                .unwrap();
        }
        assert!(dst.location().starts_with("oci:"));
    });
}

#[test]
fn offline_layout_source_gives_the_registry_answers() {
    let work = tempfile::tempdir().unwrap();
    let source = work.path().join("source");
    // The recorded address: nothing listens there, so every answer must come from the layout.
    layout_source(&source, RECORDED_REGISTRY);
    let source_arg = format!("oci:{}", source.display());
    for (case, expected_dir, platform) in [
        ("01-deployment-tag", "expected", None),
        ("03-pod-initcontainers", "expected", None),
        ("05-package-cr", "expected", None),
        ("06-multiarch-index", "expected", None),
        (
            "06-multiarch-index",
            "expected-platform-linux-arm64",
            Some("linux/arm64"),
        ),
    ] {
        let out = work.path().join("images.yml");
        let input = fixture(&format!("{case}/input.yml"));
        let mut args = vec![
            "-f",
            input.to_str().unwrap(),
            "--image-source",
            &source_arg,
            "--offline",
            "--imgpkg-lock-output",
            out.to_str().unwrap(),
        ];
        if let Some(p) = platform {
            args.extend(["--platform", p]);
        }
        let run = lock(&args);
        assert!(run.ok, "{case}: {}", run.stderr);
        let expected = |f: &str| {
            std::fs::read_to_string(fixture(&format!("{case}/{expected_dir}/{f}"))).unwrap()
        };
        assert_eq!(run.stdout, expected("stdout.yml"), "{case}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            expected("images.yml"),
            "{case}"
        );
    }
    // A reference the layout does not hold fails offline, naming the source.
    let input = work.path().join("missing.yml");
    std::fs::write(
        &input,
        "kind: Pod\nspec:\n  image: 127.0.0.1:5000/conformance/lock/app:v2\n",
    )
    .unwrap();
    let run = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--image-source",
        &source_arg,
        "--offline",
    ]);
    assert!(!run.ok);
    assert!(
        run.stderr
            .contains("- 127.0.0.1:5000/conformance/lock/app:v2: not in the image sources (oci:")
            && run.stderr.contains("and offline"),
        "{}",
        run.stderr
    );
}

#[test]
fn warns_about_unlocked_image_like_strings_and_locks_images_file() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_fixture_images(&addr);
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("input.yml");
    std::fs::write(
        &input,
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  sidecar: {addr}/conformance/lock/job:v1\n  image: {addr}/conformance/lock/app:v1\n"),
    )
    .unwrap();
    let images_file = work.path().join("extra.txt");
    std::fs::write(
        &images_file,
        format!("# run-time images\n{addr}/conformance/lock/job:v1\n"),
    )
    .unwrap();
    let out = work.path().join("images.yml");
    let run = lock(&[
        "-f",
        input.to_str().unwrap(),
        "--images-file",
        images_file.to_str().unwrap(),
        "--imgpkg-lock-output",
        out.to_str().unwrap(),
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "warning: {}: document 1: data.sidecar: \"{addr}/conformance/lock/job:v1\" looks like an image reference",
            input.display()
        )),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains(&format!("  image: {addr}/conformance/lock/app@sha256:d4c100fde39b2f35469b60f0202203ec2ef133fc4deab6f5b66cd2d3bedc1cd0\n")));
    let lock_text = std::fs::read_to_string(&out).unwrap();
    assert!(lock_text.contains(&format!("  image: {addr}/conformance/lock/job@sha256:d1a04ae5b84ef3788c8ae0c8a4f05111f9c3e8301f18a429b481f76449dbca10\n")), "{lock_text}");
    // Exactly one manifest request per distinct reference (two here), no GET.
    let log = registry.log();
    let manifest_requests: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("response completed") && l.contains("/manifests/"))
        .filter(|l| l.contains("http.request.method=HEAD") || l.contains("http.request.method=GET"))
        .collect();
    let heads = manifest_requests
        .iter()
        .filter(|l| l.contains("http.request.method=HEAD"))
        .count();
    let gets = manifest_requests
        .iter()
        .filter(|l| l.contains("http.request.method=GET"))
        .count();
    // The fixture push made no manifest GET; the lock made two HEADs and nothing else.
    assert_eq!((heads, gets), (2, 0), "{manifest_requests:#?}");
}

#[test]
fn lock_flags_are_mutually_exclusive() {
    let run = lock(&[
        "-f",
        "x.yml",
        "--lock-output",
        "a",
        "--imgpkg-lock-output",
        "b",
    ]);
    assert!(!run.ok);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

/// A deploy directory (schema + template) rendered with its default values, then locked:
/// the schema's image default resolves through the real registry, and a warning names the
/// template the unlocked string came from. A `--data-value` override is honoured.
#[test]
fn render_locks_a_deploy_directory_with_default_values() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_fixture_images(&addr);
    let work = tempfile::tempdir().unwrap();
    let deploy = work.path().join("deploy");
    std::fs::create_dir(&deploy).unwrap();
    std::fs::write(
        deploy.join("schema.yml"),
        format!(
            "#@data/values-schema\n---\nimage: {addr}/conformance/lock/app:v1\nsidecar: {addr}/conformance/lock/job:v1\n"
        ),
    )
    .unwrap();
    std::fs::write(
        deploy.join("deployment.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: app\nspec:\n  containers:\n  - name: app\n    image: #@ data.values.image\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  sidecar: #@ data.values.sidecar\n",
    )
    .unwrap();
    let out = work.path().join("images.yml");
    let run = lock(&[
        "--render",
        "-f",
        deploy.to_str().unwrap(),
        "--imgpkg-lock-output",
        out.to_str().unwrap(),
    ]);
    assert!(run.ok, "{}", run.stderr);
    let app_digest = format!(
        "{addr}/conformance/lock/app@sha256:d4c100fde39b2f35469b60f0202203ec2ef133fc4deab6f5b66cd2d3bedc1cd0"
    );
    assert!(
        run.stdout.contains(&format!("  - image: {app_digest}\n")),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains(&format!(
            "warning: deployment.yml: document 2: data.sidecar: \"{addr}/conformance/lock/job:v1\" looks like an image reference"
        )),
        "{}",
        run.stderr
    );
    let lock_text = std::fs::read_to_string(&out).unwrap();
    assert!(
        lock_text.contains(&format!(
            "- annotations:\n    kbld.carvel.dev/id: {addr}/conformance/lock/app:v1\n"
        )),
        "{lock_text}"
    );
    assert!(
        lock_text.contains(&format!("  image: {app_digest}\n")),
        "{lock_text}"
    );

    // A data value on the command line replaces the default.
    let run = lock(&[
        "--render",
        "-f",
        deploy.to_str().unwrap(),
        "--data-value",
        &format!("image={addr}/conformance/lock/init:v1"),
    ]);
    assert!(run.ok, "{}", run.stderr);
    assert!(run.stdout.contains(&format!("  - image: {addr}/conformance/lock/init@sha256:3ef57b85e784b730d091a884d9545172c5c215eba48097449b977a953cb0d4e1\n")), "{}", run.stdout);

    // Data value flags without --render are refused.
    let run = lock(&["-f", deploy.to_str().unwrap(), "-v", "image=x"]);
    assert!(!run.ok);
    assert!(run.stderr.contains("--render"), "{}", run.stderr);
}
