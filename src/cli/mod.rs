//! Command-line interface: clap commands that parse flags, call one library
//! function each, and print. No logic lives here.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Render ytt templates (ytt-compatible flags: -f, --data-value, -o, ...).
    Template(Box<template::TemplateArgs>),
    /// Work with package values (check a values file against a values schema).
    #[command(subcommand)]
    Values(values::ValuesCommand),
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("strake {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Template(args) => template::run(&args),
        Command::Values(cmd) => values::run(&cmd),
    }
}
