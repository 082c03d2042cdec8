//! `bundle pull`: fetch a bundle (verified), extract it safely into a staging
//! directory next to the output, rewrite `.imgpkg/images.yml` when the bundle was
//! relocated (`carvel-formats.md` §4), optionally pull nested bundles into
//! `.imgpkg/bundles/sha256-<hex>/` of the root, and only then move the result to
//! the output path. On any error the output path is left as it was.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use tokio::io::AsyncWriteExt;

use crate::bundle::extract::{Extracted, extract_layer};
use crate::bundle::image::{ConfigInfo, parse_config};
use crate::bundle::lockfiles::{ImageLocations, ImagesLock, write_file_0600};
use crate::bundle::{BundleError, Result};
use crate::oci::{Descriptor, Digest, ManifestBytes, OciError, Reference, Store, media_types};

/// Opens the store (repository) of a reference, for images that live outside the
/// bundle's own repository.
pub type Opener<'a> = &'a (dyn Fn(&Reference) -> crate::oci::Result<Box<dyn Store>> + Send + Sync);

/// Largest config or metadata file read into memory.
const SMALL_LIMIT: u64 = 16 << 20;

#[derive(Clone, Debug, Default)]
pub struct PullOptions {
    /// Also pull nested bundles (imgpkg `--recursive`).
    pub recursive: bool,
}

/// One bundle written by a pull.
#[derive(Clone, Debug)]
pub struct PulledBundle {
    /// `<repo>@<digest>` of the bundle.
    pub reference: String,
    pub digest: Digest,
    pub layer: Digest,
    /// Where it went, relative to the output directory (`.` for the root).
    pub path: PathBuf,
    /// Whether `.imgpkg/images.yml` was rewritten to the bundle's repository.
    pub relocated: bool,
    pub extracted: Extracted,
}

/// What a pull did: the root bundle first, then nested ones.
#[derive(Clone, Debug, Default)]
pub struct PullReport {
    pub bundles: Vec<PulledBundle>,
}

/// A bundle image, checked: an image manifest whose config has the bundle label
/// and exactly one Docker gzip layer.
pub struct BundleImage {
    pub manifest: ManifestBytes,
    pub config: ConfigInfo,
    pub layer: Descriptor,
}

/// Reads a small blob fully (configs, locations files), verified by the store.
pub async fn read_small_blob(store: &dyn Store, desc: &Descriptor) -> Result<Vec<u8>> {
    if desc.size > SMALL_LIMIT {
        return Err(BundleError::invalid(format!(
            "{}: blob {} is {} bytes, more than expected for metadata",
            store.location(),
            desc.digest,
            desc.size
        )));
    }
    let mut stream = store.get_blob(&desc.digest).await?;
    let mut out = Vec::with_capacity(desc.size as usize);
    while let Some(chunk) = stream.next().await {
        out.extend_from_slice(&chunk?);
        if out.len() as u64 > SMALL_LIMIT {
            return Err(BundleError::invalid(format!(
                "{}: blob {} is larger than its descriptor says",
                store.location(),
                desc.digest
            )));
        }
    }
    Ok(out)
}

/// Downloads a blob into a new temporary file in `dir` (verified by the store).
pub async fn download_blob(
    store: &dyn Store,
    desc: &Descriptor,
    dir: &Path,
) -> Result<tempfile::NamedTempFile> {
    let tmp = tempfile::Builder::new()
        .prefix(".strake-blob-")
        .tempfile_in(dir)
        .map_err(|e| {
            BundleError::io(
                format!("creating a temporary file in '{}'", dir.display()),
                e,
            )
        })?;
    let file = tmp
        .reopen()
        .map_err(|e| BundleError::io("opening a temporary file", e))?;
    let mut file = tokio::io::BufWriter::with_capacity(1 << 20, tokio::fs::File::from_std(file));
    let mut stream = store.get_blob(&desc.digest).await?;
    while let Some(chunk) = stream.next().await {
        file.write_all(&chunk?)
            .await
            .map_err(|e| BundleError::io("writing a temporary file", e))?;
    }
    file.flush()
        .await
        .map_err(|e| BundleError::io("writing a temporary file", e))?;
    Ok(tmp)
}

/// Fetches and checks a bundle image (`reference` is a tag or digest in `store`).
pub async fn fetch_bundle_image(store: &dyn Store, reference: &str) -> Result<BundleImage> {
    let manifest = store.get_manifest(reference).await?;
    let here = format!("{}@{}", store.location(), manifest.digest);
    if !manifest.is_image() {
        return Err(BundleError::invalid(format!(
            "{here}: expected a bundle image, found {} (an index is never a bundle)",
            manifest.media_type
        )));
    }
    let refs = manifest.references(&store.location())?;
    let config_bytes = read_small_blob(store, &refs[0]).await?;
    let config = parse_config(&config_bytes, &here)?;
    if !config.is_bundle() {
        return Err(BundleError::invalid(format!(
            "{here}: Expected bundle image but found plain image (hint: Did you use -i instead of -b?)"
        )));
    }
    let layers = &refs[1..];
    if layers.len() != 1 {
        return Err(BundleError::invalid(format!(
            "{here}: Expected bundle to only have a single layer, got {}",
            layers.len()
        )));
    }
    if layers[0].media_type != media_types::DOCKER_LAYER_GZIP {
        return Err(BundleError::invalid(format!(
            "{here}: Expected layer to have docker layer media type, was {}",
            layers[0].media_type
        )));
    }
    Ok(BundleImage {
        layer: layers[0].clone(),
        manifest,
        config,
    })
}

/// True for errors that mean "not there" when probing a registry (404/401/403).
pub fn is_absent(e: &OciError) -> bool {
    matches!(
        e,
        OciError::ManifestUnknown { .. }
            | OciError::BlobUnknown { .. }
            | OciError::Unauthorized { .. }
            | OciError::Denied { .. }
    )
}

/// Reads the locations image `sha256-<hex>.image-locations.imgpkg` of a bundle,
/// if its repository has one.
pub async fn read_locations(
    store: &dyn Store,
    bundle: &Digest,
    scratch: &Path,
) -> Result<Option<ImageLocations>> {
    let tag = format!("{}.image-locations.imgpkg", bundle.dashed());
    let manifest = match store.get_manifest(&tag).await {
        Ok(m) => m,
        Err(e) if is_absent(&e) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let here = format!("{}:{tag}", store.location());
    let refs = manifest.references(&here)?;
    let layers = &refs[1..];
    if layers.len() != 1 || layers[0].media_type != media_types::DOCKER_LAYER_GZIP {
        return Err(BundleError::invalid(format!(
            "{here}: Expected locations image to have a single docker layer"
        )));
    }
    let blob = download_blob(store, &layers[0], scratch).await?;
    let path = blob.path().to_path_buf();
    let label = here.clone();
    let files = tokio::task::spawn_blocking(move || {
        crate::bundle::extract::find_files(&path, &["image-locations.yml"], &label)
    })
    .await
    .map_err(|e| BundleError::invalid(format!("internal error: {e}")))??;
    let text = files.get("image-locations.yml").ok_or_else(|| {
        BundleError::invalid(format!(
            "{here}: no image-locations.yml in the locations image"
        ))
    })?;
    let text = String::from_utf8_lossy(text);
    Ok(Some(ImageLocations::parse(
        &text,
        &format!("{here}/image-locations.yml"),
    )?))
}

/// Whether the manifest `digest` (found in `store`) is a bundle.
async fn is_bundle_manifest(store: &dyn Store, digest: &Digest) -> Result<bool> {
    let m = store.get_manifest(digest.as_str()).await?;
    if !m.is_image() {
        return Ok(false);
    }
    let refs = m.references(&store.location())?;
    let config = read_small_blob(store, &refs[0]).await?;
    Ok(parse_config(&config, &store.location())?.is_bundle())
}

enum Source {
    Root,
    Other(std::sync::Arc<dyn Store>),
}

/// Pulls the bundle `reference` (tag or digest) of `store` into `out_dir`.
pub async fn pull_bundle(
    store: &dyn Store,
    reference: &str,
    out_dir: &Path,
    options: &PullOptions,
    opener: Option<Opener<'_>>,
) -> Result<PullReport> {
    let parent = match out_dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| BundleError::io(format!("creating '{}'", parent.display()), e))?;
    let holder = tempfile::Builder::new()
        .prefix(".strake-pull-")
        .tempdir_in(&parent)
        .map_err(|e| {
            BundleError::io(
                format!("creating a staging directory in '{}'", parent.display()),
                e,
            )
        })?;
    let staging = holder.path().join("bundle");
    make_dir(&staging)?;

    let mut report = PullReport::default();
    let mut seen: BTreeSet<Digest> = BTreeSet::new();
    let mut queue: VecDeque<(Source, String, PathBuf)> = VecDeque::new();
    queue.push_back((Source::Root, reference.to_string(), PathBuf::from(".")));
    while let Some((source, reference, rel)) = queue.pop_front() {
        let s: &dyn Store = match &source {
            Source::Root => store,
            Source::Other(b) => b.as_ref(),
        };
        let image = fetch_bundle_image(s, &reference).await?;
        if !seen.insert(image.manifest.digest.clone()) {
            continue;
        }
        let dest = if rel == Path::new(".") {
            staging.clone()
        } else {
            let d = staging.join(&rel);
            make_dir_all(&d)?;
            d
        };
        let blob = download_blob(s, &image.layer, holder.path()).await?;
        let layer_file = blob.path().to_path_buf();
        let dest2 = dest.clone();
        let label = format!("{}@{}", s.location(), image.layer.digest);
        let extracted =
            tokio::task::spawn_blocking(move || extract_layer(&layer_file, &dest2, &label))
                .await
                .map_err(|e| BundleError::invalid(format!("internal error: {e}")))??;
        drop(blob);

        let lock_path = dest.join(".imgpkg").join("images.yml");
        let here = format!("{}@{}", s.location(), image.manifest.digest);
        if !lock_path.is_file() {
            return Err(BundleError::invalid(format!(
                "{here}: bundle has no .imgpkg/images.yml"
            )));
        }
        let lock = ImagesLock::parse(
            &std::fs::read_to_string(&lock_path)
                .map_err(|e| BundleError::io(format!("reading {here}/.imgpkg/images.yml"), e))?,
            &format!("{here}/.imgpkg/images.yml"),
        )?;

        // Relocation (§4): the locations image, else every image present here.
        let mut relocated = false;
        let mut locations: Option<ImageLocations> = None;
        if let Some((registry, repo)) = s.registry_repository() {
            locations = read_locations(s, &image.manifest.digest, holder.path()).await?;
            relocated = locations.is_some();
            if !relocated {
                relocated = true;
                for img in &lock.images {
                    let d = img.image.digest().expect("lock refs are digests");
                    match s.resolve(d.as_str()).await {
                        Ok(Some(_)) => {}
                        Ok(None) => {
                            relocated = false;
                            break;
                        }
                        Err(e) if is_absent(&e) => {
                            relocated = false;
                            break;
                        }
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            if relocated {
                let mut rewritten = lock.clone();
                for img in &mut rewritten.images {
                    let d = img.image.digest().expect("lock refs are digests").clone();
                    img.image = Reference::from_parts(&registry, &repo, None, Some(d))?;
                }
                write_file_0600(&lock_path, &rewritten.to_yaml())?;
            }
        }

        report.bundles.push(PulledBundle {
            reference: crate::bundle::push::digest_reference(s, &image.manifest.digest),
            digest: image.manifest.digest.clone(),
            layer: image.layer.digest.clone(),
            path: rel.clone(),
            relocated,
            extracted,
        });

        if !options.recursive {
            continue;
        }
        let known: BTreeMap<String, bool> = locations
            .map(|l| {
                l.images
                    .into_iter()
                    .map(|i| (i.image, i.is_bundle))
                    .collect()
            })
            .unwrap_or_default();
        for img in &lock.images {
            let digest = img.image.digest().expect("lock refs are digests").clone();
            if seen.contains(&digest) {
                continue;
            }
            let nested_rel = PathBuf::from(".imgpkg")
                .join("bundles")
                .join(digest.dashed());
            // Lookup order: the current bundle's repository, then the original ref.
            let here_has = match s.resolve(digest.as_str()).await {
                Ok(found) => found.is_some(),
                Err(e) if is_absent(&e) => false,
                Err(e) => return Err(e.into()),
            };
            let known_bundle = known.get(&img.image.to_string()).copied();
            if here_has {
                let is_bundle = match known_bundle {
                    Some(b) => b,
                    None => is_bundle_manifest(s, &digest).await?,
                };
                if is_bundle {
                    let next = match &source {
                        Source::Root => Source::Root,
                        Source::Other(a) => Source::Other(a.clone()),
                    };
                    queue.push_back((next, digest.to_string(), nested_rel));
                }
                continue;
            }
            let Some(open) = opener else {
                return Err(BundleError::invalid(format!(
                    "{here}: image {} is not in {} and no registry access is configured",
                    img.image,
                    s.location()
                )));
            };
            let other: std::sync::Arc<dyn Store> = open(&img.image)?.into();
            let is_bundle = match known_bundle {
                Some(b) => b,
                None => is_bundle_manifest(other.as_ref(), &digest).await?,
            };
            if is_bundle {
                queue.push_back((Source::Other(other), digest.to_string(), nested_rel));
            }
        }
    }

    // Swap the staging directory into place.
    if std::fs::symlink_metadata(out_dir).is_ok() {
        let old = holder.path().join("old");
        std::fs::rename(out_dir, &old).map_err(|e| {
            BundleError::io(format!("moving the old '{}' aside", out_dir.display()), e)
        })?;
        if let Err(e) = std::fs::rename(&staging, out_dir) {
            let _ = std::fs::rename(&old, out_dir);
            return Err(BundleError::io(
                format!("moving the bundle to '{}'", out_dir.display()),
                e,
            ));
        }
    } else {
        std::fs::rename(&staging, out_dir).map_err(|e| {
            BundleError::io(format!("moving the bundle to '{}'", out_dir.display()), e)
        })?;
    }
    Ok(report)
}

fn make_dir(path: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .mode(0o777)
        .create(path)
        .map_err(|e| BundleError::io(format!("creating '{}'", path.display()), e))
}

fn make_dir_all(path: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .mode(0o777)
        .recursive(true)
        .create(path)
        .map_err(|e| BundleError::io(format!("creating '{}'", path.display()), e))
}
