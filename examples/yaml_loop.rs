//! Parses and emits YAML files N times in one process, timing the parser and the emitter
//! separately (profiling aid for src/yaml). Usage: yaml_loop N [DIR…]; without DIRs it reads
//! every `.yml`/`.yaml` under examples/pinniped and benches/ytt-render.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml")) {
            out.push(p);
        }
    }
}

/// CPU time (user + system) of this thread from Linux `/proc/thread-self/stat`, in clock
/// ticks of 10 ms: steadier than wall time on a shared machine when summed over many runs;
/// zero where unavailable.
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the parenthesised command name; utime and stime are fields 14, 15.
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().expect("N").parse().expect("N is a number");
    let mut dirs: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if dirs.is_empty() {
        dirs = vec!["examples/pinniped".into(), "benches/ytt-render".into()];
    }
    let mut paths = Vec::new();
    for d in &dirs {
        collect(d, &mut paths);
    }
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("readable file");
            (p.display().to_string(), text)
        })
        .collect();
    let in_bytes: usize = files.iter().map(|(_, t)| t.len()).sum();
    // Values to emit: the printable documents of every file (parsed once).
    let values: Vec<Vec<strake::yaml::Value>> = files
        .iter()
        .map(|(name, text)| {
            strake::yaml::parse_document_set(text, name)
                .expect("valid YAML")
                .printable_values()
        })
        .collect();
    let (mut parse, mut emit) = (Duration::ZERO, Duration::ZERO);
    let (mut parse_cpu, mut emit_cpu) = (Duration::ZERO, Duration::ZERO);
    let (mut nodes, mut out_bytes) = (0usize, 0usize);
    for _ in 0..n {
        let (t, c) = (Instant::now(), cpu_time());
        for (name, text) in &files {
            let ds = strake::yaml::parse_document_set(text, name).expect("valid YAML");
            nodes += ds.docs.len();
        }
        parse += t.elapsed();
        parse_cpu += cpu_time() - c;
        let (t, c) = (Instant::now(), cpu_time());
        for docs in &values {
            out_bytes += strake::yaml::to_yaml_stream(docs).expect("printable").len();
        }
        emit += t.elapsed();
        emit_cpu += cpu_time() - c;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0 / n as f64;
    eprintln!(
        "{n} runs over {} files ({in_bytes} bytes): parse {:.3} ms, emit {:.3} ms per run \
         (CPU time: parse {:.3} ms, emit {:.3} ms; {} docs, {} bytes out per run)",
        files.len(),
        ms(parse),
        ms(emit),
        ms(parse_cpu),
        ms(emit_cpu),
        nodes / n,
        out_bytes / n
    );
}
