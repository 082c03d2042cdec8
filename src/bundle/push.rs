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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bytes::Bytes;
use tokio::sync::mpsc;

use crate::bundle::cache::{LayerCache, LayerRecord, fingerprint};
use crate::bundle::gzip::{MemberSink, default_threads, settings_id};
use crate::bundle::image::{bundle_labels, config_json, manifest};
use crate::bundle::layer::{build_into, hash_uncompressed};
use crate::bundle::lockfiles::{BundleLock, ImagesLock};
use crate::bundle::tar::{TarOptions, TarPlan, plan};
use crate::bundle::{BundleError, Result};
use crate::oci::stream::bytes_stream;
use crate::oci::{BlobStream, Descriptor, Digest, ManifestBytes, OciError, Store, media_types};

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
    /// True when this push sent the layer's bytes to the store (it was built:
    /// the cache did not know a compressed layer the store already holds).
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

/// Compressed members in flight between the layer build and the upload (each at
/// most about one [`CHUNK_SIZE`](crate::bundle::gzip::CHUNK_SIZE)): enough to keep
/// the compressors busy while the store sends a chunk, and a bound on memory.
const MEMBERS_IN_FLIGHT: usize = 8;

/// What the layer build sends to the upload.
enum Piece {
    Data(Bytes),
    /// The layer is complete; a channel that closes without it means the build failed.
    End,
}

/// Hands finished gzip members to the upload through the bounded channel.
struct ChannelSink {
    tx: mpsc::Sender<Piece>,
    /// Set when the upload side went away (its error is then the one to report).
    upload_gone: Arc<AtomicBool>,
}

impl MemberSink for ChannelSink {
    fn member(&mut self, member: Vec<u8>) -> std::io::Result<()> {
        self.tx
            .blocking_send(Piece::Data(Bytes::from(member)))
            .map_err(|_| {
                self.upload_gone.store(true, Ordering::SeqCst);
                std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the upload stopped")
            })
    }
}

/// The upload's view of the channel: the members, then a clean end only when the
/// build said [`Piece::End`]; otherwise an error, so the store keeps nothing.
fn member_stream(rx: mpsc::Receiver<Piece>) -> BlobStream {
    Box::pin(futures_util::stream::unfold(Some(rx), |rx| async move {
        let mut rx = rx?;
        match rx.recv().await {
            Some(Piece::Data(bytes)) => Some((Ok(bytes), Some(rx))),
            Some(Piece::End) => None,
            None => Some((
                Err(OciError::io(
                    "building the layer",
                    std::io::Error::other("the layer build stopped before its end"),
                )),
                None,
            )),
        }
    }))
}

/// Builds the layer and streams it into `store` at the same time: compression and
/// upload overlap, and the compressed layer is never spooled. Once the build is
/// done (the diff_id known) the config blob is stored while the layer upload
/// finishes. Returns the layer descriptor, the diff_id and the config descriptor;
/// nothing refers to either blob until the caller stores the manifest.
async fn build_and_upload(
    store: &dyn Store,
    plan: Arc<TarPlan>,
    threads: usize,
    labels: &BTreeMap<String, String>,
) -> Result<(Descriptor, Digest, Descriptor)> {
    let (tx, rx) = mpsc::channel(MEMBERS_IN_FLIGHT);
    let upload_gone = Arc::new(AtomicBool::new(false));
    let sink = ChannelSink {
        tx,
        upload_gone: Arc::clone(&upload_gone),
    };
    let build = tokio::task::spawn_blocking(move || -> Result<Digest> {
        let (diff_id, _, sink) = build_into(&plan, threads, sink)?;
        sink.tx
            .blocking_send(Piece::End)
            .map_err(|_| BundleError::invalid("the layer upload stopped"))?;
        Ok(diff_id)
    });
    let built_then_config = async {
        let diff_id = build
            .await
            .map_err(|e| BundleError::invalid(format!("internal error: layer build: {e}")))??;
        let config = put_small_blob(
            store,
            media_types::DOCKER_CONFIG,
            config_json(&diff_id, labels),
        )
        .await;
        Ok::<_, BundleError>((diff_id, config))
    };
    let upload = store.put_blob_stream(media_types::DOCKER_LAYER_GZIP, member_stream(rx));
    let (built, uploaded) = tokio::join!(built_then_config, upload);
    match (built, uploaded) {
        (Ok((diff_id, Ok(config))), Ok(layer)) => Ok((layer, diff_id, config)),
        (Ok((_, Err(config))), Ok(_)) => Err(config),
        (Ok(_), Err(e)) => Err(e.into()),
        (Err(e), Ok(_)) => Err(e),
        // Both failed: the side that failed first tells what really happened.
        (Err(build), Err(upload)) => Err(if upload_gone.load(Ordering::SeqCst) {
            upload.into()
        } else {
            build
        }),
    }
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
    let tar_plan = plan_of(inputs, options).await?;
    push_planned_image(store, tag, tar_plan, options, labels).await
}

/// The layer plan of `inputs` under `options`' tar rules (a walk of the file system,
/// off the async threads).
async fn plan_of(inputs: &[PathBuf], options: &PushOptions) -> Result<TarPlan> {
    let inputs = inputs.to_vec();
    let tar_options = options.tar.clone();
    blocking(move || plan(&inputs, &tar_options)).await
}

/// Pushes the image whose one layer `tar_plan` describes, as [`push_image`]
/// does with the plan of its inputs.
pub async fn push_planned_image(
    store: &dyn Store,
    tag: &str,
    tar_plan: TarPlan,
    options: &PushOptions,
    labels: &BTreeMap<String, String>,
) -> Result<PushResult> {
    let (result, m) = store_image(store, Some(tag), tar_plan, options, labels).await?;
    let digest_tag = format!("{}.imgpkg", m.digest.dashed());
    store.put_manifest(&m, Some(&digest_tag)).await?;
    if let Some(path) = &options.lock_output {
        BundleLock {
            image: result.reference.clone(),
            tag: tag.to_string(),
        }
        .write(path)?;
    }
    Ok(result)
}

/// Stores the blobs and the manifest of the image whose layer `tar_plan`
/// describes (at `tag`, when given; the caller adds the digest tag).
async fn store_image(
    store: &dyn Store,
    tag: Option<&str>,
    tar_plan: TarPlan,
    options: &PushOptions,
    labels: &BTreeMap<String, String>,
) -> Result<(PushResult, ManifestBytes)> {
    let fp = fingerprint(&tar_plan, &options.tar);
    let tar_plan = Arc::new(tar_plan);

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

    let (layer, diff_id, config, layer_uploaded) = match &reused {
        Some(record) => {
            let config = put_small_blob(
                store,
                media_types::DOCKER_CONFIG,
                config_json(&record.diff_id, labels),
            )
            .await?;
            let layer = Descriptor {
                media_type: media_types::DOCKER_LAYER_GZIP.to_string(),
                digest: record.digest.clone(),
                size: record.size,
            };
            (layer, record.diff_id.clone(), config, false)
        }
        None => {
            let (layer, diff_id, config) =
                build_and_upload(store, tar_plan.clone(), options.threads, labels).await?;
            if let Some(cache) = &options.cache {
                cache.store(
                    &LayerRecord {
                        diff_id: diff_id.clone(),
                        digest: layer.digest.clone(),
                        size: layer.size,
                        settings: settings_id(),
                    },
                    Some(&fp),
                );
            }
            (layer, diff_id, config, true)
        }
    };

    let m = manifest(&config, &layer);
    store.put_manifest(&m, tag).await?;
    let reference = digest_reference(store, &m.digest);
    Ok((
        PushResult {
            digest: m.digest.clone(),
            reference,
            layer,
            diff_id,
            layer_reused: reused.is_some(),
            layer_uploaded,
        },
        m,
    ))
}

/// Pushes a bundle made of `inputs` with no tag: every blob and the manifest (by digest)
/// are stored, nothing names them yet. [`tag_bundle`] names it once the caller has done
/// everything else that could fail, so a failed release leaves no tag behind.
pub async fn push_bundle_untagged(
    store: &dyn Store,
    inputs: &[PathBuf],
    options: &PushOptions,
) -> Result<(PushResult, ManifestBytes)> {
    validate_bundle_inputs(inputs)?;
    let labels = bundle_labels(&options.labels);
    let tar_plan = plan_of(inputs, options).await?;
    store_image(store, None, tar_plan, options, &labels).await
}

/// Tags a stored bundle manifest as imgpkg does: `tag`, then `sha256-<hex>.imgpkg`.
pub async fn tag_bundle(store: &dyn Store, m: &ManifestBytes, tag: &str) -> Result<()> {
    store.put_manifest(m, Some(tag)).await?;
    let digest_tag = format!("{}.imgpkg", m.digest.dashed());
    store.put_manifest(m, Some(&digest_tag)).await?;
    Ok(())
}
