//! `strake tag list`: the tags of a registry repository or an OCI layout.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::cli::registry_args::RegistryArgs;
use crate::cli::{print_error, runtime};
use crate::oci::ops;

#[derive(Subcommand)]
#[command(defer = true)]
pub enum TagCommand {
    /// Print every tag, sorted, one per line.
    #[command(after_help = "Example: strake tag list registry.example.com/pinniped/bundle")]
    List(ListArgs),
}

#[derive(Args)]
pub struct ListArgs {
    /// `REGISTRY/REPO`, `oci:DIR` or `tar:FILE` (an imgpkg tarball).
    pub repository: String,
    #[command(flatten)]
    pub registry: RegistryArgs,
}

pub fn run(command: TagCommand) -> ExitCode {
    let TagCommand::List(args) = command;
    let result = runtime().and_then(|rt| {
        let options = args.registry.options();
        let tags = rt.block_on(ops::list_tags(&args.repository, &options))?;
        for tag in tags {
            println!("{tag}");
        }
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => print_error(&e),
    }
}
