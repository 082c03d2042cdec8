//! Constructs seen in real public deploy directories (Carvel packages and other ytt
//! users), each reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

#[test]
fn make_and_bind_binds_functions_and_keeps_other_values_as_fields() {
    let helpers = "\
load(\"@ytt:struct\", \"struct\")
def _tags(self):
  return self.stack + \"-latest\"
end
def make(b):
  return struct.make_and_bind(b, tags=_tags, stack=b.stack, count=2)
end
";
    let tpl = "\
#@ load(\"@ytt:struct\", \"struct\")
#@ load(\"helpers.star\", \"make\")
#@ b = make(struct.make(stack=\"jammy\", name=\"b1\"))
stack: #@ b.stack
tags: #@ b.tags()
count: #@ b.count
has_name: #@ hasattr(b, \"name\")
";
    assert_eq!(
        render(&[("helpers.star", helpers), ("t.yml", tpl)]).unwrap(),
        "stack: jammy\ntags: jammy-latest\ncount: 2\nhas_name: false\n"
    );
}

#[test]
fn yaml_encode_of_a_document_set_prints_a_stream_of_its_documents() {
    let tpl = "\
#@ load(\"@ytt:yaml\", \"yaml\")
#@ def manifests():
---
kind: ConfigMap
---
---
kind: Secret
#@ end
#@ def single():
---
kind: Only
#@ end
---
many: #@ yaml.encode(manifests())
one: #@ yaml.encode(single())
";
    assert_eq!(
        render(&[("t.yml", tpl)]).unwrap(),
        "many: |\n  kind: ConfigMap\n  ---\n  kind: Secret\none: |\n  kind: Only\n"
    );
}
