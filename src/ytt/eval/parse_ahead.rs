//! Parsing YAML templates ahead, on helper threads, while the main thread evaluates.
//!
//! A render spends over half of its instructions turning YAML files into document sets
//! (granit's scanner and our tree builder), and each file parses independently of the
//! others. [`ParseAhead`] hands the root library's YAML files to helper threads, last
//! file first, while evaluation goes through them from the first.
//! [`super::Lib::parsed_yaml`] takes a file's result when evaluation gets to it. It
//! parses the file itself if no helper has started it, and waits if a helper is on it
//! (which happens at most once per helper: where the two directions meet).
//!
//! A result is the document set the main thread would have made from the same text under
//! the same name. A file that fails to parse is parsed again on the main thread, so a
//! syntax error is reported at the same point of the run as without helpers. Helpers stop
//! once the run no longer needs them (the `ParseAhead` is dropped).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::yaml::{self, DocumentSet};

/// When a run parses ahead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ParseAheadMode {
    /// When the machine has a spare core and the YAML files are large enough to pay for
    /// a thread ([`AUTO_MIN_BYTES`]).
    #[default]
    Auto,
    /// Whenever there is more than one YAML file (tests use this to exercise helpers on
    /// small inputs).
    Always,
    /// Never: everything is parsed on the main thread.
    Never,
}

impl ParseAheadMode {
    /// The mode named by `STRAKE_PARSE_AHEAD` (`auto`, `always`, `never`); `Auto` when
    /// it is unset. Lets benchmarks compare both ways on one binary.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var("STRAKE_PARSE_AHEAD").as_deref() {
            Err(_) | Ok("auto") => Ok(ParseAheadMode::Auto),
            Ok("always") => Ok(ParseAheadMode::Always),
            Ok("never") => Ok(ParseAheadMode::Never),
            Ok(other) => Err(format!(
                "STRAKE_PARSE_AHEAD={other}: expected auto, always or never"
            )),
        }
    }
}

/// YAML bytes (beyond the first file) below which `Auto` parses on the main thread:
/// about 2 ms of parsing on one core. Starting a thread costs the main thread 0.1 to
/// 0.2 ms on this project's VMs, and the helper starts running 0.2 ms or more later.
pub const AUTO_MIN_BYTES: usize = 32 << 10;
/// Most helper threads a run starts.
const MAX_HELPERS: usize = 3;
/// Stack of a helper thread: as large as a main thread's, as parsing recurses with the
/// nesting of the YAML.
const HELPER_STACK: usize = 8 << 20;

/// One file to parse: the name its positions carry, and its text.
struct Job {
    display: String,
    src: Arc<[u8]>,
}

/// What has become of a file.
enum Slot {
    Waiting,
    Parsing,
    Parsed(DocumentSet),
    /// Not parsed by a helper (invalid text or a syntax error): the main thread parses it.
    Failed,
    /// Handed over to the main thread (parsed or not).
    Taken,
}

struct Shared {
    jobs: Vec<Job>,
    slots: Mutex<Vec<Slot>>,
    parsed: Condvar,
    next: AtomicUsize,
    stop: AtomicBool,
}

impl Shared {
    fn slots(&self) -> MutexGuard<'_, Vec<Slot>> {
        // Nothing panics while the lock is held (parsing happens outside it).
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A helper thread's loop: claims files from the last one back and parses them.
    fn work(&self) {
        while !self.stop.load(Ordering::Relaxed) {
            // From the last file backwards, while the main thread goes forwards: the two
            // meet once, so the main thread waits for a helper at most once. The first
            // file is always the main thread's (it asks for it at once).
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k + 1 >= self.jobs.len() {
                break;
            }
            let i = self.jobs.len() - 1 - k;
            let job = &self.jobs[i];
            {
                let mut slots = self.slots();
                if !matches!(slots[i], Slot::Waiting) {
                    continue;
                }
                slots[i] = Slot::Parsing;
            }
            // A panic leaves the file to the main thread, which meets it again.
            let result = std::panic::catch_unwind(|| {
                std::str::from_utf8(&job.src)
                    .ok()
                    .and_then(|src| yaml::parse_document_set(src, &job.display).ok())
            })
            .ok()
            .flatten();
            let mut slots = self.slots();
            slots[i] = match result {
                Some(ds) => Slot::Parsed(ds),
                None => Slot::Failed,
            };
            drop(slots);
            self.parsed.notify_all();
        }
    }
}

/// Helper threads parsing a library's YAML files; see the module documentation.
pub struct ParseAhead {
    shared: Arc<Shared>,
    index: HashMap<String, usize>,
    /// Helper threads started.
    helpers: usize,
}

impl ParseAhead {
    /// Starts helpers for `files` (relative name, name in positions, text; in the order
    /// the run will likely ask for them), or returns `None` when `mode` says not to.
    /// Helpers start at the last file and work backwards; the first is left to the caller.
    pub fn start(mode: ParseAheadMode, files: Vec<(String, String, Arc<[u8]>)>) -> Option<Self> {
        if mode == ParseAheadMode::Never || files.len() < 2 {
            return None;
        }
        let helpers = if mode == ParseAheadMode::Always {
            1
        } else {
            let spare = std::thread::available_parallelism().map_or(0, |n| n.get() - 1);
            let beyond_first: usize = files.iter().skip(1).map(|f| f.2.len()).sum();
            if spare == 0 || beyond_first < AUTO_MIN_BYTES {
                return None;
            }
            spare.min(MAX_HELPERS).min(files.len() - 1)
        };
        let index = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.0.clone(), i))
            .collect();
        let jobs: Vec<Job> = files
            .into_iter()
            .map(|(_, display, src)| Job { display, src })
            .collect();
        let shared = Arc::new(Shared {
            slots: Mutex::new(jobs.iter().map(|_| Slot::Waiting).collect()),
            jobs,
            parsed: Condvar::new(),
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let helpers = (0..helpers)
            .filter(|n| {
                let shared = shared.clone();
                std::thread::Builder::new()
                    .name(format!("strake-parse-{n}"))
                    .stack_size(HELPER_STACK)
                    .spawn(move || shared.work())
                    .is_ok()
            })
            .count();
        if helpers == 0 {
            return None;
        }
        Some(ParseAhead {
            shared,
            index,
            helpers,
        })
    }

    /// The parsed document set of `rel` if a helper made it from `src` under the name
    /// `display`; `None` when the caller must parse it (no helper got to it, or it
    /// failed). Waits while a helper is parsing it. Each file is handed out once.
    pub fn take(&self, rel: &str, display: &str, src: &str) -> Option<DocumentSet> {
        let &i = self.index.get(rel)?;
        let job = &self.shared.jobs[i];
        if job.display != display || *job.src != *src.as_bytes() {
            return None;
        }
        let mut slots = self.shared.slots();
        loop {
            match std::mem::replace(&mut slots[i], Slot::Taken) {
                Slot::Parsed(ds) => return Some(ds),
                Slot::Parsing => {
                    slots[i] = Slot::Parsing;
                    slots = self
                        .shared
                        .parsed
                        .wait(slots)
                        .unwrap_or_else(|e| e.into_inner());
                }
                Slot::Waiting | Slot::Failed | Slot::Taken => return None,
            }
        }
    }

    /// Whether helpers are running for this library (for tests).
    pub fn helper_count(&self) -> usize {
        self.helpers
    }
}

impl Drop for ParseAhead {
    fn drop(&mut self) {
        // Helpers finish the file they are on and stop; nobody waits for them.
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(texts: &[(&str, &str)]) -> Vec<(String, String, Arc<[u8]>)> {
        texts
            .iter()
            .map(|(rel, text)| (rel.to_string(), rel.to_string(), Arc::from(text.as_bytes())))
            .collect()
    }

    #[test]
    fn results_match_parsing_on_the_main_thread() {
        let texts: Vec<(String, String)> = (0..20)
            .map(|i| {
                let body: String = (0..50)
                    .map(|j| format!("  key{j}: #@ value{j}\n  - item {i}\n"))
                    .collect();
                (
                    format!("f{i:02}.yml"),
                    format!("#@ x = {i}\n---\nroot:\n{body}"),
                )
            })
            .collect();
        let named: Vec<(&str, &str)> = texts
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let ahead = ParseAhead::start(ParseAheadMode::Always, files(&named)).unwrap();
        assert_eq!(ahead.helper_count(), 1);
        for (rel, text) in &named {
            let want = yaml::parse_document_set(text, rel).unwrap();
            let got = ahead
                .take(rel, rel, text)
                .unwrap_or_else(|| yaml::parse_document_set(text, rel).unwrap());
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{rel}");
            // Handed out once.
            assert!(ahead.take(rel, rel, text).is_none());
        }
    }

    #[test]
    fn failures_and_other_texts_are_left_to_the_caller() {
        let named = [
            ("a.yml", "a: 1\n"),
            ("b.yml", "b: [1\n"),
            ("c.yml", "c: 3\n"),
        ];
        let ahead = ParseAhead::start(ParseAheadMode::Always, files(&named)).unwrap();
        // Another text or name than the helper saw is never answered from its work.
        assert!(ahead.take("a.yml", "a.yml", "a: 2\n").is_none());
        assert!(ahead.take("c.yml", "lib/c.yml", "c: 3\n").is_none());
        // A syntax error is the caller's to report.
        assert!(ahead.take("b.yml", "b.yml", "b: [1\n").is_none());
        assert!(ahead.take("z.yml", "z.yml", "").is_none());
    }

    #[test]
    fn modes_decide_whether_helpers_start() {
        let small = [("a.yml", "a: 1\n"), ("b.yml", "b: 2\n")];
        assert!(ParseAhead::start(ParseAheadMode::Never, files(&small)).is_none());
        assert!(ParseAhead::start(ParseAheadMode::Auto, files(&small)).is_none());
        assert!(ParseAhead::start(ParseAheadMode::Always, files(&small[..1])).is_none());
        let big = "k: v\n".repeat(AUTO_MIN_BYTES / 4);
        let large = [("a.yml", "a: 1\n"), ("b.yml", big.as_str())];
        assert_eq!(
            ParseAhead::start(ParseAheadMode::Auto, files(&large)).is_some(),
            std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
        );
    }
}
