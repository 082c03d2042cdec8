//! Edge cases found by reading ytt 0.48's non-test source package by package (overlay
//! ops and match annotations, schema, validations, YAML templates, workspace): each test
//! renders a small case of ours with `strake template` and compares stderr (or stdout)
//! exactly with what that source prints.

use crate::support::ytt::{failure_of, run_binary};

/// Runs `strake template -f .` plus `extra` in a fresh directory holding `files`.
fn run(files: &[(&str, &str)], extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["-f", "."];
    args.extend_from_slice(extra);
    run_binary(files, &args)
}

/// The stderr of a run that must fail with nothing on stdout.
fn stderr_of(files: &[(&str, &str)]) -> String {
    failure_of(files, &["-f", "."])
}

const OVERLAY_ALL: &str =
    "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\n";

/// The error of overlaying `ov.yml` (after [`OVERLAY_ALL`]) onto `base.yml`.
fn overlay_error(base: &str, ov: &str) -> String {
    let ov = format!("{OVERLAY_ALL}{ov}");
    stderr_of(&[("base.yml", base), ("ov.yml", &ov)])
}

const OVERLAY_LEAD: &str =
    "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n";

#[test]
fn expects_of_another_type_is_named_by_its_go_type_and_tuples_are_not_lists() {
    let base = "a: 1\n";
    assert_eq!(
        overlay_error(base, "#@overlay/match expects=1.5\na: 2\n"),
        format!(
            "{OVERLAY_LEAD}    Map item (key 'a') on line ov.yml:5:\n      Expected 'overlay/match' annotation keyword argument 'expects' to be either int, string or function, but was starlark.Float\n"
        )
    );
    assert_eq!(
        overlay_error(base, "#@overlay/match expects=(0, 1)\na: 2\n"),
        format!(
            "{OVERLAY_LEAD}    Map item (key 'a') on line ov.yml:5:\n      Expected 'overlay/match' annotation keyword argument 'expects' to be either int, string or function, but was starlark.Tuple\n"
        )
    );
    // `i+` takes any integer Go's Atoi takes, negative ones too.
    let (code, stdout, _) = run(
        &[
            ("base.yml", base),
            (
                "ov.yml",
                &format!("{OVERLAY_ALL}#@overlay/match expects=\"-1+\"\nb: 2\n"),
            ),
        ],
        &[],
    );
    assert_eq!((code, stdout.as_str()), (0, "a: 1\nb: 2\n"));
}

#[test]
fn built_in_matchers_put_their_name_before_their_errors() {
    let base = "arr:\n- name: a\n- 3\n";
    let lead = format!(
        "{OVERLAY_LEAD}    Map item (key 'arr') on line ov.yml:4:\n      Array item on line ov.yml:6:"
    );
    assert_eq!(
        overlay_error(base, "arr:\n#@overlay/match by=\"name\"\n- name: a\n"),
        format!(
            "{lead} overlay.map_key_matcher:\n        Expected value to be map, but was int64\n"
        )
    );
    assert_eq!(
        overlay_error(
            base,
            "arr:\n#@overlay/match by=overlay.and_op(overlay.map_key(\"name\"))\n- name: a\n"
        ),
        format!(
            "{lead} overlay.and_op: overlay.map_key_matcher:\n        Expected value to be map, but was int64\n"
        )
    );
    assert_eq!(
        overlay_error(
            "arr:\n- name: a\n",
            "arr:\n#@overlay/match by=overlay.map_key(\"id\")\n- name: a\n"
        ),
        format!(
            "{OVERLAY_LEAD}    Map item (key 'arr') on line ov.yml:4:\n      Array item on line ov.yml:6: overlay.map_key_matcher:\n        Expected to find map item with key 'id', but did not\n"
        )
    );
}

#[test]
fn a_matcher_called_with_the_wrong_number_of_arguments_says_so_as_ytt_does() {
    let err = stderr_of(&[(
        "config.yml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\na: #@ overlay.all(1, 2)\n",
    )]);
    assert_eq!(
        err,
        "strake: error: \n- overlay.all: expected exactly 3 arguments\n    in <toplevel>\n      config.yml:2 | a: #@ overlay.all(1, 2)\n"
    );
    let err = stderr_of(&[(
        "config.yml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\na: #@ overlay.subset({})(1)\n",
    )]);
    assert!(
        err.starts_with(
            "strake: error: \n- overlay.subset_matcher: expected exactly 3 arguments\n"
        ),
        "{err}"
    );
}

#[test]
fn replace_or_add_must_be_a_bool() {
    assert_eq!(
        overlay_error("a: 1\n", "#@overlay/replace or_add=\"yes\"\na: 2\n"),
        format!(
            "{OVERLAY_LEAD}    Map item (key 'a') on line ov.yml:5: expected starlark.Bool, but was starlark.String\n"
        )
    );
}

const FRAGMENTS: &str = "#@ def arr():\n- 1\n#@ end\n#@ def docs():\n---\na: 1\n#@ end\n---\n";

#[test]
fn an_array_or_document_set_fragment_refuses_a_key_that_is_not_an_int_as_ytt_does() {
    let err = stderr_of(&[("c.yml", &format!("{FRAGMENTS}i: #@ arr()[\"x\"]\n"))]);
    assert_eq!(
        err,
        "strake: error: \n- yamlfragment.Get: Expected array index to be an int64, but was string\n    in <toplevel>\n      c.yml:9 | i: #@ arr()[\"x\"]\n"
    );
    // ytt's document set message has its arguments the other way round.
    let err = stderr_of(&[("c.yml", &format!("{FRAGMENTS}i: #@ docs()[\"k\"]\n"))]);
    assert_eq!(
        err,
        "strake: error: \n- k.Get: Expected document set index to be an int64, but was string\n    in <toplevel>\n      c.yml:9 | i: #@ docs()[\"k\"]\n"
    );
    // An index outside the fragment is a missing key; `in` never fails.
    let err = stderr_of(&[("c.yml", &format!("{FRAGMENTS}i: #@ arr()[-1]\n"))]);
    assert!(
        err.starts_with("strake: error: \n- key -1 not in yamlfragment\n"),
        "{err}"
    );
    let (code, stdout, _) = run(
        &[("c.yml", &format!("{FRAGMENTS}i: #@ \"x\" in arr()\n"))],
        &[],
    );
    assert_eq!((code, stdout.as_str()), (0, "i: false\n"));
}

#[test]
fn an_annotation_name_runs_to_the_first_space_commas_and_all() {
    // ytt 0.48 reads `#@a,b args` as one annotation named `a,b`: an unknown one,
    // so `x = "hi"` is its keyword argument, not code, and the string is left as is.
    let (code, stdout, stderr) = run(
        &[(
            "c.yml",
            "#@yaml/text-templated-strings,template/code x = \"hi\"\na: (@= x @)\n",
        )],
        &[],
    );
    assert_eq!((code, stdout.as_str()), (0, "a: (@= x @)\n"), "{stderr}");
}

#[test]
fn a_later_annotation_of_the_same_name_replaces_the_earlier_one() {
    let base = "arr:\n- name: a\n  v: 1\n- name: b\n  v: 1\n";
    let ov = format!(
        "{OVERLAY_ALL}arr:\n#@overlay/match by=\"nosuch\"\n#@overlay/match by=\"name\"\n- name: b\n  v: 2\n"
    );
    let (code, stdout, stderr) = run(&[("base.yml", base), ("ov.yml", &ov)], &[]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "arr:\n- name: a\n  v: 1\n- name: b\n  v: 2\n"),
        "{stderr}"
    );
}

const LOAD_TEMPLATE: &str = "#@ load(\"@ytt:template\", \"template\")\n";

#[test]
fn template_replace_refuses_values_of_the_wrong_kind_in_ytts_words() {
    let cases = [
        (
            "a:\n  _: #@ template.replace(1)\n",
            "- template.replace: expected value to be map, but was int64\n    in <toplevel>\n      c.yml:3 |   _: #@ template.replace(1)\n",
        ),
        (
            "a:\n- #@ template.replace({\"x\": 1})\n",
            "- template.replace: expected value to be array, but was *orderedmap.Map\n    in <toplevel>\n      c.yml:3 | - #@ template.replace({\"x\": 1})\n",
        ),
        // A document is replaced by a list's items, never by a map.
        (
            "--- #@ template.replace({\"a\": 1})\n",
            "- template.replace: expected value to be docset, but was *orderedmap.Map\n    in <toplevel>\n      c.yml:2 | --- #@ template.replace({\"a\": 1})\n",
        ),
        (
            "a:\n  _: #@ template.replace()\n",
            "- template.replace: expected exactly one argument\n    in <toplevel>\n      c.yml:3 |   _: #@ template.replace()\n",
        ),
    ];
    for (body, want) in cases {
        let err = stderr_of(&[("c.yml", &format!("{LOAD_TEMPLATE}{body}"))]);
        assert_eq!(err, format!("strake: error: \n{want}"), "{body}");
    }
    let (code, stdout, _) = run(
        &[(
            "c.yml",
            &format!("{LOAD_TEMPLATE}--- #@ template.replace([{{\"a\": 1}}, 2])\n"),
        )],
        &[],
    );
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n---\n2\n"));
}

#[test]
fn a_key_given_twice_is_refused_in_lower_case_as_ytt_words_it() {
    let err = stderr_of(&[("c.yml", "#@ for v in [1, 2]:\ntier: #@ v\n#@ end\n")]);
    assert_eq!(
        err,
        "strake: error: \n- expected key 'tier' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n    in <toplevel>\n      c.yml:2 | tier: #@ v\n"
    );
}

#[test]
fn a_data_values_file_is_templated_before_any_data_values_exist() {
    let err = stderr_of(&[
        ("a-values.yml", "#@data/values\n---\nbase_url: http://svc\n"),
        (
            "b-values.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@data/values\n---\nhealth_url: #@ data.values.base_url + \"/healthz\"\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
        ),
    ]);
    assert_eq!(
        err,
        "strake: error: Overlaying data values (in following order: a-values.yml, b-values.yml):\n  Templating file 'b-values.yml': \n- struct has no .base_url field or method\n    in <toplevel>\n      b-values.yml:4 | health_url: #@ data.values.base_url + \"/healthz\"\n"
    );
}

#[test]
fn library_export_and_eval_refuse_in_ytts_words_naming_the_library() {
    let lib = "def label(x):\n  return x\nend\ndef _p():\n  return 1\nend\n";
    let cases = [
        (
            "library.get(\"helpers\").export(\"label\")",
            "library.export: Exporting from library 'helpers': Expected to find exactly one exported symbol 'label', but found multiple across files: a.star, b.star",
        ),
        (
            "library.get(\"helpers\").export(\"nope\")",
            "library.export: Exporting from library 'helpers': Expected to find exported symbol 'nope', but did not",
        ),
        (
            "library.get(\"helpers\").export(\"_p\")",
            "library.export: Exporting from library 'helpers': Symbols starting with '_' are private, and cannot be exported",
        ),
        (
            "library.get(\"helpers\").export(\"label\", paths=\"a.star\")",
            "library.export: Exporting from library 'helpers': Unexpected keyword argument 'paths'",
        ),
        (
            "library.get(\"helpers\").eval(1)",
            "library.eval: Evaluating library 'helpers': expected no arguments",
        ),
    ];
    for (call, want) in cases {
        let config = format!("#@ load(\"@ytt:library\", \"library\")\nv: #@ {call}\n");
        let err = stderr_of(&[
            ("_ytt_lib/helpers/a.star", lib),
            ("_ytt_lib/helpers/b.star", lib),
            ("config.yml", &config),
        ]);
        assert_eq!(
            err,
            format!(
                "strake: error: \n- {want}\n    in <toplevel>\n      config.yml:2 | v: #@ {call}\n"
            )
        );
    }
    let (code, stdout, _) = run(
        &[
            ("_ytt_lib/helpers/a.star", lib),
            ("_ytt_lib/helpers/b.star", lib),
            (
                "config.yml",
                "#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"helpers\").export(\"label\", path=\"a.star\")(\"x\")\n",
            ),
        ],
        &[],
    );
    assert_eq!((code, stdout.as_str()), (0, "v: x\n"));
}
