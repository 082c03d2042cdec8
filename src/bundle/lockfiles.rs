//! The `.imgpkg/` metadata files and the lock files imgpkg writes, as strict
//! models (an unknown field is an error naming it, like go-yaml's `UnmarshalStrict`)
//! with writers that print exactly what imgpkg prints (`---`, sorted keys, empty
//! lists omitted, files 0600): ImagesLock (`.imgpkg/images.yml`), BundleLock,
//! Bundle metadata (`.imgpkg/bundle.yml`) and ImageLocations.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::bundle::yaml_out::{Node, document};
use crate::bundle::{BundleError, Result};
use crate::oci::Reference;

pub const API_VERSION: &str = "imgpkg.carvel.dev/v1alpha1";

fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T> {
    serde_saphyr::from_str(text)
        .map_err(|e| BundleError::invalid(format!("{file}: invalid YAML: {e}")))
}

fn check_header(api: Option<&str>, kind: Option<&str>, want_kind: &str, file: &str) -> Result<()> {
    if api != Some(API_VERSION) {
        return Err(BundleError::invalid(format!(
            "{file}: Validating apiVersion: Unknown version '{}' (known: {API_VERSION})",
            api.unwrap_or("")
        )));
    }
    if kind != Some(want_kind) {
        return Err(BundleError::invalid(format!(
            "{file}: Validating kind: Expected kind to be '{want_kind}', was '{}'",
            kind.unwrap_or("")
        )));
    }
    Ok(())
}

/// Writes `text` to `path` with mode 0600, through a temporary file renamed into
/// place, so a failed write never leaves half a file.
pub fn write_file_0600(path: &Path, text: &str) -> Result<()> {
    crate::oci::atomic::replace_file(path, text.as_bytes(), Some(0o600))
        .map_err(|e| BundleError::io(format!("writing '{}'", path.display()), e))
}

// --------------------------------------------------------------------------
// ImagesLock

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImagesLockDoc {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    images: Option<Vec<ImageRefDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageRefDoc {
    image: Option<String>,
    annotations: Option<BTreeMap<String, String>>,
}

/// One image of an ImagesLock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockedImage {
    /// The digest reference, normalised (`index.docker.io/library/…@sha256:…`).
    pub image: Reference,
    pub annotations: BTreeMap<String, String>,
}

/// `.imgpkg/images.yml`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImagesLock {
    pub images: Vec<LockedImage>,
}

impl ImagesLock {
    /// Parses and validates; `file` names the file in errors.
    pub fn parse(text: &str, file: &str) -> Result<ImagesLock> {
        let doc: ImagesLockDoc = parse_yaml(text, file)?;
        check_header(
            doc.api_version.as_deref(),
            doc.kind.as_deref(),
            "ImagesLock",
            file,
        )?;
        let mut images = Vec::new();
        for (i, item) in doc.images.unwrap_or_default().into_iter().enumerate() {
            let raw = item.image.unwrap_or_default();
            let image = Reference::parse(&raw)
                .map_err(|e| BundleError::invalid(format!("{file}: images[{i}].image: {e}")))?;
            if image.digest().is_none() {
                return Err(BundleError::invalid(format!(
                    "{file}: images[{i}].image: Expected ref to be in digest form, got '{raw}'"
                )));
            }
            images.push(LockedImage {
                image,
                annotations: item.annotations.unwrap_or_default(),
            });
        }
        Ok(ImagesLock { images })
    }

    pub fn read(path: &Path) -> Result<ImagesLock> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BundleError::io(format!("reading '{}'", path.display()), e))?;
        ImagesLock::parse(&text, &path.display().to_string())
    }

    /// imgpkg's serialisation.
    pub fn to_yaml(&self) -> String {
        let mut root = vec![("apiVersion".to_string(), Node::Str(API_VERSION.into()))];
        if !self.images.is_empty() {
            let items = self
                .images
                .iter()
                .map(|img| {
                    let mut m = Vec::new();
                    if !img.annotations.is_empty() {
                        m.push((
                            "annotations".to_string(),
                            Node::Map(
                                img.annotations
                                    .iter()
                                    .map(|(k, v)| (k.clone(), Node::Str(v.clone())))
                                    .collect(),
                            ),
                        ));
                    }
                    m.push(("image".to_string(), Node::Str(img.image.to_string())));
                    Node::Map(m)
                })
                .collect();
            root.push(("images".to_string(), Node::List(items)));
        }
        root.push(("kind".to_string(), Node::Str("ImagesLock".into())));
        document(&Node::Map(root))
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        write_file_0600(path, &self.to_yaml())
    }
}

// --------------------------------------------------------------------------
// BundleLock

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BundleLockDoc {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    bundle: Option<BundleRefDoc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BundleRefDoc {
    image: Option<String>,
    tag: Option<String>,
}

/// `imgpkg push --lock-output`: where a bundle went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleLock {
    /// Digest reference of the bundle.
    pub image: String,
    /// The tag it was pushed with (empty when none).
    pub tag: String,
}

impl BundleLock {
    pub fn parse(text: &str, file: &str) -> Result<BundleLock> {
        let doc: BundleLockDoc = parse_yaml(text, file)?;
        check_header(
            doc.api_version.as_deref(),
            doc.kind.as_deref(),
            "BundleLock",
            file,
        )?;
        let b = doc.bundle.unwrap_or(BundleRefDoc {
            image: None,
            tag: None,
        });
        let image = b.image.unwrap_or_default();
        let parsed = Reference::parse(&image)
            .map_err(|e| BundleError::invalid(format!("{file}: bundle.image: {e}")))?;
        if parsed.digest().is_none() {
            return Err(BundleError::invalid(format!(
                "{file}: bundle.image: Expected ref to be in digest form, got '{image}'"
            )));
        }
        Ok(BundleLock {
            image,
            tag: b.tag.unwrap_or_default(),
        })
    }

    pub fn to_yaml(&self) -> String {
        let mut bundle = vec![("image".to_string(), Node::Str(self.image.clone()))];
        if !self.tag.is_empty() {
            bundle.push(("tag".to_string(), Node::Str(self.tag.clone())));
        }
        document(&Node::Map(vec![
            ("apiVersion".into(), Node::Str(API_VERSION.into())),
            ("bundle".into(), Node::Map(bundle)),
            ("kind".into(), Node::Str("BundleLock".into())),
        ]))
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        write_file_0600(path, &self.to_yaml())
    }
}

// --------------------------------------------------------------------------
// Bundle metadata (informational; imgpkg never reads it)

#[derive(Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Author {
    pub name: Option<String>,
    pub email: Option<String>,
}

#[derive(Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Website {
    pub url: Option<String>,
}

/// `.imgpkg/bundle.yml`.
#[derive(Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BundleMetadata {
    #[serde(rename = "apiVersion")]
    pub api_version: Option<String>,
    pub kind: Option<String>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
    #[serde(default)]
    pub authors: Vec<Author>,
    #[serde(default)]
    pub websites: Vec<Website>,
}

impl BundleMetadata {
    pub fn parse(text: &str, file: &str) -> Result<BundleMetadata> {
        let doc: BundleMetadata = parse_yaml(text, file)?;
        check_header(
            doc.api_version.as_deref(),
            doc.kind.as_deref(),
            "Bundle",
            file,
        )?;
        Ok(doc)
    }
}

// --------------------------------------------------------------------------
// ImageLocations (the content of the locations image, §3.4)

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageLocationsDoc {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    images: Option<Vec<ImageLocationDoc>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageLocationDoc {
    image: Option<String>,
    #[serde(rename = "isBundle")]
    is_bundle: Option<bool>,
}

/// One image in a locations image: its original reference and whether it is a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageLocation {
    pub image: String,
    pub is_bundle: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImageLocations {
    pub images: Vec<ImageLocation>,
}

impl ImageLocations {
    pub fn parse(text: &str, file: &str) -> Result<ImageLocations> {
        let doc: ImageLocationsDoc = parse_yaml(text, file)?;
        check_header(
            doc.api_version.as_deref(),
            doc.kind.as_deref(),
            "ImageLocations",
            file,
        )?;
        Ok(ImageLocations {
            images: doc
                .images
                .unwrap_or_default()
                .into_iter()
                .map(|i| ImageLocation {
                    image: i.image.unwrap_or_default(),
                    is_bundle: i.is_bundle.unwrap_or(false),
                })
                .collect(),
        })
    }

    /// imgpkg's serialisation (images sorted by `image`).
    pub fn to_yaml(&self) -> String {
        let mut images = self.images.clone();
        images.sort_by(|a, b| a.image.cmp(&b.image));
        let mut root = vec![("apiVersion".to_string(), Node::Str(API_VERSION.into()))];
        if !images.is_empty() {
            root.push((
                "images".into(),
                Node::List(
                    images
                        .iter()
                        .map(|i| {
                            Node::Map(vec![
                                ("image".into(), Node::Str(i.image.clone())),
                                ("isBundle".into(), Node::Bool(i.is_bundle)),
                            ])
                        })
                        .collect(),
                ),
            ));
        }
        root.push(("kind".into(), Node::Str("ImageLocations".into())));
        document(&Node::Map(root))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "1111111111111111111111111111111111111111111111111111111111111111";

    #[test]
    fn images_lock_normalises_and_rejects_tags_and_unknown_fields() {
        let text = format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: nginx@sha256:{HEX}\n"
        );
        let lock = ImagesLock::parse(&text, "images.yml").unwrap();
        assert_eq!(
            lock.images[0].image.to_string(),
            format!("index.docker.io/library/nginx@sha256:{HEX}")
        );
        let err = ImagesLock::parse(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: nginx:1\n",
            "x/images.yml",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("x/images.yml") && err.contains("digest form"),
            "{err}"
        );
        let err = ImagesLock::parse(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimagez: []\n",
            "images.yml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("imagez"), "{err}");
        let err = ImagesLock::parse("apiVersion: v1\nkind: ImagesLock\n", "images.yml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("apiVersion"), "{err}");
    }

    #[test]
    fn empty_images_lock_omits_the_list() {
        let lock = ImagesLock::default();
        assert_eq!(
            lock.to_yaml(),
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\n"
        );
    }

    #[test]
    fn bundle_lock_round_trips() {
        let text = format!(
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nbundle:\n  image: 127.0.0.1:5000/relocated/b@sha256:{HEX}\n  tag: v1\nkind: BundleLock\n"
        );
        assert_eq!(BundleLock::parse(&text, "l.yml").unwrap().to_yaml(), text);
    }

    #[test]
    fn bundle_metadata_is_strict() {
        let ok = "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: Bundle\nmetadata:\n  name: x\nauthors:\n- name: A\n  email: a@b\nwebsites:\n- url: https://e\n";
        let m = BundleMetadata::parse(ok, "bundle.yml").unwrap();
        assert_eq!(m.authors[0].email.as_deref(), Some("a@b"));
        let err = BundleMetadata::parse(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: Bundle\nauthors:\n- nam: A\n",
            "bundle.yml",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("nam"), "{err}");
    }
}
