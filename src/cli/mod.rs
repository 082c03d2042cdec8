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
mod template_bulk;
mod template_output;
pub mod values;

#[derive(Parser)]
#[command(
    name = "strake",
    version,
    about = "Author, bundle and ship Carvel packages",
    after_help = EXIT_STATUS_HELP
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
    #[command(after_help = "Example: strake version")]
    Version,
    /// Image digests and copies between registries, OCI layouts and imgpkg tarballs.
    #[command(
        subcommand,
        after_help = "Example: strake image digest oci:build/layout:v1"
    )]
    Image(image::ImageCommand),
    /// Copy a bundle (with every nested bundle, image and signature) or images
    /// between registries, imgpkg tarballs and OCI layouts (imgpkg-compatible).
    Copy(Box<copy::CopyArgs>),
    /// Tags of a registry repository or an OCI layout.
    #[command(subcommand, after_help = "Example: strake tag list oci:build/layout")]
    Tag(tag::TagCommand),
    /// imgpkg-compatible bundles: push, pull, describe.
    #[command(after_help = "Example: strake bundle push -b oci:build/layout:v1 -f deploy")]
    Bundle(Box<bundle::BundleArgs>),
    /// Resolve image references in rendered YAML to digests and write locks (kbld-compatible).
    #[command(
        after_help = "Example: strake lock --render -f deploy --imgpkg-lock-output bundle/.imgpkg/images.yml"
    )]
    Lock(Box<lock::LockArgs>),
    /// Render ytt templates (ytt-compatible flags: -f, --data-value, -o, ...).
    #[command(after_help = "Example: strake template -f deploy --data-value replicas=3")]
    Template(Box<template::TemplateArgs>),
    /// Work with package values (check a values file against a values schema).
    #[command(
        subcommand,
        after_help = "Example: strake values check --schema deploy values.yml"
    )]
    Values(values::ValuesCommand),
    /// Carvel packages (kctrl-compatible): init, release, repository release; what a
    /// repository offers and install manifests.
    #[command(subcommand)]
    Package(package::PackageCommand),
    /// Print a shell completion script.
    #[command(
        after_help = "Example: strake completion bash > ~/.local/share/bash-completion/completions/strake"
    )]
    Completion {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

impl Command {
    /// Whether the command logs through `tracing`: the registry, layout and bundle work
    /// does. Rendering, values checks and `version` never log, so they skip the
    /// subscriber's set-up (its span registry alone touches 36 KiB of fresh memory, nine
    /// page faults of a run that makes about a hundred).
    fn logs(&self) -> bool {
        !matches!(
            self,
            Command::Version
                | Command::Template(_)
                | Command::Values(_)
                | Command::Completion { .. }
        )
    }
}

/// What every command's exit status means (also in `strake --help` and the README).
const EXIT_STATUS_HELP: &str = "Exit status: 0 success, 1 failure (`values check`: 1 also when the values \
break the schema), 2 usage error. Errors are printed as `strake: error: ...`.";

/// The exit status of a usage error: an unknown flag, a missing or malformed argument.
pub(crate) const USAGE: u8 = 2;

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: printed to stdout, success.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's message starts with "error: ".
            eprint!("strake: {}", e.render());
            return ExitCode::from(USAGE);
        }
    };
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
        Command::Completion { shell } => {
            use clap::CommandFactory;
            // Into memory first: clap_complete panics when its writer fails (a closed pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "strake", &mut script);
            match std::io::Write::write_all(&mut std::io::stdout(), &script) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
    }
}

/// Stack of the thread that renders templates whose Starlark functions recurse deeper
/// than the main thread's stack allows (ytt lets them: Go grows a goroutine's stack up
/// to 1 GB). Only the pages used are committed.
const DEEP_STACK: usize = 1 << 30;

/// Starlark call depth allowed on [`DEEP_STACK`], far below what fills it.
const DEEP_CALLS: usize = 10_000;

/// Runs `f` on a thread with [`DEEP_STACK`] and [`DEEP_CALLS`], or here when no such
/// thread can be made. Only for runs that need it: a thread of its own gets a malloc
/// arena of its own, which makes an ordinary render about a tenth slower.
pub(crate) fn on_deep_stack<R: Send>(f: &(dyn Fn() -> R + Sync)) -> R {
    use crate::ytt::starlark::eval::with_max_depth;
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("strake-template".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(s, || with_max_depth(DEEP_CALLS, f));
        match spawned {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => f(),
        }
    })
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

/// Prints `strake: error: …` and returns exit status 1. An `anyhow::Error` is printed
/// with its whole cause chain (the alternate form).
pub(crate) fn print_error(error: impl std::fmt::Display) -> ExitCode {
    eprintln!("strake: error: {error:#}");
    ExitCode::FAILURE
}

/// Prints `strake: error: …` and returns the usage error's exit status 2.
pub(crate) fn print_usage_error(error: impl std::fmt::Display) -> ExitCode {
    eprintln!("strake: error: {error}");
    ExitCode::from(USAGE)
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
