//! Carvel packages, kctrl-compatible: the build files (`package-build.yml`,
//! `package-resources.yml`, `pkgrepo-build.yml`), the generated resources (Package,
//! PackageMetadata, PackageRepository, PackageInstall, ...) from the minijinja templates in
//! `templates/`, their validation against the JSON Schemas in `schemas/` plus
//! kapp-controller's own rules, and the release of a package and of a repository bundle.
//!
//! * [`resources`]: templates and schemas ([`resources::Resources`]).
//! * [`kapp_rules`]: kapp-controller's Package/PackageMetadata validation (versions and
//!   constraints parsed by [`constraints`]).
//! * [`build_files`]: kctrl's build files, read strictly.
//! * [`release`]: `package release` (render, values schema, lock, bundle, Package).
//! * [`repository`]: `package repository release` (merge, lock, bundle, PackageRepository).
//! * [`init`]: `package init` (the build files).
//! * [`artifacts`]: files written all at once or not at all; [`stores`]: where bundles go.
//! * [`yaml_doc`]: YAML ⇄ JSON for the resources, and kctrl's way of printing them.
//!
//! The consumer's side:
//!
//! * [`constraints`]: which version a PackageInstall's `versionSelection` selects.
//! * [`source`]: Packages and PackageMetadata from a repository bundle, directory or files.
//! * [`available`]: what a repository offers (`strake package available`).
//! * [`install`]: PackageInstall, values Secret and RBAC (`strake package install-manifest`).

use std::path::PathBuf;

pub mod artifacts;
pub mod available;
pub mod build_files;
pub mod constraints;
mod go_quote;
pub mod init;
pub mod install;
pub mod kapp_rules;
pub mod release;
pub mod repository;
pub mod resources;
pub mod source;
pub mod stores;
pub mod yaml_doc;

#[cfg(test)]
mod schema_derivation;

pub use resources::{ResourceError, Resources};

/// What can go wrong in a package command. Messages name the file, field, image or
/// registry; [`PackageError::Step`] adds the release step that failed.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    #[error(transparent)]
    Resource(#[from] ResourceError),
    #[error("{0}")]
    Usage(String),
    #[error("{step}: {source}")]
    Step {
        step: &'static str,
        source: Box<PackageError>,
    },
    #[error("{0}")]
    Other(String),
}

impl PackageError {
    /// Wraps the error with the step it happened in.
    pub fn in_step(self, step: &'static str) -> PackageError {
        PackageError::Step {
            step,
            source: Box::new(self),
        }
    }
}

/// `result` with its error put in `step`.
pub(crate) fn step<T>(
    step: &'static str,
    result: Result<T, impl Into<PackageError>>,
) -> Result<T, PackageError> {
    result.map_err(|e| e.into().in_step(step))
}

impl From<crate::lock::LockError> for PackageError {
    fn from(e: crate::lock::LockError) -> Self {
        PackageError::Other(e.to_string())
    }
}

impl From<crate::bundle::BundleError> for PackageError {
    fn from(e: crate::bundle::BundleError) -> Self {
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            let text = s.to_string();
            if !message.contains(&text) {
                message.push_str(": ");
                message.push_str(&text);
            }
            source = s.source();
        }
        PackageError::Other(message)
    }
}

impl From<crate::oci::OciError> for PackageError {
    fn from(e: crate::oci::OciError) -> Self {
        PackageError::Other(e.to_string())
    }
}
