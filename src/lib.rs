//! strake: author, bundle and ship Carvel packages.
//!
//! The modules follow the pipeline (see `README.md` and the architecture notes):
//! `yaml` → `ytt` → `lock` → `bundle` → `package`, with `oci` underneath every
//! module that touches a registry, an OCI layout or a tarball, and `copy` on top for
//! the air-gapped workflow. `cli` is a thin layer of clap commands over library calls.

#![forbid(unsafe_code)]

pub mod bundle;
pub mod cli;
pub mod lock;
pub mod oci;
pub mod yaml;
pub mod ytt;
