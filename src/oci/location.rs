//! Where images are, as users write it on the command line: `oci:DIR[:TAG]` or
//! `oci:DIR@sha256:…` for an OCI image layout, an imgpkg tarball path (given with
//! its own flag, see [`Location::Tarball`]), or otherwise a registry reference.
//! [`Location::parse`] reads the string; `open_source` / `open_destination` turn a
//! location into a [`Store`] plus the tag or digest to use in it.

use std::path::{Path, PathBuf};

use crate::oci::layout::LayoutStore;
use crate::oci::registry::{RegistryClient, RegistryOptions};
use crate::oci::tarball::{TarballStore, TarballWriter};
use crate::oci::{Digest, OciError, Reference, Result, Store};

/// Prefix of an OCI image layout location.
pub const LAYOUT_PREFIX: &str = "oci:";

/// A parsed location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An OCI image layout directory and, optionally, a ref name or digest in it.
    Layout {
        dir: PathBuf,
        reference: Option<String>,
    },
    /// An imgpkg tarball file.
    Tarball { path: PathBuf },
    /// A registry repository with a tag and/or digest.
    Registry(Reference),
}

impl Location {
    /// Parses `oci:DIR`, `oci:DIR:TAG`, `oci:DIR@DIGEST`, or a registry reference.
    /// In `oci:` locations the tag is the text after the last `:` when it is a
    /// valid tag and contains no `/`; otherwise the whole rest is the directory.
    pub fn parse(input: &str) -> Result<Location> {
        let Some(rest) = input.strip_prefix(LAYOUT_PREFIX) else {
            return Ok(Location::Registry(Reference::parse(input)?));
        };
        let invalid = |reason: &str| OciError::InvalidReference {
            input: input.to_string(),
            reason: reason.to_string(),
        };
        if let Some((dir, digest)) = rest.rsplit_once('@')
            && digest.contains(':')
            && !digest.contains('/')
        {
            let digest: Digest = digest.parse()?;
            if dir.is_empty() {
                return Err(invalid("no layout directory before '@'"));
            }
            return Ok(Location::Layout {
                dir: PathBuf::from(dir),
                reference: Some(digest.to_string()),
            });
        }
        let (dir, reference) = match rest.rsplit_once(':') {
            Some((dir, tag)) if is_valid_tag(tag) => (dir, Some(tag.to_string())),
            _ => (rest, None),
        };
        if dir.is_empty() {
            return Err(invalid("no layout directory after \"oci:\""));
        }
        Ok(Location::Layout {
            dir: PathBuf::from(dir),
            reference,
        })
    }

    /// A tarball location (tarballs are named by their own flag, not by prefix).
    pub fn tarball(path: impl Into<PathBuf>) -> Location {
        Location::Tarball { path: path.into() }
    }

    /// The tag or digest this location names, if any.
    pub fn reference(&self) -> Option<String> {
        match self {
            Location::Layout { reference, .. } => reference.clone(),
            Location::Tarball { .. } => None,
            Location::Registry(r) => Some(r.manifest_reference()),
        }
    }

    /// The location of `digest` in the same place: `oci:DIR@sha256:…` or
    /// `registry/repo@sha256:…`.
    pub fn digest_location(&self, digest: &Digest) -> String {
        match self {
            Location::Layout { dir, .. } => format!("{LAYOUT_PREFIX}{}@{digest}", dir.display()),
            Location::Tarball { path } => format!("{}@{digest}", path.display()),
            Location::Registry(r) => r.with_digest(digest.clone()).to_string(),
        }
    }
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
        Location::Tarball { path } => open_tarball_source(path),
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
        Location::Layout { dir, .. } => Box::new(LayoutStore::open(dir)?),
        Location::Tarball { path } => Box::new(TarballStore::open(path)?),
        Location::Registry(reference) => Box::new(open_registry(reference, registry)?),
    })
}

/// Opens a location to write to: a missing layout is created; the reference is
/// the tag or digest the location names, `None` when it names neither.
pub async fn open_destination(location: &Location, registry: &RegistryOptions) -> Result<Opened> {
    match location {
        Location::Layout { dir, reference } => open_layout_destination(dir, reference.clone()),
        Location::Tarball { path } => Err(OciError::Invalid {
            location: format!("tar:{}", path.display()),
            detail: "an imgpkg tarball records bundle metadata; write it with the bundle copy \
                     command"
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
pub async fn open_layout_source(dir: &Path, reference: Option<String>) -> Result<Opened> {
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

/// Opens an existing imgpkg tarball for reading; the reference defaults to the
/// root bundle, else to the only image in it.
pub fn open_tarball_source(path: &Path) -> Result<Opened> {
    let store = TarballStore::open(path)?;
    let reference = match store.root_bundle() {
        Some(root) => Some(root.descriptor.digest.to_string()),
        None if store.entries().len() == 1 => {
            Some(store.entries()[0].descriptor.digest.to_string())
        }
        None => None,
    };
    Ok(Opened {
        store: Box::new(store),
        reference,
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
