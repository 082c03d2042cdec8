//! Command-line interface: clap commands that parse flags, call one library
//! function each, and print. No logic lives here.

pub mod lock;
pub mod registry_args;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod bundle;
pub mod copy;
pub mod image;
pub mod package;
pub mod package_consume;
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
    /// Copy a bundle (with every nested bundle, image and signature) or images
    /// between registries, imgpkg tarballs and OCI layouts (imgpkg-compatible).
    Copy(Box<copy::CopyArgs>),
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
    /// Carvel packages (kctrl-compatible): init, release, repository release; what a
    /// repository offers and install manifests.
    #[command(subcommand)]
    Package(package::PackageCommand),
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
        Command::Copy(args) => copy::run(*args),
        Command::Bundle(args) => bundle::run(*args),
        Command::Template(args) => template::run(&args),
        Command::Lock(args) => lock::run(*args),
        Command::Values(cmd) => values::run(&cmd),
        Command::Package(cmd) => package::run(cmd),
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

/// Whether a command line (without the program name) runs `strake template` to render
/// templates, rather than another command, help, or an inspection of the data values or
/// of their schema. The binary asks this before anything is parsed or allocated, to
/// choose how its heap starts (huge pages and a helper that faults the first one in, for
/// renders only; see its `process_start.rs`). A wrong answer only costs time.
pub fn renders_templates<'a>(args: impl IntoIterator<Item = &'a [u8]>) -> bool {
    let mut args = args.into_iter();
    // The subcommand is the first argument that is not a flag: the one flag allowed
    // before it, --verbose, takes no value.
    if args.find(|arg| !arg.starts_with(b"-")) != Some(b"template".as_slice()) {
        return false;
    }
    !args.any(|arg| {
        matches!(
            arg,
            b"--data-values-inspect" | b"--data-values-schema-inspect" | b"-h" | b"--help"
        )
    })
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
    fn renders_templates_agrees_with_the_parsed_command_line() {
        let cases: &[&[&str]] = &[
            &["template", "-f", "."],
            &["--verbose", "template", "-f", ".", "-v", "a=b"],
            &["template", "-f", "-", "-o", "json", "--output-files", "out"],
            &[
                "template",
                "-f",
                ".",
                "--data-values-schema-inspect",
                "-o",
                "openapi-v3",
            ],
            &["template", "--data-values-inspect", "-f", "."],
            &[
                "--verbose",
                "template",
                "-f",
                ".",
                "--data-values-schema-inspect",
            ],
            &["version"],
            &["lock", "-f", "."],
            &["values", "check", "--schema", ".", "v.yml"],
            &["image", "digest", "oci:template"],
        ];
        for args in cases {
            let parsed = Cli::try_parse_from(std::iter::once("strake").chain(args.iter().copied()))
                .unwrap_or_else(|e| panic!("{args:?}: {e}"));
            let renders = match parsed.command {
                Command::Template(t) => !t.data_values_inspect && !t.data_values_schema_inspect,
                _ => false,
            };
            assert_eq!(
                renders_templates(args.iter().map(|a| a.as_bytes())),
                renders,
                "{args:?}"
            );
        }
        // Help is not a render either (clap exits before running anything).
        assert!(!renders_templates([b"template".as_slice(), b"--help"]));
        assert!(!renders_templates([b"--help".as_slice()]));
        assert!(!renders_templates([]));
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
