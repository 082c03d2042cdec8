//! `strake values check --schema (openapi.yml | Package.yml | deploy-dir) VALUES.yml`:
//! checks a user's values file against a package's values schema as an install would
//! see them, listing every violation with its path.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

/// `strake values ...`
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum ValuesCommand {
    /// Check a values file against a values schema (exit status 1 when it breaks it).
    Check(CheckArgs),
}

// Flags of `strake values check` (a plain comment: see `TemplateArgs`).
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// An OpenAPI document (components.schemas.dataValues), a Package
    /// (spec.valuesSchema.openAPIv3) or a deploy directory with a #@data/values-schema.
    #[arg(long = "schema")]
    pub schema: PathBuf,
    /// The values file to check (plain YAML, as given to a PackageInstall).
    pub values: PathBuf,
}

/// Runs `strake values ...`.
pub fn run(cmd: &ValuesCommand) -> ExitCode {
    match cmd {
        ValuesCommand::Check(a) => {
            match crate::ytt::user_values::check_files(&a.schema, &a.values) {
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
                Err(e) => {
                    eprintln!("strake: Error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}
