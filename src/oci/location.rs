//! Where images are, as users write it on the command line: `oci:DIR[:TAG]` or
//! `oci:DIR@sha256:…` for an OCI image layout, `tar:FILE[:TAG]` or
//! `tar:FILE@sha256:…` for an imgpkg tarball (what `imgpkg copy --to-tar` writes),
//! or otherwise a registry reference. [`Location::parse`] reads the string;
//! `open_source` / `open_destination` turn a location into a [`Store`] plus the
//! tag or digest to use in it.

use std::path::{Path, PathBuf};

use crate::oci::layout::LayoutStore;
use crate::oci::registry::{RegistryClient, RegistryOptions};
use crate::oci::tarball::{TarballStore, TarballWriter};
use crate::oci::{Digest, OciError, Reference, Result, Store};

/// Prefix of an OCI image layout location.
pub const LAYOUT_PREFIX: &str = "oci:";

/// Prefix of an imgpkg tarball location.
pub const TARBALL_PREFIX: &str = "tar:";

/// A parsed location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An OCI image layout directory and, optionally, a ref name or digest in it.
    Layout {
        dir: PathBuf,
        reference: Option<String>,
    },
    /// An imgpkg tarball file and, optionally, a tag or digest in it.
    Tarball {
        path: PathBuf,
        reference: Option<String>,
    },
    /// A registry repository with a tag and/or digest.
    Registry(Reference),
}

impl Location {
    /// Parses `oci:DIR`, `oci:DIR:TAG`, `oci:DIR@DIGEST`, the same forms with
    /// `tar:FILE`, or a registry reference. After a prefix, the tag is the text
    /// after the last `:` when it is a valid tag and contains no `/`; otherwise the
    /// whole rest is the path.
    pub fn parse(input: &str) -> Result<Location> {
        if let Some(rest) = input.strip_prefix(LAYOUT_PREFIX) {
            let (dir, reference) = split_path_reference(input, rest, LAYOUT_PREFIX)?;
            return Ok(Location::Layout { dir, reference });
        }
        if let Some(rest) = input.strip_prefix(TARBALL_PREFIX) {
            let (path, reference) = split_path_reference(input, rest, TARBALL_PREFIX)?;
            return Ok(Location::Tarball { path, reference });
        }
        Ok(Location::Registry(Reference::parse(input)?))
    }

    /// A tarball location naming no image.
    pub fn tarball(path: impl Into<PathBuf>) -> Location {
        Location::Tarball {
            path: path.into(),
            reference: None,
        }
    }

    /// The tag or digest this location names, if any.
    pub fn reference(&self) -> Option<String> {
        match self {
            Location::Layout { reference, .. } | Location::Tarball { reference, .. } => {
                reference.clone()
            }
            Location::Registry(r) => Some(r.manifest_reference()),
        }
    }

    /// The location of `digest` in the same place: `oci:DIR@sha256:…`,
    /// `tar:FILE@sha256:…` or `registry/repo@sha256:…`.
    pub fn digest_location(&self, digest: &Digest) -> String {
        match self {
            Location::Layout { dir, .. } => format!("{LAYOUT_PREFIX}{}@{digest}", dir.display()),
            Location::Tarball { path, .. } => {
                format!("{TARBALL_PREFIX}{}@{digest}", path.display())
            }
            Location::Registry(r) => r.with_digest(digest.clone()).to_string(),
        }
    }
}

/// Splits the rest of `input` after `prefix` into a path and an optional tag or
/// digest (`PATH`, `PATH:TAG`, `PATH@DIGEST`).
fn split_path_reference(
    input: &str,
    rest: &str,
    prefix: &str,
) -> Result<(PathBuf, Option<String>)> {
    let invalid = |reason: String| OciError::InvalidReference {
        input: input.to_string(),
        reason,
    };
    if let Some((path, digest)) = rest.rsplit_once('@')
        && digest.contains(':')
        && !digest.contains('/')
    {
        let digest: Digest = digest.parse()?;
        if path.is_empty() {
            return Err(invalid(format!("no path before '@' after {prefix:?}")));
        }
        return Ok((PathBuf::from(path), Some(digest.to_string())));
    }
    let (path, reference) = match rest.rsplit_once(':') {
        Some((path, tag)) if is_valid_tag(tag) => (path, Some(tag.to_string())),
        _ => (rest, None),
    };
    if path.is_empty() {
        let what = if prefix == LAYOUT_PREFIX {
            "layout directory"
        } else {
            "tarball file"
        };
        return Err(invalid(format!("no {what} after {prefix:?}")));
    }
    Ok((PathBuf::from(path), reference))
}

/// A tag as the distribution spec defines it: `[A-Za-z0-9_][A-Za-z0-9._-]{0,127}`.
pub fn is_valid_tag(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 128
        && (bytes[0].is_ascii_alphanumeric() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A store opened for a location, and the tag or digest to use in it.
pub struct Opened {
    pub store: Box<dyn Store>,
    /// The tag or digest the location names (`None`: not named).
    pub reference: Option<String>,
}

/// Opens a location to read from: a layout or tarball must exist; a registry
/// reference without tag or digest means `latest`.
pub async fn open_source(location: &Location, registry: &RegistryOptions) -> Result<Opened> {
    match location {
        Location::Layout { dir, reference } => open_layout_source(dir, reference.clone()).await,
        Location::Tarball { path, reference } => open_tarball_source(path, reference.clone()),
        Location::Registry(reference) => Ok(Opened {
            store: Box::new(open_registry(reference, registry)?),
            reference: Some(reference.manifest_reference()),
        }),
    }
}

/// Opens the store a location names, ignoring any tag or digest in it (to list
/// its tags, say). Layouts and tarballs must exist.
pub fn open_repository(location: &Location, registry: &RegistryOptions) -> Result<Box<dyn Store>> {
    Ok(match location {
        Location::Layout { dir, .. } if crate::oci::layout_archive::is_archive(dir) => {
            Box::new(crate::oci::layout_archive::LayoutArchiveStore::open(dir)?)
        }
        Location::Layout { dir, .. } => Box::new(LayoutStore::open(dir)?),
        Location::Tarball { path, .. } => Box::new(TarballStore::open(path)?),
        Location::Registry(reference) => Box::new(open_registry(reference, registry)?),
    })
}

/// Opens a location to write to: a missing layout is created; the reference is
/// the tag or digest the location names, `None` when it names neither. A tarball
/// needs per-image metadata the trait does not carry: open it with
/// [`open_tarball_destination`] instead.
pub async fn open_destination(location: &Location, registry: &RegistryOptions) -> Result<Opened> {
    match location {
        Location::Layout { dir, reference } => open_layout_destination(dir, reference.clone()),
        Location::Tarball { path, .. } => Err(OciError::Invalid {
            location: format!("{TARBALL_PREFIX}{}", path.display()),
            detail: "a tarball records per-image metadata; write it with a TarballWriter \
                     (open_tarball_destination)"
                .into(),
        }),
        Location::Registry(reference) => Ok(Opened {
            store: Box::new(open_registry(reference, registry)?),
            reference: reference
                .digest()
                .map(Digest::to_string)
                .or_else(|| reference.tag().map(str::to_string)),
        }),
    }
}

/// A registry repository store for `reference`.
pub fn open_registry(
    reference: &Reference,
    registry: &RegistryOptions,
) -> Result<crate::oci::registry::RegistryStore> {
    let client = RegistryClient::new(registry.clone())?;
    Ok(client.repository(reference.registry(), reference.repository()))
}

/// Opens a layout that must exist; without a reference, its only entry is used.
/// `dir` may also be a tar of a layout (read in place).
pub async fn open_layout_source(dir: &Path, reference: Option<String>) -> Result<Opened> {
    if crate::oci::layout_archive::is_archive(dir) {
        let store = crate::oci::layout_archive::LayoutArchiveStore::open(dir)?;
        let reference = reference.ok_or_else(|| OciError::Invalid {
            location: store.location(),
            detail: "name a tag or digest in the layout tar (oci:FILE.tar:TAG)".into(),
        })?;
        return Ok(Opened {
            store: Box::new(store),
            reference: Some(reference),
        });
    }
    let store = LayoutStore::open(dir)?;
    let reference = match reference {
        Some(r) => r,
        None => store.sole_entry().await?.descriptor.digest.to_string(),
    };
    Ok(Opened {
        store: Box::new(store),
        reference: Some(reference),
    })
}

/// Opens a layout for writing, creating it when missing.
pub fn open_layout_destination(dir: &Path, reference: Option<String>) -> Result<Opened> {
    Ok(Opened {
        store: Box::new(LayoutStore::create(dir)?),
        reference,
    })
}

/// Opens an existing imgpkg tarball for reading. Without a reference, the root
/// bundle is used, else the only image in it; a tarball holding several images
/// and no root bundle is an error listing them (name one with `@DIGEST`).
pub fn open_tarball_source(path: &Path, reference: Option<String>) -> Result<Opened> {
    let store = TarballStore::open(path)?;
    let reference = match (reference, store.root_bundle()) {
        (Some(reference), _) => reference,
        (None, Some(root)) => root.descriptor.digest.to_string(),
        (None, None) => match store.entries() {
            [only] => only.descriptor.digest.to_string(),
            [] => {
                return Err(OciError::Invalid {
                    location: store.location(),
                    detail: "the tarball holds no image".into(),
                });
            }
            several => {
                let listed: Vec<String> = several
                    .iter()
                    .map(|e| {
                        let name = e.refs.first().map(String::as_str).unwrap_or(&e.orig_ref);
                        format!(
                            "{TARBALL_PREFIX}{}@{} ({name})",
                            path.display(),
                            e.descriptor.digest
                        )
                    })
                    .collect();
                return Err(OciError::Invalid {
                    location: store.location(),
                    detail: format!(
                        "the tarball holds {} images; name one by digest: {}",
                        several.len(),
                        listed.join(", ")
                    ),
                });
            }
        },
    };
    Ok(Opened {
        store: Box::new(store),
        reference: Some(reference),
    })
}

/// Prepares an imgpkg tarball for writing (see [`TarballWriter`]).
pub fn open_tarball_destination(path: &Path) -> Result<TarballWriter> {
    TarballWriter::create(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(dir: &str, reference: Option<&str>) -> Location {
        Location::Layout {
            dir: PathBuf::from(dir),
            reference: reference.map(str::to_string),
        }
    }

    #[test]
    fn parses_layout_locations() {
        assert_eq!(Location::parse("oci:out").unwrap(), layout("out", None));
        assert_eq!(
            Location::parse("oci:/tmp/a b/out:v1.0").unwrap(),
            layout("/tmp/a b/out", Some("v1.0"))
        );
        // A ':' followed by something that is not a tag, or by a '/', is part of the dir.
        assert_eq!(
            Location::parse("oci:/tmp/x:y/out").unwrap(),
            layout("/tmp/x:y/out", None)
        );
        assert_eq!(
            Location::parse("oci:dir:bad tag").unwrap(),
            layout("dir:bad tag", None)
        );
        let digest = format!("sha256:{}", "a".repeat(64));
        assert_eq!(
            Location::parse(&format!("oci:dir@{digest}")).unwrap(),
            layout("dir", Some(&digest))
        );
        assert!(Location::parse("oci:").is_err());
        assert!(Location::parse("oci::v1").is_err());
        let err = Location::parse("oci:dir@sha256:abc")
            .unwrap_err()
            .to_string();
        assert!(err.contains("sha256:abc"), "{err}");
    }

    #[test]
    fn parses_tarball_locations() {
        let tar = |path: &str, reference: Option<&str>| Location::Tarball {
            path: PathBuf::from(path),
            reference: reference.map(str::to_string),
        };
        assert_eq!(
            Location::parse("tar:out.tar").unwrap(),
            tar("out.tar", None)
        );
        assert_eq!(
            Location::parse("tar:/tmp/a:b/out.tar:v1").unwrap(),
            tar("/tmp/a:b/out.tar", Some("v1"))
        );
        let digest: Digest = format!("sha256:{}", "c".repeat(64)).parse().unwrap();
        assert_eq!(
            Location::parse(&format!("tar:x.tar@{digest}")).unwrap(),
            tar("x.tar", Some(digest.as_str()))
        );
        assert_eq!(
            tar("x.tar", None).digest_location(&digest),
            format!("tar:x.tar@{digest}")
        );
        let err = Location::parse("tar:").unwrap_err().to_string();
        assert!(err.contains("no tarball file"), "{err}");
    }

    #[test]
    fn parses_registry_references() {
        let loc = Location::parse("127.0.0.1:5000/app:v1").unwrap();
        let Location::Registry(r) = &loc else {
            panic!("{loc:?}")
        };
        assert_eq!((r.registry(), r.repository()), ("127.0.0.1:5000", "app"));
        assert_eq!(loc.reference().as_deref(), Some("v1"));
        let digest: Digest = format!("sha256:{}", "b".repeat(64)).parse().unwrap();
        assert_eq!(
            loc.digest_location(&digest),
            format!("127.0.0.1:5000/app@{digest}")
        );
        assert_eq!(
            layout("d", None).digest_location(&digest),
            format!("oci:d@{digest}")
        );
        assert!(Location::parse("UPPER/case").is_err());
    }

    #[test]
    fn tags() {
        assert!(is_valid_tag("v1"));
        assert!(is_valid_tag("_x.y-z"));
        assert!(!is_valid_tag(".x"));
        assert!(!is_valid_tag(""));
        assert!(!is_valid_tag(&"a".repeat(129)));
    }
}
