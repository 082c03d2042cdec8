//! Builds a bundle layer in one streaming pass: the tar is produced, hashed
//! (diff_id) and compressed in parallel; the compressed members go, in order, to a
//! [`MemberSink`] (in `bundle push`, a bounded channel feeding the store's upload,
//! so nothing is spooled). Memory stays bounded whatever the layer size.

use std::io::{self, Write};

use crate::bundle::gzip::{MemberSink, ParallelGzip};
use crate::bundle::tar::TarPlan;
use crate::bundle::{BundleError, Result};
use crate::oci::Digest;
use crate::oci::digest::Hasher;

/// Writes to two writers.
struct Tee<'a, A: Write, B: Write>(&'a mut A, &'a mut B);

impl<A: Write, B: Write> Write for Tee<'_, A, B> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.0.write_all(data)?;
        self.1.write_all(data)?;
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()?;
        self.1.flush()
    }
}

/// Only hashes the uncompressed tar: `(diff_id, tar size)`. Used when the layer
/// cache may already know the compressed blob.
pub fn hash_uncompressed(plan: &TarPlan) -> Result<(Digest, u64)> {
    let mut hasher = Hasher::new();
    plan.write_to(&mut hasher)?;
    let size = hasher.size();
    Ok((hasher.finish(), size))
}

/// Writes the uncompressed tar to `out` (tests and tools that want the raw layer).
pub fn write_uncompressed<W: Write>(plan: &TarPlan, out: &mut W) -> Result<()> {
    plan.write_to(out)
}

/// Builds the layer, hashing the uncompressed tar, and compresses it on `threads`
/// threads; each finished gzip member goes to `sink`, in order. Returns the
/// diff_id, the tar size and the sink. Whoever consumes the sink hashes the
/// compressed bytes (a store computes the blob digest as it writes them).
pub fn build_into<S: MemberSink>(
    plan: &TarPlan,
    threads: usize,
    sink: S,
) -> Result<(Digest, u64, S)> {
    let mut gz = ParallelGzip::new(sink, threads);
    let mut tar_hasher = Hasher::new();
    plan.write_to(&mut Tee(&mut tar_hasher, &mut gz))?;
    let sink = gz
        .finish()
        .map_err(|e| BundleError::io("compressing the layer", e))?;
    let tar_size = tar_hasher.size();
    Ok((tar_hasher.finish(), tar_size, sink))
}
