//! Where Packages and PackageMetadata come from when choosing what to install: a
//! repository bundle (a registry reference, `oci:DIR[:TAG]`, `tar:FILE[:TAG]`), an
//! extracted repository directory, or single files. A bundle's manifest, config and
//! layer are each fetched once; the layer is read as a stream (gunzip, tar) and only the
//! YAML files under `packages/` are kept, each parsed once. As kapp-controller does
//! (`carvel-formats.md` §7.4), every document that is not a
//! `data.packaging.carvel.dev/v1alpha1` Package or PackageMetadata is left out.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use serde_json::Value as J;

use crate::bundle::pull::{download_blob, fetch_bundle_image};
use crate::oci::Store;
use crate::oci::location::{Location, open_source};
use crate::oci::registry::RegistryOptions;
use crate::ytt::user_values::to_json;

/// API group and version of Package and PackageMetadata.
pub const DATA_PACKAGING_API: &str = "data.packaging.carvel.dev/v1alpha1";

/// Largest YAML file read from a repository bundle.
const FILE_LIMIT: u64 = 16 << 20;

/// Why a source could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error(transparent)]
    Oci(#[from] crate::oci::OciError),
    #[error(transparent)]
    Bundle(#[from] crate::bundle::BundleError),
    #[error("{0}")]
    Invalid(String),
}

type Result<T> = std::result::Result<T, SourceError>;

/// One Package document: a version of a package.
#[derive(Debug, Clone)]
pub struct Package {
    /// Where it was read (`oci:repo@sha256:…/packages/x/1.0.0.yml`, a file path).
    pub origin: String,
    pub ref_name: String,
    pub version: String,
    pub released_at: Option<String>,
    /// `spec.valuesSchema.openAPIv3`, when present.
    pub values_schema: Option<J>,
    pub kubernetes_constraints: Option<String>,
    pub kapp_controller_constraints: Option<String>,
    /// The whole document.
    pub document: J,
}

/// One PackageMetadata document.
#[derive(Debug, Clone)]
pub struct PackageMetadata {
    pub origin: String,
    pub name: String,
    pub display_name: Option<String>,
    pub short_description: Option<String>,
    pub document: J,
}

/// Everything a source offers, in the order read (files sorted by path).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// The location as given.
    pub location: String,
    pub packages: Vec<Package>,
    /// PackageMetadata by `metadata.name` (the refName).
    pub metadata: BTreeMap<String, PackageMetadata>,
}

impl Catalog {
    /// The refNames on offer, sorted, with or without metadata.
    pub fn ref_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.packages.iter().map(|p| p.ref_name.as_str()).collect();
        names.extend(self.metadata.keys().map(String::as_str));
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The Packages of `ref_name`, in the order read.
    pub fn versions_of<'a>(&'a self, ref_name: &'a str) -> impl Iterator<Item = &'a Package> + 'a {
        self.packages.iter().filter(move |p| p.ref_name == ref_name)
    }

    fn add_documents(&mut self, text: &str, origin: &str) -> Result<()> {
        let set = crate::yaml::parse_document_set(text, origin).map_err(|e| {
            SourceError::Invalid(format!(
                "{origin}{}: {}",
                e.line.map(|l| format!(":{l}")).unwrap_or_default(),
                e.message
            ))
        })?;
        for (index, doc) in set.docs.iter().filter(|d| !d.injected).enumerate() {
            let value = doc.value.to_value();
            if value.is_empty_document() {
                continue;
            }
            let document = to_json(&value);
            let here = if set.docs.len() > 1 {
                format!("{origin} (document {})", index + 1)
            } else {
                origin.to_string()
            };
            self.add_document(document, here)?;
        }
        Ok(())
    }

    fn add_document(&mut self, document: J, origin: String) -> Result<()> {
        if document.get("apiVersion").and_then(J::as_str) != Some(DATA_PACKAGING_API) {
            return Ok(());
        }
        let text = |pointer: &str| {
            document
                .pointer(pointer)
                .and_then(J::as_str)
                .map(str::to_string)
        };
        match document.get("kind").and_then(J::as_str) {
            Some("Package") => {
                let required = |pointer: &str| {
                    text(pointer).filter(|s| !s.is_empty()).ok_or_else(|| {
                        SourceError::Invalid(format!(
                            "{origin}: Package has no {}",
                            pointer.trim_start_matches('/').replace('/', ".")
                        ))
                    })
                };
                let package = Package {
                    ref_name: required("/spec/refName")?,
                    version: required("/spec/version")?,
                    released_at: text("/spec/releasedAt"),
                    values_schema: document.pointer("/spec/valuesSchema/openAPIv3").cloned(),
                    kubernetes_constraints: text("/spec/kubernetesVersionSelection/constraints"),
                    kapp_controller_constraints: text(
                        "/spec/kappControllerVersionSelection/constraints",
                    ),
                    origin,
                    document,
                };
                self.packages.push(package);
            }
            Some("PackageMetadata") => {
                let name = text("/metadata/name").ok_or_else(|| {
                    SourceError::Invalid(format!("{origin}: PackageMetadata has no metadata.name"))
                })?;
                let metadata = PackageMetadata {
                    display_name: text("/spec/displayName"),
                    short_description: text("/spec/shortDescription"),
                    name: name.clone(),
                    origin,
                    document,
                };
                self.metadata.insert(name, metadata);
            }
            _ => {}
        }
        Ok(())
    }
}

fn is_yaml(path: &str) -> bool {
    path.ends_with(".yml") || path.ends_with(".yaml")
}

/// Reads the catalog `location` names. A path that exists on disk (without an `oci:` or
/// `tar:` prefix) is an extracted repository (its `packages/` folder, or the whole
/// folder when it has none) or a single YAML file; anything else is a bundle location.
pub async fn read_location(location: &str, registry: &RegistryOptions) -> Result<Catalog> {
    let path = Path::new(location);
    let prefixed = location.starts_with(crate::oci::location::LAYOUT_PREFIX)
        || location.starts_with(crate::oci::location::TARBALL_PREFIX);
    if !prefixed && path.exists() {
        let location = location.to_string();
        return tokio::task::spawn_blocking(move || read_path(Path::new(&location)))
            .await
            .map_err(|e| SourceError::Invalid(format!("internal error: {e}")))?;
    }
    let parsed = Location::parse(location)?;
    let opened = open_source(&parsed, registry).await?;
    let reference = opened.reference.ok_or_else(|| {
        SourceError::Invalid(format!(
            "{location}: name a tag or digest of the repository bundle"
        ))
    })?;
    let mut catalog = read_bundle(opened.store.as_ref(), &reference).await?;
    catalog.location = location.to_string();
    Ok(catalog)
}

/// Reads the Packages of several locations into one catalog.
pub async fn read_locations(locations: &[String], registry: &RegistryOptions) -> Result<Catalog> {
    let mut all = Catalog {
        location: locations.join(", "),
        ..Catalog::default()
    };
    for location in locations {
        let one = read_location(location, registry).await?;
        all.packages.extend(one.packages);
        all.metadata.extend(one.metadata);
    }
    Ok(all)
}

/// Reads an extracted repository directory or one file.
pub fn read_path(path: &Path) -> Result<Catalog> {
    let mut catalog = Catalog {
        location: path.display().to_string(),
        ..Catalog::default()
    };
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .map_err(|e| SourceError::Invalid(format!("reading '{}': {e}", p.display())))
    };
    if path.is_file() {
        catalog.add_documents(&read(path)?, &path.display().to_string())?;
        return Ok(catalog);
    }
    let root = if path.join("packages").is_dir() {
        path.join("packages")
    } else {
        path.to_path_buf()
    };
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&root).follow_links(true) {
        let entry = entry
            .map_err(|e| SourceError::Invalid(format!("reading '{}': {e}", root.display())))?;
        if entry.file_type().is_file() && is_yaml(&entry.file_name().to_string_lossy()) {
            files.push(entry.into_path());
        }
    }
    files.sort();
    for file in files {
        catalog.add_documents(&read(&file)?, &file.display().to_string())?;
    }
    Ok(catalog)
}

/// Reads a repository bundle: its `packages/**/*.yml` files.
pub async fn read_bundle(store: &dyn Store, reference: &str) -> Result<Catalog> {
    let image = fetch_bundle_image(store, reference).await?;
    let here = format!("{}@{}", store.location(), image.manifest.digest);
    let scratch = std::env::temp_dir();
    let layer = download_blob(store, &image.layer, &scratch).await?;
    let label = here.clone();
    let (files, has_packages) =
        tokio::task::spawn_blocking(move || packages_files(layer.path(), &label))
            .await
            .map_err(|e| SourceError::Invalid(format!("internal error: {e}")))??;
    if !has_packages {
        return Err(SourceError::Invalid(format!(
            "{here}: Invalid package repository content: must contain 'packages/' directory but did not"
        )));
    }
    let mut catalog = Catalog {
        location: here.clone(),
        ..Catalog::default()
    };
    for (path, bytes) in files {
        let origin = format!("{here}:{path}");
        let text = String::from_utf8(bytes)
            .map_err(|_| SourceError::Invalid(format!("{origin}: not UTF-8 text")))?;
        catalog.add_documents(&text, &origin)?;
    }
    Ok(catalog)
}

/// The YAML files under `packages/` of a gzip'd layer tar, by path (sorted), and whether
/// the layer has a `packages/` folder at all.
fn packages_files(layer: &Path, label: &str) -> Result<(BTreeMap<String, Vec<u8>>, bool)> {
    let io = |e: std::io::Error| SourceError::Invalid(format!("{label}: reading the layer: {e}"));
    let file = std::fs::File::open(layer).map_err(io)?;
    let gz = flate2::read::MultiGzDecoder::new(std::io::BufReader::with_capacity(1 << 20, file));
    let mut archive = tar::Archive::new(gz);
    let mut files = BTreeMap::new();
    let mut saw_packages = false;
    for entry in archive.entries().map_err(io)? {
        let mut entry = entry.map_err(io)?;
        let kind = entry.header().entry_type();
        let raw = entry.path_bytes().into_owned();
        let Ok(Some(rel)) = crate::bundle::extract::safe_relative_path(&raw) else {
            continue;
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel == "packages" || rel.starts_with("packages/") {
            saw_packages = true;
        }
        if !(kind.is_file() && rel.starts_with("packages/") && is_yaml(&rel)) {
            continue;
        }
        let size = entry.header().size().map_err(io)?;
        if size > FILE_LIMIT {
            return Err(SourceError::Invalid(format!(
                "{label}:{rel}: {size} bytes, more than a Package file should be"
            )));
        }
        let mut bytes = Vec::with_capacity(size as usize);
        entry.read_to_end(&mut bytes).map_err(io)?;
        files.insert(rel, bytes);
    }
    Ok((files, saw_packages))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_packages_and_metadata() {
        let mut catalog = Catalog::default();
        let text = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: a.b.c.1.0.0\nspec:\n  refName: a.b.c\n  version: 1.0.0\n  valuesSchema:\n    openAPIv3:\n      type: object\n---\napiVersion: v1\nkind: ConfigMap\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: a.b.c\nspec:\n  displayName: ABC\n";
        catalog.add_documents(text, "repo.yml").unwrap();
        assert_eq!(catalog.packages.len(), 1);
        assert_eq!(catalog.packages[0].version, "1.0.0");
        assert!(catalog.packages[0].values_schema.is_some());
        assert_eq!(
            catalog.metadata["a.b.c"].display_name.as_deref(),
            Some("ABC")
        );
        assert_eq!(catalog.ref_names(), ["a.b.c"]);
    }

    #[test]
    fn a_package_without_version_names_the_file() {
        let mut catalog = Catalog::default();
        let text = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nspec:\n  refName: a.b.c\n";
        let error = catalog
            .add_documents(text, "p.yml")
            .unwrap_err()
            .to_string();
        assert_eq!(error, "p.yml: Package has no spec.version");
    }
}
