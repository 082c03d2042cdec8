//! Plain YAML encoding and decoding of values, as ytt's `@ytt:yaml` module does it
//! (`yaml.encode` / `yaml.decode`) and as data-value files are read.

use super::ast::DocumentSet;
use super::emit::{EmitError, to_yaml_stream};
use super::parse::{YamlError, parse_document_set};
use super::value::Value;

/// `yaml.encode(value)`: the value printed as one document, with ytt's document printer
/// rules, so an empty document (None, `{}`, `[]`) encodes to `""`.
pub fn encode(value: &Value) -> Result<String, EmitError> {
    to_yaml_stream(std::slice::from_ref(value))
}

/// `yaml.decode(text)`: exactly one document (else "Expected to find exactly one YAML
/// document"); comments are ignored, duplicate keys keep the first place and the last value.
/// `name` is used in error messages.
pub fn decode(text: &str, name: &str) -> Result<Value, YamlError> {
    let ds = parse_document_set(text, name)?;
    single_document_value(ds, name)
}

fn single_document_value(mut ds: DocumentSet, name: &str) -> Result<Value, YamlError> {
    ds.docs.retain(|d| !d.injected);
    if ds.docs.len() != 1 {
        return Err(YamlError {
            file: name.to_string(),
            line: None,
            message: "Expected to find exactly one YAML document".to_string(),
        });
    }
    ds.override_map_keys();
    Ok(ds.docs[0].value.to_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_like_yaml_module() {
        let v = Value::Map(vec![
            (Value::str("name"), Value::str("app")),
            (Value::str("flag"), Value::str("yes")),
            (Value::str("empty"), Value::Map(vec![])),
        ]);
        assert_eq!(encode(&v).unwrap(), "name: app\nflag: \"yes\"\nempty: {}\n");
        assert_eq!(encode(&Value::str("hello")).unwrap(), "hello\n");
        assert_eq!(encode(&Value::Null).unwrap(), "");
    }

    #[test]
    fn decode_one_document() {
        assert_eq!(
            decode("b: 1\na: [x, yes]\nb: 2\n", "s").unwrap(),
            Value::Map(vec![
                (Value::str("b"), Value::Int(2)),
                (
                    Value::str("a"),
                    Value::Array(vec![Value::str("x"), Value::Bool(true)])
                ),
            ])
        );
        assert_eq!(
            decode("first line\n- not a list\n", "s").unwrap(),
            Value::str("first line - not a list")
        );
        assert_eq!(decode("# only a comment\n", "s").unwrap(), Value::Null);
        let err = decode("---\na: 1\n---\nb: 2\n", "s").unwrap_err();
        assert!(
            err.message
                .contains("Expected to find exactly one YAML document")
        );
        // a comment before `---` gives ytt an extra (empty) first document
        assert!(decode("# c\n---\na: 1\n", "s").is_err());
    }
}
