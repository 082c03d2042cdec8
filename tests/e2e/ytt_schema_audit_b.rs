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

const PREFIX: &str =
    "strake: error: Overlaying data values schema (in following order: schema.yml): \n";

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

/// The stderr of a schema whose `@schema/validation` on `f: ""` is `ann`.
fn validation_failure(ann: &str) -> String {
    failure(&format!("#@schema/validation {ann}\nf: \"\"\n"), &[], &[])
}

/// `NewValidationFromAnn` (`pkg/validations/annotations.go`) reads the positional rules
/// first, each a 2-tuple of a string and a callable (or a value with a callable
/// `check`), then the keyword arguments; each problem is one line after ytt's
/// `Invalid @schema/validation annotation - `, naming the annotation with `(by ...)` or
/// `(at ...)` as each message does, and `one_of`'s and `one_not_null`'s messages name no
/// place at all.
#[test]
fn validation_annotation_argument_errors_are_worded_as_ytt_words_them() {
    let head = "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - ";
    let cases = [
        (
            "(\"x\", lambda v: True, 1)",
            "expected 2-tuple, but found tuple with length 3 (by schema.yml:3)",
        ),
        (
            "()",
            "expected 2-tuple, but found tuple with length 0 (by schema.yml:3)",
        ),
        (
            "(1, lambda v: True)",
            "expected first item in the 2-tuple to be a string describing a valid value, but was int (at schema.yml:3)",
        ),
        (
            "[\"x\", lambda v: True]",
            "expected annotation to have 2-tuple as argument(s), but found: [\"x\", <function lambda>] (by schema.yml:3)",
        ),
        (
            "(\"x\", lambda v: True), [\"z\"]",
            "expected annotation to have 2-tuple as argument(s), but found: [\"z\"] (by schema.yml:3)",
        ),
        (
            "one_of=\"abc\"",
            "expected keyword argument one_of to be a sequence, but was string",
        ),
        (
            "one_not_null=3",
            "expected True or a sequence of keys, but was a 'int'",
        ),
        ("one_not_null=False", "one_not_null= cannot be False"),
        (
            "min_len=1, max_len=True",
            "expected keyword argument \"max_len\" to be a number, but was bool (at schema.yml:3)",
        ),
        (
            "min=1, foo=1",
            "unknown keyword argument \"foo\" (at schema.yml:3)",
        ),
    ];
    for (ann, msg) in cases {
        assert_eq!(validation_failure(ann), format!("{head}{msg}\n"), "{ann}");
    }
}

/// `assertionFromCheckAttr` accepts a value whose `check` attribute is callable: a struct
/// without `check` is "an assertion function or assertion object, but was a struct", and
/// one whose `check` is not callable names the attribute's type.
#[test]
fn a_validation_rule_object_needs_a_callable_check() {
    const LIB: (&str, &str) = (
        "lib.star",
        "load(\"@ytt:struct\", \"struct\")\nno_check = struct.make(a=1)\nbad_check = struct.make(check=1)\n",
    );
    let run = |rule: &str| {
        let schema = format!(
            "#@ load(\"lib.star\", \"no_check\", \"bad_check\")\n#@data/values-schema\n---\n#@schema/validation (\"x\", {rule})\nf: \"\"\n"
        );
        failure_dot(&[CONFIG, LIB, ("schema.yml", &schema)], &[])
    };
    let head = "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - ";
    assert_eq!(
        run("no_check"),
        format!(
            "{head}expected second item in tuple to be an assertion function or assertion object, but was a struct (at schema.yml:4)\n"
        )
    );
    assert_eq!(
        run("bad_check"),
        format!("{head}expected struct with attribute check(), but was int (at schema.yml:4)\n")
    );
}

/// `NewTypeAnnotation` reports a non-boolean `any=` with Go's `%T` of the Starlark value:
/// the starlark-go type names, pointers for the mutable ones (`*starlark.List`,
/// `*starlark.Dict`, `*starlark.Function`), and ytt's own types for its structs and
/// YAML fragments.
#[test]
fn a_non_boolean_any_is_named_by_its_go_type() {
    let cases = [
        ("1", "starlark.Int"),
        ("1.5", "starlark.Float"),
        ("\"yes\"", "starlark.String"),
        ("None", "starlark.NoneType"),
        ("[1]", "*starlark.List"),
        ("{}", "*starlark.Dict"),
        ("(1,)", "starlark.Tuple"),
        ("lambda x: x", "*starlark.Function"),
        ("len", "*starlark.Builtin"),
        ("range(2)", "starlark.rangeValue"),
        ("struct.make()", "*core.StarlarkStruct"),
        ("frag()", "*yamltemplate.StarlarkFragment"),
    ];
    for (value, go_type) in cases {
        let schema = format!(
            "#@ load(\"@ytt:struct\", \"struct\")\n#@ def frag():\na: 1\n#@ end\n#@data/values-schema\n---\n#@schema/type any={value}\nfoo: 1\n"
        );
        assert_eq!(
            failure_dot(&[CONFIG, ("schema.yml", &schema)], &[]),
            format!(
                "{PREFIX}Invalid schema\n==============\n\nunknown @schema/type annotation keyword argument\nschema.yml:\n    |\n  7 | #@schema/type any={value}\n  8 | foo: 1\n    |\n\n    = found: {go_type} (by schema.yml:7)\n    = expected: starlark.Bool\n    = hint: Supported kwargs are 'any'\n"
            ),
            "{value}"
        );
    }
}

/// `ScalarType.CheckType` lets an integer stand where a float is declared (it stays an
/// integer) but never a float where an integer is: a `@schema/default` integer on a
/// float is kept, a float example of an integer is refused under "@schema/examples has
/// wrong type" (the example's `found` naming the annotation with `by`), and floats print
/// as Go's `strconv` shortest form (`1e+21`, `2` for `2.0`) in values and in the export.
#[test]
fn ints_stand_for_floats_but_floats_never_for_ints() {
    let body = "#@schema/default 3\nf: 1.5\ng: 1e21\n#@schema/default 2.0\nh: 0.5\n";
    assert_eq!(output(body, &[], &[]), "v:\n  f: 3\n  g: 1e+21\n  h: 2\n");
    let export = output(
        body,
        &[],
        &["--data-values-schema-inspect", "-o", "openapi-v3"],
    );
    assert!(
        export.ends_with("      properties:\n        f:\n          type: number\n          format: float\n          default: 3\n        g:\n          type: number\n          format: float\n          default: 1e+21\n        h:\n          type: number\n          format: float\n          default: 2\n"),
        "{export}"
    );
    assert_eq!(
        failure(
            "#@schema/examples (\"e\", None), (\"f\", 1.5), (\"g\", 2)\nf: 1\n",
            &[],
            &[]
        ),
        format!(
            "{PREFIX}Invalid schema - @schema/examples has wrong type\n================================================\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"e\", None), (\"f\", 1.5), (\"g\", 2)\n  4 | f: 1\n    |\n\n    = found: null (by schema.yml:3)\n    = expected: integer (by schema.yml:4)\n\nschema.yml:\n    |\n  3 | #@schema/examples (\"e\", None), (\"f\", 1.5), (\"g\", 2)\n  4 | f: 1\n    |\n\n    = found: float (by schema.yml:3)\n    = expected: integer (by schema.yml:4)\n"
        )
    );
    assert_eq!(
        failure("f: 1\n", &[], &["--data-value-yaml", "f=1e3"]),
        "strake: error: Overlaying data values (in following order: additional data values): \nOne or more data values were invalid\n====================================\n\n(data-value-yaml arg):\n    |\n  1 | f=1e3\n    |\n\n    = found: float\n    = expected: integer (by schema.yml:3)\n"
    );
}

/// With `@schema/type any=True`, ytt 0.48's `getTypeFromAnnotations` takes the any type
/// and lets a following `@schema/nullable` only set its default to null, so the value
/// is never used to infer a type: an empty array (which alone is "wrong number of items
/// in array definition") is a valid schema, null by default.
#[test]
fn any_and_nullable_together_never_infer_from_the_value() {
    assert_eq!(
        output(
            "#@schema/type any=True\n#@schema/nullable\narr: []\n",
            &[],
            &[]
        ),
        "v:\n  arr: null\n"
    );
    assert!(
        failure("#@schema/nullable\narr: []\n", &[], &[])
            .contains("Invalid schema - wrong number of items in array definition\n")
    );
}

/// ytt type-checks the data values after each values document is overlaid
/// (`typeAndCheck` of the merged document in `DataValuesPreProcessing.apply`), so a
/// scalar an `#@overlay/replace via=` function returns is held to the schema: a wrong
/// one is reported at the item that carried the function (`replaceMapItem` copies the
/// overlay's item), while a right one passes whatever the overlay's own placeholder was.
#[test]
fn a_scalar_computed_by_a_replace_function_is_type_checked() {
    let values = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values\n---\n#@overlay/replace via=lambda l, r: len(l)\na: 0\n#@overlay/replace via=lambda l, r: str(r)\nb: 0\nm:\n  #@overlay/replace via=lambda l, r: \"x\" if l else 1\n  k: true\n";
    assert_eq!(
        failure(
            "a: \"abc\"\nb: \"\"\nm:\n  k: true\n",
            &[("values.yml", values)],
            &[]
        ),
        "strake: error: Overlaying data values (in following order: values.yml): \nOne or more data values were invalid\n====================================\n\nvalues.yml:\n     |\n   5 | a: 0\n     |\n\n     = found: integer\n     = expected: string (by schema.yml:3)\n\nvalues.yml:\n     |\n  10 |   k: true\n     |\n\n     = found: string\n     = expected: boolean (by schema.yml:6)\n"
    );
    assert_eq!(
        output(
            "a: 1\nb: \"\"\nm:\n  k: true\n",
            &[(
                "values.yml",
                values
                    .replace("len(l)", "l + 1")
                    .replace("\"x\" if l else 1", "not l")
                    .as_str()
            )],
            &[]
        ),
        "v:\n  a: 2\n  b: \"0\"\n  m:\n    k: false\n"
    );
}
