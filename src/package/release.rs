//! `package release`: a deploy directory with kctrl's build files to a pushed package
//! bundle and its Package and PackageMetadata, in one process.
//!
//! Steps (each failure names its step): read and validate the build files → render the
//! build's ytt paths with the template engine (build values applied) → export the values
//! schema (`components.schemas.dataValues`) → lock every image (kbld rules) → push the bundle
//! (`includePaths` + `.imgpkg/images.yml`) without a tag → generate and validate the
//! Package and PackageMetadata → write them to temporary files → tag the bundle → move the
//! files into place. Nothing is tagged and no file appears unless every step before
//! succeeded.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::lock::{InputDoc, LockOptions, lock_documents};
use crate::oci::registry::RegistryOptions;
use crate::package::artifacts::Staged;
use crate::package::build_files::{
    PACKAGE_BUILD_FILE, PACKAGE_RESOURCES_FILE, PackageBuild, read_package_build,
    read_package_resources,
};
use crate::package::kapp_rules::{fully_qualified_name_errors, version_errors};
use crate::package::resources::Resources;
use crate::package::stores::{BundleStage, PushedBundle};
use crate::package::yaml_doc::{parse_documents, to_json, to_kctrl_yaml};
use crate::package::{PackageError, step};
use crate::ytt::{DataValueFlag, Options, OutputFormat};

/// Where artifacts go unless told otherwise (kctrl's `--copy-to` default).
pub const ARTIFACTS_DIR: &str = "carvel-artifacts";

/// The bundle repository when the build names none: an OCI layout per package.
pub fn default_bundle_repo(ref_name: &str) -> String {
    format!("oci:build/bundles/{ref_name}")
}

/// The default bundle tag for `version`: the version itself, with `+` (which a tag cannot
/// hold) written as `_`, so `1.2.3+build.4` is tagged `1.2.3_build.4`.
pub fn default_tag(version: &str) -> String {
    version.replace('+', "_")
}

/// Settings of one release.
#[derive(Clone, Debug, Default)]
pub struct ReleaseOptions {
    /// The directory holding package-build.yml (`--chdir`).
    pub dir: PathBuf,
    pub version: String,
    /// `--tag`; default [`default_tag`].
    pub tag: Option<String>,
    /// `--repo-output DIR` (relative to `dir`).
    pub repo_output: Option<PathBuf>,
    /// `--build-values FILE…`: data values files applied when rendering.
    pub build_values: Vec<PathBuf>,
    /// `--openapi-schema` (kctrl's default: true).
    pub openapi_schema: bool,
    /// `spec.releasedAt` (RFC 3339); `None` leaves it out.
    pub released_at: Option<String>,
    /// `--templates DIR`: the user's own copies of the templates.
    pub templates: Option<PathBuf>,
    /// Resolve image references from these OCI layouts first (`oci:DIR`).
    pub image_sources: Vec<String>,
    /// Contact no registry to resolve images.
    pub offline: bool,
    pub registry: RegistryOptions,
    /// The bundle repository for this release, instead of `export[0].imgpkgBundle.image`.
    pub bundle_repo: Option<String>,
}

/// What a release did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReleaseOutcome {
    pub ref_name: String,
    pub version: String,
    /// The bundle by digest, as the Package fetches it.
    pub bundle: String,
    /// Where it is stored (`repo@sha256:…` or `oci:DIR@sha256:…`).
    pub stored_at: String,
    /// Where the tag was put (`repo:tag`).
    pub tagged: String,
    pub diff_id: String,
    pub images_locked: usize,
    pub artifacts: Vec<PathBuf>,
}

/// `SOURCE_DATE_EPOCH` (seconds) as RFC 3339 UTC, or `None` when unset or empty.
pub fn released_at_from_epoch(epoch: Option<&str>) -> Result<Option<String>, PackageError> {
    let Some(text) = epoch.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let secs: i64 = text.parse().map_err(|_| {
        PackageError::Usage(format!(
            "SOURCE_DATE_EPOCH={text:?}: expected whole seconds since 1970"
        ))
    })?;
    Ok(Some(rfc3339_utc(secs)))
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn rfc3339_utc(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Checks a `--released-at` value: RFC 3339 date-time.
pub fn check_released_at(value: &str) -> Result<(), PackageError> {
    let re = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
        .expect("static regex");
    if re.is_match(value) {
        Ok(())
    } else {
        Err(PackageError::Usage(format!(
            "--released-at {value:?}: expected an RFC 3339 date-time such as 2024-01-02T03:04:05Z"
        )))
    }
}

/// Loads the resources: the embedded ones, or with the user's template directory.
pub fn load_resources(dir: &Path, templates: Option<&Path>) -> Result<Resources, PackageError> {
    Ok(match templates {
        Some(t) => Resources::with_template_dir(&dir.join(t))?,
        None => Resources::embedded(),
    })
}

/// The ytt step the build renders, and the kbld steps after it.
struct Pipeline {
    ytt_paths: Vec<String>,
    strict: bool,
    ignore_unknown_comments: bool,
}

const STEPS_FIELD: &str = "spec.template.spec.app.spec.template";

fn pipeline(build: &PackageBuild, file: &Path) -> Result<Pipeline, PackageError> {
    let err = |message: String| PackageError::File {
        path: file.to_path_buf(),
        message,
    };
    let steps = build.app_spec["template"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let first = steps.first().ok_or_else(|| {
        err(format!(
            "{STEPS_FIELD}: no template steps (expected a ytt step)"
        ))
    })?;
    let ytt = first
        .get("ytt")
        .ok_or_else(|| {
            let kind = first.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
            err(format!("{STEPS_FIELD}[0]: the first step must be ytt (found {kind}); strake renders ytt templates in-process"))
        })?;
    for (i, s) in steps.iter().enumerate().skip(1) {
        if s.get("kbld").is_none() {
            let kind = s
                .as_object()
                .and_then(|o| o.keys().next().cloned())
                .unwrap_or_default();
            return Err(err(format!(
                "{STEPS_FIELD}[{i}]: only kbld steps may follow the ytt step (found {kind})"
            )));
        }
    }
    if ytt.get("inline").is_some_and(|v| !v.is_null()) {
        return Err(err(format!(
            "{STEPS_FIELD}[0].ytt.inline: inline templates are not part of a package release; put the files in the directory and name them in paths"
        )));
    }
    let paths: Vec<String> = ytt["paths"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if paths.is_empty() {
        return Err(err(format!(
            "{STEPS_FIELD}[0].ytt.paths: no paths to render"
        )));
    }
    for (i, p) in paths.iter().enumerate() {
        if p == "-" {
            return Err(err(format!(
                "{STEPS_FIELD}[0].ytt.paths[{i}]: '-' (the previous step's output) has no meaning in the first step"
            )));
        }
    }
    Ok(Pipeline {
        ytt_paths: paths,
        strict: ytt["strict"].as_bool().unwrap_or(false),
        ignore_unknown_comments: ytt["ignoreUnknownComments"].as_bool().unwrap_or(false),
    })
}

fn check_paths_exist(
    dir: &Path,
    file: &Path,
    field: &str,
    paths: &[String],
) -> Result<(), PackageError> {
    for (i, p) in paths.iter().enumerate() {
        if !dir.join(p).exists() {
            return Err(PackageError::File {
                path: file.to_path_buf(),
                message: format!(
                    "{field}[{i}]: path {p:?} does not exist in {}",
                    dir.display()
                ),
            });
        }
    }
    Ok(())
}

fn ytt_options(p: &Pipeline, values: &[PathBuf]) -> Options {
    Options {
        files: p.ytt_paths.clone(),
        strict: p.strict,
        ignore_unknown_comments: p.ignore_unknown_comments,
        data_values: values
            .iter()
            .map(|v| DataValueFlag::ValuesFile(v.display().to_string()))
            .collect(),
        ..Options::default()
    }
}

fn no_stdin() -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other(
        "a package release reads no standard input",
    ))
}

/// Renders the ytt step into documents named after their templates.
fn render(dir: &Path, p: &Pipeline, values: &[PathBuf]) -> Result<Vec<InputDoc>, PackageError> {
    let options = Options {
        output_files: Some(".".into()),
        output: OutputFormat::Yaml,
        ..ytt_options(p, values)
    };
    let out = crate::ytt::run(&options, dir, &mut no_stdin)
        .map_err(|e| PackageError::Other(format!("ytt -f {}: {e}", p.ytt_paths.join(" -f "))))?;
    let mut docs = Vec::new();
    for (rel, bytes) in &out.files {
        if !(rel.ends_with(".yml") || rel.ends_with(".yaml")) {
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        docs.extend(InputDoc::parse_all(&text, rel)?);
    }
    Ok(docs)
}

/// `ytt --data-values-schema-inspect -o openapi-v3`, `components.schemas.dataValues`.
fn values_schema(dir: &Path, p: &Pipeline) -> Result<Value, PackageError> {
    let options = Options {
        output: OutputFormat::OpenApiV3,
        data_values_schema_inspect: true,
        ..ytt_options(p, &[])
    };
    let out = crate::ytt::run(&options, dir, &mut no_stdin)
        .map_err(|e| PackageError::Other(e.to_string()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let docs = parse_documents(&text, "openapi-v3").map_err(PackageError::Other)?;
    let doc = docs.first().map(to_json).unwrap_or(Value::Null);
    let schema = doc["components"]["schemas"]["dataValues"].clone();
    if schema.is_null() {
        return Err(PackageError::Other(
            "the OpenAPI document has no components.schemas.dataValues".into(),
        ));
    }
    Ok(schema)
}

/// Puts `rel` of `dir` at the same place under `stage`: hard links where possible
/// (the bytes are not copied), copies otherwise.
fn stage_path(dir: &Path, stage: &Path, rel: &str) -> Result<(), PackageError> {
    let source = dir.join(rel);
    let target = stage.join(rel);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PackageError::Io { path, source }
    };
    let md = std::fs::metadata(&source).map_err(io(&source))?;
    if md.is_file() {
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        return link_or_copy(&source, &target).map_err(io(&source));
    }
    // A symbolic link to a directory (examples/pinniped/packages/*/config) is followed.
    let source = std::fs::canonicalize(&source).map_err(io(&source))?;
    for entry in walkdir::WalkDir::new(&source).sort_by_file_name() {
        let entry = entry.map_err(|e| PackageError::Other(format!("{}: {e}", source.display())))?;
        let rel_path = entry
            .path()
            .strip_prefix(&source)
            .expect("walk stays below its root");
        let to = target.join(rel_path);
        let ft = entry.file_type();
        if ft.is_dir() {
            std::fs::create_dir_all(&to).map_err(io(&to))?;
        } else if ft.is_file() {
            link_or_copy(entry.path(), &to).map_err(io(entry.path()))?;
        } else {
            return Err(PackageError::Other(format!(
                "{}: only regular files and directories go into a bundle",
                entry.path().display()
            )));
        }
    }
    Ok(())
}

fn link_or_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    std::fs::copy(from, to).map(|_| ())
}

/// The template steps as the Package runs them: with the lock, every kbld step reads
/// the rendered output and `.imgpkg/images.yml`.
fn package_template_steps(build: &PackageBuild, use_lock: bool) -> Value {
    let steps = build.app_spec["template"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    Value::Array(
        steps
            .into_iter()
            .map(|mut s| {
                if use_lock && let Some(kbld) = s.get_mut("kbld") {
                    if !kbld.is_object() {
                        *kbld = json!({});
                    }
                    kbld["paths"] = json!(["-", ".imgpkg/images.yml"]);
                }
                s
            })
            .collect(),
    )
}

/// ObjectMeta as Go marshals it: `creationTimestamp` always present.
pub(crate) fn object_meta(meta: &Value) -> Value {
    let mut meta = match meta {
        Value::Object(_) => meta.clone(),
        _ => json!({}),
    };
    if meta.get("creationTimestamp").is_none() {
        meta["creationTimestamp"] = Value::Null;
    }
    meta
}

/// Checks what can be checked before any work: the refName and the version.
fn check_names(ref_name: &str, version: &str, build_file: &Path) -> Result<(), PackageError> {
    let name_errors = fully_qualified_name_errors("metadata.name", ref_name);
    if !name_errors.is_empty() {
        return Err(PackageError::File {
            path: build_file.to_path_buf(),
            message: format!("{} (the package refName)", name_errors[0]),
        });
    }
    let v = version_errors("--version", version);
    if !v.is_empty() {
        return Err(PackageError::Usage(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    Ok(())
}

/// Runs a release; `progress` gets one line per step done.
pub async fn release_package(
    o: &ReleaseOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<ReleaseOutcome, PackageError> {
    let dir = &o.dir;
    let build_file = dir.join(PACKAGE_BUILD_FILE);
    let resources_file = dir.join(PACKAGE_RESOURCES_FILE);

    // 1. Build files.
    let resources = step("templates", load_resources(dir, o.templates.as_deref()))?;
    let build = step(
        "read build files",
        read_package_build(&build_file, &resources),
    )?;
    let pkg_resources = step(
        "read build files",
        read_package_resources(&resources_file, &resources),
    )?;
    step(
        "check names",
        check_names(&build.ref_name, &o.version, &build_file),
    )?;
    if let Some(at) = &o.released_at {
        check_released_at(at)?;
    }
    let export = build
        .exports
        .first()
        .cloned()
        .unwrap_or(crate::package::build_files::Export {
            use_kbld_images_lock: true,
            ..Default::default()
        });
    let p = step("read build files", pipeline(&build, &build_file))?;
    step(
        "read build files",
        check_paths_exist(
            dir,
            &build_file,
            &format!("{STEPS_FIELD}[0].ytt.paths"),
            &p.ytt_paths,
        ),
    )?;
    let include_paths = if export.include_paths.is_empty() {
        p.ytt_paths.clone()
    } else {
        export.include_paths.clone()
    };
    step(
        "read build files",
        check_paths_exist(
            dir,
            &build_file,
            "spec.template.spec.export[0].includePaths",
            &include_paths,
        ),
    )?;
    for v in &o.build_values {
        if !dir.join(v).is_file() {
            return Err(PackageError::Usage(format!(
                "--build-values {}: no such file in {}",
                v.display(),
                dir.display()
            )));
        }
    }
    let repo = o
        .bundle_repo
        .clone()
        .or_else(|| export.image.clone())
        .unwrap_or_else(|| default_bundle_repo(&build.ref_name));
    let tag = o.tag.clone().unwrap_or_else(|| default_tag(&o.version));
    if !crate::oci::location::is_valid_tag(&tag) {
        return Err(PackageError::Usage(format!(
            "--tag {tag:?} is not a valid tag ([A-Za-z0-9_][A-Za-z0-9_.-]{{0,127}})"
        )));
    }
    progress(&format!(
        "read {PACKAGE_BUILD_FILE} and {PACKAGE_RESOURCES_FILE}: package {}",
        build.ref_name
    ));

    // 2. Render.
    let docs = step("render", render(dir, &p, &o.build_values))?;
    progress(&format!(
        "render: ytt -f {} ({} documents)",
        p.ytt_paths.join(" -f "),
        docs.len()
    ));

    // 3. Values schema.
    let schema = if o.openapi_schema {
        let s = step("values schema", values_schema(dir, &p))?;
        progress("values schema: components.schemas.dataValues of the ytt schema");
        Some(s)
    } else {
        None
    };

    // 4. Lock.
    let lock_options = LockOptions {
        image_sources: o.image_sources.clone(),
        offline: o.offline,
        registry: o.registry.clone(),
        ..LockOptions::default()
    };
    let locked = step("lock images", lock_documents(docs, &lock_options).await)?;
    let lock_doc =
        parse_documents(&locked.images_lock, ".imgpkg/images.yml").map_err(PackageError::Other)?;
    if let Some(doc) = lock_doc.first() {
        step(
            "lock images",
            resources.validate("ImagesLock", &to_json(doc), ".imgpkg/images.yml"),
        )?;
    }
    progress(&format!(
        "lock: {} images -> .imgpkg/images.yml",
        locked.resolved.len()
    ));

    // 5. Bundle, pushed without a tag.
    let stage = BundleStage::new(dir, ".strake-bundle-")?;
    for rel in &include_paths {
        step("bundle", stage_path(dir, stage.path(), rel))?;
    }
    stage.write_images_lock(&locked.images_lock)?;
    let PushedBundle {
        destination: dest,
        result: pushed,
        manifest,
        reference: bundle,
        stored_at,
    } = stage.push_untagged(&repo, dir, &o.registry).await?;
    progress(&format!("bundle: {stored_at} (diff_id {})", pushed.diff_id));

    // 6. Package and PackageMetadata, validated, staged.
    let template_spec = json!({
        "deploy": build.app_spec.get("deploy").cloned().unwrap_or(json!([{"kapp": {}}])),
        "fetch": [{"imgpkgBundle": {"image": bundle}}],
        "template": package_template_steps(&build, export.use_kbld_images_lock),
    });
    let ctx = json!({
        "ref_name": build.ref_name,
        "version": o.version,
        "released_at": o.released_at,
        "template_spec": template_spec,
        "values_schema": schema,
    });
    let package = step(
        "package",
        resources.render_document("package.yml.j2", &ctx, "package.yml"),
    )?;
    let meta_ctx = json!({
        "metadata": object_meta(&pkg_resources.metadata["metadata"]),
        "spec": pkg_resources.metadata.get("spec").cloned().unwrap_or(json!({})),
    });
    let metadata = step(
        "package",
        resources.render_document("packagemetadata.yml.j2", &meta_ctx, "metadata.yml"),
    )?;
    let package_yaml = to_kctrl_yaml(&package).map_err(PackageError::Other)?;
    let metadata_yaml = to_kctrl_yaml(&metadata).map_err(PackageError::Other)?;
    let mut staged = Staged::default();
    let out = dir
        .join(ARTIFACTS_DIR)
        .join("packages")
        .join(&build.ref_name);
    step(
        "write artifacts",
        staged.add(&out.join("metadata.yml"), metadata_yaml.as_bytes()),
    )?;
    step(
        "write artifacts",
        staged.add(&out.join("package.yml"), package_yaml.as_bytes()),
    )?;
    if let Some(repo_out) = &o.repo_output {
        let out = dir.join(repo_out).join("packages").join(&build.ref_name);
        step(
            "write artifacts",
            staged.add(&out.join("metadata.yml"), metadata_yaml.as_bytes()),
        )?;
        step(
            "write artifacts",
            staged.add(
                &out.join(format!("{}.yml", o.version)),
                package_yaml.as_bytes(),
            ),
        )?;
    }

    // 7. Tag, then the files.
    let (tagged, artifacts) = dest
        .tag_then_commit(&manifest, &tag, staged, dir, progress)
        .await?;
    Ok(ReleaseOutcome {
        ref_name: build.ref_name,
        version: o.version.clone(),
        bundle,
        stored_at,
        tagged,
        diff_id: pushed.diff_id.to_string(),
        images_locked: locked.resolved.len(),
        artifacts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_seconds_print_as_rfc3339() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(1_796_029_994), "2026-11-30T09:13:14Z");
        assert_eq!(released_at_from_epoch(Some("")).unwrap(), None);
        assert!(released_at_from_epoch(Some("soon")).is_err());
        assert!(check_released_at("2026-11-30T09:13:14Z").is_ok());
        assert!(check_released_at("yesterday").is_err());
    }

    #[test]
    fn tags_come_from_versions() {
        assert_eq!(default_tag("1.2.3"), "1.2.3");
        assert_eq!(default_tag("1.2.3+build.4"), "1.2.3_build.4");
    }
}
