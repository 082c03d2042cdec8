//! Carvel packages, kctrl-compatible: the build files (`package-build.yml`,
//! `package-resources.yml`, `pkgrepo-build.yml`), the generated resources (Package,
//! PackageMetadata, PackageRepository, PackageInstall, ...) from the minijinja templates in
//! `templates/`, their validation against the JSON Schemas in `schemas/` plus
//! kapp-controller's own rules, and the release of a package and of a repository bundle.
//!
//! * [`resources`]: templates and schemas ([`resources::Resources`]).
//! * [`kapp_rules`], [`versions`]: kapp-controller's Package/PackageMetadata validation.
//! * [`yaml_doc`]: YAML ⇄ JSON for the resources, and kctrl's way of printing them.
//!
//! The consumer's side:
//!
//! * [`constraints`]: which version a PackageInstall's `versionSelection` selects.
//! * [`source`]: Packages and PackageMetadata from a repository bundle, directory or files.
//! * [`available`]: what a repository offers (`strake package available`).
//! * [`install`]: PackageInstall, values Secret and RBAC (`strake package install-manifest`).

pub mod available;
pub mod constraints;
pub mod install;
pub mod kapp_rules;
pub mod resources;
pub mod source;
pub mod versions;
pub mod yaml_doc;

#[cfg(test)]
mod schema_derivation;

pub use resources::{ResourceError, Resources};
