//! strake: author, bundle and ship Carvel packages.
//!
//! The modules follow the pipeline (see `README.md`):
//! - [`yaml`]: YAML parsing and printing as ytt's Go libraries do;
//! - [`ytt`]: the ytt-compatible template engine (Starlark, templates, overlays, data
//!   values, values schemas and their OpenAPI export);
//! - [`lock`]: kbld-compatible image locking;
//! - [`bundle`]: imgpkg-compatible bundles (push, pull, describe);
//! - [`package`]: Package, PackageMetadata and repository releases (kctrl), and the
//!   consumer's side (version selection, install manifests);
//! - [`copy`]: bundles with every image they need, across an air gap (imgpkg copy);
//! - [`oci`]: references, digests, the `Store` trait and its backends (registry, OCI
//!   layout, imgpkg tarball), underneath every module that moves content;
//! - [`go_json`]: JSON strings escaped as Go writes them (shared by `yaml` and `oci`);
//! - [`go_bytes`]: the bytes of Go strings that are no UTF-8, as strake's strings carry them;
//! - [`cli`]: a thin layer of clap commands over library calls.

#![forbid(unsafe_code)]

pub mod bundle;
pub mod cli;
pub mod copy;
pub mod go_bytes;
pub mod go_json;
pub mod lock;
pub mod oci;
pub mod package;
pub mod yaml;
pub mod ytt;
