//! Where package and repository bundles go and come from: a registry repository or an OCI
//! image layout (`oci:DIR`), opened from the location string a build file or flag gives.

use std::path::{Path, PathBuf};

use crate::bundle::push::{PushOptions, PushResult, push_bundle_untagged, tag_bundle};
use crate::oci::location::{Location, open_destination, open_repository, open_source};
use crate::oci::registry::RegistryOptions;
use crate::oci::store::ManifestBytes;
use crate::oci::{Digest, Store};
use crate::package::PackageError;
use crate::package::artifacts::Staged;
use crate::package::step;

/// A bundle's directory being assembled under the working directory (removed on drop,
/// so a failed release leaves nothing behind).
pub struct BundleStage {
    dir: tempfile::TempDir,
}

/// A bundle pushed without a tag: where it went and how Packages and locks name it.
pub struct PushedBundle {
    pub destination: Destination,
    pub result: PushResult,
    pub manifest: ManifestBytes,
    /// `repo@sha256:…` as [`Destination::digest_reference`] gives it.
    pub reference: String,
    /// Where it really is ([`Destination::stored_at`]).
    pub stored_at: String,
}

impl BundleStage {
    /// A new empty stage in `base`, its name starting with `prefix`.
    pub fn new(base: &Path, prefix: &str) -> Result<Self, PackageError> {
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(base)
            .map_err(|source| PackageError::Io {
                path: base.to_path_buf(),
                source,
            })?;
        Ok(BundleStage { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes the bundle's `.imgpkg/images.yml`.
    pub fn write_images_lock(&self, text: &str) -> Result<(), PackageError> {
        let imgpkg = self.path().join(".imgpkg");
        let file = imgpkg.join("images.yml");
        std::fs::create_dir_all(&imgpkg)
            .and_then(|()| std::fs::write(&file, text))
            .map_err(|source| PackageError::Io { path: file, source })
    }

    /// Pushes the staged directory to `repo` (relative layouts taken from `base`) without
    /// a tag, in the release step `bundle`; the stage is removed afterwards.
    pub async fn push_untagged(
        self,
        repo: &str,
        base: &Path,
        registry: &RegistryOptions,
    ) -> Result<PushedBundle, PackageError> {
        let destination = step("bundle", Destination::open(repo, base, registry).await)?;
        let (result, manifest) = step(
            "bundle",
            push_bundle_untagged(
                destination.store.as_ref(),
                &[self.path().to_path_buf()],
                &PushOptions::default(),
            )
            .await,
        )?;
        drop(self);
        let reference = destination.digest_reference(&result.digest);
        let stored_at = destination.stored_at(&result.digest);
        Ok(PushedBundle {
            destination,
            result,
            manifest,
            reference,
            stored_at,
        })
    }
}

/// A bundle destination: the store and how to name a digest in it.
pub struct Destination {
    pub store: Box<dyn Store>,
    pub location: Location,
}

impl Destination {
    /// Opens `repo` (a registry repository without tag, or `oci:DIR`) for pushing.
    /// A relative layout directory is taken relative to `base`.
    pub async fn open(
        repo: &str,
        base: &std::path::Path,
        registry: &RegistryOptions,
    ) -> Result<Self, PackageError> {
        let location = relative_to(Location::parse(repo)?, base);
        match &location {
            Location::Tarball { .. } => {
                return Err(PackageError::Usage(format!(
                    "{repo}: a bundle is pushed to a registry repository or an OCI layout (oci:DIR), not a tarball"
                )));
            }
            Location::Layout {
                reference: Some(r), ..
            } => {
                return Err(PackageError::Usage(format!(
                    "{repo}: name the layout without a tag or digest (found {r:?}); the tag comes from the version"
                )));
            }
            Location::Registry(r) if r.digest().is_some() || r.tag().is_some() => {
                return Err(PackageError::Usage(format!(
                    "{repo}: name the repository without a tag or digest; the tag comes from the version (--tag to choose it)"
                )));
            }
            _ => {}
        }
        let opened = open_destination(&location, registry).await?;
        Ok(Destination {
            store: opened.store,
            location,
        })
    }

    /// How Packages and locks name the bundle `digest`: `repo@sha256:…`. A bundle in an
    /// OCI layout has no registry name yet; it is recorded as
    /// `localhost/<layout directory name>@sha256:…` (lower-cased, other characters as
    /// `-`), a reference that `strake copy` relocates by digest. [`Self::stored_at`] says
    /// where it really is.
    pub fn digest_reference(&self, digest: &Digest) -> String {
        match &self.location {
            Location::Registry(r) => format!("{}@{digest}", r.name()),
            Location::Layout { dir, .. } => {
                format!("{LAYOUT_REGISTRY}/{}@{digest}", layout_repository_name(dir))
            }
            other => other.digest_location(digest),
        }
    }

    /// Where the tag `tag` is: `repo:tag` or `oci:DIR:tag`.
    pub fn tagged(&self, tag: &str) -> String {
        match &self.location {
            Location::Registry(r) => format!("{}:{tag}", r.name()),
            Location::Layout { dir, .. } => format!("oci:{}:{tag}", dir.display()),
            Location::Tarball { path, .. } => format!("tar:{}:{tag}", path.display()),
        }
    }

    /// The last steps of a release: tags the bundle `manifest` as `tag` (and its
    /// `sha256-<hex>.imgpkg` tag), then puts the staged files in place, so that no file
    /// names a tag that failed. `progress` gets the tag and each file (relative to `dir`).
    /// Returns where the tag is and the files written.
    pub async fn tag_then_commit(
        &self,
        manifest: &ManifestBytes,
        tag: &str,
        staged: Staged,
        dir: &Path,
        progress: &mut dyn FnMut(&str),
    ) -> Result<(String, Vec<PathBuf>), PackageError> {
        step("tag", tag_bundle(self.store.as_ref(), manifest, tag).await)?;
        let tagged = self.tagged(tag);
        progress(&format!("tag: {tagged}"));
        let artifacts = step("write artifacts", staged.commit())?;
        for a in &artifacts {
            progress(&format!(
                "artifact: {}",
                a.strip_prefix(dir).unwrap_or(a).display()
            ));
        }
        Ok((tagged, artifacts))
    }

    /// Where the bundle `digest` is: `repo@sha256:…` or `oci:DIR@sha256:…`.
    pub fn stored_at(&self, digest: &Digest) -> String {
        match &self.location {
            Location::Registry(r) => format!("{}@{digest}", r.name()),
            other => other.digest_location(digest),
        }
    }
}

/// A layout or tarball path of `location` taken relative to `base` (the `--chdir`
/// directory) when it is relative.
pub fn relative_to(location: Location, base: &std::path::Path) -> Location {
    match location {
        Location::Layout { dir, reference } if dir.is_relative() => Location::Layout {
            dir: base.join(dir),
            reference,
        },
        Location::Tarball { path, reference } if path.is_relative() => Location::Tarball {
            path: base.join(path),
            reference,
        },
        other => other,
    }
}

/// The registry part of the reference recorded for a bundle stored in an OCI layout.
pub const LAYOUT_REGISTRY: &str = "localhost";

/// A repository name for a layout directory: its last component, lower-cased, with every
/// character a repository name cannot hold written as `-`.
pub fn layout_repository_name(dir: &std::path::Path) -> String {
    let base = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let mut name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    while name.starts_with(['.', '_', '-']) {
        name.remove(0);
    }
    while name.ends_with(['.', '_', '-']) {
        name.pop();
    }
    if name.is_empty() {
        "bundle".into()
    } else {
        name
    }
}

/// Opens a bundle to read: the store and the tag or digest in it.
pub async fn open_bundle(
    location: &str,
    base: &std::path::Path,
    registry: &RegistryOptions,
) -> Result<(Box<dyn Store>, String), PackageError> {
    let parsed = relative_to(Location::parse(location)?, base);
    let opened = open_source(&parsed, registry).await?;
    let reference = opened.reference.ok_or_else(|| {
        PackageError::Usage(format!("{location}: name a tag or digest of the bundle"))
    })?;
    Ok((opened.store, reference))
}

/// Opens the repository `location` names, ignoring any tag (to list its tags), or `None`
/// when it is a layout that does not exist yet.
pub fn open_existing_repository(
    location: &str,
    base: &std::path::Path,
    registry: &RegistryOptions,
) -> Result<Option<Box<dyn Store>>, PackageError> {
    let parsed = relative_to(Location::parse(location)?, base);
    if let Location::Layout { dir, .. } = &parsed
        && !dir.join("index.json").exists()
    {
        return Ok(None);
    }
    Ok(Some(open_repository(&parsed, registry)?))
}
