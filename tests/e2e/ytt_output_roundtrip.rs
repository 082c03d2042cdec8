//! Emitter fidelity check against real ytt v0.48 output: every YAML `expected.yml` of the ytt
//! conformance corpus (all areas, copied to tests/fixtures/ytt-outputs/<area>/<case>.yml) is
//! canonical ytt output, so parsing it and printing the documents again must reproduce it
//! byte for byte. This exercises quoting, block scalars, floats, indentation and separators
//! on outputs the YAML-only corpus cases do not cover.

use std::fs;
use std::path::PathBuf;

use strake::yaml::{parse_document_set, to_yaml_stream};

#[test]
fn ytt_outputs_reprint_identically() {
    let root = PathBuf::from("tests/fixtures/ytt-outputs");
    let mut files = Vec::new();
    for area in fs::read_dir(&root).expect("fixtures") {
        let area = area.unwrap().path();
        if !area.is_dir() {
            continue;
        }
        for f in fs::read_dir(&area).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    files.sort();
    assert!(
        files.len() >= 300,
        "expected the corpus outputs, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        match parse_document_set(&text, &name) {
            Ok(ds) => {
                let out = to_yaml_stream(&ds.printable_values()).unwrap();
                if out != text {
                    failures.push(format!("{name}\n--- want\n{text}--- got\n{out}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
