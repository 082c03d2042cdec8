//! Constructs met while rendering another round of public ytt directories (the kpack
//! and Contour/Knative package overlays, external-dns schema files with example
//! functions, Cloud Foundry API and networking templates, logging configs), each
//! reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// A schema file may hold functions before its schema document (their bodies leave an
/// empty first document), but a non-empty other document is refused: ytt's
/// `collectSchemaDocs` puts `Templating file '<name>'` before `extractSchemaDocs`'s
/// message and `Apply` the schema stage before both, as the values stage does for a
/// values file. The schema file's message has no position, as ytt's; the values
/// file's keeps the offending document under it (the corpus runner asks every
/// data-values error for a file and line).
#[test]
fn a_schema_or_values_file_with_another_document_is_refused_after_templating_it() {
    let funcs = "#@ def args():\n  - --source=service\n#@ end\n";
    let schema = format!("{funcs}#@data/values-schema\n---\na: 1\n");
    let tpl = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a\n";
    let files = [("s.yml", schema.as_str()), ("t.yml", tpl)];
    assert_eq!(ytt::render(&files, &["-f", "."]).unwrap(), "a: 1\n");

    let schema = "#@data/values-schema\n---\na: 1\n---\nb: 2\n";
    assert_eq!(
        ytt::failure_of(&[("s.yml", schema)], &["-f", "."]),
        "strake: error: Overlaying data values schema (in following order: s.yml):\n  Templating file 's.yml':\n    Expected schema file 's.yml' to only have schema documents\n"
    );
    let values = "#@data/values\n---\na: 1\n---\nb: 2\n";
    assert_eq!(
        ytt::failure_of(&[("v.yml", values)], &["-f", "."]),
        "strake: error: Overlaying data values (in following order: v.yml):\n  Templating file 'v.yml':\n    Expected data values file 'v.yml' to only have data values documents\n    in v.yml:4\n      v.yml:4 | ---\n"
    );
}

/// A values file may look at the other input files: `data.list("")` from a top-level
/// values document lists every file of the root library (itself, data files, templates)
/// by relative path in sorted order, and `data.read` gives a data file's text, so a
/// package can pick a PEM certificate dropped beside its templates. The values file is
/// templated before any values exist, but its own code runs in full.
#[test]
fn a_values_file_may_list_and_read_the_input_files() {
    let values = "#@data/values\n#@ load(\"@ytt:data\", \"data\")\n#@ def find_cert():\n#@   found = \"\"\n#@   for f in data.list(\"\"):\n#@     body = data.read(f)\n#@     if body.startswith(\"-----BEGIN CERTIFICATE-----\"):\n#@       found = body\n#@     end\n#@   end\n#@   return found\n#@ end\n---\nfiles: #@ data.list(\"\")\nca: #@ find_cert()\n";
    let files = [
        ("ca-cert.yml", values),
        (
            "ca.crt",
            "-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n",
        ),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nca: #@ data.values.ca\nfiles: #@ data.values.files\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "ca: |\n  -----BEGIN CERTIFICATE-----\n  abc\n  -----END CERTIFICATE-----\nfiles:\n- ca-cert.yml\n- ca.crt\n- t.yml\n"
    );
}

/// An annotation written after an array item's dash (`- #@overlay/remove` with the map
/// below it) belongs to the array item, not to the map item on the next line: ytt's
/// parser gives a comment to the last node starting on its line, and the item starts
/// there. Together with the item's `@overlay/match`, the whole matched item goes.
#[test]
fn an_annotation_after_the_dash_removes_the_whole_item() {
    let base =
        "kind: Hooks\nwebhooks:\n- name: a\n  rules:\n  - r\n  sideEffects: None\n- name: b\n";
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Hooks\"})\n---\nwebhooks:\n#@overlay/match by=overlay.subset({\"name\": \"a\"})\n- #@overlay/remove\n  rules:\n";
    assert_eq!(
        ytt::render(&[("base.yml", base), ("ov.yml", overlay)], &["-f", "."]).unwrap(),
        "kind: Hooks\nwebhooks:\n- name: b\n"
    );
}

/// `#@data/values` written above a map item instead of a `---` (the mistake of a values
/// file without a document start) is refused while ytt sorts the files: `DocExtractor`
/// (v0.38 on) names the annotation, the node's kind and its `file:line` in the message
/// itself, so no place is shown under it; an annotation given twice on one document is
/// refused as used "once per document". Both come before any templating, so no stage
/// names them.
#[test]
fn a_values_annotation_off_a_document_is_refused_in_one_line() {
    assert_eq!(
        ytt::failure_of(&[("values.yml", "#@data/values\nname: x\n")], &["-f", "."]),
        "strake: error: Found @data/values on map item (values.yml:2); only documents (---) can be annotated with @data/values\n"
    );
    let schema = "#@data/values-schema\n---\na:\n- #@data/values-schema\n  b: 1\n";
    assert_eq!(
        ytt::failure_of(&[("schema.yml", schema)], &["-f", "."]),
        "strake: error: Found @data/values-schema on array item (schema.yml:4); only documents (---) can be annotated with @data/values-schema\n"
    );
    let twice = "#@data/values\n#@data/values\n---\nname: x\n";
    assert_eq!(
        ytt::failure_of(&[("values.yml", twice)], &["-f", "."]),
        "strake: error: data/values annotation may only be used once per document\n    in values.yml:3\n      values.yml:3 | ---\n"
    );
}

/// A `--data-values-file` is plain YAML: ytt's `DataValuesFlags.file` refuses one with
/// `#@` comments naming the flag's path and quoting the marker in backticks, and one that
/// does not parse as a "YAML data values file" named by its own file name (not as a
/// template), both under `Extracting data value from file`.
#[test]
fn a_data_values_file_flag_is_refused_in_ytts_words() {
    let tpl = (
        "t.yml",
        "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
    );
    let annotated = ("sub/dv.yml", "a: 1\n#@ x = 1\nb: 2\n");
    assert_eq!(
        ytt::failure_of(
            &[tpl, annotated],
            &["-f", "t.yml", "--data-values-file", "sub/dv.yml"]
        ),
        "strake: error: Extracting data value from file:\n  Checking data values file 'sub/dv.yml':\n    Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)\n    in dv.yml:2\n      dv.yml:2 | #@ x = 1\n"
    );
    let broken = ("sub/bad.yml", "a: [1\n");
    assert_eq!(
        ytt::failure_of(
            &[tpl, broken],
            &["-f", "t.yml", "--data-values-file", "sub/bad.yml"]
        ),
        "strake: error: Extracting data value from file: Unmarshaling YAML data values file 'bad.yml': yaml: line 1: did not find expected ',' or ']'\n    in bad.yml:1\n      bad.yml:1 | a: [1\n"
    );
    let commented = ("dv.yml", "a: 1 #! a ytt comment is not templating\n");
    assert_eq!(
        ytt::render(
            &[tpl, commented],
            &["-f", "t.yml", "--data-values-file", "dv.yml"]
        )
        .unwrap(),
        "v:\n  a: 1\n"
    );
}

/// ytt checks a values file document by document, and only documents with a value: a
/// `#@` line after the last node is kept by the parser's injected empty trailing document
/// and one in a file of no values sits on an empty document, so neither is refused. A
/// `#@` line before a later `---` belongs to that next document and is refused.
#[test]
fn a_data_values_file_flag_ignores_annotations_on_documents_without_a_value() {
    let tpl = (
        "t.yml",
        "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
    );
    let render = |body: &str| {
        ytt::render(
            &[tpl, ("dv.yml", body)],
            &["-f", "t.yml", "--data-values-file", "dv.yml"],
        )
    };
    assert_eq!(render("a: 1\n#@ x = 1\n").unwrap(), "v:\n  a: 1\n");
    assert_eq!(render("#@ x = 1\n").unwrap(), "v: {}\n");
    let err = render("a: 1\n#@ x = 1\n---\nb: 2\n").unwrap_err();
    assert!(
        err.contains("Expected to be plain YAML, having no annotations"),
        "{err}"
    );
}
