//! kapp-controller's version selection golden table
//! (`fixtures/kapp-controller/version-selection.yml`, 134 cases made by kapp-controller's
//! own code): every case must select the same version or fail with the same text.

use std::collections::BTreeMap;

use serde::Deserialize;
use strake::package::constraints::{
    Candidate, Environment, IGNORE_KAPP_CONTROLLER_ANNOTATION, IGNORE_KUBERNETES_ANNOTATION,
    VersionSelection, select,
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    id: String,
    available: Vec<String>,
    #[serde(default)]
    other_ref_name_versions: Vec<String>,
    #[serde(default)]
    package_constraints: BTreeMap<String, PackageConstraints>,
    #[serde(default)]
    environment: CaseEnvironment,
    #[serde(default)]
    annotations: BTreeMap<String, String>,
    version_selection: Option<CaseSelection>,
    expected: Expected,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PackageConstraints {
    kubernetes_version_selection: Option<String>,
    kapp_controller_version_selection: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct CaseEnvironment {
    kubernetes_version: Option<String>,
    kapp_controller_version: Option<String>,
}

#[derive(Deserialize)]
struct CaseSelection {
    constraints: Option<String>,
    prereleases: Option<CasePrereleases>,
}

#[derive(Deserialize)]
struct CasePrereleases {
    #[serde(default)]
    identifiers: Vec<String>,
}

#[derive(Deserialize)]
struct Expected {
    selected: Option<String>,
    error: Option<String>,
}

fn run(case: &Case) -> Result<String, String> {
    let candidates: Vec<Candidate> = case
        .available
        .iter()
        .map(|version| {
            let own = case.package_constraints.get(version);
            Candidate {
                version,
                kubernetes_constraints: own.and_then(|c| c.kubernetes_version_selection.as_deref()),
                kapp_controller_constraints: own
                    .and_then(|c| c.kapp_controller_version_selection.as_deref()),
            }
        })
        .collect();
    let environment = Environment {
        kubernetes_version: Some(
            case.environment
                .kubernetes_version
                .clone()
                .unwrap_or_else(|| "v1.27.3".into()),
        ),
        kapp_controller_version: Some(
            case.environment
                .kapp_controller_version
                .clone()
                .unwrap_or_else(|| "0.53.1".into()),
        ),
        ignore_kubernetes_check: case.annotations.contains_key(IGNORE_KUBERNETES_ANNOTATION),
        ignore_kapp_controller_check: case
            .annotations
            .contains_key(IGNORE_KAPP_CONTROLLER_ANNOTATION),
    };
    let selection = case.version_selection.as_ref().map(|s| VersionSelection {
        constraints: s.constraints.clone(),
        prereleases: s.prereleases.as_ref().map(|p| p.identifiers.clone()),
    });
    let any_packages = !case.available.is_empty() || !case.other_ref_name_versions.is_empty();
    select(
        "pkg.test.carvel.dev",
        any_packages,
        &candidates,
        selection.as_ref(),
        &environment,
    )
    .map(|c| c.version.to_string())
    .map_err(|e| e.to_string())
}

#[test]
fn every_case_selects_what_kapp_controller_selects() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/kapp-controller/version-selection.yml"
    );
    let cases: Vec<Case> = serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for case in &cases {
        let got = run(case);
        let ok = match (&case.expected.selected, &case.expected.error, &got) {
            (Some(want), _, Ok(have)) => want == have,
            (_, Some(want), Err(have)) => want == have,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}: want {:?}/{:?}, got {got:?}",
                case.id, case.expected.selected, case.expected.error
            ));
        }
    }
    let passed = cases.len() - failures.len();
    println!(
        "kapp-controller version selection: {passed}/{} cases",
        cases.len()
    );
    assert_eq!(cases.len(), 134, "the table has 134 cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
