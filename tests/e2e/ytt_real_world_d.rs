//! More constructs seen in real public deploy directories (Carvel package installers,
//! community packages, ytt issue reports), each reduced to a small case of its own: what
//! ytt 0.48 prints for them.

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

#[test]
fn a_library_data_value_made_in_memory_reports_its_line_as_unknown() {
    let tpl = "\
#@ load(\"@ytt:library\", \"library\")
#@ load(\"@ytt:template\", \"template\")
--- #@ template.replace(library.get(\"lib\").with_data_values({\"extra\": 1}).eval())
";
    let lib_values = "#@data/values\n---\nknown: 0\n";
    let lib_tpl = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values.known\n";
    let err = render(&[
        ("config.yml", tpl),
        ("_ytt_lib/lib/values.yml", lib_values),
        ("_ytt_lib/lib/t.yml", lib_tpl),
    ])
    .unwrap_err();
    assert!(
        err.contains(
            "Map item (key 'extra') on line ?: Expected number of matched nodes to be 1, but was 0"
        ),
        "{err}"
    );
    assert!(!err.contains(":0"), "{err}");
}

#[test]
fn data_list_walks_a_directory_depth_first_with_names_relative_to_it() {
    let tpl = "\
#@ load(\"@ytt:data\", \"data\")
all: #@ data.list()
conf: #@ data.list(\"conf\")
conf_from_root: #@ data.list(\"/conf\")
";
    let files = [
        ("config.yml", tpl),
        ("conf/b.json", "{}"),
        ("conf/deep/c.json", "{}"),
        ("conf/z.json", "{}"),
        ("more/d.json", "{}"),
        ("_ytt_lib/lib/e.json", "{}"),
    ];
    assert_eq!(
        render(&files).unwrap(),
        "\
all:
- config.yml
- conf/b.json
- conf/z.json
- conf/deep/c.json
- more/d.json
conf:
- b.json
- z.json
- deep/c.json
conf_from_root:
- /b.json
- /z.json
- /deep/c.json
"
    );
}

#[test]
fn data_list_of_a_directory_that_does_not_exist_fails() {
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nfiles: #@ data.list(\"missing\")\n";
    let err = render(&[("config.yml", tpl)]).unwrap_err();
    assert!(err.contains("Did not find ''"), "{err}");
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nfiles: #@ data.list(\"_ytt_lib\")\n";
    let err = render(&[("config.yml", tpl), ("_ytt_lib/l/a.yml", "a: 1\n")]).unwrap_err();
    assert!(
        err.contains("Encountered private library '_ytt_lib'"),
        "{err}"
    );
}

#[test]
fn template_replace_of_a_fragment_key_given_earlier_needs_the_override_annotation() {
    let tpl = "\
#@ load(\"@ytt:template\", \"template\")
#@ def extra():
a: 8
d: 4
#@ end
#@ def forced():
#@yaml/map-key-override
a: 8
#@ end
labels:
  a: 1
  b: 2
  _: #@ template.replace(extra())
";
    let err = render(&[("config.yml", tpl)]).unwrap_err();
    assert!(
        err.contains(
            "expected key 'a' to not be specified again (unless 'yaml/map-key-override' annotation is added)"
        ),
        "{err}"
    );
    let forced = tpl.replace("replace(extra())", "replace(forced())");
    assert_eq!(
        render(&[("config.yml", &forced)]).unwrap(),
        "labels:\n  b: 2\n  a: 8\n"
    );
    let implicit = ytt::render(
        &[("config.yml", tpl)],
        &["-f", ".", "--implicit-map-key-overrides"],
    )
    .unwrap();
    assert_eq!(implicit, "labels:\n  b: 2\n  a: 8\n  d: 4\n");
}

#[test]
fn template_replace_of_a_dict_overrides_earlier_keys_but_not_its_own_placeholder() {
    let tpl = "\
#@ load(\"@ytt:template\", \"template\")
labels:
  a: 1
  b: 2
  _: #@ template.replace({\"a\": 9, \"c\": 3})
  z: 0
";
    assert_eq!(
        render(&[("config.yml", tpl)]).unwrap(),
        "labels:\n  b: 2\n  a: 9\n  c: 3\n  z: 0\n"
    );
    let own = "#@ load(\"@ytt:template\", \"template\")\n_: #@ template.replace({\"_\": \"1\"})\n";
    let err = render(&[("config.yml", own)]).unwrap_err();
    assert!(
        err.contains("expected to find placeholder map item in map"),
        "{err}"
    );
}

#[test]
fn in_on_an_array_fragment_looks_up_an_index_not_a_value() {
    let items = "#@ def items():\n- podsecuritypolicies\n- configmaps\n#@ end\n";
    let one = "#@ def one():\nk: v\n#@ end\n";
    let tpl = "\
#@ load(\"items.lib.yml\", \"items\")
#@ load(\"one.lib.yml\", \"one\")
string_in_array: #@ \"configmaps\" in items()
index_in_array: #@ 1 in items()
index_past_end: #@ 2 in items()
key_in_map: #@ \"k\" in one()
value_in_map: #@ \"v\" in one()
";
    assert_eq!(
        render(&[
            ("items.lib.yml", items),
            ("one.lib.yml", one),
            ("config.yml", tpl)
        ])
        .unwrap(),
        "string_in_array: false\nindex_in_array: true\nindex_past_end: false\nkey_in_map: true\nvalue_in_map: false\n"
    );
    let overlay = "\
rules:
- resources:
  - podsecuritypolicies
- resources:
  - configmaps
#@overlay/match by=lambda _,__,___: True
---
rules:
#@overlay/match by=lambda _,l,r: \"podsecuritypolicies\" in l[\"resources\"]
#@overlay/replace
- resources:
  - pods
";
    let err = render(&[("rules.yml", overlay)]).unwrap_err();
    assert!(
        err.contains("Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
}

#[test]
fn a_document_overlay_matched_by_a_key_name_is_refused() {
    let base = "kind: Deployment\n";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=\"kind\"
---
kind: Deployment
";
    let err = render(&[("a.yml", base), ("b.yml", overlay)]).unwrap_err();
    assert!(
        err.contains(
            "Expected 'overlay/match' annotation keyword argument 'by' to be function, but was starlark.String"
        ),
        "{err}"
    );
}

#[test]
fn assigning_into_a_fragment_is_refused_as_ytt_refuses_it() {
    let lib = "#@ def rules():\n- alert: A\n  severity: low\n#@ end\n";
    let tpl = "\
#@ load(\"rules.lib.yml\", \"rules\")
#@ r = rules()
#@ r[0][\"severity\"] = \"high\"
out: #@ r
";
    let err = render(&[("rules.lib.yml", lib), ("config.yml", tpl)]).unwrap_err();
    assert!(
        err.contains("yamlfragment.SetKey: Not implemented"),
        "{err}"
    );
}

#[test]
fn data_values_annotation_on_a_map_item_is_refused() {
    let values = "#@data/values\nname: x\n";
    let err = render(&[("values.yml", values)]).unwrap_err();
    assert!(
        err.contains(
            "Found @data/values on map item (values.yml:2); only documents (---) can be annotated with @data/values"
        ),
        "{err}"
    );
    assert!(err.contains("values.yml:2"), "{err}");
    let schema = "#@data/values-schema\n---\na:\n  #@data/values-schema\n  b: 1\n";
    let err = render(&[("schema.yml", schema)]).unwrap_err();
    assert!(
        err.contains(
            "Found @data/values-schema on map item (schema.yml:5); only documents (---) can be annotated with @data/values-schema"
        ),
        "{err}"
    );
}

#[test]
fn data_values_annotation_given_twice_on_a_document_is_refused() {
    let values = "#@data/values\n#@data/values\n---\nname: x\n";
    let err = render(&[("values.yml", values)]).unwrap_err();
    assert!(
        err.contains("data/values annotation may only be used once per document"),
        "{err}"
    );
}

#[test]
fn data_values_can_be_inspected_without_any_template_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("values.yml"), "foo: 13\nbar: [a]\n").unwrap();
    let opts = strake::cli::template::parse_options(&[
        "--data-values-file",
        "values.yml",
        "--data-values-inspect",
    ])
    .unwrap();
    let out = strake::ytt::run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "foo: 13\nbar:\n- a\n"
    );
    let opts = strake::cli::template::parse_options::<&str>(&[]).unwrap();
    let out = strake::ytt::run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    assert_eq!(out.stdout, b"");
}

#[test]
fn toml_encode_writes_nested_tables_and_arrays_of_tables_as_the_go_encoder() {
    let tpl = "\
#@ load(\"@ytt:toml\", \"toml\")
nested: #@ toml.encode({\"m\": {\"k\": \"v\", \"skip\": None, \"n\": {\"x\": 1}}, \"o\": {\"p\": 1}})
tables: #@ toml.encode({\"z\": 1, \"a\": [{\"x\": 1}, {\"x\": 2}]})
indented: #@ toml.encode({\"a\": {\"b\": 1}}, indent=4)
";
    assert_eq!(
        render(&[("config.yml", tpl)]).unwrap(),
        "\
nested: |
  [m]
    k = \"v\"
    [m.n]
      x = 1

  [o]
    p = 1
tables: |
  z = 1

  [[a]]
    x = 1

  [[a]]
    x = 2
indented: |
  [a]
      b = 1
"
    );
    let err = render(&[(
        "config.yml",
        "#@ load(\"@ytt:toml\", \"toml\")\nx: #@ toml.encode({\"a\": 1}, indent=9)\n",
    )])
    .unwrap_err();
    assert!(
        err.contains("indent value must be between 0 and 8"),
        "{err}"
    );
}
