//! Unit tests for the emitter: layout and go-yaml v2 quoting rules.

use super::*;

fn s(v: &str) -> String {
    to_yaml_document(&Value::str(v)).unwrap()
}

fn map(items: Vec<(&str, Value)>) -> Value {
    Value::Map(items.into_iter().map(|(k, v)| (Value::str(k), v)).collect())
}

#[test]
fn placeholder_layout() {
    let v = map(vec![("a", Value::Int(1))]);
    assert_eq!(to_yaml_document(&v).unwrap(), "a: 1\n");
    assert_eq!(s("x"), "x\n");
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
