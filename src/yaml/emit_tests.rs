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
