//! `strake package init|release|repository release`: kctrl's package authoring commands,
//! and the consumer's `available` / `install-manifest` (flags in `package_consume`),
//! in one process. Each parses its flags, asks for what is missing only when stdin is a
//! terminal, calls one `crate::package` function, and prints its steps (to stderr with
//! `--json`, which prints the outcome as JSON on stdout).

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgAction, Args, Subcommand};

use crate::cli::registry_args::RegistryArgs;
use crate::package::PackageError;
use crate::package::init::{InitOptions, init_package};
use crate::package::release::{
    ReleaseOptions, default_bundle_repo, release_package, released_at_from_epoch,
};
use crate::package::repository::{RepositoryOptions, release_repository};

/// `strake package ...`
#[derive(Subcommand)]
#[command(defer = true)]
pub enum PackageCommand {
    /// Write kctrl's package-build.yml and package-resources.yml for a directory of ytt templates.
    Init(InitArgs),
    /// Release a package: render, values schema, lock images, push the bundle, write the Package.
    Release(Box<ReleaseArgs>),
    /// Package repositories.
    #[command(subcommand)]
    Repository(RepositoryCommand),
    /// The packages and versions a repository offers, and the version a constraint selects.
    Available(Box<crate::cli::package_consume::AvailableArgs>),
    /// Write a PackageInstall, its values Secret and optionally its ServiceAccount and RBAC,
    /// with the values checked against the selected Package's values schema (without
    /// --constraint, the version selected is pinned).
    InstallManifest(Box<crate::cli::package_consume::InstallManifestArgs>),
}

/// `strake package repository ...`
#[derive(Subcommand)]
#[command(defer = true)]
pub enum RepositoryCommand {
    /// Release a repository bundle holding packages/ (merged with the versions already released).
    Release(Box<RepositoryReleaseArgs>),
}

#[derive(Args)]
pub struct InitArgs {
    /// Work in this directory
    #[arg(long, value_name = "DIR", default_value = ".")]
    chdir: PathBuf,
    /// The package refName (at least three dot-separated segments, e.g. app.corp.com)
    #[arg(long = "name", value_name = "REFNAME")]
    name: Option<String>,
    /// Files or directories holding the manifests / ytt templates (repeatable or comma-separated)
    #[arg(long = "paths", value_name = "PATH", value_delimiter = ',', num_args = 1..)]
    paths: Vec<String>,
    /// The bundle repository to push to (a registry repository without tag, or oci:DIR)
    #[arg(long = "bundle", value_name = "REPO")]
    bundle: Option<String>,
    /// Use the templates in DIR instead of the embedded ones (file by file)
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
}

#[derive(Args)]
pub struct ReleaseArgs {
    /// Work in this directory (the one holding package-build.yml)
    #[arg(long, value_name = "DIR", default_value = ".")]
    chdir: PathBuf,
    /// The package version (strict semver, no leading v)
    #[arg(short = 'v', long, value_name = "V")]
    version: String,
    /// Bundle tag. Default: the version, with `+` (not allowed in a tag) written as `_`:
    /// 1.2.3+build.4 is tagged 1.2.3_build.4
    #[arg(short = 't', long, value_name = "T")]
    tag: Option<String>,
    /// Also write DIR/packages/<refName>/{<version>.yml,metadata.yml} for a repository
    #[arg(long = "repo-output", value_name = "DIR")]
    repo_output: Option<PathBuf>,
    /// Data values files applied when rendering (repeatable)
    #[arg(long = "build-values", value_name = "FILE")]
    build_values: Vec<PathBuf>,
    /// Store the values schema in the Package (--openapi-schema=false to leave it out)
    #[arg(long = "openapi-schema", value_name = "BOOL", default_value_t = true, action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    openapi_schema: bool,
    /// Ask nothing (the bundle goes to the build's repository, else the embedded default)
    #[arg(short = 'y', long)]
    yes: bool,
    /// spec.releasedAt (RFC 3339). Default: SOURCE_DATE_EPOCH when set, else left out
    #[arg(long = "released-at", value_name = "RFC3339")]
    released_at: Option<String>,
    /// Use the templates in DIR instead of the embedded ones (file by file)
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// Resolve images from this OCI layout first (index.json ref names are full references); repeatable
    #[arg(long = "image-source", value_name = "oci:DIR")]
    image_sources: Vec<String>,
    /// Contact no registry to resolve images (digests, image sources only)
    #[arg(long)]
    offline: bool,
    /// Print the outcome as JSON on stdout (steps go to stderr)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    registry: RegistryArgs,
}

#[derive(Args)]
pub struct RepositoryReleaseArgs {
    /// Work in this directory (the one holding packages/ and pkgrepo-build.yml)
    #[arg(long, value_name = "DIR", default_value = ".")]
    chdir: PathBuf,
    /// The repository version, also the bundle's tag (`+` written as `_`)
    #[arg(short = 'v', long, value_name = "V")]
    version: String,
    /// The repository bundle's repository: a registry repository without tag, or oci:DIR
    #[arg(long, value_name = "REF")]
    repo: Option<String>,
    /// The PackageRepository name, when there is no pkgrepo-build.yml yet
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Merge with this repository bundle (default: the repository's highest version tag not above --version)
    #[arg(long, value_name = "REF")]
    from: Option<String>,
    /// Use the templates in DIR instead of the embedded ones (file by file)
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// Print the outcome as JSON on stdout (steps go to stderr)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// Runs a package command.
pub fn run(cmd: PackageCommand) -> ExitCode {
    use crate::cli::package_consume::{run_available, run_install_manifest};
    let result = match cmd {
        PackageCommand::Available(a) => return run_available(&a),
        PackageCommand::InstallManifest(a) => return run_install_manifest(&a),
        PackageCommand::Init(a) => init(a),
        PackageCommand::Release(a) => release(*a),
        PackageCommand::Repository(RepositoryCommand::Release(a)) => repository_release(*a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("strake: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Asks on the terminal; `None` when stdin is not one.
fn ask(question: &str, default: &str) -> Option<String> {
    if !std::io::stdin().is_terminal() {
        return None;
    }
    eprint!("> {question} ({default}): ");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).ok()?;
    let answer = line.trim();
    Some(if answer.is_empty() { default } else { answer }.to_string())
}

fn runtime() -> Result<tokio::runtime::Runtime, PackageError> {
    crate::cli::runtime()
        .map_err(|e| PackageError::Other(format!("starting the async runtime: {e}")))
}

fn init(a: InitArgs) -> Result<(), PackageError> {
    let name = match a.name {
        Some(n) => n,
        None => {
            ask("Enter the package reference name", "samplepackage.corp.com").ok_or_else(|| {
                PackageError::Usage(
                    "--name REFNAME is required when stdin is not a terminal".into(),
                )
            })?
        }
    };
    let paths = if a.paths.is_empty() {
        let answer = ask(
            "Enter the paths which contain Kubernetes manifests (comma-separated)",
            "config",
        )
        .ok_or_else(|| {
            PackageError::Usage("--paths is required when stdin is not a terminal".into())
        })?;
        answer
            .split(',')
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect()
    } else {
        a.paths
    };
    let written = init_package(&InitOptions {
        dir: a.chdir,
        ref_name: name,
        paths,
        bundle: a.bundle,
        templates: a.templates,
    })?;
    for w in written {
        println!("Wrote {}", w.display());
    }
    Ok(())
}

/// The release's `releasedAt`: the flag, else SOURCE_DATE_EPOCH.
fn released_at(flag: Option<String>) -> Result<Option<String>, PackageError> {
    match flag {
        Some(f) => Ok(Some(f)),
        None => released_at_from_epoch(std::env::var("SOURCE_DATE_EPOCH").ok().as_deref()),
    }
}

fn release(a: ReleaseArgs) -> Result<(), PackageError> {
    let json = a.json;
    let mut options = ReleaseOptions {
        dir: a.chdir,
        version: a.version,
        tag: a.tag,
        repo_output: a.repo_output,
        build_values: a.build_values,
        openapi_schema: a.openapi_schema,
        released_at: released_at(a.released_at)?,
        templates: a.templates,
        image_sources: a.image_sources,
        offline: a.offline,
        registry: a.registry.options(),
        bundle_repo: None,
    };
    if !a.yes {
        prompt_for_bundle(&mut options)?;
    }
    let mut print = progress_printer(json);
    let outcome = runtime()?.block_on(release_package(&options, &mut print))?;
    if json {
        print_json(&outcome)?;
    } else {
        println!(
            "Released {} {}: the Package fetches {} (stored at {})",
            outcome.ref_name, outcome.version, outcome.bundle, outcome.stored_at
        );
    }
    Ok(())
}

/// When the build names no bundle repository and stdin is a terminal, asks for one
/// (the answer is used for this release; the build file is left as it is).
fn prompt_for_bundle(options: &mut ReleaseOptions) -> Result<(), PackageError> {
    if !std::io::stdin().is_terminal() {
        return Ok(());
    }
    let resources =
        crate::package::release::load_resources(&options.dir, options.templates.as_deref())?;
    let build_file = options
        .dir
        .join(crate::package::build_files::PACKAGE_BUILD_FILE);
    let build = crate::package::build_files::read_package_build(&build_file, &resources)?;
    if build.exports.first().is_some_and(|e| e.image.is_some()) {
        return Ok(());
    }
    let default = default_bundle_repo(&build.ref_name);
    if let Some(answer) = ask(
        "Enter the registry URL of the bundle (REGISTRY/REPOSITORY or oci:DIR)",
        &default,
    ) {
        options.bundle_repo = Some(answer);
    }
    Ok(())
}

fn repository_release(a: RepositoryReleaseArgs) -> Result<(), PackageError> {
    let json = a.json;
    let options = RepositoryOptions {
        dir: a.chdir,
        version: a.version,
        repo: a.repo,
        name: a.name,
        from: a.from,
        created_at: released_at(None)?,
        templates: a.templates,
        registry: a.registry.options(),
    };
    let mut print = progress_printer(json);
    let outcome = runtime()?.block_on(release_repository(&options, &mut print))?;
    if json {
        print_json(&outcome)?;
    } else {
        println!(
            "Released repository {} {} with {} package versions: {} (stored at {})",
            outcome.name,
            outcome.version,
            outcome.packages.len(),
            outcome.bundle,
            outcome.stored_at
        );
    }
    Ok(())
}

/// Progress lines: on standard output, or on standard error when `--json` keeps standard
/// output for the outcome.
fn progress_printer(json: bool) -> impl FnMut(&str) {
    move |line: &str| {
        if json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
}

/// A command's outcome as pretty JSON on standard output.
fn print_json(outcome: &impl serde::Serialize) -> Result<(), PackageError> {
    let text =
        serde_json::to_string_pretty(outcome).map_err(|e| PackageError::Other(e.to_string()))?;
    println!("{text}");
    Ok(())
}
