//! Third pass over ytt 0.48's non-test source: validations (`pkg/validations`: the
//! keywords a validation takes, the order its named rules run in, what they report as
//! found, how custom rule objects are refused and how failures are grouped), the
//! final validation step of `pkg/workspace/library_execution.go` (malformed
//! `@assert/validate` and `when=` errors reported there, and skipped with
//! `--dangerous-data-values-disable-validation`) and the `-o` output types of
//! `pkg/cmd/template` (`regular_input.go`, `cmd.go`). Each test renders a small case of
//! ours with `strake template` and compares stderr (or stdout) exactly.

use crate::support::ytt::{failure_dot as stderr_of, run_binary, run_dot as run};

/// The stderr of a run refused for its flags (strake's usage status, 2), with nothing
/// on stdout.
fn flag_error(files: &[(&str, &str)], extra: &[&str]) -> String {
    let (code, stdout, stderr) = run(files, extra);
    // ytt exits 1 for every error, a refused flag value included.
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    stderr
}

/// The stdout of a run that must succeed.
fn stdout_of(files: &[(&str, &str)], extra: &[&str]) -> String {
    let (code, stdout, stderr) = run(files, extra);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

const CONFIG: (&str, &str) = (
    "config.yml",
    "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
);

fn schema(body: &str) -> (&'static str, String) {
    ("schema.yml", format!("#@data/values-schema\n---\n{body}"))
}

#[test]
fn when_null_skip_is_not_a_keyword_of_ytt_0_48() {
    // ytt dropped `when_null_skip=`: a null value skips the rules unless `not_null=True`.
    let s =
        schema("#@schema/nullable\n#@schema/validation min_len=1, when_null_skip=False\nc: \"\"\n");
    assert_eq!(
        stderr_of(&[CONFIG, (s.0, &s.1)], &[]),
        "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - unknown keyword argument \"when_null_skip\" (at schema.yml:4)\n"
    );
    let s = schema("#@schema/nullable\n#@schema/validation min_len=1\nc: \"\"\n");
    assert_eq!(stdout_of(&[CONFIG, (s.0, &s.1)], &[]), "v:\n  c: null\n");
}

#[test]
fn named_rules_run_in_ytts_order_and_report_what_the_assertions_found() {
    // Whatever the keyword order, ytt runs min_len, max_len, min, max, (not_null first),
    // one_not_null, one_of; each is the `@ytt:assert` assertion, whose failure (less
    // `fail: ` / `check: `) is what was found.
    let s = schema(concat!(
        "#@schema/validation one_of=[\"a\"], min=\"b\", max_len=1\n",
        "a: abc\n",
        "#@schema/validation one_not_null=True\n",
        "b:\n  x: 1\n  z: 2\n",
        "#@schema/validation min_len=1, min=5\n",
        "c: 3\n",
    ));
    assert_eq!(
        stderr_of(&[CONFIG, (s.0, &s.1)], &[]),
        concat!(
            "strake: error: Validating final data values:\n",
            "  a\n    from: schema.yml:4\n",
            "    - must be: length <= 1 (by: schema.yml:3)\n      found: length = 3\n",
            "    - must be: a value >= \"b\" (by: schema.yml:3)\n      found: value < b\n",
            "    - must be: one of [\"a\"] (by: schema.yml:3)\n      found: not one of allowed values\n",
            "\n",
            "  b\n    from: schema.yml:6\n",
            "    - must be: exactly one of all children to be not null (by: schema.yml:5)\n",
            "      found: [\"x\", \"z\"] are not null\n",
            "\n",
            "  c\n    from: schema.yml:10\n",
            "    - must be: length >= 1 (by: schema.yml:9)\n",
            "      found: len: value of type int has no len\n",
            "    - must be: a value >= 5 (by: schema.yml:9)\n      found: value < 5\n",
        )
    );
    // A comparison Starlark refuses is what min= found.
    let s = schema("#@schema/validation min=5\na: abc\n");
    assert_eq!(
        stderr_of(&[CONFIG, (s.0, &s.1)], &[]),
        concat!(
            "strake: error: Validating final data values:\n",
            "  a\n    from: schema.yml:4\n",
            "    - must be: a value >= 5 (by: schema.yml:3)\n",
            "      found: string >= int not implemented\n",
        )
    );
}

#[test]
fn a_custom_rule_that_is_no_function_is_refused_in_ytts_words() {
    let refused = |rule: &str| {
        let s = (
            "schema.yml",
            format!(
                "#@ load(\"@ytt:struct\", \"struct\")\n#@data/values-schema\n---\n#@schema/validation (\"ok\", {rule})\na: 1\n"
            ),
        );
        stderr_of(&[CONFIG, (s.0, &s.1)], &[])
    };
    let shown = |m: &str| {
        format!(
            "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - {m} (at schema.yml:4)\n"
        )
    };
    // A value without attributes; one with attributes but no `check`; a `check` that
    // is not callable.
    assert_eq!(
        refused("3"),
        shown("expected second item in the 2-tuple to be an assertion function, but was int")
    );
    assert_eq!(
        refused("\"abc\""),
        shown(
            "expected second item in tuple to be an assertion function or assertion object, but was a string"
        )
    );
    assert_eq!(
        refused("struct.make(check=1)"),
        shown("expected struct with attribute check(), but was int")
    );
}

#[test]
fn each_failing_validation_of_a_value_is_reported_on_its_own() {
    // ytt reports one entry per validation: the schema's and the values file's.
    let s = schema("#@schema/validation min=10\nc: 3\n");
    let values = "#@data/values\n---\n#@assert/validate (\"big\", lambda v: v > 20)\nc: 4\n";
    assert_eq!(
        stderr_of(&[CONFIG, (s.0, &s.1), ("values.yml", values)], &[]),
        concat!(
            "strake: error: Validating final data values:\n",
            "  c\n    from: values.yml:4\n",
            "    - must be: a value >= 10 (by: schema.yml:3)\n      found: value < 10\n",
            "\n",
            "  c\n    from: values.yml:4\n",
            "    - must be: big (by: values.yml:3)\n",
        )
    );
}

#[test]
fn assert_validate_annotations_are_read_with_the_final_validations() {
    // ytt reads `@assert/validate` on the final values, so a malformed one fails the
    // final validation step, and is not read at all with validations disabled.
    let values = "#@data/values\n---\n#@assert/validate 1\nc: 3\n";
    let files = [CONFIG, ("values.yml", values)];
    assert_eq!(
        stderr_of(&files, &[]),
        concat!(
            "strake: error: Validating final data values:\n",
            "Invalid @assert/validate annotation - expected annotation to have 2-tuple as argument(s), but found: 1 (by values.yml:3)\n",
        )
    );
    assert_eq!(
        stdout_of(&files, &["--dangerous-data-values-disable-validation"]),
        "v:\n  c: 3\n"
    );
}

#[test]
fn when_errors_are_named_by_the_value_under_the_final_validations() {
    let failing = |when: &str| {
        let values = format!(
            "#@data/values\n---\n#@assert/validate (\"x\", lambda v: True), when={when}\nc: 3\n"
        );
        stderr_of(&[CONFIG, ("values.yml", &values)], &[])
    };
    assert_eq!(
        failing("lambda a, b, c: True"),
        concat!(
            "strake: error: Validating final data values:\n",
            "Validating c: Failed to evaluate when=: function must accept 1 or 2 arguments (3 given)\n",
        )
    );
    assert_eq!(
        failing("lambda v: 1"),
        "strake: error: Validating final data values:\nValidating c: want when= to be bool, got int\n"
    );
    // On a document, ytt names the bare path: empty.
    let values =
        "#@data/values\n#@assert/validate (\"x\", lambda v: True), when=lambda v: 1\n---\nc: 3\n";
    assert_eq!(
        stderr_of(&[CONFIG, ("values.yml", values)], &[]),
        "strake: error: Validating final data values:\nValidating : want when= to be bool, got int\n"
    );
}

#[test]
fn output_types_are_a_list_checked_once_the_schema_is_read() {
    let files = [("config.yml", "a: 1\n")];
    // The first file format given is in effect; several may be given, with commas or
    // by repeating the flag.
    assert_eq!(stdout_of(&files, &["-o", "json,yaml"]), "{\"a\":1}");
    assert_eq!(stdout_of(&files, &["-o", "yaml", "-o", "json"]), "a: 1\n");
    // An unknown type is ytt's error (after the flag's name), reported after a schema's
    // own errors.
    assert_eq!(
        flag_error(&files, &["-o", "xml"]),
        "strake: error: --output: Unknown output type 'xml'\n"
    );
    let bad_schema = (
        "schema.yml",
        "#@data/values-schema\n---\n#@schema/validation foo=1\na: 1\n",
    );
    assert_eq!(
        stderr_of(&[files[0], bad_schema], &["-o", "xml"]),
        "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - unknown keyword argument \"foo\" (at schema.yml:3)\n"
    );
    // `--files-inspect` checks it only when it prints to stdout.
    assert_eq!(
        flag_error(&files, &["-o", "xml", "--files-inspect"]),
        "strake: error: --output: Unknown output type 'xml'\n"
    );
}

/// The flag errors are ytt's words after the flag they are about.
#[test]
fn the_openapi_output_type_is_refused_in_ytts_words() {
    let files = [("config.yml", "a: 1\n")];
    assert_eq!(
        flag_error(&files, &["-o", "openapi-v3"]),
        "strake: error: --output openapi-v3: Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)\n"
    );
    assert_eq!(
        flag_error(&files, &["--data-values-schema-inspect"]),
        "strake: error: --data-values-schema-inspect: Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag\n"
    );
    // The schema is exported before the data values are computed: a value failing its
    // validation does not stop it.
    let s = schema("#@schema/validation min_len=1\nname: \"\"\n");
    let out = stdout_of(
        &[files[0], (s.0, &s.1)],
        &["--data-values-schema-inspect", "-o", "openapi-v3"],
    );
    assert!(
        out.contains("      properties:\n        name:\n          type: string\n"),
        "{out}"
    );
}

/// `strake template` with `args` only (no `-f .`), in an empty directory.
fn bare(args: &[&str]) -> (i32, String, String) {
    run_binary(&[], args)
}

#[test]
fn bulk_input_and_output_are_ytts_json_format() {
    // `--bulk-in` gives the files by name; `--bulk-out` prints the output files (text
    // templates first) as Go's encoding/json writes them.
    let input = r#"{"files":[{"name":"cfg/a.yml","data":"a: #@ \"<\" + str(1)"},{"name":"t.txt","data":"(@= \"x&y\" @)"}]}"#;
    assert_eq!(
        bare(&["--bulk-in", input, "--bulk-out"]),
        (
            0,
            r#"{"files":[{"name":"t.txt","data":"x\u0026y"},{"name":"cfg/a.yml","data":"a: \u003c1\n"}]}"#
                .to_string(),
            String::new()
        )
    );
    // Without `--bulk-out`, the bulk input renders to stdout as usual.
    let (code, stdout, _) = bare(&["--bulk-in", r#"{"files":[{"name":"a.yml","data":"a: 1"}]}"#]);
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n"));
    // A failed run is reported inside the object, with success status.
    let (code, stdout, _) = bare(&[
        "--bulk-in",
        r#"{"files":[{"name":"a.yml","data":"a: #@ fail(\"no\")"}]}"#,
        "--bulk-out",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(r#"{"errors":""#) && stdout.contains("fail: no"),
        "{stdout}"
    );
    // Input that is no bulk object is refused as Go refuses to unmarshal it.
    let (code, _, stderr) = bare(&["--bulk-in", "[1]"]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "strake: error: json: cannot unmarshal array into Go value of type template.BulkFiles\n"
    );
}

#[test]
fn load_errors_are_named_once_in_ytts_words() {
    // Starlark's load statement names the module once ("cannot load X: "); the loader's
    // own message follows.
    let load = |module: &str| {
        stderr_of(
            &[(
                "config.yml",
                &format!("#@ load(\"{module}\", \"x\")\na: 1\n"),
            )],
            &[],
        )
    };
    let shown = |module: &str, msg: &str| {
        format!(
            "strake: error: \n- cannot load {module}: {msg}\n    in <toplevel>\n      config.yml:1 | #@ load(\"{module}\", \"x\")\n"
        )
    };
    assert_eq!(
        load("@ytt:nope"),
        shown(
            "@ytt:nope",
            "builtin ytt library does not have module 'nope' (hint: is it available in newer version of ytt?)"
        )
    );
    assert_eq!(
        load("@lib"),
        shown(
            "@lib",
            "Expected library path to be in format '@name:path' e.g. '@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'"
        )
    );
}

#[test]
fn a_library_ref_is_checked_as_ytts_library_ref_extractor_checks_it() {
    let refused = |arg: &str| {
        let values = format!("#@library/ref {arg}\n#@data/values\n---\nx: 1\n");
        stderr_of(&[("config.yml", "a: 1\n"), ("values.yml", &values)], &[])
    };
    let shown = |m: &str| {
        format!(
            "strake: error: Overlaying data values (in following order: values.yml):\n  Annotation library/ref:\n    {m}\n"
        )
    };
    assert_eq!(
        refused("\"lib\""),
        shown("Expected library ref to start with '@'")
    );
    assert_eq!(
        refused("\"\""),
        shown("Expected library ref to not be empty")
    );
    assert_eq!(
        refused("\"@lib~\""),
        shown("Expected library alias to not be empty")
    );
    assert_eq!(
        refused("\"@a~b~c\""),
        shown(
            "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '@a~b~c'"
        )
    );
    assert_eq!(
        refused("\"@a\", \"@b\""),
        "strake: error: Overlaying data values (in following order: values.yml):\n  Expected library/ref annotation to have one arg, got 2\n"
    );
    assert_eq!(
        refused("1"),
        "strake: error: Overlaying data values (in following order: values.yml): expected a string, but was int\n"
    );
}

/// ytt reads every data value flag before it looks at the schema, so a bad flag fails a
/// schema export too, with the error the data values step gives.
#[test]
fn a_bad_data_value_flag_fails_a_schema_export_too() {
    let schema = ("schema.yml", "#@data/values-schema\n---\na: 1\n");
    let export = ["--data-values-schema-inspect", "-o", "openapi-v3"];
    for flag in [
        ["--data-value-yaml", "a=["],
        ["--data-value", "a"],
        ["--data-values-file", "nope.yml"],
    ] {
        let mut with_export = export.to_vec();
        with_export.extend_from_slice(&flag);
        let exported = run(&[schema], &with_export);
        let inspected = run(&[schema], &[&["--data-values-inspect"][..], &flag].concat());
        assert_ne!(exported.0, 0, "{flag:?}: {exported:?}");
        assert!(exported.1.is_empty(), "{flag:?}: {exported:?}");
        assert_eq!(exported, inspected, "{flag:?}");
    }
}
