//! Carvel packages, kctrl-compatible: the build files (`package-build.yml`,
//! `package-resources.yml`, `pkgrepo-build.yml`), the generated resources (Package,
//! PackageMetadata, PackageRepository, PackageInstall, ...) from the minijinja templates in
//! `templates/`, their validation against the JSON Schemas in `schemas/` plus
//! kapp-controller's own rules, and the release of a package and of a repository bundle.
//!
//! * [`resources`]: templates and schemas ([`resources::Resources`]).
//! * [`kapp_rules`], [`versions`]: kapp-controller's Package/PackageMetadata validation.
//! * [`yaml_doc`]: YAML ⇄ JSON for the resources, and kctrl's way of printing them.

pub mod kapp_rules;
pub mod resources;
pub mod versions;
pub mod yaml_doc;

#[cfg(test)]
mod schema_derivation;

pub use resources::{ResourceError, Resources};
