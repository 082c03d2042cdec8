//! `strake package ...`: Carvel packages.

use std::process::ExitCode;

use clap::Subcommand;

use crate::cli::package_consume;

#[derive(Subcommand)]
#[command(defer = true)]
pub enum PackageCommand {
    /// The packages and versions a repository offers, and the version a constraint selects.
    Available(Box<package_consume::AvailableArgs>),
    /// Write a PackageInstall, its values Secret and optionally its ServiceAccount and RBAC,
    /// with the values checked against the selected Package's values schema.
    InstallManifest(Box<package_consume::InstallManifestArgs>),
}

/// Runs `strake package ...`.
pub fn run(command: PackageCommand) -> ExitCode {
    match command {
        PackageCommand::Available(args) => package_consume::run_available(&args),
        PackageCommand::InstallManifest(args) => package_consume::run_install_manifest(&args),
    }
}
