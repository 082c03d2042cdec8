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
    /// Log progress to stderr: --verbose info, twice debug, three times trace
    /// (default: warnings only). `RUST_LOG` (e.g. `RUST_LOG=strake=debug`), when set,
    /// takes precedence. Long form only: `-v` is ytt's `--data-value` in `template`.
    #[arg(long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

/// Subcommands. Each one's flags are built only when it is the one run (`defer`): building
/// every flag of every subcommand took a third of a million instructions per run.
#[derive(Subcommand)]
#[command(defer = true)]
enum Command {
    /// Print the version.
    Version,
    /// Image digests and copies between registries, OCI layouts and imgpkg tarballs.
    #[command(subcommand)]
    Image(image::ImageCommand),
    /// Tags of a registry repository or an OCI layout.
    #[command(subcommand)]
    Tag(tag::TagCommand),
    /// imgpkg-compatible bundles: push, pull, describe.
    Bundle(Box<bundle::BundleArgs>),
    /// Resolve image references in rendered YAML to digests and write locks (kbld-compatible).
    Lock(Box<lock::LockArgs>),
    /// Render ytt templates (ytt-compatible flags: -f, --data-value, -o, ...).
    Template(Box<template::TemplateArgs>),
    /// Work with package values (check a values file against a values schema).
    #[command(subcommand)]
    Values(values::ValuesCommand),
}

impl Command {
    /// Whether the command logs through `tracing`: the registry, layout and bundle work
    /// does. Rendering, values checks and `version` never log, so they skip the
    /// subscriber's set-up (its span registry alone touches 36 KiB of fresh memory, nine
    /// page faults of a run that makes about a hundred).
    fn logs(&self) -> bool {
        !matches!(
            self,
            Command::Version | Command::Template(_) | Command::Values(_)
        )
    }
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.command.logs() {
        init_tracing(cli.verbose);
    }
    match cli.command {
        Command::Version => {
            println!("strake {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Command::Image(command) => image::run(command),
        Command::Tag(command) => tag::run(command),
        Command::Bundle(args) => bundle::run(*args),
        Command::Template(args) => template::run(&args),
        Command::Lock(args) => lock::run(*args),
        Command::Values(cmd) => values::run(&cmd),
    }
}

/// The log level `--verbose` given `count` times selects.
fn verbosity_filter(count: u8) -> &'static str {
    match count {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    }
}

/// Installs a tracing subscriber writing to stderr: `RUST_LOG` when it is set and
/// valid, else the level `--verbose` selects.
fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let from_env = std::env::var(EnvFilter::DEFAULT_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty());
    let filter = match from_env {
        Some(directives) => EnvFilter::try_new(&directives).unwrap_or_else(|e| {
            eprintln!("strake: warning: ignoring RUST_LOG={directives:?}: {e}");
            EnvFilter::new(verbosity_filter(verbose))
        }),
        None => EnvFilter::new(verbosity_filter(verbose)),
    };
    // A second initialisation (never in the binary) is harmless.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbose_flag_counts_and_is_global() {
        let cli = Cli::try_parse_from([
            "strake",
            "image",
            "digest",
            "--verbose",
            "--verbose",
            "oci:x",
        ])
        .unwrap();
        assert_eq!(verbosity_filter(cli.verbose), "debug");
        // `-v` stays ytt's --data-value in `strake template`.
        let cli = Cli::try_parse_from(["strake", "template", "-f", ".", "-v", "a=b"]).unwrap();
        assert_eq!(verbosity_filter(cli.verbose), "warn");
        let cli = Cli::try_parse_from(["strake", "version"]).unwrap();
        assert_eq!(verbosity_filter(cli.verbose), "warn");
        assert_eq!(verbosity_filter(1), "info");
        assert_eq!(verbosity_filter(9), "trace");
    }

    #[test]
    fn command_tree_is_consistent_and_help_keeps_subcommand_texts() {
        use clap::CommandFactory;
        // Builds every deferred subcommand and checks clap's rules on the whole tree.
        Cli::command().debug_assert();
        // Deferred flags are added after a subcommand's about text: an `Args` struct's
        // doc comment would replace it.
        let mut cli = Cli::command();
        cli.build();
        let about = |path: &[&str]| {
            let mut cmd = &cli;
            for name in path {
                cmd = cmd.find_subcommand(name).unwrap();
            }
            cmd.get_about().map(|a| a.to_string()).unwrap_or_default()
        };
        assert_eq!(
            about(&["template"]),
            "Render ytt templates (ytt-compatible flags: -f, --data-value, -o, ...)"
        );
        assert_eq!(
            about(&["values", "check"]),
            "Check a values file against a values schema (exit status 1 when it breaks it)"
        );
        assert_eq!(
            about(&["bundle", "push"]),
            "Push a directory as an imgpkg bundle"
        );
    }

    #[test]
    fn only_commands_that_log_set_up_tracing() {
        let logs = |args: &[&str]| Cli::try_parse_from(args).unwrap().command.logs();
        assert!(!logs(&["strake", "version"]));
        assert!(!logs(&["strake", "template", "-f", "."]));
        assert!(!logs(&[
            "strake", "values", "check", "--schema", ".", "v.yml"
        ]));
        assert!(logs(&["strake", "image", "digest", "oci:x"]));
        assert!(logs(&["strake", "lock", "-f", "."]));
    }
}
