//! Command-line interface: clap commands that parse flags, call one library
//! function each, and print. No logic lives here.

pub mod lock;
pub mod registry_args;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    /// Resolve image references in rendered YAML to digests and write locks (kbld-compatible)
    Lock(Box<lock::LockArgs>),
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("strake {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Lock(args) => lock::run(*args),
    }
}
