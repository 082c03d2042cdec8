//! Checking a user's values file against an exported values schema, as an install would
//! see them (`strake values check`): the schema comes from an OpenAPI document
//! (`components.schemas.dataValues`), a `Package` (`spec.valuesSchema.openAPIv3`) or a
//! deploy directory (exported by the engine with validation keywords); the values are
//! completed with the schema's defaults (as ytt fills them in) and validated with the
//! `jsonschema` crate after OpenAPI's `nullable: true` is rewritten to `type: [T, "null"]`.
//! Every violation is listed with the dotted path of the offending value.

use std::path::Path;

use serde_json::{Map, Value as J};

use crate::yaml::Value;
use crate::ytt::schema::openapi::Mode;

/// A value that breaks the schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Dotted path (`service.ports[1].port`); empty for the whole document.
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{p}: {}", self.message)
    }
}

/// Converts a YAML value to JSON (non-string keys are printed as text).
pub fn to_json(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => match i64::try_from(*i) {
            Ok(n) => J::from(n),
            Err(_) => match u64::try_from(*i) {
                Ok(n) => J::from(n),
                Err(_) => J::from(*i as f64),
            },
        },
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(J::Number)
            .unwrap_or(J::Null),
        Value::String(s) => J::String(s.clone()),
        Value::Array(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(items) => {
            let mut m = Map::new();
            for (k, v) in items {
                m.insert(k.to_display_string(), to_json(v));
            }
            J::Object(m)
        }
    }
}

fn parse_yaml_file(path: &Path) -> Result<Value, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading '{}': {e}", path.display()))?;
    let name = path.display().to_string();
    let ds = crate::yaml::parse_document_set(&text, &name).map_err(|e| {
        format!(
            "parsing '{name}'{}: {}",
            e.line.map(|l| format!(" line {l}")).unwrap_or_default(),
            e.message
        )
    })?;
    let docs: Vec<Value> = ds
        .docs
        .iter()
        .filter(|d| !d.injected)
        .map(|d| d.value.to_value())
        .filter(|v| !v.is_empty_document())
        .collect();
    match docs.len() {
        0 => Ok(Value::Map(vec![])),
        1 => Ok(docs.into_iter().next().expect("one")),
        n => Err(format!("'{name}': expected one YAML document, found {n}")),
    }
}

/// The `dataValues` schema (JSON) from an OpenAPI file, a Package file or a deploy dir.
pub fn load_schema(path: &Path) -> Result<J, String> {
    if path.is_dir() {
        let dir = path.display().to_string();
        let files =
            crate::ytt::files::collect(std::slice::from_ref(&dir), Path::new("."), &mut || {
                Ok(Vec::new())
            })
            .map_err(|e| format!("reading deploy directory '{dir}': {e}"))?;
        let lib = crate::ytt::eval::Lib::new(
            "",
            files,
            Default::default(),
            crate::ytt::render::module_loader(),
        );
        let (root, _) = crate::ytt::schema::load_schema(&lib)
            .map_err(|e| format!("exporting the schema of '{dir}': {e}"))?;
        let root = root.ok_or_else(|| {
            format!("deploy directory '{dir}' has no #@data/values-schema document")
        })?;
        return Ok(to_json(&crate::ytt::schema::openapi::node(
            &root,
            Mode::Extended,
        )));
    }
    let v = parse_yaml_file(path)?;
    let name = path.display();
    if v.get_str("kind") == Some(&Value::str("Package")) {
        return v
            .get_str("spec")
            .and_then(|s| s.get_str("valuesSchema"))
            .and_then(|s| s.get_str("openAPIv3"))
            .map(to_json)
            .ok_or_else(|| format!("'{name}': Package has no spec.valuesSchema.openAPIv3"));
    }
    v.get_str("components")
        .and_then(|c| c.get_str("schemas"))
        .and_then(|s| s.get_str("dataValues"))
        .map(to_json)
        .ok_or_else(|| {
            format!(
                "'{name}': expected an OpenAPI document with components.schemas.dataValues, a Package with spec.valuesSchema.openAPIv3, or a deploy directory"
            )
        })
}

/// Rewrites OpenAPI 3.0 specifics for JSON schema: `nullable: true` → `type: [T, "null"]`
/// (and `null` added to an `enum`); `x-*`, `example` and `deprecated` dropped.
pub fn to_json_schema(s: &J) -> J {
    match s {
        J::Object(m) => {
            let nullable = m.get("nullable") == Some(&J::Bool(true));
            let mut out = Map::new();
            for (k, v) in m {
                if k == "nullable" || k.starts_with("x-") || k == "example" || k == "deprecated" {
                    continue;
                }
                let v = match k.as_str() {
                    "properties" => match v {
                        J::Object(props) => J::Object(
                            props
                                .iter()
                                .map(|(pk, pv)| (pk.clone(), to_json_schema(pv)))
                                .collect(),
                        ),
                        o => o.clone(),
                    },
                    "items" | "additionalProperties" => to_json_schema(v),
                    "type" if nullable => match v {
                        J::String(t) => J::Array(vec![J::String(t.clone()), J::from("null")]),
                        o => o.clone(),
                    },
                    "enum" if nullable => {
                        let mut e = v.as_array().cloned().unwrap_or_default();
                        if !e.contains(&J::Null) {
                            e.push(J::Null);
                        }
                        J::Array(e)
                    }
                    _ => v.clone(),
                };
                out.insert(k.clone(), v);
            }
            J::Object(out)
        }
        o => o.clone(),
    }
}

/// The value a missing key takes: its `default`, `null` when nullable, or (objects) the
/// defaults of its properties.
fn default_for(s: &J) -> Option<J> {
    let m = s.as_object()?;
    if let Some(d) = m.get("default") {
        return Some(d.clone());
    }
    if m.get("nullable") == Some(&J::Bool(true)) {
        return Some(J::Null);
    }
    if m.get("type") == Some(&J::from("object")) {
        let mut out = J::Object(Map::new());
        fill(&mut out, s);
        return Some(out);
    }
    None
}

/// Fills in missing keys with the schema's defaults, recursively (as ytt does).
pub fn fill(v: &mut J, s: &J) {
    let Some(m) = s.as_object() else { return };
    match v {
        J::Object(obj) => {
            let Some(J::Object(props)) = m.get("properties") else {
                return;
            };
            for (k, ps) in props {
                match obj.get_mut(k) {
                    Some(child) => fill(child, ps),
                    None => {
                        if let Some(d) = default_for(ps) {
                            obj.insert(k.clone(), d);
                        }
                    }
                }
            }
        }
        J::Array(items) => {
            if let Some(is) = m.get("items") {
                for i in items {
                    fill(i, is);
                }
            }
        }
        _ => {}
    }
}

/// Turns a JSON pointer into the dotted path of the value it points at in `instance`.
fn dotted(pointer: &str, instance: &J) -> String {
    let mut out = String::new();
    let mut cur = Some(instance);
    for raw in pointer.split('/').skip(1) {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        match cur {
            Some(J::Array(a)) => {
                out.push_str(&format!("[{seg}]"));
                cur = seg.parse::<usize>().ok().and_then(|i| a.get(i));
            }
            other => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&seg);
                cur = match other {
                    Some(J::Object(o)) => o.get(&seg),
                    _ => None,
                };
            }
        }
    }
    out
}

/// Checks `values` against the `dataValues` schema `schema` (OpenAPI form), after filling
/// in defaults. Returns every violation.
pub fn check(schema: &J, values: &Value) -> Result<Vec<Problem>, String> {
    check_json(schema, to_json(values))
}

/// [`check`] for values already in JSON form.
pub fn check_json(schema: &J, values: J) -> Result<Vec<Problem>, String> {
    let mut inst = values;
    if inst.is_null() {
        inst = J::Object(Map::new());
    }
    fill(&mut inst, schema);
    let js = to_json_schema(schema);
    let validator = jsonschema::validator_for(&js)
        .map_err(|e| format!("the values schema is not valid: {e}"))?;
    let mut out: Vec<Problem> = Vec::new();
    for e in validator.iter_errors(&inst) {
        let path = dotted(e.instance_path().as_str(), &inst);
        match e.kind() {
            // One problem per undeclared key, named by its own path.
            jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } => {
                for k in unexpected {
                    out.push(Problem {
                        path: if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        },
                        message: "is not declared in the values schema".into(),
                    });
                }
            }
            _ => out.push(Problem {
                path,
                message: e.to_string(),
            }),
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// `strake values check`: loads the schema at `schema_path` and checks `values_path`.
pub fn check_files(schema_path: &Path, values_path: &Path) -> Result<Vec<Problem>, String> {
    let schema = load_schema(schema_path)?;
    check_file(&schema, values_path)
}

/// Checks the values file `values_path` against `schema` (OpenAPI form).
pub fn check_file(schema: &J, values_path: &Path) -> Result<Vec<Problem>, String> {
    let values = parse_yaml_file(values_path)?;
    check(schema, &values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nullable_becomes_a_type_list_and_enum_allows_null() {
        let s = json!({"type": "object", "properties": {
            "a": {"type": "string", "nullable": true, "enum": ["x"], "x-example-description": "d", "example": "x"},
            "b": {"nullable": true, "default": {}}
        }});
        assert_eq!(
            to_json_schema(&s),
            json!({"type": "object", "properties": {
                "a": {"type": ["string", "null"], "enum": ["x", null]},
                "b": {"default": {}}
            }})
        );
    }

    #[test]
    fn defaults_are_filled_in_like_ytt() {
        let s = json!({"type": "object", "properties": {
            "n": {"type": "integer", "default": 1},
            "opt": {"type": "object", "nullable": true, "properties": {"x": {"type": "string", "default": ""}}},
            "svc": {"type": "object", "properties": {"port": {"type": "integer", "default": 80}}},
            "list": {"type": "array", "default": [], "items": {"type": "object", "properties": {
                "h": {"type": "string", "default": "h"}, "p": {"type": "integer", "default": 1}}}}
        }});
        let mut v = json!({"list": [{"p": 2}]});
        fill(&mut v, &s);
        assert_eq!(
            v,
            json!({"list": [{"p": 2, "h": "h"}], "n": 1, "opt": null, "svc": {"port": 80}})
        );
    }

    #[test]
    fn pointers_become_dotted_paths() {
        let inst = json!({"a": {"b": [{"0": 1}, {"c": 2}]}});
        assert_eq!(dotted("/a/b/1/c", &inst), "a.b[1].c");
        assert_eq!(dotted("/a/b/0/0", &inst), "a.b[0].0");
        assert_eq!(dotted("", &inst), "");
    }
}
