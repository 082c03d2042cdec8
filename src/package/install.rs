//! Install manifests (`strake package install-manifest`): the PackageInstall for a
//! package and a version constraint, its values Secret (named after the install plus a
//! short hash of the values, so it never collides with a user's Secret and changes when
//! the values do), and optionally the ServiceAccount with a Role or ClusterRole and its
//! binding. The values are checked first against the selected Package's
//! `valuesSchema.openAPIv3`, defaults applied; every resource is rendered from the
//! templates and validated against the schemas before anything is returned.

use serde_json::{Value as J, json};
use sha2::{Digest as _, Sha256};

use super::available::{NoSelection, select_package};
use super::constraints::{Environment, VersionSelection};
use super::resources::{ResourceError, Resources};
use super::source::Catalog;
use super::yaml_doc::{parse_documents, to_json};
use crate::ytt::user_values::{Problem, check_json};

/// Where the generated role applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RbacScope {
    /// A Role and RoleBinding in the install's namespace.
    Namespace,
    /// A ClusterRole and ClusterRoleBinding.
    Cluster,
}

/// The ServiceAccount and permissions to write.
#[derive(Debug, Clone)]
pub struct Rbac {
    pub scope: RbacScope,
    /// Bind this existing ClusterRole (`admin`, `cluster-admin`, …) instead of writing a
    /// role with every permission.
    pub existing_cluster_role: Option<String>,
}

/// One values file as given.
#[derive(Debug, Clone)]
pub struct ValuesFile {
    /// Its path, for messages.
    pub origin: String,
    pub text: String,
}

/// What to write.
#[derive(Debug, Clone)]
pub struct InstallRequest {
    pub ref_name: String,
    pub selection: VersionSelection,
    pub environment: Environment,
    pub values: Vec<ValuesFile>,
    pub namespace: String,
    /// Default: the refName's first segment.
    pub name: Option<String>,
    /// Default with `rbac`: `<name>-<namespace>-sa`.
    pub service_account: Option<String>,
    pub rbac: Option<Rbac>,
    /// Default: `<name>-<namespace>-values-<hash>`.
    pub values_secret_name: Option<String>,
}

/// The manifest: its documents in order, and what was chosen.
#[derive(Debug, Clone)]
pub struct InstallManifest {
    pub selected_version: String,
    pub package_origin: String,
    pub values_secret: Option<String>,
    pub documents: Vec<J>,
}

impl InstallManifest {
    /// The documents as YAML, kctrl's layout, separated by `---`.
    pub fn to_yaml(&self) -> Result<String, InstallError> {
        let mut out = String::new();
        for doc in &self.documents {
            out.push_str("---\n");
            out.push_str(&super::yaml_doc::to_kctrl_yaml(doc).map_err(InstallError::Input)?);
        }
        Ok(out)
    }
}

/// Values that break the selected Package's values schema.
#[derive(Debug, thiserror::Error)]
#[error(
    "values ({files}): {} violation{} of the values schema of {ref_name} {version} ({origin}):{}",
    problems.len(),
    if problems.len() == 1 { "" } else { "s" },
    problems.iter().map(|p| format!("\n  {p}")).collect::<String>()
)]
pub struct ValuesViolations {
    pub files: String,
    pub ref_name: String,
    pub version: String,
    pub origin: String,
    pub problems: Vec<Problem>,
}

/// Why no manifest was made.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error(transparent)]
    NoSelection(#[from] NoSelection),
    #[error(transparent)]
    Values(Box<ValuesViolations>),
    #[error(transparent)]
    Resource(#[from] ResourceError),
    #[error("{0}")]
    Input(String),
}

/// The values files merged in order (maps merge key by key, anything else is replaced),
/// as the install's ytt sees them.
fn merged_values(files: &[ValuesFile]) -> Result<J, InstallError> {
    let mut merged = J::Object(Default::default());
    for file in files {
        let docs = parse_documents(&file.text, &file.origin)
            .map_err(|e| InstallError::Input(format!("values file {e}")))?;
        for doc in docs {
            merge(&mut merged, to_json(&doc));
        }
    }
    Ok(merged)
}

fn merge(into: &mut J, from: J) {
    match (into, from) {
        (J::Object(into), J::Object(from)) => {
            for (key, value) in from {
                match into.get_mut(&key) {
                    Some(existing) => merge(existing, value),
                    None => {
                        into.insert(key, value);
                    }
                }
            }
        }
        (into, from) => *into = from,
    }
}

/// The Secret's keys: `values.yml` for one file, `values-1.yml`, `values-2.yml`, … (zero
/// padded so they sort in the order given) for several.
fn secret_keys(count: usize) -> Vec<String> {
    if count == 1 {
        return vec!["values.yml".to_string()];
    }
    let width = count.to_string().len();
    (1..=count)
        .map(|i| format!("values-{i:0width$}.yml"))
        .collect()
}

/// First 10 hex digits of the SHA-256 of the keys and contents.
fn values_hash(keys: &[String], files: &[ValuesFile]) -> String {
    let mut hasher = Sha256::new();
    for (key, file) in keys.iter().zip(files) {
        hasher.update(key.as_bytes());
        hasher.update([0]);
        hasher.update(file.text.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())[..10].to_string()
}

/// Builds the manifest: selects the Package, checks the values, renders and validates.
pub fn build(
    catalog: &Catalog,
    request: &InstallRequest,
    resources: &Resources,
) -> Result<InstallManifest, InstallError> {
    let package = select_package(
        catalog,
        &request.ref_name,
        &request.selection,
        &request.environment,
    )?;
    let files: Vec<String> = request.values.iter().map(|f| f.origin.clone()).collect();
    if !request.values.is_empty()
        && let Some(schema) = &package.values_schema
    {
        let values = merged_values(&request.values)?;
        let problems = check_json(schema, values).map_err(|e| {
            InstallError::Input(format!("{}: valuesSchema.openAPIv3: {e}", package.origin))
        })?;
        if !problems.is_empty() {
            return Err(InstallError::Values(Box::new(ValuesViolations {
                files: files.join(", "),
                ref_name: package.ref_name.clone(),
                version: package.version.clone(),
                origin: package.origin.clone(),
                problems,
            })));
        }
    } else {
        // Still refuse a values file that is not YAML.
        merged_values(&request.values)?;
    }

    let namespace = &request.namespace;
    let name = request.name.clone().unwrap_or_else(|| {
        request
            .ref_name
            .split('.')
            .next()
            .unwrap_or(&request.ref_name)
            .to_string()
    });
    let service_account = match (&request.service_account, &request.rbac) {
        (Some(sa), _) => sa.clone(),
        (None, Some(_)) => format!("{name}-{namespace}-sa"),
        (None, None) => {
            return Err(InstallError::Input(
                "a PackageInstall runs as a ServiceAccount: give --service-account SA (an \
                 existing one) or --create-rbac"
                    .into(),
            ));
        }
    };
    let constraints = request
        .selection
        .constraints
        .clone()
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| package.version.clone());

    let keys = secret_keys(request.values.len());
    let values_secret = (!request.values.is_empty()).then(|| {
        request.values_secret_name.clone().unwrap_or_else(|| {
            format!(
                "{name}-{namespace}-values-{}",
                values_hash(&keys, &request.values)
            )
        })
    });
    let origin = format!("install manifest of {}", request.ref_name);
    let mut documents = resources.render_documents(
        "packageinstall.yml.j2",
        &json!({
            "name": name,
            "namespace": namespace,
            "service_account": service_account,
            "ref_name": request.ref_name,
            "constraints": constraints,
            "prereleases": request.selection.prereleases,
            "values_secret": values_secret,
        }),
        &origin,
    )?;
    if let Some(secret) = &values_secret {
        let files: Vec<J> = keys
            .iter()
            .zip(&request.values)
            .map(|(key, file)| json!({"key": key, "content": file.text}))
            .collect();
        documents.extend(resources.render_documents(
            "values-secret.yml.j2",
            &json!({
                "name": secret,
                "namespace": namespace,
                "ref_name": request.ref_name,
                "version": package.version,
                "files": files,
            }),
            &origin,
        )?);
    }
    if let Some(rbac) = &request.rbac {
        let (scope, role, binding) = match rbac.scope {
            RbacScope::Namespace => (
                "namespace",
                format!("{name}-{namespace}-role"),
                format!("{name}-{namespace}-rolebinding"),
            ),
            RbacScope::Cluster => (
                "cluster",
                format!("{name}-{namespace}-cluster-role"),
                format!("{name}-{namespace}-cluster-rolebinding"),
            ),
        };
        documents.extend(resources.render_documents(
            "serviceaccount-rbac.yml.j2",
            &json!({
                "namespace": namespace,
                "service_account": service_account,
                "scope": scope,
                "role": role,
                "binding": binding,
                "existing_cluster_role": rbac.existing_cluster_role,
            }),
            &origin,
        )?);
    }
    Ok(InstallManifest {
        selected_version: package.version.clone(),
        package_origin: package.origin.clone(),
        values_secret,
        documents,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_in_the_order_given() {
        assert_eq!(secret_keys(1), ["values.yml"]);
        let keys = secret_keys(12);
        assert_eq!(keys[0], "values-01.yml");
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(sorted, keys);
    }

    #[test]
    fn later_values_files_override_earlier_ones() {
        let files = [
            ValuesFile {
                origin: "a.yml".into(),
                text: "a: {x: 1, z: 2}\nlist: [1]\n".into(),
            },
            ValuesFile {
                origin: "b.yml".into(),
                text: "a: {z: 3}\nlist: [2]\n".into(),
            },
        ];
        assert_eq!(
            merged_values(&files).unwrap(),
            json!({"a": {"x": 1, "z": 3}, "list": [2]})
        );
    }
}
