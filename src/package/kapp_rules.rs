//! kapp-controller's own validation of Package and PackageMetadata objects (the aggregated
//! API server's `ValidatePackage` / `ValidatePackageMetadata`), the rules a JSON Schema
//! cannot state: `metadata.name` = `refName.version`, a refName that is a DNS-1123
//! subdomain with at least three segments, strict semver, parseable version constraints.
//! Errors come in kapp-controller's order and print as `field.Error.Error()` does.

use serde_json::Value;

use crate::package::constraints::{Range, parse_strict};
use crate::package::go_quote::go_quote;

/// One violation: the field path and the message after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path of the field (`spec.refName`, `spec.template.spec.fetch[0]`).
    pub field: String,
    /// What is wrong (`Invalid value: "x": ...`, `Required value`, a schema message).
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

fn required(field: &str, detail: &str) -> FieldError {
    let mut message = "Required value".to_string();
    if !detail.is_empty() {
        message.push_str(": ");
        message.push_str(detail);
    }
    FieldError {
        field: field.to_string(),
        message,
    }
}

fn invalid(field: &str, value: &str, detail: &str) -> FieldError {
    FieldError {
        field: field.to_string(),
        message: format!("Invalid value: {}: {detail}", go_quote(value)),
    }
}

const DNS1123_SUBDOMAIN_MESSAGE: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// `IsDNS1123Subdomain`: `[a-z0-9]([-a-z0-9]*[a-z0-9])?` labels joined by dots.
fn dns1123_subdomain_errors(name: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if name.len() > 253 {
        errors.push("must be no more than 253 characters");
    }
    let label_ok = |l: &str| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.iter()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    };
    if !name.split('.').all(label_ok) {
        errors.push(DNS1123_SUBDOMAIN_MESSAGE);
    }
    errors
}

/// `IsFullyQualifiedName`: a DNS-1123 subdomain with at least three segments.
pub fn fully_qualified_name_errors(field: &str, name: &str) -> Vec<FieldError> {
    if name.is_empty() {
        return vec![required(field, "")];
    }
    let dns = dns1123_subdomain_errors(name);
    if !dns.is_empty() {
        return vec![invalid(field, name, &dns.join(","))];
    }
    if name.split('.').count() < 3 {
        return vec![invalid(
            field,
            name,
            "should be a domain with at least three segments separated by dots",
        )];
    }
    Vec::new()
}

fn string_at<'a>(doc: &'a Value, path: &[&str]) -> &'a str {
    let mut v = doc;
    for key in path {
        match v.get(key) {
            Some(next) => v = next,
            None => return "",
        }
    }
    v.as_str().unwrap_or("")
}

/// The errors of a version (`ValidatePackageSpecVersion`).
pub fn version_errors(field: &str, version: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if version.is_empty() {
        errors.push(invalid(field, version, "cannot be empty"));
    }
    if let Err(e) = parse_strict(version) {
        errors.push(invalid(
            field,
            version,
            &format!("must be valid semver: {e}"),
        ));
    }
    errors
}

/// `ValidatePackage`.
pub fn validate_package(doc: &Value) -> Vec<FieldError> {
    let ref_name = string_at(doc, &["spec", "refName"]);
    let version = string_at(doc, &["spec", "version"]);
    let name = string_at(doc, &["metadata", "name"]);
    let mut errors = Vec::new();
    if ref_name.is_empty() {
        errors.push(required("spec.refName", "can not be empty"));
    }
    errors.extend(fully_qualified_name_errors("spec.refName", ref_name));
    errors.extend(version_errors("spec.version", version));
    if name != format!("{ref_name}.{version}") {
        errors.push(invalid(
            "metadata.name",
            name,
            "must be <spec.refName> + '.' + <spec.version>",
        ));
    }
    for selection in [
        "kubernetesVersionSelection",
        "kappControllerVersionSelection",
    ] {
        let Some(sel) = doc.get("spec").and_then(|s| s.get(selection)) else {
            continue;
        };
        if sel.is_null() {
            continue;
        }
        let constraints = sel.get("constraints").and_then(Value::as_str).unwrap_or("");
        if let Err(e) = Range::parse(constraints) {
            errors.push(invalid(
                &format!("spec.{selection}.constraints"),
                constraints,
                &e.to_string(),
            ));
        }
    }
    errors
}

/// `ValidatePackageMetadata`: only the name is checked.
pub fn validate_package_metadata(doc: &Value) -> Vec<FieldError> {
    fully_qualified_name_errors("metadata.name", string_at(doc, &["metadata", "name"]))
}

/// The kapp-controller rules of `kind` (none for kinds it does not validate itself).
pub fn validate(kind: &str, doc: &Value) -> Vec<FieldError> {
    match kind {
        "Package" => validate_package(doc),
        "PackageMetadata" => validate_package_metadata(doc),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pkg(name: &str, ref_name: &str, version: &str) -> Value {
        json!({"metadata": {"name": name}, "spec": {"refName": ref_name, "version": version}})
    }

    #[test]
    fn a_valid_package_has_no_errors() {
        assert!(validate_package(&pkg("a.b.c.1.0.0", "a.b.c", "1.0.0")).is_empty());
        assert!(validate_package(&pkg("a.b.c.1.0.0+b.1", "a.b.c", "1.0.0+b.1")).is_empty());
    }

    #[test]
    fn errors_come_in_order_and_print_like_kubernetes() {
        let errors: Vec<String> = validate_package(&pkg("a.b.v1.0.0", "a.b", "v1.0.0"))
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errors,
            [
                "spec.refName: Invalid value: \"a.b\": should be a domain with at least three segments separated by dots",
                "spec.version: Invalid value: \"v1.0.0\": must be valid semver: Invalid character(s) found in major number \"v1\"",
            ]
        );
        let errors = validate_package(&pkg(".1.0.0", "", "1.0.0"));
        assert_eq!(
            errors[0].to_string(),
            "spec.refName: Required value: can not be empty"
        );
        assert_eq!(errors[1].to_string(), "spec.refName: Required value");
    }
}
