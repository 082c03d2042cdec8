//! One `strake copy` run: open the source, walk the closure, plan, and then
//! either print the plan (`--dry-run`), move one shard of a plan's blobs
//! (`--shard K/N`), finish a sharded copy (`--finalize`), or do the whole copy:
//! transfer every blob, then write manifests, tags, locations images and the
//! lock output (registry or layout), or complete the tarball.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::copy::closure::{self, Closure, Sources, WalkOptions};
use crate::copy::destination::{is_layout_tar, open_destination_store};
use crate::copy::held::{Held, Prober, held_by};
use crate::copy::layout_tar::{IndexRecorder, LayoutTarOut, LayoutTarPlan};
use crate::copy::naming::TagScheme;
use crate::copy::plan::{DestinationSpec, Plan, PlannedBlob, Shard, SourceSpec, shard_of};
use crate::copy::progress::Progress;
use crate::copy::relocate::{LockInput, RelocateOptions, write_lock_output, write_manifests};
use crate::copy::source::open_source_with;
use crate::copy::tar_out::{TarOut, layout};
use crate::copy::transfer::{
    BlobJob, BlobSink, StoreSink, TransferOptions, TransferReport, transfer,
};
use crate::copy::{CopyError, Result};
use crate::oci::registry::{RegistryClient, RegistryOptions};
use crate::oci::tarball::TarballStore;
use crate::oci::{Digest, Reference, Store};

/// What the run does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The whole copy.
    #[default]
    Full,
    /// Print (and write) the plan; move nothing.
    DryRun,
    /// Move one shard of a plan's blobs; write no manifest.
    Shard(Shard),
    /// Check that every blob of a plan is there, then write manifests and tags.
    Finalize,
}

/// A copy as the command line asks for it.
#[derive(Clone, Debug)]
pub struct CopyRequest {
    pub source: SourceSpec,
    pub destination: DestinationSpec,
    pub registry: RegistryOptions,
    pub concurrency: usize,
    pub tags: TagScheme,
    pub include_non_distributable: bool,
    pub signatures: bool,
    pub lock_output: Option<PathBuf>,
    pub plan_output: Option<PathBuf>,
    /// The plan given with `--plan F` (shards and finalize read it; its source
    /// and destination are the request's).
    pub plan: Option<Plan>,
    pub mode: Mode,
    /// No progress output (`--json`).
    pub quiet: bool,
    /// Sync a tarball's or layout tar's entries and the finished archive to
    /// disk before counting them complete (`--fsync`).
    pub fsync: bool,
    /// Read the layers that a tarball already at `--to-tar`'s path holds from
    /// it, instead of from their sources (imgpkg's `--resume`).
    pub resume: bool,
    /// Layouts or tarballs searched by digest beside a layout or tarball source
    /// (`--image-source`).
    pub image_sources: Vec<String>,
}

/// What a run did (`--json` prints it).
#[derive(Clone, Debug, Serialize)]
pub struct CopyReport {
    pub destination: String,
    /// `repo@digest` (or `tar:FILE@digest`) of the root bundle, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    pub bundles: usize,
    pub images: usize,
    pub signatures: usize,
    pub blobs: usize,
    pub bytes: u64,
    pub transfer: TransferReport,
    /// Bytes read from the sources by this run.
    pub bytes_read: u64,
    pub tags: Vec<String>,
    #[serde(skip)]
    pub plan: Option<Plan>,
}

/// Runs the copy.
pub async fn run(request: &CopyRequest) -> Result<CopyReport> {
    validate(request)?;
    let client = RegistryClient::new(request.registry.clone())?;
    let scratch = tempfile::Builder::new()
        .prefix(".strake-copy-")
        .tempdir()
        .map_err(|e| CopyError::invalid(format!("creating a scratch directory: {e}")))?;
    match request.mode {
        Mode::Shard(shard) => return run_shard(request, &client, shard).await,
        Mode::Finalize => {}
        Mode::Full | Mode::DryRun => {}
    }
    let opened = open_source_with(&request.source, &client, &request.image_sources)?;
    // A destination registry is asked what it holds while the sources are
    // walked (its ping, its tags, and each manifest as the walk finds it).
    let prober = match (&request.destination, &request.mode) {
        (DestinationSpec::Repo(_), Mode::Full | Mode::Finalize) => Some(Prober::start(
            open_destination_store(&request.destination, &client, true)?,
            request.concurrency,
        )),
        _ => None,
    };
    let walk_options = WalkOptions {
        signatures: request.signatures,
        concurrency: request.concurrency,
        discovered: prober.as_ref().map(Prober::watcher),
    };
    let closure = closure::walk(
        &opened.sources,
        &opened.starts,
        &walk_options,
        scratch.path(),
    )
    .await;
    let closure = closure?;
    let mut plan = Plan::new(
        &closure,
        &opened.sources,
        request.source.clone(),
        request.destination.clone(),
        request.include_non_distributable,
    );
    let sources_by_blob = blob_sources(&closure);
    if request.mode == Mode::DryRun || request.plan_output.is_some() {
        if let Ok(dest) = open_destination_store(&request.destination, &client, false) {
            count_present(&mut plan, dest.as_ref(), request.concurrency).await?;
        }
        if let Some(path) = &request.plan_output {
            crate::oci::atomic::write_file(path, plan.to_json().as_bytes()).await?;
        }
        if request.mode == Mode::DryRun {
            return Ok(report_of(
                &plan,
                &request.destination,
                None,
                TransferReport::default(),
                0,
                vec![],
                Some(plan.clone()),
            ));
        }
    }
    let jobs: Vec<BlobJob> = plan
        .blobs
        .iter()
        .map(|b| BlobJob {
            blob: b.clone(),
            source: sources_by_blob[&b.digest].clone(),
            known_present: false,
        })
        .collect();
    let options = TransferOptions {
        concurrency: request.concurrency,
        client: Some(client.clone()),
        retries: request.registry.retry_count,
    };
    match &request.destination {
        DestinationSpec::Tar(path) => {
            let path = PathBuf::from(path);
            let tar_layout = layout(&closure, request.include_non_distributable).await?;
            let out = TarOut::open(&path, &tar_layout, request.fsync)?;
            // Configs travel inside manifest.json; only layers have entries.
            let entries: std::collections::HashSet<&Digest> =
                tar_layout.layers.iter().map(|(d, _)| &d.digest).collect();
            let mut jobs: Vec<BlobJob> = jobs
                .into_iter()
                .filter(|j| entries.contains(&j.blob.digest))
                .collect();
            let reused = if request.resume {
                reuse_earlier_tarball(&path, &mut jobs).await
            } else {
                (0, 0)
            };
            let progress = Progress::new(plan.bytes, plan.blobs.len() as u64, request.quiet);
            let result = transfer(jobs, &out, &options, &progress).await;
            progress.finish();
            let mut report = result?;
            (report.reused_blobs, report.reused_bytes) = reused;
            out.complete().await?;
            for item in &closure.items {
                progress.image_done(&format!("exported {}", item.orig_ref));
            }
            let root = closure
                .root()
                .map(|r| format!("tar:{}@{}", path.display(), r.digest));
            Ok(report_of(
                &plan,
                &request.destination,
                root,
                report,
                progress.bytes_moved(),
                vec![],
                None,
            ))
        }
        DestinationSpec::OciLayout(file) if is_layout_tar(file) => {
            export_layout_tar(request, &closure, &plan, jobs, &options, Path::new(file)).await
        }
        DestinationSpec::Repo(_) | DestinationSpec::OciLayout(_) => {
            let dest = open_destination_store(&request.destination, &client, true)?;
            let progress = Progress::new(plan.bytes, plan.blobs.len() as u64, request.quiet);
            let sink = StoreSink(dest.clone());
            let held = match prober {
                Some(prober) => prober.finish(&closure).await,
                None => held_by(&closure, dest.clone(), request.concurrency).await,
            };
            let report = if request.mode == Mode::Finalize {
                check_all_present(&plan, &sink).await?;
                TransferReport {
                    present_blobs: plan.blobs.len(),
                    present_bytes: plan.bytes,
                    ..TransferReport::default()
                }
            } else {
                let jobs = mark_blobs_of_held_images(&closure, jobs, &held);
                let result = transfer(jobs, &sink, &options, &progress).await;
                progress.finish();
                result?
            };
            let is_registry = matches!(request.destination, DestinationSpec::Repo(_));
            let tags = write_manifests(
                &closure,
                dest.as_ref(),
                &RelocateOptions {
                    tags: request.tags,
                    locations: is_registry,
                    concurrency: request.concurrency,
                },
                &held,
                &progress,
            )
            .await?;
            dest.finish().await?;
            let root_digest = closure.root().map(|r| r.digest.clone());
            let root = root_digest.as_ref().map(|d| match &request.destination {
                DestinationSpec::Repo(r) => format!("{}@{d}", repo_name(r)),
                DestinationSpec::OciLayout(dir) | DestinationSpec::Tar(dir) => {
                    format!("oci:{dir}@{d}")
                }
            });
            if let (Some(path), DestinationSpec::Repo(repo)) =
                (&request.lock_output, &request.destination)
            {
                let destination = Reference::parse(repo)?;
                let lock_input = match (&opened.lock, closure.root()) {
                    (_, Some(_)) => LockInput::Bundle,
                    (Some(lock), None) => LockInput::ImagesLock(lock),
                    (None, None) => LockInput::Images,
                };
                write_lock_output(&closure, &destination, lock_input, path)?;
            }
            Ok(report_of(
                &plan,
                &request.destination,
                root,
                report,
                progress.bytes_moved(),
                tags,
                None,
            ))
        }
    }
}

/// `--to-oci-layout FILE.tar`: the manifests and `index.json` a layout
/// directory would get are recorded first, then the archive is written in place
/// and every blob streamed to its entry.
async fn export_layout_tar(
    request: &CopyRequest,
    closure: &Closure,
    plan: &Plan,
    jobs: Vec<BlobJob>,
    options: &TransferOptions,
    path: &Path,
) -> Result<CopyReport> {
    let location = format!("oci:{}", path.display());
    let recorder = IndexRecorder::new(&location);
    let relocate = RelocateOptions {
        tags: request.tags,
        locations: false,
        concurrency: 1,
    };
    let quiet = Progress::new(0, 0, true);
    let tags = write_manifests(closure, &recorder, &relocate, &Held::default(), &quiet).await?;
    let (manifests, index) = recorder.into_parts();
    let blobs: Vec<_> = plan.blobs.iter().map(PlannedBlob::descriptor).collect();
    let archive = LayoutTarPlan::new(&blobs, &manifests, index);
    let out = LayoutTarOut::open(path, &archive, request.fsync)?;
    let progress = Progress::new(plan.bytes, plan.blobs.len() as u64, request.quiet);
    let result = transfer(jobs, &out, options, &progress).await;
    progress.finish();
    let report = result?;
    out.complete()?;
    for item in &closure.items {
        progress.image_done(&format!(
            "copied {} -> {location}@{}",
            item.orig_ref, item.digest
        ));
    }
    let root = closure.root().map(|r| format!("{location}@{}", r.digest));
    Ok(report_of(
        plan,
        &request.destination,
        root,
        report,
        progress.bytes_moved(),
        tags,
        None,
    ))
}

fn report_of(
    plan: &Plan,
    destination: &DestinationSpec,
    root: Option<String>,
    transfer: TransferReport,
    bytes_read: u64,
    tags: Vec<String>,
    full_plan: Option<Plan>,
) -> CopyReport {
    CopyReport {
        destination: match destination {
            DestinationSpec::Repo(r) => r.clone(),
            DestinationSpec::Tar(t) => format!("tar:{t}"),
            DestinationSpec::OciLayout(d) => format!("oci:{d}"),
        },
        root,
        bundles: plan.bundles,
        images: plan.images,
        signatures: plan.signatures,
        blobs: plan.blobs.len(),
        bytes: plan.bytes,
        transfer,
        bytes_read,
        tags,
        plan: full_plan,
    }
}

/// Points every job whose layer the tarball already at `path` holds intact
/// (its bytes, read and hashed here, are the layer's) at that tarball, so the
/// copy reads it there rather than from its source; the rest, and layers the
/// tarball holds damaged, keep their source. Gives how many jobs were pointed
/// there and their bytes. A file that is not an imgpkg tarball is left to be
/// replaced, with a warning.
async fn reuse_earlier_tarball(path: &Path, jobs: &mut [BlobJob]) -> (usize, u64) {
    if !path.is_file() {
        return (0, 0);
    }
    let earlier: Arc<dyn Store> = match TarballStore::open(path) {
        Ok(store) => Arc::new(store),
        Err(e) => {
            tracing::warn!("--resume: {e}; it is written anew");
            return (0, 0);
        }
    };
    let (mut blobs, mut bytes) = (0, 0);
    for job in jobs {
        if holds_intact(earlier.as_ref(), &job.blob).await {
            job.source = earlier.clone();
            blobs += 1;
            bytes += job.blob.size;
        }
    }
    tracing::info!(blobs, bytes, tarball = %path.display(), "--resume: layers read from the earlier tarball");
    (blobs, bytes)
}

/// Whether `store` holds `blob` at its size with bytes that hash to its digest
/// (the store's own reading verifies them).
async fn holds_intact(store: &dyn Store, blob: &PlannedBlob) -> bool {
    use futures_util::StreamExt;
    if !matches!(store.blob_size(&blob.digest).await, Ok(Some(size)) if size == blob.size) {
        return false;
    }
    let Ok(mut stream) = store.get_blob(&blob.digest).await else {
        return false;
    };
    while let Some(chunk) = stream.next().await {
        if let Err(e) = chunk {
            tracing::warn!("--resume: {e}; the layer is fetched from its source");
            return false;
        }
    }
    true
}

fn validate(request: &CopyRequest) -> Result<()> {
    if request.lock_output.is_some() && !matches!(request.destination, DestinationSpec::Repo(_)) {
        return Err(CopyError::invalid(
            "--lock-output is only allowed with --to-repo",
        ));
    }
    if matches!(request.mode, Mode::Shard(_) | Mode::Finalize)
        && match &request.destination {
            DestinationSpec::Tar(_) => true,
            DestinationSpec::OciLayout(file) => is_layout_tar(file),
            DestinationSpec::Repo(_) => false,
        }
    {
        return Err(CopyError::invalid(
            "--shard and --finalize need a registry or OCI layout destination (--to-repo, --to-oci-layout DIR)",
        ));
    }
    if let DestinationSpec::Repo(repo) = &request.destination {
        let r = Reference::parse(repo)?;
        if r.tag().is_some() || r.digest().is_some() {
            return Err(CopyError::invalid(format!(
                "--to-repo {repo}: expected a repository without tag or digest"
            )));
        }
    }
    Ok(())
}

fn repo_name(repo: &str) -> String {
    Reference::parse(repo)
        .map(|r| r.name())
        .unwrap_or_else(|_| repo.to_string())
}

/// The store each blob is read from (the first item that uses it).
fn blob_sources(closure: &Closure) -> HashMap<Digest, Arc<dyn Store>> {
    let mut out: HashMap<Digest, Arc<dyn Store>> = HashMap::new();
    for item in &closure.items {
        for blob in &item.graph.blobs {
            out.entry(blob.digest.clone())
                .or_insert_with(|| item.source.clone());
        }
    }
    out
}

/// Marks the blobs of every image the destination holds already (its manifest is
/// there, so, as registries and layouts keep them, are all the blobs it names):
/// they are not asked about one by one.
fn mark_blobs_of_held_images(
    closure: &Closure,
    mut jobs: Vec<BlobJob>,
    held: &Held,
) -> Vec<BlobJob> {
    let known: std::collections::HashSet<&Digest> = closure
        .items
        .iter()
        .filter(|item| held.manifests.contains(&item.digest))
        .flat_map(|item| item.graph.blobs.iter().map(|b| &b.digest))
        .collect();
    for job in &mut jobs {
        job.known_present = known.contains(&job.blob.digest);
    }
    jobs
}

/// Asks the destination which blobs it has (HEAD requests, bounded concurrency).
async fn count_present(plan: &mut Plan, dest: &dyn Store, concurrency: usize) -> Result<()> {
    use futures_util::{StreamExt, TryStreamExt};
    let sizes: Vec<(bool, u64)> = futures_util::stream::iter(plan.blobs.iter())
        .map(|b| async move {
            let size = match dest.blob_size(&b.digest).await {
                Ok(s) => s,
                Err(e) if crate::bundle::pull::is_absent(&e) => None,
                Err(e) => {
                    return Err(CopyError::invalid(format!(
                        "image {}: blob {}: asking {} whether it has it: {e}",
                        b.image,
                        b.digest,
                        dest.location()
                    )));
                }
            };
            Ok::<_, CopyError>((size == Some(b.size), b.size))
        })
        .buffered(concurrency.max(1))
        .try_collect()
        .await?;
    plan.present_blobs = Some(sizes.iter().filter(|(p, _)| *p).count());
    plan.present_bytes = Some(sizes.iter().filter(|(p, _)| *p).map(|(_, s)| s).sum());
    Ok(())
}

async fn check_all_present(plan: &Plan, sink: &dyn BlobSink) -> Result<()> {
    let mut missing: Vec<&PlannedBlob> = Vec::new();
    for blob in &plan.blobs {
        let there = sink.has(&blob.descriptor()).await.map_err(|e| {
            CopyError::invalid(format!(
                "image {}: blob {}: asking {} whether it has it: {e}",
                blob.image,
                blob.digest,
                sink.location()
            ))
        })?;
        if !there {
            missing.push(blob);
        }
    }
    if let Some(first) = missing.first() {
        return Err(CopyError::invalid(format!(
            "{}: {} of {} blobs are not there yet (first: {} of image {}); run every shard first",
            sink.location(),
            missing.len(),
            plan.blobs.len(),
            first.digest,
            first.image
        )));
    }
    Ok(())
}

/// `--plan F --shard K/N`: moves the shard's blobs, reading each from the
/// repository the plan names (or the one source store).
async fn run_shard(
    request: &CopyRequest,
    client: &RegistryClient,
    shard: Shard,
) -> Result<CopyReport> {
    let plan = Plan {
        source: request.source.clone(),
        destination: request.destination.clone(),
        ..request_plan(request)?
    };
    let blobs = shard_of(&plan, shard);
    let single: Option<Arc<dyn Store>> =
        match open_source_with(&plan.source, client, &request.image_sources)?.sources {
            Sources::Single(s) => Some(s),
            Sources::Registry(_) => None,
        };
    let mut jobs = Vec::new();
    for blob in &blobs {
        let source: Arc<dyn Store> = match &single {
            Some(s) => s.clone(),
            None => {
                let (registry, repo) = blob.source.split_once('/').ok_or_else(|| {
                    CopyError::invalid(format!(
                        "plan: blob {} has no source repository",
                        blob.digest
                    ))
                })?;
                Arc::new(client.repository(registry, repo))
            }
        };
        jobs.push(BlobJob {
            blob: blob.clone(),
            source,
            known_present: false,
        });
    }
    let dest = open_destination_store(&plan.destination, client, true)?;
    let sink = StoreSink(dest);
    let bytes: u64 = blobs.iter().map(|b| b.size).sum();
    let progress = Progress::new(bytes, blobs.len() as u64, request.quiet);
    let options = TransferOptions {
        concurrency: request.concurrency,
        client: Some(client.clone()),
        retries: request.registry.retry_count,
    };
    let result = transfer(jobs, &sink, &options, &progress).await;
    progress.finish();
    let report = result?;
    let mut shard_plan = plan.clone();
    shard_plan.blobs = blobs;
    shard_plan.bytes = bytes;
    Ok(report_of(
        &shard_plan,
        &plan.destination,
        None,
        report,
        progress.bytes_moved(),
        vec![],
        None,
    ))
}

fn request_plan(request: &CopyRequest) -> Result<Plan> {
    request
        .plan
        .clone()
        .ok_or_else(|| CopyError::invalid("--shard needs --plan FILE"))
}
