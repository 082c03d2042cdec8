//! Measures the floor granit-parser sets: iterates its events (or, with `--scanner`, only
//! its scanner's tokens) over YAML files N times in one warm process, doing nothing else.
//! Prints the milliseconds per pass over all the files (scripts/bench-floor reads it).
//!
//! Usage: granit_floor N [--scanner] PATH…   (a PATH is a YAML file or a directory whose
//! `.yml`/`.yaml` files are read)
use granit_parser::{Options, Parser, Scanner, StrInput};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().expect("N").parse().expect("N is a number");
    let mut scanner_only = false;
    let mut texts = Vec::new();
    for arg in args {
        if arg == "--scanner" {
            scanner_only = true;
            continue;
        }
        for e in walkdir::WalkDir::new(&arg).sort_by_file_name() {
            let e = e.expect("readable path");
            let p = e.path();
            let yaml = matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"));
            if e.file_type().is_file() && (yaml || e.depth() == 0) {
                texts.push(std::fs::read_to_string(p).expect("UTF-8 file"));
            }
        }
    }
    assert!(!texts.is_empty(), "no YAML files given");
    let start = std::time::Instant::now();
    let mut items = 0usize;
    for _ in 0..n {
        for t in &texts {
            let mut o = Options::default();
            o.emit_comments = true;
            if scanner_only {
                for tok in Scanner::with_options(StrInput::new(t), o) {
                    tok.expect("valid YAML");
                    items += 1;
                }
            } else {
                for ev in Parser::new_from_str_with_options(t, o) {
                    ev.expect("valid YAML");
                    items += 1;
                }
            }
        }
    }
    let per = start.elapsed().as_secs_f64() * 1000.0 / n as f64;
    eprintln!(
        "{} files, {} bytes, {} {} per pass",
        texts.len(),
        texts.iter().map(|t| t.len()).sum::<usize>(),
        items / n,
        if scanner_only { "tokens" } else { "events" },
    );
    println!("{per:.3}");
}
