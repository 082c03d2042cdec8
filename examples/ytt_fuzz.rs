//! Mutation fuzzing of the template engine: takes the conformance cases, mutates one
//! input file at a time (bytes, ytt tokens, repeated lines, indentation), now and then
//! adds a flag, and renders it in-process; reports a panic, or a render that runs past
//! 30 s, with the input kept.
//! Usage: ytt_fuzz CASES_DIR ITERATIONS SEED (e.g. tests/fixtures/ytt 100000 1)
use std::path::{Path, PathBuf};

const TOKENS: &[&str] = &[
    "#@ ",
    "#@",
    "end",
    ":",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "#@overlay/match by=overlay.all\n",
    "---\n",
    "- ",
    "  ",
    "\n",
    "#@ def f():\n",
    "#@ for x in [1,2]:\n",
    "#@ if True:\n",
    "#@ end\n",
    "#@data/values\n",
    "#@data/values-schema\n",
    "#@schema/nullable\n",
    "#@overlay/replace\n",
    "#@overlay/remove\n",
    "#@overlay/append\n",
    "#@overlay/insert before=True\n",
    "(@= ",
    " @)",
    "(@ ",
    "&a ",
    "*a",
    "!!str ",
    "|\n",
    ">-\n",
    "\"",
    "'",
    "\\",
    "%",
    "{{",
    "#@ load(\"@ytt:overlay\", \"overlay\")\n",
    "#@ load(\"@ytt:data\", \"data\")\n",
    "data.values",
    "#@yaml/text-templated-strings\n",
    "#@schema/validation min=1\n",
    "#@ x = ",
    "lambda x: x",
    "not ",
    " and ",
    " or ",
    " if ",
    " else ",
    "[x for x in ",
    "**",
    "*",
    "//",
    "%",
    "0x",
    "1e400",
    "\u{e9}",
    "\t",
    "\r",
    "\0",
    "#!",
    "#@library/ref \"@lib\"\n",
    "#@template/code\n",
    "#@yaml/map-key-override\n",
    "#@overlay/match missing_ok=True\n",
    "~",
    "null",
    "True",
    "None",
];

/// Flags added now and then to a case's own.
const FLAGS: &[&str] = &[
    "--strict",
    "-o json",
    "-o pos",
    "--data-values-inspect",
    "--data-values-schema-inspect",
    "--data-values-schema-inspect -o openapi-v3",
    "-v a=1",
    "--data-value-yaml a=[1,2]",
    "--data-value-yaml a.b={x: 1}",
    "-v a.b.c=x",
    "--data-value-yaml +a=1",
    "--files-inspect",
    "--data-values-env DVS",
    "--ignore-unknown-comments",
    "--implicit-map-key-overrides",
    "--dangerous-data-values-disable-validation",
    "--file-mark config.yml:type=data",
    "--file-mark config.yml:exclude=true",
    "--file-mark config.yml:type=text-template",
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn cases(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for area in std::fs::read_dir(root).unwrap().flatten() {
        if !area.path().is_dir() {
            continue;
        }
        for case in std::fs::read_dir(area.path()).unwrap().flatten() {
            if case.path().join("args").exists() {
                out.push(case.path());
            }
        }
    }
    out.sort();
    out
}

fn inputs(case: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(case).into_iter().flatten() {
        if !e.file_type().is_file() {
            continue;
        }
        let rel = e
            .path()
            .strip_prefix(case)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if rel == "args" || rel.starts_with("expected") {
            continue;
        }
        out.push((rel, std::fs::read(e.path()).unwrap()));
    }
    out
}

fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    let n = 1 + rng.below(3);
    for _ in 0..n {
        let pos = rng.below(data.len() + 1);
        match rng.below(6) {
            0 if !data.is_empty() => {
                let p = pos.min(data.len() - 1);
                data[p] = rng.next() as u8;
            }
            1 if !data.is_empty() => {
                let end = (pos + rng.below(8)).min(data.len());
                data.drain(pos.min(end)..end);
            }
            2 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                data.splice(pos..pos, t.iter().copied());
            }
            3 => {
                // duplicate a line
                let text = data.clone();
                let lines: Vec<&[u8]> = text.split(|b| *b == b'\n').collect();
                let l = lines[rng.below(lines.len())];
                let mut ins = l.to_vec();
                ins.push(b'\n');
                data.splice(pos..pos, ins);
            }
            4 if !data.is_empty() => {
                // change indentation at a line start
                let text = data.clone();
                let starts: Vec<usize> = std::iter::once(0)
                    .chain(
                        text.iter()
                            .enumerate()
                            .filter(|(_, b)| **b == b'\n')
                            .map(|(i, _)| i + 1),
                    )
                    .filter(|i| *i < text.len())
                    .collect();
                let s = starts[rng.below(starts.len())];
                if rng.below(2) == 0 {
                    data.splice(s..s, *b"  ");
                } else if data.get(s) == Some(&b' ') {
                    data.remove(s);
                }
            }
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                data.extend_from_slice(t);
            }
        }
    }
}

/// Moves the failing input to `ytt-fuzz-NAME` in the temporary directory, with its args.
fn keep_input(work: &Path, name: &str, args_text: &str) -> PathBuf {
    let keep = std::env::temp_dir().join(format!("ytt-fuzz-{name}"));
    let _ = std::fs::remove_dir_all(&keep);
    std::fs::rename(work, &keep).unwrap();
    std::fs::write(keep.join("args"), args_text).unwrap();
    keep
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("CASES_DIR"));
    let iterations: usize = args.next().expect("ITERATIONS").parse().unwrap();
    let seed: u64 = args.next().expect("SEED").parse().unwrap();
    let mut rng = Rng(seed.max(1));
    let all = cases(&root);
    let work = std::env::temp_dir().join(format!("ytt-fuzz-{seed}"));
    std::panic::set_hook(Box::new(|_| {}));
    let mut panics = 0;
    for i in 0..iterations {
        let case = &all[rng.below(all.len())];
        let args_text = std::fs::read_to_string(case.join("args")).unwrap();
        let mut files = inputs(case);
        if files.is_empty() {
            continue;
        }
        let k = rng.below(files.len());
        mutate(&mut rng, &mut files[k].1);
        let _ = std::fs::remove_dir_all(&work);
        for (rel, data) in &files {
            let p = work.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, data).unwrap();
        }
        let mut argv: Vec<String> = args_text.split_whitespace().map(String::from).collect();
        if rng.below(4) == 0 {
            let extra = FLAGS[rng.below(FLAGS.len())];
            argv.extend(extra.split(' ').map(String::from));
        }
        let Ok(opts) = strake::cli::template::parse_options(&argv) else {
            continue;
        };
        let w = work.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let r = std::panic::catch_unwind(move || {
                    let _ = strake::ytt::run(&opts, &w, &mut || Ok(Vec::new()));
                });
                let _ = tx.send(r);
            })
            .unwrap();
        let result = match rx.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(r) => r,
            Err(_) => {
                let keep = keep_input(&work, &format!("hang-{seed}-{i}"), &args_text);
                println!(
                    "HANG #{i} case {} file {}\n  kept in {}",
                    case.display(),
                    files[k].0,
                    keep.display()
                );
                std::process::exit(2);
            }
        };
        if let Err(e) = result {
            panics += 1;
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let keep = keep_input(&work, &format!("crash-{seed}-{i}"), &args_text);
            println!(
                "PANIC #{i} case {} file {}: {msg}\n  kept in {}",
                case.display(),
                files[k].0,
                keep.display()
            );
        }
    }
    println!("{iterations} iterations, {panics} panics");
}
