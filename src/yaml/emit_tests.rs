//! Unit tests for the emitter: layout and go-yaml v2 quoting rules.

use super::*;

fn s(v: &str) -> String {
    to_yaml_document(&Value::str(v)).unwrap()
}

/// The scalar as printed as a map value.
fn val(v: Value) -> String {
    let out = to_yaml_document(&Value::Map(vec![(Value::str("k"), v)])).unwrap();
    out.strip_prefix("k:").unwrap().to_string()
}

fn key(k: Value) -> String {
    to_yaml_document(&Value::Map(vec![(k, Value::Int(1))])).unwrap()
}

fn map(items: Vec<(&str, Value)>) -> Value {
    Value::Map(items.into_iter().map(|(k, v)| (Value::str(k), v)).collect())
}

#[test]
fn plain_when_the_string_resolves_back_to_a_string() {
    for v in [
        "x",
        "a, b",
        "-word",
        "say \"hi\"",
        "http://example.com:8080/path",
        "1.2.3",
        "a:b",
    ] {
        assert_eq!(val(Value::str(v)), format!(" {v}\n"), "{v}");
    }
}

#[test]
fn double_quotes_for_yaml11_lookalikes() {
    for v in [
        "yes",
        "no",
        "on",
        "off",
        "y",
        "n",
        "true",
        "False",
        "123",
        "-5",
        "1.5",
        "1e3",
        "0x10",
        "0o17",
        "null",
        "~",
        "",
        "2024-01-02",
        "12:30",
        ".inf",
        "<<",
    ] {
        assert_eq!(val(Value::str(v)), format!(" \"{v}\"\n"), "{v:?}");
    }
}

#[test]
fn single_quotes_for_indicators_and_spaces() {
    let cases = [
        ("key: value", "'key: value'"),
        ("ends with:", "'ends with:'"),
        ("a #comment", "'a #comment'"),
        ("#start", "'#start'"),
        ("  indented", "'  indented'"),
        ("trailing  ", "'trailing  '"),
        ("*", "'*'"),
        ("&a", "'&a'"),
        ("!t", "'!t'"),
        ("%p", "'%p'"),
        ("@at", "'@at'"),
        ("`t", "'`t'"),
        ("-", "'-'"),
        ("- x", "'- x'"),
        ("? q", "'? q'"),
        (":x", ":x"),
        ("[x]", "'[x]'"),
        ("{x}", "'{x}'"),
        ("|", "'|'"),
        (">", "'>'"),
        ("'q'", "'''q'''"),
        ("---", "'---'"),
        ("...x", "'...x'"),
    ];
    for (v, want) in cases {
        assert_eq!(val(Value::str(v)), format!(" {want}\n"), "{v:?}");
    }
}

#[test]
fn double_quote_escapes() {
    let cases = [
        ("a\tb", r#""a\tb""#),
        ("bell\u{7}", r#""bell\a""#),
        ("x\u{7f}y", r#""x\x7Fy""#),
        ("rocket \u{1F680}", r#""rocket \U0001F680""#),
        ("nel\u{85}", r#""nel\N""#),
        ("bom\u{feff}", r#""bom\uFEFF""#),
        ("cr\rx", r#""cr\rx""#),
        ("esc\u{1b}", r#""esc\e""#),
        ("nul\0", r#""nul\0""#),
    ];
    for (v, want) in cases {
        assert_eq!(val(Value::str(v)), format!(" {want}\n"), "{v:?}");
    }
    // printable non-ASCII stays as is
    assert_eq!(val(Value::str("café a\u{a0}b")), " café a\u{a0}b\n");
}

#[test]
fn multi_line_strings() {
    assert_eq!(val(Value::str("a\nb\n")), " |\n  a\n  b\n");
    assert_eq!(val(Value::str("a\nb")), " |-\n  a\n  b\n");
    assert_eq!(val(Value::str("a\n\n")), " |+\n  a\n\n");
    assert_eq!(val(Value::str("\n")), " |2+\n\n");
    assert_eq!(val(Value::str("  lead\nx\n")), " |2\n    lead\n  x\n");
    // trailing spaces on a line, or a trailing space: double quotes
    assert_eq!(val(Value::str("a  \nb\n")), " \"a  \\nb\\n\"\n");
    assert_eq!(val(Value::str("a\nb ")), " \"a\\nb \"\n");
    // special characters rule out literal style
    assert_eq!(val(Value::str("a\tb\nc")), " \"a\\tb\\nc\"\n");
    // a line starting with a space after a break is fine in a literal block
    assert_eq!(val(Value::str("a\n b\n")), " |\n  a\n   b\n");
}

#[test]
fn literal_block_at_root_and_in_lists() {
    assert_eq!(s("block\ndoc\n"), "|\n  block\n  doc\n");
    let v = Value::Array(vec![Value::str("x\ny\n"), Value::Int(1)]);
    assert_eq!(to_yaml_document(&v).unwrap(), "- |\n  x\n  y\n- 1\n");
    let v = map(vec![(
        "a",
        map(vec![("b", Value::str("l1\nl2")), ("c", Value::Null)]),
    )]);
    assert_eq!(
        to_yaml_document(&v).unwrap(),
        "a:\n  b: |-\n    l1\n    l2\n  c: null\n"
    );
}

#[test]
fn numbers_bools_nulls() {
    assert_eq!(val(Value::Null), " null\n");
    assert_eq!(val(Value::Bool(true)), " true\n");
    assert_eq!(val(Value::Int(-7)), " -7\n");
    assert_eq!(
        val(Value::Int(i128::from(u64::MAX))),
        " 18446744073709551615\n"
    );
    assert_eq!(val(Value::Float(1e6)), " 1e+06\n");
    assert_eq!(val(Value::Float(0.5)), " 0.5\n");
    assert_eq!(val(Value::Float(f64::NEG_INFINITY)), " -.inf\n");
    assert_eq!(
        to_yaml_document(&Value::Int(1 << 70)),
        Err(EmitError::IntOutOfRange(1 << 70))
    );
}

#[test]
fn layout_of_nested_collections() {
    let v = map(vec![
        (
            "server",
            map(vec![
                (
                    "listeners",
                    Value::Array(vec![
                        map(vec![
                            ("name", Value::str("http")),
                            ("tags", Value::Array(vec![Value::str("a")])),
                        ]),
                        map(vec![("tags", Value::Array(vec![]))]),
                    ]),
                ),
                ("limits", map(vec![])),
            ]),
        ),
        (
            "matrix",
            Value::Array(vec![
                Value::Array(vec![Value::Int(1), Value::Array(vec![Value::Int(2)])]),
                Value::Array(vec![]),
                Value::Map(vec![]),
            ]),
        ),
    ]);
    assert_eq!(
        to_yaml_document(&v).unwrap(),
        "server:\n  listeners:\n  - name: http\n    tags:\n    - a\n  - tags: []\n  limits: {}\n\
         matrix:\n- - 1\n  - - 2\n- []\n- {}\n"
    );
}

#[test]
fn keys() {
    assert_eq!(key(Value::Int(1)), "1: 1\n");
    assert_eq!(key(Value::Null), "null: 1\n");
    assert_eq!(key(Value::Bool(false)), "false: 1\n");
    assert_eq!(key(Value::Float(2.5)), "2.5: 1\n");
    assert_eq!(key(Value::str("yes")), "\"yes\": 1\n");
    assert_eq!(key(Value::str("")), "\"\": 1\n");
    assert_eq!(key(Value::str(" sp")), "' sp': 1\n");
    assert_eq!(key(Value::str("a:b")), "a:b: 1\n");
    // multi-line keys are double-quoted (a simple key cannot be multi-line)... go-yaml writes
    // them as complex keys
    assert_eq!(key(Value::str("a\nb")), "? |-\n  a\n  b\n: 1\n");
    let long = "k".repeat(129);
    assert_eq!(key(Value::str(&long)), format!("? {long}\n: 1\n"));
    let ok = "k".repeat(128);
    assert_eq!(key(Value::str(&ok)), format!("{ok}: 1\n"));
}

#[test]
fn long_lines_are_not_wrapped() {
    let long = "word ".repeat(40) + "end";
    assert_eq!(val(Value::str(&long)), format!(" {long}\n"));
    let quoted = format!("x: {long}");
    assert_eq!(val(Value::str(&quoted)), format!(" '{quoted}'\n"));
}

#[test]
fn stream_separators_and_empty_documents() {
    let docs = vec![
        map(vec![("a", Value::Int(1))]),
        Value::Null,
        Value::Map(vec![]),
        Value::Array(vec![]),
        Value::str("hello world"),
        Value::str("yes"),
    ];
    assert_eq!(
        to_yaml_stream(&docs).unwrap(),
        "a: 1\n---\nhello world\n---\n\"yes\"\n"
    );
    assert_eq!(to_yaml_stream(&[]).unwrap(), "");
    assert_eq!(to_yaml_stream(&[Value::Null]).unwrap(), "");
}

#[test]
fn go_yaml_v2_width_folds_long_scalars_at_spaces() {
    let words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore";
    let v = map(vec![("description", Value::str(words))]);
    // ytt never folds.
    assert_eq!(
        to_yaml_document(&v).unwrap(),
        format!("description: {words}\n")
    );
    // go-yaml v2 breaks at the first space after column 80 and indents the rest.
    let out = to_yaml_document_with(&v, &EmitOptions::GO_YAML_V2).unwrap();
    assert_eq!(
        out,
        "description: lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n  tempor incididunt ut labore\n"
    );
    // Double-quoted strings fold too, escaping a leading space of the next line.
    let v = map(vec![("d", Value::str(format!("{words}:  x  y")))]);
    let out = to_yaml_document_with(&v, &EmitOptions::GO_YAML_V2).unwrap();
    assert!(out.starts_with("d: 'lorem"), "{out}");
    // Keys are never folded, nor strings without spaces.
    let long = "x".repeat(120);
    let v = map(vec![("k", Value::str(long.clone()))]);
    assert_eq!(
        to_yaml_document_with(&v, &EmitOptions::GO_YAML_V2).unwrap(),
        format!("k: {long}\n")
    );
}
