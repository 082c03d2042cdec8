//! The closure of a copy: starting from a bundle, images or a tarball, every
//! manifest that must move. A bundle's `.imgpkg/images.yml` names its images;
//! those that carry the bundle label are bundles in turn (nested bundles, or the
//! package bundles of a repository bundle), walked to any depth and deduplicated
//! by digest. Every image or index is walked with all its platforms. Unless
//! signatures are skipped, each digest's cosign tags (`sha256-<hex>.sig`, `.att`,
//! `.sbom`) and its OCI 1.1 referrers (from the referrers API, and the tag-schema
//! index `sha256-<hex>` that registries without the API hold) are added when the
//! source has them ([`signatures`](crate::copy::signatures) finds them with few
//! requests); a missing one (404, or DENIED/UNAUTHORIZED) is not an error.

use std::collections::HashMap;

use futures_util::{StreamExt, stream};
use std::path::Path;
use std::sync::Arc;

use crate::bundle::extract::find_files;
use crate::bundle::image::parse_config;
use crate::bundle::lockfiles::ImagesLock;
use crate::bundle::pull::{download_blob, is_absent, read_small_blob};
use crate::copy::signatures::SignatureFinder;
pub use crate::copy::signatures::{SIGNATURE_SUFFIXES, signature_subject, signature_tags};
use crate::copy::{CopyError, Result};
use crate::oci::copy::{ImageGraph, walk_image};
use crate::oci::registry::RegistryClient;
use crate::oci::{Digest, OciError, Reference, Store, media_types};

/// Where the images of a closure are read from.
#[derive(Clone)]
pub enum Sources {
    /// Registries: each image is read from its own repository.
    Registry(RegistryClient),
    /// One store that holds everything by digest (an OCI layout, an imgpkg tarball).
    Single(Arc<dyn Store>),
}

impl Sources {
    /// The store to read `reference`'s repository from.
    pub fn store_for(&self, reference: &Reference) -> Arc<dyn Store> {
        match self {
            Sources::Registry(client) => Arc::new(client.store(reference)),
            Sources::Single(store) => store.clone(),
        }
    }
}

/// What an item of the closure is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An imgpkg bundle; `images` are the direct images of its `images.yml`, as
    /// written there (original reference, digest).
    Bundle { images: Vec<(String, Digest)> },
    /// A plain image or an index.
    Image,
    /// A cosign signature, attestation or SBOM, or a referrers index, of `subject`.
    Signature { subject: Digest },
}

/// One top-level manifest to copy and everything under it.
#[derive(Clone)]
pub struct Item {
    pub digest: Digest,
    /// The store it is read from.
    pub source: Arc<dyn Store>,
    /// Its digest reference in the source (`registry/repo@sha256:…`, or the
    /// original reference when the source is a layout or tarball).
    pub source_ref: String,
    /// The reference as the parent `images.yml` (or the command line) wrote it.
    pub orig_ref: String,
    /// The tag it keeps at the destination besides the generated one: the
    /// source tag of the root bundle, the cosign tag of a signature; `""` when none.
    pub tag: String,
    /// The root bundle of the copy.
    pub root: bool,
    pub kind: Kind,
    /// Its manifests (children first) and blobs.
    pub graph: ImageGraph,
}

impl Item {
    pub fn is_bundle(&self) -> bool {
        matches!(self.kind, Kind::Bundle { .. })
    }
}

/// Everything a copy moves, in discovery order (the root, when there is one, first).
#[derive(Clone, Default)]
pub struct Closure {
    pub items: Vec<Item>,
}

impl Closure {
    /// The root bundle, if the copy has one.
    pub fn root(&self) -> Option<&Item> {
        self.items.iter().find(|i| i.root)
    }

    /// The item with manifest `digest`.
    pub fn get(&self, digest: &Digest) -> Option<&Item> {
        self.items.iter().find(|i| &i.digest == digest)
    }
}

/// What the walk starts from.
#[derive(Clone, Debug)]
pub struct Start {
    /// A reference in the source: a registry reference, or (for a single store)
    /// a tag or digest in it.
    pub reference: String,
    /// How the item is named in lock output and tarball metadata.
    pub orig_ref: String,
    /// The tag it keeps.
    pub tag: String,
    /// `Some(true)`: must be a bundle (`-b`); `Some(false)`: must not be (`-i`,
    /// ImagesLock); `None`: either (a tarball's entries).
    pub expect_bundle: Option<bool>,
    /// The root bundle.
    pub root: bool,
}

/// How the walk behaves.
#[derive(Clone)]
pub struct WalkOptions {
    /// Carry signatures, attestations, SBOMs and referrers.
    pub signatures: bool,
    /// How many manifests are fetched at once.
    pub concurrency: usize,
    /// Told of every manifest, bundle and kept tag as soon as the walk finds it
    /// (a [`Prober`](crate::copy::held::Prober) asks the destination about them
    /// meanwhile).
    pub discovered: Option<Arc<dyn Fn(Discovered) + Send + Sync>>,
}

/// What the walk has found, as soon as it finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Discovered {
    /// A manifest of the closure, by digest.
    Manifest(Digest),
    /// A manifest that is a bundle.
    Bundle(Digest),
    /// A tag an item keeps at the destination (not the root's).
    Tag(String),
}

impl WalkOptions {
    fn tell(&self, found: Discovered) {
        if let Some(discovered) = &self.discovered {
            discovered(found);
        }
    }
}

struct Pending {
    store: Arc<dyn Store>,
    /// Tag or digest inside `store`.
    reference: String,
    source_ref: String,
    orig_ref: String,
    tag: String,
    expect_bundle: Option<bool>,
    root: bool,
    signature_of: Option<Digest>,
    /// The bundle whose `images.yml` locks it, for messages.
    locked_by: Option<String>,
}

/// One manifest of a level, fetched and expanded.
struct Walked {
    digest: Digest,
    root: bool,
    tag: String,
    expanded: Result<(Item, Vec<Pending>)>,
}

/// Another way the walk met an item (or a manifest not yet fetched): it is the
/// root if either is, and it keeps the first tag it was given.
fn merge_into(root: &mut bool, tag: &mut String, other_root: bool, other_tag: String) {
    *root |= other_root;
    if tag.is_empty() {
        *tag = other_tag;
    }
}

impl Item {
    fn merge(&mut self, root: bool, tag: String) {
        merge_into(&mut self.root, &mut self.tag, root, tag);
    }
}

impl Pending {
    fn merge(&mut self, root: bool, tag: String) {
        merge_into(&mut self.root, &mut self.tag, root, tag);
    }
}

/// Walks the closure of `starts` in `sources`; `scratch` holds bundle layers
/// while their `images.yml` is read. The walk goes level by level (the order a
/// queue would give): each manifest of a level is fetched and expanded in one
/// go, up to [`WalkOptions::concurrency`] at a time, and the results are merged
/// in level order, so the closure is the same whatever the timing.
pub async fn walk(
    sources: &Sources,
    starts: &[Start],
    options: &WalkOptions,
    scratch: &Path,
) -> Result<Closure> {
    let mut closure = Closure::default();
    let mut seen: HashMap<Digest, usize> = HashMap::new();
    let mut level: Vec<Pending> = Vec::new();
    for start in starts {
        let (store, reference, source_ref) = match sources {
            Sources::Registry(_) => {
                let parsed = Reference::parse(&start.reference)?;
                (
                    sources.store_for(&parsed),
                    parsed.manifest_reference(),
                    parsed.name(),
                )
            }
            Sources::Single(store) => (
                store.clone(),
                start.reference.clone(),
                start.orig_ref.clone(),
            ),
        };
        level.push(Pending {
            store,
            reference,
            source_ref,
            orig_ref: start.orig_ref.clone(),
            tag: start.tag.clone(),
            expect_bundle: start.expect_bundle,
            root: start.root,
            signature_of: signature_subject(&start.tag),
            locked_by: None,
        });
    }
    let limit = options.concurrency.max(1);
    let finder = SignatureFinder::new();
    while !level.is_empty() {
        // A digest met before, in an earlier level or earlier in this one, is
        // merged into the first without being fetched again.
        let mut to_walk: Vec<Pending> = Vec::new();
        let mut walk_at: HashMap<Digest, usize> = HashMap::new();
        for pending in level {
            if let Ok(digest) = pending.reference.parse::<Digest>() {
                if let Some(&index) = seen.get(&digest) {
                    closure.items[index].merge(pending.root, pending.tag);
                    continue;
                }
                if let Some(&index) = walk_at.get(&digest) {
                    to_walk[index].merge(pending.root, pending.tag);
                    continue;
                }
                walk_at.insert(digest.clone(), to_walk.len());
                options.tell(Discovered::Manifest(digest));
            }
            if !pending.root && !pending.tag.is_empty() {
                options.tell(Discovered::Tag(pending.tag.clone()));
            }
            to_walk.push(pending);
        }
        // Each manifest is fetched and expanded in one go (no wait for the rest
        // of the level in between), up to `limit` at once, in level order.
        let walked: Vec<Result<Walked>> = stream::iter(to_walk.into_iter().map(|pending| async {
            let graph = walk_image(pending.store.as_ref(), &pending.reference)
                .await
                .map_err(|e| {
                    // A bundle in a layout or tarball that locks what is not
                    // there: the usual cause is a package bundle released into
                    // a layout of its own.
                    let hint = match (sources, &e) {
                        (Sources::Single(_), OciError::ManifestUnknown { .. }) if !pending.root => {
                            " (if another OCI layout or tarball holds it, name that with \
                             --image-source)"
                        }
                        _ => "",
                    };
                    CopyError::invalid(format!("image {}: {e}{hint}", describe_pending(&pending)))
                })?;
            let digest = graph.root().digest.clone();
            options.tell(Discovered::Manifest(digest.clone()));
            let (root, tag) = (pending.root, pending.tag.clone());
            let expanded = expand(sources, pending, graph, options, &finder, scratch).await;
            Ok(Walked {
                digest,
                root,
                tag,
                expanded,
            })
        }))
        .buffered(limit)
        .collect()
        .await;
        level = Vec::new();
        for walked in walked {
            let walked = walked?;
            // A tag that named a manifest met already: merged, its expansion
            // (the same manifest's) dropped.
            if let Some(&index) = seen.get(&walked.digest) {
                closure.items[index].merge(walked.root, walked.tag);
                continue;
            }
            let (item, children) = walked.expanded?;
            seen.insert(item.digest.clone(), closure.items.len());
            closure.items.push(item);
            level.extend(children);
        }
    }
    Ok(closure)
}

/// One manifest of the walk made an [`Item`]: whether it is a bundle (then the
/// images its lock names follow), and its signatures and referrers.
async fn expand(
    sources: &Sources,
    pending: Pending,
    graph: ImageGraph,
    options: &WalkOptions,
    finder: &SignatureFinder,
    scratch: &Path,
) -> Result<(Item, Vec<Pending>)> {
    let digest = graph.root().digest.clone();
    let mut children = Vec::new();
    let source_ref = match sources {
        Sources::Registry(_) => format!("{}@{digest}", pending.source_ref),
        Sources::Single(_) if pending.source_ref.is_empty() => {
            format!("{}@{digest}", pending.store.location())
        }
        Sources::Single(_) => with_digest(&pending.source_ref, &digest),
    };
    let what = describe_pending(&pending);
    let in_image = |e: CopyError| CopyError::invalid(format!("image {what}: {e}"));
    // Whether it is a bundle (and the images its lock names) and its signatures
    // are looked up at once.
    let bundle_part = async {
        let mut lock_children = Vec::new();
        let is_bundle = match &pending.signature_of {
            Some(_) => false,
            None => is_bundle(pending.store.as_ref(), &graph)
                .await
                .map_err(in_image)?,
        };
        match (pending.expect_bundle, is_bundle) {
            (Some(true), false) => {
                return Err(CopyError::invalid(format!(
                    "{source_ref}: Expected bundle image but found plain image (hint: Did you use -i instead of -b?)"
                )));
            }
            (Some(false), true) => {
                return Err(CopyError::invalid(format!(
                    "{source_ref}: Expected image flag when given an image reference, found a bundle (hint: use -b for bundles)"
                )));
            }
            _ => {}
        }
        let kind = if let Some(subject) = pending.signature_of.clone() {
            Kind::Signature { subject }
        } else if is_bundle {
            options.tell(Discovered::Bundle(digest.clone()));
            let lock = read_images_lock(pending.store.as_ref(), &graph, &source_ref, scratch)
                .await
                .map_err(in_image)?;
            let located: Vec<Result<(Arc<dyn Store>, String)>> =
                stream::iter(lock.images.iter().map(|locked| {
                    locate(
                        sources,
                        pending.store.clone(),
                        &pending.source_ref,
                        &locked.image,
                    )
                }))
                .buffered(options.concurrency.max(1))
                .collect()
                .await;
            let mut images = Vec::new();
            for (locked, located) in lock.images.iter().zip(located) {
                let image_digest = locked
                    .image
                    .digest()
                    .expect("lock refs are digests")
                    .clone();
                images.push((locked.image.to_string(), image_digest.clone()));
                let (store, child_source) = located.map_err(in_image)?;
                lock_children.push(Pending {
                    store,
                    reference: image_digest.to_string(),
                    source_ref: child_source,
                    orig_ref: locked.image.to_string(),
                    tag: String::new(),
                    expect_bundle: None,
                    root: false,
                    signature_of: None,
                    locked_by: Some(source_ref.clone()),
                });
            }
            Kind::Bundle { images }
        } else {
            Kind::Image
        };
        Ok::<_, CopyError>((kind, lock_children))
    };
    let wants_signatures = options.signatures && pending.signature_of.is_none();
    let signature_part = async {
        if !wants_signatures {
            return Ok(None);
        }
        finder
            .find(pending.store.as_ref(), &digest)
            .await
            .map(Some)
            .map_err(|e| in_image(e.into()))
    };
    let (bundle_result, signature_result) = futures_util::join!(bundle_part, signature_part);
    let (kind, lock_children) = bundle_result?;
    children.extend(lock_children);
    if let Some(found) = signature_result? {
        let signature_of = |reference: String, tag: String| Pending {
            store: pending.store.clone(),
            reference,
            source_ref: pending.source_ref.clone(),
            orig_ref: String::new(),
            tag,
            expect_bundle: Some(false),
            root: false,
            signature_of: Some(digest.clone()),
            locked_by: None,
        };
        for referrer in found.referrers {
            children.push(signature_of(referrer.digest.to_string(), String::new()));
        }
        for tag in found.tags {
            children.push(signature_of(tag.clone(), tag));
        }
    }
    let orig_ref = if pending.orig_ref.is_empty() {
        source_ref.clone()
    } else {
        pending.orig_ref
    };
    let item = Item {
        digest,
        source: pending.store,
        source_ref,
        orig_ref,
        tag: pending.tag,
        root: pending.root,
        kind,
        graph,
    };
    Ok((item, children))
}

fn describe_pending(p: &Pending) -> String {
    if p.orig_ref.is_empty() {
        // A bundle (recorded by digest only): its reference as given, `@` for a
        // digest and `:` for a tag.
        let separator = if p.reference.parse::<Digest>().is_ok() {
            '@'
        } else {
            ':'
        };
        format!("{}{separator}{}", p.store.location(), p.reference)
    } else if let Some(bundle) = &p.locked_by {
        format!("{} (locked by bundle {bundle})", p.orig_ref)
    } else {
        p.orig_ref.clone()
    }
}

/// `name@digest` for a reference that may carry a tag or digest already.
fn with_digest(reference: &str, digest: &Digest) -> String {
    match Reference::parse(reference) {
        Ok(r) => format!("{}@{digest}", r.name()),
        Err(_) => format!("{reference}@{digest}"),
    }
}

/// Where an image a bundle locks is read: in registries, the bundle's own
/// repository first (a relocated bundle), then the reference as locked.
async fn locate(
    sources: &Sources,
    bundle_store: Arc<dyn Store>,
    bundle_repo: &str,
    image: &Reference,
) -> Result<(Arc<dyn Store>, String)> {
    match sources {
        Sources::Single(store) => Ok((store.clone(), image.to_string())),
        Sources::Registry(_) => {
            let digest = image.digest().expect("lock refs are digests");
            match bundle_store.resolve(digest.as_str()).await {
                Ok(Some(_)) => return Ok((bundle_store, bundle_repo.to_string())),
                Ok(None) => {}
                Err(e) if is_absent(&e) => {}
                Err(e) => return Err(e.into()),
            }
            Ok((sources.store_for(image), image.name()))
        }
    }
}

/// Whether the root of `graph` is an imgpkg bundle (an image whose config has
/// the bundle label).
async fn is_bundle(store: &dyn Store, graph: &ImageGraph) -> Result<bool> {
    let root = graph.root();
    if !root.is_image() {
        return Ok(false);
    }
    let refs = root.references(&store.location())?;
    let config = &refs[0];
    if !media_types::is_image(&root.media_type) || config.size > 1 << 20 {
        return Ok(false);
    }
    let bytes = read_small_blob(store, config).await?;
    match parse_config(&bytes, &format!("{}@{}", store.location(), root.digest)) {
        Ok(info) => Ok(info.is_bundle()),
        // Not an image config (a cosign payload, an artifact): not a bundle.
        Err(_) => Ok(false),
    }
}

/// Reads `.imgpkg/images.yml` out of a bundle's layer.
async fn read_images_lock(
    store: &dyn Store,
    graph: &ImageGraph,
    here: &str,
    scratch: &Path,
) -> Result<ImagesLock> {
    let refs = graph.root().references(&store.location())?;
    let layers = &refs[1..];
    if layers.len() != 1 {
        return Err(CopyError::invalid(format!(
            "{here}: Expected bundle to only have a single layer, got {}",
            layers.len()
        )));
    }
    let blob = download_blob(store, &layers[0], scratch).await?;
    let path = blob.path().to_path_buf();
    let label = format!("{here} layer {}", layers[0].digest);
    let files =
        tokio::task::spawn_blocking(move || find_files(&path, &[".imgpkg/images.yml"], &label))
            .await
            .map_err(|e| CopyError::invalid(format!("internal error: {e}")))??;
    let text = files
        .get(".imgpkg/images.yml")
        .ok_or_else(|| CopyError::invalid(format!("{here}: bundle has no .imgpkg/images.yml")))?;
    Ok(ImagesLock::parse(
        &String::from_utf8_lossy(text),
        &format!("{here}/.imgpkg/images.yml"),
    )?)
}
