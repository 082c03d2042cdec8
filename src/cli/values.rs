//! `strake values check (--schema (openapi.yml | Package.yml | deploy-dir) | --package
//! REFNAME --version V --repo LOCATION) VALUES.yml`: checks a user's values file against a
//! package's values schema as an install would see them, listing every violation with
//! its path.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::cli::registry_args::RegistryArgs;

/// `strake values ...`
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum ValuesCommand {
    /// Check a values file against a values schema (exit status 1 when it breaks it).
    #[command(
        after_help = "Example: strake values check --schema examples/pinniped/supervisor values.yml"
    )]
    Check(CheckArgs),
}

// Flags of `strake values check` (a plain comment: see `TemplateArgs`).
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// An OpenAPI document (components.schemas.dataValues), a Package
    /// (spec.valuesSchema.openAPIv3) or a deploy directory with a #@data/values-schema.
    #[arg(
        long = "schema",
        required_unless_present = "package",
        conflicts_with = "package"
    )]
    pub schema: Option<PathBuf>,
    /// The Package (its refName) whose values schema to use, read from --repo.
    #[arg(long = "package", value_name = "REFNAME", requires_all = ["version", "repo"])]
    pub package: Option<String>,
    /// The version of --package (exactly as the Package writes it).
    #[arg(long = "version", value_name = "V", requires = "package")]
    pub version: Option<String>,
    /// Where --package is: a repository bundle (registry reference, oci:DIR[:TAG],
    /// tar:FILE[:TAG]), an extracted repository directory or a Package file; repeatable.
    #[arg(long = "repo", value_name = "LOCATION", requires = "package")]
    pub repo: Vec<String>,
    #[command(flatten)]
    pub registry: RegistryArgs,
    /// The values file to check (plain YAML, as given to a PackageInstall).
    pub values: PathBuf,
}

/// The schema `--package/--version/--repo` name: that Package's valuesSchema.openAPIv3.
fn package_schema(a: &CheckArgs, ref_name: &str) -> Result<serde_json::Value, String> {
    let version = a.version.as_deref().unwrap_or_default();
    let rt = crate::cli::runtime().map_err(|e| e.to_string())?;
    let catalog = rt
        .block_on(crate::package::source::read_locations(
            &a.repo,
            &a.registry.options(),
        ))
        .map_err(|e| e.to_string())?;
    let versions: Vec<_> = catalog.versions_of(ref_name).collect();
    let package = versions.iter().rev().find(|p| p.version == version);
    match package {
        Some(p) => p.values_schema.clone().ok_or_else(|| {
            format!(
                "{}: Package {ref_name} {version} has no spec.valuesSchema.openAPIv3",
                p.origin
            )
        }),
        None if versions.is_empty() => Err(format!(
            "{}: no Package {ref_name} (packages on offer: {})",
            catalog.location,
            catalog.ref_names().join(", ")
        )),
        None => Err(format!(
            "{}: no version {version} of {ref_name} (versions on offer: {})",
            catalog.location,
            versions
                .iter()
                .map(|p| p.version.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Runs `strake values ...`.
pub fn run(cmd: &ValuesCommand) -> ExitCode {
    match cmd {
        ValuesCommand::Check(a) => {
            use crate::ytt::user_values::{check_file, check_files};
            let checked = match (&a.schema, &a.package) {
                (Some(schema), _) => check_files(schema, &a.values),
                (None, Some(ref_name)) => {
                    package_schema(a, ref_name).and_then(|s| check_file(&s, &a.values))
                }
                (None, None) => Err("give --schema or --package with --version and --repo".into()),
            };
            match checked {
                Ok(problems) if problems.is_empty() => {
                    println!("{}: valid", a.values.display());
                    ExitCode::SUCCESS
                }
                Ok(problems) => {
                    eprintln!(
                        "{}: {} violation{} of the values schema:",
                        a.values.display(),
                        problems.len(),
                        if problems.len() == 1 { "" } else { "s" }
                    );
                    for p in &problems {
                        eprintln!("  {p}");
                    }
                    ExitCode::FAILURE
                }
                Err(e) => crate::cli::print_error(e),
            }
        }
    }
}
