//! `ytt -o json` output: each document as compact JSON the way Go's `encoding/json` prints
//! ytt's values (map keys sorted, HTML-safe string escapes, Go float formatting), documents
//! written back to back with no separator and no trailing newline.

use super::float::format_go_g;
use super::value::Value;

/// An error converting a value to JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// JSON objects need string keys (ytt panics with "Expected key to be string").
    #[error("cannot print map key {0} as JSON: expected key to be a string")]
    NonStringKey(String),
    /// NaN and infinities have no JSON form.
    #[error("json: unsupported value: {0}")]
    UnsupportedFloat(String),
    /// Invalid JSON text given to [`from_json`].
    #[error("json.decode: {0}")]
    Decode(String),
    /// Integer outside the 64-bit range.
    #[error("integer {0} is too big to be printed (outside the 64-bit range)")]
    IntOutOfRange(i128),
}

/// Prints the non-empty documents as `ytt -o json` does.
pub fn to_json_stream(docs: &[Value]) -> Result<String, JsonError> {
    let mut out = String::new();
    for doc in docs.iter().filter(|d| !d.is_empty_document()) {
        write_json(doc, &mut out)?;
    }
    Ok(out)
}

/// Prints every document given as `ytt -o json` does, empty ones too.
pub fn to_json_documents(docs: &[Value]) -> Result<String, JsonError> {
    let mut out = String::new();
    for doc in docs {
        write_json(doc, &mut out)?;
    }
    Ok(out)
}

/// Prints one value as Go's `json.MarshalIndent(v, "", indent)` does: one element per line,
/// `"key": value`, `[]`/`{}` for empty collections, keys sorted, no trailing newline.
pub fn to_json_indented(v: &Value, indent: &str) -> Result<String, JsonError> {
    let compact = to_json(v)?;
    Ok(indent_compact_json(&compact, indent))
}

/// Re-indents compact JSON (as produced by [`to_json`]) like Go's `json.Indent`.
fn indent_compact_json(compact: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = compact.chars().collect();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(indent);
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                if chars.get(i + 1) == Some(&close) {
                    out.push(c);
                    out.push(close);
                    i += 2;
                    continue;
                }
                out.push(c);
                depth += 1;
                newline(&mut out, depth);
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// `json.decode(text)` as ytt does it with Go's `encoding/json`: every number becomes a
/// float (Go decodes JSON numbers into `float64`), objects become maps with keys sorted.
pub fn from_json(text: &str) -> Result<Value, JsonError> {
    let parsed: serde_json::Value =
        serde_json::from_str(text).map_err(|e| JsonError::Decode(e.to_string()))?;
    Ok(from_serde(parsed))
}

fn from_serde(v: serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(b),
        serde_json::Value::Number(n) => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => Value::String(s),
        serde_json::Value::Array(items) => {
            Value::Array(items.into_iter().map(from_serde).collect())
        }
        serde_json::Value::Object(map) => {
            let mut items: Vec<(String, Value)> =
                map.into_iter().map(|(k, v)| (k, from_serde(v))).collect();
            items.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Value::Map(
                items
                    .into_iter()
                    .map(|(k, v)| (Value::String(k), v))
                    .collect(),
            )
        }
    }
}

/// Prints one value as compact JSON (Go `json.Marshal` style).
pub fn to_json(v: &Value) -> Result<String, JsonError> {
    let mut out = String::new();
    write_json(v, &mut out)?;
    Ok(out)
}

fn write_json(v: &Value, out: &mut String) -> Result<(), JsonError> {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            if !Value::int_in_range(*i) {
                return Err(JsonError::IntOutOfRange(*i));
            }
            out.push_str(&i.to_string());
        }
        Value::Float(f) => out.push_str(&go_json_float(*f)?),
        Value::String(s) => write_json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out)?;
            }
            out.push(']');
        }
        Value::Map(items) => {
            // Go maps: last value per key wins; keys are printed sorted.
            let mut entries: Vec<(&str, &Value)> = Vec::with_capacity(items.len());
            for (k, val) in items {
                let Value::String(k) = k else {
                    return Err(JsonError::NonStringKey(k.to_display_string()));
                };
                match entries.iter_mut().find(|(ek, _)| *ek == k.as_str()) {
                    Some(e) => e.1 = val,
                    None => entries.push((k.as_str(), val)),
                }
            }
            // Go sorts the keys by their bytes: a byte carried for a string that is no
            // UTF-8 (see `crate::go_bytes`) compares as that byte.
            entries.sort_by(|a, b| {
                crate::go_bytes::to_bytes(a.0).cmp(&crate::go_bytes::to_bytes(b.0))
            });
            out.push('{');
            for (i, (k, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(k, out);
                out.push(':');
                write_json(val, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// Go `encoding/json` float encoding: `'f'` format, or `'e'` for |f| < 1e-6 or >= 1e21 with a
/// two-digit exponent trimmed to one (`1e-07` → `1e-7`).
fn go_json_float(f: f64) -> Result<String, JsonError> {
    if !f.is_finite() {
        return Err(JsonError::UnsupportedFloat(format_go_g(f)));
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let s = format_go_g(f);
        // format_go_g uses exponent form for these magnitudes; trim "e-07" → "e-7".
        if let Some(idx) = s.find('e') {
            let (mant, exp) = s.split_at(idx);
            let sign = &exp[1..2];
            let digits = exp[2..].trim_start_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            return Ok(format!("{mant}e{sign}{digits}"));
        }
        return Ok(s);
    }
    // Shortest round-trip digits in plain decimal notation.
    Ok(format!("{f}"))
}

fn write_json_string(s: &str, out: &mut String) {
    crate::go_json::write_string(out, s, crate::go_json::GoRelease::Before1_22);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_sorted_objects() {
        let doc = Value::Map(vec![
            (Value::str("name"), Value::str("app")),
            (Value::str("count"), Value::Int(3)),
            (
                Value::str("tags"),
                Value::Array(vec![Value::str("a"), Value::str("b")]),
            ),
            (
                Value::str("nested"),
                Value::Map(vec![
                    (Value::str("k"), Value::Null),
                    (Value::str("f"), Value::Float(1.5)),
                ]),
            ),
        ]);
        assert_eq!(
            to_json(&doc).unwrap(),
            r#"{"count":3,"name":"app","nested":{"f":1.5,"k":null},"tags":["a","b"]}"#
        );
    }

    #[test]
    fn escapes_like_go() {
        assert_eq!(
            to_json(&Value::str("a<b>&\"\\\n\u{1}\u{2028}é")).unwrap(),
            "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\u0001\\u2028é\""
        );
    }

    #[test]
    fn floats_like_go() {
        let f = |x: f64| go_json_float(x).unwrap();
        assert_eq!(f(1.5), "1.5");
        assert_eq!(f(1000.0), "1000");
        assert_eq!(f(1e20), "100000000000000000000");
        assert_eq!(f(1e21), "1e+21");
        assert_eq!(f(1e-7), "1e-7");
        assert_eq!(f(0.000001), "0.000001");
        assert_eq!(f(0.0), "0");
        assert!(go_json_float(f64::NAN).is_err());
    }

    #[test]
    fn indented_like_go_marshal_indent() {
        let v = Value::Map(vec![
            (Value::str("a"), Value::Array(vec![Value::Int(1)])),
            (Value::str("b"), Value::Map(vec![])),
            (Value::str("c"), Value::str("x,{y}: \"z\"")),
        ]);
        assert_eq!(
            to_json_indented(&v, "  ").unwrap(),
            "{\n  \"a\": [\n    1\n  ],\n  \"b\": {},\n  \"c\": \"x,{y}: \\\"z\\\"\"\n}"
        );
    }

    #[test]
    fn decode_like_go() {
        let v = from_json(r#"{"zeta": 1, "alpha": [true, null, 1.5], "mid": "s"}"#).unwrap();
        assert_eq!(
            v,
            Value::Map(vec![
                (
                    Value::str("alpha"),
                    Value::Array(vec![Value::Bool(true), Value::Null, Value::Float(1.5)])
                ),
                (Value::str("mid"), Value::str("s")),
                (Value::str("zeta"), Value::Float(1.0)),
            ])
        );
        assert_eq!(from_json("42").unwrap(), Value::Float(42.0));
        assert!(matches!(from_json("{not json"), Err(JsonError::Decode(_))));
    }

    #[test]
    fn stream_skips_empty_documents() {
        let docs = vec![
            Value::Map(vec![(Value::str("a"), Value::Bool(true))]),
            Value::Null,
            Value::Map(vec![(Value::str("b"), Value::Int(1))]),
        ];
        assert_eq!(to_json_stream(&docs).unwrap(), r#"{"a":true}{"b":1}"#);
        assert!(matches!(
            to_json(&Value::Map(vec![(Value::Int(1), Value::Null)])),
            Err(JsonError::NonStringKey(_))
        ));
    }
}
