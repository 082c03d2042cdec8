//! A second pass over ytt 0.48's data values schema source (`pkg/schema`:
//! `annotations.go`, `schema.go`, `type.go`, `error.go`, `openapi.go`; `pkg/validations`)
//! for the corners of each annotation: argument errors, annotations written on the
//! line of the value they annotate, type inference of floats and ints, and the reports
//! when values from several sources break the schema. Each test renders a small case
//! with `strake template` and compares stdout, or the error on stderr, exactly.

use crate::support::ytt::{failure_dot, run_dot};

const CONFIG: (&str, &str) = (
    "config.yml",
    "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
);

fn schema(body: &str) -> (&'static str, String) {
    ("schema.yml", format!("#@data/values-schema\n---\n{body}"))
}

/// The stderr of a failing run over the config and `schema.yml` (plus `extra` files).
fn failure(schema_body: &str, extra_files: &[(&str, &str)], args: &[&str]) -> String {
    let s = schema(schema_body);
    let mut files = vec![CONFIG, (s.0, s.1.as_str())];
    files.extend_from_slice(extra_files);
    failure_dot(&files, args)
}

/// The stdout of a run that must succeed.
fn output(schema_body: &str, extra_files: &[(&str, &str)], args: &[&str]) -> String {
    let s = schema(schema_body);
    let mut files = vec![CONFIG, (s.0, s.1.as_str())];
    files.extend_from_slice(extra_files);
    let (code, stdout, stderr) = run_dot(&files, args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

const PREFIX: &str = "strake: error: Overlaying data values schema (in following order: schema.yml): \n";

/// `createPosInfo` in ytt's `error.go` marks a gap (`...`) between two quoted lines only
/// when `Position.IsNextTo` is false, and `IsNextTo` holds for lines at most one apart,
/// the same line included: an annotation written after its value, on the value's own
/// line, is quoted twice with no gap between.
#[test]
fn an_annotation_on_its_values_own_line_is_quoted_twice_without_a_gap() {
    assert_eq!(
        failure("foo: 1 #@schema/desc 3\n", &[], &[]),
        format!(
            "{PREFIX}Invalid schema\n==============\n\nsyntax error in @schema/desc annotation\nschema.yml:\n    |\n  3 | foo: 1 #@schema/desc 3\n  3 | foo: 1 #@schema/desc 3\n    |\n\n    = found: Non-string value in @schema/desc (by schema.yml:3)\n    = expected: string\n"
        )
    );
    assert_eq!(
        failure("foo: 1 #@schema/default \"x\"\n", &[], &[]),
        format!(
            "{PREFIX}Invalid schema - @schema/default is wrong type\n==============================================\n\nschema.yml:\n    |\n  3 | foo: 1 #@schema/default \"x\"\n  3 | foo: 1 #@schema/default \"x\"\n    |\n\n    = found: string (at schema.yml:3)\n    = expected: integer (by schema.yml:3)\n"
        )
    );
}
