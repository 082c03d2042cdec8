//! Examples from the carvel.dev ytt FAQ and language reference pages (lang-ref-*, yaml-primer)
//! whose ytt 0.48 output follows from how ytt's parser places comments and merges keys,
//! and which the conformance corpus does not pin down.

use crate::support::ytt::render;

/// FAQ "Why is my anchor reference null despite my anchor's successful template?": an
/// alias copies the anchored node as parsed, before templating; a value annotation on the
/// anchor's line belongs to the anchored node, so the alias stays null. For a nested item,
/// the alias's copy shares the item's line and, being the last node on that line, owns the
/// inline annotation.
#[test]
fn anchors_alias_the_untemplated_node_and_inline_annotations_go_to_the_last_node_on_a_line() {
    let config = "a: &anc #@ \"templated\"\nb: *anc\nc: &c2\n  k: #@ 1+1\nd: *c2\n";
    assert_eq!(
        render(&[("config.yml", config)], &["-f", "."]).unwrap(),
        "a: templated\nb: null\nc:\n  k: null\nd:\n  k: 2\n"
    );
}

/// A plain YAML file's repeated key keeps the first key's place with the last value,
/// while `@yaml/map-key-override` in a template moves the key to the end.
#[test]
fn repeated_keys_keep_their_place_in_plain_yaml_and_move_to_the_end_in_templates() {
    let plain = "a: 1\nb: 2\na: 3\n";
    let templated = "#@ x = 1\na: 1\nb: 2\n#@yaml/map-key-override\na: 3\n";
    assert_eq!(
        render(&[("plain.yml", plain)], &["-f", "."]).unwrap(),
        "a: 3\nb: 2\n"
    );
    assert_eq!(
        render(&[("templated.yml", templated)], &["-f", "."]).unwrap(),
        "b: 2\na: 3\n"
    );
}
