//! Constructs met while rendering another round of public ytt directories (the TKG
//! provider templates with their Starlark helpers and ClusterClass overlays, the UAA
//! Kubernetes templates, library compositions with aliases), each reduced to a small
//! case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// ytt's `ProgramAST.function` gives a def a template context (start_ctx at its top, an
/// end_ctx return at its bottom) only when its body starts or sets a YAML node. A def in
/// a YAML template whose body is code alone (a chain of `if ... return` with no node) is
/// a plain Starlark function: when no branch returns, it returns None, not an empty
/// yamlfragment, and None becomes null (or nothing, for `yaml.encode`).
#[test]
fn a_def_of_code_alone_returns_none_when_no_branch_returns() {
    let tpl = "\
#@ load(\"@ytt:yaml\", \"yaml\")
#@ def name(p):

#@ if p == \"aws\":
#@   return \"tkg-aws\"
#@ end

#@ end

---
a: #@ name(\"aws\")
b: #@ name(\"oci\")
t: #@ type(name(\"oci\"))
e: #@ yaml.encode(name(\"oci\"))
is_none: #@ name(\"oci\") == None
";
    let out = ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap();
    assert_eq!(
        out,
        "a: tkg-aws\nb: null\nt: NoneType\ne: \"\"\nis_none: true\n"
    );
}

/// Annotations written on the lines before a `#@ if` belong to the next node, the map
/// item inside the `if` block: here `@overlay/match missing_ok=True` lets the overlay
/// add the label and `@yaml/text-templated-strings` builds its key. When the `if` is
/// false the annotations go with the skipped node and the next item is matched as usual.
#[test]
fn annotations_before_an_if_line_belong_to_the_map_item_inside_it() {
    let base = "kind: Cluster\nmetadata:\n  labels:\n    name: old\n";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ load(\"@ytt:data\", \"data\")
#@overlay/match by=overlay.subset({\"kind\": \"Cluster\"})
---
metadata:
  labels:
    #@overlay/match missing_ok=True
    #@yaml/text-templated-strings
    #@ if data.values.role != \"workload\":
    role.example.com/(@= data.values.role @): \"\"
    #@ end
    name: #@ data.values.name
";
    let values = "#@data/values\n---\nrole: management\nname: c1\n";
    let files = [("base.yml", base), ("ov.yml", overlay), ("v.yml", values)];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: Cluster\nmetadata:\n  labels:\n    name: c1\n    role.example.com/management: \"\"\n"
    );
    assert_eq!(
        ytt::render(&files, &["-f", ".", "-v", "role=workload"]).unwrap(),
        "kind: Cluster\nmetadata:\n  labels:\n    name: c1\n"
    );
}

/// In a `.star` file blocks close with `end` and indentation does not matter, so a def
/// body may be a `return` of a multi-line dict written from column 0 after a blank line.
/// `data.values[key]` indexes the values struct by a computed name and `continue` skips
/// to the next key; keys come in the dict's order.
#[test]
fn a_star_def_may_return_a_dict_written_from_column_zero() {
    let star = "\
load(\"@ytt:data\", \"data\")

def association():

return {
\"A\": [\"vsphere\", \"aws\"],

\"B\": [\"aws\"],
\"C\": [\"vsphere\"],
}

end

def cluster_variables():
    vars = {}
    kvs = association()
    for name in kvs:
        if data.values.PROVIDER in kvs[name]:
            if data.values[name] != None:
                vars[name] = data.values[name]
            else:
                continue
            end
            if name == \"A\":
                vars[\"host\"] = vars[name].split(\"/\")[0]
            end
        end
    end
    return vars
end
";
    let values = "#@data/values\n---\nPROVIDER: vsphere\nA: reg.io/a/b\nB: 1\nC: null\n";
    let tpl =
        "#@ load(\"/lib/vars.star\", \"cluster_variables\")\n---\nv: #@ cluster_variables()\n";
    let files = [("lib/vars.star", star), ("v.yml", values), ("t.yml", tpl)];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "v:\n  A: reg.io/a/b\n  host: reg.io\n"
    );
}

/// ytt's `libraryValue.WithDataValues` copies the library's path and alias into the new
/// value, so data values given for `@~alias` apply to every library value derived from
/// `library.get(..., alias=...)` by `with_data_values`, below the values passed in code;
/// `data_values()` returns the merged values as a struct.
#[test]
fn an_alias_is_kept_by_with_data_values() {
    let files = [
        (
            "_ytt_lib/app/schema.yml",
            "#@data/values-schema\n---\nname: app\nreplicas: 1\nimage: \"\"\n",
        ),
        (
            "_ytt_lib/app/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nreplicas: #@ data.values.replicas\nimage: #@ data.values.image\n",
        ),
        (
            "main.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ load(\"@ytt:struct\", \"struct\")\n#@ app = library.get(\"app\", alias=\"a1\")\n#@ two = app.with_data_values({\"name\": \"two\"})\n--- #@ template.replace(app.eval())\n--- #@ template.replace(two.with_data_values({\"replicas\": 3}).eval())\n---\ndv: #@ struct.decode(two.data_values())\n",
        ),
        (
            "libvals.yml",
            "#@library/ref \"@~a1\"\n#@data/values\n---\nimage: img\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "name: app\nreplicas: 1\nimage: img\n---\nname: two\nreplicas: 3\nimage: img\n---\ndv:\n  name: two\n  replicas: 1\n  image: img\n"
    );
}

/// ytt's url.go gives a parsed URL and its user info types of their own
/// (`URLValue.Type` is `@ytt:url.value`, `URLUser.Type` is `@ytt:url.user`): `type()`
/// says so, a missing attribute is reported against that type by Starlark (with the
/// nearest attribute name as a hint, as the fork's `getAttr` gives it), and each
/// refuses to become YAML with its `ConversionHint`.
#[test]
fn url_values_have_ytt_type_names() {
    let tpl = "\
#@ load(\"@ytt:url\", \"url\")
#@ u = url.parse(\"https://user:pw@host:8080/p?q=1\")
t: #@ [type(u), type(u.user)]
s: #@ u.without_user().string()
";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "t:\n- '@ytt:url.value'\n- '@ytt:url.user'\ns: https://host:8080/p?q=1\n"
    );
    let missing =
        "#@ load(\"@ytt:url\", \"url\")\nx: #@ url.parse(\"http://h\").without_user_info()\n";
    assert_eq!(
        ytt::run_binary(&[("t.yml", missing)], &["-f", "."]).2,
        "strake: error: \n- @ytt:url.value has no .without_user_info field or method (did you mean .without_user?)\n    in <toplevel>\n      t.yml:2 | x: #@ url.parse(\"http://h\").without_user_info()\n"
    );
    let user = "#@ load(\"@ytt:url\", \"url\")\nx: #@ url.parse(\"http://u@h\").user\n";
    assert_eq!(
        ytt::run_binary(&[("t.yml", user)], &["-f", "."]).2,
        "strake: error: \n- Unable to convert value: @ytt:url.user does not automatically encode (hint: use .string())\n    in <toplevel>\n      t.yml:2 | x: #@ url.parse(\"http://u@h\").user\n"
    );
}

/// ip.go names the methods of its values `ip.addr.is_ipv4`, `ip.addr.is_ipv6`,
/// `ip.addr.string`, `ip.net.addr` and `ip.net.string` (that is how they print), and each
/// refuses positional arguments with "expected no argument" under that name.
#[test]
fn ip_value_methods_carry_ytt_names_and_take_no_argument() {
    let tpl = "\
#@ load(\"@ytt:ip\", \"ip\")
#@ a, n = ip.parse_cidr(\"10.1.2.3/16\")
m: #@ [str(a.is_ipv4), str(a.string), str(n.addr), str(n.string)]
v: #@ [a.is_ipv6(), n.addr().string(), n.string()]
";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "m:\n- <built-in function ip.addr.is_ipv4>\n- <built-in function ip.addr.string>\n- <built-in function ip.net.addr>\n- <built-in function ip.net.string>\nv:\n- false\n- 10.1.0.0\n- 10.1.0.0/16\n"
    );
    let bad = "#@ load(\"@ytt:ip\", \"ip\")\nx: #@ ip.parse_addr(\"::1\").is_ipv6(True)\n";
    assert_eq!(
        ytt::run_binary(&[("t.yml", bad)], &["-f", "."]).2,
        "strake: error: \n- ip.addr.is_ipv6: expected no argument\n    in <toplevel>\n      t.yml:2 | x: #@ ip.parse_addr(\"::1\").is_ipv6(True)\n"
    );
}
