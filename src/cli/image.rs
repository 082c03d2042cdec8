//! `strake image digest` and `strake image copy`: print a manifest digest, and copy
//! an image or a whole index (every platform) between registries, OCI layouts and
//! imgpkg tarballs.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::cli::registry_args::RegistryArgs;
use crate::cli::{print_error, runtime};
use crate::oci::copy::{CopyOptions, DEFAULT_CONCURRENCY};
use crate::oci::ops;

#[derive(Subcommand)]
#[command(defer = true)]
pub enum ImageCommand {
    /// Print the digest (`sha256:…`) of an image's manifest.
    #[command(
        after_help = "Example: strake image digest ghcr.io/vmware-tanzu/pinniped/pinniped-server:v0.39.0"
    )]
    Digest(DigestArgs),
    /// Copy an image, or an index with all its platforms, between any two stores
    /// (registry, `oci:DIR` layout, `tar:FILE` imgpkg tarball) and print the
    /// destination digest reference.
    ///
    /// `tar:FILE` as destination writes a new imgpkg tarball holding this one image
    /// (like `imgpkg copy -i SRC --to-tar FILE`), replacing FILE atomically; as
    /// source it reads one (like `imgpkg copy --tar FILE`): the image it holds, or
    /// the one named with `tar:FILE@sha256:…` when it holds several.
    #[command(after_help = "Example: strake image copy registry.example.com/app:v1 tar:app.tar")]
    Copy(CopyArgs),
}

#[derive(Args)]
pub struct DigestArgs {
    /// The image: `REGISTRY/REPO:TAG`, `REGISTRY/REPO@DIGEST`, `oci:DIR[:TAG|@DIGEST]`,
    /// `tar:FILE[:TAG|@DIGEST]`.
    pub image: String,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

#[derive(Args)]
pub struct CopyArgs {
    /// Source image: `REGISTRY/REPO:TAG`, `REGISTRY/REPO@DIGEST`,
    /// `oci:DIR[:TAG|@DIGEST]` or `tar:FILE[:TAG|@DIGEST]` (an imgpkg tarball).
    pub source: String,
    /// Destination: `REGISTRY/REPO[:TAG]`, `oci:DIR[:TAG]` (created when missing) or
    /// `tar:FILE[:TAG]` (a new imgpkg tarball). Without a tag, the source tag is used.
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
