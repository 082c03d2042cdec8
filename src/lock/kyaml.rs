//! YAML as kbld prints it. kbld marshals through `sigs.k8s.io/yaml`: the value goes to JSON
//! (map keys become strings, numbers become float64, so `2.0` prints as `2`), back through
//! go-yaml v2 into generic maps, and out with go-yaml v2's defaults: keys sorted with its
//! "natural" order and long scalars folded at 80 columns.

use std::cmp::Ordering;

use crate::yaml::Value;
use crate::yaml::emit::{EmitError, EmitOptions, to_yaml_document_with};
use crate::yaml::float::format_yaml_float;

/// Prints `value` as `sigs.k8s.io/yaml.Marshal` does (one document, no `---`).
pub fn to_kbld_yaml(value: &Value) -> Result<String, EmitError> {
    to_yaml_document_with(&json_round_trip(value), &EmitOptions::GO_YAML_V2)
}

/// What a value becomes after a trip through JSON and go-yaml v2: string keys sorted with
/// go-yaml's key order, integral floats as integers.
pub fn json_round_trip(value: &Value) -> Value {
    match value {
        Value::Map(items) => {
            let mut out: Vec<(Value, Value)> = Vec::with_capacity(items.len());
            for (k, v) in items {
                let key = Value::String(key_string(k));
                let v = json_round_trip(v);
                // JSON objects keep the last of duplicate keys.
                match out.iter().position(|(ok, _)| *ok == key) {
                    Some(i) => out[i].1 = v,
                    None => out.push((key, v)),
                }
            }
            out.sort_by(|(a, _), (b, _)| match (a, b) {
                (Value::String(a), Value::String(b)) => go_yaml_key_order(a, b),
                _ => Ordering::Equal,
            });
            Value::Map(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(json_round_trip).collect()),
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 => {
            Value::Int(*f as i128)
        }
        Value::Int(i) if i.unsigned_abs() > (1u128 << 53) => {
            // float64 loses the low digits; Go prints the float without an exponent.
            let f = *i as f64;
            if f.abs() < 1e21 {
                Value::Int(f as i128)
            } else {
                Value::Float(f)
            }
        }
        other => other.clone(),
    }
}

/// A map key as JSON holds it.
fn key_string(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_yaml_float(*f),
        other => format!("{other:?}"),
    }
}

/// go-yaml v2's `keyList.Less` for two string keys: letters sort after non-letters, runs of
/// digits compare as numbers, everything else by code point.
pub fn go_yaml_key_order(a: &str, b: &str) -> Ordering {
    if go_less(a, b) {
        Ordering::Less
    } else if go_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn go_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .wrapping_mul(10)
                .wrapping_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .wrapping_mul(10)
                .wrapping_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(items: Vec<(&str, Value)>) -> Value {
        Value::Map(items.into_iter().map(|(k, v)| (Value::str(k), v)).collect())
    }

    #[test]
    fn keys_sort_like_go_yaml() {
        let mut keys = vec![
            "b", "a10", "a2", "A", "_x", "a", "a-b", "ab", "1", "10", "2",
        ];
        keys.sort_by(|a, b| go_yaml_key_order(a, b));
        assert_eq!(
            keys,
            vec![
                "_x", "1", "2", "10", "A", "a", "a-b", "a2", "a10", "ab", "b"
            ]
        );
    }

    #[test]
    fn prints_sorted_with_json_numbers() {
        let v = map(vec![
            (
                "spec",
                map(vec![
                    ("replicas", Value::Float(2.0)),
                    ("b", Value::Bool(true)),
                ]),
            ),
            ("apiVersion", Value::str("v1")),
            ("schedule", Value::str("0 3 * * *")),
        ]);
        assert_eq!(
            to_kbld_yaml(&v).unwrap(),
            "apiVersion: v1\nschedule: 0 3 * * *\nspec:\n  b: true\n  replicas: 2\n"
        );
        assert_eq!(to_kbld_yaml(&Value::Null).unwrap(), "null\n");
    }
}
