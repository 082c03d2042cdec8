//! Measures the floor granit-parser sets: iterates its events over every YAML file of a
//! directory N times, doing nothing else. Usage: granit_floor N DIR
use granit_parser::{Options, Parser, Scanner, StrInput};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().expect("N").parse().expect("N");
    let dir = args.next().expect("DIR");
    let scanner_only = args.next().as_deref() == Some("--scanner");
    let mut texts = Vec::new();
    for e in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let e = e.unwrap();
        let p = e.path();
        if matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml")) {
            texts.push(std::fs::read_to_string(p).unwrap());
        }
    }
    let start = std::time::Instant::now();
    let mut events = 0usize;
    for _ in 0..n {
        for t in &texts {
            let mut o = Options::default();
            o.emit_comments = true;
            if scanner_only {
                for tok in Scanner::with_options(StrInput::new(t), o) {
                    let _ = tok.unwrap();
                    events += 1;
                }
            } else {
                for ev in Parser::new_from_str_with_options(t, o) {
                    let _ = ev.unwrap();
                    events += 1;
                }
            }
        }
    }
    let per = start.elapsed().as_secs_f64() * 1000.0 / n as f64;
    eprintln!(
        "{} files, {} bytes, {} events per run, {per:.3} ms per run",
        texts.len(),
        texts.iter().map(|t| t.len()).sum::<usize>(),
        events / n
    );
}
