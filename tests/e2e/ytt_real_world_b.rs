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
