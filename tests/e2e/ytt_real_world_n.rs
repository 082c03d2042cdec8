//! Constructs met while rendering another round of public ytt directories (the kpack
//! and Contour/Knative package overlays, external-dns schema files with example
//! functions, Cloud Foundry API and networking templates, logging configs), each
//! reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// The error text of rendering `files` with `-f .`.
fn error_of(files: &[(&str, &str)]) -> String {
    ytt::render(files, &["-f", "."]).unwrap_err()
}

/// A schema file may hold functions before its schema document (their bodies leave an
/// empty first document), but a non-empty other document is refused: ytt's
/// `extractSchemaDocs` returns a plain message with no position, which
/// `collectSchemaDocs` prefixes with `Templating file '<name>'` and `Apply` with the
/// schema stage; a values file is refused the same way.
#[test]
fn a_schema_or_values_file_with_another_document_is_refused_without_a_position() {
    let funcs = "#@ def args():\n  - --source=service\n#@ end\n";
    let schema = format!("{funcs}#@data/values-schema\n---\na: 1\n");
    let files = [
        ("s.yml", schema.as_str()),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n",
        ),
    ];
    assert_eq!(ytt::render(&files, &["-f", "."]).unwrap(), "a: 1\n");

    let schema = "#@data/values-schema\n---\na: 1\n---\nb: 2\n";
    assert_eq!(
        error_of(&[("s.yml", schema)]),
        "Overlaying data values schema (in following order: s.yml): Templating file 's.yml': Expected schema file 's.yml' to only have schema documents"
    );
    let values = "#@data/values\n---\na: 1\n---\nb: 2\n";
    assert_eq!(
        ytt::failure_of(&[("v.yml", values)], &["-f", "."]),
        "strake: error: Overlaying data values (in following order: v.yml):\n  Templating file 'v.yml':\n    Expected data values file 'v.yml' to only have data values documents\n"
    );
}
