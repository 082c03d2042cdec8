//! Behaviour quoted in ytt's GitHub issues (second round): templates whose output or
//! error real ytt printed, checked against strake.

use crate::support::ytt::failure_of;

/// carvel-dev/ytt#152 (and #23): a def body that starts with a map item and then opens a
/// second document climbs above the map it began under. ytt 0.48 cannot find the common
/// parent (the document set, node tag 1) on its node stack and panics; its error wrapper
/// reports the panic as `(p) ...` with a Go backtrace. strake keeps the first line and says
/// why in place of the backtrace; it used to drop the second document silently.
#[test]
fn a_def_body_that_opens_a_second_document_fails_as_ytt_panics() {
    let tpl = "\
#@ def twodoc_yaml():
doc1:
  key1: val1
---
doc2:
  key1: val1
#@ end

--- #@ twodoc_yaml()
";
    let err = failure_of(&[("test.yaml", tpl)], &["-f", "test.yaml"]);
    assert_eq!(
        err,
        "strake: error: \n\
- (p) expected to find node tag 1 when unwinding (reason: the function body opens a node \
outside the node it began under, as a second document after a map item does; ytt 0.48 \
panics here)\n    \
in twodoc_yaml\n      \
test.yaml:4 | ---\n    \
in <toplevel>\n      \
test.yaml:9 | --- #@ twodoc_yaml()\n"
    );
}

/// carvel-dev/ytt#19: a def whose body is a bare scalar document cannot be followed by a
/// map in the same YAML document; go-yaml reports the missing document start as a parser
/// error, naming the 0-based line of the offending token (which ytt passes on after its
/// `---` prefix correction): `line 4` for the key on line 5.
#[test]
fn a_map_after_a_scalar_document_names_go_yamls_line() {
    let tpl = "#@ def some_data():\n\"hello\"\n#@ end\n\nsimple_key: #@ some_data()\n";
    let err = failure_of(&[("a.yml", tpl)], &["-f", "a.yml"]);
    assert_eq!(
        err,
        "strake: error: Unmarshaling YAML template 'a.yml': yaml: line 4: did not find expected <document start>\n    \
in a.yml:5\n      \
a.yml:5 | simple_key: #@ some_data()\n"
    );
}
