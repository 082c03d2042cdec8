//! `--images-file F`: references to lock that kbld cannot see in the YAML (for example
//! images a controller starts at run time). Either one reference per line (`#` comments
//! and blank lines ignored), or YAML: an ImagesLock-like `images: [{image: ref}]` or a
//! plain list of strings.

use crate::lock::error::LockError;
use crate::yaml::Value;

/// Reads the references of an images file, in file order.
pub fn read_images_file(path: &str) -> Result<Vec<String>, LockError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| LockError::Input(format!("{path}: {e}")))?;
    parse_images_file(&text, path)
}

/// Parses an images file's content (see the module docs).
pub fn parse_images_file(text: &str, path: &str) -> Result<Vec<String>, LockError> {
    let yaml_list = crate::yaml::parse_document_set(text, path)
        .ok()
        .and_then(|s| s.printable_values().into_iter().next())
        .filter(|v| matches!(v, Value::Array(_)) || v.get_str("images").is_some());
    let Some(value) = yaml_list else {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect());
    };
    let items = match value.get_str("images").unwrap_or(&value) {
        Value::Array(items) => items.clone(),
        other => {
            return Err(LockError::Input(format!(
                "{path}: images: expected a list, got {}",
                other.type_name()
            )));
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            Value::Map(_) => match item.get_str("image") {
                Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                _ => Err(LockError::Input(format!(
                    "{path}: images[{i}]: expected an image string"
                ))),
            },
            _ => Err(LockError::Input(format!(
                "{path}: images[{i}]: expected a reference or {{image: reference}}"
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_yaml() {
        assert_eq!(
            parse_images_file("# c\nreg.io/a:1\n\n  reg.io/b:2  \n", "f").unwrap(),
            vec!["reg.io/a:1", "reg.io/b:2"]
        );
        assert_eq!(
            parse_images_file("images:\n- image: reg.io/a:1\n- reg.io/b:2\n", "f").unwrap(),
            vec!["reg.io/a:1", "reg.io/b:2"]
        );
        assert_eq!(parse_images_file("- x:1\n", "f").unwrap(), vec!["x:1"]);
        assert!(
            parse_images_file("images:\n- {}\n", "f")
                .unwrap_err()
                .to_string()
                .contains("f: images[0]")
        );
    }
}
