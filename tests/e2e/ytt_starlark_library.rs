//! The library of the Starlark that ytt 0.48 embeds (the fork k14s/starlark-go): string,
//! list and dict methods and the built-ins of `library.go`, the `%` operator of
//! `eval.go` and the hash table of `hashtable.go`, as templates see them. Partial
//! effects of a failed call are observed through `assert.try_to`, which returns the
//! error's message instead of stopping the template.

use crate::support::ytt;

/// The stdout of a template whose last line is `x: #@ EXPR`, after `setup` lines
/// (each prefixed with `#@ `), with `@ytt:assert` loaded.
fn render_after(setup: &[&str], expr: &str) -> String {
    let mut t = String::from("#@ load(\"@ytt:assert\", \"assert\")\n");
    for line in setup {
        t.push_str(&format!("#@ {line}\n"));
    }
    t.push_str(&format!("x: #@ {expr}\n"));
    ytt::render(&[("config.yml", &t)], &["-f", "."]).unwrap()
}

/// `dict.update` sets entries one at a time (starlark-go's `updateDict` calls `SetKey`
/// for each pair as it goes), so the pairs before a failing element stay in the dict:
/// an element that is not a pair, an unhashable key, and keyword arguments given twice
/// (that check runs after all keyword entries were set, so the last value stays).
#[test]
fn a_failed_dict_update_keeps_the_entries_set_before_the_failure() {
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update([(\"b\", 2), 3, (\"c\", 4)]))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 1, \"b\": 2}, (None, \"update: dictionary update sequence element #1 is not iterable (int)\")]'\n"
    );
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update([(\"b\", 2), ([], 3), (\"c\", 4)]))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 1, \"b\": 2}, (None, \"update: unhashable type: list\")]'\n"
    );
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update({\"z\": 0}, a=5, **{\"a\": 6}))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 6, \"z\": 0}, (None, \"update: duplicate keyword arg: \\\"a\\\"\")]'\n"
    );
    // Updating a dict from itself reads a copy of its items.
    assert_eq!(
        render_after(&["d = {\"a\": 1}", "d.update(d, b=2)"], "repr(d)"),
        "x: '{\"a\": 1, \"b\": 2}'\n"
    );
}

/// starlark-go's hash table allocates its buckets at the first insertion (even one whose
/// key then fails to hash) and `delete` on a table without buckets reports "not found"
/// before hashing the key: `pop` of an unhashable key from a dict never written to is
/// "missing key" (or the default), while `get` hashes first and a cleared dict keeps
/// its buckets.
#[test]
fn popping_an_unhashable_key_from_a_dict_never_written_to_is_a_missing_key() {
    ytt::assert_top_level_failure("{}.pop([])", "pop: missing key");
    ytt::assert_top_level_failure("dict().pop({})", "pop: missing key");
    ytt::assert_top_level_failure("{k: 1 for k in []}.pop([])", "pop: missing key");
    assert_eq!(render_after(&[], "{}.pop([], 7)"), "x: 7\n");
    ytt::assert_top_level_failure("{}.get([])", "get: unhashable type: list");
    ytt::assert_top_level_failure("{\"a\": 1}.pop([])", "pop: unhashable type: list");
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "d.clear()",
                "e = {}",
                "r1 = assert.try_to(lambda: e.update([([], 1)]))",
            ],
            "repr([assert.try_to(lambda: d.pop([])), assert.try_to(lambda: e.pop([])), e])"
        ),
        "x: '[(None, \"pop: unhashable type: list\"), (None, \"pop: unhashable type: list\"), {}]'\n"
    );
}

/// starlark-go's `interpolate` reads the conversion after `%(key)` like any other, so
/// `%` there prints a percent sign; an unknown conversion is named by its first byte
/// printed as a rune (`%c` of a byte), so a multi-byte character shows its Latin-1
/// reading.
#[test]
fn percent_conversions_after_a_key_and_unknown_multibyte_ones() {
    assert_eq!(
        render_after(&[], "\"%(a)% %(a)s\" % {\"a\": 1}"),
        "x: '% 1'\n"
    );
    ytt::assert_top_level_failure("\"%é\" % 1", "unknown conversion %Ã");
}
