//! Constructs met in real public deploy directories (a platform installer, cluster
//! templates and their packages) that the conformance corpus does not exercise, each
//! reduced to a small template written for this test, with the output ytt 0.48 gives.

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

/// `template.replace(...)` called as a statement on its own code line acts on the node
/// started last: here the empty document above it, which the library's documents take
/// the place of (an installer splices a library's output this way).
#[test]
fn template_replace_as_a_statement_replaces_the_node_started_last() {
    let lib = "\
kind: ConfigMap
name: from-lib
---
kind: Secret
name: also-from-lib
";
    let root = "\
#@ load(\"@ytt:library\", \"library\")
#@ load(\"@ytt:template\", \"template\")
#@ load(\"@ytt:overlay\", \"overlay\")
---
first: doc
---
  #@ template.replace(library.get(\"inner\").eval())

#@overlay/match by=overlay.subset({\"kind\": \"Secret\"})
---
name: patched
---
last: doc
";
    assert_eq!(
        render(&[("root.yml", root), ("_ytt_lib/inner/t.yml", lib)]).unwrap(),
        "first: doc\n---\nkind: ConfigMap\nname: from-lib\n---\nkind: Secret\nname: patched\n---\nlast: doc\n"
    );
}

/// The same statement after a map item replaces that item inside its map.
#[test]
fn template_replace_as_a_statement_after_a_map_item_replaces_that_item() {
    let src = "\
#@ load(\"@ytt:template\", \"template\")
outer:
  a: 1
  b: 2
#@ template.replace({\"x\": 10, \"z\": 20})
c: 3
";
    assert_eq!(
        render(&[("config.yml", src)]).unwrap(),
        "outer:\n  a: 1\n  x: 10\n  z: 20\nc: 3\n"
    );
}

/// `#@template/code` and `#@template/value`, the documented long forms of `#@ code` and
/// of a node's `#@ value`, including block statements.
#[test]
fn template_code_long_form_takes_statements_and_blocks() {
    let src = "\
#@template/code n = 5
a: #@template/value n + 1
#@template/code if n > 1:
b: big
#@template/code else:
b: small
#@template/code end
";
    assert_eq!(render(&[("config.yml", src)]).unwrap(), "a: 6\nb: big\n");
}

/// Annotations at the very end of a file, with no node after them, belong to the null
/// document ytt adds there: with `#@ if/end` they make an overlay that exists only when the
/// condition holds (a package removes resources behind a feature flag this way).
#[test]
fn trailing_annotations_make_an_overlay_of_the_injected_last_document() {
    let upstream = "\
kind: Crd
name: a
---
kind: Crd
name: b
---
kind: Other
";
    let overlay = "\
#@ load(\"@ytt:data\", \"data\")
#@ load(\"@ytt:overlay\", \"overlay\")

#@overlay/match by=overlay.subset({\"kind\": \"Crd\"}), expects=2
#@ if/end not data.values.keep:
#@overlay/remove

";
    let values = |keep: &str| format!("#@data/values\n---\nkeep: {keep}\n");
    let off = values("false");
    assert_eq!(
        render(&[("up.yml", upstream), ("ov.yml", overlay), ("v.yml", &off)]).unwrap(),
        "kind: Other\n"
    );
    let on = values("true");
    assert_eq!(
        render(&[("up.yml", upstream), ("ov.yml", overlay), ("v.yml", &on)]).unwrap(),
        "kind: Crd\nname: a\n---\nkind: Crd\nname: b\n---\nkind: Other\n"
    );
}

/// `yaml.encode` of a document set (a function whose body has `---`, or what
/// `overlay.apply` returns) prints a YAML stream, `---` between the documents and null
/// documents left out, as ytt prints its output: cluster templates put several resources
/// into one Secret value this way.
#[test]
fn yaml_encode_of_a_document_set_prints_a_document_stream() {
    let src = "\
#@ load(\"@ytt:yaml\", \"yaml\")
#@ load(\"@ytt:overlay\", \"overlay\")
#@ def resources():
---
kind: Namespace
name: ns
---
kind: Role
rules:
- verbs: [get]
#@ end
#@ def label():
#@overlay/match by=overlay.all, expects=\"1+\"
---
#@overlay/match missing_ok=True
owner: me
#@ end
#@ def one():
---
---
kind: Only
#@ end
---
kind: Secret
stringData:
  value: #@ yaml.encode(overlay.apply(resources(), label()))
  single: #@ yaml.encode(one())
";
    assert_eq!(
        render(&[("config.yml", src)]).unwrap(),
        "kind: Secret\nstringData:\n  value: |\n    kind: Namespace\n    name: ns\n    owner: me\n    ---\n    kind: Role\n    rules:\n    - verbs:\n      - get\n    owner: me\n  single: |\n    kind: Only\n"
    );
}

/// A file that starts with a `%YAML` (or `%TAG`) directive, as some generated manifests
/// do: ytt's parser takes the directive before the first `---`, so the file renders.
#[test]
fn leading_yaml_directive_is_accepted() {
    let src = "#! generated\n%YAML 1.1\n---\n#@ n = 2\nreplicas: #@ n\n";
    assert_eq!(render(&[("config.yml", src)]).unwrap(), "replicas: 2\n");
}
