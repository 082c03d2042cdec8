//! `bundle push`: validate the `.imgpkg/` directory, build the layer (or reuse a
//! cached compressed layer the destination already holds), store the layer and
//! config blobs, then the manifest at the tag, then the extra
//! `sha256-<hex>.imgpkg` tag imgpkg adds. Optionally write a BundleLock.
//!
//! Order matters: every blob exists before the manifest that names it, and the
//! manifest exists before any tag points at it, so a failed push never leaves a
//! tag on missing content.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use futures_util::StreamExt;

use crate::bundle::cache::{LayerCache, LayerRecord, fingerprint};
use crate::bundle::gzip::{default_threads, settings_id};
use crate::bundle::image::{bundle_labels, config_json, manifest};
use crate::bundle::layer::{build_compressed, hash_uncompressed};
use crate::bundle::lockfiles::{BundleLock, ImagesLock};
use crate::bundle::tar::{TarOptions, TarPlan, plan};
use crate::bundle::{BundleError, Result};
use crate::oci::store::bytes_stream;
use crate::oci::{BlobStream, Descriptor, Digest, OciError, Store, media_types};

/// How to push.
#[derive(Clone, Debug)]
pub struct PushOptions {
    pub tar: TarOptions,
    /// Extra config labels (`-l k=v`); the bundle marker is added automatically.
    pub labels: BTreeMap<String, String>,
    /// Compression threads; the output does not depend on it.
    pub threads: usize,
    /// The layer cache; `None` disables it.
    pub cache: Option<LayerCache>,
    /// Where the compressed layer is spooled (default: the system temp dir).
    pub spool_dir: Option<PathBuf>,
    /// Write a BundleLock here after the push.
    pub lock_output: Option<PathBuf>,
}

impl Default for PushOptions {
    fn default() -> Self {
        PushOptions {
            tar: TarOptions::default(),
            labels: BTreeMap::new(),
            threads: default_threads(),
            cache: LayerCache::open_default(),
            spool_dir: None,
            lock_output: None,
        }
    }
}

/// What a push did.
#[derive(Clone, Debug)]
pub struct PushResult {
    /// The manifest digest.
    pub digest: Digest,
    /// `<registry>/<repo>@sha256:…` (or `<store location>@sha256:…` for layouts).
    pub reference: String,
    pub layer: Descriptor,
    pub diff_id: Digest,
    /// True when the layer came from the cache and was already at the destination.
    pub layer_reused: bool,
    /// True when the layer blob was uploaded by this push.
    pub layer_uploaded: bool,
}

/// The digest reference a store prints for `digest` (imgpkg's `Pushed '…'`).
pub fn digest_reference(store: &dyn Store, digest: &Digest) -> String {
    match store.registry_repository() {
        Some((registry, repo)) => format!("{registry}/{repo}@{digest}"),
        None => format!("{}@{digest}", store.location()),
    }
}

/// imgpkg's bundle validation: exactly one `.imgpkg` among all inputs, a direct
/// child of one input, holding a valid `images.yml`.
pub fn validate_bundle_inputs(inputs: &[PathBuf]) -> Result<ImagesLock> {
    let mut found = Vec::new();
    fn find(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
        let rd = std::fs::read_dir(dir)
            .map_err(|e| BundleError::io(format!("reading directory '{}'", dir.display()), e))?;
        let mut names: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
        names.sort();
        for name in names {
            let path = dir.join(&name);
            if name == ".imgpkg" {
                found.push(std::path::absolute(&path).unwrap_or(path.clone()));
            }
            let md = std::fs::symlink_metadata(&path)
                .map_err(|e| BundleError::io(format!("reading '{}'", path.display()), e))?;
            if md.is_dir() {
                find(&path, found)?;
            }
        }
        Ok(())
    }
    for input in inputs {
        let md = std::fs::metadata(input)
            .map_err(|e| BundleError::io(format!("reading input '{}'", input.display()), e))?;
        if md.is_dir() {
            find(input, &mut found)?;
        } else if input.file_name().is_some_and(|n| n == ".imgpkg") {
            found.push(std::path::absolute(input).unwrap_or(input.clone()));
        }
    }
    let shown = |v: &[PathBuf]| {
        v.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if found.len() != 1 {
        return Err(BundleError::invalid(if found.is_empty() {
            "This directory is not a bundle. It is missing .imgpkg/images.yml".to_string()
        } else {
            format!(
                "This directory contains multiple bundle definitions. Only a single instance of .imgpkg/images.yml can be provided and instead these were provided {}",
                shown(&found)
            )
        }));
    }
    let dir = &found[0];
    let is_child = inputs.iter().any(|input| {
        let abs = std::path::absolute(input).unwrap_or(input.clone());
        dir.parent() == Some(abs.as_path())
    });
    if !is_child {
        return Err(BundleError::invalid(format!(
            "Expected '.imgpkg' directory, to be a direct child of one of: {}; was {}",
            shown(inputs),
            dir.display()
        )));
    }
    let lock_path = dir.join("images.yml");
    if !lock_path.is_file() {
        return Err(BundleError::invalid(format!(
            "The bundle expected .imgpkg/images.yml to exist, but it wasn't found in the path {}",
            lock_path.display()
        )));
    }
    ImagesLock::read(&lock_path)
}

fn file_stream(path: PathBuf) -> BlobStream {
    let s = futures_util::stream::once(async move {
        tokio::fs::File::open(&path)
            .await
            .map_err(|e| OciError::io(format!("opening {}", path.display()), e))
    })
    .map(|opened| match opened {
        Ok(file) => tokio_util::io::ReaderStream::with_capacity(file, 1 << 20)
            .map(|r| r.map_err(|e| OciError::io("reading the spooled layer", e)))
            .boxed(),
        Err(e) => futures_util::stream::once(async move { Err(e) }).boxed(),
    })
    .flatten();
    Box::pin(s)
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| BundleError::invalid(format!("internal error: {e}")))?
}

/// Puts a small in-memory blob unless the store has it.
pub async fn put_small_blob(
    store: &dyn Store,
    media_type: &str,
    data: Vec<u8>,
) -> Result<Descriptor> {
    let desc = Descriptor {
        media_type: media_type.to_string(),
        digest: Digest::of(&data),
        size: data.len() as u64,
    };
    if store.blob_size(&desc.digest).await? != Some(desc.size) {
        store
            .put_blob(&desc, bytes_stream(Bytes::from(data)))
            .await?;
    }
    Ok(desc)
}

/// Pushes the bundle made of `inputs` to `store` under `tag`.
pub async fn push_bundle(
    store: &dyn Store,
    tag: &str,
    inputs: &[PathBuf],
    options: &PushOptions,
) -> Result<PushResult> {
    validate_bundle_inputs(inputs)?;
    let labels = bundle_labels(&options.labels);
    push_image(store, tag, inputs, options, &labels).await
}

/// Pushes `inputs` as an imgpkg image with `labels` (a bundle when the labels
/// hold the bundle marker, a plain image such as the locations image otherwise).
pub async fn push_image(
    store: &dyn Store,
    tag: &str,
    inputs: &[PathBuf],
    options: &PushOptions,
    labels: &BTreeMap<String, String>,
) -> Result<PushResult> {
    let inputs_owned = inputs.to_vec();
    let tar_options = options.tar.clone();
    let tar_plan: TarPlan = blocking(move || plan(&inputs_owned, &tar_options)).await?;
    let fp = fingerprint(&tar_plan, &options.tar);
    let tar_plan = std::sync::Arc::new(tar_plan);

    let mut reused = None;
    if let Some(cache) = &options.cache
        && let Some(record) = cache.lookup_fingerprint(&fp)
        && store.blob_size(&record.digest).await? == Some(record.size)
    {
        let p = tar_plan.clone();
        let (diff_id, _) = blocking(move || hash_uncompressed(&p)).await?;
        if diff_id == record.diff_id {
            reused = Some(record);
        } else {
            tracing::debug!("layer cache: inputs changed without a metadata change; rebuilding");
        }
    }

    let (layer, diff_id, layer_uploaded) = match &reused {
        Some(record) => (
            Descriptor {
                media_type: media_types::DOCKER_LAYER_GZIP.to_string(),
                digest: record.digest.clone(),
                size: record.size,
            },
            record.diff_id.clone(),
            false,
        ),
        None => {
            let spool = options.spool_dir.clone().unwrap_or_else(std::env::temp_dir);
            let threads = options.threads;
            let p = tar_plan.clone();
            let built = blocking(move || build_compressed(&p, threads, &spool)).await?;
            let layer = Descriptor {
                media_type: media_types::DOCKER_LAYER_GZIP.to_string(),
                digest: built.digest.clone(),
                size: built.size,
            };
            let mut uploaded = false;
            if store.blob_size(&layer.digest).await? != Some(layer.size) {
                store
                    .put_blob(&layer, file_stream(built.file.path().to_path_buf()))
                    .await?;
                uploaded = true;
            }
            if let Some(cache) = &options.cache {
                cache.store(
                    &LayerRecord {
                        diff_id: built.diff_id.clone(),
                        digest: built.digest.clone(),
                        size: built.size,
                        settings: settings_id(),
                    },
                    Some(&fp),
                );
            }
            (layer, built.diff_id.clone(), uploaded)
        }
    };

    let config = put_small_blob(
        store,
        media_types::DOCKER_CONFIG,
        config_json(&diff_id, labels),
    )
    .await?;
    let m = manifest(&config, &layer);
    store.put_manifest(&m, Some(tag)).await?;
    let digest_tag = format!("{}.imgpkg", m.digest.dashed());
    store.put_manifest(&m, Some(&digest_tag)).await?;
    let reference = digest_reference(store, &m.digest);
    if let Some(path) = &options.lock_output {
        BundleLock {
            image: reference.clone(),
            tag: tag.to_string(),
        }
        .write(path)?;
    }
    Ok(PushResult {
        digest: m.digest.clone(),
        reference,
        layer,
        diff_id,
        layer_reused: reused.is_some(),
        layer_uploaded,
    })
}
