//! Constructs seen in more real public deploy directories (platform installers whose
//! schemas validate the values a user gives), each reduced to a small case of its own:
//! what ytt 0.48 prints for them.

use crate::support::ytt;

const SCHEMA: &str = "\
#@data/values-schema
---
#@schema/validation one_of=[\"a\", \"b\"]
mode: a
";

fn failed_validation(from: &str) -> String {
    format!(
        "Validating final data values:
  mode
    from: {from}
    - must be: one of [\"a\", \"b\"] (by: schema.yml:3)
      found: not one of allowed values"
    )
}

#[test]
fn a_failed_validation_names_the_values_file_that_set_the_value() {
    let values = "#@data/values\n---\nmode: c\n";
    let err = ytt::render(
        &[("schema.yml", SCHEMA), ("values.yml", values)],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(err.contains(&failed_validation("values.yml:3")), "{err}");
}

#[test]
fn a_failed_validation_names_the_data_values_file_flag_that_set_the_value() {
    let err = ytt::render(
        &[("schema.yml", SCHEMA), ("dv.yml", "mode: c\n")],
        &["-f", "schema.yml", "--data-values-file", "dv.yml"],
    )
    .unwrap_err();
    assert!(err.contains(&failed_validation("dv.yml:1")), "{err}");
}

#[test]
fn a_failed_validation_names_the_data_value_flag_that_set_the_value() {
    let files = [("schema.yml", SCHEMA)];
    let err = ytt::render(&files, &["-f", ".", "-v", "mode=c"]).unwrap_err();
    assert!(
        err.contains(&failed_validation("(data-value arg):1")),
        "{err}"
    );
    let err = ytt::render(&files, &["-f", ".", "--data-value-yaml", "mode=c"]).unwrap_err();
    assert!(
        err.contains(&failed_validation("(data-value-yaml arg):1")),
        "{err}"
    );
}

#[test]
fn a_value_left_at_its_default_is_still_reported_at_the_schema() {
    let schema = "\
#@data/values-schema
---
#@schema/validation min_len=1
name: \"\"
other: 1
";
    let values = "#@data/values\n---\nother: 2\n";
    let err = ytt::render(
        &[("schema.yml", schema), ("values.yml", values)],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        err.contains(
            "  name
    from: schema.yml:4
    - must be: length >= 1 (by: schema.yml:3)
      found: length = 0"
        ),
        "{err}"
    );
}

#[test]
fn a_map_given_by_a_flag_replaces_the_item_and_takes_the_flag_position() {
    let schema = "\
#@data/values-schema
---
#@schema/validation (\"a is zero\", lambda v: v[\"a\"] == 0)
conf:
  a: 0
  b: 0
";
    let files = [("schema.yml", schema)];
    let err = ytt::render(&files, &["-f", ".", "--data-value-yaml", "conf={a: 1}"]).unwrap_err();
    assert!(
        err.contains(
            "  conf\n    from: (data-value-yaml arg):1\n    - must be: a is zero (by: schema.yml:3)"
        ),
        "{err}"
    );
    // A values document merges into the map: the item stays where the schema put it.
    let values = "#@data/values\n---\nconf:\n  a: 2\n";
    let err = ytt::render(
        &[("schema.yml", schema), ("values.yml", values)],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        err.contains("  conf\n    from: schema.yml:4\n    - must be: a is zero (by: schema.yml:3)"),
        "{err}"
    );
}
