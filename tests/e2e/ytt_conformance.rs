//! The ytt conformance corpus (tests/fixtures/ytt, copied from the shared corpus; see
//! tests/README.md) run through the template engine as a library call.
//!
//! Each case is copied without its meta files (`args`, `expected.yml`,
//! `expected-error.txt`) into a scratch directory and rendered there with its split
//! args, parsed by `strake template`'s own flag definition
//! (`strake::cli::template::parse_options`, clap). A success case must print exactly
//! `expected.yml`; an error case must fail with a message that names a template file
//! and line and holds the phrase of `expected-error.txt` (taken from ytt 0.48's stderr). Every failing case is printed, with a
//! pass count per area; the test fails when an area passes fewer cases than its floor.

use std::path::{Path, PathBuf};

use strake::cli::template::parse_options;
use strake::ytt::run;

/// Cases of each area that must pass. Raise these as the engine improves.
const FLOORS: &[(&str, usize)] = &[
    ("yaml", 48),
    ("starlark", 104),
    ("template", 100),
    ("data-values", 79),
    ("overlay", 113),
    ("schema", 63),
    ("node-sugar", 28),
    ("fragments", 27),
    ("assert", 29),
    ("modules", 52),
    ("text-templates", 26),
    ("comments", 20),
    ("keys-strict", 22),
];

const META: &[&str] = &["args", "expected.yml", "expected-error.txt"];

fn copy_case(src: &Path, dst: &Path, top: bool) {
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if top && META.contains(&name.as_ref()) {
            continue;
        }
        let to = dst.join(name.as_ref());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
            copy_case(&entry.path(), &to, false);
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
}

enum Outcome {
    Pass,
    Fail(String),
}

fn run_case(case: &Path) -> Outcome {
    let args = std::fs::read_to_string(case.join("args")).unwrap();
    let args: Vec<&str> = args.split_ascii_whitespace().collect();
    let scratch = tempfile::tempdir().unwrap();
    copy_case(case, scratch.path(), true);
    let result =
        parse_options(&args).and_then(|opts| run(&opts, scratch.path(), &mut || Ok(Vec::new())));
    let expected = std::fs::read(case.join("expected.yml")).ok();
    match (expected, result) {
        (Some(want), Ok(out)) => {
            if out.stdout == want {
                Outcome::Pass
            } else {
                Outcome::Fail(format!(
                    "output differs\n--- want\n{}--- got\n{}",
                    String::from_utf8_lossy(&want),
                    String::from_utf8_lossy(&out.stdout)
                ))
            }
        }
        (Some(_), Err(e)) => Outcome::Fail(format!("unexpected error: {e}")),
        (None, Ok(out)) => Outcome::Fail(format!(
            "expected an error, got output:\n{}",
            String::from_utf8_lossy(&out.stdout)
        )),
        (None, Err(e)) => {
            let msg = e.to_string();
            let phrase = std::fs::read_to_string(case.join("expected-error.txt")).unwrap();
            let phrase = phrase.trim_end_matches(['\n', '\r']);
            if !names_file_and_line(&msg) {
                return Outcome::Fail(format!(
                    "error does not name a template file and line: {msg}"
                ));
            }
            if msg.contains(phrase) {
                Outcome::Pass
            } else {
                // The phrase was taken from ytt 0.48's stderr: strake must word it so.
                Outcome::Fail(format!("wanted wording '{phrase}', got: {msg}"))
            }
        }
    }
}

/// True when the message holds `<name>.<ext>:<line>`, names a flag/file it refers to,
/// or quotes a line in the hunk of a schema report (`<name>.<ext>:` over `  <line> | ...`,
/// as ytt's schema reports name a place).
fn names_file_and_line(msg: &str) -> bool {
    let lines: Vec<&str> = msg.lines().collect();
    let hunk = lines.windows(3).any(|w| {
        w[0].ends_with(':')
            && w[0].contains('.')
            && w[1].trim() == "|"
            && w[2]
                .trim_start()
                .split_once(" | ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    });
    hunk || names_file_colon_line(msg)
}

/// True when the message holds `<name>.<ext>:<line>` or names a flag/file it refers to.
fn names_file_colon_line(msg: &str) -> bool {
    msg.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '\'')
        .any(|w| {
            let w = w.trim_end_matches([',', ':']);
            match w.rsplit_once(':') {
                Some((file, line)) => {
                    file.contains('.')
                        && !line.is_empty()
                        && line.chars().all(|c| c.is_ascii_digit())
                }
                None => false,
            }
        })
        || msg.contains("--data-value")
        || msg.contains("Expected to find file")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ytt")
}

#[test]
fn ytt_conformance_corpus() {
    let only = std::env::var("YTT_CASE").ok();
    let mut report = String::new();
    let mut below_floor = Vec::new();
    for (area, floor) in FLOORS {
        let mut cases: Vec<PathBuf> = std::fs::read_dir(fixtures().join(area))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        cases.sort();
        let total = cases.len();
        let mut passed = 0;
        for case in cases {
            let name = format!("{area}/{}", case.file_name().unwrap().to_string_lossy());
            if let Some(o) = &only
                && !name.contains(o.as_str())
            {
                continue;
            }
            match run_case(&case) {
                Outcome::Pass => passed += 1,
                Outcome::Fail(why) => {
                    if only.is_some() {
                        println!("FAIL {name}: {why}");
                    } else {
                        println!("FAIL {name}: {}", why.lines().next().unwrap_or(""));
                    }
                }
            }
        }
        report.push_str(&format!("{area}: {passed}/{total} (floor {floor})\n"));
        if only.is_none() && passed < *floor {
            below_floor.push(format!("{area}: {passed} < floor {floor}"));
        }
    }
    println!("{report}");
    assert!(
        below_floor.is_empty(),
        "areas below their floor: {below_floor:?}"
    );
}
