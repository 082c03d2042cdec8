//! Errors of `strake lock`. Bad input names the file (and document, key or line); failed
//! resolutions are collected and reported together, one line per reference with its cause.

use std::fmt;

use crate::oci::OciError;

/// One reference that could not be resolved, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The reference exactly as it appeared in the input.
    pub image: String,
    /// What went wrong (no such repository, no such tag, registry unreachable, ...).
    pub cause: String,
}

/// Everything `strake lock` can fail with.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// An input file or stream could not be read or parsed.
    #[error("{0}")]
    Input(String),
    /// Some references could not be resolved (all of them are listed).
    #[error("{}", UnresolvedList(.0))]
    Unresolved(Vec<Unresolved>),
    /// Writing an output file failed.
    #[error(transparent)]
    Oci(#[from] OciError),
    /// Bad combination of options.
    #[error("{0}")]
    Usage(String),
}

struct UnresolvedList<'a>(&'a [Unresolved]);

impl fmt::Display for UnresolvedList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "could not resolve {n} image reference{}:",
            if n == 1 { "" } else { "s" }
        )?;
        for u in self.0 {
            write!(f, "\n- {}: {}", u.image, u.cause)?;
        }
        Ok(())
    }
}
