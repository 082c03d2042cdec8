//! Constructs from the carvel.dev ytt documentation, reduced to their smallest form, where
//! ytt 0.48 prints something the rest of the suite does not pin down.

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

#[test]
fn str_of_a_yaml_fragment_names_the_go_type_of_its_node_not_its_contents() {
    let config = "\
#@ load(\"map.lib.yml\", \"m\")
#@ load(\"array.lib.yml\", \"a\")
#@ load(\"docs.lib.yml\", \"d\")
map: #@ str(m())
array: #@ \"{}\".format(a())
docs: #@ \"%s\" % d()
in_list: #@ str([m()])
";
    let files = [
        ("config.yml", config),
        ("map.lib.yml", "#@ def m():\nk: v\n#@ end\n"),
        ("array.lib.yml", "#@ def a():\n- 1\n#@ end\n"),
        ("docs.lib.yml", "#@ def d():\n--- 1\n#@ end\n"),
    ];
    assert_eq!(
        render(&files).unwrap(),
        "map: yamlfragment(*yamlmeta.Map)\narray: yamlfragment(*yamlmeta.Array)\n\
docs: yamlfragment(*yamlmeta.DocumentSet)\nin_list: '[yamlfragment(*yamlmeta.Map)]'\n"
    );
}
