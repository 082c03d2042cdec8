//! kapp-controller's Package / PackageMetadata validation, case by case: every object of
//! `fixtures/kapp-controller/package-validation.yml` (results from kapp-controller's own
//! code) must get the same verdict and the same field errors, in order, from
//! `Resources::validate` (JSON Schema plus kapp-controller's rules).

use std::path::Path;

use strake::package::Resources;
use strake::package::resources::ResourceError;
use strake::package::yaml_doc::{parse_documents, to_json};

#[test]
fn every_case_gets_kapp_controllers_verdict_and_errors() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/kapp-controller/package-validation.yml");
    let text = std::fs::read_to_string(&path).unwrap();
    let cases = to_json(&parse_documents(&text, "package-validation.yml").unwrap()[0]);
    let cases = cases.as_array().unwrap();
    let resources = Resources::embedded();
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let object = &case["object"];
        let kind = object["kind"].as_str().unwrap();
        let expected: Vec<&str> = case["expected"]["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        let got: Vec<String> = match resources.validate(kind, object, id) {
            Ok(()) => Vec::new(),
            Err(ResourceError::Invalid { errors, origin, .. }) => {
                assert_eq!(origin, id);
                errors.iter().map(ToString::to_string).collect()
            }
            Err(e) => panic!("{id}: {e}"),
        };
        let valid = case["expected"]["valid"].as_bool().unwrap();
        if got.is_empty() != valid || got != expected {
            failures.push(format!(
                "{id}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    eprintln!(
        "package validation: {} of {} cases agree with kapp-controller",
        cases.len() - failures.len(),
        cases.len()
    );
    assert_eq!(cases.len(), 55);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
