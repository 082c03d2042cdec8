//! Command-line interface: clap commands that parse flags, call one library
//! function each, and print. No logic lives here.

pub mod lock;
pub mod registry_args;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod bundle;
pub mod image;
pub mod stores;
pub mod tag;
pub mod template;
pub mod values;

#[derive(Parser)]
#[command(
    name = "strake",
    version,
    about = "Author, bundle and ship Carvel packages"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the version.
    Version,
    /// Image digests and copies between registries and OCI layouts.
    #[command(subcommand)]
    Image(image::ImageCommand),
    /// Tags of a registry repository or an OCI layout.
    #[command(subcommand)]
    Tag(tag::TagCommand),
    /// imgpkg-compatible bundles: push, pull, describe.
    /// Resolve image references in rendered YAML to digests and write locks (kbld-compatible)
    Lock(lock::LockArgs),
    /// Render ytt templates (ytt-compatible flags: -f, --data-value, -o, ...).
    Template(Box<template::TemplateArgs>),
    /// Work with package values (check a values file against a values schema).
    #[command(subcommand)]
    Values(values::ValuesCommand),
    Bundle(Box<bundle::BundleArgs>),
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("strake {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Image(command) => image::run(command),
        Command::Tag(command) => tag::run(command),
        Command::Template(args) => template::run(&args),
        Command::Lock(args) => lock::run(args),
        Command::Values(cmd) => values::run(&cmd),
        Command::Bundle(args) => bundle::run(*args),
    }
}

/// The tokio runtime the async library calls run on.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// Prints `strake: error: …` with the whole cause chain and returns exit code 1.
pub(crate) fn print_error(error: &anyhow::Error) -> ExitCode {
    eprintln!("strake: error: {error:#}");
    ExitCode::FAILURE
}
