//! The frame of an archive written in place (the imgpkg tarball of
//! [`crate::copy::tar_out`] and the OCI layout tar of [`crate::copy::layout_tar`]):
//! the file at its final length, every entry's USTAR header, the small files
//! written whole with their headers, the zero padding after each streamed body,
//! and the two end blocks. The streamed bodies themselves are left as they are
//! (a rerun keeps the finished ones); [`crate::copy::archive_entry`] writes them.
//! Which entries an archive has, and where, is the archive's own plan.

use std::os::unix::fs::FileExt;
use std::path::Path;

use crate::copy::{CopyError, Result};
use crate::oci::OciError;
use crate::oci::tarball::ustar;

/// A partial archive whose frame is being written.
pub struct Frame<'a> {
    partial: &'a Path,
    file: std::fs::File,
    total_size: u64,
}

impl<'a> Frame<'a> {
    /// Opens the partial archive and sets its length to `total_size` (the end
    /// blocks included).
    pub fn open(partial: &'a Path, total_size: u64) -> Result<Frame<'a>> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(partial)
            .map_err(|e| writing(partial, e))?;
        file.set_len(total_size).map_err(|e| writing(partial, e))?;
        Ok(Frame {
            partial,
            file,
            total_size,
        })
    }

    /// A regular file written whole now: its header, `bytes` as the body at
    /// offset `body`, and the padding to the next block.
    pub fn file(&self, name: &str, bytes: &[u8], body: u64) -> Result<()> {
        let header = self.header(ustar::file_header(name, bytes.len() as u64))?;
        self.whole(&header, bytes, body)
    }

    /// A directory entry (`name` ending in `/`), whose header is followed by the
    /// next entry's.
    pub fn dir(&self, name: &str, body: u64) -> Result<()> {
        let header = self.header(ustar::dir_header(name))?;
        self.whole(&header, &[], body)
    }

    /// A regular file whose `size` bytes are streamed to offset `body` later:
    /// its header and the padding after the body.
    pub fn streamed(&self, name: &str, size: u64, body: u64) -> Result<()> {
        let header = self.header(ustar::file_header(name, size))?;
        self.write_at(&header, body - ustar::BLOCK)?;
        let pad = ustar::padding(size);
        if pad > 0 {
            self.write_at(&vec![0u8; pad as usize], body + size)?;
        }
        Ok(())
    }

    /// Writes the two end blocks, and syncs the file when `durable`.
    pub fn finish(self, durable: bool) -> Result<()> {
        self.write_at(
            &[0u8; 2 * ustar::BLOCK as usize],
            self.total_size - 2 * ustar::BLOCK,
        )?;
        if !durable {
            return Ok(());
        }
        self.file.sync_all().map_err(|e| writing(self.partial, e))
    }

    /// `header`, then `bytes` and their padding, in one write before offset `body`.
    fn whole(&self, header: &[u8; 512], bytes: &[u8], body: u64) -> Result<()> {
        let mut block = header.to_vec();
        block.extend_from_slice(bytes);
        block.resize(block.len() + ustar::padding(bytes.len() as u64) as usize, 0);
        self.write_at(&block, body - ustar::BLOCK)
    }

    fn header(&self, header: std::result::Result<[u8; 512], String>) -> Result<[u8; 512]> {
        header.map_err(|e| CopyError::invalid(format!("{}: {e}", self.partial.display())))
    }

    fn write_at(&self, bytes: &[u8], offset: u64) -> Result<()> {
        self.file
            .write_all_at(bytes, offset)
            .map_err(|e| writing(self.partial, e))
    }
}

/// The error of a failed write to the partial archive.
fn writing(partial: &Path, e: std::io::Error) -> CopyError {
    CopyError::Oci(OciError::io(format!("writing {}", partial.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_framed_at_their_offsets_and_the_end_blocks_close_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let partial = tmp.path().join("partial");
        // a.txt (5 bytes) at 512, dir/ at 1536, blob (700 bytes) at 2048, end blocks at 3072.
        let total = 3072 + 1024;
        std::fs::write(&partial, vec![0xffu8; 5000]).unwrap();
        let frame = Frame::open(&partial, total).unwrap();
        frame.file("a.txt", b"hello", 512).unwrap();
        frame.dir("dir/", 1536).unwrap();
        frame.streamed("blob", 700, 2048).unwrap();
        frame.finish(true).unwrap();
        let out = std::fs::read(&partial).unwrap();
        assert_eq!(out.len() as u64, total);
        assert_eq!(&out[..512], &ustar::file_header("a.txt", 5).unwrap()[..]);
        assert_eq!(&out[512..517], b"hello");
        assert!(out[517..1024].iter().all(|&b| b == 0));
        assert_eq!(&out[1024..1536], &ustar::dir_header("dir/").unwrap()[..]);
        assert_eq!(
            &out[1536..2048],
            &ustar::file_header("blob", 700).unwrap()[..]
        );
        // The streamed body is left as it was; its padding is zeros.
        assert!(out[2048..2748].iter().all(|&b| b == 0xff));
        assert!(out[2748..total as usize].iter().all(|&b| b == 0));
    }

    #[test]
    fn a_name_too_long_for_ustar_names_the_archive() {
        let tmp = tempfile::tempdir().unwrap();
        let partial = tmp.path().join("partial");
        std::fs::write(&partial, b"").unwrap();
        let frame = Frame::open(&partial, 2048).unwrap();
        let err = frame
            .file(&"x".repeat(101), b"", 512)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&partial.display().to_string()), "{err}");
        assert!(err.contains("does not fit a USTAR name field"), "{err}");
    }
}
