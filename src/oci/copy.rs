//! The one copy loop: moves an image or a whole index (every platform, recursively)
//! from one [`Store`] to another, whatever the two ends are. Blobs the destination
//! already has are skipped, registry mounts are tried before uploads, blobs move
//! with bounded concurrency, manifests are written children first, and the tag is
//! written last so that a failed copy never leaves a tag behind.

use std::collections::HashSet;

use futures_util::{StreamExt, TryStreamExt};

use crate::oci::{Descriptor, ManifestBytes, OciError, Result, Store, media_types};

/// Default number of blobs moved at the same time (imgpkg's `--concurrency`).
pub const DEFAULT_CONCURRENCY: usize = 5;

/// How [`copy_image`] behaves.
#[derive(Clone, Debug)]
pub struct CopyOptions {
    /// Blobs moved at the same time (at least 1).
    pub concurrency: usize,
    /// Copy non-distributable ("foreign") layers too.
    pub include_non_distributable: bool,
}

impl Default for CopyOptions {
    fn default() -> Self {
        CopyOptions {
            concurrency: DEFAULT_CONCURRENCY,
            include_non_distributable: false,
        }
    }
}

/// Everything an image or index consists of, in the order it must be written.
#[derive(Clone, Debug, Default)]
pub struct ImageGraph {
    /// Manifests, children before parents; the root is last.
    pub manifests: Vec<ManifestBytes>,
    /// Distinct config and layer blobs of every image in the graph.
    pub blobs: Vec<Descriptor>,
}

impl ImageGraph {
    /// The root manifest (the last one).
    pub fn root(&self) -> &ManifestBytes {
        self.manifests.last().expect("a graph has a root")
    }
}

/// Fetches the manifest `reference` from `src` and, for an index, every child
/// manifest recursively; collects the blobs they reference.
pub async fn walk_image(src: &dyn Store, reference: &str) -> Result<ImageGraph> {
    let root = src.get_manifest(reference).await?;
    let mut graph = ImageGraph::default();
    let mut seen_manifests = HashSet::new();
    let mut seen_blobs = HashSet::new();
    // Iterative post-order walk: (manifest, children already pushed?).
    let mut stack = vec![(root, false)];
    while let Some((manifest, expanded)) = stack.pop() {
        if expanded {
            if seen_manifests.insert(manifest.digest.clone()) {
                graph.manifests.push(manifest);
            }
            continue;
        }
        if seen_manifests.contains(&manifest.digest) {
            continue;
        }
        let references = manifest.references(&src.location())?;
        if manifest.is_index() {
            stack.push((manifest, true));
            for child in references.into_iter().rev() {
                if seen_manifests.contains(&child.digest) {
                    continue;
                }
                let child_manifest = src.get_manifest(child.digest.as_str()).await?;
                check_child(src, &child, &child_manifest)?;
                stack.push((child_manifest, false));
            }
        } else {
            for blob in references {
                if seen_blobs.insert(blob.digest.clone()) {
                    graph.blobs.push(blob);
                }
            }
            stack.push((manifest, true));
        }
    }
    Ok(graph)
}

/// An index's descriptor of a child must match the child fetched.
fn check_child(src: &dyn Store, child: &Descriptor, manifest: &ManifestBytes) -> Result<()> {
    if manifest.bytes.len() as u64 != child.size {
        return Err(OciError::SizeMismatch {
            location: src.location(),
            digest: child.digest.clone(),
            expected: child.size,
            actual: manifest.bytes.len() as u64,
        });
    }
    Ok(())
}

/// Copies the image or index `src_ref` (a tag or digest in `src`) to `dst`,
/// tagging it `dst_tag` when given. Returns the root descriptor; its digest is
/// the source digest (nothing is rewritten).
pub async fn copy_image(
    src: &dyn Store,
    src_ref: &str,
    dst: &dyn Store,
    dst_tag: Option<&str>,
    opts: &CopyOptions,
) -> Result<Descriptor> {
    let graph = walk_image(src, src_ref).await?;
    tracing::info!(
        source = %src.location(),
        reference = src_ref,
        destination = %dst.location(),
        manifests = graph.manifests.len(),
        blobs = graph.blobs.len(),
        "copying image"
    );
    copy_graph(src, &graph, dst, dst_tag, opts).await?;
    Ok(graph.root().descriptor())
}

/// Copies an already walked graph (see [`walk_image`]).
pub async fn copy_graph(
    src: &dyn Store,
    graph: &ImageGraph,
    dst: &dyn Store,
    dst_tag: Option<&str>,
    opts: &CopyOptions,
) -> Result<()> {
    let concurrency = opts.concurrency.max(1);
    futures_util::stream::iter(graph.blobs.iter())
        .map(|blob| copy_blob(src, dst, blob, opts))
        .buffer_unordered(concurrency)
        .try_collect::<Vec<()>>()
        .await?;
    let (root, children) = graph
        .manifests
        .split_last()
        .expect("a graph has a root manifest");
    for manifest in children {
        dst.put_manifest(manifest, None).await?;
    }
    dst.put_manifest(root, dst_tag).await?;
    tracing::info!(digest = %root.digest, destination = %dst.location(), "copied");
    Ok(())
}

/// Copies one blob unless the destination has it already or can mount it.
async fn copy_blob(
    src: &dyn Store,
    dst: &dyn Store,
    blob: &Descriptor,
    opts: &CopyOptions,
) -> Result<()> {
    if media_types::is_non_distributable(&blob.media_type) && !opts.include_non_distributable {
        tracing::debug!(digest = %blob.digest, "skipping non-distributable layer");
        return Ok(());
    }
    if let Some(size) = dst.blob_size(&blob.digest).await? {
        if size == blob.size {
            tracing::debug!(digest = %blob.digest, "destination has blob");
            return Ok(());
        }
        tracing::warn!(digest = %blob.digest, size, expected = blob.size,
            "destination blob has the wrong size; uploading again");
    }
    if dst.mount_blob(blob, src).await? {
        tracing::debug!(digest = %blob.digest, "mounted blob");
        return Ok(());
    }
    let stream = src.get_blob(&blob.digest).await?;
    dst.put_blob(blob, stream).await?;
    tracing::debug!(digest = %blob.digest, size = blob.size, "copied blob");
    Ok(())
}
