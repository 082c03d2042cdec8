//! Which Package version a PackageInstall's `versionSelection` selects, step by step as
//! kapp-controller does (`referencedPkgVersion` → vendir's
//! `HighestConstrainedVersionWithAdditionalConstraints`): relaxed parse of the offered
//! versions, prerelease filter, the Packages' own Kubernetes / kapp-controller version
//! checks, the user's constraints, highest wins. Error texts are kapp-controller's.

mod range;
mod version;

pub use range::{Range, RangeError};
pub use version::{ParseError, parse_relaxed, parse_strict, parse_tolerant};

use semver::Version;

/// Annotation on a PackageInstall that skips the Packages' Kubernetes version check.
pub const IGNORE_KUBERNETES_ANNOTATION: &str =
    "packaging.carvel.dev/ignore-kubernetes-version-selection";
/// Annotation on a PackageInstall that skips the Packages' kapp-controller version check.
pub const IGNORE_KAPP_CONTROLLER_ANNOTATION: &str =
    "packaging.carvel.dev/ignore-kapp-controller-version-selection";

/// `spec.packageRef.versionSelection`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VersionSelection {
    /// `constraints`; `None` and `""` both mean no constraint filter.
    pub constraints: Option<String>,
    /// `prereleases`; `None` drops every prerelease, `Some(vec![])` admits all, otherwise
    /// a prerelease passes when any of its dot-separated parts is one of the identifiers.
    pub prereleases: Option<Vec<String>>,
}

/// One Package on offer with the requested refName.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    /// `spec.version`, verbatim.
    pub version: &'a str,
    /// `spec.kubernetesVersionSelection.constraints`, if any.
    pub kubernetes_constraints: Option<&'a str>,
    /// `spec.kappControllerVersionSelection.constraints`, if any.
    pub kapp_controller_constraints: Option<&'a str>,
}

impl<'a> Candidate<'a> {
    /// A Package with no version checks of its own.
    pub fn plain(version: &'a str) -> Self {
        Candidate {
            version,
            kubernetes_constraints: None,
            kapp_controller_constraints: None,
        }
    }
}

/// What the cluster would report, and the install's ignore annotations. Without a
/// Kubernetes version a Package's Kubernetes check cannot fail; likewise for the
/// controller's version (a CLI has no cluster to ask unless told).
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub kubernetes_version: Option<String>,
    pub kapp_controller_version: Option<String>,
    pub ignore_kubernetes_check: bool,
    pub ignore_kapp_controller_check: bool,
}

/// Why no version was selected; `Display` gives kapp-controller's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("Expected non-empty version selection")]
    NoVersionSelection,
    #[error("Package {0} not found")]
    NoPackages(String),
    #[error("Selecting versions: Parsing version constraint '{constraints}': {error}")]
    InvalidConstraints {
        constraints: String,
        error: RangeError,
    },
    #[error("Expected to find at least one version, but did not (details: {})", steps_text(.steps))]
    NoMatch {
        /// Each step's name and how many versions were left after it.
        steps: Vec<(&'static str, usize)>,
    },
}

fn steps_text(steps: &[(&'static str, usize)]) -> String {
    steps
        .iter()
        .map(|(name, count)| format!("{name}={count}"))
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// kapp-controller's special case: a constraint that is one bare strict semver with a
/// prerelease, with `prereleases` absent, admits prereleases.
fn effective_prereleases(selection: &VersionSelection) -> Option<Vec<String>> {
    if selection.prereleases.is_some() {
        return selection.prereleases.clone();
    }
    match selection.constraints.as_deref().map(parse_strict) {
        Some(Ok(version)) if !version.pre.is_empty() => Some(Vec::new()),
        _ => None,
    }
}

fn passes_prerelease_filter(version: &Version, prereleases: Option<&[String]>) -> bool {
    if version.pre.is_empty() {
        return true;
    }
    match prereleases {
        None => false,
        Some([]) => true,
        Some(identifiers) => version
            .pre
            .as_str()
            .split('.')
            .any(|part| identifiers.iter().any(|id| id == part)),
    }
}

/// A Package-level check: no constraint passes; an unknown environment version passes;
/// an unparsable environment version or constraint excludes.
fn passes_package_check(
    constraint: Option<&str>,
    environment: Option<&Result<Version, ParseError>>,
) -> bool {
    let Some(constraint) = constraint else {
        return true;
    };
    let Some(environment) = environment else {
        return true;
    };
    let Ok(environment) = environment else {
        return false;
    };
    Range::parse(constraint).is_ok_and(|range| range.matches(environment))
}

/// The environment version as kapp-controller uses it: tolerant parse, prerelease and
/// build stripped.
fn scrubbed(text: &str) -> Result<Version, ParseError> {
    parse_tolerant(text).map(|v| Version::new(v.major, v.minor, v.patch))
}

/// Selects the version kapp-controller would install. `any_packages` says whether the
/// namespace holds any Package at all (with any refName); `candidates` are those with
/// the requested refName, in list order. Returns the chosen candidate.
pub fn select<'a>(
    ref_name: &str,
    any_packages: bool,
    candidates: &[Candidate<'a>],
    selection: Option<&VersionSelection>,
    environment: &Environment,
) -> Result<Candidate<'a>, SelectionError> {
    let selection = selection.ok_or(SelectionError::NoVersionSelection)?;
    if !any_packages {
        return Err(SelectionError::NoPackages(ref_name.to_string()));
    }
    let prereleases = effective_prereleases(selection);
    let constraints = selection.constraints.as_deref().filter(|c| !c.is_empty());
    let range = constraints
        .map(|c| {
            Range::parse(c).map_err(|error| SelectionError::InvalidConstraints {
                constraints: c.to_string(),
                error,
            })
        })
        .transpose()?;

    let mut left: Vec<(Version, Candidate<'a>)> = candidates
        .iter()
        .filter_map(|c| parse_relaxed(c.version).ok().map(|v| (v, *c)))
        .collect();
    let mut steps = vec![("all", left.len())];
    left.retain(|(v, _)| passes_prerelease_filter(v, prereleases.as_deref()));
    steps.push(("after-prereleases-filter", left.len()));

    let check_kubernetes = !environment.ignore_kubernetes_check
        && candidates
            .iter()
            .any(|c| c.kubernetes_constraints.is_some());
    if check_kubernetes {
        let cluster = environment.kubernetes_version.as_deref().map(scrubbed);
        left.retain(|(_, c)| passes_package_check(c.kubernetes_constraints, cluster.as_ref()));
        steps.push(("after-kubernetes-version-check", left.len()));
    }
    if !environment.ignore_kapp_controller_check {
        let controller = environment.kapp_controller_version.as_deref().map(scrubbed);
        left.retain(|(_, c)| {
            passes_package_check(c.kapp_controller_constraints, controller.as_ref())
        });
        steps.push(("after-kapp-controller-version-check", left.len()));
    }
    if let Some(range) = &range {
        left.retain(|(v, _)| range.matches(v));
        steps.push(("after-constraints-filter", left.len()));
    }
    // A stable sort keeps list order among equal versions; the last one wins.
    left.sort_by(|a, b| a.0.cmp(&b.0));
    left.pop()
        .map(|(_, c)| c)
        .ok_or(SelectionError::NoMatch { steps })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(
        available: &[&str],
        constraints: &str,
        prereleases: Option<Vec<String>>,
    ) -> Result<String, String> {
        let candidates: Vec<Candidate> = available.iter().map(|v| Candidate::plain(v)).collect();
        let selection = VersionSelection {
            constraints: Some(constraints.to_string()),
            prereleases,
        };
        select(
            "p.test.dev",
            true,
            &candidates,
            Some(&selection),
            &Environment::default(),
        )
        .map(|c| c.version.to_string())
        .map_err(|e| e.to_string())
    }

    #[test]
    fn selects_like_kapp_controller() {
        let offered = ["0.24.0", "0.25.0", "0.26.0", "0.27.0-rc.1"];
        assert_eq!(pick(&offered, "0.25.0", None).unwrap(), "0.25.0");
        assert_eq!(pick(&offered, ">0.25.0", None).unwrap(), "0.26.0");
        assert_eq!(
            pick(&offered, ">0.25.0", Some(vec![])).unwrap(),
            "0.27.0-rc.1"
        );
        assert_eq!(pick(&offered, "0.27.0-rc.1", None).unwrap(), "0.27.0-rc.1");
        let error = pick(&offered, ">=1.0.0", None).unwrap_err();
        assert!(error.contains("after-constraints-filter=0"), "{error}");
    }

    #[test]
    fn tilde_fails_naming_the_comparator() {
        let error = pick(&["1.2.0"], "~1.2", None).unwrap_err();
        assert!(
            error.contains("Could not parse comparator \"~\" in \"~1.2\""),
            "{error}"
        );
    }
}
