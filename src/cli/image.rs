//! `strake image digest` and `strake image copy`: print a manifest digest, and copy
//! an image or a whole index (every platform) between registries and OCI layouts.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::cli::registry_args::RegistryArgs;
use crate::cli::{print_error, runtime};
use crate::oci::copy::{CopyOptions, DEFAULT_CONCURRENCY};
use crate::oci::ops;

#[derive(Subcommand)]
pub enum ImageCommand {
    /// Print the digest (`sha256:…`) of an image's manifest.
    Digest(DigestArgs),
    /// Copy an image, or an index with all its platforms, between any two stores
    /// and print the destination digest reference.
    Copy(CopyArgs),
}

#[derive(Args)]
pub struct DigestArgs {
    /// The image: `REGISTRY/REPO:TAG`, `REGISTRY/REPO@DIGEST`, `oci:DIR[:TAG]`.
    pub image: String,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

#[derive(Args)]
pub struct CopyArgs {
    /// Source image: `REGISTRY/REPO:TAG`, `REGISTRY/REPO@DIGEST`, `oci:DIR[:TAG]`.
    pub source: String,
    /// Destination: `REGISTRY/REPO[:TAG]` or `oci:DIR[:TAG]` (created when missing).
    /// Without a tag, the source tag is used.
    pub destination: String,
    /// Blobs copied at the same time.
    #[arg(long, default_value_t = DEFAULT_CONCURRENCY as u16, value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: u16,
    /// Also copy non-distributable ("foreign") layers.
    #[arg(long)]
    pub include_non_distributable_layers: bool,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

pub fn run(command: ImageCommand) -> ExitCode {
    let result = match command {
        ImageCommand::Digest(args) => runtime().and_then(|rt| {
            let options = args.registry.options();
            let descriptor = rt.block_on(ops::image_digest(&args.image, &options))?;
            println!("{}", descriptor.digest);
            Ok(())
        }),
        ImageCommand::Copy(args) => runtime().and_then(|rt| {
            let options = args.registry.options();
            let copy = CopyOptions {
                concurrency: usize::from(args.concurrency),
                include_non_distributable: args.include_non_distributable_layers,
            };
            let copied =
                rt.block_on(ops::copy(&args.source, &args.destination, &options, &copy))?;
            println!("{}", copied.location);
            Ok(())
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    }
}
