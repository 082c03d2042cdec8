//! Behaviour quoted in ytt's GitHub issues (input and the output or error real ytt
//! printed), checked against strake.

use crate::support::ytt::{failure_of, render};

/// carvel-dev/ytt#57: with an explicit `? ` key the map item sits on the `?` line (go-yaml
/// marks an empty key at the end of the `?` token), so a template comment there sets the
/// item's value, while one on the `: ` line belongs to no node and is dropped.
#[test]
fn explicit_key_comments_attach_to_the_question_mark_line() {
    let tpl = "\
#! This works
? ac
: bd

#! But this does not (it gives ee:null not ee:fg)
? ee
: #@ 'f' + 'g'

#! Nor this (it gives null:ax not ax:bd)
? #@ 'a' + 'x'
: #@ 'b' + 'd'
";
    let out = render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap();
    assert_eq!(out, "ac: bd\nee: null\nnull: ax\n");
}

/// carvel-dev/ytt#57 (continued): a computed value on the `?` line of an empty key that
/// also has a YAML value is refused like any item with both.
#[test]
fn explicit_empty_key_with_code_and_value_is_refused() {
    let err = failure_of(&[("a.yml", "? #@ 'a' + 'x'\n: bd\n")], &["-f", "a.yml"]);
    assert!(
        err.contains(
            "Expected YAML node at line a.yml:1 to have either computed or YAML value, but found both"
        ),
        "{err}"
    );
}
