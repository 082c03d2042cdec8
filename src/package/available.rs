//! What a repository offers (`strake package available`): each package's versions with
//! displayName, releasedAt and whether a values schema exists, and the version a
//! `versionSelection` selects there, or kapp-controller's reason why none matches
//! followed by the versions on offer.

use serde::Serialize;

use super::constraints::{Candidate, Environment, SelectionError, VersionSelection, select};
use super::source::{Catalog, Package};

/// Why no Package was selected: kapp-controller's verdict plus what was on offer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{verdict}{}", offer_text(.ref_name, .offered))]
pub struct NoSelection {
    pub ref_name: String,
    pub verdict: Box<SelectionError>,
    /// Every version of the package on offer, as written.
    pub offered: Vec<String>,
}

fn offer_text(ref_name: &str, offered: &[String]) -> String {
    if offered.is_empty() {
        format!("; the repository has no version of {ref_name}")
    } else {
        format!("; {ref_name} versions on offer: {}", offered.join(", "))
    }
}

/// Selects the Package of `ref_name` kapp-controller would install from `catalog`.
pub fn select_package<'a>(
    catalog: &'a Catalog,
    ref_name: &str,
    selection: &VersionSelection,
    environment: &Environment,
) -> Result<&'a Package, NoSelection> {
    let packages: Vec<&Package> = catalog
        .packages
        .iter()
        .filter(|p| p.ref_name == ref_name)
        .collect();
    let candidates: Vec<Candidate> = packages
        .iter()
        .map(|p| Candidate {
            version: &p.version,
            kubernetes_constraints: p.kubernetes_constraints.as_deref(),
            kapp_controller_constraints: p.kapp_controller_constraints.as_deref(),
        })
        .collect();
    let any_packages = !catalog.packages.is_empty();
    match select(
        ref_name,
        any_packages,
        &candidates,
        Some(selection),
        environment,
    ) {
        Ok(chosen) => Ok(packages
            .into_iter()
            .rev()
            .find(|p| std::ptr::eq(p.version.as_str(), chosen.version))
            .expect("the selected candidate is one of the packages")),
        Err(verdict) => Err(NoSelection {
            ref_name: ref_name.to_string(),
            verdict: Box::new(verdict),
            offered: packages.iter().map(|p| p.version.clone()).collect(),
        }),
    }
}

/// One version in the report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OfferedVersion {
    pub version: String,
    pub released_at: Option<String>,
    pub values_schema: bool,
}

/// One package in the report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OfferedPackage {
    pub ref_name: String,
    pub display_name: Option<String>,
    pub short_description: Option<String>,
    /// Sorted by version precedence, lowest first.
    pub versions: Vec<OfferedVersion>,
    /// The version the selection selects, `None` when none matches.
    pub selected: Option<String>,
    /// Why none matches.
    pub error: Option<String>,
}

/// The report: every package of `catalog` (or only `only`), with the selection applied.
/// Fails only when `only` names a package the catalog does not have.
pub fn report(
    catalog: &Catalog,
    only: Option<&str>,
    selection: &VersionSelection,
    environment: &Environment,
) -> Result<Vec<OfferedPackage>, NoSelection> {
    let names: Vec<&str> = match only {
        Some(name) => vec![name],
        None => catalog.ref_names(),
    };
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let metadata = catalog.metadata.get(name);
        let mut versions: Vec<(&Package, Option<semver::Version>)> = catalog
            .versions_of(name)
            .map(|p| (p, super::constraints::parse_relaxed(&p.version).ok()))
            .collect();
        if versions.is_empty() && metadata.is_none() {
            return Err(NoSelection {
                ref_name: name.to_string(),
                verdict: Box::new(SelectionError::NoPackages(name.to_string())),
                offered: Vec::new(),
            });
        }
        versions.sort_by(|a, b| a.1.cmp(&b.1));
        let (selected, error) = match select_package(catalog, name, selection, environment) {
            Ok(p) => (Some(p.version.clone()), None),
            Err(e) => (None, Some(e.to_string())),
        };
        out.push(OfferedPackage {
            ref_name: name.to_string(),
            display_name: metadata.and_then(|m| m.display_name.clone()),
            short_description: metadata.and_then(|m| m.short_description.clone()),
            versions: versions
                .into_iter()
                .map(|(p, _)| OfferedVersion {
                    version: p.version.clone(),
                    released_at: p.released_at.clone(),
                    values_schema: p.values_schema.is_some(),
                })
                .collect(),
            selected,
            error,
        });
    }
    Ok(out)
}

/// The report as text: a block per package, one line per version.
pub fn to_text(report: &[OfferedPackage]) -> String {
    let mut out = String::new();
    for (i, p) in report.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&p.ref_name);
        if let Some(name) = &p.display_name {
            out.push_str(&format!(" ({name})"));
        }
        out.push('\n');
        if let Some(description) = &p.short_description {
            out.push_str(&format!("  {description}\n"));
        }
        let width = p
            .versions
            .iter()
            .map(|v| v.version.len())
            .max()
            .unwrap_or(0);
        for v in &p.versions {
            let mark = if p.selected.as_deref() == Some(&v.version) {
                "*"
            } else {
                " "
            };
            let released = v.released_at.as_deref().unwrap_or("-");
            let schema = if v.values_schema {
                "values schema"
            } else {
                "no values schema"
            };
            out.push_str(&format!(
                "{mark} {:width$}  released {released}  {schema}\n",
                v.version
            ));
        }
        match (&p.selected, &p.error) {
            (Some(v), _) => out.push_str(&format!("selected: {v}\n")),
            (None, Some(e)) => out.push_str(&format!("selected: none ({e})\n")),
            (None, None) => {}
        }
    }
    out
}

/// The report as JSON: an array with one object per package.
pub fn to_json(report: &[OfferedPackage]) -> String {
    let mut text = serde_json::to_string_pretty(report).expect("the report serialises");
    text.push('\n');
    text
}

/// The report as YAML (the same structure as the JSON).
pub fn to_yaml(report: &[OfferedPackage]) -> String {
    serde_saphyr::to_string(&report).expect("the report serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::source::read_path;

    fn catalog() -> Catalog {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for v in ["0.24.0", "0.25.0", "0.26.0", "0.27.0-rc.1"] {
            text.push_str(&format!(
                "---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: app.test.dev.{v}\nspec:\n  refName: app.test.dev\n  version: {v}\n"
            ));
        }
        std::fs::write(dir.path().join("repo.yml"), text).unwrap();
        read_path(dir.path()).unwrap()
    }

    #[test]
    fn a_constraint_no_version_meets_names_the_versions_on_offer() {
        let selection = VersionSelection {
            constraints: Some(">=1.0.0".into()),
            prereleases: None,
        };
        let error = select_package(
            &catalog(),
            "app.test.dev",
            &selection,
            &Environment::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("Expected to find at least one version"),
            "{error}"
        );
        assert!(
            error.ends_with("app.test.dev versions on offer: 0.24.0, 0.25.0, 0.26.0, 0.27.0-rc.1"),
            "{error}"
        );
    }

    #[test]
    fn the_report_marks_the_selected_version() {
        let selection = VersionSelection {
            constraints: Some(">0.25.0".into()),
            prereleases: None,
        };
        let report = report(&catalog(), None, &selection, &Environment::default()).unwrap();
        assert_eq!(report[0].selected.as_deref(), Some("0.26.0"));
        assert!(to_text(&report).contains("* 0.26.0     "));
        let json: serde_json::Value = serde_json::from_str(&to_json(&report)).unwrap();
        assert_eq!(json[0]["selected"], "0.26.0");
        assert_eq!(json[0]["versions"].as_array().unwrap().len(), 4);
    }
}
