//! YAML documents of the package resources: parsing a file's documents into values,
//! converting between the YAML value tree and JSON (what the templates and the schemas
//! see), and printing a resource the way kctrl prints it (`sigs.k8s.io/yaml`: keys
//! sorted, long strings folded at 80 columns).

use crate::lock::kyaml::to_kbld_yaml;
use crate::yaml::{Value, parse_document_set};

/// Every non-empty document of `text`; `origin` names the file in errors.
pub fn parse_documents(text: &str, origin: &str) -> Result<Vec<Value>, String> {
    parse_document_set(text, origin)
        .map(|set| set.into_plain_values())
        .map_err(|e| e.to_string())
}

/// A YAML value as JSON: map keys become strings, integers stay integers.
pub fn to_json(value: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => {
            if let Ok(v) = i64::try_from(*i) {
                J::from(v)
            } else if let Ok(v) = u64::try_from(*i) {
                J::from(v)
            } else {
                serde_json::Number::from_f64(*i as f64).map_or(J::Null, J::Number)
            }
        }
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(items) => {
            let mut map = serde_json::Map::new();
            for (k, v) in items {
                let key = match k {
                    Value::String(s) => s.clone(),
                    other => other.to_display_string(),
                };
                map.insert(key, to_json(v));
            }
            J::Object(map)
        }
    }
}

/// JSON as a YAML value (object key order kept).
pub fn from_json(value: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match value {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i128::from(i))
            } else if let Some(u) = n.as_u64() {
                Value::Int(i128::from(u))
            } else {
                Value::Float(n.as_f64().unwrap_or(0.0))
            }
        }
        J::String(s) => Value::String(s.clone()),
        J::Array(items) => Value::Array(items.iter().map(from_json).collect()),
        J::Object(map) => Value::Map(
            map.iter()
                .map(|(k, v)| (Value::String(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

/// Prints one resource as kctrl writes it (`sigs.k8s.io/yaml.Marshal`).
pub fn to_kctrl_yaml(value: &serde_json::Value) -> Result<String, String> {
    to_kbld_yaml(&from_json(value)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_kctrl_sorted_folded_and_quoted() {
        let doc = serde_json::json!({
            "spec": {"releasedAt": "2026-11-30T09:13:14Z", "version": "1.2.3",
                     "paths": ["-", ".imgpkg/images.yml"],
                     "description": "Image reference for the demo container; kbld locks it to a digest at release time"},
            "metadata": {"creationTimestamp": null, "name": "a.b.c"},
            "apiVersion": "v1", "ratio": 0.25, "count": 2.0,
        });
        let text = to_kctrl_yaml(&doc).unwrap();
        assert_eq!(
            text,
            "apiVersion: v1\ncount: 2\nmetadata:\n  creationTimestamp: null\n  name: a.b.c\nratio: 0.25\nspec:\n  description: Image reference for the demo container; kbld locks it to a digest at\n    release time\n  paths:\n  - '-'\n  - .imgpkg/images.yml\n  releasedAt: \"2026-11-30T09:13:14Z\"\n  version: 1.2.3\n"
        );
    }

    #[test]
    fn json_round_trip_keeps_types_and_order() {
        let docs =
            parse_documents("b: 1\na: [x, 2.5, null, true]\n---\n---\nc: {}\n", "f.yml").unwrap();
        assert_eq!(docs.len(), 2);
        let json = to_json(&docs[0]);
        assert_eq!(json.to_string(), r#"{"b":1,"a":["x",2.5,null,true]}"#);
        assert_eq!(from_json(&json), docs[0]);
    }
}
