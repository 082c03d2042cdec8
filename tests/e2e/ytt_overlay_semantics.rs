//! Overlay behaviours as users meet them, read from ytt 0.48's `pkg/yttlibrary/overlay`
//! (api.go's matchers, the map, array and document operations, the annotation readers)
//! and checked on `strake template`: what a matcher is called with on map items, how
//! unannotated array items behave under each operation, what a null left node does to
//! a merge, and the order of the lines a wrong count names.

use crate::support::ytt::{failure_dot, success_dot};

const LOAD: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";
const ALL: &str = "#@overlay/match by=overlay.all\n---\n";

/// The stderr of `strake template -f .` over `files`, which must fail.
fn stderr_of(files: &[(&str, &str)]) -> String {
    failure_dot(files, &[])
}

/// The stdout of `strake template -f .` over `files`, which must succeed.
fn stdout_of(files: &[(&str, &str)]) -> String {
    success_dot(files, &[])
}

/// `overlay.index(i)` returns `overlay.index_matcher`, which reads its first argument
/// with `AsInt64`. On a map item that argument is the left item's key
/// (`MapItemMatchAnnotation.MatchNodes`), so a string key fails with `expected
/// starlark.Int` (prefixed with the builtin's name by `core.ErrWrapper`), while an
/// integer key is compared with the index like an array position.
#[test]
fn index_matcher_on_map_items_compares_integer_keys_and_refuses_others() {
    let ov = |key: &str| format!("{LOAD}{ALL}#@overlay/match by=overlay.index(0)\n{key}: two\n");
    assert_eq!(
        stderr_of(&[("base.yml", "a: 1\n0: zero\n"), ("ov.yml", &ov("a"))]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'a') on line ov.yml:5: overlay.index_matcher: expected starlark.Int\n"
    );
    assert_eq!(
        stdout_of(&[("base.yml", "0: zero\n1: one\n"), ("ov.yml", &ov("0"))]),
        "0: two\n1: one\n"
    );
    // `and_op` calls it and puts its own name in front.
    let and = format!("{LOAD}{ALL}#@overlay/match by=overlay.and_op(overlay.index(0))\nb: 2\n");
    assert_eq!(
        stderr_of(&[("base.yml", "a: 1\n"), ("ov.yml", &and)]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'b') on line ov.yml:5: overlay.and_op: overlay.index_matcher: expected starlark.Int\n"
    );
}

/// Called directly, the matchers `overlay.index` returns refuse a first argument that
/// is not an integer, as `AsInt64` does.
#[test]
fn index_matcher_called_directly_needs_an_integer_index() {
    let tpl = |expr: &str| format!("{LOAD}v: #@ {expr}\n");
    assert_eq!(
        stdout_of(&[("t.yml", &tpl("overlay.index(-1)(-1, 2, 3)"))]),
        "v: true\n"
    );
    let err = stderr_of(&[("t.yml", &tpl("overlay.index(1)(\"x\", 2, 3)"))]);
    assert!(
        err.starts_with("strake: error: \n- overlay.index_matcher: expected starlark.Int\n"),
        "{err}"
    );
}

/// `overlay.apply()` given two document sets (a library's `eval()` results) applies
/// each right document as an overlay: `NewDocumentMatchAnnotation` refuses one without
/// `@overlay/match` keywords, with or without the annotation itself, before it looks
/// for `by`.
#[test]
fn apply_refuses_an_overlay_document_without_match_keywords() {
    let files = [
        ("_ytt_lib/x/c.yml", "kind: X\n"),
        ("_ytt_lib/y/c.yml", "kind: Y\n"),
        (
            "m.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(overlay.apply(library.get(\"x\").eval(), library.get(\"y\").eval()))\n",
        ),
    ];
    let err = stderr_of(&files);
    assert!(
        err.starts_with("strake: error: \n- overlay.apply: Document on line _ytt_lib/y/c.yml:1: Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)\n"),
        "{err}"
    );
}

/// An array item without `@overlay/match` expects no match (`NewArrayItemMatchAnnotation`
/// sets `expects=0` and ignores `@overlay/match-child-defaults`): remove, replace,
/// insert and assert do nothing with it, a merge appends it, and `replace or_add=True`
/// adds it, its `via` called with `None` for the missing left value.
#[test]
fn unannotated_array_items_match_nothing_under_every_operation() {
    let ov = format!(
        "{LOAD}{ALL}#@overlay/match-child-defaults expects=5\nl:\n#@overlay/remove\n- 1\n#@overlay/replace\n- 2\n#@overlay/replace or_add=True\n- 3\n#@overlay/insert before=True\n- 4\n#@overlay/assert\n- 5\n#@overlay/replace or_add=True, via=lambda l, r: [l, r]\n- 6\n- 7\n"
    );
    assert_eq!(
        stdout_of(&[("base.yml", "l:\n- 1\n- 2\n"), ("ov.yml", &ov)]),
        "l:\n- 1\n- 2\n- 3\n- - null\n  - 6\n- 7\n"
    );
}

/// `mergeArrayItem` (like `mergeMapItem`) does not look into a null left value: the
/// right value replaces it as it is, so the overlay annotations of its children are
/// never applied (a `@overlay/remove` child stays, a missing key needs no `missing_ok`).
#[test]
fn a_null_left_array_item_takes_the_right_value_without_applying_its_children() {
    let ov = format!(
        "{LOAD}{ALL}l:\n#@overlay/match by=overlay.index(0)\n-\n  #@overlay/remove\n  x: 1\n  z: [1]\n"
    );
    assert_eq!(
        stdout_of(&[("base.yml", "l:\n-\n- 2\n"), ("ov.yml", &ov)]),
        "l:\n- x: 1\n  z:\n  - 1\n- 2\n"
    );
}

/// `formatPositions` sorts the matched nodes' `file:line` strings as text before
/// joining them: `c.yml:10` comes before `c.yml:9`, and a node an earlier overlay
/// replaced (now at the overlay's line) is listed by its new place, not its index.
#[test]
fn the_lines_of_a_wrong_count_are_sorted_as_text() {
    let base = "l:\n- 0\n- 0\n- 0\n- 0\n- 0\n- 0\n- 0\n- 9\n- 10\n";
    let ov = format!("{LOAD}{ALL}l:\n#@overlay/match by=lambda i, l, r: l > 5, expects=1\n- 0\n");
    assert_eq!(
        stderr_of(&[("c.yml", base), ("ov.yml", &ov)]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'l') on line ov.yml:4:\n      Array item on line ov.yml:6:\n        Expected number of matched nodes to be 1, but was 2 (lines: c.yml:10, c.yml:9)\n"
    );
    let first = format!("{LOAD}{ALL}l:\n#@overlay/match by=overlay.index(0)\n- 5\n");
    let second = format!("{LOAD}{ALL}l:\n#@overlay/match by=overlay.all, expects=3\n- 5\n");
    assert_eq!(
        stderr_of(&[
            ("c.yml", "l:\n- 1\n- k: 1\n"),
            ("o1.yml", &first),
            ("o2.yml", &second)
        ]),
        "strake: error: Overlaying (in following order: o1.yml, o2.yml):\n  Document on line o2.yml:3:\n    Map item (key 'l') on line o2.yml:4:\n      Array item on line o2.yml:6:\n        Expected number of matched nodes to be 3, but was 2 (lines: c.yml:3, o1.yml:6)\n"
    );
}

/// A map item's matcher gets the left key, the left value and the right value, each
/// through `NewGoValueWithYAML(...).AsStarlarkValue()`: scalars as plain Starlark
/// values, maps and arrays as `yamlfragment`s.
#[test]
fn a_map_item_matcher_gets_plain_scalars_and_fragments() {
    let ov = format!(
        "{LOAD}{ALL}#@overlay/match by=lambda k, l, r: type(k) == \"string\" and type(l) == \"yamlfragment\" and type(r) == \"int\", expects=2\n#@overlay/remove\nzz: 5\n"
    );
    assert_eq!(
        stdout_of(&[("base.yml", "a: 1\nb: [1]\nc: {x: 1}\n"), ("ov.yml", &ov)]),
        "a: 1\n"
    );
}

/// ytt's `Comparison.CompareLeafs` names the Go types of the two leaves (`%T`) when an
/// `@overlay/assert` without `via` fails. go-yaml decodes an integer as an `int`; one
/// that went through Starlark (a `#@` value, a dict, a data value, a `via` result, and
/// the value a merge copied from such a node) is an `int64`.
#[test]
fn assert_names_computed_integers_int64() {
    let ov = |right: &str| format!("{LOAD}{ALL}#@overlay/assert\n{right}\n");
    let leaves = |base: &str, right: &str| {
        let err = stderr_of(&[("base.yml", base), ("ov.yml", &ov(right))]);
        err.lines().last().unwrap_or_default().trim().to_string()
    };
    assert_eq!(
        leaves("a: #@ 1\n", "a: 2"),
        "Expected leaf values to match int64 int"
    );
    assert_eq!(
        leaves("a: 1\n", "a: #@ 2"),
        "Expected leaf values to match int int64"
    );
    assert_eq!(
        leaves("a: #@ {\"b\": [1]}\n", "a:\n  b: [2]"),
        "Expected leaf values to match int64 int"
    );
    // A fragment holds its YAML nodes as they were parsed.
    assert_eq!(
        leaves("#@ def f():\nb: 1\n#@ end\na: #@ f()\n", "a:\n  b: 2"),
        "Expected leaf values to match int int"
    );
    let merged = format!("{LOAD}{ALL}a: #@ 3\n");
    let err = stderr_of(&[
        ("base.yml", "a: 1\n"),
        ("m.yml", &merged),
        ("ov.yml", &ov("a: 2")),
    ]);
    assert!(
        err.ends_with("Expected leaf values to match int64 int\n"),
        "{err}"
    );
}
