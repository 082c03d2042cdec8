//! A third sweep of the carvel.dev ytt v0.48 documentation: examples whose output (or
//! error) ytt 0.48 prints differently from what strake printed, pinned to the bytes ytt's
//! own (non-test) Go source produces.

use crate::support::ytt::{failure_of, render};

/// lang-ref-ytt-version: `version.require_at_least` names the ytt version that is too old,
/// behind the builtin's name as every `@ytt:` builtin error is (ytt's `ErrWrapper`).
#[test]
fn version_require_at_least_too_new_names_the_builtin() {
    let config =
        "#@ load(\"@ytt:version\", \"version\")\n#@ version.require_at_least(\"0.48.1\")\nk: v\n";
    assert_eq!(
        failure_of(&[("0-min-version.yml", config)], &["-f", "."]),
        "strake: error: \n\
- version.require_at_least: ytt version '0.48.0' does not meet the minimum required version '0.48.1'\n\
\x20   in <toplevel>\n\
\x20     0-min-version.yml:2 | #@ version.require_at_least(\"0.48.1\")\n"
    );
}

/// lang-ref-ytt-version: a version that is not full semver is refused with ytt's message,
/// which does not explain why.
#[test]
fn version_require_at_least_refuses_partial_versions_in_ytts_words() {
    let config = "#@ load(\"@ytt:version\", \"version\")\n#@ version.require_at_least(\"0.48\")\n";
    assert_eq!(
        failure_of(&[("check.yml", config)], &["-f", "."]),
        "strake: error: \n\
- version.require_at_least: version string '0.48' must be a valid semver\n\
\x20   in <toplevel>\n\
\x20     check.yml:2 | #@ version.require_at_least(\"0.48\")\n"
    );
}

/// lang-ref-ytt-version: build metadata takes no part in the comparison (ytt compares
/// with hashicorp/go-version), so 0.48.0 satisfies `0.48.0+anything`; a pre-release of
/// the same version is older.
#[test]
fn version_require_at_least_ignores_build_metadata() {
    let config = "#@ load(\"@ytt:version\", \"version\")\n\
a: #@ version.require_at_least(\"0.48.0+build.7\")\n\
b: #@ version.require_at_least(\"0.48.0-rc.1\")\n";
    assert_eq!(
        render(&[("check.yml", config)], &["-f", "."]).unwrap(),
        "a: null\nb: null\n"
    );
}

/// lang-ref-ytt-schema, `@schema/type`: "Error case when setting schema within an any type
/// fragment". Nodes inside an `any=True` node may not carry `@schema/nullable`, `type` or
/// `default`; the report lists them in that order, whatever their order in the file.
#[test]
fn schema_annotations_inside_an_any_type_fragment_are_refused() {
    let schema = "#@data/values-schema\n---\n#@schema/type any=True\napp_domains:\n  #@schema/default \"localhost\"\n  #@schema/type any=False\n  - \"carvel.dev\"\n";
    assert_eq!(
        failure_of(&[("schema.yml", schema)], &["-f", "."]),
        "strake: error: Overlaying data values schema (in following order: schema.yml): \n\
Invalid schema\n\
==============\n\
\n\
Schema was specified within an \"any type\" fragment\n\
schema.yml:\n\
\x20   |\n\
\x20 5 |   #@schema/default \"localhost\"\n\
\x20 6 |   #@schema/type any=False\n\
\x20 7 |   - \"carvel.dev\"\n\
\x20   |\n\
\n\
\x20   = found: @schema/type, @schema/default annotation(s)\n\
\x20   = expected: no '@schema/...' on nodes within a node annotated '@schema/type any=True'\n\
\x20   = hint: an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed\n"
    );
}

/// lang-ref-ytt-schema, `@schema/type`: the check reaches any depth below the `any=True`
/// node, while annotations that do not alter type or value (`@schema/desc`,
/// `@schema/validation`) stay allowed there.
#[test]
fn schema_annotations_deep_inside_an_any_type_fragment_are_refused() {
    let schema = "#@data/values-schema\n---\n#@schema/type any=True\nextra:\n  #@schema/desc \"fine\"\n  outer:\n    #@schema/nullable\n    inner: 1\n";
    let err = failure_of(&[("schema.yml", schema)], &["-f", "."]);
    assert!(
        err.contains(
            "  7 |     #@schema/nullable\n  8 |     inner: 1\n    |\n\n    = found: @schema/nullable annotation(s)\n"
        ),
        "{err}"
    );
    let allowed = "#@data/values-schema\n---\n#@schema/type any=True\nextra:\n  #@schema/desc \"fine\"\n  outer: 1\n";
    let config = "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values.extra\n";
    assert_eq!(
        render(
            &[("schema.yml", allowed), ("config.yml", config)],
            &["-f", "."]
        )
        .unwrap(),
        "v:\n  outer: 1\n"
    );
}
