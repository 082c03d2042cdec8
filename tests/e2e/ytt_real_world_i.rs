//! Constructs met while rendering more public ytt directories (Concourse pipelines,
//! Kubernetes overlays that check what they patch, home-automation configs), each
//! reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// The error text of rendering `files` with `-f .`.
fn error_of(files: &[(&str, &str)]) -> String {
    ytt::render(files, &["-f", "."]).unwrap_err()
}

const LOADS: &str =
    "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:assert\", \"assert\")\n";

/// A `via` function of `@overlay/assert` that fails is reported under the node the
/// overlay was applying, by its message alone: ytt's overlay gets starlark-go's
/// `EvalError`, whose text has no call stack.
#[test]
fn a_failing_assert_via_function_is_reported_by_its_message_alone() {
    let overlay = format!(
        "{LOADS}#@ def check(r, _):\n#@   if r != 2:\n#@     assert.fail(\"want 2, got {{}}\".format(r))\n#@   end\n#@ end\n#@overlay/match by=overlay.subset({{\"kind\": \"Deployment\"}})\n---\nspec:\n  #@overlay/assert via=check\n  replicas:\n"
    );
    let files = [
        ("a.yml", "kind: Deployment\nspec:\n  replicas: 3\n"),
        ("o.yml", overlay.as_str()),
    ];
    assert_eq!(
        error_of(&files),
        "Overlaying (in following order: o.yml): Document on line o.yml:9: Map item (key 'spec') on line o.yml:10: Map item (key 'replicas') on line o.yml:12: assert.fail: fail: want 2, got 3"
    );
    let files = [
        ("a.yml", "kind: Deployment\nspec:\n  replicas: 2\n"),
        ("o.yml", overlay.as_str()),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: Deployment\nspec:\n  replicas: 2\n"
    );
}

/// The same holds for a `via` of `@overlay/replace` and for a `by` matcher function.
#[test]
fn a_failing_replace_via_or_match_by_function_has_no_call_stack() {
    let files = [
        ("a.yml", "a: 1\n"),
        (
            "o.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def bad(l, r):\n#@   return l + \"x\"\n#@ end\n#@overlay/match by=overlay.all\n---\n#@overlay/replace via=bad\na: 2\n",
        ),
    ];
    assert_eq!(
        error_of(&files),
        "Overlaying (in following order: o.yml): Document on line o.yml:6: Map item (key 'a') on line o.yml:8: unknown binary op: int + string"
    );
    let files = [
        ("a.yml", "a: 1\n"),
        (
            "o.yml",
            "#@ def bad(i, l, r):\n#@   return l[\"zz\"]\n#@ end\n#@overlay/match by=bad\n---\na: 2\n",
        ),
    ];
    assert_eq!(
        error_of(&files),
        "Overlaying (in following order: o.yml): Document on line o.yml:5: key \"zz\" not in yamlfragment"
    );
}

/// `overlay.apply` is wrapped as every ytt built-in is: any failure of the overlay is
/// prefixed with `overlay.apply: `, and a failing `via` inside it is its message alone.
#[test]
fn overlay_apply_names_itself_before_any_overlay_failure() {
    let files = [(
        "t.yml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def ov():\nb: 2\n#@ end\n#@ def base():\na: 1\n#@ end\nr: #@ overlay.apply(base(), ov())\n",
    )];
    assert_eq!(
        error_of(&files),
        "\n- overlay.apply: Map item (key 'b') on line t.yml:3: Expected number of matched nodes to be 1, but was 0\n    in <toplevel>\n      t.yml:8 | r: #@ overlay.apply(base(), ov())"
    );
    let files = [(
        "t.yml",
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def bad(l, r):\n#@   return l + \"x\"\n#@ end\n#@ def ov():\n#@overlay/replace via=bad\na: 2\n#@ end\n#@ def base():\na: 1\n#@ end\nr: #@ overlay.apply(base(), ov())\n",
    )];
    assert_eq!(
        error_of(&files),
        "\n- overlay.apply: Map item (key 'a') on line t.yml:7: unknown binary op: int + string\n    in <toplevel>\n      t.yml:12 | r: #@ overlay.apply(base(), ov())"
    );
}

/// An assert `via` may return a (bool, string) pair as a tuple or a list; a pair whose
/// second item is not a string is neither None, a bool nor such a pair, even when its
/// first item is True.
#[test]
fn an_assert_via_verdict_is_a_bool_and_string_pair_in_a_tuple_or_list() {
    let run = |verdict: &str| {
        let overlay = format!(
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nspec:\n  #@overlay/assert via=lambda a, b: {verdict}\n  replicas:\n"
        );
        let files = [
            ("a.yml", "spec:\n  replicas: 3\n"),
            ("o.yml", overlay.as_str()),
        ];
        ytt::render(&files, &["-f", "."])
    };
    let lead = "Overlaying (in following order: o.yml): Document on line o.yml:3: Map item (key 'spec') on line o.yml:4: Map item (key 'replicas') on line o.yml:6: ";
    assert_eq!(
        run("[False, \"too many\"]").unwrap_err(),
        format!(
            "{lead}Expected via invocation to return true, but was false with message: too many"
        )
    );
    assert_eq!(run("[True, \"fine\"]").unwrap(), "spec:\n  replicas: 3\n");
    for odd in ["(True, 5)", "(False, 5)"] {
        assert_eq!(
            run(odd).unwrap_err(),
            format!(
                "{lead}Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those"
            ),
            "{odd}"
        );
    }
}

/// In Go's regexp syntax a `{` that starts no counted repetition is a literal brace, so
/// a pattern such as `\[:digit:\]{([0-9]+)}` (a password-template helper's) compiles
/// and matches the text `[:digit:]{12}`; real repetitions keep their meaning.
#[test]
fn a_regexp_brace_that_starts_no_repetition_is_a_literal() {
    let files = [(
        "t.yml",
        "#@ load(\"@ytt:regexp\", \"regexp\")\n#@ p = \"\\\\[:digit:\\\\]{([0-9]+)}\"\nm: #@ regexp.match(p, \"x-[:digit:]{12}\")\nr: #@ regexp.replace(\"^.*?(\" + p + \").*$\", \"x-[:digit:]{12}-y\", \"$1 $2\")\nc: #@ regexp.match(\"^a{2}$\", \"aa\")\nl: #@ regexp.replace(\"x{,2}\", \"ax{,2}b\", \"-\")\n",
    )];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "m: true\nr: '[:digit:]{12} 12'\nc: true\nl: a-b\n"
    );
}

/// Go's `\d`, `\w`, `\s` and `\b` are ASCII-only, so a name check such as
/// `^[\w-]+$` refuses non-ASCII letters and `\d` takes no other script's digits.
#[test]
fn regexp_perl_classes_are_ascii_only() {
    let files = [(
        "t.yml",
        "#@ load(\"@ytt:regexp\", \"regexp\")\na: #@ regexp.match(\"^[\\\\w-]+$\", \"héllo-1\")\nb: #@ regexp.match(\"^\\\\w+$\", \"hello_1\")\nc: #@ regexp.replace(\"\\\\d\", \"1٣2\", \"#\")\nd: #@ regexp.replace(\"\\\\s+\", \"a \\v b\", \"_\")\n",
    )];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "a: false\nb: true\nc: '#٣#'\nd: \"a_\\v_b\"\n"
    );
}

/// A YAML merge key whose value is a sequence (`<<: [*a, *b]`) is refused as ytt's
/// go-yaml fork refuses it: its merge walks the sequence's children, which hold a
/// position node before each item, and fails on the first one. An empty sequence
/// merges nothing; a single map (or an alias of one) merges as usual.
#[test]
fn a_yaml_merge_of_a_sequence_is_refused() {
    let err = ytt::render(
        &[("e.yml", "b: &b\n  x: 1\nm:\n  <<: [*b, {q: 9}]\n  z: 1\n")],
        &["-f", "e.yml"],
    )
    .unwrap_err();
    assert_eq!(
        err,
        "Unmarshaling YAML template 'e.yml': yaml: map merge requires map or sequence of maps as the value\n    in e.yml:4\n      e.yml:4 |   <<: [*b, {q: 9}]"
    );
    let out = ytt::render(
        &[(
            "e.yml",
            "b: &b\n  x: 1\nm:\n  <<: []\n  z: 1\nk:\n  <<: *b\n  w: 2\n",
        )],
        &["-f", "e.yml"],
    )
    .unwrap();
    assert_eq!(out, "b:\n  x: 1\nm:\n  z: 1\nk:\n  x: 1\n  w: 2\n");
}

/// The layout of a failed package validation as ytt prints it (a Tanzu package's
/// `library.eval` failing in a Starlark helper): `library.eval` and the library's name
/// lead the message, and the frames in the `.star` file show their line by number
/// alone, since ytt compiles Starlark files with positions that name no file.
#[test]
fn a_library_eval_failure_names_the_library_and_star_frames_show_bare_lines() {
    let star = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\n\ndef validate_pw():\n  data.values.pw or assert.fail(\"pw should be provided\")\nend\n\ndef validate_all():\n  for f in [validate_pw]:\n     f()\n  end\nend\n";
    let files = [
        ("_ytt_lib/bundle/config/validate.star", star),
        (
            "_ytt_lib/bundle/config/t.yml",
            "#@ load(\"validate.star\", \"validate_all\")\n#@ validate_all()\na: 1\n",
        ),
        (
            "_ytt_lib/bundle/config/values.yml",
            "#@data/values\n---\npw: \"\"\n",
        ),
        (
            "harbor.yaml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ upstream_lib = library.get(\"bundle/config\")\n--- #@ template.replace(upstream_lib.eval())\n",
        ),
    ];
    assert_eq!(
        error_of(&files),
        "\n- library.eval: Evaluating library 'bundle/config': \n    in <toplevel>\n      harbor.yaml:4 | --- #@ template.replace(upstream_lib.eval())\n\n    reason:\n     - assert.fail: fail: pw should be provided\n         in validate_pw\n           5 |   data.values.pw or assert.fail(\"pw should be provided\")\n         in validate_all\n           10 |      f()\n         in <toplevel>\n           _ytt_lib/bundle/config/t.yml:2 | #@ validate_all()"
    );
}

/// Failures of a library's data values are also under `library.eval`'s lead.
#[test]
fn a_library_data_values_failure_is_under_the_library_eval_lead() {
    let files = [
        (
            "_ytt_lib/lib/schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min=1\nport: 0\n",
        ),
        (
            "_ytt_lib/lib/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\np: #@ data.values.port\n",
        ),
        (
            "c.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n",
        ),
    ];
    let err = error_of(&files);
    assert!(
        err.starts_with("\n- library.eval: Evaluating library 'lib': "),
        "{err}"
    );
}
