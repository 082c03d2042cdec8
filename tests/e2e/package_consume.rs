//! The consumer's side against a real registry: a repository bundle with one package at
//! 0.24.0, 0.25.0, 0.26.0 and 0.27.0-rc.1 (pushed with `strake bundle push`), the
//! versions `strake package available` selects, `strake package install-manifest`
//! output checked against the schemas, bad input (values that break the schema, `~1.2`,
//! a constraint no version meets, a registry that cannot be reached), and a repository of
//! 500 package versions answered in under a second with every blob fetched once.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value as J;
use strake::package::Resources;

use crate::support::cli::{run_err, run_ok, strake};
use crate::support::registry::TestRegistry;

const REF_NAME: &str = "app.test.dev";
const VERSIONS: [&str; 4] = ["0.24.0", "0.25.0", "0.26.0", "0.27.0-rc.1"];

fn package_yaml(ref_name: &str, version: &str) -> String {
    format!(
        "apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  name: {ref_name}.{version}
spec:
  refName: {ref_name}
  version: {version}
  releasedAt: \"2026-01-0{day}T00:00:00Z\"
  template:
    spec:
      fetch:
      - imgpkgBundle:
          image: registry.test/app@sha256:{digest}
      template:
      - ytt:
          paths: [config]
      deploy:
      - kapp: {{}}
  valuesSchema:
    openAPIv3:
      type: object
      additionalProperties: false
      properties:
        replicas: {{type: integer, default: 1}}
        mode: {{type: string, enum: [fast, safe], default: safe}}
        db:
          type: object
          additionalProperties: false
          required: [host]
          properties:
            host: {{type: string}}
            port: {{type: integer, default: 5432}}
",
        day = version.len() % 9 + 1,
        digest = "0".repeat(64),
    )
}

fn metadata_yaml(ref_name: &str) -> String {
    format!(
        "apiVersion: data.packaging.carvel.dev/v1alpha1
kind: PackageMetadata
metadata:
  name: {ref_name}
spec:
  displayName: The {ref_name} app
  shortDescription: An app for tests
"
    )
}

const EMPTY_LOCK: &str = "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages: []\n";

/// A repository directory (`packages/<ref>/<version>.yml`, `metadata.yml`) pushed as a
/// bundle; returns its location.
fn push_repository(
    home: &Path,
    reg: &TestRegistry,
    repo: &str,
    packages: &[(String, Vec<String>)],
) -> String {
    let dir = home.join(format!("{}-src", repo.replace('/', "-")));
    for (ref_name, versions) in packages {
        write_package_folder(&dir, ref_name, versions);
    }
    let location = format!("{}/{repo}:1.0.0", reg.addr());
    push_bundle_dir(home, &dir, &location);
    location
}

/// Writes `packages/<ref_name>/` below `dir` (`metadata.yml` and a `<version>.yml` for
/// each of `versions`); returns that folder.
fn write_package_folder(dir: &Path, ref_name: &str, versions: &[impl AsRef<str>]) -> PathBuf {
    let folder = dir.join("packages").join(ref_name);
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("metadata.yml"), metadata_yaml(ref_name)).unwrap();
    for v in versions {
        let v = v.as_ref();
        fs::write(folder.join(format!("{v}.yml")), package_yaml(ref_name, v)).unwrap();
    }
    folder
}

/// Pushes `dir`, given an empty `.imgpkg/images.yml`, as a bundle to `location`.
fn push_bundle_dir(home: &Path, dir: &Path, location: &str) {
    fs::create_dir_all(dir.join(".imgpkg")).unwrap();
    fs::write(dir.join(".imgpkg/images.yml"), EMPTY_LOCK).unwrap();
    run_ok(
        strake(home)
            .args(["bundle", "push", "-b", location, "-f"])
            .arg(dir),
    );
}

fn available_json(home: &Path, repo: &str, extra: &[&str]) -> J {
    let out = strake(home)
        .args(["package", "available", "--repo", repo, "-o", "json"])
        .args(extra)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn selected(home: &Path, repo: &str, extra: &[&str]) -> J {
    available_json(home, repo, extra)[0]["selected"].clone()
}

/// Parses a manifest, checks every document against its kind's schema and returns the kinds.
/// `values check --package REF_NAME --version 0.26.0 --repo REPO VALUES`.
fn values_check(home: &Path, repo: &str, values: &Path) -> assert_cmd::Command {
    let mut command = strake(home);
    command
        .args([
            "values",
            "check",
            "--package",
            REF_NAME,
            "--version",
            "0.26.0",
        ])
        .args(["--repo", repo])
        .arg(values);
    command
}

fn checked_kinds(text: &str) -> (Vec<String>, Vec<J>) {
    let docs = strake::package::yaml_doc::parse_documents(text, "manifest").unwrap();
    let docs: Vec<J> = docs
        .iter()
        .map(strake::package::yaml_doc::to_json)
        .collect();
    let resources = Resources::embedded();
    let mut kinds = Vec::new();
    for doc in &docs {
        let kind = doc["kind"].as_str().unwrap().to_string();
        resources
            .validate(&kind, doc, "manifest")
            .unwrap_or_else(|e| panic!("{e}"));
        kinds.push(kind);
    }
    (kinds, docs)
}

fn one_package() -> Vec<(String, Vec<String>)> {
    vec![(
        REF_NAME.to_string(),
        VERSIONS.iter().map(|v| v.to_string()).collect(),
    )]
}

#[test]
fn a_repository_bundle_selects_like_kapp_controller_and_writes_checked_manifests() {
    let reg = TestRegistry::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let repo = push_repository(home, &reg, "repos/main", &one_package());

    assert_eq!(selected(home, &repo, &["--constraint", "0.25.0"]), "0.25.0");
    assert_eq!(
        selected(home, &repo, &["--constraint", ">0.25.0"]),
        "0.26.0"
    );
    assert_eq!(
        selected(home, &repo, &["--constraint", ">0.25.0", "--prereleases"]),
        "0.27.0-rc.1"
    );
    assert_eq!(
        selected(
            home,
            &repo,
            &["--constraint", ">0.25.0", "--prereleases", "rc"]
        ),
        "0.27.0-rc.1"
    );
    let report = available_json(home, &repo, &["--constraint", ">=1.0.0"]);
    assert_eq!(report[0]["selected"], J::Null);
    let error = report[0]["error"].as_str().unwrap();
    assert!(
        error.contains("after-constraints-filter=0")
            && error.ends_with("versions on offer: 0.24.0, 0.25.0, 0.26.0, 0.27.0-rc.1"),
        "{error}"
    );
    assert_eq!(report[0]["displayName"], "The app.test.dev app");
    assert_eq!(report[0]["versions"].as_array().unwrap().len(), 4);
    assert_eq!(report[0]["versions"][0]["valuesSchema"], true);
    let text = run_err(strake(home).args([
        "package",
        "available",
        "--repo",
        &repo,
        "--package",
        REF_NAME,
        "--constraint",
        ">=1.0.0",
    ]));
    assert!(
        text.is_empty(),
        "the reason is in the report, not an error: {text}"
    );

    // install-manifest: four documents with an existing ClusterRole bound, five with a role.
    let values_a = home.join("a.yml");
    let values_b = home.join("b.yml");
    fs::write(&values_a, "replicas: 3\ndb:\n  host: db.a\n").unwrap();
    fs::write(&values_b, "replicas: 3\ndb:\n  host: db.b\n").unwrap();
    let manifest = |values: &Path, rbac: &[&str]| {
        let out = home.join("out.yml");
        let (_, stderr) = run_ok(
            strake(home)
                .args([
                    "package",
                    "install-manifest",
                    "--repo",
                    &repo,
                    "--package",
                    REF_NAME,
                ])
                .args(["--constraint", ">0.25.0", "--namespace", "apps", "--values"])
                .arg(values)
                .args(rbac)
                .arg("-o")
                .arg(&out),
        );
        assert!(stderr.contains("Selected app.test.dev 0.26.0"), "{stderr}");
        fs::read_to_string(&out).unwrap()
    };
    let (kinds, docs) = checked_kinds(&manifest(&values_a, &["--cluster-role", "admin"]));
    assert_eq!(
        kinds,
        ["PackageInstall", "Secret", "ServiceAccount", "RoleBinding"]
    );
    let install = &docs[0];
    assert_eq!(install["spec"]["packageRef"]["refName"], REF_NAME);
    assert_eq!(
        install["spec"]["packageRef"]["versionSelection"]["constraints"],
        ">0.25.0"
    );
    let secret_a = docs[1]["metadata"]["name"].as_str().unwrap().to_string();
    assert_eq!(
        install["spec"]["values"][0]["secretRef"]["name"],
        secret_a.as_str()
    );
    assert_eq!(
        docs[1]["stringData"]["values.yml"],
        "replicas: 3\ndb:\n  host: db.a\n"
    );
    assert_eq!(
        install["spec"]["serviceAccountName"],
        docs[2]["metadata"]["name"]
    );
    assert_eq!(docs[3]["roleRef"]["name"], "admin");
    assert_eq!(docs[3]["subjects"][0]["name"], docs[2]["metadata"]["name"]);

    let (kinds, docs) = checked_kinds(&manifest(&values_b, &["--create-rbac"]));
    assert_eq!(
        kinds,
        [
            "PackageInstall",
            "Secret",
            "ServiceAccount",
            "Role",
            "RoleBinding"
        ]
    );
    let secret_b = docs[1]["metadata"]["name"].as_str().unwrap();
    assert!(secret_a.starts_with("app-apps-values-"), "{secret_a}");
    assert_ne!(
        secret_a, secret_b,
        "different values give different Secret names"
    );
    let (kinds, _) = checked_kinds(&manifest(
        &values_b,
        &["--create-rbac", "--rbac-scope", "cluster"],
    ));
    assert_eq!(
        kinds,
        [
            "PackageInstall",
            "Secret",
            "ServiceAccount",
            "ClusterRole",
            "ClusterRoleBinding"
        ]
    );
    // The same values give the same name again.
    let (_, docs) = checked_kinds(&manifest(&values_a, &["--create-rbac"]));
    assert_eq!(docs[1]["metadata"]["name"], secret_a.as_str());

    // values check takes the same Package as its schema.
    let (out, _) = run_ok(&mut values_check(home, &repo, &values_a));
    assert!(out.contains("valid"), "{out}");
}

#[test]
fn bad_input_is_refused_with_every_reason_and_nothing_written() {
    let reg = TestRegistry::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let repo = push_repository(home, &reg, "repos/bad", &one_package());
    let values = home.join("bad.yml");
    fs::write(&values, "replicas: three\nmode: turbo\ndb:\n  port: 1\n").unwrap();
    let out = home.join("out.yml");
    let install = |constraint: &str| {
        run_err(
            strake(home)
                .args([
                    "package",
                    "install-manifest",
                    "--repo",
                    &repo,
                    "--package",
                    REF_NAME,
                ])
                .args(["--constraint", constraint, "--create-rbac", "--values"])
                .arg(&values)
                .arg("-o")
                .arg(&out),
        )
    };
    let error = install(">0.25.0");
    for expected in [
        "3 violations of the values schema of app.test.dev 0.26.0",
        "replicas: \"three\" is not of type \"integer\"",
        "db: \"host\" is a required property",
        "mode: \"turbo\" is not one of \"fast\" or \"safe\"",
    ] {
        assert!(
            error.contains(expected),
            "{expected:?} missing from:\n{error}"
        );
    }
    assert!(
        !out.exists(),
        "nothing is written when the values break the schema"
    );
    let error = run_err(&mut values_check(home, &repo, &values));
    assert!(
        error.contains("3 violations") && error.contains("db: \"host\""),
        "{error}"
    );

    let error = install("~1.2");
    assert!(
        error.contains("--constraint '~1.2': Could not parse Range \"~1.2\": Could not parse comparator \"~\" in \"~1.2\"")
            && error.contains("no ~ or ^"),
        "{error}"
    );
    let error = install(">=5.0.0");
    assert!(
        error.contains("Expected to find at least one version, but did not")
            && error
                .contains("app.test.dev versions on offer: 0.24.0, 0.25.0, 0.26.0, 0.27.0-rc.1"),
        "{error}"
    );
    assert!(!out.exists());
    let error = run_err(strake(home).args([
        "package",
        "available",
        "--repo",
        "127.0.0.1:1/repos/none:1.0.0",
        "--registry-retry-count",
        "0",
    ]));
    assert!(
        error.contains("127.0.0.1:1: cannot reach the registry"),
        "{error}"
    );
}

/// Blob GETs per digest in the registry's access log for `repo`.
fn blob_reads(reg: &TestRegistry, repo: &str) -> BTreeMap<String, usize> {
    let needle = format!("\"GET /v2/{repo}/blobs/");
    let mut reads = BTreeMap::new();
    for line in reg.log().lines() {
        if let Some(start) = line.find(&needle) {
            let rest = &line[start + needle.len()..];
            let digest = rest.split([' ', '"']).next().unwrap().to_string();
            *reads.entry(digest).or_insert(0) += 1;
        }
    }
    reads
}

#[test]
fn five_hundred_package_versions_answer_in_under_a_second_reading_each_blob_once() {
    let reg = TestRegistry::start();
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let packages: Vec<(String, Vec<String>)> = (0..50)
        .map(|p| {
            (
                format!("pkg{p:02}.test.dev"),
                (0..10).map(|v| format!("1.{v}.0")).collect(),
            )
        })
        .collect();
    let repo = push_repository(home, &reg, "repos/large", &packages);
    let before = blob_reads(&reg, "repos/large");
    let started = Instant::now();
    let (report, cpu) = timed_available(home, &repo, &["--constraint", ">=1.5.0 <1.8.0"]);
    let elapsed = started.elapsed();
    let reads = blob_reads(&reg, "repos/large");
    let report = report.as_array().unwrap();
    assert_eq!(report.len(), 50);
    let versions: usize = report
        .iter()
        .map(|p| p["versions"].as_array().unwrap().len())
        .sum();
    assert_eq!(versions, 500);
    assert!(report.iter().all(|p| p["selected"] == "1.7.0"));
    let fetched: BTreeMap<&String, usize> = reads
        .iter()
        .map(|(d, n)| (d, n - before.get(d).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect();
    println!(
        "package available: 500 package versions, {:.0} ms CPU, {} ms wall, blob reads {fetched:?}",
        cpu * 1000.0,
        elapsed.as_millis()
    );
    assert_eq!(fetched.len(), 2, "the config and the layer: {fetched:?}");
    assert!(
        fetched.values().all(|n| *n == 1),
        "each blob once: {fetched:?}"
    );
    // The CPU time (user and system) of the strake process, a debug build: wall time on
    // a shared test machine measures the machine's load more than the command (it is
    // printed beside it).
    assert!(cpu < 1.0, "took {cpu:.3} s of CPU ({elapsed:?} wall)");
}

/// Runs `strake package available -o json` under `sh`, which prints its own
/// `/proc/self/stat` once strake has exited: fields `cutime` and `cstime` there are the
/// CPU time of strake alone (Linux counts them in 100 ticks a second). Returns the report
/// and those seconds.
fn timed_available(home: &Path, repo: &str, extra: &[&str]) -> (J, f64) {
    let script = "\"$0\" \"$@\"; status=$?; cat /proc/$$/stat >&2; exit $status";
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("strake"))
        .args(["package", "available", "--repo", repo, "-o", "json"])
        .args(extra)
        .env("HOME", home)
        .env("DOCKER_CONFIG", home.join(".docker"))
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let stat = stderr.lines().last().unwrap();
    // The command name (field 2) may hold spaces: count the fields after its ')'.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // Fields 16 and 17 of the line are 13 and 14 after the name.
    let ticks: u64 = fields[13].parse::<u64>().unwrap() + fields[14].parse::<u64>().unwrap();
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        ticks as f64 / 100.0,
    )
}

#[test]
fn an_oci_layout_a_tarball_and_an_extracted_directory_offer_the_same() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let dir = home.join("repo");
    let folder = write_package_folder(&dir, REF_NAME, &VERSIONS);
    let layout = format!("oci:{}:1.0.0", home.join("layout").display());
    push_bundle_dir(home, &dir, &layout);
    let tarball = format!("tar:{}", home.join("repo.tar").display());
    run_ok(strake(home).args(["image", "copy", &layout, &tarball]));
    let package_file = folder.join("0.26.0.yml").display().to_string();
    for repo in [layout.as_str(), tarball.as_str(), dir.to_str().unwrap()] {
        assert_eq!(
            selected(home, repo, &["--constraint", ">0.25.0"]),
            "0.26.0",
            "{repo}"
        );
        let report = available_json(home, repo, &[]);
        assert_eq!(report[0]["versions"].as_array().unwrap().len(), 4, "{repo}");
    }
    let report = available_json(home, &package_file, &["--constraint", ">0.25.0"]);
    assert_eq!(report[0]["selected"], "0.26.0");
    assert_eq!(report[0]["versions"].as_array().unwrap().len(), 1);
    // A bundle without packages/ is not a repository.
    let other = home.join("other");
    fs::create_dir_all(&other).unwrap();
    fs::write(other.join("x.yml"), "a: 1\n").unwrap();
    let not_repo = format!("oci:{}:1.0.0", home.join("other-layout").display());
    push_bundle_dir(home, &other, &not_repo);
    let error = run_err(strake(home).args(["package", "available", "--repo", &not_repo]));
    assert!(
        error.contains("must contain 'packages/' directory but did not"),
        "{error}"
    );
}
