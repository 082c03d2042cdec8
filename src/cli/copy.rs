//! `strake copy`: imgpkg's `copy` flags (`-b`, `-i`, `--lock`, `--tar` →
//! `--to-repo`, `--to-tar`, and `--to-oci-layout`), plus the plan, shard and
//! finalize flags; one call of [`crate::copy::run::run`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::cli::registry_args::RegistryArgs;
use crate::cli::runtime;
use crate::copy::naming::TagScheme;
use crate::copy::plan::{DestinationSpec, Plan, Shard, SourceSpec};
use crate::copy::run::{CopyReport, CopyRequest, Mode, run as run_copy};
use crate::oci::copy::DEFAULT_CONCURRENCY;

/// How a copy that stopped half-way continues (`strake copy --help`).
pub const RESUME_HELP: &str = "\
Resume: run the same copy again. It keeps what is complete and moves only the rest:
blobs a registry or layout directory already holds are not sent again, and a
tarball or layout tar (written under a hidden .NAME.strake-partial name, renamed
when complete) keeps every entry its journal (.NAME.strake-journal) records
complete: as synced with --fsync, else once its bytes, hashed again, are the blob's
(so an entry a power cut lost is written again; without --fsync, nothing is synced,
as imgpkg, tar and curl leave their files to the kernel, and a killed copy loses
nothing).
A tarball an earlier copy finished is read again with --resume (imgpkg's flag): every
layer it holds intact (hashed again first) comes from it instead of from its source,
and the new tarball replaces it once complete.
Blobs that were in flight are continued, not fetched again from their first byte:
- layout directory: each blob in flight is written to a locked partial file named
  after its digest (.strake-tmp-partial-sha256-HEX); the rerun hashes its bytes
  again locally, fetches only the rest and verifies the whole blob before the
  rename (partials no rerun continues are removed when the copy finishes);
- tarball and layout tar: the journal records how much of each entry in flight
  is written; the rerun hashes that part again from the archive, fetches only
  the rest and verifies the whole entry before it counts as done;
- registry: the upload session of each blob above 8 MiB is recorded in
  $XDG_STATE_HOME/strake/uploads (else ~/.local/state/strake/uploads), one file
  per registry, repository and blob; the rerun asks the session how many bytes
  it holds and sends only the rest; the registry's check of the whole blob's
  digest at the closing PUT is the verification. A registry that refuses to
  continue the session (CNCF distribution does after a request cut off in the
  middle; an expired session; a refused digest) gets the blob again whole.
The rest is read from the source from that byte on (Range on a registry, which
falls back to a whole read when the registry ignores it; a seek in a layout or
tarball). So a rerun fetches what was left, plus, for a registry destination
that refuses to continue them, the blobs that were in flight (--json's
bytes_read counts the bytes fetched from the source; transfer.resumed_blobs and
resumed_bytes what was continued).

OCI layouts keep every manifest as it is (digests never change), Docker-typed ones
included, such as imgpkg bundles; skopeo (containers/image) finds only OCI-typed entries of a
layout or layout tar by name; strake (oci:DIR:TAG, oci:FILE.tar:TAG) reads them all.";

#[derive(Args)]
#[command(after_long_help = RESUME_HELP)]
pub struct CopyArgs {
    /// Bundle to copy with every nested bundle and image: a registry reference or
    /// `oci:DIR[:TAG|@DIGEST]` (DIR a layout directory or a tar of one)
    #[arg(short = 'b', long = "bundle", value_name = "REF")]
    pub bundle: Option<String>,
    /// Image (or index with all platforms) to copy; repeatable
    #[arg(short = 'i', long = "image", value_name = "REF")]
    pub images: Vec<String>,
    /// BundleLock or ImagesLock file naming what to copy
    #[arg(long = "lock", value_name = "FILE")]
    pub lock: Option<String>,
    /// imgpkg tarball to import
    #[arg(long = "tar", value_name = "FILE")]
    pub tar: Option<String>,
    /// Destination repository (everything goes into it, tagged sha256-<hex>.imgpkg)
    #[arg(long = "to-repo", value_name = "REPO")]
    pub to_repo: Option<String>,
    /// Destination imgpkg tarball
    #[arg(long = "to-tar", value_name = "FILE")]
    pub to_tar: Option<String>,
    /// Destination OCI image layout directory, or FILE.tar for a tar of one
    /// (written in place, resumed by a rerun; skopeo reads it as oci-archive:FILE.tar)
    #[arg(long = "to-oci-layout", value_name = "DIR")]
    pub to_oci_layout: Option<String>,
    /// Blobs moved at the same time, per registry (a rerun after a crash
    /// continues these in-flight blobs; see --help)
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY as u16, value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: u16,
    /// Tag copies after their source repository (<repo>-sha256-<hex>.imgpkg)
    #[arg(long)]
    pub repo_based_tags: bool,
    /// Also copy non-distributable ("foreign") layers
    #[arg(long)]
    pub include_non_distributable_layers: bool,
    /// Do not carry cosign signatures, attestations, SBOMs and referrers
    #[arg(long)]
    pub no_signatures: bool,
    /// Carry cosign signatures (imgpkg's flag; strake carries them unless
    /// --no-signatures)
    #[arg(long, conflicts_with = "no_signatures")]
    pub cosign_signatures: bool,
    /// Write a BundleLock or ImagesLock naming the copies (--to-repo only)
    #[arg(long, value_name = "FILE")]
    pub lock_output: Option<PathBuf>,
    /// Print what would move (bundles, images, blobs, bytes) and move nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Write the plan as JSON (for --plan … --shard / --finalize)
    #[arg(long, value_name = "FILE")]
    pub plan_output: Option<PathBuf>,
    /// Run from a plan written by --plan-output (with --shard or --finalize)
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Move shard K of N of the plan's blobs (K from 0)
    #[arg(long, value_name = "K/N", requires = "plan")]
    pub shard: Option<Shard>,
    /// After every shard: check the blobs and write manifests, tags and locations images
    #[arg(long, requires = "plan", conflicts_with = "shard")]
    pub finalize: bool,
    /// Print a JSON summary on stdout (errors too)
    #[arg(long)]
    pub json: bool,
    /// Sync each finished entry of --to-tar / --to-oci-layout FILE.tar and the
    /// archive to disk before counting them done, so that a finished copy
    /// survives a power cut (slower: waits for the disk)
    #[arg(long)]
    pub fsync: bool,
    /// Read the layers a tarball already at --to-tar's path holds (from an
    /// earlier copy, complete) from it instead of from their sources (imgpkg's
    /// --resume); the tarball is then written anew beside it and replaces it
    #[arg(long, requires = "to_tar")]
    pub resume: bool,
    /// Also search this OCI layout (oci:DIR, oci:FILE.tar) or imgpkg tarball
    /// (tar:FILE), by digest, for what a layout or tarball source locks and does
    /// not hold itself (package bundles released into layouts of their own);
    /// repeatable
    #[arg(long = "image-source", value_name = "oci:DIR")]
    pub image_sources: Vec<String>,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

impl CopyArgs {
    fn request(&self) -> anyhow::Result<CopyRequest> {
        let plan = match &self.plan {
            Some(path) => Some(Plan::read(path)?),
            None => None,
        };
        let mode = match (self.shard, self.finalize, self.dry_run) {
            (Some(shard), _, _) => Mode::Shard(shard),
            (None, true, _) => Mode::Finalize,
            (None, false, true) => Mode::DryRun,
            (None, false, false) if plan.is_some() => {
                anyhow::bail!("--plan needs --shard K/N or --finalize")
            }
            _ => Mode::Full,
        };
        let (source, destination) = match &plan {
            Some(plan) => {
                if self.bundle.is_some()
                    || !self.images.is_empty()
                    || self.lock.is_some()
                    || self.tar.is_some()
                {
                    anyhow::bail!("--plan gives the source; drop -b/-i/--lock/--tar");
                }
                (plan.source.clone(), plan.destination.clone())
            }
            None => (self.source()?, self.destination()?),
        };
        Ok(CopyRequest {
            source,
            destination,
            registry: self.registry.options(),
            concurrency: usize::from(self.concurrency),
            tags: if self.repo_based_tags {
                TagScheme::RepoBased
            } else {
                TagScheme::Digest
            },
            include_non_distributable: self.include_non_distributable_layers,
            signatures: !self.no_signatures,
            lock_output: self.lock_output.clone(),
            plan_output: self.plan_output.clone(),
            plan,
            mode,
            quiet: self.json,
            fsync: self.fsync,
            resume: self.resume,
            image_sources: self.image_sources.clone(),
        })
    }

    fn source(&self) -> anyhow::Result<SourceSpec> {
        let mut given = Vec::new();
        if let Some(b) = &self.bundle {
            given.push(SourceSpec::Bundle(b.clone()));
        }
        if !self.images.is_empty() {
            given.push(SourceSpec::Images(self.images.clone()));
        }
        if let Some(l) = &self.lock {
            given.push(SourceSpec::Lock(l.clone()));
        }
        if let Some(t) = &self.tar {
            given.push(SourceSpec::Tar(t.clone()));
        }
        match <[SourceSpec; 1]>::try_from(given) {
            Ok([one]) => Ok(one),
            Err(_) => anyhow::bail!("Expected exactly one of -b, -i, --lock or --tar"),
        }
    }

    fn destination(&self) -> anyhow::Result<DestinationSpec> {
        let mut given = Vec::new();
        if let Some(r) = &self.to_repo {
            given.push(DestinationSpec::Repo(r.clone()));
        }
        if let Some(t) = &self.to_tar {
            given.push(DestinationSpec::Tar(t.clone()));
        }
        if let Some(d) = &self.to_oci_layout {
            given.push(DestinationSpec::OciLayout(d.clone()));
        }
        match <[DestinationSpec; 1]>::try_from(given) {
            Ok([one]) => Ok(one),
            Err(_) => {
                anyhow::bail!("Expected exactly one of --to-repo, --to-tar or --to-oci-layout")
            }
        }
    }
}

fn print_report(report: &CopyReport, dry_run: bool) {
    if dry_run {
        if let Some(plan) = &report.plan {
            print!("{}", plan.summary());
        }
        return;
    }
    let t = &report.transfer;
    eprintln!(
        "copied {} bundles, {} images, {} signatures: {} blobs moved ({} bytes), {} already there, {} mounted",
        report.bundles,
        report.images,
        report.signatures,
        t.moved_blobs,
        t.moved_bytes,
        t.present_blobs,
        t.mounted_blobs
    );
    match &report.root {
        Some(root) => println!("{root}"),
        None => println!("{}", report.destination),
    }
}

pub fn run(args: CopyArgs) -> ExitCode {
    let json = args.json;
    let result = args.request().and_then(|request| {
        let rt = runtime()?;
        let dry_run = request.mode == Mode::DryRun;
        let report = rt.block_on(run_copy(&request))?;
        Ok((report, dry_run))
    });
    match (result, json) {
        (Ok((report, dry_run)), true) => {
            let mut value = serde_json::to_value(&report).expect("a report serialises");
            if dry_run && let Some(plan) = &report.plan {
                value["plan"] = serde_json::to_value(plan).expect("a plan serialises");
            }
            value["ok"] = serde_json::Value::Bool(true);
            println!("{value}");
            ExitCode::SUCCESS
        }
        (Ok((report, dry_run)), false) => {
            print_report(&report, dry_run);
            ExitCode::SUCCESS
        }
        (Err(e), json) => {
            if json {
                println!(
                    "{}",
                    serde_json::json!({"ok": false, "error": format!("{e:#}")})
                );
            }
            eprintln!("strake: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
