//! Overlay behaviours read line by line from ytt 0.48's `pkg/yttlibrary/overlay` (op.go,
//! map.go, array.go, document.go, the annotation readers and api.go) and checked on
//! `strake template`: which keywords each operation reads and when, how `overlay.apply()`
//! refuses mixing documents with maps and arrays, what `@overlay/assert` does after its
//! check, and the positions replaced nodes take (seen in later count errors).

use crate::support::ytt::{failure_dot, success_dot};

const LOAD: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";

/// The stderr of `strake template -f .` over `files`, which must fail.
fn stderr_of(files: &[(&str, &str)]) -> String {
    failure_dot(files, &[])
}

/// The stdout of `strake template -f .` over `files`, which must succeed.
fn stdout_of(files: &[(&str, &str)]) -> String {
    success_dot(files, &[])
}

/// `op.go` dispatches `merge`, `remove` and `append` without ever reading their
/// annotation's keywords (only `NewReplaceAnnotation`, `NewAssertAnnotation` and
/// `NewInsertAnnotation` know keywords), so stray keywords there are accepted.
#[test]
fn merge_remove_and_append_ignore_any_keywords() {
    let files = [
        ("base.yml", "a: 1\nb: 2\nl: [1]\n"),
        (
            "ov.yml",
            &format!(
                "{LOAD}#@overlay/match by=overlay.all\n---\n#@overlay/remove foo=1\na: 1\n#@overlay/merge bar=2\nb: 3\nl:\n#@overlay/append baz=3\n- 2\n"
            ),
        ),
    ];
    assert_eq!(stdout_of(&files), "b: 3\nl:\n- 1\n- 2\n");
}

/// `insertArrayItem` counts the matches (`ann.Indexes`) before `NewInsertAnnotation`
/// reads the keywords: a wrong count is reported first, and a `via` that is not a
/// function is refused even when nothing matched.
#[test]
fn insert_keywords_are_read_after_the_matches_are_counted() {
    let ov = |ann: &str| {
        format!(
            "{LOAD}#@overlay/match by=overlay.all\n---\nl:\n#@overlay/match by=overlay.index(3), {ann}\n- 2\n"
        )
    };
    let lead = "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'l') on line ov.yml:4:\n      Array item on line ov.yml:7:\n";
    let err = stderr_of(&[
        ("base.yml", "l: [1]\n"),
        (
            "ov.yml",
            &ov("expects=1\n#@overlay/insert before=True, foo=1"),
        ),
    ]);
    assert_eq!(
        err,
        format!("{lead}        Expected number of matched nodes to be 1, but was 0\n")
    );
    let err = stderr_of(&[
        ("base.yml", "l: [1]\n"),
        (
            "ov.yml",
            &ov("expects=\"0+\"\n#@overlay/insert before=True, via=1"),
        ),
    ]);
    assert_eq!(
        err,
        format!(
            "{lead}        Expected 'overlay/insert' annotation keyword argument 'via' to be function, but was starlark.Int\n"
        )
    );
    let err = stderr_of(&[
        ("base.yml", "l: [1]\n"),
        (
            "ov.yml",
            &ov("expects=\"0+\"\n#@overlay/insert after=True, foo=1"),
        ),
    ]);
    assert_eq!(
        err,
        format!("{lead}        Unknown 'overlay/insert' annotation keyword argument 'foo'\n")
    );
}

/// `NewMatchChildDefaultsAnnotation` is only called by the merge and assert operations
/// (the ones that go into the children): on a removed node an unknown keyword of
/// `@overlay/match-child-defaults` goes unread.
#[test]
fn match_child_defaults_is_read_only_by_merge_and_assert() {
    let files = [
        ("base.yml", "a:\n  b: 1\nc: 2\n"),
        (
            "ov.yml",
            &format!(
                "{LOAD}#@overlay/match by=overlay.all\n---\n#@overlay/match-child-defaults foo=1\n#@overlay/remove\na: {{}}\n"
            ),
        ),
    ];
    assert_eq!(stdout_of(&files), "c: 2\n");
    let merged = [
        ("base.yml", "a:\n  b: 1\nc: 2\n"),
        (
            "ov.yml",
            &format!(
                "{LOAD}#@overlay/match by=overlay.all\n---\n#@overlay/match-child-defaults foo=1\na:\n  b: 2\n"
            ),
        ),
    ];
    assert_eq!(
        stderr_of(&merged),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'a') on line ov.yml:5:\n      Unknown 'overlay/match-child-defaults' annotation keyword argument 'foo'\n"
    );
}

/// `Op.apply` only overlays a document set on a document set (else "Expected document
/// set, but was …") and a map or array on a node of the same kind, naming the left
/// node's kind with `yamlmeta.TypeName`; a null left value is refused like any other
/// (only the merge operations replace a null left value).
#[test]
fn overlay_apply_refuses_mixing_documents_with_maps_and_arrays() {
    let cases = [
        (
            "a: #@ overlay.apply(docs(), {\"a\": 2})\n",
            "overlay.apply: Expected map, but was document set",
        ),
        (
            "a: #@ overlay.apply(docs(), [1])\n",
            "overlay.apply: Expected array, but was document set",
        ),
        (
            "a: #@ overlay.apply({\"a\": 2}, docs())\n",
            "overlay.apply: Expected document set, but was map",
        ),
        (
            "a: #@ overlay.apply(None, {\"a\": 2})\n",
            "overlay.apply: Expected map, but was null",
        ),
        (
            "a: #@ overlay.apply(1, [2])\n",
            "overlay.apply: Expected array, but was integer",
        ),
    ];
    for (line, want) in cases {
        let body = format!("{LOAD}#@ def docs():\n---\na: 1\n#@ end\n{line}");
        let err = stderr_of(&[("a.yml", &body)]);
        assert_eq!(
            err,
            format!(
                "strake: error: \n- {want}\n    in <toplevel>\n      a.yml:6 | {}",
                line
            )
        );
    }
    // A scalar overlay leaves any left value as it is, documents included (a document
    // set takes a document's place only through template.replace).
    let body = format!(
        "{LOAD}#@ load(\"@ytt:template\", \"template\")\n#@ def docs():\n---\na: 1\n#@ end\n--- #@ template.replace(overlay.apply(docs(), 5))\n---\nb: #@ overlay.apply(None, \"x\")\n"
    );
    assert_eq!(stdout_of(&[("a.yml", &body)]), "a: 1\n---\nb: null\n");
}

/// After its check, `assertMapItem` calls `Op.apply` on the left value directly (not
/// the merge, which would replace a null value): a map under `@overlay/assert` whose
/// left value is null fails even when `via` passed.
#[test]
fn assert_applies_its_children_without_replacing_a_null_value() {
    let files = [
        ("base.yml", "a: null\n"),
        (
            "ov.yml",
            &format!(
                "{LOAD}#@overlay/match by=overlay.all\n---\n#@overlay/assert via=lambda l, r: True\na:\n  b: 1\n"
            ),
        ),
    ];
    assert_eq!(
        stderr_of(&files),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:3:\n    Map item (key 'a') on line ov.yml:5:\n      Expected map, but was null\n"
    );
    // A scalar under `@overlay/assert` is checked only, never written.
    let files = [
        ("base.yml", "a: 1\n"),
        (
            "ov.yml",
            &format!(
                "{LOAD}#@overlay/match by=overlay.all\n---\n#@overlay/assert via=lambda l, r: l < r\na: 2\n"
            ),
        ),
    ];
    assert_eq!(stdout_of(&files), "a: 1\n");
}

/// `mergeArrayItem` gives an array item whose value a scalar replaced the overlay
/// item's position (`SetPosition(newItem.Position)`), and `replaceDocument` puts a
/// copy of the overlay document in the left one's place: a later overlay's count error
/// lists those overlay lines among the matched ones.
#[test]
fn replaced_array_items_and_documents_take_the_overlays_position() {
    let array = format!(
        "{LOAD}#@overlay/match by=overlay.all\n---\nl:\n#@overlay/match by=overlay.index(0)\n- 5\n#@overlay/match by=overlay.all\n---\nl:\n#@overlay/match by=overlay.all, expects=3\n- 7\n"
    );
    assert_eq!(
        stderr_of(&[("base.yml", "l:\n- 1\n- 2\n"), ("ov.yml", &array)]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:8:\n    Map item (key 'l') on line ov.yml:9:\n      Array item on line ov.yml:11:\n        Expected number of matched nodes to be 3, but was 2 (lines: base.yml:3, ov.yml:6)\n"
    );
    let docs = format!(
        "{LOAD}#@overlay/match by=overlay.subset({{\"kind\": \"A\"}})\n#@overlay/replace\n---\nkind: A\nnew: true\n#@overlay/match by=overlay.all, expects=1\n---\nx: 1\n"
    );
    assert_eq!(
        stderr_of(&[("base.yml", "kind: A\n---\nkind: B\n"), ("ov.yml", &docs)]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:8:\n    Expected number of matched nodes to be 1, but was 2 (lines: base.yml:2, ov.yml:4)\n"
    );
}
