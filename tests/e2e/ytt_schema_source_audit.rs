//! A line-by-line pass over ytt 0.48's schema source (`pkg/schema`: `schema.go`,
//! `annotations.go`, `assign.go`, `check.go`, `error.go`) and the data values step that
//! type-checks values against it (`pkg/workspace/data_values_pre_processing.go`): the
//! order problems are found in, which problems hide others, and what each report says.
//! Each test renders a small case of ours with `strake template` and compares the output
//! (stdout, or the error on stderr) exactly.

use crate::support::ytt::{failure_dot, run_dot};

const CONFIG: (&str, &str) = (
    "config.yml",
    "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
);

fn schema(body: &str) -> (&'static str, String) {
    ("schema.yml", format!("#@data/values-schema\n---\n{body}"))
}

fn values(body: &str) -> (&'static str, String) {
    ("values.yml", format!("#@data/values\n---\n{body}"))
}

/// The stderr of a failing run over the config, `schema.yml` and `values.yml`.
fn failure(schema_body: &str, values_body: Option<&str>, extra: &[&str]) -> String {
    let s = schema(schema_body);
    let mut files = vec![CONFIG, (s.0, s.1.as_str())];
    let v = values_body.map(values);
    if let Some(v) = &v {
        files.push((v.0, v.1.as_str()));
    }
    failure_dot(&files, extra)
}

/// The stdout of a run that must succeed.
fn output(schema_body: &str, values_body: Option<&str>, extra: &[&str]) -> String {
    let s = schema(schema_body);
    let mut files = vec![CONFIG, (s.0, s.1.as_str())];
    let v = values_body.map(values);
    if let Some(v) = &v {
        files.push((v.0, v.1.as_str()));
    }
    let (code, stdout, stderr) = run_dot(&files, extra);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

const SCHEMA: &str = "name: \"\"\nport: 1\nopts:\n  x: 1\n";

/// ytt's `typeAndCheck` first assigns types (`AssignTypeTo`), which finds maps and
/// arrays of the wrong kind, and returns those violations alone; only a well-shaped
/// value gets the scalar checks of `CheckNode`. A wrong scalar next to a wrong map is
/// therefore not reported.
#[test]
fn a_map_or_array_of_the_wrong_kind_hides_wrong_scalars() {
    assert_eq!(
        failure(SCHEMA, Some("name: 3\nport:\n  a: 1\nopts:\n- 1\n"), &[]),
        "strake: error: Overlaying data values (in following order: values.yml): \nOne or more data values were invalid\n====================================\n\nvalues.yml:\n    |\n  4 | port:\n    |\n\n    = found: map\n    = expected: integer (by schema.yml:4)\n\nvalues.yml:\n    |\n  6 | opts:\n    |\n\n    = found: array\n    = expected: map (by schema.yml:5)\n"
    );
    // A scalar where a map is wanted is found by the check, not while assigning.
    assert_eq!(
        failure(SCHEMA, Some("name: 3\nopts: 5\n"), &[]),
        "strake: error: Overlaying data values (in following order: values.yml): \nOne or more data values were invalid\n====================================\n\nvalues.yml:\n    |\n  3 | name: 3\n    |\n\n    = found: integer\n    = expected: string (by schema.yml:3)\n\nvalues.yml:\n    |\n  4 | opts: 5\n    |\n\n    = found: integer\n    = expected: map (by schema.yml:5)\n"
    );
}

/// `CheckNode` walks the values depth-first, visiting a map before its items: the map's
/// undeclared keys (`MapType.CheckType`) are reported before the wrong values of the
/// items that precede them in the file.
#[test]
fn undeclared_keys_of_a_map_come_before_the_problems_of_its_items() {
    assert_eq!(
        failure(
            SCHEMA,
            Some("name: 3\n#@overlay/match missing_ok=True\nzz: 1\n"),
            &[]
        ),
        "strake: error: Overlaying data values (in following order: values.yml): \nOne or more data values were invalid\n====================================\n\nGiven data value is not declared in schema\nvalues.yml:\n    |\n  5 | zz: 1\n    |\n\n    = found: zz\n    = expected: one of { name, opts, port } (from schema.yml:2)\n\nvalues.yml:\n    |\n  3 | name: 3\n    |\n\n    = found: integer\n    = expected: string (by schema.yml:3)\n"
    );
}

/// `@schema/default` values are checked the same way (`getValueFromAnn`): the map's
/// undeclared key first, then the wrong value inside, each hunk showing the annotation
/// and its `found` saying `(at <annotation>)`.
#[test]
fn a_default_map_reports_its_undeclared_keys_first() {
    assert_eq!(
        failure(
            "#@schema/default {\"x\": 1, \"z\": \"s\", \"q\": 2}\na:\n  x: 0\n  z: 0\n",
            None,
            &[]
        ),
        "strake: error: Overlaying data values schema (in following order: schema.yml): \nInvalid schema - @schema/default is wrong type\n==============================================\n\nGiven data value is not declared in schema\nschema.yml:\n    |\n  3 | #@schema/default {\"x\": 1, \"z\": \"s\", \"q\": 2}\n  4 | a:\n    |\n\n    = found: q (at schema.yml:3)\n    = expected: one of { x, z } (from schema.yml:4)\n\nschema.yml:\n    |\n  3 | #@schema/default {\"x\": 1, \"z\": \"s\", \"q\": 2}\n  4 | a:\n    |\n\n    = found: string (at schema.yml:3)\n    = expected: integer (by schema.yml:6)\n"
    );
}

/// `checkExamplesValue` checks every `@schema/examples` value against the node's type
/// (scalars with `CheckType`, maps and arrays assigned then checked, each example on its
/// own) and reports all problems under "Invalid schema - @schema/examples has wrong
/// type", each `found` naming the annotation with `(by ...)`.
#[test]
fn examples_of_the_wrong_type_are_refused() {
    assert_eq!(
        failure(
            "#@schema/examples (\"one\", 1), (\"two\", \"x\"), (\"three\", 2.5)\na: 5\n",
            None,
            &[]
        ),
        "strake: error: Overlaying data values schema (in following order: schema.yml): \nInvalid schema - @schema/examples has wrong type\n================================================\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"one\", 1), (\"two\", \"x\"), (\"three\", 2.5)\n  4 | a: 5\n    |\n\n    = found: string (by schema.yml:3)\n    = expected: integer (by schema.yml:4)\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"one\", 1), (\"two\", \"x\"), (\"three\", 2.5)\n  4 | a: 5\n    |\n\n    = found: float (by schema.yml:3)\n    = expected: integer (by schema.yml:4)\n"
    );
    assert_eq!(
        failure(
            "#@schema/examples (\"one\", {\"x\": 1, \"z\": \"s\", \"q\": 2}), (\"two\", [1])\nb:\n  x: 0\n  z: 0\n",
            None,
            &[]
        ),
        "strake: error: Overlaying data values schema (in following order: schema.yml): \nInvalid schema - @schema/examples has wrong type\n================================================\n\nGiven data value is not declared in schema\nschema.yml:\n    |\n  3 | #@schema/examples (\"one\", {\"x\": 1, \"z\": \"s\", \"q\": 2}), (\"two\", [1])\n  4 | b:\n    |\n\n    = found: q (by schema.yml:3)\n    = expected: one of { x, z } (from schema.yml:4)\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"one\", {\"x\": 1, \"z\": \"s\", \"q\": 2}), (\"two\", [1])\n  4 | b:\n    |\n\n    = found: string (by schema.yml:3)\n    = expected: integer (by schema.yml:6)\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"one\", {\"x\": 1, \"z\": \"s\", \"q\": 2}), (\"two\", [1])\n  4 | b:\n    |\n\n    = found: array (by schema.yml:3)\n    = expected: map (by schema.yml:4)\n"
    );
    // An int example fits a float; null fits a nullable node; anything fits `any`.
    assert_eq!(
        output(
            "#@schema/examples (\"i\", 1)\nf: 1.5\n#@schema/nullable\n#@schema/examples (\"n\", None), (\"s\", \"t\")\nc: \"\"\n#@schema/type any=True\n#@schema/examples (\"n\", None), (\"s\", 3)\nd: \"\"\n",
            None,
            &[]
        ),
        "v:\n  f: 1.5\n  c: null\n  d: \"\"\n"
    );
}

const LIB_SCHEMA: (&str, &str) = (
    "_ytt_lib/lib/schema.yml",
    "#@data/values-schema\n---\nport: 1\nname: \"\"\n",
);
const LIB_TEMPLATE: (&str, &str) = (
    "_ytt_lib/lib/t.yml",
    "#@ load(\"@ytt:data\", \"data\")\n---\nlib: #@ data.values\n",
);

fn eval_lib(call: &str) -> String {
    format!(
        "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace({call}.eval())\n"
    )
}

/// Values a library is given from its parent's files (`#@library/ref`) are quoted from
/// those files in the library's type errors: ytt's positions carry their source line.
#[test]
fn a_library_quotes_the_parent_file_that_gave_a_wrong_value() {
    let main = eval_lib("library.get(\"lib\")");
    let files = [
        LIB_SCHEMA,
        LIB_TEMPLATE,
        ("main.yml", main.as_str()),
        (
            "values.yml",
            "#@library/ref \"@lib\"\n#@data/values\n---\nport: \"zz\"\n",
        ),
    ];
    assert_eq!(
        failure_dot(&files, &[]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values (in following order: additional data values): \n    in <toplevel>\n      main.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n\n    reason:\n     One or more data values were invalid\n     ====================================\n     \n     values.yml:\n         |\n       4 | port: \"zz\"\n         |\n     \n         = found: string\n         = expected: integer (by _ytt_lib/lib/schema.yml:3)\n"
    );
}

/// `with_data_values(...)` values are made in memory (`NewASTFromInterfaceWithNoPosition`):
/// each item's position holds the line `key: value` (the value as Go's `%#v` prints it),
/// which ytt's schema report shows under "Data value calculated" in `#` gutters.
#[test]
fn values_given_in_memory_are_shown_as_calculated() {
    let main = eval_lib("library.get(\"lib\").with_data_values({\"port\": \"x\", \"name\": 3})");
    let files = [LIB_SCHEMA, LIB_TEMPLATE, ("main.yml", main.as_str())];
    assert_eq!(
        failure_dot(&files, &[]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values (in following order: additional data values): \n    in <toplevel>\n      main.yml:3 | --- #@ template.replace(library.get(\"lib\").with_data_values({\"port\": \"x\", \"name\": 3}).eval())\n\n    reason:\n     One or more data values were invalid\n     ====================================\n     \n     Data value calculated:\n         #\n         # port: \"x\"\n         #\n     \n         = found: string\n         = expected: integer (by _ytt_lib/lib/schema.yml:3)\n     \n     Data value calculated:\n         #\n         # name: 3\n         #\n     \n         = found: integer\n         = expected: string (by _ytt_lib/lib/schema.yml:4)\n"
    );
    let main = eval_lib("library.get(\"lib\").with_data_values({\"port\": 2.5, \"name\": None})");
    let files = [LIB_SCHEMA, LIB_TEMPLATE, ("main.yml", main.as_str())];
    let err = failure_dot(&files, &[]);
    assert!(
        err.contains("     Data value calculated:\n         #\n         # port: 2.5\n         #\n     \n         = found: float\n"),
        "{err}"
    );
    assert!(
        err.contains("         # name: <nil>\n         #\n     \n         = found: null\n         = expected: string (by _ytt_lib/lib/schema.yml:4)\n"),
        "{err}"
    );
}

/// The overlay of data values gives each replaced item the position of the value that
/// replaced it (`SetPosition` in ytt's `mergeMapItem`); a value made in memory has an
/// unknown position with no file, which a failed validation's `from:` prints as `?`.
#[test]
fn a_value_given_in_memory_fails_validation_from_an_unknown_place() {
    let schema = (
        "_ytt_lib/lib/schema.yml",
        "#@data/values-schema\n---\n#@schema/validation min=10\nport: 1\n",
    );
    let main = eval_lib("library.get(\"lib\").with_data_values({\"port\": 3})");
    assert_eq!(
        failure_dot(&[schema, LIB_TEMPLATE, ("main.yml", main.as_str())], &[]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Validating final data values:\n    in <toplevel>\n      main.yml:3 | --- #@ template.replace(library.get(\"lib\").with_data_values({\"port\": 3}).eval())\n\n    reason:\n       port\n         from: ?\n         - must be: a value >= 10 (by: _ytt_lib/lib/schema.yml:3)\n           found: value < 10\n"
    );
    // The default keeps the schema's position.
    let main = eval_lib("library.get(\"lib\")");
    assert!(
        failure_dot(&[schema, LIB_TEMPLATE, ("main.yml", main.as_str())], &[])
            .contains("       port\n         from: _ytt_lib/lib/schema.yml:4\n")
    );
}

const ARRAY_SCHEMA: &str = "#@schema/validation min_len=3\narr:\n#@schema/validation (\"short\", lambda v: len(v) < 3)\n- \"\"\n";

/// ytt's flag overlay (`buildOverlay`) places only the map items of the key path at the
/// flag; what a `--data-value-yaml` value holds keeps the position its parse gave it:
/// a line of the value in a file with no name. A type error inside it is shown under an
/// empty file name, quoting the value's text.
#[test]
fn a_wrong_item_inside_a_yaml_flag_value_is_shown_at_the_values_own_line() {
    assert_eq!(
        failure(
            ARRAY_SCHEMA,
            None,
            &["--data-value-yaml", "arr=[\"abcd\", 1]"]
        ),
        "strake: error: Overlaying data values (in following order: additional data values): \nOne or more data values were invalid\n====================================\n\n:\n    |\n  1 | [\"abcd\", 1]\n    |\n\n    = found: integer\n    = expected: string (by schema.yml:6)\n"
    );
    // The key itself is at the flag.
    assert_eq!(
        failure(ARRAY_SCHEMA, None, &["--data-value-yaml", "arr=3"]),
        "strake: error: Overlaying data values (in following order: additional data values): \nOne or more data values were invalid\n====================================\n\n(data-value-yaml arg):\n    |\n  1 | arr=3\n    |\n\n    = found: integer\n    = expected: array (by schema.yml:4)\n"
    );
}

/// A failed validation's `from:` is the value's position as `AsCompactString` prints
/// it: for an item of a `--data-value-yaml` value, a bare line number.
#[test]
fn an_item_of_a_yaml_flag_value_fails_validation_from_a_bare_line() {
    assert_eq!(
        failure(
            ARRAY_SCHEMA,
            None,
            &["--data-value-yaml", "arr=[\"abcd\", \"a\"]"]
        ),
        "strake: error: Validating final data values:\n  arr\n    from: (data-value-yaml arg):1\n    - must be: length >= 3 (by: schema.yml:3)\n      found: length = 2\n\n  arr[0]\n    from: 1\n    - must be: short (by: schema.yml:5)\n"
    );
}

/// `NewUnexpectedKeyAssertionError` lists the allowed keys as `%s` prints them (sorted
/// as strings), so keys that are not strings show Go's `%!s(...)` forms, while the key
/// found is printed with `%v`.
#[test]
fn allowed_keys_that_are_not_strings_are_listed_as_go_prints_them() {
    assert_eq!(
        failure(
            "a:\n  1: x\n  true: z\n  name: z\n",
            Some("a:\n  #@overlay/match missing_ok=True\n  2: q\n"),
            &[]
        ),
        "strake: error: Overlaying data values (in following order: values.yml): \nOne or more data values were invalid\n====================================\n\nGiven data value is not declared in schema\nvalues.yml:\n    |\n  5 |   2: q\n    |\n\n    = found: 2\n    = expected: one of { %!s(bool=true), %!s(int=1), name } (from schema.yml:3)\n"
    );
}

/// ytt keeps a type's title and description as strings that are empty when not given,
/// and its OpenAPI export (`collectDocumentation`) leaves out the empty ones: an empty
/// `@schema/desc` or `@schema/title` adds no key. The first example's description is
/// written whatever it is, empty included.
#[test]
fn empty_documentation_strings_are_left_out_of_the_openapi_export() {
    assert_eq!(
        output(
            "#@schema/examples (\"\", 5)\n#@schema/desc \"\"\n#@schema/title \"\"\na: 1\n",
            None,
            &["--data-values-schema-inspect", "-o", "openapi-v3"]
        ),
        "openapi: 3.0.0\ninfo:\n  version: 0.1.0\n  title: Schema for data values, generated by ytt\npaths: {}\ncomponents:\n  schemas:\n    dataValues:\n      type: object\n      additionalProperties: false\n      properties:\n        a:\n          type: integer\n          x-example-description: \"\"\n          example: 5\n          default: 1\n"
    );
}

/// A failed validation names the value by its path, which ytt's `pathToNode` writes
/// with `%s`: a key that is not a string shows Go's `%!s(...)` form.
#[test]
fn a_validation_path_prints_keys_that_are_not_strings_as_go_does() {
    assert_eq!(
        failure(
            "ports:\n  #@schema/validation min=100\n  80: 1\n",
            None,
            &[]
        ),
        "strake: error: Validating final data values:\n  ports.%!s(int=80)\n    from: schema.yml:5\n    - must be: a value >= 100 (by: schema.yml:4)\n      found: value < 100\n"
    );
}

/// `@schema/nullable` wraps the type inferred from the value (`NullType`), so a null
/// value still has no type and is refused (`valueTypeAllowsItemValue`); only with
/// `@schema/type any=True` (which 0.48 allows next to `@schema/nullable`, the type then
/// defaulting to null) is a null value a valid schema.
#[test]
fn nullable_needs_a_value_to_infer_its_type_from_unless_any() {
    assert_eq!(
        failure("#@schema/nullable\nfoo:\n", None, &[]),
        "strake: error: Overlaying data values schema (in following order: schema.yml): \nInvalid schema - null value not allowed here\n============================================\n\nschema.yml:\n    |\n  4 | foo:\n    |\n\n    = found: null value\n    = expected: non-null value\n    = hint: in YAML, omitting a value implies null.\n    = hint: to set the default value to null, annotate with @schema/nullable.\n    = hint: to allow any value, annotate with @schema/type any=True.\n"
    );
    assert_eq!(
        output(
            "#@schema/type any=True\n#@schema/nullable\nfoo:\n#@schema/nullable\n#@schema/type any=True\nbar: [1]\n",
            None,
            &[]
        ),
        "v:\n  foo: null\n  bar: null\n"
    );
}
