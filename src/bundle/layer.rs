//! Builds a bundle layer in one streaming pass: the tar is produced, hashed
//! (diff_id), compressed in parallel and hashed again (blob digest) on its way to a
//! spool file. Memory stays bounded whatever the layer size; the compressed layer
//! lives in a temporary file that is removed when the [`BuiltLayer`] is dropped.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::bundle::gzip::ParallelGzip;
use crate::bundle::tar::TarPlan;
use crate::bundle::{BundleError, Result};
use crate::oci::Digest;
use crate::oci::digest::Hasher;

/// A compressed layer spooled to a temporary file.
pub struct BuiltLayer {
    /// sha256 of the uncompressed tar.
    pub diff_id: Digest,
    /// Size of the uncompressed tar.
    pub tar_size: u64,
    /// sha256 of the compressed blob.
    pub digest: Digest,
    /// Size of the compressed blob.
    pub size: u64,
    /// The compressed blob (deleted on drop).
    pub file: tempfile::NamedTempFile,
}

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

/// A file writer that hashes what it writes.
struct HashingFile {
    file: BufWriter<File>,
    hasher: Hasher,
}

impl Write for HashingFile {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.file.write_all(data)?;
        self.hasher.update(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
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

/// Builds, hashes and compresses the layer on `threads` threads into a temporary
/// file created in `spool_dir`.
pub fn build_compressed(plan: &TarPlan, threads: usize, spool_dir: &Path) -> Result<BuiltLayer> {
    std::fs::create_dir_all(spool_dir).map_err(|e| {
        BundleError::io(
            format!("creating spool directory '{}'", spool_dir.display()),
            e,
        )
    })?;
    let file = tempfile::Builder::new()
        .prefix(".strake-layer-")
        .suffix(".tar.gz")
        .tempfile_in(spool_dir)
        .map_err(|e| {
            BundleError::io(
                format!("creating a spool file in '{}'", spool_dir.display()),
                e,
            )
        })?;
    let handle = file
        .reopen()
        .map_err(|e| BundleError::io("opening the spool file", e))?;
    let sink = HashingFile {
        file: BufWriter::with_capacity(1 << 20, handle),
        hasher: Hasher::new(),
    };
    let mut gz = ParallelGzip::new(sink, threads);
    let mut tar_hasher = Hasher::new();
    plan.write_to(&mut Tee(&mut tar_hasher, &mut gz))?;
    let mut sink = gz
        .finish()
        .map_err(|e| BundleError::io("compressing the layer", e))?;
    sink.flush()
        .map_err(|e| BundleError::io("writing the spool file", e))?;
    let tar_size = tar_hasher.size();
    let size = sink.hasher.size();
    Ok(BuiltLayer {
        diff_id: tar_hasher.finish(),
        tar_size,
        digest: sink.hasher.finish(),
        size,
        file,
    })
}
