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
    let stream = src.get_verified_blob(&blob.digest).await?;
    dst.put_verified_blob(blob, stream).await?;
    tracing::debug!(digest = %blob.digest, size = blob.size, "copied blob");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oci::layout::LayoutStore;
    use crate::oci::stream::bytes_stream;
    use crate::oci::{BlobStream, Digest};
    use bytes::Bytes;
    use std::sync::Mutex;

    /// A store that records the calls made to it and forwards them to a layout.
    struct Recorder {
        inner: LayoutStore,
        calls: Mutex<Vec<String>>,
    }

    impl Recorder {
        fn log(&self, call: String) {
            self.calls.lock().unwrap().push(call);
        }
    }

    #[async_trait::async_trait]
    impl Store for Recorder {
        fn location(&self) -> String {
            self.inner.location()
        }
        async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
            self.log(format!("blob_size {digest}"));
            self.inner.blob_size(digest).await
        }
        async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
            self.inner.get_blob(digest).await
        }
        async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()> {
            self.log(format!("put_blob {}", descriptor.digest));
            self.inner.put_blob(descriptor, data).await
        }
        async fn mount_blob(&self, descriptor: &Descriptor, _from: &dyn Store) -> Result<bool> {
            self.log(format!("mount_blob {}", descriptor.digest));
            Ok(false)
        }
        async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
            self.inner.resolve(reference).await
        }
        async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
            self.inner.get_manifest(reference).await
        }
        async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()> {
            self.log(format!("put_manifest {} {tag:?}", manifest.digest));
            self.inner.put_manifest(manifest, tag).await
        }
        async fn list_tags(&self) -> Result<Vec<String>> {
            self.inner.list_tags().await
        }
    }

    async fn put_image(store: &LayoutStore, n: u8) -> ManifestBytes {
        let config = Bytes::from(format!("{{\"n\":{n}}}"));
        let layer = Bytes::from(vec![n; 100]);
        let shared = Bytes::from_static(b"shared layer");
        let mut layers = String::new();
        for (i, blob) in [&layer, &shared].into_iter().enumerate() {
            let desc = Descriptor {
                media_type: media_types::OCI_LAYER_GZIP.into(),
                digest: Digest::of(blob),
                size: blob.len() as u64,
            };
            store
                .put_blob(&desc, bytes_stream(blob.clone()))
                .await
                .unwrap();
            if i > 0 {
                layers.push(',');
            }
            layers.push_str(&format!(
                r#"{{"mediaType":"{}","digest":"{}","size":{}}}"#,
                desc.media_type, desc.digest, desc.size
            ));
        }
        let config_desc = Descriptor {
            media_type: media_types::OCI_CONFIG.into(),
            digest: Digest::of(&config),
            size: config.len() as u64,
        };
        store
            .put_blob(&config_desc, bytes_stream(config.clone()))
            .await
            .unwrap();
        let manifest = ManifestBytes::new(
            media_types::OCI_MANIFEST,
            format!(
                r#"{{"schemaVersion":2,"mediaType":"{}","config":{{"mediaType":"{}","digest":"{}","size":{}}},"layers":[{layers}]}}"#,
                media_types::OCI_MANIFEST,
                config_desc.media_type,
                config_desc.digest,
                config_desc.size
            ),
        );
        store.put_manifest(&manifest, None).await.unwrap();
        manifest
    }

    #[tokio::test]
    async fn copies_children_first_blobs_once_and_the_tag_last() {
        let tmp = tempfile::tempdir().unwrap();
        let src = LayoutStore::create(tmp.path().join("src")).unwrap();
        let a = put_image(&src, 1).await;
        let b = put_image(&src, 2).await;
        let index = ManifestBytes::new(
            media_types::OCI_INDEX,
            format!(
                r#"{{"schemaVersion":2,"mediaType":"{}","manifests":[{{"mediaType":"{}","digest":"{}","size":{}}},{{"mediaType":"{}","digest":"{}","size":{}}}]}}"#,
                media_types::OCI_INDEX,
                a.media_type,
                a.digest,
                a.bytes.len(),
                b.media_type,
                b.digest,
                b.bytes.len()
            ),
        );
        src.put_manifest(&index, Some("v1")).await.unwrap();
        let graph = walk_image(&src, "v1").await.unwrap();
        assert_eq!(graph.manifests.len(), 3);
        assert_eq!(graph.root().digest, index.digest);
        // 2 configs + 2 own layers + 1 shared layer.
        assert_eq!(graph.blobs.len(), 5);

        let dst = Recorder {
            inner: LayoutStore::create(tmp.path().join("dst")).unwrap(),
            calls: Mutex::new(Vec::new()),
        };
        let opts = CopyOptions {
            concurrency: 2,
            ..CopyOptions::default()
        };
        let root = copy_image(&src, "v1", &dst, Some("latest"), &opts)
            .await
            .unwrap();
        assert_eq!(root, index.descriptor());
        let calls = dst.calls.lock().unwrap().clone();
        let puts: Vec<&String> = calls.iter().filter(|c| c.starts_with("put_blob")).collect();
        assert_eq!(puts.len(), 5, "{calls:#?}");
        let manifest_calls: Vec<&String> = calls
            .iter()
            .filter(|c| c.starts_with("put_manifest"))
            .collect();
        assert_eq!(
            manifest_calls,
            vec![
                &format!("put_manifest {} None", a.digest),
                &format!("put_manifest {} None", b.digest),
                &format!("put_manifest {} Some(\"latest\")", index.digest),
            ]
        );
        // Every blob was checked and a mount tried before its upload; the tag is last.
        let first_manifest = calls
            .iter()
            .position(|c| c.starts_with("put_manifest"))
            .unwrap();
        let last_blob = calls
            .iter()
            .rposition(|c| c.starts_with("put_blob"))
            .unwrap();
        assert!(last_blob < first_manifest, "{calls:#?}");
        assert_eq!(
            calls.iter().filter(|c| c.starts_with("mount_blob")).count(),
            5
        );
        assert!(calls.last().unwrap().contains("latest"));
        // A second copy finds every blob present and uploads nothing.
        dst.calls.lock().unwrap().clear();
        copy_image(&src, "v1", &dst, Some("latest"), &opts)
            .await
            .unwrap();
        let calls = dst.calls.lock().unwrap().clone();
        assert!(
            !calls
                .iter()
                .any(|c| c.starts_with("put_blob") || c.starts_with("mount_blob")),
            "{calls:#?}"
        );
        assert_eq!(
            calls.iter().filter(|c| c.starts_with("blob_size")).count(),
            5
        );
    }
}
