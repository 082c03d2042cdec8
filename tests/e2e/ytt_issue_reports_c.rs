//! Behaviour quoted in ytt's GitHub issues (third round): inputs from the reports, reduced,
//! with what ytt 0.48 prints for them (its source decides where a report predates a change).

use crate::support::ytt::{failure_of, render};

/// carvel-dev/ytt#225: a document start inside a block that does not run (`#@ if False:`
/// or a `def` closed by `#@ end` before the map under it) leaves the following map item
/// without its parents. ytt's `EvaluationCtx.startNode` unwinds its node stack to the
/// common parent (the document set) and `DocumentSet.AddValue` refuses the map item; the
/// error names the instruction of the first compiled template (`__ytt_tpl2_...`).
#[test]
fn a_map_item_whose_document_start_was_skipped_is_refused_by_the_document_set() {
    for head in ["#@ if False:\n", "#@ def func():\n"] {
        let tpl = format!("{head}---\n#@ end\na: 1\n");
        let err = failure_of(&[("foo.yml", &tpl)], &["-f", "foo.yml"]);
        assert_eq!(
            err,
            "strake: error: \n\
- __ytt_tpl2_start_node: document sets can only contain documents; this is a map item\n    \
in <toplevel>\n      \
foo.yml:4 | a: 1\n"
        );
    }
}

/// carvel-dev/ytt#225 (continued): when the common parent is a map, ytt's
/// `EvaluationCtx.startNode` adds the map item there: an item whose map was skipped
/// lands one level up, beside its would-be parent's siblings.
#[test]
fn a_map_item_whose_map_was_skipped_lands_in_the_enclosing_map() {
    let tpl = "a:\n  #@ if False:\n  b:\n    #@ end\n    c: 1\n  d: 2\n";
    assert_eq!(
        render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "a:\n  c: 1\n  d: 2\n"
    );
}

/// carvel-dev/ytt#297: an overlay that appends an array item holding a document set
/// (a function whose body starts with `---`) fails where the item is set: ytt's
/// `ArrayItem.AddValue` lists maps before arrays (`MapItem.AddValue` the other way round).
#[test]
fn an_array_item_holding_a_document_set_is_refused_in_ytts_words() {
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")

#@ def make_docset():
---
something: 1
#@ end

#@overlay/match by=overlay.all
---
map1:
  map2:
    map3:
    #@overlay/append
    - #@ make_docset()
";
    let files = [
        ("base.yml", "---\nmap1:\n  map2:\n    map3:\n    - \"\"\n"),
        ("overlay.yml", overlay),
    ];
    let err = failure_of(&files, &["-f", "base.yml", "-f", "overlay.yml"]);
    assert_eq!(
        err,
        "strake: error: \n\
- array items can only contain maps, arrays, or scalars; this is a document set\n    \
in <toplevel>\n      \
overlay.yml:14 |     - #@ make_docset()\n"
    );
}

/// carvel-dev/ytt#581: each data values document is checked against the schema as it is
/// overlaid (`DataValuesPreProcessing`), so a `null` in an early file fails even though a
/// later file sets the key; the report names the file that holds the `null`.
#[test]
fn a_null_data_value_fails_the_schema_before_a_later_file_sets_it() {
    let files = [
        (
            "config/values.yaml",
            "#@data/values\n#@overlay/match-child-defaults missing_ok=True\n\n---\nkey: null\n",
        ),
        (
            "config/schema.yaml",
            "#! schema.yaml\n\n#@data/values-schema\n#@schema/desc \"OpenAPIv3 Schema\"\n---\n#@schema/desc \"test key\"\nkey: \"\"\n",
        ),
        (
            "values_overlay.yaml",
            "#@data/values\n#@overlay/match-child-defaults missing_ok=True\n\n---\nkey: \"test\"\n",
        ),
    ];
    let err = failure_of(&files, &["-f", "config", "-f", "values_overlay.yaml"]);
    assert_eq!(
        err,
        "strake: error: Overlaying data values (in following order: values.yaml, values_overlay.yaml): \n\
One or more data values were invalid\n\
====================================\n\
\n\
values.yaml:\n    \
|\n  \
5 | key: null\n    \
|\n\
\n    \
= found: null\n    \
= expected: string (by schema.yaml:7)\n"
    );
}

/// carvel-dev/ytt#679 (a 0.41.0 regression, fixed in 0.41.1): `--data-value-file`
/// sets the key to the file's text, with no `-f` at all; the text keeps its final line
/// break, so the emitter picks a plain `|` block.
#[test]
fn data_value_file_sets_the_files_text_without_any_template() {
    let out = render(
        &[("values.yml", "bar: 1\nree: 2\n")],
        &[
            "--data-value-file",
            "foo=values.yml",
            "--data-values-inspect",
        ],
    )
    .unwrap();
    assert_eq!(out, "foo: |\n  bar: 1\n  ree: 2\n");
}

/// carvel-dev/ytt#424 (fixed in 0.34.1): an array nested under an array item's map gets
/// the empty default every schema array has (`NewArrayType`), not the item written in the
/// schema, when a data value item leaves it out.
#[test]
fn a_nested_array_left_out_of_a_data_value_item_defaults_to_empty() {
    let files = [
        (
            "schema.yml",
            "#@data/values-schema\n---\nresources:\n  - name: \"\"\n    source:\n      id:\n        - not a default\n",
        ),
        (
            "values.yml",
            "#@data/values\n---\nresources:\n  - name: x\n",
        ),
    ];
    let out = render(
        &files,
        &[
            "-f",
            "values.yml",
            "-f",
            "schema.yml",
            "--data-values-inspect",
        ],
    )
    .unwrap();
    assert_eq!(out, "resources:\n- name: x\n  source:\n    id: []\n");
}

/// carvel-dev/ytt#523: a fragment annotated `@schema/type any=True` is the default value
/// as written (`getValue` returns the node for an `AnyType`); an array in it may hold
/// any number of items, where schema arrays need exactly one.
#[test]
fn an_any_type_fragment_keeps_arrays_of_several_items_as_its_default() {
    let schema = "#@data/values-schema\n---\nspec:\n  #@schema/type any=True\n  additionalConfig:\n    args:\n    - \"cmd\"\n    - \"arg1\"\n";
    let out = render(
        &[("schema.yml", schema)],
        &["-f", "schema.yml", "--data-values-inspect"],
    )
    .unwrap();
    assert_eq!(
        out,
        "spec:\n  additionalConfig:\n    args:\n    - cmd\n    - arg1\n"
    );
}
