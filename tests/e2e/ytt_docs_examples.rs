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

#[test]
fn ytt_modules_are_modules_and_built_in_values_keep_their_ytt_types() {
    let config = "\
#@ load(\"@ytt:struct\", \"struct\")
#@ load(\"@ytt:overlay\", \"overlay\")
#@ load(\"@ytt:assert\", \"assert\")
#@ load(\"@ytt:ip\", \"ip\")
#@ addr, net = ip.parse_cidr(\"10.1.2.3/8\")
module: #@ [str(struct), type(overlay)]
matchers: #@ [str(overlay.subset({})), str(overlay.all), type(overlay.map_key(\"k\"))]
assertion: #@ [str(assert.min(1)), type(assert.min(1))]
ip: #@ [str(addr), type(addr), type(net), net.string()]
";
    assert_eq!(
        render(&[("config.yml", config)]).unwrap(),
        "module:\n- <module \"struct\">\n- module\nmatchers:\n\
- <built-in function overlay.subset_matcher>\n- <built-in function overlay.all>\n\
- builtin_function_or_method\nassertion:\n- struct(...)\n- '@ytt:assert.assertion'\n\
ip:\n- struct(...)\n- '@ytt:ip.addr'\n- '@ytt:ip.net'\n- 10.0.0.0/8\n"
    );
}

#[test]
fn a_missing_module_member_is_reported_on_the_module() {
    let config = "#@ load(\"@ytt:math\", \"math\")\nv: #@ math.abs(-1)\n";
    let err = render(&[("config.yml", config)]).unwrap_err();
    assert!(err.contains("module has no .abs field or method"), "{err}");
}

#[test]
fn a_module_is_not_a_map_unlike_a_struct() {
    for (expr, error) in [
        (
            "json[\"encode\"]",
            "unhandled index operation module[string]",
        ),
        ("len(json)", "len: value of type module has no len"),
        ("\"encode\" in json", "unknown binary op: string in module"),
        ("[k for k in json]", "module value is not iterable"),
    ] {
        let config = format!("#@ load(\"@ytt:json\", \"json\")\nv: #@ {expr}\n");
        let err = render(&[("config.yml", &config)]).unwrap_err();
        assert!(err.contains(error), "{expr}: {err}");
    }
    // A struct still is, as ytt allows for data values.
    let config = "#@ load(\"@ytt:struct\", \"struct\")\n#@ s = struct.make(a=1)\nv: #@ [len(s), \"a\" in s, s[\"a\"], [k for k in s]]\n";
    assert_eq!(
        render(&[("config.yml", config)]).unwrap(),
        "v:\n- 1\n- true\n- 1\n- - a\n"
    );
}

#[test]
fn ip_and_url_values_refuse_to_become_yaml_with_ytt_hint() {
    let cases = [
        (
            "#@ load(\"@ytt:ip\", \"ip\")\nv: #@ ip.parse_addr(\"::1\")\n",
            "Unable to convert value: @ytt:ip.addr does not automatically encode (hint: use .string())",
        ),
        (
            "#@ load(\"@ytt:ip\", \"ip\")\nv: #@ ip.parse_cidr(\"::1/64\")[1]\n",
            "Unable to convert value: @ytt:ip.net does not automatically encode (hint: use .string())",
        ),
        (
            "#@ load(\"@ytt:url\", \"url\")\nv: #@ url.parse(\"http://x\")\n",
            "Unable to convert value: @ytt:url.value does not automatically encode (hint: use .string())",
        ),
        (
            "#@ load(\"@ytt:url\", \"url\")\nv: #@ url.parse(\"http://u:p@x\").user\n",
            "Unable to convert value: @ytt:url.user does not automatically encode (hint: use .string())",
        ),
        (
            "#@ load(\"@ytt:json\", \"json\")\nv: #@ json\n",
            "unknown type *starlarkstruct.Module for conversion to go value",
        ),
    ];
    for (config, want) in cases {
        let err = render(&[("config.yml", config)]).unwrap_err();
        assert!(err.contains(want), "{config}: {err}");
    }
}

#[test]
fn a_private_library_instance_is_a_module_named_library() {
    let config = "\
#@ load(\"@ytt:library\", \"library\")
#@ app = library.get(\"app\")
- #@ str(library)
- #@ str(app)
- #@ type(app.with_data_values({}))
";
    let files = [
        ("config.yml", config),
        ("_ytt_lib/app/config.yml", "a: 1\n"),
    ];
    assert_eq!(
        render(&files).unwrap(),
        "- <module \"library\">\n- <module \"library\">\n- module\n"
    );
    let as_yaml = "#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"app\")\n";
    let err = render(&[
        ("config.yml", as_yaml),
        ("_ytt_lib/app/config.yml", "a: 1\n"),
    ])
    .unwrap_err();
    assert!(
        err.contains("unknown type *starlarkstruct.Module for conversion to go value"),
        "{err}"
    );
}

#[test]
fn strict_mode_takes_only_ytt_strict_numbers_unquoted() {
    let strict = |body: &str| ytt::render(&[("config.yml", body)], &["-f", ".", "--strict"]);
    assert_eq!(
        strict("a: -0.25\nb: 1e3\nc: 0\n").unwrap(),
        "a: -0.25\nb: 1000\nc: 0\n"
    );
    for (plain, kind) in [("+1", "int"), ("2.", "float"), (".5", "float")] {
        let err = strict(&format!("a: {plain}\n")).unwrap_err();
        let want = format!("Found '{plain}' ambigious (could be !!str or !!{kind})");
        assert!(err.contains(&want), "{plain}: {err}");
    }
}

#[test]
fn json_and_toml_encode_name_themselves_when_a_value_cannot_be_encoded() {
    for module in ["json", "toml"] {
        let config = format!(
            "#@ load(\"@ytt:{module}\", \"{module}\")\n#@ load(\"@ytt:ip\", \"ip\")\n\
v: #@ {module}.encode({{\"a\": ip.parse_addr(\"::1\")}})\n"
        );
        let err = render(&[("config.yml", &config)]).unwrap_err();
        let want = format!(
            "{module}.encode: Unable to convert value: @ytt:ip.addr does not automatically encode"
        );
        assert!(err.contains(&want), "{err}");
    }
}

#[test]
fn string_arguments_of_hashes_and_regexp_are_checked_naming_the_type_given() {
    let cases = [
        (
            "md5",
            "md5.sum(1)",
            "md5.sum: expected a string, but was int",
        ),
        (
            "sha256",
            "sha256.sum([])",
            "sha256.sum: expected a string, but was list",
        ),
        (
            "regexp",
            "regexp.match(\"a\", None)",
            "regexp.match: expected a string, but was NoneType",
        ),
        (
            "regexp",
            "regexp.replace(1, \"a\", \"b\")",
            "regexp.replace: expected a string, but was int",
        ),
    ];
    for (module, call, want) in cases {
        let config = format!("#@ load(\"@ytt:{module}\", \"{module}\")\nv: #@ {call}\n");
        let err = render(&[("config.yml", &config)]).unwrap_err();
        assert!(err.contains(want), "{call}: {err}");
    }
}

#[test]
fn struct_url_and_overlay_built_ins_name_themselves_when_a_value_cannot_be_converted() {
    let header = "\
#@ load(\"@ytt:ip\", \"ip\")
#@ load(\"@ytt:struct\", \"struct\")
#@ load(\"@ytt:url\", \"url\")
#@ load(\"@ytt:overlay\", \"overlay\")
#@ a = ip.parse_addr(\"::1\")
";
    for (call, name) in [
        ("struct.encode({\"k\": a})", "struct.encode"),
        (
            "url.query_params_encode({\"k\": [a]})",
            "url.query_params_encode",
        ),
        ("overlay.apply({\"k\": a}, {})", "overlay.apply"),
    ] {
        let config = format!("{header}v: #@ {call}\n");
        let err = render(&[("config.yml", &config)]).unwrap_err();
        let want =
            format!("{name}: Unable to convert value: @ytt:ip.addr does not automatically encode");
        assert!(err.contains(&want), "{call}: {err}");
    }
}
