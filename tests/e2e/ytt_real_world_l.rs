//! Constructs met while rendering another round of public ytt directories (an OpenAPI
//! expansion library, a Cloud Foundry on Kubernetes installer built from private
//! libraries, Educates bundles, Concourse/CircleCI-style YAML with anchors, Cartographer
//! supply-chain templates, CloudFormation-like documents), each reduced to a small case of
//! its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// go-yaml decodes an alias by decoding the anchored node again, so the copy's items carry
/// the same line numbers as the originals. ytt's `Parser.assignComments` then gives a
/// comment on a line of its own to the first node of the next line (the original) and an
/// inline comment to the last node of its own line (the copy): the `if` guards only the
/// original's `x`, and the inline value is set only on the copy's `host`.
#[test]
fn annotations_inside_an_anchor_split_between_original_and_alias() {
    let tpl = "base: &b\n  host: #@ \"h\"\n  #@ if False:\n  x: 1\n  #@ end\n  z: 3\ncopy: *b\n";
    assert_eq!(
        ytt::render(&[("a.yml", tpl)], &["-f", "a.yml"]).unwrap(),
        "base:\n  host: null\n  z: 3\ncopy:\n  host: h\n  x: 1\n  z: 3\n"
    );
}

/// Local tags (CloudFormation's `!Sub`, `!GetAtt`, `!Ref`, or any `!Custom`) are not
/// resolvable in go-yaml's `resolve`, which hands back the text as a string (a tagged
/// collection decodes as usual); standard tags convert (`!!float 1` is the float 1, printed
/// `1`; `!!int "42"` is 42; `!!str true` a string) and a `!!timestamp` stays the string it
/// was written as (`decoder.scalar` keeps the source text for timestamps).
#[test]
fn local_tags_are_dropped_and_standard_tags_convert() {
    let doc = "Resources:\n  B:\n    Name: !Sub \"${AWS::StackName}-b\"\n    Arn: !GetAtt [B, Arn]\n    Ref: !Ref 123\n    Tags: !Custom {a: 1}\n    F: !!float 1\n    I: !!int \"42\"\n    T: !!timestamp 2001-12-14\n    S: !!str true\n";
    assert_eq!(
        ytt::render(&[("cf.yml", doc)], &["-f", "cf.yml"]).unwrap(),
        "Resources:\n  B:\n    Name: ${AWS::StackName}-b\n    Arn:\n    - B\n    - Arn\n    Ref: \"123\"\n    Tags:\n      a: 1\n    F: 1\n    I: 42\n    T: \"2001-12-14\"\n    S: \"true\"\n"
    );
}

/// A struct is a mapping in ytt (`StarlarkStruct.Get`, `Iterate`, `Len`, `Items`), which
/// supply-chain templates lean on: a key with dots and slashes is read by index, tested with
/// `in` and `hasattr`, and `dict(struct)` copies its items in order; a missing key by index
/// fails as starlark-go's index operation words it.
#[test]
fn a_struct_indexes_and_iterates_like_a_mapping() {
    let tpl = "#@ load(\"@ytt:struct\", \"struct\")\n#@ s = struct.encode({\"app.io/id\": \"x\", \"b\": {\"q\": 2}})\na: #@ [s[\"app.io/id\"], \"app.io/id\" in s, \"no\" in s, hasattr(s, \"app.io/id\"), getattr(s, \"no\", \"d\"), dict(s), len(s), [k for k in s], s.b[\"q\"]]\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "a:\n- x\n- true\n- false\n- true\n- d\n- app.io/id: x\n  b:\n    q: 2\n- 2\n- - app.io/id\n  - b\n- 2\n"
    );
    let err = ytt::render(
        &[(
            "t.yml",
            "#@ load(\"@ytt:struct\", \"struct\")\na: #@ struct.encode({\"a\": 1})[\"missing\"]\n",
        )],
        &["-f", "t.yml"],
    )
    .unwrap_err();
    assert!(err.contains("key \"missing\" not in struct"), "{err}");
}

/// A struct takes only string keys: ytt's `StarlarkStruct.Get` turns the key into a
/// string with `AsString`, so indexing with another type fails with its error; `in`
/// ignores the error of a mapping's `Get` (starlark-go's `Binary`), so there such a
/// key is just not found.
#[test]
fn a_struct_indexed_with_a_non_string_key_fails_and_in_finds_nothing() {
    let tpl = |expr: &str| {
        format!(
            "#@ load(\"@ytt:struct\", \"struct\")\n#@ s = struct.encode({{\"a\": 1}})\n---\nx: #@ {expr}\n"
        )
    };
    assert_eq!(
        ytt::failure_of(&[("t.yml", &tpl("s[1]"))], &["-f", "t.yml"]),
        "strake: error: \n- expected a string, but was int\n    in <toplevel>\n      t.yml:4 | x: #@ s[1]\n"
    );
    for expr in ["1 in s", "None in s"] {
        assert_eq!(
            ytt::render(&[("t.yml", &tpl(expr))], &["-f", "t.yml"]).unwrap(),
            "x: false\n",
            "{expr}"
        );
    }
}
