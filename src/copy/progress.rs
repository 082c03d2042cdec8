//! Progress of a copy: on a terminal, one `indicatif` bar over the bytes to move
//! (after dedupe and after what the destination has) with the blob count in its
//! message; otherwise one plain line per finished image on stderr. `quiet`
//! prints nothing (for `--json`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use indicatif::{ProgressBar, ProgressStyle};

/// Progress reporting shared by the transfer tasks.
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    blobs_total: u64,
    blobs_done: AtomicU64,
    bytes_moved: Arc<AtomicU64>,
    lines: Mutex<()>,
}

impl Progress {
    /// `bytes`/`blobs`: what is left to move.
    pub fn new(bytes: u64, blobs: u64, quiet: bool) -> Progress {
        let terminal = !quiet && std::io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(bytes);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta} {msg}",
                )
                .expect("a valid template"),
            );
            bar.set_message(format!("0/{blobs} blobs"));
            bar
        });
        Progress {
            bar,
            plain: !quiet && !terminal,
            blobs_total: blobs,
            blobs_done: AtomicU64::new(0),
            bytes_moved: Arc::new(AtomicU64::new(0)),
            lines: Mutex::new(()),
        }
    }

    /// A handle that counts bytes as they stream (it outlives borrows).
    pub fn counter(&self) -> ByteCounter {
        ByteCounter {
            bar: self.bar.clone(),
            bytes: self.bytes_moved.clone(),
        }
    }

    /// A blob is finished (moved, or found at the destination).
    pub fn blob_done(&self) {
        let done = self.blobs_done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{done}/{} blobs", self.blobs_total));
        }
    }

    /// Bytes a continued blob kept at the destination: they advance the bar but
    /// were not read from a source.
    pub fn kept(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// An image (its manifests and tags) is written.
    pub fn image_done(&self, line: &str) {
        if let Some(bar) = &self.bar {
            bar.println(line);
        } else if self.plain {
            let _guard = self.lines.lock();
            eprintln!("{line}");
        }
    }

    /// Bytes read from the sources so far.
    pub fn bytes_moved(&self) -> u64 {
        self.bytes_moved.load(Ordering::Relaxed)
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Counts streamed bytes into a [`Progress`].
#[derive(Clone)]
pub struct ByteCounter {
    bar: Option<ProgressBar>,
    bytes: Arc<AtomicU64>,
}

impl ByteCounter {
    pub fn add(&self, n: u64) {
        self.bytes.fetch_add(n, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }
}
