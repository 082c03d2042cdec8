//! `package repository release`: the repository bundle (`packages/**` +
//! `.imgpkg/images.yml` locking every package bundle, with `kbld.carvel.dev/id` as kbld
//! writes it), merged with the versions already released in an earlier repository bundle
//! (`--from`, or the repository's highest tag not above the version), pushed tagged with the
//! repository version, and `package-repository.yml`.
//!
//! A merge never changes a released version: the same Package name with other content is
//! an error naming both places. Everything is checked before the push; the tag is put last.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::bundle::pull::{PullOptions, pull_bundle};
use crate::lock::output::images_lock;
use crate::lock::resolve::Resolved;
use crate::oci::Reference;
use crate::oci::location::{LAYOUT_PREFIX, Location};
use crate::oci::registry::RegistryOptions;
use crate::package::artifacts::Staged;
use crate::package::build_files::{PKGREPO_BUILD_FILE, read_documents, read_pkgrepo_build};
use crate::package::release::{check_released_at, default_tag, load_resources};
use crate::package::resources::Resources;
use crate::package::stores::{BundleStage, PushedBundle, open_bundle, open_existing_repository};
use crate::package::yaml_doc::{parse_documents, to_json, to_kctrl_yaml};
use crate::package::{PackageError, kapp_rules, step};

/// The file written next to `packages/`.
pub const PACKAGE_REPOSITORY_FILE: &str = "package-repository.yml";

/// The repository bundle location when none is named: an OCI layout under `build/`.
pub fn default_repository_repo(name: &str) -> String {
    format!("{LAYOUT_PREFIX}build/bundles/{name}")
}

/// Settings of one repository release.
#[derive(Clone, Debug, Default)]
pub struct RepositoryOptions {
    /// The directory holding `packages/` and `pkgrepo-build.yml` (`--chdir`).
    pub dir: PathBuf,
    pub version: String,
    /// `--repo`: the bundle repository (registry or `oci:DIR`); overrides the build file's.
    pub repo: Option<String>,
    /// `--name`: the PackageRepository name, when there is no pkgrepo-build.yml.
    pub name: Option<String>,
    /// `--from`: the repository bundle to merge with (a tag or digest reference).
    pub from: Option<String>,
    /// `metadata.creationTimestamp` (RFC 3339); `None` writes `null`.
    pub created_at: Option<String>,
    pub templates: Option<PathBuf>,
    pub registry: RegistryOptions,
}

/// What a repository release did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RepositoryOutcome {
    pub name: String,
    pub version: String,
    pub bundle: String,
    /// Where it is stored (`repo@sha256:…` or `oci:DIR@sha256:…`).
    pub stored_at: String,
    pub tagged: String,
    /// The bundle merged with, if any.
    pub merged_from: Option<String>,
    /// `refName/version` of every Package in the bundle.
    pub packages: Vec<String>,
    pub artifacts: Vec<PathBuf>,
}

/// One file under `packages/` and what it holds.
#[derive(Clone, Debug)]
struct PackageFile {
    /// Path below `packages/`.
    rel: PathBuf,
    /// Where the bytes are now.
    source: PathBuf,
    /// Package names (`refName.version`) → the document.
    packages: BTreeMap<String, Value>,
    /// PackageMetadata names.
    metadata: BTreeSet<String>,
}

/// Reads every file below `root` (a `packages/` directory), validating each document.
fn read_packages(
    root: &Path,
    resources: &Resources,
    shown: &str,
) -> Result<Vec<PackageFile>, PackageError> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.map_err(|e| PackageError::Other(format!("{}: {e}", root.display())))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(root)
            .expect("below root")
            .to_path_buf();
        let name = format!("{shown}/{}", rel.display());
        let mut file = PackageFile {
            rel: rel.clone(),
            source: entry.path().to_path_buf(),
            packages: BTreeMap::new(),
            metadata: BTreeSet::new(),
        };
        let is_yaml = rel.extension().is_some_and(|e| e == "yml" || e == "yaml");
        if is_yaml {
            let docs = read_documents(entry.path())?;
            for (i, doc) in docs.into_iter().enumerate() {
                let kind = doc["kind"].as_str().unwrap_or("").to_string();
                let origin = format!("{name} (document {})", i + 1);
                match kind.as_str() {
                    "Package" | "PackageMetadata" => resources.validate(&kind, &doc, &origin)?,
                    _ => {
                        return Err(PackageError::Other(format!(
                            "{origin}: kind: {kind:?}; a repository holds only Package and PackageMetadata documents"
                        )));
                    }
                }
                let doc_name = doc["metadata"]["name"].as_str().unwrap_or("").to_string();
                if kind == "Package" {
                    file.packages.insert(doc_name, doc);
                } else {
                    file.metadata.insert(doc_name);
                }
            }
        }
        files.push(file);
    }
    Ok(files)
}

/// The highest semver tag of `repo` that is not above `version`.
async fn previous_tag(
    repo: &str,
    dir: &Path,
    version: &str,
    registry: &RegistryOptions,
) -> Result<Option<String>, PackageError> {
    let Some(store) = open_existing_repository(repo, dir, registry)? else {
        return Ok(None);
    };
    let tags = match store.list_tags().await {
        Ok(t) => t,
        Err(e) if crate::bundle::pull::is_absent(&e) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let wanted = semver::Version::parse(version).ok();
    let mut best: Option<(semver::Version, String)> = None;
    for t in tags {
        let Ok(v) = semver::Version::parse(&t.replacen('_', "+", 1)) else {
            continue;
        };
        if wanted.as_ref().is_some_and(|w| v.cmp_precedence(w).is_gt()) {
            continue;
        }
        if best
            .as_ref()
            .is_none_or(|(b, _)| v.cmp_precedence(b).is_gt())
        {
            best = Some((v, t));
        }
    }
    Ok(best.map(|(_, t)| with_tag(repo, &t)))
}

fn with_tag(repo: &str, tag: &str) -> String {
    format!("{repo}:{tag}")
}

/// Pulls `from` into a temporary directory under `dir`; returns it and its `packages/`.
async fn pull_previous(
    dir: &Path,
    from: &str,
    registry: &RegistryOptions,
) -> Result<(tempfile::TempDir, PathBuf), PackageError> {
    let (store, reference) = open_bundle(from, dir, registry).await?;
    let holder = tempfile::Builder::new()
        .prefix(".strake-previous-")
        .tempdir_in(dir)
        .map_err(|source| PackageError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    let out = holder.path().join("bundle");
    pull_bundle(
        store.as_ref(),
        &reference,
        &out,
        &PullOptions::default(),
        None,
    )
    .await?;
    Ok((holder, out.join("packages")))
}

/// Merges the previous bundle's files into the local ones.
fn merge(
    local: Vec<PackageFile>,
    previous: Vec<PackageFile>,
    from: &str,
) -> Result<Vec<PackageFile>, PackageError> {
    let local_packages: BTreeMap<&str, (&Value, &Path)> = local
        .iter()
        .flat_map(|f| {
            f.packages
                .iter()
                .map(move |(n, d)| (n.as_str(), (d, f.rel.as_path())))
        })
        .collect();
    let local_metadata: BTreeSet<&str> = local
        .iter()
        .flat_map(|f| f.metadata.iter().map(String::as_str))
        .collect();
    let local_paths: BTreeSet<&Path> = local.iter().map(|f| f.rel.as_path()).collect();
    let mut added = Vec::new();
    for old in previous {
        let mut all_here = true;
        for (name, doc) in &old.packages {
            match local_packages.get(name.as_str()) {
                Some((ours, path)) if *ours != doc => {
                    return Err(PackageError::Other(format!(
                        "Package {name} is already in the repository ({from}, packages/{}) with other content than packages/{}; a released version never changes: release it as a new version",
                        old.rel.display(),
                        path.display()
                    )));
                }
                Some(_) => {}
                None => all_here = false,
            }
        }
        let only_known_metadata = old
            .metadata
            .iter()
            .all(|m| local_metadata.contains(m.as_str()));
        let redundant = all_here && only_known_metadata;
        if local_paths.contains(old.rel.as_path()) {
            if !all_here {
                return Err(PackageError::Other(format!(
                    "packages/{} holds versions in {from} that the local file of that name does not: rename the local file",
                    old.rel.display()
                )));
            }
            continue;
        }
        if !redundant {
            added.push(old);
        }
    }
    let mut merged = local;
    merged.extend(added);
    merged.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(merged)
}

/// The bundle reference each Package fetches, checked to be by digest.
fn bundle_images(files: &[PackageFile]) -> Result<BTreeMap<String, Resolved>, PackageError> {
    let mut entries = BTreeMap::new();
    for f in files {
        for (name, doc) in &f.packages {
            let fetch = doc["spec"]["template"]["spec"]["fetch"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            for (i, step) in fetch.iter().enumerate() {
                let Some(image) = step["imgpkgBundle"]["image"].as_str() else {
                    continue;
                };
                let field = format!(
                    "packages/{} ({name}): spec.template.spec.fetch[{i}].imgpkgBundle.image",
                    f.rel.display()
                );
                let url = if image.starts_with(LAYOUT_PREFIX) {
                    match Location::parse(image)? {
                        Location::Layout {
                            reference: Some(r), ..
                        } if r.starts_with("sha256:") => image.to_string(),
                        _ => {
                            return Err(PackageError::Other(format!(
                                "{field}: {image:?} is not a bundle by digest (oci:DIR@sha256:…)"
                            )));
                        }
                    }
                } else {
                    let r = Reference::parse(image)
                        .map_err(|e| PackageError::Other(format!("{field}: {e}")))?;
                    match r.digest() {
                        Some(d) => format!("{}@{d}", r.name()),
                        None => {
                            return Err(PackageError::Other(format!(
                                "{field}: {image:?} is not pinned to a digest (release the package with `strake package release`)"
                            )));
                        }
                    }
                };
                entries.insert(
                    image.to_string(),
                    Resolved {
                        url,
                        origins: Vec::new(),
                    },
                );
            }
        }
    }
    Ok(entries)
}

/// Runs a repository release; `progress` gets one line per step done.
pub async fn release_repository(
    o: &RepositoryOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<RepositoryOutcome, PackageError> {
    let dir = &o.dir;
    let resources = step("templates", load_resources(dir, o.templates.as_deref()))?;
    let v = kapp_rules::version_errors("--version", &o.version);
    if !v.is_empty() {
        return Err(PackageError::Usage(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    if let Some(at) = &o.created_at {
        check_released_at(at)?;
    }

    // 1. The build file, or the flags that make one.
    let build_path = dir.join(PKGREPO_BUILD_FILE);
    let mut staged = Staged::default();
    let (name, repo) = if build_path.exists() {
        let b = step(
            "read build file",
            read_pkgrepo_build(&build_path, &resources),
        )?;
        let repo = o
            .repo
            .clone()
            .or(b.image)
            .unwrap_or_else(|| default_repository_repo(&b.name));
        (b.name, repo)
    } else {
        let name = o.name.clone().ok_or_else(|| {
            PackageError::Usage(format!(
                "no {PKGREPO_BUILD_FILE} in {}: give --name (and --repo) to create one",
                dir.display()
            ))
        })?;
        let repo = o
            .repo
            .clone()
            .unwrap_or_else(|| default_repository_repo(&name));
        let doc = step(
            "read build file",
            resources.render_document(
                "pkgrepo-build.yml.j2",
                &json!({"name": name, "image": repo, "creation_timestamp": o.created_at}),
                PKGREPO_BUILD_FILE,
            ),
        )?;
        staged.add(
            &build_path,
            to_kctrl_yaml(&doc).map_err(PackageError::Other)?.as_bytes(),
        )?;
        (name, repo)
    };
    if name.is_empty() {
        return Err(PackageError::File {
            path: build_path,
            message: "metadata.name: Required value".into(),
        });
    }
    let packages_dir = dir.join("packages");
    if !packages_dir.is_dir() {
        return Err(PackageError::Usage(format!(
            "{}: no packages directory (release packages with --repo-output first)",
            packages_dir.display()
        )));
    }
    let local = step(
        "read packages",
        read_packages(&packages_dir, &resources, "packages"),
    )?;
    progress(&format!("read packages/: {} files", local.len()));

    // 2. Merge with the previous bundle.
    let from = match &o.from {
        Some(f) => Some(f.clone()),
        None => step(
            "merge",
            previous_tag(&repo, dir, &o.version, &o.registry).await,
        )?,
    };
    let mut _previous_dir = None;
    let merged = match &from {
        Some(f) => {
            let (holder, old_packages) = step("merge", pull_previous(dir, f, &o.registry).await)?;
            let previous = if old_packages.is_dir() {
                step("merge", read_packages(&old_packages, &resources, f))?
            } else {
                Vec::new()
            };
            let merged = step("merge", merge(local, previous, f))?;
            progress(&format!("merge: with {f}"));
            _previous_dir = Some(holder);
            merged
        }
        None => local,
    };

    // 3. Lock the package bundles; stage the bundle.
    let entries = step("lock", bundle_images(&merged))?;
    let lock_text = images_lock(&entries);
    let lock_doc =
        parse_documents(&lock_text, ".imgpkg/images.yml").map_err(PackageError::Other)?;
    if let Some(doc) = lock_doc.first() {
        step(
            "lock",
            resources.validate("ImagesLock", &to_json(doc), ".imgpkg/images.yml"),
        )?;
    }
    progress(&format!(
        "lock: {} package bundles -> .imgpkg/images.yml",
        entries.len()
    ));
    let stage = BundleStage::new(dir, ".strake-repo-bundle-")?;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PackageError::Io { path, source }
    };
    for f in &merged {
        let to = stage.path().join("packages").join(&f.rel);
        let parent = to.parent().expect("below packages/");
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        if std::fs::hard_link(&f.source, &to).is_err() {
            std::fs::copy(&f.source, &to).map_err(io(&f.source))?;
        }
    }
    stage.write_images_lock(&lock_text)?;

    // 4. Push without a tag, then the PackageRepository.
    let PushedBundle {
        destination: dest,
        result: _,
        manifest,
        reference: bundle,
        stored_at,
    } = stage.push_untagged(&repo, dir, &o.registry).await?;
    progress(&format!("bundle: {stored_at}"));
    let doc = step(
        "package repository",
        resources.render_document(
            "packagerepository.yml.j2",
            &json!({"name": name, "version": o.version, "image": bundle, "creation_timestamp": o.created_at}),
            PACKAGE_REPOSITORY_FILE,
        ),
    )?;
    staged.add(
        &dir.join(PACKAGE_REPOSITORY_FILE),
        to_kctrl_yaml(&doc).map_err(PackageError::Other)?.as_bytes(),
    )?;

    // 5. Tag, then the files.
    let tag = default_tag(&o.version);
    let (tagged, artifacts) = dest
        .tag_then_commit(&manifest, &tag, staged, dir, progress)
        .await?;
    let packages = merged
        .iter()
        .flat_map(|f| f.packages.values())
        .map(|d| {
            format!(
                "{}/{}",
                d["spec"]["refName"].as_str().unwrap_or(""),
                d["spec"]["version"].as_str().unwrap_or("")
            )
        })
        .collect();
    Ok(RepositoryOutcome {
        name,
        version: o.version.clone(),
        bundle,
        stored_at,
        tagged,
        merged_from: from,
        packages,
        artifacts,
    })
}
