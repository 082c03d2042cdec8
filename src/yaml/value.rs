//! Plain YAML values: what a template evaluates to and what the emitters print.
//!
//! `Value` is deliberately simple: maps are ordered `Vec`s of key/value pairs (ytt keeps
//! insertion order and allows non-string keys), integers cover the whole range go-yaml can
//! print (`i64::MIN ..= u64::MAX`).

/// A YAML value as ytt holds it after parsing or evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`, `~`, an empty plain scalar, or Starlark `None`.
    Null,
    /// `true`/`false` (and the YAML 1.1 forms `yes`, `on`, `y`, ...).
    Bool(bool),
    /// An integer. Values parsed from YAML and values printable by go-yaml lie in
    /// `i64::MIN ..= u64::MAX` (use [`Value::int_in_range`] to check before printing).
    Int(i128),
    /// A float (`1.5`, `1e3`, `.inf`, `.nan`).
    Float(f64),
    /// A string.
    String(String),
    /// A sequence.
    Array(Vec<Value>),
    /// A mapping in insertion order. Keys are normally scalars (strings, ints, bools, null,
    /// floats); duplicates are possible only if the producer allows them.
    Map(Vec<(Value, Value)>),
}

impl Value {
    /// Convenience constructor for a string value.
    pub fn str(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }

    /// True for `Null`, `Bool`, `Int`, `Float` and `String`.
    pub fn is_scalar(&self) -> bool {
        !matches!(self, Value::Array(_) | Value::Map(_))
    }

    /// ytt's notion of an empty document: null, `{}` or `[]` (such documents are not printed).
    pub fn is_empty_document(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Map(items) => items.is_empty(),
            Value::Array(items) => items.is_empty(),
            _ => false,
        }
    }

    /// Whether an integer can be printed by go-yaml (`int64` or `uint64`).
    pub fn int_in_range(i: i128) -> bool {
        i >= i128::from(i64::MIN) && i <= i128::from(u64::MAX)
    }

    /// Looks a key up in a map value (first match).
    pub fn get(&self, key: &Value) -> Option<&Value> {
        match self {
            Value::Map(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Looks a string key up in a map value (first match).
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(items) => items
                .iter()
                .find(|(k, _)| matches!(k, Value::String(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// A short type name as used in error messages (`string`, `integer`, `float`, `boolean`,
    /// `null`, `array`, `map`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
        }
    }

    /// Renders a value for messages: scalars as Go's `%v` prints them (strings bare, floats
    /// in Go `'g'` format, null as `null`); collections in a compact `[a b]` / `map[k:v]` form.
    pub fn to_display_string(&self) -> String {
        match self {
            Value::Null => "null".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => super::float::format_go_g(*f),
            Value::String(s) => s.clone(),
            Value::Array(items) => {
                let parts: Vec<String> = items.iter().map(|v| v.to_display_string()).collect();
                format!("[{}]", parts.join(" "))
            }
            Value::Map(items) => {
                let parts: Vec<String> = items
                    .iter()
                    .map(|(k, v)| format!("{}:{}", k.to_display_string(), v.to_display_string()))
                    .collect();
                format!("map[{}]", parts.join(" "))
            }
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i128::from(i))
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_documents() {
        assert!(Value::Null.is_empty_document());
        assert!(Value::Map(vec![]).is_empty_document());
        assert!(Value::Array(vec![]).is_empty_document());
        assert!(!Value::str("").is_empty_document());
        assert!(!Value::Int(0).is_empty_document());
    }

    #[test]
    fn int_range() {
        assert!(Value::int_in_range(i128::from(u64::MAX)));
        assert!(!Value::int_in_range(i128::from(u64::MAX) + 1));
        assert!(Value::int_in_range(i128::from(i64::MIN)));
        assert!(!Value::int_in_range(i128::from(i64::MIN) - 1));
    }

    #[test]
    fn lookup() {
        let m = Value::Map(vec![
            (Value::str("a"), Value::Int(1)),
            (Value::Int(2), Value::Null),
        ]);
        assert_eq!(m.get_str("a"), Some(&Value::Int(1)));
        assert_eq!(m.get(&Value::Int(2)), Some(&Value::Null));
        assert_eq!(m.get_str("b"), None);
    }
}
