//! A repository that carries a series of versions: two packages released with `strake
//! package release --repo-output`, then three repository releases in which the author keeps
//! only the new version's files (`--from`, then the repository's previous tag), to a real
//! registry and to OCI layouts. Every generated resource passes the schemas, the bundles
//! pull with locks by digest, releasing again changes no digest and no byte, and a version
//! already released with other content is refused with nothing pushed.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::package_release::{
    assert_valid_resources, copy_dir, fixture, push_app_image, read_sub, strake, tags, walk,
};
use crate::support::cli::{run_err, run_ok};
use crate::support::registry::TestRegistry;

/// A package directory: a values schema with one image and a Deployment using it.
fn write_package(
    dir: &Path,
    ref_name: &str,
    image: &str,
    replicas: u32,
    bundle: &str,
    home: &Path,
) {
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(
        dir.join("config/values.yml"),
        format!("#@data/values-schema\n---\n#@schema/desc \"The image\"\nimage: {image}\nreplicas: {replicas}\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("config/deployment.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  replicas: #@ data.values.replicas\n  template:\n    spec:\n      containers:\n      - name: app\n        image: #@ data.values.image\n",
    )
    .unwrap();
    if !dir.join("package-build.yml").exists() {
        run_ok(strake(home).current_dir(dir).args([
            "package", "init", "--name", ref_name, "--paths", "config", "--bundle", bundle,
        ]));
    }
}

fn release(home: &Path, dir: &Path, version: &str, extra: &[String]) {
    run_ok(
        strake(home)
            .current_dir(dir)
            .args([
                "package",
                "release",
                "--version",
                version,
                "--repo-output",
                "../repo",
                "--yes",
            ])
            .args(extra),
    );
}

fn repo_release(home: &Path, dir: &Path, args: &[&str]) -> Value {
    let (out, _) = run_ok(
        strake(home)
            .current_dir(dir)
            .args(["package", "repository", "release", "--json"])
            .args(args),
    );
    serde_json::from_str(&out).unwrap()
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walk(dir)
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect()
}

/// Runs the whole story with package bundles in `bundle_of(name)` and the repository
/// bundle in `repo`; `lock_args` are the release's image resolution flags.
#[allow(clippy::too_many_arguments)]
fn three_versions(
    work: &Path,
    home: &Path,
    image: &str,
    bundle_of: &dyn Fn(&str) -> String,
    where_is: &dyn Fn(&str) -> String,
    repo: &str,
    lock_args: &[String],
    list_tags: &dyn Fn() -> Vec<String>,
) {
    let alpha = work.join("alpha");
    let beta = work.join("beta");
    let repo_dir = work.join("repo");
    write_package(
        &alpha,
        "alpha.test.example.com",
        image,
        1,
        &bundle_of("alpha"),
        home,
    );
    write_package(
        &beta,
        "beta.test.example.com",
        image,
        1,
        &bundle_of("beta"),
        home,
    );
    release(home, &alpha, "1.0.0", lock_args);
    release(home, &beta, "1.0.0", lock_args);
    let first = repo_release(
        home,
        &repo_dir,
        &[
            "--version",
            "1.0.0",
            "--name",
            "demo-repo.test.example.com",
            "--repo",
            repo,
        ],
    );
    assert_eq!(first["merged_from"], Value::Null);
    assert!(repo_dir.join("pkgrepo-build.yml").is_file());

    // The author keeps only the new version's files.
    std::fs::remove_dir_all(repo_dir.join("packages")).unwrap();
    write_package(&alpha, "alpha.test.example.com", image, 2, "", home);
    release(home, &alpha, "1.1.0", lock_args);
    let second = repo_release(
        home,
        &repo_dir,
        &["--version", "1.1.0", "--from", &format!("{repo}:1.0.0")],
    );
    assert_eq!(
        second["merged_from"].as_str().unwrap(),
        format!("{repo}:1.0.0")
    );

    std::fs::remove_dir_all(repo_dir.join("packages")).unwrap();
    write_package(&alpha, "alpha.test.example.com", image, 3, "", home);
    release(home, &alpha, "1.2.0", lock_args);
    let third = repo_release(home, &repo_dir, &["--version", "1.2.0"]);
    assert_eq!(
        third["merged_from"].as_str().unwrap(),
        format!("{repo}:1.1.0"),
        "the previous tag by default"
    );
    let mut packages: Vec<&str> = third["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    packages.sort();
    assert_eq!(
        packages,
        [
            "alpha.test.example.com/1.0.0",
            "alpha.test.example.com/1.1.0",
            "alpha.test.example.com/1.2.0",
            "beta.test.example.com/1.0.0"
        ]
    );
    assert_valid_resources(&repo_dir.join("package-repository.yml"));
    assert_valid_resources(&repo_dir.join("pkgrepo-build.yml"));
    for f in walk(&alpha.join("carvel-artifacts")) {
        assert_valid_resources(&f);
    }

    // The repository bundle pulls with every package bundle locked by digest.
    let pulled = work.join("pulled-repo");
    run_ok(
        strake(home)
            .args([
                "bundle",
                "pull",
                "-b",
                third["stored_at"].as_str().unwrap(),
                "-o",
            ])
            .arg(&pulled),
    );
    let files: Vec<String> = walk(&pulled)
        .iter()
        .map(|p| p.strip_prefix(&pulled).unwrap().display().to_string())
        .collect();
    assert_eq!(files.len(), 1 + 4 + 2, "{files:?}");
    let lock = std::fs::read_to_string(pulled.join(".imgpkg/images.yml")).unwrap();
    assert_eq!(lock.matches("kbld.carvel.dev/id: ").count(), 4, "{lock}");
    assert_eq!(lock.matches("@sha256:").count(), 8, "{lock}");
    for f in walk(&pulled.join("packages")) {
        assert_valid_resources(&f);
    }
    // Each package bundle pulls with config/ and a lock by digest.
    for f in walk(&pulled.join("packages"))
        .iter()
        .filter(|f| !f.ends_with("metadata.yml"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        let recorded = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("image: "))
            .unwrap();
        let bundle = where_is(recorded);
        let out = work.join("pulled-pkg");
        let _ = std::fs::remove_dir_all(&out);
        run_ok(
            strake(home)
                .args(["bundle", "pull", "-b", &bundle, "-o"])
                .arg(&out),
        );
        assert!(out.join("config/deployment.yml").is_file());
        let images = std::fs::read_to_string(out.join(".imgpkg/images.yml")).unwrap();
        assert!(images.contains("/conformance/package/app@sha256:5fd8049b5c6da93ef4357b8e44f2a7fbc79836c30e6bf8e3c3772e5e79c215ee"), "{images}");
    }

    // Releasing again changes no digest and no byte.
    let before = (snapshot(work), list_tags());
    release(home, &alpha, "1.2.0", lock_args);
    let again = repo_release(home, &repo_dir, &["--version", "1.2.0"]);
    assert_eq!(again["bundle"], third["bundle"]);
    let after = (snapshot(work), list_tags());
    assert!(before == after, "a second release changed files or tags");

    // A released version with other content is refused; nothing is pushed or written.
    write_package(&alpha, "alpha.test.example.com", image, 4, "", home);
    release(home, &alpha, "1.2.0", lock_args);
    let tags_before = list_tags();
    let written_before = std::fs::read(repo_dir.join("package-repository.yml")).unwrap();
    let err = run_err(strake(home).current_dir(&repo_dir).args([
        "package",
        "repository",
        "release",
        "--version",
        "1.3.0",
    ]));
    assert!(
        err.contains("alpha.test.example.com.1.2.0 is already in the repository")
            && err.contains("packages/alpha.test.example.com/1.2.0.yml"),
        "{err}"
    );
    assert_eq!(list_tags(), tags_before);
    assert_eq!(
        std::fs::read(repo_dir.join("package-repository.yml")).unwrap(),
        written_before
    );
    assert!(std::fs::read_dir(&repo_dir).unwrap().all(|e| {
        !e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".strake")
    }));
}

#[test]
fn a_repository_of_two_packages_ends_with_three_versions_in_a_registry() {
    let registry = TestRegistry::start();
    let addr = registry.addr();
    push_app_image(&addr);
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let repo = format!("{addr}/test/demo-repo");
    let list = || tags(&addr, "test/demo-repo");
    three_versions(
        work.path(),
        home.path(),
        &format!("{addr}/conformance/package/app:v1"),
        &|name| format!("{addr}/test/{name}-bundle"),
        &|recorded| recorded.to_string(),
        &repo,
        &[],
        &list,
    );
    let t = list();
    assert!(
        ["1.0.0", "1.1.0", "1.2.0"]
            .iter()
            .all(|v| t.contains(&v.to_string()))
            && !t.contains(&"1.3.0".to_string()),
        "{t:?}"
    );
}

#[test]
fn a_repository_of_two_packages_ends_with_three_versions_in_oci_layouts_offline() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let layouts = work.path().join("layouts");
    let source = work.path().join("image-source");
    copy_dir(&fixture("images/app"), &source);
    let index = source.join("index.json");
    let text = read_sub(&index, "127.0.0.1:5000").replace(
        "\"org.opencontainers.image.ref.name\":\"v1\"",
        "\"org.opencontainers.image.ref.name\":\"registry.test/conformance/package/app:v1\"",
    );
    std::fs::write(&index, text).unwrap();
    let lock_args = vec![
        "--offline".to_string(),
        "--image-source".to_string(),
        format!("oci:{}", source.display()),
    ];
    let repo = format!("oci:{}", layouts.join("repo").display());
    let repo_layout = layouts.join("repo");
    let list = || {
        let out = crate::support::cli::stdout(
            strake(home.path())
                .args(["tag", "list"])
                .arg(format!("oci:{}", repo_layout.display())),
        );
        let mut t: Vec<String> = out.lines().map(str::to_string).collect();
        t.sort();
        t
    };
    let layouts_for = layouts.clone();
    three_versions(
        work.path(),
        home.path(),
        "registry.test/conformance/package/app:v1",
        &move |name| format!("oci:{}", layouts_for.join(name).display()),
        &|recorded| {
            // localhost/<layout name>@sha256:… is in the layout of that name.
            let (name, digest) = recorded
                .strip_prefix("localhost/")
                .unwrap()
                .split_once('@')
                .unwrap();
            format!("oci:{}@{digest}", layouts.join(name).display())
        },
        &repo,
        &lock_args,
        &list,
    );
    let t = list();
    assert!(
        t.iter().any(|l| l.contains("1.2.0")) && !t.iter().any(|l| l.contains("1.3.0")),
        "{t:?}"
    );
}
