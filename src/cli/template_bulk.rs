//! `strake template --bulk-in` / `--bulk-out`: ytt's bulk file format, one JSON object
//! `{"files":[{"name":"a.yml","data":"..."}],"errors":"..."}`. `--bulk-in` takes the
//! input files from it (instead of `-f`); `--bulk-out` prints the output files (or the
//! run's error, with success status) in it, encoded as Go's `encoding/json` encodes.

use std::path::{Component, Path};

/// Writes the files of a `--bulk-in` object into a fresh directory, each at its name,
/// so the run reads them as `-f DIR` (their names are their paths in the library).
pub fn materialize(json: &str) -> Result<tempfile::TempDir, String> {
    // Go's `json.Unmarshal` checks the syntax first, in its own words.
    crate::ytt::modules::json_syntax::check(json)?;
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let serde_json::Value::Object(top) = &v else {
        return Err(format!(
            "json: cannot unmarshal {} into Go value of type template.BulkFiles",
            json_kind(&v)
        ));
    };
    let dir = tempfile::tempdir().map_err(|e| format!("bulk input directory: {e}"))?;
    let files = match top.get("files") {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::Array(items)) => items.clone(),
        Some(other) => {
            return Err(format!(
                "json: cannot unmarshal {} into Go struct field BulkFiles.files of type []template.BulkFile",
                json_kind(other)
            ));
        }
    };
    for f in files {
        let field = |key: &str| -> Result<String, String> {
            match f.get(key) {
                None | Some(serde_json::Value::Null) => Ok(String::new()),
                Some(serde_json::Value::String(s)) => Ok(s.clone()),
                Some(other) => Err(format!(
                    "json: cannot unmarshal {} into Go struct field BulkFile.files.{key} of type string",
                    json_kind(other)
                )),
            }
        };
        let (name, data) = (field("name")?, field("data")?);
        let rel = Path::new(&name);
        if name.is_empty() || !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!(
                "Expected bulk input file name '{name}' to be a relative path inside the input"
            ));
        }
        let path = dir.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("writing '{name}': {e}"))?;
        }
        std::fs::write(&path, data).map_err(|e| format!("writing '{name}': {e}"))?;
    }
    Ok(dir)
}

/// Go's name for a JSON value's kind in an unmarshalling error.
fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// The `--bulk-out` object: the output files (left out when there are none) and the
/// error (left out when there is none).
pub fn encode(files: &[(String, Vec<u8>)], errors: Option<&str>) -> String {
    let mut fields = Vec::new();
    if !files.is_empty() {
        let items: Vec<String> = files
            .iter()
            .map(|(name, data)| {
                format!(
                    "{{\"name\":{},\"data\":{}}}",
                    go_string(name),
                    go_string(&String::from_utf8_lossy(data))
                )
            })
            .collect();
        fields.push(format!("\"files\":[{}]", items.join(",")));
    }
    if let Some(e) = errors.filter(|e| !e.is_empty()) {
        fields.push(format!("\"errors\":{}", go_string(e)));
    }
    format!("{{{}}}", fields.join(","))
}

/// A JSON string as ytt's Go `encoding/json` writes it (HTML characters and the line and
/// paragraph separators escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`).
fn go_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::go_json::write_string(&mut out, s, crate::go_json::GoRelease::Before1_22);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_as_go_encodes() {
        assert_eq!(encode(&[], None), "{}");
        assert_eq!(
            encode(&[("a.yml".into(), b"a: <&>\n\x01".to_vec())], Some("")),
            "{\"files\":[{\"name\":\"a.yml\",\"data\":\"a: \\u003c\\u0026\\u003e\\n\\u0001\"}]}"
        );
        assert_eq!(encode(&[], Some("bad\n")), "{\"errors\":\"bad\\n\"}");
    }

    #[test]
    fn materializes_files_at_their_names() {
        let d = materialize(r#"{"files":[{"name":"x/a.yml","data":"a: 1"}]}"#).unwrap();
        assert_eq!(
            std::fs::read_to_string(d.path().join("x/a.yml")).unwrap(),
            "a: 1"
        );
        assert!(
            materialize("[]")
                .unwrap_err()
                .contains("cannot unmarshal array")
        );
        assert!(materialize(r#"{"files":[{"name":"../a.yml"}]}"#).is_err());
    }
}
