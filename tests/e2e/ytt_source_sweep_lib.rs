//! Messages and results of ytt's library modules (`@ytt:overlay`, `@ytt:assert`, ...)
//! checked against what ytt 0.48's source prints: overlay errors name every enclosing
//! node ("Document on line …: Map item (key 'a') on line …: …"), the overlay files in
//! order, and the lines of the left nodes a wrong count matched; assertion messages.

use crate::support::ytt::render as render_args;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    render_args(files, &["-f", "."])
}

const LOAD_OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";

#[test]
fn overlay_count_errors_name_each_enclosing_node_and_the_matched_lines() {
    let base = "a:\n  b:\n    c: 1\nl:\n- name: x\n- name: x\n";
    let nested = format!(
        "{LOAD_OVERLAY}#@overlay/match by=overlay.all\n---\na:\n  b:\n    #@overlay/match expects=2\n    c: 2\n"
    );
    let err = render(&[("base.yml", base), ("ov.yml", &nested)]).unwrap_err();
    assert!(
        err.contains(
            "Overlaying (in following order: ov.yml): Document on line ov.yml:3: \
             Map item (key 'a') on line ov.yml:4: Map item (key 'b') on line ov.yml:5: \
             Map item (key 'c') on line ov.yml:7: \
             Expected number of matched nodes to be 2, but was 1 (lines: base.yml:3)"
        ),
        "{err}"
    );
    let array = format!(
        "{LOAD_OVERLAY}#@overlay/match by=overlay.all\n---\nl:\n#@overlay/match by=\"name\"\n- name: x\n  v: 1\n"
    );
    let err = render(&[("base.yml", base), ("ov.yml", &array)]).unwrap_err();
    assert!(
        err.contains(
            "Map item (key 'l') on line ov.yml:4: Array item on line ov.yml:6: \
             Expected number of matched nodes to be 1, but was 2 (lines: base.yml:5, base.yml:6)"
        ),
        "{err}"
    );
    // Nothing matched: no lines to name.
    let none =
        format!("{LOAD_OVERLAY}#@overlay/match by=overlay.subset({{\"x\": 1}})\n---\na: 2\n");
    let err = render(&[("base.yml", base), ("ov.yml", &none)]).unwrap_err();
    assert!(
        err.contains(
            "Document on line ov.yml:3: Expected number of matched nodes to be 1, but was 0"
        ) && !err.contains("(lines:"),
        "{err}"
    );
}

/// Renders `overlay` (after the `@ytt:overlay` load) over `base` and returns the error.
fn overlay_error(base: &str, overlay: &str) -> String {
    let ov = format!("{LOAD_OVERLAY}{overlay}");
    render(&[("base.yml", base), ("ov.yml", &ov)]).unwrap_err()
}

#[test]
fn overlay_type_errors_name_go_types_as_ytt_does() {
    let base = "m:\n  k: 1\nl: [1]\nn: 1.0\n";
    let all = "#@overlay/match by=overlay.all\n---\n";
    let cases = [
        (
            format!("{all}m: [1]\n"),
            // ytt 0.48 names node types as yamlmeta.TypeName does (conformance
            // data-values/033: "Expected array, but was map").
            "Expected array, but was map",
        ),
        (format!("{all}l: {{a: 1}}\n"), "Expected map, but was array"),
        (
            format!("{all}#@overlay/assert\nm: {{k: \"1\"}}\n"),
            "Expected objects to equal, but did not: Expected leaf values to match int string",
        ),
        (
            "#@overlay/match by=lambda i, l, r: \"yes\"\n---\nx: 1\n".to_string(),
            "Document on line ov.yml:3: expected starlark.Bool, but was starlark.String",
        ),
        (
            "#@overlay/match by=\"m\"\n---\nx: 1\n".to_string(),
            "Expected 'overlay/match' annotation keyword argument 'by' to be function, but was starlark.String",
        ),
        (
            format!("{all}l:\n#@overlay/match by=1\n- 2\n"),
            "Array item on line ov.yml:6: Expected 'overlay/match' annotation keyword argument 'by' to be either string (for map key) or function, but was starlark.Int",
        ),
    ];
    for (overlay, want) in cases {
        let err = overlay_error(base, &overlay);
        assert!(err.contains(want), "{overlay}\nwant: {want}\ngot: {err}");
    }
}

#[test]
fn overlay_annotations_refuse_unknown_or_missing_keywords() {
    let base = "m: 1\nl: [1]\n";
    let all = "#@overlay/match by=overlay.all\n---\n";
    let cases = [
        (
            "#@overlay/match by=overlay.all, foo=1\n---\nx: 1\n".to_string(),
            "Document on line ov.yml:3: Unknown 'overlay/match' annotation keyword argument 'foo'",
        ),
        (
            "#@overlay/match\n---\nx: 1\n".to_string(),
            "Document on line ov.yml:3: Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)",
        ),
        (
            "#@overlay/match expects=1\n---\nx: 1\n".to_string(),
            "Expected 'overlay/match' annotation keyword argument 'by'  to be specified",
        ),
        (
            format!("{all}#@overlay/replace foo=1\nm: 2\n"),
            "Unknown 'overlay/replace' annotation keyword argument 'foo'",
        ),
        (
            format!("{all}#@overlay/match-child-defaults foo=1\nm: 2\n"),
            "Unknown 'overlay/match-child-defaults' annotation keyword argument 'foo'",
        ),
        (
            format!("{all}#@overlay/merge\n#@overlay/replace\nm: 2\n"),
            "Map item (key 'm') on line ov.yml:6: Expected to find only one overlay operation",
        ),
    ];
    for (overlay, want) in cases {
        let err = overlay_error(base, &overlay);
        assert!(err.contains(want), "{overlay}\nwant: {want}\ngot: {err}");
    }
}

#[test]
fn overlay_subset_and_unmatched_array_items_follow_ytt() {
    let base = "v: 1.0\nl:\n- 1\n";
    // subset compares an int and a float as different values.
    let err = overlay_error(
        base,
        "#@overlay/match by=overlay.subset({\"v\": 1})\n---\nx: 1\n",
    );
    assert!(
        err.contains(
            "Document on line ov.yml:3: Expected number of matched nodes to be 1, but was 0"
        ),
        "{err}"
    );
    // An array item without `@overlay/match` matches nothing: remove and insert do nothing.
    let ov = format!(
        "{LOAD_OVERLAY}#@overlay/match by=overlay.all\n---\nl:\n#@overlay/remove\n- 1\n#@overlay/insert before=True\n- 0\n"
    );
    assert_eq!(
        render(&[("base.yml", base), ("ov.yml", &ov)]).unwrap(),
        "v: 1\nl:\n- 1\n"
    );
}

#[test]
fn overlay_module_and_op_keywords_check_their_arguments() {
    let base = "m: 1\nl: [1]\n";
    let all = "#@overlay/match by=overlay.all\n---\n";
    let cases = [
        (
            "#@overlay/match by=overlay.and_op()\n---\nx: 1\n".to_string(),
            "overlay.and_op: expected at least one argument",
        ),
        (
            "#@overlay/match by=overlay.or_op()\n---\nx: 1\n".to_string(),
            "overlay.or_op: expected at least one argument",
        ),
        (
            "#@overlay/match by=overlay.not_op()\n---\nx: 1\n".to_string(),
            "overlay.not_op: expected exactly one argument",
        ),
        (
            "#@overlay/match by=overlay.index(\"a\")\n---\nx: 1\n".to_string(),
            "overlay.index: expected starlark.Int",
        ),
        (
            "#@overlay/match by=overlay.subset()\n---\nx: 1\n".to_string(),
            "overlay.subset: expected exactly one argument",
        ),
        (
            "#@ overlay.apply()\n---\nx: 1\n".to_string(),
            "overlay.apply: expected exactly at least argument",
        ),
        (
            format!("{all}#@overlay/replace via=1\nm: 2\n"),
            "Map item (key 'm') on line ov.yml:5: Expected 'overlay/replace' annotation keyword argument 'via' to be function, but was starlark.Int",
        ),
        (
            format!("{all}#@overlay/assert via=\"f\"\nm: 2\n"),
            "Expected 'overlay/assert' annotation keyword argument 'via' to be function, but was starlark.String",
        ),
        (
            format!(
                "{all}l:\n#@overlay/match by=overlay.index(0)\n#@overlay/insert before=1\n- 2\n"
            ),
            "Array item on line ov.yml:7: expected starlark.Bool, but was starlark.Int",
        ),
        (
            format!("{all}l:\n#@overlay/match by=overlay.index(0)\n#@overlay/insert\n- 2\n"),
            "Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., after=...)",
        ),
    ];
    for (overlay, want) in cases {
        let err = overlay_error(base, &overlay);
        assert!(err.contains(want), "{overlay}\nwant: {want}\ngot: {err}");
    }
}

#[test]
fn assert_functions_check_arguments_and_fail_with_ytts_messages() {
    let template = r#"#@ load("@ytt:assert", "assert")
#@ def err(f): return assert.try_to(f)[1]
one_of: #@ err(lambda: assert.one_of([1, 2]).check(3))
one_of_none: #@ err(lambda: assert.one_of())
one_of_str: #@ err(lambda: assert.one_of("abc"))
max_len_str: #@ err(lambda: assert.max_len("a"))
max_len_float: #@ assert.max_len(1.5).check([1])
min_len_int: #@ err(lambda: assert.min_len(1).check(3))
one_not_null_false: #@ err(lambda: assert.one_not_null(False))
one_not_null_true: #@ assert.one_not_null(True).check({"a": 1})
one_not_null_list: #@ err(lambda: assert.one_not_null().check([1]))
one_not_null_empty: #@ err(lambda: assert.one_not_null().check({}))
equals_count: #@ err(lambda: assert.equals(1))
equals_fn: #@ err(lambda: assert.equals(len, 1))
fail_count: #@ err(lambda: assert.fail())
fail_int: #@ err(lambda: assert.fail(1))
not_null_count: #@ err(lambda: assert.not_null(1, 2))
try_to_int: #@ err(lambda: assert.try_to(1))
"#;
    let want = "\
one_of: 'fail: not one of allowed values'
one_of_none: 'assert.one_of: got 0 arguments, want at least 1'
one_of_str: 'assert.one_of: expected a sequence, but was a ''string'''
max_len_str: 'assert.max_len: expected value to be an number, but was string'
max_len_float: true
min_len_int: 'len: value of type int has no len'
one_not_null_false: 'assert.one_not_null: one_not_null() cannot be False'
one_not_null_true: true
one_not_null_list: 'check: value must be a map or dict, but was ''list'''
one_not_null_empty: 'check: value is empty'
equals_count: 'assert.equals: got 1 arguments, want 2'
equals_fn: 'assert.equals: expected argument not to be a function, but was *starlark.Builtin'
fail_count: 'assert.fail: got 0 arguments, want 1'
fail_int: 'assert.fail: expected a string, but was int'
not_null_count: 'assert.not_null: got 2 arguments, want at most 1'
try_to_int: 'assert.try_to: expected argument to be a function, but was starlark.Int'
";
    assert_eq!(render(&[("config.yml", template)]).unwrap(), want);
}

#[test]
fn struct_functions_check_arguments_and_name_bound_calls_as_ytt_does() {
    let template = r#"#@ load("@ytt:struct", "struct")
#@ load("@ytt:assert", "assert")
#@ def err(f): return assert.try_to(f)[1]
#@ def boom(self): return fail("no")
#@ s = struct.make_and_bind("r", boom=boom, v=1)
make: #@ err(lambda: struct.make(1))
bind: #@ err(lambda: struct.bind(len))
bound: #@ err(lambda: s.boom())
make_and_bind: #@ err(lambda: struct.make_and_bind())
encode: #@ err(lambda: struct.encode())
field: #@ s.v
"#;
    let want = "\
make: 'struct.make: unexpected positional arguments (structs are made from keyword arguments only)'
bind: 'struct.bind: expected at least two arguments'
bound: 'struct.bind_result: fail: no'
make_and_bind: 'struct.make_and_bind: expected at exactly one argument'
encode: 'struct.encode: expected exactly one argument'
field: 1
";
    assert_eq!(render(&[("config.yml", template)]).unwrap(), want);
}

#[test]
fn codecs_take_ytts_keywords_and_refuse_bad_arguments_in_its_words() {
    let template = r#"#@ load("@ytt:base64", "base64")
#@ load("@ytt:json", "json")
#@ load("@ytt:yaml", "yaml")
#@ load("@ytt:assert", "assert")
#@ def err(f): return assert.try_to(f)[1]
std: #@ base64.encode("a?>b")
url: #@ base64.encode("a?>b", url=True)
raw: #@ base64.encode("a", raw=True)
unpadded: #@ err(lambda: base64.decode("YQ"))
raw_decode: #@ base64.decode("YQ", raw=True)
line_breaks: #@ base64.decode("YW\nJj")
trailing_bits: #@ base64.decode("YR==")
strict: #@ err(lambda: base64.decode("YR==", strict=True))
not_string: #@ err(lambda: base64.encode(1))
indent: #@ err(lambda: json.encode(1, indent=5))
kwarg: #@ err(lambda: json.encode(1, foo=1))
decode_int: #@ err(lambda: json.decode(1))
two_args: #@ err(lambda: yaml.encode(1, 2))
"#;
    let want = "\
std: YT8+Yg==
url: YT8-Yg==
raw: YQ
unpadded: 'base64.decode: illegal base64 data at input byte 0'
raw_decode: a
line_breaks: abc
trailing_bits: a
strict: 'base64.decode: illegal base64 data at input byte 2'
not_string: 'base64.encode: expected a string, but was int'
indent: 'json.encode: indent value must be between 0 and 4'
kwarg: 'json.encode: invalid argument name: foo'
decode_int: 'json.decode: expected a string, but was int'
two_args: 'yaml.encode: expected exactly one argument'
";
    assert_eq!(render(&[("config.yml", template)]).unwrap(), want);
}

#[test]
fn undeclared_data_values_name_the_declared_keys_and_the_nearest_one() {
    let config = "#@ load(\"@ytt:data\", \"data\")\n---\np: #@ data.values.port\n";
    let two = "#@data/values-schema\n---\nport: 0\nname: \"\"\n";
    let values = "#@data/values\n---\nnme: 1\n";
    let err = render(&[
        ("config.yml", config),
        ("schema.yml", two),
        ("values.yml", values),
    ])
    .unwrap_err();
    assert!(
        err.contains(
            "Given data value is not declared in schema\nvalues.yml:\n    |\n  3 | nme: 1\n    |\n\n    = found: nme\n    = expected: one of { name, port } (from schema.yml:2)\n    = hint: did you mean \"name\"?"
        ),
        "{err}"
    );
    let one = "#@data/values-schema\n---\nport: 0\n";
    let values = "#@data/values\n---\nzzzzzz: 1\n";
    let err = render(&[
        ("config.yml", config),
        ("schema.yml", one),
        ("values.yml", values),
    ])
    .unwrap_err();
    assert!(
        err.contains("    = expected: a map item with the key named \"port\" (from schema.yml:2)")
            && !err.contains("did you mean"),
        "{err}"
    );
}

#[test]
fn data_functions_check_arguments_in_ytts_words() {
    let template = r#"#@ load("@ytt:data", "data")
#@ load("@ytt:assert", "assert")
#@ def err(f): return assert.try_to(f)[1]
read_none: #@ err(lambda: data.read())
read_int: #@ err(lambda: data.read(1))
list_two: #@ err(lambda: data.list("a", "b"))
list_int: #@ err(lambda: data.list(1))
"#;
    let want = "\
read_none: 'data.read: expected exactly one argument'
read_int: 'data.read: expected a string, but was int'
list_two: 'data.list: expected exactly zero or one argument'
list_int: 'data.list: expected a string, but was int'
";
    assert_eq!(render(&[("config.yml", template)]).unwrap(), want);
}

/// The error of a schema whose one annotated key is `annotated` (annotation on line 3).
fn schema_error(annotated: &str) -> String {
    let schema = format!("#@data/values-schema\n---\n{annotated}\n");
    render(&[("schema.yml", &schema)]).unwrap_err()
}

#[test]
fn schema_annotation_errors_show_the_annotation_and_its_node_in_ytts_words() {
    let err = schema_error("#@schema/desc 1\nport: 0");
    assert!(
        err.contains(
            "Invalid schema\n==============\n\nsyntax error in @schema/desc annotation\nschema.yml:\n    |\n  3 | #@schema/desc 1\n  4 | port: 0\n    |\n\n    = found: Non-string value in @schema/desc (by schema.yml:3)\n    = expected: string"
        ),
        "{err}"
    );
    let cases = [
        (
            "#@schema/type\nport: 0",
            "expected @schema/type annotation to have keyword argument and value",
            "= found: missing keyword argument and value (by schema.yml:3)",
        ),
        (
            "#@schema/type any=1\nport: 0",
            "unknown @schema/type annotation keyword argument",
            "= found: starlark.Int (by schema.yml:3)",
        ),
        (
            "#@schema/default 1, 2\nport: 0",
            "syntax error in @schema/default annotation",
            "= found: 2 values in @schema/default (by schema.yml:3)\n    = expected: integer (by schema.yml:4)",
        ),
        (
            "#@schema/title foo=\"a\"\nport: 0",
            "syntax error in @schema/title annotation",
            "= hint: this annotation only accepts one argument: a string.",
        ),
        (
            "#@schema/examples (\"a\",)\nport: 0",
            "syntax error in @schema/examples annotation",
            "= found: empty tuple in @schema/examples (by schema.yml:3)\n    = expected: 2-tuple containing description (string) and example value (of expected type)",
        ),
        (
            "#@schema/examples \"x\"\nport: 0",
            "syntax error in @schema/examples annotation",
            "= found: string for @schema/examples (at schema.yml:3)",
        ),
    ];
    for (annotated, description, detail) in cases {
        let err = schema_error(annotated);
        assert!(
            err.contains(description) && err.contains(detail),
            "{annotated}\n{err}"
        );
    }
}

#[test]
fn validation_annotation_errors_in_ytts_words() {
    let cases = [
        (
            "#@schema/validation min_len=\"x\"\nport: 0",
            "Invalid @schema/validation annotation - expected keyword argument \"min_len\" to be a number, but was string (at schema.yml:3)",
        ),
        (
            "#@schema/validation (\"m\", 3)\nport: 0",
            "Invalid @schema/validation annotation - expected second item in the 2-tuple to be an assertion function, but was int (at schema.yml:3)",
        ),
        (
            "#@schema/validation one_not_null=False\nport: 0",
            "Invalid @schema/validation annotation - one_not_null= cannot be False",
        ),
        (
            "#@schema/validation foo=1\nport: 0",
            "Invalid @schema/validation annotation - unknown keyword argument \"foo\" (at schema.yml:3)",
        ),
    ];
    for (annotated, want) in cases {
        let err = schema_error(annotated);
        assert!(err.contains(want), "{annotated}\n{err}");
    }
    // A float length bound counts as its integer part, as Starlark's NumberToInt does.
    let schema = "#@data/values-schema\n---\n#@schema/validation min_len=2.9\nname: ab\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n";
    assert_eq!(
        render(&[("schema.yml", schema), ("config.yml", config)]).unwrap(),
        "name: ab\n"
    );
}
