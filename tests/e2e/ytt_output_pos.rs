//! `-o pos` (every output node beside its template position, as ytt's file position
//! printer lays it out), how `-o` affects `--output-files` (ytt writes YAML there),
//! the source lines of CRLF files under errors (ytt keeps their `\r`), and YAML syntax
//! errors in go-yaml's wording.

use crate::support::ytt;

#[test]
fn pos_output_prints_each_node_with_its_file_and_line() {
    let src = "\
a: 1
list:
- x
- #@ {\"k\": True}
text: |
  one
  two
---
#@ for i in range(2):
- #@ i
#@ end
";
    let out = ytt::render(&[("config.yml", src)], &["-f", ".", "-o", "pos"]).unwrap();
    let want = concat!(
        "          config.yml:1 | [doc]\n",
        "          config.yml:1 |   a: 1\n",
        "          config.yml:2 |   list:\n",
        "          config.yml:3 |     [0] x\n",
        "          config.yml:4 |     [1]\n",
        "          config.yml:4 |       k: true\n",
        "          config.yml:5 |   text:\n",
        "                       |     |\n",
        "  one\n",
        "  two\n",
        "          config.yml:8 | [doc]\n",
        "         config.yml:10 |   [0] 0\n",
        "         config.yml:10 |   [1] 1\n",
    );
    assert_eq!(out, want);
}

#[test]
fn pos_column_widens_for_a_longer_position_and_keeps_that_width() {
    let files = [
        ("a.yml", "k: v\n"),
        ("some/longer/directory/b.yml", "k: v\n"),
        ("z.yml", "k: v\n"),
    ];
    let out = ytt::render(&files, &["-f", ".", "-o", "pos"]).unwrap();
    let long = "some/longer/directory/b.yml:1";
    let w = long.len() + 10;
    let line = |pos: &str, text: &str| format!("{pos:>w$} | {text}\n");
    let want = [
        "          a.yml:1 | [doc]\n".to_string(),
        "          a.yml:1 |   k: v\n".to_string(),
        line(long, "[doc]"),
        line(long, "  k: v"),
        line("z.yml:1", "[doc]"),
        line("z.yml:1", "  k: v"),
    ]
    .concat();
    assert_eq!(out, want);
}

#[test]
fn output_files_are_yaml_whatever_the_output_type() {
    let out = ytt::render_output(
        &[("config.yml", "a: 1\n---\nb: 2\n")],
        &["-f", ".", "--output-files", "out", "-o", "json"],
    )
    .unwrap();
    assert_eq!(
        out.files,
        vec![("config.yml".to_string(), b"a: 1\n---\nb: 2\n".to_vec())]
    );
}

#[test]
fn json_output_concatenates_documents_without_separators() {
    let out = ytt::render(
        &[("config.yml", "a: 1\n---\n---\nb: [2]\n")],
        &["-f", ".", "-o", "json"],
    )
    .unwrap();
    assert_eq!(out, "{\"a\":1}{\"b\":[2]}");
}

#[test]
fn an_error_in_a_crlf_file_shows_its_line_with_the_carriage_return() {
    let err = ytt::render(
        &[("config.yml", "a: 1\r\nb: #@ missing\r\nc: 3\r\n")],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        err.ends_with("\n    config.yml:2 | b: #@ missing\r"),
        "{err:?}"
    );
}

#[test]
fn an_error_in_a_crlf_starlark_file_shows_its_line_with_the_carriage_return() {
    let err = ytt::render(
        &[
            ("lib.star", "x = 1\r\ny = missing\r\n"),
            ("config.yml", "#@ load(\"lib.star\", \"x\")\r\na: #@ x\r\n"),
        ],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        err.contains("config.yml:1 | #@ load(\"lib.star\", \"x\")\r\n"),
        "{err:?}"
    );
    // A Starlark file's lines are shown by number alone, as ytt shows them.
    assert!(err.ends_with("\n         2 | y = missing\r"), "{err:?}");
}

#[test]
fn yaml_syntax_errors_use_go_yaml_wording_and_keep_the_file_line() {
    let err = ytt::render(&[("config.yml", "a: 1\nb: c: d\n")], &["-f", "."]).unwrap_err();
    assert_eq!(
        err,
        "Unmarshaling YAML template 'config.yml': yaml: line 2: mapping values are not allowed in this context\n    in config.yml:2\n      config.yml:2 | b: c: d"
    );
    let err = ytt::render(&[("config.yml", "a:\n  b: 1\n c: 2\n")], &["-f", "."]).unwrap_err();
    assert!(
        err.starts_with(
            "Unmarshaling YAML template 'config.yml': yaml: line 2: did not find expected key\n    in config.yml:3\n"
        ),
        "{err}"
    );
}
