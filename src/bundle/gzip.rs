//! Deterministic, parallel gzip for bundle layers.
//!
//! The uncompressed stream is cut into fixed [`CHUNK_SIZE`] pieces; each piece
//! becomes an independent gzip member (header MTIME 0, no name, OS 255, fixed
//! level, flate2 with the pinned zlib-rs backend). Members are compressed on as
//! many threads as asked and written in order, so the output bytes depend only on
//! the input, never on the thread count. A multi-member gzip stream is valid gzip
//! (RFC 1952 §2.2); Go's `gzip.Reader` (imgpkg) and `MultiGzDecoder` read it whole.
//!
//! Chunks that look incompressible (random or already-compressed data) become
//! members of stored deflate blocks, written here directly: one copy and a CRC,
//! instead of a pass through the compressor.
//!
//! Finished members are handed, owned and in order, to a [`MemberSink`]: a `Vec`,
//! any writer ([`WriteSink`]), or a channel feeding an upload.
//!
//! Memory is bounded: at most about `2 × threads` chunks are in flight.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use flate2::Compression;
use flate2::write::GzEncoder;

/// Uncompressed bytes per gzip member.
pub const CHUNK_SIZE: usize = 1 << 20;
/// The deflate level (1: fastest; bundles are mostly text and already small).
pub const LEVEL: u32 = 1;

/// Probes per chunk for the incompressible-data check, and their size.
const PROBES: usize = 4;
const PROBE_SIZE: usize = 8 * 1024;

/// Largest stored deflate block (the format's limit).
const STORED_BLOCK: usize = 65_535;

/// Names the settings that decide the compressed bytes; the layer cache keys on it.
pub fn settings_id() -> String {
    format!(
        "gzip-members/zlib-rs-1.1.11/level{LEVEL}/chunk{CHUNK_SIZE}/stored{STORED_BLOCK}-if-incompressible-{PROBES}x{PROBE_SIZE}"
    )
}

/// Receives finished gzip members, in order.
pub trait MemberSink: Send + 'static {
    fn member(&mut self, member: Vec<u8>) -> io::Result<()>;
}

impl MemberSink for Vec<u8> {
    fn member(&mut self, member: Vec<u8>) -> io::Result<()> {
        if self.is_empty() {
            *self = member;
        } else {
            self.extend_from_slice(&member);
        }
        Ok(())
    }
}

/// A [`MemberSink`] over any writer.
pub struct WriteSink<W: Write + Send + 'static>(pub W);

impl<W: Write + Send + 'static> MemberSink for WriteSink<W> {
    fn member(&mut self, member: Vec<u8>) -> io::Result<()> {
        self.0.write_all(&member)
    }
}

/// True when every probe (evenly spread, fixed offsets) of the chunk fails to
/// shrink by 3% at the chunk level: random or already-compressed data, which is
/// then stored (deflate level 0) instead of being compressed for nothing. The
/// decision depends only on the bytes, so the output stays deterministic.
fn looks_incompressible(chunk: &[u8]) -> bool {
    if chunk.len() < PROBES * PROBE_SIZE * 2 {
        return false;
    }
    (0..PROBES).all(|i| {
        let start = i * (chunk.len() / PROBES);
        let probe = &chunk[start..start + PROBE_SIZE];
        // A fresh compressor per probe: zlib-rs 0.6.8's reset keeps bit-writer state.
        let mut c = flate2::Compress::new(Compression::new(LEVEL), false);
        let mut out = Vec::with_capacity(PROBE_SIZE + 64);
        match c.compress_vec(probe, &mut out, flate2::FlushCompress::Finish) {
            Ok(_) => out.len() * 100 >= probe.len() * 97,
            Err(_) => false,
        }
    })
}

/// `chunk` as one gzip member of stored deflate blocks (header MTIME 0, XFL 4,
/// OS 255; blocks of [`STORED_BLOCK`] bytes, the last one final).
fn stored_member(chunk: &[u8]) -> Vec<u8> {
    let blocks = chunk.len().div_ceil(STORED_BLOCK).max(1);
    let mut out = Vec::with_capacity(10 + chunk.len() + 5 * blocks + 8);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);
    let mut pieces = chunk.chunks(STORED_BLOCK).peekable();
    if pieces.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(piece) = pieces.next() {
        let last = pieces.peek().is_none();
        let len = piece.len() as u16;
        out.push(last as u8);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(piece);
    }
    let mut crc = flate2::Crc::new();
    crc.update(chunk);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    out
}

/// The number of threads to use by default: every core, or `STRAKE_THREADS`.
pub fn default_threads() -> usize {
    if let Some(n) = std::env::var("STRAKE_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|n| *n > 0)
    {
        return n;
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// One chunk as a complete gzip member.
pub fn compress_member(chunk: &[u8]) -> io::Result<Vec<u8>> {
    if looks_incompressible(chunk) {
        return Ok(stored_member(chunk));
    }
    let level = Compression::new(LEVEL);
    let mut enc = GzEncoder::new(Vec::with_capacity(chunk.len() / 2 + 64), level);
    enc.write_all(chunk)?;
    let mut member = enc.finish()?;
    // Members queue on their way out: hold only the bytes, not the estimate.
    member.shrink_to_fit();
    Ok(member)
}

type Job = (u64, Vec<u8>);
type Done = (u64, io::Result<Vec<u8>>);

/// A `Write` that gzips what it is given into the sink `W`, in parallel (see the
/// module docs). Call [`ParallelGzip::finish`] to flush the last member and get `W`
/// back.
pub struct ParallelGzip<W: MemberSink> {
    buf: Vec<u8>,
    seq: u64,
    inline: Option<W>,
    jobs: Option<SyncSender<Job>>,
    /// Chunk buffers the workers are done with, for reuse (no allocation churn).
    free: Option<Receiver<Vec<u8>>>,
    workers: Vec<JoinHandle<()>>,
    writer: Option<JoinHandle<io::Result<W>>>,
}

impl<W: MemberSink> ParallelGzip<W> {
    pub fn new(out: W, threads: usize) -> ParallelGzip<W> {
        let threads = threads.max(1);
        let mut gz = ParallelGzip {
            buf: Vec::with_capacity(CHUNK_SIZE),
            seq: 0,
            inline: None,
            jobs: None,
            free: None,
            workers: Vec::new(),
            writer: None,
        };
        if threads == 1 {
            gz.inline = Some(out);
            return gz;
        }
        let (job_tx, job_rx) = sync_channel::<Job>(threads);
        let (done_tx, done_rx) = sync_channel::<Done>(threads);
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (free_tx, free_rx) = sync_channel::<Vec<u8>>(2 * threads + 2);
        for _ in 0..threads {
            let job_rx = Arc::clone(&job_rx);
            let done_tx = done_tx.clone();
            let free_tx = free_tx.clone();
            gz.workers.push(std::thread::spawn(move || {
                loop {
                    let job = {
                        let rx = job_rx.lock().expect("job queue lock");
                        rx.recv()
                    };
                    let Ok((seq, chunk)) = job else { return };
                    let member = compress_member(&chunk);
                    let _ = free_tx.try_send(chunk);
                    if done_tx.send((seq, member)).is_err() {
                        return;
                    }
                }
            }));
        }
        drop(done_tx);
        gz.jobs = Some(job_tx);
        gz.free = Some(free_rx);
        gz.writer = Some(std::thread::spawn(move || write_in_order(out, done_rx)));
        gz
    }

    fn flush_chunk(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let fresh = match self.free.as_ref().map(Receiver::try_recv) {
            Some(Ok(mut used)) => {
                used.clear();
                used
            }
            _ => Vec::with_capacity(CHUNK_SIZE),
        };
        let chunk = std::mem::replace(&mut self.buf, fresh);
        let seq = self.seq;
        self.seq += 1;
        if let Some(out) = self.inline.as_mut() {
            return out.member(compress_member(&chunk)?);
        }
        let sent = self.jobs.as_ref().map(|tx| tx.send((seq, chunk)));
        match sent {
            Some(Ok(())) => Ok(()),
            // The writer stopped (an error): finish() reports it.
            _ => Err(self
                .stop()
                .err()
                .unwrap_or_else(|| io::Error::other("gzip pipeline stopped unexpectedly"))),
        }
    }

    fn stop(&mut self) -> io::Result<W> {
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
        match self.writer.take() {
            Some(h) => h
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("gzip writer thread panicked"))),
            None => Err(io::Error::other("gzip pipeline already finished")),
        }
    }

    /// Compresses what is left and returns the inner writer. An empty input gives
    /// one empty member (a valid gzip stream).
    pub fn finish(mut self) -> io::Result<W> {
        if self.seq == 0 && self.buf.is_empty() {
            let empty = compress_member(&[])?;
            if let Some(mut out) = self.inline.take() {
                out.member(empty)?;
                return Ok(out);
            }
            let mut out = self.stop()?;
            out.member(empty)?;
            return Ok(out);
        }
        self.flush_chunk()?;
        if let Some(out) = self.inline.take() {
            return Ok(out);
        }
        self.stop()
    }
}

fn write_in_order<W: MemberSink>(mut out: W, done: Receiver<Done>) -> io::Result<W> {
    let mut next = 0u64;
    let mut pending: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    for (seq, member) in done {
        pending.insert(seq, member?);
        while let Some(member) = pending.remove(&next) {
            out.member(member)?;
            next += 1;
        }
    }
    if !pending.is_empty() {
        return Err(io::Error::other("gzip pipeline lost a chunk"));
    }
    Ok(out)
}

impl<W: MemberSink> Write for ParallelGzip<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let mut rest = data;
        while !rest.is_empty() {
            let room = CHUNK_SIZE - self.buf.len();
            let n = room.min(rest.len());
            self.buf.extend_from_slice(&rest[..n]);
            rest = &rest[n..];
            if self.buf.len() == CHUNK_SIZE {
                self.flush_chunk()?;
            }
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::MultiGzDecoder;
    use std::io::Read;

    fn sample(len: usize) -> Vec<u8> {
        let mut x: u32 = 12345;
        (0..len)
            .map(|i| {
                x = x.wrapping_mul(1103515245).wrapping_add(12345);
                if i % 3 == 0 {
                    b'a' + (i % 7) as u8
                } else {
                    (x >> 16) as u8
                }
            })
            .collect()
    }

    fn gz(data: &[u8], threads: usize, piece: usize) -> Vec<u8> {
        let mut w = ParallelGzip::new(Vec::new(), threads);
        for p in data.chunks(piece) {
            w.write_all(p).unwrap();
        }
        w.finish().unwrap()
    }

    #[test]
    fn same_bytes_for_every_thread_count_and_round_trips() {
        let data = sample(3 * CHUNK_SIZE + 777);
        let one = gz(&data, 1, 4096);
        let four = gz(&data, 4, 100_000);
        assert_eq!(one, four);
        assert_eq!(&one[..10], &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);
        let mut back = Vec::new();
        MultiGzDecoder::new(&one[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn random_chunks_are_stored_and_text_is_compressed() {
        let mut x: u64 = 7;
        let random: Vec<u8> = (0..CHUNK_SIZE)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        assert!(looks_incompressible(&random));
        let member = compress_member(&random).unwrap();
        assert!(member.len() > random.len() && member.len() < random.len() + 1024);
        let text = "key: value\n".repeat(CHUNK_SIZE / 11);
        assert!(!looks_incompressible(text.as_bytes()));
        assert!(compress_member(text.as_bytes()).unwrap().len() < text.len() / 10);
        let mut back = Vec::new();
        MultiGzDecoder::new(&member[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, random);
    }

    #[test]
    fn stored_members_decode_at_block_boundaries() {
        for len in [0, 1, STORED_BLOCK, STORED_BLOCK + 1, 3 * STORED_BLOCK] {
            let data: Vec<u8> = (0..len).map(|i| (i * 31 % 256) as u8).collect();
            let member = stored_member(&data);
            let blocks = len.div_ceil(STORED_BLOCK).max(1);
            assert_eq!(member.len(), 10 + len + 5 * blocks + 8, "len {len}");
            let mut back = Vec::new();
            MultiGzDecoder::new(&member[..])
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(back, data, "len {len}");
        }
    }

    #[test]
    fn empty_input_is_one_valid_member() {
        for threads in [1, 3] {
            let out = gz(&[], threads, 1);
            let mut back = Vec::new();
            MultiGzDecoder::new(&out[..])
                .read_to_end(&mut back)
                .unwrap();
            assert!(back.is_empty());
            assert_eq!(out, compress_member(&[]).unwrap());
        }
    }
}
