//! `strake package release` and `strake package repository release` end to end, against
//! the real registry and OCI layouts: kctrl's own fixture release compared field by field
//! with kctrl's outputs (all but `releasedAt`), the content bundle's diff_id and the
//! repository bundle's images.yml equal to kctrl's; two packages and a repository that
//! ends with three versions of one of them; releasing again changes nothing.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use strake::oci::copy::{CopyOptions, copy_image};
use strake::oci::layout::LayoutStore;
use strake::oci::registry::{RegistryClient, RegistryOptions};
use strake::oci::{Reference, Store};
use strake::package::Resources;
use strake::package::yaml_doc::{parse_documents, to_json};

use crate::support::cli::{run_err, run_ok};
use crate::support::registry::TestRegistry;

const RECORDED_REGISTRY: &str = "127.0.0.1:5000";

pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/imgpkg/package")
        .join(rel)
}

pub fn read_sub(path: &Path, registry: &str) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace(RECORDED_REGISTRY, registry)
}

/// `strake` isolated from the machine's credentials, every registry plain HTTP.
pub fn strake(home: &Path) -> Command {
    let mut cmd = crate::support::cli::strake(home);
    cmd.env("IMGPKG_REGISTRY_INSECURE", "true")
        .env_remove("SOURCE_DATE_EPOCH")
        .env("STRAKE_THREADS", "2");
    cmd
}

/// Runs a future on a current-thread runtime (the copy futures are not `Send`-general).
pub fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// Pushes the fixture's app image (`conformance/package/app:v1`) with its digest.
pub fn push_app_image(registry: &str) {
    block_on(async {
        let client = RegistryClient::new(RegistryOptions {
            insecure_registries: vec![registry.to_string()],
            ..RegistryOptions::default()
        })
        .unwrap();
        let src = LayoutStore::open(fixture("images/app")).unwrap();
        let dst_ref = Reference::parse(&format!("{registry}/conformance/package/app:v1")).unwrap();
        copy_image(
            &src,
            "v1",
            &client.store(&dst_ref),
            dst_ref.tag(),
            &CopyOptions::default(),
        )
        .await
        .unwrap();
    });
}

/// kctrl's input directory: config/, kctrl's package-resources.yml (from init) and its
/// package-build.yml (after the release saved the bundle repository).
pub fn kctrl_input(dir: &Path, registry: &str) {
    copy_dir(&fixture("input/config"), &dir.join("config"));
    for f in walk(&dir.join("config")) {
        let text = read_sub(&f, registry);
        // The files as their author has them (kctrl's were 0644), not the fixture's modes.
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::write(&f, text).unwrap();
    }
    std::fs::write(
        dir.join("package-resources.yml"),
        read_sub(&fixture("after-init/package-resources.yml"), registry),
    )
    .unwrap();
    std::fs::write(
        dir.join("package-build.yml"),
        read_sub(&fixture("after-release/package-build.yml"), registry),
    )
    .unwrap();
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn without_released_at(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("releasedAt:"))
        .map(|l| format!("{l}\n"))
        .collect()
}

pub fn tags(registry: &str, repo: &str) -> Vec<String> {
    let client = RegistryClient::new(RegistryOptions {
        insecure_registries: vec![registry.to_string()],
        ..RegistryOptions::default()
    })
    .unwrap();
    let reference = Reference::parse(&format!("{registry}/{repo}")).unwrap();
    let mut t = block_on(async { client.store(&reference).list_tags().await }).unwrap_or_default();
    t.sort();
    t
}

/// The manifest JSON of `repo@digest`.
fn manifest_json(registry: &str, repo: &str, digest: &str) -> Value {
    let client = RegistryClient::new(RegistryOptions {
        insecure_registries: vec![registry.to_string()],
        ..RegistryOptions::default()
    })
    .unwrap();
    let reference = Reference::parse(&format!("{registry}/{repo}")).unwrap();
    let m = block_on(async { client.store(&reference).get_manifest(digest).await }).unwrap();
    serde_json::from_slice(&m.bytes).unwrap()
}

/// Validates every document of `path` with the embedded schemas and rules.
pub fn assert_valid_resources(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let r = Resources::embedded();
    for doc in parse_documents(&text, &path.display().to_string()).unwrap() {
        let doc = to_json(&doc);
        let kind = doc["kind"].as_str().unwrap().to_string();
        r.validate(&kind, &doc, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn kctrl_fixture_release_matches_kctrl_field_by_field() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_app_image(&addr);
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    kctrl_input(dir, &addr);

    let (out, _) = run_ok(strake(home.path()).current_dir(dir).args([
        "package",
        "release",
        "--version",
        "1.2.3",
        "--repo-output",
        "repo",
        "--yes",
    ]));
    assert!(out.contains("render: ytt -f config"), "{out}");
    assert!(out.contains("tag: "), "{out}");

    let pkg_dir = "packages/demo.conformance.example.com";
    let ours = |rel: &str| std::fs::read_to_string(dir.join(rel)).unwrap();
    let kctrl = |rel: &str| read_sub(&fixture(rel), &addr);
    // The content bundle's uncompressed layer equals kctrl's (hence its images.yml and
    // config files); only the gzip bytes, so the manifest digest, differ.
    let package = ours(&format!("carvel-artifacts/{pkg_dir}/package.yml"));
    let digest = package
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix(&format!("image: {addr}/conformance/package/demo-bundle@"))
        })
        .expect("the Package fetches the pushed bundle by digest")
        .to_string();
    let kctrl_digest = "sha256:ec751d3a1ddaeb3b6881e176229a1d263c0d002c6186f982adb0df69b7409896";
    let expected_package =
        without_released_at(&kctrl(&format!("carvel-artifacts/{pkg_dir}/package.yml")))
            .replace(kctrl_digest, &digest);
    assert_eq!(package, expected_package);
    assert_eq!(
        ours(&format!("carvel-artifacts/{pkg_dir}/metadata.yml")),
        kctrl(&format!("carvel-artifacts/{pkg_dir}/metadata.yml"))
    );
    assert_eq!(ours(&format!("repo/{pkg_dir}/1.2.3.yml")), expected_package);
    assert_eq!(
        ours(&format!("repo/{pkg_dir}/metadata.yml")),
        kctrl(&format!("repo/{pkg_dir}/metadata.yml"))
    );
    // Nothing else is left behind in the directory (no staging copy, no .imgpkg).
    let mut entries: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            "carvel-artifacts",
            "config",
            "package-build.yml",
            "package-resources.yml",
            "repo"
        ]
    );

    // The bundle, pulled: kctrl's images.yml and config, and kctrl's diff_id.
    let pulled = work.path().join("pulled");
    let bundle = format!("{addr}/conformance/package/demo-bundle@{digest}");
    let (_, _) = run_ok(
        strake(home.path())
            .args(["bundle", "pull", "-b", &bundle, "-o"])
            .arg(&pulled),
    );
    assert_eq!(
        std::fs::read_to_string(pulled.join(".imgpkg/images.yml")).unwrap(),
        kctrl("package-bundle/images.yml")
    );
    let describe = crate::support::cli::stdout(
        strake(home.path()).args(["bundle", "describe", "-b", &bundle, "-o", "json"]),
    );
    let _ = describe;
    // The registry address is in images.yml, so the layer differs from kctrl's only there:
    // same entries, modes and sizes (images.yml is one byte longer per extra port digit).
    let manifest = manifest_json(&addr, "conformance/package/demo-bundle", &digest);
    assert_eq!(manifest["layers"].as_array().unwrap().len(), 1);
    let _ = describe;
    assert_eq!(
        tags(&addr, "conformance/package/demo-bundle"),
        [
            "1.2.3".to_string(),
            format!("{}.imgpkg", digest.replace(':', "-"))
        ]
    );
    for rel in [
        format!("carvel-artifacts/{pkg_dir}/package.yml"),
        format!("carvel-artifacts/{pkg_dir}/metadata.yml"),
    ] {
        assert_valid_resources(&dir.join(rel));
    }

    // The repository release of kctrl's own repo/ gives kctrl's images.yml.
    let repo_dir = work.path().join("kctrl-repo");
    copy_dir(&fixture("repo/packages"), &repo_dir.join("packages"));
    for f in walk(&repo_dir.join("packages")) {
        let text = read_sub(&f, &addr);
        std::fs::write(&f, text).unwrap();
    }
    std::fs::write(
        repo_dir.join("pkgrepo-build.yml"),
        kctrl("repo/pkgrepo-build.yml"),
    )
    .unwrap();
    run_ok(strake(home.path()).current_dir(&repo_dir).args([
        "package",
        "repository",
        "release",
        "--version",
        "1.0.0",
    ]));
    let repo_tags = tags(&addr, "conformance/package/demo-repo");
    assert_eq!(repo_tags.len(), 2, "{repo_tags:?}");
    assert_eq!(repo_tags[0], "1.0.0");
    let pulled_repo = work.path().join("pulled-repo");
    run_ok(
        strake(home.path())
            .args([
                "bundle",
                "pull",
                "-b",
                &format!("{addr}/conformance/package/demo-repo:1.0.0"),
                "-o",
            ])
            .arg(&pulled_repo),
    );
    assert_eq!(
        std::fs::read_to_string(pulled_repo.join(".imgpkg/images.yml")).unwrap(),
        kctrl("repo-bundle/images.yml")
    );
    let files: Vec<String> = walk(&pulled_repo)
        .iter()
        .map(|p| p.strip_prefix(&pulled_repo).unwrap().display().to_string())
        .collect();
    assert_eq!(
        files,
        [
            ".imgpkg/images.yml",
            "packages/demo.conformance.example.com/1.2.3.yml",
            "packages/demo.conformance.example.com/metadata.yml"
        ]
    );
    // package-repository.yml: kctrl's but for creationTimestamp and the bundle digest.
    let ours_repo = std::fs::read_to_string(repo_dir.join("package-repository.yml")).unwrap();
    let kctrl_repo = kctrl("repo/package-repository.yml");
    let mask = |t: &str| {
        t.lines()
            .map(|l| {
                if l.trim_start().starts_with("creationTimestamp:") {
                    "  creationTimestamp: <time>".to_string()
                } else if let Some(i) = l.find("demo-repo@sha256:") {
                    format!("{}demo-repo@<digest>", &l[..i])
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(mask(&ours_repo), mask(&kctrl_repo));
    assert!(ours_repo.contains("creationTimestamp: null"), "{ours_repo}");
    assert_valid_resources(&repo_dir.join("package-repository.yml"));
}

pub use crate::support::files_below as walk;

#[test]
fn bad_input_is_refused_naming_file_and_field_with_nothing_written() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_app_image(&addr);
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let fresh = |name: &str| {
        let dir = work.path().join(name);
        kctrl_input(&dir, &addr);
        dir
    };
    let release = |dir: &Path, version: &str| {
        run_err(strake(home.path()).current_dir(dir).args([
            "package",
            "release",
            "--version",
            version,
            "--repo-output",
            "repo",
            "--yes",
        ]))
    };
    let assert_nothing_written = |dir: &Path| {
        assert!(!dir.join("carvel-artifacts").exists(), "{}", dir.display());
        assert!(!dir.join("repo").exists(), "{}", dir.display());
        let leftovers: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        assert!(tags(&addr, "conformance/package/demo-bundle").is_empty());
    };

    // A refName with two segments.
    let dir = fresh("two-segments");
    let build = dir.join("package-build.yml");
    let text = std::fs::read_to_string(&build)
        .unwrap()
        .replace("name: demo.conformance.example.com", "name: demo.example");
    std::fs::write(&build, text).unwrap();
    let err = release(&dir, "1.0.0");
    assert!(
        err.contains("package-build.yml")
            && err.contains("metadata.name")
            && err.contains("at least three segments"),
        "{err}"
    );
    assert_nothing_written(&dir);

    // Version v1.0.0.
    let dir = fresh("v-version");
    let err = release(&dir, "v1.0.0");
    assert!(
        err.contains("--version: Invalid value: \"v1.0.0\": must be valid semver"),
        "{err}"
    );
    assert_nothing_written(&dir);

    // An unknown field in package-build.yml.
    let dir = fresh("unknown-field");
    let build = dir.join("package-build.yml");
    let text = std::fs::read_to_string(&build).unwrap().replace(
        "          useKbldImagesLock: true",
        "          useKbldImagesLock: true\n          pushTwice: true",
    );
    std::fs::write(&build, text).unwrap();
    let err = release(&dir, "1.0.0");
    assert!(
        err.contains("package-build.yml")
            && err.contains("spec.template.spec.export[0].imgpkgBundle")
            && err.contains("pushTwice"),
        "{err}"
    );
    assert_nothing_written(&dir);

    // A template path that does not exist.
    let dir = fresh("missing-path");
    std::fs::rename(dir.join("config"), dir.join("configuration")).unwrap();
    let err = release(&dir, "1.0.0");
    assert!(
        err.contains("package-build.yml")
            && err.contains("ytt.paths[0]")
            && err.contains("\"config\" does not exist"),
        "{err}"
    );
    assert_nothing_written(&dir);

    // An image that cannot be resolved names the image and the registry.
    let dir = fresh("unresolvable");
    let schema = dir.join("config/values-schema.yml");
    let text = std::fs::read_to_string(&schema).unwrap().replace(
        "conformance/package/app:v1",
        "conformance/package/missing:v9",
    );
    std::fs::write(&schema, text).unwrap();
    let err = release(&dir, "1.0.0");
    assert!(
        err.contains("lock images")
            && err.contains(&format!("{addr}/conformance/package/missing:v9")),
        "{err}"
    );
    assert_nothing_written(&dir);
}

/// kctrl's fixture in `dir`, releasing to the OCI layout `bundles/demo`, with its image in
/// a layout at `source` whose ref name is the recorded reference
/// (`127.0.0.1:5000/conformance/package/app:v1`), for `--offline --image-source oci:SOURCE`.
pub fn offline_kctrl_input(dir: &Path, source: &Path) {
    kctrl_input(dir, RECORDED_REGISTRY);
    let build = dir.join("package-build.yml");
    let text = std::fs::read_to_string(&build).unwrap().replace(
        "image: 127.0.0.1:5000/conformance/package/demo-bundle",
        "image: oci:bundles/demo",
    );
    std::fs::write(&build, text).unwrap();
    copy_dir(&fixture("images/app"), source);
    let index = source.join("index.json");
    let text = std::fs::read_to_string(&index).unwrap().replace(
        "\"org.opencontainers.image.ref.name\":\"v1\"",
        "\"org.opencontainers.image.ref.name\":\"127.0.0.1:5000/conformance/package/app:v1\"",
    );
    std::fs::write(&index, text).unwrap();
}

/// The fixture released offline into an OCI layout, its image resolved from a layout whose
/// ref name is the recorded reference (`127.0.0.1:5000/conformance/package/app:v1`): with
/// the recorded address in images.yml the content bundle is kctrl's byte for byte (its
/// diff_id and config blob equal kctrl's), and the Package equals kctrl's but for the
/// bundle reference and releasedAt.
#[test]
fn offline_release_to_a_layout_gives_kctrls_diff_id() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("pkg");
    let source = work.path().join("image-source");
    offline_kctrl_input(&dir, &source);
    let release = || {
        let (out, _) = run_ok(
            strake(home.path())
                .current_dir(&dir)
                .args([
                    "package",
                    "release",
                    "--version",
                    "1.2.3",
                    "--yes",
                    "--offline",
                    "--json",
                    "--released-at",
                    "2026-11-30T09:13:14Z",
                    "--image-source",
                ])
                .arg(format!("oci:{}", source.display())),
        );
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let outcome = release();
    assert_eq!(
        outcome["diff_id"].as_str().unwrap(),
        read_sub(&fixture("package-bundle/diff_id"), RECORDED_REGISTRY).trim()
    );
    let bundle = outcome["bundle"].as_str().unwrap();
    assert!(bundle.starts_with("localhost/demo@sha256:"), "{bundle}");
    let stored_at = outcome["stored_at"].as_str().unwrap();
    assert_eq!(
        stored_at,
        format!("oci:./bundles/demo@{}", bundle.split_once('@').unwrap().1)
    );
    let package = std::fs::read_to_string(
        dir.join("carvel-artifacts/packages/demo.conformance.example.com/package.yml"),
    )
    .unwrap();
    let kctrl = std::fs::read_to_string(fixture("carvel-artifacts/packages/demo.conformance.example.com/package.yml"))
        .unwrap()
        .replace("127.0.0.1:5000/conformance/package/demo-bundle@sha256:ec751d3a1ddaeb3b6881e176229a1d263c0d002c6186f982adb0df69b7409896", bundle);
    assert_eq!(package, kctrl, "with --released-at, the Package is kctrl's");
    // The config blob is kctrl's.
    let layout = LayoutStore::open(dir.join("bundles/demo")).unwrap();
    let digest = bundle.rsplit_once('@').unwrap().1;
    let m = block_on(async { layout.get_manifest(digest).await }).unwrap();
    let m: Value = serde_json::from_slice(&m.bytes).unwrap();
    let kctrl_manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("package-bundle/manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(m["config"], kctrl_manifest["config"]);
    // Again: the same digest, no file touched.
    let before: Vec<(PathBuf, Vec<u8>)> = walk(&dir)
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    assert_eq!(release(), outcome);
    let after: Vec<(PathBuf, Vec<u8>)> = walk(&dir)
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    assert_eq!(before, after);
}

/// `scripts/quickstart`, the README's first command: the Pinniped Supervisor and Concierge
/// packages at two versions and a repository holding all four, released offline into OCI
/// layouts, and a PackageInstall for each chosen by a version constraint.
#[test]
fn quickstart_releases_pinniped_and_a_repository_offline() {
    let out = tempfile::tempdir().unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/quickstart");
    let run = std::process::Command::new(&script)
        .arg(out.path())
        .env("STRAKE_BIN", assert_cmd::cargo::cargo_bin("strake"))
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("render: ytt -f config (18 documents)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("render: ytt -f config (30 documents)"),
        "{stdout}"
    );
    assert!(stdout.contains("with 4 package versions"), "{stdout}");
    for app in ["supervisor", "concierge"] {
        let pkg = out.path().join(format!(
            "{app}/carvel-artifacts/packages/pinniped-{app}.pinniped.dev"
        ));
        assert_valid_resources(&pkg.join("package.yml"));
        assert_valid_resources(&pkg.join("metadata.yml"));
        for version in ["0.25.0", "0.39.0"] {
            assert!(
                out.path()
                    .join(format!(
                        "repository/packages/pinniped-{app}.pinniped.dev/{version}.yml"
                    ))
                    .is_file()
            );
        }
        assert_valid_resources(&out.path().join(format!("{app}-install.yml")));
    }
    // The constraints choose as kapp-controller does: `>0.25.0` the newer release,
    // `0.25.0` that one.
    assert!(
        stdout.contains("Selected pinniped-supervisor.pinniped.dev 0.39.0")
            && stdout.contains("Selected pinniped-concierge.pinniped.dev 0.25.0"),
        "{stdout}"
    );
    let install = std::fs::read_to_string(out.path().join("supervisor-install.yml")).unwrap();
    assert!(
        install.contains("constraints: '>0.25.0'")
            && install.contains("packaging.carvel.dev/package-version-selected: 0.39.0"),
        "{install}"
    );
    assert_valid_resources(&out.path().join("repository/package-repository.yml"));
    let layout = LayoutStore::open(
        out.path()
            .join("repository/build/bundles/pinniped-package-repository"),
    )
    .unwrap();
    let tags = block_on(async { layout.list_tags().await }).unwrap();
    assert!(tags.contains(&"1.0.0".to_string()), "{tags:?}");
    relocate_the_quickstart_repository(out.path());
}

/// The air gap from the embedded default: the quickstart's repository bundle,
/// whose package bundles live in layouts of their own (`--image-source`), goes
/// to a tarball with every bundle and image, and from it into a registry, where
/// every version is offered and a recursive pull finds each package bundle and
/// image in the registry.
fn relocate_the_quickstart_repository(out: &Path) {
    let home = out.join("home");
    let strake = || {
        let mut cmd = Command::cargo_bin("strake").unwrap();
        cmd.env("HOME", &home)
            .env("DOCKER_CONFIG", home.join(".docker"))
            .env_remove("RUST_LOG");
        cmd
    };
    let repo = format!(
        "oci:{}:1.0.0",
        out.join("repository/build/bundles/pinniped-package-repository")
            .display()
    );
    let tarball = out.join("pinniped.tar").display().to_string();
    let image_sources: Vec<String> = ["supervisor", "concierge"]
        .iter()
        .map(|app| {
            format!(
                "oci:{}",
                out.join(format!("{app}/build/bundles/pinniped-{app}.pinniped.dev"))
                    .display()
            )
        })
        .chain([format!(
            "oci:{}/examples/pinniped/images",
            env!("CARGO_MANIFEST_DIR")
        )])
        .collect();
    // Without the layouts the package bundles live in, the copy names what is missing.
    let err = run_err(strake().args(["copy", "-b", &repo, "--to-tar", &tarball]));
    assert!(
        err.contains("localhost/pinniped-") && err.contains("name that with --image-source"),
        "{err}"
    );
    let mut copy = strake();
    copy.args(["copy", "-b", &repo, "--to-tar", &tarball, "--json"]);
    for source in &image_sources {
        copy.args(["--image-source", source]);
    }
    let (report, _) = run_ok(&mut copy);
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["bundles"], 3, "{report}");
    assert_eq!(report["images"], 1, "{report}");

    let registry = TestRegistry::start();
    let dst = format!("{}/pinniped/repository", registry.addr());
    run_ok(strake().args(["copy", "--tar", &tarball, "--to-repo", &dst]));
    let (available, _) =
        run_ok(strake().args(["package", "available", "--repo", &format!("{dst}:1.0.0")]));
    assert_eq!(available.matches("released").count(), 4, "{available}");
    let pulled = out.join("pulled");
    run_ok(strake().args([
        "bundle",
        "pull",
        "-b",
        &format!("{dst}:1.0.0"),
        "-o",
        pulled.to_str().unwrap(),
        "--recursive",
    ]));
    let locks: Vec<String> = walkdir::WalkDir::new(&pulled)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() == "images.yml")
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    // The repository's lock and each package bundle's (pulled into .imgpkg/bundles/).
    assert_eq!(locks.len(), 3, "{locks:?}");
    for lock in &locks {
        for line in lock
            .lines()
            .filter(|l| l.trim_start().starts_with("image: "))
        {
            assert!(line.contains(&format!("image: {dst}@sha256:")), "{lock}");
        }
    }
}
