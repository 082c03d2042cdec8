//! kctrl's build files, read strictly: `package-build.yml` (PackageBuild),
//! `package-resources.yml` (a Package, a PackageMetadata, optionally a PackageInstall) and
//! `pkgrepo-build.yml` (PackageRepositoryBuild). Each document is validated against its
//! schema first, so an unknown or misspelt field is an error naming the file and the field;
//! only then are the parts the release needs taken out.

use std::path::Path;

use serde_json::Value;

use crate::package::PackageError;
use crate::package::resources::Resources;
use crate::package::yaml_doc::{parse_documents, to_json};

pub const PACKAGE_BUILD_FILE: &str = "package-build.yml";
pub const PACKAGE_RESOURCES_FILE: &str = "package-resources.yml";
pub const PKGREPO_BUILD_FILE: &str = "pkgrepo-build.yml";

/// One export of a PackageBuild (kctrl uses the first).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Export {
    /// `imgpkgBundle.image`: a registry repository (no tag) or `oci:DIR`.
    pub image: Option<String>,
    pub use_kbld_images_lock: bool,
    pub include_paths: Vec<String>,
}

/// `package-build.yml`.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageBuild {
    /// `metadata.name`: the package's refName.
    pub ref_name: String,
    /// `spec.template.spec.app.spec`: the AppSpec (template and deploy steps).
    pub app_spec: Value,
    pub exports: Vec<Export>,
    /// `spec.release` as written (kctrl defaults it to `[{resource: {}}]`).
    pub release: Option<Value>,
}

/// `package-resources.yml`.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageResources {
    pub package: Value,
    pub metadata: Value,
    pub install: Option<Value>,
}

/// `pkgrepo-build.yml`.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageRepositoryBuild {
    pub name: String,
    pub image: Option<String>,
    /// `metadata.creationTimestamp` as written (kept when the file is saved again).
    pub creation_timestamp: Value,
}

fn read(path: &Path) -> Result<String, PackageError> {
    std::fs::read_to_string(path).map_err(|source| PackageError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Every document of `path`, as JSON.
pub fn read_documents(path: &Path) -> Result<Vec<Value>, PackageError> {
    let text = read(path)?;
    let shown = path.display().to_string();
    let docs = parse_documents(&text, &shown).map_err(|message| PackageError::File {
        path: path.to_path_buf(),
        message,
    })?;
    Ok(docs.iter().map(to_json).collect())
}

fn single_document(path: &Path) -> Result<Value, PackageError> {
    let mut docs = read_documents(path)?;
    if docs.len() != 1 {
        return Err(PackageError::File {
            path: path.to_path_buf(),
            message: format!("expected one YAML document, found {}", docs.len()),
        });
    }
    Ok(docs.remove(0))
}

fn origin(path: &Path) -> String {
    path.display().to_string()
}

fn string_list(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads and validates `package-build.yml`.
pub fn read_package_build(
    path: &Path,
    resources: &Resources,
) -> Result<PackageBuild, PackageError> {
    let doc = single_document(path)?;
    resources.validate("PackageBuild", &doc, &origin(path))?;
    let ref_name = doc["metadata"]["name"].as_str().unwrap_or("").to_string();
    let spec = &doc["spec"]["template"]["spec"];
    let app_spec = match &spec["app"]["spec"] {
        Value::Null => serde_json::json!({}),
        other => other.clone(),
    };
    let exports = spec["export"]
        .as_array()
        .map(|exports| {
            exports
                .iter()
                .map(|e| Export {
                    image: e["imgpkgBundle"]["image"]
                        .as_str()
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                    // Without an imgpkgBundle, kctrl creates one with the lock on.
                    use_kbld_images_lock: match &e["imgpkgBundle"] {
                        Value::Null => true,
                        b => b["useKbldImagesLock"].as_bool().unwrap_or(false),
                    },
                    include_paths: string_list(&e["includePaths"]),
                })
                .collect()
        })
        .unwrap_or_default();
    let release = match &doc["spec"]["release"] {
        Value::Null => None,
        other => Some(other.clone()),
    };
    Ok(PackageBuild {
        ref_name,
        app_spec,
        exports,
        release,
    })
}

/// Reads and validates `package-resources.yml`: exactly one Package and one
/// PackageMetadata, at most one PackageInstall, nothing else.
pub fn read_package_resources(
    path: &Path,
    resources: &Resources,
) -> Result<PackageResources, PackageError> {
    let docs = read_documents(path)?;
    let (mut package, mut metadata, mut install) = (Vec::new(), Vec::new(), Vec::new());
    for (i, doc) in docs.into_iter().enumerate() {
        let kind = doc["kind"].as_str().unwrap_or("").to_string();
        let where_ = format!("{} (document {})", origin(path), i + 1);
        match kind.as_str() {
            "Package" => package.push(doc),
            "PackageMetadata" => metadata.push(doc),
            "PackageInstall" => install.push(doc),
            _ => {
                return Err(PackageError::File {
                    path: path.to_path_buf(),
                    message: format!(
                        "document {}: kind: {kind:?} is not one of Package, PackageMetadata, PackageInstall",
                        i + 1
                    ),
                });
            }
        }
        let doc = match kind.as_str() {
            "Package" => package.last(),
            "PackageMetadata" => metadata.last(),
            _ => install.last(),
        };
        if let Some(doc) = doc {
            // The placeholder Package is named <refName>.0.0.0; its name rule is checked
            // again on the released Package.
            resources.validate(&kind, doc, &where_)?;
        }
    }
    if package.len() != 1 || metadata.len() != 1 || install.len() > 1 {
        return Err(PackageError::File {
            path: path.to_path_buf(),
            message: format!(
                "expected exactly one Package and one PackageMetadata (and at most one PackageInstall), found {} Package, {} PackageMetadata, {} PackageInstall",
                package.len(),
                metadata.len(),
                install.len()
            ),
        });
    }
    Ok(PackageResources {
        package: package.remove(0),
        metadata: metadata.remove(0),
        install: install.pop(),
    })
}

/// Reads and validates `pkgrepo-build.yml`.
pub fn read_pkgrepo_build(
    path: &Path,
    resources: &Resources,
) -> Result<PackageRepositoryBuild, PackageError> {
    let doc = single_document(path)?;
    resources.validate("PackageRepositoryBuild", &doc, &origin(path))?;
    Ok(PackageRepositoryBuild {
        name: doc["metadata"]["name"].as_str().unwrap_or("").to_string(),
        image: doc["spec"]["export"]["imgpkgBundle"]["image"]
            .as_str()
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        creation_timestamp: doc["metadata"]["creationTimestamp"].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/imgpkg/package");

    #[test]
    fn reads_kctrls_own_files() {
        let r = Resources::embedded();
        let dir = Path::new(FIXTURE);
        let build = read_package_build(&dir.join("after-release/package-build.yml"), &r).unwrap();
        assert_eq!(build.ref_name, "demo.conformance.example.com");
        assert_eq!(
            build.exports[0],
            Export {
                image: Some("127.0.0.1:5000/conformance/package/demo-bundle".into()),
                use_kbld_images_lock: true,
                include_paths: vec!["config".into()],
            }
        );
        let init = read_package_build(&dir.join("after-init/package-build.yml"), &r).unwrap();
        assert_eq!(init.exports[0].image, None);
        let res =
            read_package_resources(&dir.join("after-init/package-resources.yml"), &r).unwrap();
        assert_eq!(res.metadata["spec"]["displayName"], "demo");
        assert!(res.install.is_some());
    }

    #[test]
    fn an_unknown_field_names_the_file_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("package-build.yml");
        let text = std::fs::read_to_string(Path::new(FIXTURE).join("after-init/package-build.yml"))
            .unwrap()
            .replace("      export:", "      exprot: []\n      export:");
        std::fs::write(&path, text).unwrap();
        let err = read_package_build(&path, &Resources::embedded())
            .unwrap_err()
            .to_string();
        assert!(err.contains("package-build.yml"), "{err}");
        assert!(err.contains("spec.template.spec"), "{err}");
        assert!(err.contains("exprot"), "{err}");
    }
}
