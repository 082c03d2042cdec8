//! `bundle describe`: what a bundle holds — its images (plain images, indexes,
//! nested bundles, recursively), their sizes and lock annotations — printed as
//! text, YAML or JSON. Images are looked up first in the bundle's own store by
//! digest, then at their original reference.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;

use serde::Serialize;

use crate::bundle::extract::find_files;
use crate::bundle::lockfiles::{BundleMetadata, ImagesLock};
use crate::bundle::pull::{Opener, download_blob, fetch_bundle_image, is_absent, read_small_blob};
use crate::bundle::push::digest_reference;
use crate::bundle::yaml_out::{Node, document};
use crate::bundle::{BundleError, Result};
use crate::oci::{Digest, ManifestBytes, Store};

/// A described bundle.
#[derive(Clone, Debug, Serialize)]
pub struct BundleDescription {
    pub bundle: String,
    pub digest: Digest,
    /// Manifest + config + layer, in bytes.
    pub size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub images: Vec<ImageDescription>,
}

/// One image of a bundle's `images.yml`.
#[derive(Clone, Debug, Serialize)]
pub struct ImageDescription {
    pub image: String,
    pub digest: Digest,
    /// `image`, `index`, `bundle`, or `unknown` when it could not be fetched.
    #[serde(rename = "type")]
    pub kind: String,
    /// Manifest(s) and blobs, in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Where it was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bundle: Option<Box<BundleDescription>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

async fn image_size(store: &dyn Store, m: &ManifestBytes) -> Result<u64> {
    let mut total = m.bytes.len() as u64;
    let refs = m.references(&store.location())?;
    if m.is_index() {
        for child in refs {
            let cm = store.get_manifest(child.digest.as_str()).await?;
            total += cm.bytes.len() as u64;
            for r in cm.references(&store.location())? {
                total += r.size;
            }
        }
    } else {
        total += refs.iter().map(|r| r.size).sum::<u64>();
    }
    Ok(total)
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Describes the bundle `reference` (tag or digest) of `store`.
pub async fn describe_bundle(
    store: &dyn Store,
    reference: &str,
    opener: Option<Opener<'_>>,
) -> Result<BundleDescription> {
    let mut seen = BTreeSet::new();
    describe_inner(store, reference.to_string(), opener, &mut seen).await
}

fn describe_inner<'a>(
    store: &'a dyn Store,
    reference: String,
    opener: Option<Opener<'a>>,
    seen: &'a mut BTreeSet<Digest>,
) -> Boxed<'a, Result<BundleDescription>> {
    Box::pin(async move {
        let image = fetch_bundle_image(store, &reference).await?;
        seen.insert(image.manifest.digest.clone());
        let here = format!("{}@{}", store.location(), image.manifest.digest);
        let scratch = std::env::temp_dir();
        let blob = download_blob(store, &image.layer, &scratch).await?;
        let path = blob.path().to_path_buf();
        let label = here.clone();
        let files = tokio::task::spawn_blocking(move || {
            find_files(&path, &[".imgpkg/images.yml", ".imgpkg/bundle.yml"], &label)
        })
        .await
        .map_err(|e| BundleError::invalid(format!("internal error: {e}")))??;
        drop(blob);
        let lock_text = files.get(".imgpkg/images.yml").ok_or_else(|| {
            BundleError::invalid(format!("{here}: bundle has no .imgpkg/images.yml"))
        })?;
        let lock = ImagesLock::parse(
            &String::from_utf8_lossy(lock_text),
            &format!("{here}/.imgpkg/images.yml"),
        )?;
        let name = files
            .get(".imgpkg/bundle.yml")
            .and_then(|t| BundleMetadata::parse(&String::from_utf8_lossy(t), "bundle.yml").ok())
            .and_then(|m| m.metadata.get("name").cloned());

        let mut images = Vec::new();
        for img in &lock.images {
            let digest = img.image.digest().expect("lock refs are digests").clone();
            let mut desc = ImageDescription {
                image: img.image.to_string(),
                digest: digest.clone(),
                kind: "unknown".into(),
                size: None,
                location: None,
                annotations: img.annotations.clone(),
                bundle: None,
                error: None,
            };
            // Where is it? The bundle's store first, then the original reference.
            let mut owned: Option<Box<dyn Store>> = None;
            let found_here = match store.get_manifest(digest.as_str()).await {
                Ok(m) => Some(m),
                Err(e) if is_absent(&e) => None,
                Err(e) => {
                    desc.error = Some(e.to_string());
                    None
                }
            };
            let manifest = match found_here {
                Some(m) => Some(m),
                None if desc.error.is_none() => match opener {
                    Some(open) => match open(&img.image) {
                        Ok(s) => {
                            let r = s.get_manifest(digest.as_str()).await;
                            owned = Some(s);
                            match r {
                                Ok(m) => Some(m),
                                Err(e) => {
                                    desc.error = Some(e.to_string());
                                    None
                                }
                            }
                        }
                        Err(e) => {
                            desc.error = Some(e.to_string());
                            None
                        }
                    },
                    None => {
                        desc.error = Some(format!("not found in {}", store.location()));
                        None
                    }
                },
                None => None,
            };
            if let Some(m) = manifest {
                let s: &dyn Store = owned.as_deref().unwrap_or(store);
                desc.location = Some(digest_reference(s, &digest));
                desc.size = Some(image_size(s, &m).await?);
                desc.kind = if m.is_index() {
                    "index".into()
                } else {
                    let refs = m.references(&s.location())?;
                    let config = read_small_blob(s, &refs[0]).await?;
                    if crate::bundle::image::parse_config(&config, &s.location())?.is_bundle() {
                        "bundle".into()
                    } else {
                        "image".into()
                    }
                };
                if desc.kind == "bundle" && !seen.contains(&digest) {
                    let nested = describe_inner(s, digest.to_string(), opener, &mut *seen).await?;
                    desc.bundle = Some(Box::new(nested));
                }
            }
            images.push(desc);
        }
        Ok(BundleDescription {
            bundle: digest_reference(store, &image.manifest.digest),
            digest: image.manifest.digest.clone(),
            size: image_size(store, &image.manifest).await?,
            name,
            images,
        })
    })
}

/// Bytes as imgpkg-like human text (`1.2 MiB`).
pub fn human_size(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u < UNITS.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// The text form.
pub fn to_text(d: &BundleDescription) -> String {
    let mut out = String::new();
    text_bundle(d, 0, &mut out);
    out
}

fn text_bundle(d: &BundleDescription, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    out.push_str(&format!("{pad}Bundle: {}\n", d.bundle));
    if let Some(name) = &d.name {
        out.push_str(&format!("{pad}  Name: {name}\n"));
    }
    out.push_str(&format!("{pad}  Size: {}\n", human_size(d.size)));
    out.push_str(&format!("{pad}  Images: {}\n", d.images.len()));
    for img in &d.images {
        out.push_str(&format!("{pad}  - Image: {}\n", img.image));
        out.push_str(&format!("{pad}    Type: {}\n", img.kind));
        if let Some(size) = img.size {
            out.push_str(&format!("{pad}    Size: {}\n", human_size(size)));
        }
        if let Some(loc) = &img.location
            && *loc != img.image
        {
            out.push_str(&format!("{pad}    Found at: {loc}\n"));
        }
        for (k, v) in &img.annotations {
            if !v.contains('\n') {
                out.push_str(&format!("{pad}    {k}: {v}\n"));
            }
        }
        if let Some(err) = &img.error {
            out.push_str(&format!("{pad}    Error: {err}\n"));
        }
        if let Some(b) = &img.bundle {
            text_bundle(b, indent + 4, out);
        }
    }
}

/// The JSON form (pretty-printed).
pub fn to_json(d: &BundleDescription) -> String {
    let mut s = serde_json::to_string_pretty(d).expect("serialisable");
    s.push('\n');
    s
}

/// The YAML form.
pub fn to_yaml(d: &BundleDescription) -> String {
    let value = serde_json::to_value(d).expect("serialisable");
    document(&json_to_node(&value))
}

fn json_to_node(v: &serde_json::Value) -> Node {
    match v {
        serde_json::Value::Object(m) => Node::Map(
            m.iter()
                .map(|(k, v)| (k.clone(), json_to_node(v)))
                .collect(),
        ),
        serde_json::Value::Array(a) => Node::List(a.iter().map(json_to_node).collect()),
        serde_json::Value::Bool(b) => Node::Bool(*b),
        serde_json::Value::Null => Node::Str(String::new()),
        serde_json::Value::Number(n) => Node::Num(n.to_string()),
        serde_json::Value::String(s) => Node::Str(s.clone()),
    }
}
