//! Errors of the data values stage in ytt's words: everything that goes wrong while the
//! values documents, files and flags are merged and checked is prefixed with
//! `Overlaying data values (in following order: <files>[, additional data values]): `,
//! an overlay error names the values document (`Document on line f.yml:2: ...`), and
//! overlay errors and schema reports show no source line under them.

use crate::support::ytt::render as render_args;

const SHOW: &str = "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n";
const SCHEMA: &str = "#@data/values-schema\n---\nfoo:\n  bar: 1\n";

fn values(body: &str) -> String {
    format!("#@data/values\n---\n{body}")
}

#[test]
fn an_overlay_error_names_the_values_files_in_order_and_the_document() {
    let a = values("foo:\n  bar: 1\n");
    let b = values("foo:\n  baz: 2\n");
    let files = [
        ("t.yml", SHOW),
        ("a.yml", a.as_str()),
        ("b.yml", b.as_str()),
    ];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.starts_with(
            "Overlaying data values (in following order: a.yml, b.yml): Document on line b.yml:2: "
        ),
        "{err}"
    );
    assert!(
        err.ends_with("Map item (key 'baz') on line b.yml:4: Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
}

#[test]
fn flags_are_listed_as_additional_data_values() {
    let files = [
        ("t.yml", SHOW),
        ("s.yml", SCHEMA),
        ("v.yml", "foo:\n  bar: str\n"),
    ];
    let err = render_args(
        &files,
        &["-f", "t.yml", "-f", "s.yml", "--data-values-file", "v.yml"],
    )
    .unwrap_err();
    assert!(
        err.starts_with(
            "Overlaying data values (in following order: additional data values): \nOne or more data values were invalid\n"
        ),
        "{err}"
    );
    assert!(!err.contains("\n    in v.yml"), "{err}");
    let err = render_args(
        &[("t.yml", SHOW), ("s.yml", SCHEMA)],
        &["-f", ".", "--data-value-yaml", "foo.bar=str"],
    )
    .unwrap_err();
    assert!(
        err.starts_with("Overlaying data values (in following order: additional data values): \n"),
        "{err}"
    );
    assert!(err.contains("  1 | foo.bar=str\n"), "{err}");
}

#[test]
fn a_schema_violation_in_a_values_document_names_the_values_files() {
    let d = values("foo:\n  bar: str\n");
    let files = [("t.yml", SHOW), ("s.yml", SCHEMA), ("d.yml", d.as_str())];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.starts_with("Overlaying data values (in following order: d.yml): \nOne or more data values were invalid"),
        "{err}"
    );
    assert!(!err.contains("\n    in d.yml:4"), "{err}");
}

#[test]
fn a_values_file_with_other_documents_is_refused_while_templating_it() {
    let nd = values("foo: 1\n---\nx: 1\n");
    let files = [("t.yml", SHOW), ("nd.yml", nd.as_str())];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.starts_with("Overlaying data values (in following order: nd.yml): Templating file 'nd.yml': Expected data values file 'nd.yml' to only have data values documents\n    in nd.yml:4"),
        "{err}"
    );
}

fn flag_error(args: &[&str]) -> String {
    let mut all = vec!["-f", "t.yml"];
    all.extend_from_slice(args);
    render_args(&[("t.yml", SHOW)], &all).unwrap_err()
}

#[test]
fn bad_data_value_flags_are_refused_in_ytts_words() {
    assert_eq!(
        flag_error(&["--data-value", "novalue"]),
        "Extracting data value from KV: Expected format key=value"
    );
    assert_eq!(
        flag_error(&["--data-value-file", "k"]),
        "Extracting data value from file: Expected format key=/file/path"
    );
    assert_eq!(
        flag_error(&["--data-value-file", "k=missing.txt"]),
        "Extracting data value from file: Finding file 'missing.txt': Checking file 'missing.txt': lstat missing.txt: no such file or directory"
    );
    assert_eq!(
        flag_error(&["--data-values-file", "missing.yml"]),
        "Extracting data value from file: Find files 'missing.yml': Checking file 'missing.yml': lstat missing.yml: no such file or directory"
    );
    assert_eq!(
        flag_error(&["--data-value", "a:b=1"]),
        "Extracting data value from KV: Expected at most one library-key separator ':' in 'a:b'"
    );
    assert_eq!(
        flag_error(&["--data-value", "@:k=1"]),
        "Extracting data value from KV: Expected library ref to not be empty"
    );
    let err = flag_error(&["--data-value-yaml", "k=[1"]);
    assert!(
        err.starts_with(
            "Extracting data value from KV: Deserializing value for key 'k': Deserializing YAML value: "
        ),
        "{err}"
    );
    assert!(err.ends_with(" (--data-value-yaml k=[1)"), "{err}");
}

#[test]
fn data_values_annotation_keywords_are_checked() {
    let k1 = "#@data/values after_library_module=True\n---\nfoo: 1\n";
    let err = render_args(&[("t.yml", SHOW), ("k1.yml", k1)], &["-f", "."]).unwrap_err();
    assert_eq!(
        err,
        "Overlaying data values (in following order: k1.yml): Annotation data/values: Expected kwarg 'after_library_module' to be used with library/ref annotation"
    );
    let k2 = "#@data/values bogus=1\n---\nfoo: 1\n";
    let err = render_args(&[("t.yml", SHOW), ("k2.yml", k2)], &["-f", "."]).unwrap_err();
    assert_eq!(
        err,
        "Overlaying data values (in following order: k2.yml): Unknown kwarg bogus for annotation data/values"
    );
}

#[test]
fn library_values_no_library_takes_are_named_as_ytt_names_them() {
    let r = "#@library/ref \"@nolib\"\n#@data/values\n---\nfoo: 1\n";
    let err = render_args(&[("t.yml", SHOW), ("r.yml", r)], &["-f", "."]).unwrap_err();
    assert_eq!(
        err,
        "Expected all provided library data values documents to be used but found unused: Data Value belonging to library '@nolib' on line r.yml:3"
    );
}

#[test]
fn library_flags_no_library_takes_are_refused() {
    let err = render_args(
        &[("t.yml", SHOW)],
        &["-f", ".", "--data-value", "@nolib:x=1"],
    )
    .unwrap_err();
    assert_eq!(
        err,
        "Expected all provided library data values documents to be used but found unused: Data Value belonging to library '@nolib' on line (data-value arg):1"
    );
}
