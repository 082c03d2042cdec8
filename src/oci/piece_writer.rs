//! [`PieceWriter`]: writes a blob's pieces to a file from async code with no copy
//! of its own. The pieces (`Bytes` as the network or a file reader produced them)
//! are gathered, not copied, into batches of about [`BATCH`] bytes; each batch is
//! written at its offset by a blocking task while the next one is gathered, so
//! memory stays at about two batches per writer.

use std::io;
use std::os::unix::fs::FileExt;

use bytes::Bytes;
use tokio::task::JoinHandle;

/// Bytes gathered before a batch is written.
pub const BATCH: usize = 1 << 20;

/// Writes pieces to `file` from `offset` on (positional writes: the file's own
/// position is not used).
pub struct PieceWriter {
    /// The file, while no batch is being written.
    file: Option<std::fs::File>,
    /// The batch being written; it gives the file back.
    writing: Option<JoinHandle<io::Result<std::fs::File>>>,
    batch: Vec<Bytes>,
    batch_len: usize,
    offset: u64,
    /// Every byte before this offset is written (its batch finished).
    completed: u64,
}

impl PieceWriter {
    pub fn new(file: std::fs::File, offset: u64) -> PieceWriter {
        PieceWriter {
            file: Some(file),
            writing: None,
            batch: Vec::new(),
            batch_len: 0,
            offset,
            completed: offset,
        }
    }

    /// Queues `piece`; writes the batch once it is full (after the previous
    /// batch is written).
    pub async fn write(&mut self, piece: Bytes) -> io::Result<()> {
        if piece.is_empty() {
            return Ok(());
        }
        self.batch_len += piece.len();
        self.batch.push(piece);
        if self.batch_len >= BATCH {
            self.start_batch().await?;
        }
        Ok(())
    }

    /// Waits for the batch being written and hands the next one to a blocking task.
    async fn start_batch(&mut self) -> io::Result<()> {
        let file = self.take_file().await?;
        self.completed = self.offset;
        let batch = std::mem::take(&mut self.batch);
        let mut offset = self.offset;
        self.offset += self.batch_len as u64;
        self.batch_len = 0;
        self.writing = Some(tokio::task::spawn_blocking(move || {
            for piece in &batch {
                file.write_all_at(piece, offset)?;
                offset += piece.len() as u64;
            }
            Ok(file)
        }));
        Ok(())
    }

    /// The offset before which every byte is written to the file (the batches
    /// queued after it may still be in flight).
    pub fn written(&self) -> u64 {
        self.completed
    }

    /// The file, once no batch is being written.
    async fn take_file(&mut self) -> io::Result<std::fs::File> {
        if let Some(writing) = self.writing.take() {
            return writing.await.map_err(io::Error::other)?;
        }
        self.file
            .take()
            .ok_or_else(|| io::Error::other("the file was lost by an earlier failed write"))
    }

    /// Writes what is left and returns the file, with its data synced when `sync`.
    pub async fn finish(mut self, sync: bool) -> io::Result<std::fs::File> {
        if self.batch_len > 0 {
            self.start_batch().await?;
        }
        let file = self.take_file().await?;
        if !sync {
            return Ok(file);
        }
        tokio::task::spawn_blocking(move || file.sync_data().map(|()| file))
            .await
            .map_err(io::Error::other)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn writes_pieces_in_order_at_the_offset() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f");
        std::fs::write(&path, vec![b'.'; 10]).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let mut w = PieceWriter::new(file, 4);
        let big: Vec<u8> = (0..(BATCH * 2 + 7)).map(|i| (i % 251) as u8).collect();
        w.write(Bytes::from_static(b"ab")).await.unwrap();
        w.write(Bytes::new()).await.unwrap();
        for piece in big.chunks(100_000) {
            w.write(Bytes::copy_from_slice(piece)).await.unwrap();
        }
        w.finish(true).await.unwrap();
        let back = std::fs::read(&path).unwrap();
        assert_eq!(&back[..6], b"....ab");
        assert_eq!(&back[6..], &big[..]);
    }
}
