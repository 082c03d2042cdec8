//! The generated resources: minijinja templates (embedded from `templates/`, each one
//! replaceable by a file of the same name in a user's directory) and the JSON Schemas of
//! every kind strake writes or reads (embedded from `schemas/`, see `schemas/README.md`),
//! plus kapp-controller's own rules ([`crate::package::kapp_rules`]).
//!
//! Templates print YAML; every value they insert goes through the `tojson` filter, so a
//! string is always a quoted scalar and an object a flow mapping. The caller parses the
//! result and prints it in kctrl's layout, so a template's own formatting never leaks.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::package::kapp_rules::{self, FieldError};
use crate::package::yaml_doc::{parse_documents, to_json};

/// The templates shipped in the binary, by file name.
pub const EMBEDDED_TEMPLATES: &[(&str, &str)] = &[
    (
        "package.yml.j2",
        include_str!("../../templates/package.yml.j2"),
    ),
    (
        "packagemetadata.yml.j2",
        include_str!("../../templates/packagemetadata.yml.j2"),
    ),
    (
        "packagerepository.yml.j2",
        include_str!("../../templates/packagerepository.yml.j2"),
    ),
    (
        "package-build.yml.j2",
        include_str!("../../templates/package-build.yml.j2"),
    ),
    (
        "package-resources.yml.j2",
        include_str!("../../templates/package-resources.yml.j2"),
    ),
    (
        "pkgrepo-build.yml.j2",
        include_str!("../../templates/pkgrepo-build.yml.j2"),
    ),
];

/// The JSON Schemas shipped in the binary, by the kind they describe.
pub const EMBEDDED_SCHEMAS: &[(&str, &str)] = &[
    ("Package", include_str!("../../schemas/Package.json")),
    (
        "PackageMetadata",
        include_str!("../../schemas/PackageMetadata.json"),
    ),
    (
        "PackageRepository",
        include_str!("../../schemas/PackageRepository.json"),
    ),
    (
        "PackageInstall",
        include_str!("../../schemas/PackageInstall.json"),
    ),
    (
        "PackageBuild",
        include_str!("../../schemas/PackageBuild.json"),
    ),
    (
        "PackageRepositoryBuild",
        include_str!("../../schemas/PackageRepositoryBuild.json"),
    ),
    ("ImagesLock", include_str!("../../schemas/ImagesLock.json")),
    (
        "BundleMetadata",
        include_str!("../../schemas/BundleMetadata.json"),
    ),
];

/// What can go wrong rendering or validating a resource.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    #[error("template directory {}: {source}", dir.display())]
    TemplateDir {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
    #[error("{origin}: the rendered resource is not YAML: {message}")]
    Yaml { origin: String, message: String },
    #[error("no schema for kind {kind:?} (known: {known})")]
    UnknownKind { kind: String, known: String },
    #[error("schema {kind}: {message}")]
    Schema { kind: String, message: String },
    #[error("{origin}: invalid {kind}:{}", list(errors))]
    Invalid {
        origin: String,
        kind: String,
        errors: Vec<FieldError>,
    },
}

fn list(errors: &[FieldError]) -> String {
    errors.iter().map(|e| format!("\n  {e}")).collect()
}

/// Templates and schemas, ready to render and validate.
pub struct Resources {
    env: minijinja::Environment<'static>,
    schemas: HashMap<&'static str, &'static str>,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

impl Resources {
    /// The embedded templates and schemas.
    pub fn embedded() -> Self {
        let mut env = minijinja::Environment::new();
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_filter("tojson", tojson);
        for (name, source) in EMBEDDED_TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("embedded template {name}: {e}"));
        }
        Resources {
            env,
            schemas: EMBEDDED_SCHEMAS.iter().copied().collect(),
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// The embedded resources, with every `*.j2` file of `dir` replacing (or adding) the
    /// template of the same name.
    pub fn with_template_dir(dir: &Path) -> Result<Self, ResourceError> {
        let mut resources = Self::embedded();
        let dir_error = |source| ResourceError::TemplateDir {
            dir: dir.to_path_buf(),
            source,
        };
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .map_err(dir_error)?
            .collect::<Result<_, _>>()
            .map_err(dir_error)?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".j2") {
                continue;
            }
            let path = entry.path();
            let source = std::fs::read_to_string(&path).map_err(dir_error)?;
            resources
                .env
                .add_template_owned(name.clone(), source)
                .map_err(|e| ResourceError::Template {
                    name: path.display().to_string(),
                    message: template_message(&e),
                })?;
        }
        Ok(resources)
    }

    /// Renders template `name` with `ctx`; returns the YAML text.
    pub fn render(&self, name: &str, ctx: &serde_json::Value) -> Result<String, ResourceError> {
        let template = self
            .env
            .get_template(name)
            .map_err(|e| ResourceError::Template {
                name: name.to_string(),
                message: template_message(&e),
            })?;
        template
            .render(minijinja::value::Serde(ctx))
            .map_err(|e| ResourceError::Template {
                name: name.to_string(),
                message: template_message(&e),
            })
    }

    /// Renders template `name`, parses its documents and validates each one against the
    /// schema of its `kind`. `origin` names the file the documents are for.
    pub fn render_documents(
        &self,
        name: &str,
        ctx: &serde_json::Value,
        origin: &str,
    ) -> Result<Vec<serde_json::Value>, ResourceError> {
        let text = self.render(name, ctx)?;
        let docs = parse_documents(&text, name).map_err(|message| ResourceError::Yaml {
            origin: origin.to_string(),
            message,
        })?;
        let docs: Vec<serde_json::Value> = docs.iter().map(to_json).collect();
        for doc in &docs {
            let kind = doc.get("kind").and_then(|k| k.as_str()).unwrap_or("");
            self.validate(kind, doc, origin)?;
        }
        Ok(docs)
    }

    /// Like [`Resources::render_documents`] for a template that gives exactly one document.
    pub fn render_document(
        &self,
        name: &str,
        ctx: &serde_json::Value,
        origin: &str,
    ) -> Result<serde_json::Value, ResourceError> {
        let mut docs = self.render_documents(name, ctx, origin)?;
        if docs.len() != 1 {
            return Err(ResourceError::Yaml {
                origin: origin.to_string(),
                message: format!(
                    "template {name} gave {} documents, expected one",
                    docs.len()
                ),
            });
        }
        Ok(docs.remove(0))
    }

    /// Validates one document against `schemas/<kind>.json` and kapp-controller's own
    /// rules. The error lists every violation with its field path and names `origin`.
    pub fn validate(
        &self,
        kind: &str,
        doc: &serde_json::Value,
        origin: &str,
    ) -> Result<(), ResourceError> {
        let validator = self.validator(kind)?;
        let mut errors: Vec<FieldError> = validator
            .iter_errors(doc)
            .map(|e| FieldError {
                field: dotted_path(e.instance_path().as_str()),
                message: e.to_string(),
            })
            .collect();
        errors.extend(kapp_rules::validate(kind, doc));
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ResourceError::Invalid {
                origin: origin.to_string(),
                kind: kind.to_string(),
                errors,
            })
        }
    }

    /// The kinds there is a schema for.
    pub fn kinds(&self) -> Vec<&'static str> {
        let mut kinds: Vec<_> = self.schemas.keys().copied().collect();
        kinds.sort_unstable();
        kinds
    }

    fn validator(&self, kind: &str) -> Result<Arc<jsonschema::Validator>, ResourceError> {
        let mut cache = self.validators.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = cache.get(kind) {
            return Ok(v.clone());
        }
        let text = self
            .schemas
            .get(kind)
            .ok_or_else(|| ResourceError::UnknownKind {
                kind: kind.to_string(),
                known: self.kinds().join(", "),
            })?;
        let schema_error = |message: String| ResourceError::Schema {
            kind: kind.to_string(),
            message,
        };
        let schema: serde_json::Value =
            serde_json::from_str(text).map_err(|e| schema_error(e.to_string()))?;
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(false)
            .build(&schema)
            .map_err(|e| schema_error(e.to_string()))?;
        let validator = Arc::new(validator);
        cache.insert(kind.to_string(), validator.clone());
        Ok(validator)
    }
}

/// The `tojson` filter: any value as JSON text, which YAML reads back unchanged.
fn tojson(value: minijinja::Value) -> Result<String, minijinja::Error> {
    if value.is_undefined() {
        return Err(minijinja::Error::from(minijinja::ErrorKind::UndefinedError));
    }
    serde_json::to_string(&value)
        .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string()))
}

/// A minijinja error with its template line and cause chain.
fn template_message(e: &minijinja::Error) -> String {
    let mut message = match (e.name(), e.line()) {
        (Some(name), Some(line)) => format!("{name}:{line}: {e}"),
        _ => e.to_string(),
    };
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    message
}

/// `/spec/fetch/0/git` as `spec.fetch[0].git` (the root is `<root>`).
fn dotted_path(pointer: &str) -> String {
    let mut out = String::new();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{segment}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        }
    }
    if out.is_empty() { "<root>".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_embedded_schema_compiles() {
        let r = Resources::embedded();
        for kind in r.kinds() {
            r.validator(kind).unwrap_or_else(|e| panic!("{kind}: {e}"));
        }
    }

    #[test]
    fn field_paths_are_dotted() {
        assert_eq!(dotted_path("/spec/fetch/0/git"), "spec.fetch[0].git");
        assert_eq!(dotted_path(""), "<root>");
        assert_eq!(
            dotted_path("/metadata/annotations/a~1b"),
            "metadata.annotations.a/b"
        );
    }

    #[test]
    fn renders_and_validates_a_package_naming_every_violation() {
        let r = Resources::embedded();
        let ctx = json!({
            "ref_name": "app.test.carvel.dev", "version": "1.0.0", "released_at": null,
            "template_spec": {"fetch": [{"imgpkgBundle": {"image": "r.test/b@sha256:00"}}],
                              "template": [{"ytt": {"paths": ["config"]}}], "deploy": [{"kapp": {}}]},
            "values_schema": {"type": "object"},
        });
        let doc = r
            .render_document("package.yml.j2", &ctx, "package.yml")
            .unwrap();
        assert_eq!(doc["metadata"]["name"], "app.test.carvel.dev.1.0.0");
        assert!(doc["spec"].get("releasedAt").is_none());

        let mut bad = doc.clone();
        bad["spec"]["version"] = json!("v1.0.0");
        bad["spec"]["template"]["spec"]["fetch"][0]["imgpkgBundle"]["imagee"] = json!("x");
        let err = r
            .validate("Package", &bad, "package.yml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("package.yml: invalid Package:"), "{err}");
        assert!(
            err.contains("spec.template.spec.fetch[0].imgpkgBundle: "),
            "{err}"
        );
        assert!(err.contains("imagee"), "{err}");
        assert!(
            err.contains("spec.version: Invalid value: \"v1.0.0\""),
            "{err}"
        );
        assert!(err.contains("metadata.name: Invalid value"), "{err}");
    }

    #[test]
    fn a_template_directory_overrides_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("packagemetadata.yml.j2"),
            "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: {{ metadata.name | tojson }}\n  labels: {team: a}\nspec: {}\n",
        )
        .unwrap();
        let r = Resources::with_template_dir(dir.path()).unwrap();
        let doc = r
            .render_document(
                "packagemetadata.yml.j2",
                &json!({"metadata": {"name": "a.b.c"}, "spec": {}}),
                "m.yml",
            )
            .unwrap();
        assert_eq!(doc["metadata"]["labels"]["team"], "a");
        // The other templates stay the embedded ones.
        assert!(r.render("package-build.yml.j2", &json!({})).is_err());
        let missing = Resources::with_template_dir(&dir.path().join("nope"))
            .err()
            .unwrap()
            .to_string();
        assert!(missing.contains("nope"), "{missing}");
    }
}
