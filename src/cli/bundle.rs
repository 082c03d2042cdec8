//! `strake bundle push|pull|describe`: imgpkg-compatible bundle commands. Each
//! parses its flags, opens the store named by `-b` (a registry reference or
//! `oci:DIR[:tag]`), calls one library function and prints the result.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};

use crate::bundle::describe::{describe_bundle, to_json, to_text, to_yaml};
use crate::bundle::image::parse_labels;
use crate::bundle::pull::{PullOptions, pull_bundle};
use crate::bundle::push::{PushOptions, push_bundle};
use crate::bundle::tar::TarOptions;
use crate::cli::registry_args::RegistryArgs;
use crate::cli::stores::Stores;

#[derive(Args)]
pub struct BundleArgs {
    #[command(subcommand)]
    command: BundleCommand,
}

#[derive(Subcommand)]
#[command(defer = true)]
enum BundleCommand {
    /// Push a directory as an imgpkg bundle.
    #[command(after_help = "Example: strake bundle push -b oci:build/layout:v1 -f deploy")]
    Push(PushArgs),
    /// Pull a bundle into a directory (safe extraction; images.yml rewritten when relocated).
    #[command(after_help = "Example: strake bundle pull -b oci:build/layout:v1 -o build/pulled")]
    Pull(PullArgs),
    /// Describe a bundle: its images, nested bundles and sizes.
    #[command(after_help = "Example: strake bundle describe -b oci:build/layout:v1 -o yaml")]
    Describe(DescribeArgs),
}

#[derive(Args)]
struct PushArgs {
    #[command(flatten)]
    registry: RegistryArgs,
    /// Where to push: a registry reference with a tag, or oci:DIR[:TAG].
    #[arg(short = 'b', long = "bundle", value_name = "REF")]
    bundle: String,
    /// Files or directories to include (repeatable, in order).
    #[arg(short = 'f', long = "file", value_name = "PATH", required = true)]
    files: Vec<PathBuf>,
    /// Relative paths to exclude (exact match; replaces the default `.git`).
    #[arg(long = "file-exclusion", alias = "file-exclude-defaults", value_name = "PATH", default_values_t = [".git".to_string()])]
    file_exclusion: Vec<String>,
    /// Write a BundleLock here.
    #[arg(long = "lock-output", value_name = "FILE")]
    lock_output: Option<PathBuf>,
    /// Extra config labels, key=value (repeatable).
    #[arg(short = 'l', long = "labels", value_name = "KEY=VALUE")]
    labels: Vec<String>,
    /// Keep full file modes (imgpkg --preserve-permissions, with its quirks).
    #[arg(long = "preserve-permissions")]
    preserve_permissions: bool,
    /// Compression threads (default: all cores; the digest does not depend on it).
    #[arg(long = "threads", env = "STRAKE_THREADS")]
    threads: Option<usize>,
    /// Do not use or update the layer cache.
    #[arg(long = "no-cache")]
    no_cache: bool,
}

#[derive(Args)]
struct PullArgs {
    #[command(flatten)]
    registry: RegistryArgs,
    /// The bundle: a registry reference or oci:DIR[:TAG|@DIGEST].
    #[arg(short = 'b', long = "bundle", value_name = "REF")]
    bundle: String,
    /// Output directory (replaced atomically when the pull succeeds).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,
    /// Also pull nested bundles into .imgpkg/bundles/.
    #[arg(short = 'r', long = "recursive")]
    recursive: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    Text,
    Yaml,
    Json,
}

#[derive(Args)]
struct DescribeArgs {
    #[command(flatten)]
    registry: RegistryArgs,
    /// The bundle: a registry reference or oci:DIR[:TAG|@DIGEST].
    #[arg(short = 'b', long = "bundle", value_name = "REF")]
    bundle: String,
    /// Output format.
    #[arg(short = 'o', long = "output-type", value_enum, default_value = "text")]
    output: OutputFormat,
}

/// Runs a bundle command.
pub fn run(args: BundleArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return crate::cli::print_error(format_args!("starting the async runtime: {e}")),
    };
    match runtime.block_on(dispatch(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut msg = e.to_string();
            let mut src = e.source();
            while let Some(s) = src {
                let text = s.to_string();
                if !msg.contains(&text) {
                    msg.push_str(": ");
                    msg.push_str(&text);
                }
                src = s.source();
            }
            crate::cli::print_error(msg)
        }
    }
}

async fn dispatch(args: BundleArgs) -> anyhow::Result<()> {
    match args.command {
        BundleCommand::Push(a) => push(a).await,
        BundleCommand::Pull(a) => pull(a).await,
        BundleCommand::Describe(a) => describe(a).await,
    }
}

async fn push(a: PushArgs) -> anyhow::Result<()> {
    let labels = parse_labels(&a.labels)?;
    let stores = Stores::new(a.registry.options())?;
    let (store, tag) = stores.destination(&a.bundle)?;
    let tag = tag.ok_or_else(|| {
        anyhow::anyhow!(
            "-b {}: a tag is required to push (e.g. REPO:TAG or oci:DIR:TAG)",
            a.bundle
        )
    })?;
    let mut options = PushOptions {
        tar: TarOptions {
            exclusions: a.file_exclusion,
            preserve_permissions: a.preserve_permissions,
        },
        labels,
        lock_output: a.lock_output,
        ..PushOptions::default()
    };
    if let Some(t) = a.threads {
        options.threads = t.max(1);
    }
    if a.no_cache {
        options.cache = None;
    }
    let result = push_bundle(store.as_ref(), &tag, &a.files, &options).await?;
    println!("Pushed '{}'", result.reference);
    println!("Succeeded");
    Ok(())
}

async fn pull(a: PullArgs) -> anyhow::Result<()> {
    let stores = Stores::new(a.registry.options())?;
    let (store, reference) = stores.source(&a.bundle).await?;
    let opener = |r: &crate::oci::Reference| stores.registry(r);
    let report = pull_bundle(
        store.as_ref(),
        &reference,
        &a.output,
        &PullOptions {
            recursive: a.recursive,
        },
        Some(&opener),
    )
    .await?;
    for b in &report.bundles {
        if b.path == std::path::Path::new(".") {
            println!("Pulling bundle '{}'", b.reference);
        } else {
            println!(
                "Pulling nested bundle '{}' into '{}'",
                b.reference,
                a.output.join(&b.path).display()
            );
        }
        println!("  Extracting layer '{}' (1/1)", b.layer);
        if b.relocated {
            println!(
                "  The bundle repo is hosting every image of .imgpkg/images.yml: rewrote it to point there"
            );
        }
    }
    println!();
    println!("Succeeded");
    Ok(())
}

async fn describe(a: DescribeArgs) -> anyhow::Result<()> {
    let stores = Stores::new(a.registry.options())?;
    let (store, reference) = stores.source(&a.bundle).await?;
    let opener = |r: &crate::oci::Reference| stores.registry(r);
    let d = describe_bundle(store.as_ref(), &reference, Some(&opener)).await?;
    let text = match a.output {
        OutputFormat::Text => to_text(&d),
        OutputFormat::Yaml => to_yaml(&d),
        OutputFormat::Json => to_json(&d),
    };
    print!("{text}");
    Ok(())
}
