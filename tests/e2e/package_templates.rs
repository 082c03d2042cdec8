//! The generated resources come from templates a user can replace (`--templates DIR`,
//! file by file), and a replaced template is still validated: a label added there shows
//! in the Package, a misspelt field is refused with nothing written. `SOURCE_DATE_EPOCH`
//! sets `releasedAt`.

use std::path::Path;

use crate::package_release::{fixture, offline_kctrl_input, strake};
use crate::support::cli::{run_err, run_ok};

/// kctrl's fixture, to an OCI layout, its image from a layout with the recorded name.
fn offline_package(dir: &Path) -> Vec<String> {
    offline_kctrl_input(dir, &dir.join("image-source"));
    vec![
        "--offline".into(),
        "--image-source".into(),
        "oci:image-source".into(),
    ]
}

const LABELLED_PACKAGE: &str = r#"apiVersion: data.packaging.carvel.dev/v1alpha1
kind: Package
metadata:
  creationTimestamp: null
  name: {{ (ref_name ~ "." ~ version) | tojson }}
  labels:
    team: {{ "platform" | tojson }}
spec:
  refName: {{ ref_name | tojson }}
{%- if released_at %}
  releasedAt: {{ released_at | tojson }}
{%- endif %}
  template:
    spec: {{ template_spec | tojson }}
  version: {{ version | tojson }}
"#;

/// `package release --version 1.2.3 --yes --templates my-templates` in `dir`.
fn release_with_my_templates(home: &Path, dir: &Path, args: &[String]) -> assert_cmd::Command {
    let mut command = strake(home);
    command
        .current_dir(dir)
        .args([
            "package",
            "release",
            "--version",
            "1.2.3",
            "--yes",
            "--templates",
            "my-templates",
        ])
        .args(args);
    command
}

#[test]
fn a_users_template_is_used_and_still_validated() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let args = offline_package(dir);
    std::fs::create_dir(dir.join("my-templates")).unwrap();
    std::fs::write(dir.join("my-templates/package.yml.j2"), LABELLED_PACKAGE).unwrap();
    run_ok(
        release_with_my_templates(home.path(), dir, &args).env("SOURCE_DATE_EPOCH", "1796029994"),
    );
    let package = std::fs::read_to_string(
        dir.join("carvel-artifacts/packages/demo.conformance.example.com/package.yml"),
    )
    .unwrap();
    assert!(
        package.contains("  labels:\n    team: platform\n"),
        "{package}"
    );
    assert!(
        package.contains("  releasedAt: \"2026-11-30T09:13:14Z\"\n"),
        "{package}"
    );
    assert!(
        !package.contains("valuesSchema"),
        "this template leaves the schema out: {package}"
    );
    // The metadata template was not replaced: still kctrl's.
    assert_eq!(
        std::fs::read_to_string(
            dir.join("carvel-artifacts/packages/demo.conformance.example.com/metadata.yml")
        )
        .unwrap(),
        std::fs::read_to_string(fixture(
            "carvel-artifacts/packages/demo.conformance.example.com/metadata.yml"
        ))
        .unwrap()
    );

    // A misspelt field in the user's template: refused before anything is tagged or written.
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let args = offline_package(dir);
    std::fs::create_dir(dir.join("my-templates")).unwrap();
    std::fs::write(
        dir.join("my-templates/package.yml.j2"),
        LABELLED_PACKAGE.replace(
            "  refName:",
            "  refname: {{ ref_name | tojson }}\n  refName:",
        ),
    )
    .unwrap();
    let err = run_err(&mut release_with_my_templates(home.path(), dir, &args));
    assert!(
        err.contains("package: package.yml: invalid Package") && err.contains("refname"),
        "{err}"
    );
    assert!(!dir.join("carvel-artifacts").exists());
    let tags = crate::support::cli::stdout(strake(home.path()).current_dir(dir).args([
        "tag",
        "list",
        "oci:bundles/demo",
    ]));
    assert_eq!(tags.trim(), "", "no tag after a failed release");
}
