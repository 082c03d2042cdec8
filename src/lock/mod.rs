//! Image locking, compatible with `kbld` 0.42: find image references in rendered YAML,
//! resolve each one to a digest (a registry, or an OCI layout for hermetic builds), rewrite
//! the documents, and write the locks kbld writes (an imgpkg `ImagesLock` or a kbld `Config`).
//!
//! * [`input`] reads `-f` files, directories and stdin into [`input::InputDoc`]s; [`render`]
//!   renders a deploy directory with the template engine first (`--render`). The
//!   template engine hands already-rendered documents to [`lock_documents`] directly.
//! * [`config`] parses kbld configuration documents (`Config`, `ImageOverrides`,
//!   `ImageKeys`, ...) and `ImagesLock` documents (as preresolved overrides).
//! * [`search`] walks documents with kbld's search rules (default: any `image` key whose
//!   value is a string) and [`warn`] flags strings that look like references but were not
//!   found by any rule.
//! * [`resolve`] turns each distinct reference into a digest reference with kbld's origins,
//!   concurrently and with one manifest request per distinct reference ([`registry`],
//!   [`layout_source`], [`platform`]).
//! * [`output`] prints documents and locks byte for byte as kbld does ([`kyaml`] is the
//!   `sigs.k8s.io/yaml` way of printing: keys sorted as go-yaml v2 sorts them, long plain
//!   strings folded at 80 columns).

pub mod config;
pub mod error;
pub mod images_file;
pub mod input;
pub mod kyaml;
pub mod layout_source;
pub mod origin;
pub mod output;
pub mod platform;
pub mod registry;
pub mod render;
pub mod resolve;
pub mod run;
pub mod search;
pub mod warn;

pub use error::LockError;
pub use input::InputDoc;
pub use run::{LockOptions, LockOutput, lock_documents};
