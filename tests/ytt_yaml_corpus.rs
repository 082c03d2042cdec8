//! Runs the `yaml` area of the ytt conformance corpus (tests/fixtures/ytt/yaml, copied byte
//! for byte from the shared corpus) through the YAML layer alone: select files like `ytt -f .`,
//! parse every emitted YAML file, and print the documents (YAML, or JSON for `-o json`).
//!
//! Files with ytt templating (`#@`) need the template engine; this runner only applies the
//! rules that do not need evaluation (a plain `#` comment in a templated file is an error).
//! The list `PASSING` names the cases that must pass here; the test fails if any of them
//! fails, and also if a case outside the list starts passing (so the list stays honest).

use std::fs;
use std::path::{Path, PathBuf};

use strake::yaml::files::collect_dir;
use strake::yaml::json::to_json_stream;
use strake::yaml::{Value, parse_document_set, to_yaml_stream};

const CORPUS: &str = "tests/fixtures/ytt/yaml";

/// Cases the YAML layer handles on its own.
const PASSING: &[&str] = &[
    "001-yaml11-bool-values",
    "002-yaml11-bool-like-keys",
    "003-integers",
    "004-floats",
    "005-nulls",
    "006-quoted-lookalikes-stay-strings",
    "007-strings-needing-quotes",
    "008-literal-block-scalar",
    "009-literal-chomping-indicators",
    "010-folded-block-scalar",
    "011-block-with-trailing-spaces",
    "012-double-quoted-escapes",
    "013-single-quoted-escapes",
    "014-multiline-plain-and-quoted-folding",
    "015-nested-maps-and-arrays",
    "016-arrays-of-arrays",
    "017-flow-collections-become-block",
    "018-empty-collections",
    "019-indentation-normalized",
    "020-multiple-documents",
    "021-empty-documents-dropped",
    "022-top-level-scalar-documents",
    "023-plain-comments-in-untemplated-file",
    "024-plain-comment-in-templated-file-is-error",
    "026-key-order-preserved",
    "027-unicode-text",
    "028-long-lines-not-wrapped",
    "029-anchors-and-aliases",
    "030-merge-key",
    "031-non-string-keys",
    "032-explicit-tags",
    "033-timestamps-and-sexagesimal",
    "034-special-character-escaping",
    "035-crlf-line-endings",
    "036-no-trailing-newline",
    "038-json-output",
    "039-document-end-marker",
    "040-comment-only-file",
    "041-directory-lexical-order",
    "042-non-yaml-files-not-emitted",
    "043-yaml-extension-variants",
    "044-duplicate-keys",
    "045-directory-walk-interleaves-files-and-dirs",
    "046-plain-scalars-that-stay-strings",
    "047-quoted-keys-needing-quotes-on-output",
];

enum Outcome {
    Output(String),
    Error(String),
    NeedsEngine(String),
}

fn run_case(dir: &Path) -> Outcome {
    let args = fs::read_to_string(dir.join("args")).expect("args file");
    let args: Vec<&str> = args.split_ascii_whitespace().collect();
    let json = match args.as_slice() {
        ["-f", "."] => false,
        ["-f", ".", "-o", "json"] => true,
        other => return Outcome::NeedsEngine(format!("arguments {other:?}")),
    };
    let files = collect_dir(dir).expect("list case files");
    let mut docs: Vec<Value> = Vec::new();
    for f in files {
        if matches!(
            f.rel_path.as_str(),
            "args" | "expected.yml" | "expected-error.txt"
        ) {
            continue;
        }
        // Libraries, Starlark and data files are only used when loaded (nothing loads them
        // without templating); text templates are not printed to stdout.
        if !f.is_emitted_yaml() {
            continue;
        }
        let text = fs::read_to_string(&f.path).expect("read input");
        let mut ds = match parse_document_set(&text, &f.rel_path) {
            Ok(ds) => ds,
            Err(e) => return Outcome::Error(e.to_string()),
        };
        if ds.has_templating() {
            if let Some(c) = ds.first_plain_comment() {
                return Outcome::Error(format!(
                    "Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments) at {}",
                    c.pos
                ));
            }
            return Outcome::NeedsEngine(format!("{} has templating", f.rel_path));
        }
        ds.override_map_keys();
        docs.extend(ds.printable_values());
    }
    let printed = if json {
        to_json_stream(&docs).map_err(|e| e.to_string())
    } else {
        to_yaml_stream(&docs).map_err(|e| e.to_string())
    };
    match printed {
        Ok(s) => Outcome::Output(s),
        Err(e) => Outcome::Error(e),
    }
}

fn check(dir: &Path) -> Result<(), String> {
    let expected_out = dir.join("expected.yml");
    let expected_err = dir.join("expected-error.txt");
    match run_case(dir) {
        Outcome::NeedsEngine(why) => Err(format!("needs the template engine: {why}")),
        Outcome::Output(out) => {
            if expected_out.exists() {
                let want = fs::read_to_string(&expected_out).unwrap();
                if out == want {
                    Ok(())
                } else {
                    Err(format!(
                        "output differs\n--- expected\n{want}\n--- got\n{out}\n---"
                    ))
                }
            } else {
                Err(format!("expected an error, got output:\n{out}"))
            }
        }
        Outcome::Error(e) => {
            if expected_err.exists() {
                let want = fs::read_to_string(&expected_err).unwrap();
                let want = want.trim_end_matches('\n');
                if e.contains(want) {
                    Ok(())
                } else {
                    Err(format!("error {e:?} does not mention {want:?}"))
                }
            } else {
                Err(format!("unexpected error: {e}"))
            }
        }
    }
}

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(CORPUS)
        .expect("corpus directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn yaml_area_of_ytt_corpus() {
    let all = cases();
    assert_eq!(all.len(), 48, "the yaml area has 48 cases");
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut unexpected_passes = Vec::new();
    for dir in &all {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let listed = PASSING.contains(&name.as_str());
        match check(dir) {
            Ok(()) => {
                passed += 1;
                if !listed {
                    unexpected_passes.push(name);
                }
            }
            Err(why) => {
                if listed {
                    failures.push(format!("{name}: {why}"));
                } else {
                    eprintln!("not handled by the YAML layer alone: {name}: {why}");
                }
            }
        }
    }
    eprintln!("yaml corpus: {passed} of {} cases pass", all.len());
    assert!(
        failures.is_empty(),
        "failing cases:\n{}",
        failures.join("\n\n")
    );
    assert!(
        unexpected_passes.is_empty(),
        "cases pass but are not listed in PASSING: {unexpected_passes:?}"
    );
    assert_eq!(passed, PASSING.len());
}
