//! YAML fragments (what a `def` with a YAML body returns) and node-level templating,
//! checked against ytt 0.48's `pkg/yamltemplate` (its evaluation context and
//! `StarlarkFragment`), `pkg/template` and `pkg/yamlmeta` (`Node.AddValue`): how a
//! fragment of each kind lands on a map item, an array item or a document, directly or
//! through `template.replace`, and the errors ytt gives when the kinds do not match.

use crate::support::ytt::{self, failure_of};

/// A def whose body is a set of documents, in a YAML template of its own.
const DOCS: &str = "#@ def docs():\n--- {a: 1}\n--- 2\n#@ end\n";

/// A document set fragment as the value of a document: `Document.AddValue` takes arrays,
/// maps and scalars only, and names the refused value with `TypeName` ("document set"),
/// as it does for map items and array items.
#[test]
fn a_document_set_fragment_as_a_document_value_is_refused() {
    let body = format!("{DOCS}--- #@ docs()\n");
    assert_eq!(
        failure_of(&[("t.yml", &body)], &["-f", "t.yml"]),
        "strake: error: \n\
- documents can only contain arrays, maps, or scalars; this is a document set\n    \
in <toplevel>\n      \
t.yml:5 | --- #@ docs()\n"
    );
}

/// `template.replace` on an array item takes a list or an array fragment only
/// (`convertValToArrayItems`); a document set fragment is refused with its Go type.
#[test]
fn template_replace_of_an_array_item_refuses_a_document_set() {
    let body = format!(
        "#@ load(\"@ytt:template\", \"template\")\n{DOCS}---\n- #@ template.replace(docs())\n"
    );
    assert_eq!(
        failure_of(&[("t.yml", &body)], &["-f", "t.yml"]),
        "strake: error: \n\
- template.replace: expected value to be array, but was *yamlmeta.DocumentSet\n    \
in <toplevel>\n      \
t.yml:7 | - #@ template.replace(docs())\n"
    );
}

/// A document set fragment still replaces a document, one document per item.
#[test]
fn template_replace_of_a_document_splices_a_document_set() {
    let body = format!(
        "#@ load(\"@ytt:template\", \"template\")\n{DOCS}--- first\n--- #@ template.replace(docs())\n--- last\n"
    );
    assert_eq!(
        ytt::render(&[("t.yml", &body)], &["-f", "t.yml"]).unwrap(),
        "first\n---\na: 1\n---\n2\n---\nlast\n"
    );
}

/// `json.encode` (and `toml.encode`) run ytt's `NewGoFromAST` on the converted value,
/// which panics on a document set fragment anywhere inside it; the builtin's wrapper
/// reports `(p) Unexpected docset value within document` with a Go backtrace, which
/// strake replaces by the reason. A map or array fragment encodes as its plain value.
#[test]
fn json_encode_of_a_document_set_fragment_fails_as_ytt_panics() {
    let body = format!(
        "#@ load(\"@ytt:json\", \"json\")\n{DOCS}---\nz: #@ json.encode({{\"a\": [docs()]}})\n"
    );
    assert_eq!(
        failure_of(&[("t.yml", &body)], &["-f", "t.yml"]),
        "strake: error: \n\
- (p) Unexpected docset value within document (a document set fragment cannot be encoded; ytt 0.48 panics here)\n    \
in <toplevel>\n      \
t.yml:7 | z: #@ json.encode({\"a\": [docs()]})\n"
    );
    let ok = "#@ load(\"@ytt:json\", \"json\")\n#@ def m():\na: 1\nb: [1, {c: 2}]\n#@ end\n---\nz: #@ json.encode([m(), m()[\"b\"]])\n";
    assert_eq!(
        ytt::render(&[("t.yml", ok)], &["-f", "t.yml"]).unwrap(),
        "z: '[{\"a\":1,\"b\":[1,{\"c\":2}]},[1,{\"c\":2}]]'\n"
    );
}

/// `overlay.apply` hands its left fragment's nodes to ytt's `Op.Apply`, which edits them
/// in place ("left is modified") and returns them: a variable holding the left fragment
/// sees the result afterwards, and a second apply on it starts from the first one's
/// result. A fresh call of the def gives fresh nodes.
#[test]
fn overlay_apply_edits_its_left_fragment_in_place() {
    let body = "#@ load(\"@ytt:overlay\", \"overlay\")\n\
#@ def base():\na: 1\n#@ end\n\
#@ def o1():\n#@overlay/match missing_ok=True\nb: 2\n#@ end\n\
#@ def o2():\n#@overlay/match missing_ok=True\nc: 3\n#@ end\n\
#@ f = base()\n\
#@ first = overlay.apply(f, o1())\n\
second: #@ overlay.apply(f, o2())\n\
f: #@ f\n\
first: #@ first\n\
fresh: #@ overlay.apply(base(), o2())\n";
    assert_eq!(
        ytt::render(&[("t.yml", body)], &["-f", "t.yml"]).unwrap(),
        "second:\n  a: 1\n  b: 2\n  c: 3\nf:\n  a: 1\n  b: 2\n  c: 3\nfirst:\n  a: 1\n  b: 2\n  c: 3\nfresh:\n  a: 1\n  c: 3\n"
    );
}

/// ytt's `extractMetas` knows five node-scoped keywords, not two: besides `if/end` and
/// `for/end`, `def/end NAME(...):` makes the node the whole body of a function (a
/// fragment, fresh at each call), and `elif/end COND:` / `else/end:` are the last
/// branch of an `if`, closed by the `end` ytt adds after the node.
#[test]
fn def_elif_and_else_node_sugar() {
    let def = "#@ def/end f(x):\na: #@ x\nb: #@ f(1)\nc: #@ f(2)\n";
    assert_eq!(
        ytt::render(&[("t.yml", def)], &["-f", "t.yml"]).unwrap(),
        "b:\n  a: 1\nc:\n  a: 2\n"
    );
    let branches = "#@ for v in [1, 2, 3]:\n#@ if v == 1:\n- one\n#@ elif/end v == 2:\n- two\n#@ end\n---\n#@ for v in [1, 2]:\n#@ if v == 1:\n- one\n#@ else/end:\n- other\n#@ end\n";
    assert_eq!(
        ytt::render(&[("t.yml", branches)], &["-f", "t.yml"]).unwrap(),
        "- one\n- two\n---\n- one\n- other\n"
    );
}

/// `template.replace` on a document takes any value ytt converts to a Go slice
/// (`convertValToDocSetItems`): a list, a tuple or a set, one document per item.
#[test]
fn template_replace_of_a_document_takes_a_set() {
    let body = "#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(set([1, \"a\"]))\n--- #@ template.replace((3,))\n";
    assert_eq!(
        ytt::render(&[("t.yml", body)], &["-f", "t.yml"]).unwrap(),
        "1\n---\na\n---\n3\n"
    );
}
