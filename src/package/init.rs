//! `package init`: writes kctrl's `package-build.yml` and `package-resources.yml` for a
//! local directory source, from the templates, validated, both files or neither.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::package::PackageError;
use crate::package::artifacts::Staged;
use crate::package::build_files::{PACKAGE_BUILD_FILE, PACKAGE_RESOURCES_FILE};
use crate::package::kapp_rules::fully_qualified_name_errors;
use crate::package::release::load_resources;
use crate::package::yaml_doc::to_kctrl_yaml;

/// What `package init` needs.
#[derive(Clone, Debug, Default)]
pub struct InitOptions {
    pub dir: PathBuf,
    /// The package refName (at least three dot-separated segments).
    pub ref_name: String,
    /// Directories or files holding the ytt templates, relative to `dir`.
    pub paths: Vec<String>,
    /// The bundle repository (`export[0].imgpkgBundle.image`), if known.
    pub bundle: Option<String>,
    pub templates: Option<PathBuf>,
}

/// Writes the two files; returns their paths.
pub fn init_package(o: &InitOptions) -> Result<Vec<PathBuf>, PackageError> {
    let errors = fully_qualified_name_errors("--name", &o.ref_name);
    if let Some(e) = errors.first() {
        return Err(PackageError::Usage(format!(
            "{e} (e.g. samplepackage.corp.com)"
        )));
    }
    if o.paths.is_empty() {
        return Err(PackageError::Usage(
            "--paths: name the files or directories that hold the Kubernetes manifests".into(),
        ));
    }
    for p in &o.paths {
        if !o.dir.join(p).exists() {
            return Err(PackageError::Usage(format!(
                "--paths {p}: no such file or directory in {}",
                o.dir.display()
            )));
        }
    }
    let resources = load_resources(&o.dir, o.templates.as_deref())?;
    let app_spec = json!({
        "deploy": [{"kapp": {}}],
        "template": [{"ytt": {"paths": o.paths}}, {"kbld": {}}],
    });
    let mut export = json!({"includePaths": o.paths});
    if let Some(image) = &o.bundle {
        export["imgpkgBundle"] = json!({"image": image, "useKbldImagesLock": true});
    }
    let display_name = o.ref_name.split('.').next().unwrap_or_default();
    let build = resources.render_document(
        "package-build.yml.j2",
        &json!({"ref_name": o.ref_name, "app_spec": app_spec, "export": [export],
                "release": if o.bundle.is_some() { json!([{"resource": {}}]) } else { serde_json::Value::Null }}),
        PACKAGE_BUILD_FILE,
    )?;
    let docs = resources.render_documents(
        "package-resources.yml.j2",
        &json!({"ref_name": o.ref_name, "display_name": display_name,
                "short_description": o.ref_name, "long_description": o.ref_name,
                "app_spec": app_spec}),
        PACKAGE_RESOURCES_FILE,
    )?;
    let mut staged = Staged::default();
    let text = to_kctrl_yaml(&build).map_err(PackageError::Other)?;
    staged.add(&o.dir.join(PACKAGE_BUILD_FILE), text.as_bytes())?;
    let mut resources_text = String::new();
    for (i, doc) in docs.iter().enumerate() {
        if i > 0 {
            resources_text.push_str("\n---\n");
        }
        resources_text.push_str(&to_kctrl_yaml(doc).map_err(PackageError::Other)?);
    }
    staged.add(
        &o.dir.join(PACKAGE_RESOURCES_FILE),
        resources_text.as_bytes(),
    )?;
    staged.commit()
}

/// Whether `dir` already holds a build file.
pub fn has_build_files(dir: &Path) -> bool {
    dir.join(PACKAGE_BUILD_FILE).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/imgpkg/package");

    #[test]
    fn writes_what_kctrl_init_writes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("config")).unwrap();
        let written = init_package(&InitOptions {
            dir: dir.path().to_path_buf(),
            ref_name: "demo.conformance.example.com".into(),
            paths: vec!["config".into()],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(written.len(), 2);
        for name in [PACKAGE_BUILD_FILE, PACKAGE_RESOURCES_FILE] {
            let ours = std::fs::read_to_string(dir.path().join(name)).unwrap();
            let kctrl =
                std::fs::read_to_string(Path::new(FIXTURE).join("after-init").join(name)).unwrap();
            assert_eq!(ours, kctrl, "{name}");
        }
        let bad = init_package(&InitOptions {
            dir: dir.path().to_path_buf(),
            ref_name: "demo.example".into(),
            paths: vec!["config".into()],
            ..Default::default()
        })
        .unwrap_err()
        .to_string();
        assert!(bad.contains("at least three segments"), "{bad}");
    }
}
