//! `strake lock`: kbld-compatible image locking of rendered YAML, or of a deploy directory
//! rendered with the template engine first (`--render`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::cli::registry_args::RegistryArgs;
use crate::cli::template::{DataValueArgs, TemplateArgs};
use crate::lock::images_file::read_images_file;
use crate::lock::input::read_inputs;
use crate::lock::platform::Platform;
use crate::lock::render::render_inputs;
use crate::lock::{LockError, LockOptions, lock_documents};

#[derive(Args, Debug)]
pub struct LockArgs {
    /// Rendered YAML to lock: a file, a directory (.yml/.yaml/.json, recursive) or - for stdin; repeatable
    #[arg(short = 'f', long = "file", value_name = "PATH", required = true)]
    pub files: Vec<String>,

    /// Render the -f paths as ytt templates first (default data values, plus the data value flags), then lock the output
    #[arg(long)]
    pub render: bool,

    // With --render: the data value flags of `strake template`.
    #[command(flatten)]
    pub values: DataValueArgs,

    /// Write an imgpkg ImagesLock (for a bundle's .imgpkg/images.yml)
    #[arg(
        long = "imgpkg-lock-output",
        value_name = "FILE",
        conflicts_with = "lock_output"
    )]
    pub imgpkg_lock_output: Option<PathBuf>,

    /// Write a kbld Config with preresolved overrides
    #[arg(long = "lock-output", value_name = "FILE")]
    pub lock_output: Option<PathBuf>,

    /// Extra references to lock that are not in the YAML (one per line, or an ImagesLock-like images list)
    #[arg(long = "images-file", value_name = "FILE")]
    pub images_file: Vec<String>,

    /// Select the image for this platform (os/arch[/variant]) from multi-platform indexes
    #[arg(long, value_name = "PLATFORM")]
    pub platform: Option<String>,

    /// Resolve references from this OCI layout first (index.json ref names are full references); repeatable
    #[arg(long = "image-source", value_name = "oci:DIR")]
    pub image_sources: Vec<String>,

    /// Contact no registry: only overrides, ImagesLock inputs, digests and image sources are used
    #[arg(long)]
    pub offline: bool,

    /// Registry lookups run in parallel
    #[arg(long, value_name = "N", default_value_t = crate::lock::run::DEFAULT_CONCURRENCY)]
    pub concurrency: usize,

    #[command(flatten)]
    pub registry: RegistryArgs,
}

/// Runs `strake lock`.
pub fn run(args: LockArgs) -> ExitCode {
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e @ LockError::Usage(_)) => crate::cli::print_usage_error(e),
        Err(e) => crate::cli::print_error(e),
    }
}

fn run_inner(args: LockArgs) -> Result<(), LockError> {
    let platform = match &args.platform {
        Some(p) => Some(Platform::parse(p).map_err(LockError::Usage)?),
        None => None,
    };
    let mut extra_images = Vec::new();
    for f in &args.images_file {
        extra_images.extend(read_images_file(f)?);
    }
    if !args.render && !args.values.is_empty() {
        return Err(LockError::Usage(
            "the data value flags (-v, --data-value-yaml, --data-values-file, ...) need --render"
                .into(),
        ));
    }
    let docs = if args.render {
        let template = TemplateArgs {
            files: args.files.clone(),
            values: args.values.clone(),
            ..TemplateArgs::default()
        };
        let cwd = std::env::current_dir()
            .map_err(|e| LockError::Input(format!("current directory: {e}")))?;
        render_inputs(template.to_options(), &cwd)?
    } else {
        read_inputs(&args.files)?
    };
    let options = LockOptions {
        platform,
        image_sources: args.image_sources.clone(),
        extra_images,
        offline: args.offline,
        concurrency: args.concurrency,
        registry: args.registry.options(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LockError::Input(format!("starting the async runtime: {e}")))?;
    let out = runtime.block_on(async {
        let out = lock_documents(docs, &options).await?;
        if let Some(path) = &args.imgpkg_lock_output {
            crate::oci::atomic::write_file(path, out.images_lock.as_bytes()).await?;
        }
        if let Some(path) = &args.lock_output {
            crate::oci::atomic::write_file(path, out.config_lock.as_bytes()).await?;
        }
        Ok::<_, LockError>(out)
    })?;
    for w in &out.warnings {
        eprintln!("strake: warning: {w}");
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(out.stdout.as_bytes())
        .and_then(|_| stdout.flush())
        .map_err(|e| LockError::Input(format!("writing stdout: {e}")))?;
    Ok(())
}
