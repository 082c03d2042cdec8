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
