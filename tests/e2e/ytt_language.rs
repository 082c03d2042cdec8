//! Language features of ytt templates rendered end to end, each checked against the
//! output ytt 0.48 gives: Starlark expression grammar (`not` inside `and`/`or`), structs
//! used as maps (data values and `@ytt:struct` values, in YAML and text templates), the
//! encoders on None and empty values, and the `@ytt:*` module functions.

use crate::support::ytt::render as render_with;

/// The rendered text of output file `name` under `--output-files out`.
fn render_file(files: &[(&str, &str)], name: &str) -> String {
    crate::support::ytt::output_file(files, name)
}

fn render(files: &[(&str, &str)]) -> String {
    render_with(files, &["-f", "."]).unwrap_or_else(|e| panic!("render failed: {e}"))
}

fn render_err(files: &[(&str, &str)]) -> String {
    render_with(files, &["-f", "."]).expect_err("rendering must fail")
}

#[test]
fn not_is_accepted_as_an_operand_of_and_and_or() {
    let out = render(&[(
        "config.yml",
        "#@ a = True\n#@ b = False\nx: #@ a and not b\nv: #@ b or not a\nz: #@ not a == b and not b in [True]\n#@ if a and not b:\nw: 1\n#@ end\n",
    )]);
    assert_eq!(out, "x: true\nv: false\nz: true\nw: 1\n");
}

#[test]
fn data_values_and_structs_are_used_like_maps() {
    let values = "#@data/values\n---\napps:\n  web: {port: 80}\n  api: {port: 8080}\nregion: eu\n";
    let config = r#"#@ load("@ytt:data", "data")
#@ load("@ytt:struct", "struct")
#@ s = struct.make(one=1, two=2)
names: #@ [k for k in data.values.apps]
ports: #@ [data.values.apps[k]["port"] for k in data.values.apps]
count: #@ len(data.values.apps)
has_web: #@ "web" in data.values.apps
has_db: #@ "db" in data.values.apps
made: #@ {k: s[k] for k in s}
#@ for name in data.values.apps:
#@yaml/text-templated-strings
(@= name @): #@ data.values.apps[name].port
#@ end
"#;
    let text = "(@ load(\"@ytt:data\", \"data\") @)(@ for k in data.values.apps: @)(@= k @)=(@= str(data.values.apps[k].port) @);(@ end @) n=(@= str(len(data.values)) @)\n";
    let out = render(&[
        ("values.yml", values),
        ("config.yml", config),
        ("list.txt", text),
    ]);
    assert_eq!(
        out,
        "names:\n- web\n- api\nports:\n- 80\n- 8080\ncount: 2\nhas_web: true\nhas_db: false\nmade:\n  one: 1\n  two: 2\nweb: 80\napi: 8080\n"
    );
    let out = render_file(&[("values.yml", values), ("list.txt", text)], "list.txt");
    assert_eq!(out, "web=80;api=8080; n=2\n");
    let err = render_err(&[
        ("values.yml", values),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.values.apps[\"dbb\"]\n",
        ),
    ]);
    assert!(err.contains("key \"dbb\" not in struct"), "{err}");
    assert!(err.contains("config.yml:2"), "{err}");
}

#[test]
fn encoders_print_none_and_empty_values_as_ytt_does() {
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:yaml\", \"yaml\")\n#@ load(\"@ytt:json\", \"json\")\nyaml_none: #@ yaml.encode(None)\nyaml_map_none: #@ yaml.encode({\"a\": None})\nyaml_empty: #@ [yaml.encode([]), yaml.encode({}), yaml.encode(\"\")]\njson_none: #@ json.encode(None)\njson_empty: #@ [json.encode([]), json.encode({}), json.encode({}, indent=2)]\n",
    )]);
    assert_eq!(
        out,
        "yaml_none: \"\"\nyaml_map_none: |\n  a: null\nyaml_empty:\n- |\n  []\n- |\n  {}\n- |\n  \"\"\njson_none: \"null\"\njson_empty:\n- '[]'\n- '{}'\n- '{}'\n"
    );
}

#[test]
fn json_decode_gives_floats_and_sorted_keys_like_go() {
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:json\", \"json\")\nv: #@ json.decode('{\"z\": 1, \"a\": 12345678901234567890}')\nt: #@ type(json.decode(\"1\"))\ns: #@ str(json.decode(\"2\"))\n",
    )]);
    assert_eq!(
        out,
        "v:\n  a: 1.2345678901234567e+19\n  z: 1\nt: float\ns: \"2\"\n"
    );
}

#[test]
fn math_module_has_starlark_go_functions() {
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:math\", \"math\")\nints: #@ [math.ceil(1.2), math.floor(-1.2), math.ceil(3)]\nfloats: #@ [math.round(-2.5), math.pow(2, 10), math.mod(-7, 3), math.remainder(7, 4), math.log(8, 2), math.gamma(5), math.hypot(3, 4), math.degrees(math.pi)]\ntypes: #@ [type(math.floor(1.5)), type(math.round(1))]\n",
    )]);
    assert_eq!(
        out,
        "ints:\n- 2\n- -2\n- 3\nfloats:\n- -3\n- 1024\n- -1\n- -1\n- 3\n- 24\n- 5\n- 180\ntypes:\n- int\n- float\n"
    );
    let err = render_err(&[(
        "config.yml",
        "#@ load(\"@ytt:math\", \"math\")\nx: #@ math.sqrt(\"4\")\n",
    )]);
    assert!(
        err.contains("sqrt: expected float value, but was starlark.String"),
        "{err}"
    );
}

#[test]
fn version_require_at_least_wants_strict_semver() {
    let err = render_err(&[(
        "config.yml",
        "#@ load(\"@ytt:version\", \"version\")\n#@ version.require_at_least(\"v0.40.0\")\nx: 1\n",
    )]);
    assert!(err.contains("must be a valid semver"), "{err}");
    assert!(err.contains("config.yml:2"), "{err}");
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:version\", \"version\")\nx: #@ version.require_at_least(\"0.40.0\")\n",
    )]);
    assert_eq!(out, "x: null\n");
}

#[test]
fn data_list_is_relative_to_the_calling_file_or_the_root() {
    let out = render(&[
        ("top.txt", "top\n"),
        ("sub/n.txt", "nested\n"),
        ("sub/deep/d.txt", "deep\n"),
        (
            "sub/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nrel: #@ data.list()\ndeep: #@ data.list(\"deep\")\nroot: #@ data.list(\"/\")\nread: #@ [data.read(\"deep/\" + p) for p in data.list(\"deep\")]\n",
        ),
    ]);
    assert_eq!(
        out,
        "rel:\n- n.txt\n- t.yml\n- deep/d.txt\ndeep:\n- d.txt\nroot:\n- /top.txt\n- /sub/n.txt\n- /sub/t.yml\n- /sub/deep/d.txt\nread:\n- |\n  deep\n"
    );
}

#[test]
fn assert_module_functions_behave_as_in_ytt() {
    let config = r#"#@ load("@ytt:assert", "assert")
#@ load("@ytt:struct", "struct")
#@ def m():
a: 1
#@ end
#@ def err(f): return assert.try_to(f)[1]
eq_fragment_dict: #@ assert.equals(m(), {"a": 1})
eq_structs: #@ assert.equals(struct.make(a=1), struct.make(a=1))
neq: #@ err(lambda: assert.equals(7, "7"))
min: #@ err(lambda: assert.min(3).check(2))
max_len_struct: #@ err(lambda: assert.max_len(0).check(struct.make(a=1)))
min_len_fragment: #@ assert.min_len(1).check(m())
not_null_now: #@ assert.not_null(0)
not_null_err: #@ err(lambda: assert.not_null(None))
not_null_check: #@ err(lambda: assert.not_null().check(None))
one_not_null: #@ err(lambda: assert.one_not_null(["x", "y"]).check({"x": 1, "y": 2, "z": 3}))
none_set: #@ err(lambda: assert.one_not_null().check({"x": None}))
one_of: #@ assert.one_of("a", "b").check("b")
fail: #@ err(lambda: assert.fail("boom"))
type: #@ type(assert.min(1))
"#;
    let out = render(&[("config.yml", config)]);
    assert_eq!(
        out,
        "eq_fragment_dict: null\neq_structs: null\nneq: |\n  assert.equals: Not equal:\n  (expected type: int)\n  7\n\n\n  (was type: string)\n  \"7\"\nmin: 'fail: value < 3'\nmax_len_struct: 'fail: length = 1'\nmin_len_fragment: true\nnot_null_now: true\nnot_null_err: 'assert.not_null: fail: value is null'\nnot_null_check: 'fail: value is null'\none_not_null: 'check: [\"x\", \"y\"] are not null'\nnone_set: 'check: all values are null'\none_of: true\nfail: 'assert.fail: fail: boom'\ntype: '@ytt:assert.assertion'\n"
    );
    let err = render_err(&[(
        "config.yml",
        "#@ load(\"@ytt:assert\", \"assert\")\nx: #@ assert.try_to(5)\n",
    )]);
    assert!(err.contains("expected argument to be a function"), "{err}");
    let err = render_err(&[(
        "config.yml",
        "#@ load(\"@ytt:assert\", \"assert\")\nx: 1\n#@ assert.not_null(None)\n",
    )]);
    assert!(
        err.contains("value is null") && err.contains("config.yml:3"),
        "{err}"
    );
}

#[test]
fn fragments_as_mappings_values_and_their_errors() {
    let lib = "#@ def m():\na: 1\nb: [1, 2]\n#@ end\n---\n#@ def items():\n- x\n- y\n#@ end\n---\n#@ def docs():\n---\nfirst: 1\n---\nsecond: 2\n#@ end\n";
    let out = render(&[(
        "config.yml",
        &format!(
            "{lib}---\nas_dict: #@ dict(**m())\nkeys: #@ [k for k in m()]\nfirst: #@ items()[0]\nnot_dict: #@ m() == {{\"a\": 1}}\n"
        ),
    )]);
    assert_eq!(
        out,
        "as_dict:\n  a: 1\n  b:\n  - 1\n  - 2\nkeys:\n- a\n- b\nfirst: x\nnot_dict: false\n"
    );
    for (body, message) in [
        ("x: #@ items()[-1]\n", "key -1 not in yamlfragment"),
        ("x: #@ items()[2]\n", "key 2 not in yamlfragment"),
        (
            "x: #@ m() == m()\n",
            "yamlfragment.CompareSameType: Not implemented",
        ),
        (
            "x: #@ docs()\n",
            "map items can only contain arrays, maps, or scalars; this is a document set",
        ),
        (
            "x:\n- #@ docs()\n",
            "array items can only contain maps, arrays, or scalars; this is a document set",
        ),
        (
            "#@ load(\"@ytt:struct\", \"struct\")\nx: #@ struct.encode(m())\n",
            "unknown type *yamlmeta.Map for conversion to starlark value",
        ),
    ] {
        let err = render_err(&[("config.yml", &format!("{lib}---\n{body}"))]);
        assert!(err.contains(message), "{body}: {err}");
        assert!(err.contains("config.yml:"), "{body}: {err}");
    }
}

#[test]
fn computed_values_template_value_and_ambiguous_nodes() {
    let out = render(&[(
        "config.yml",
        "#@template/value \"from-annotation\"\ninline: #@ \"from-inline\"\n#@template/value 1\n#@template/value 2\nstacked:\n#@template/value \"only\"\nplain:\n",
    )]);
    assert_eq!(out, "inline: from-inline\nstacked: 2\nplain: only\n");
    let err = render_err(&[("config.yml", "key: #@ {\"a\": 1}\n  sub: 2\n")]);
    assert!(
        err.contains("to have either computed or YAML value, but found both"),
        "{err}"
    );
    assert!(err.contains("config.yml:1"), "{err}");
    let err = render_err(&[(
        "config.yml",
        "#@ def pick(kind):\n#@   if kind == \"none\":\n#@     return None\n#@   end\nname: #@ kind\n#@ end\nvalue: #@ pick(\"none\")\n",
    )]);
    assert!(err.contains("return before the first YAML node"), "{err}");
    assert!(err.contains("config.yml:3"), "{err}");
}

#[test]
fn text_templated_keys_inside_functions() {
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:template\", \"template\")\n#@ def entry(name, port):\n#@yaml/text-templated-strings\n(@= name @)_port: #@ port\n#@ end\nports:\n  #@ for name, port in [(\"http\", 80), (\"https\", 443)]:\n  _: #@ template.replace(entry(name, port))\n  #@ end\none: #@ entry(\"x\", 1)\n",
    )]);
    assert_eq!(
        out,
        "ports:\n  http_port: 80\n  https_port: 443\none:\n  x_port: 1\n"
    );
}

#[test]
fn text_templated_keys_values_and_block_scalars() {
    let out = render(&[(
        "config.yml",
        "#@ region = \"eu\"\n#@ zone = \"b\"\n#@yaml/text-templated-strings\n---\nplacement:\n  primary_(@= region @): \"zone (@= zone @) first\"\n  script: |\n    echo (@= region @)\n    (@ for z in [\"a\", zone]: @)zone-(@= z @);(@ end @)\n",
    )]);
    assert_eq!(
        out,
        "placement:\n  primary_eu: zone b first\n  script: |\n    echo eu\n    zone-a;zone-b;\n"
    );
}

#[test]
fn only_library_files_can_be_loaded() {
    let err = render_err(&[
        (
            "config.yml",
            "#@ load(\"plain.txt\", \"f\")\nvalue: #@ f()\n",
        ),
        ("plain.txt", "(@ def f(): @)x(@ end @)"),
    ]);
    assert!(err.contains("to be a library file, but was not"), "{err}");
    assert!(err.contains("config.yml:1"), "{err}");
    let out = render(&[
        (
            "config.yml",
            "#@ load(\"helpers.lib.txt\", \"f\")\nvalue: #@ f()\n",
        ),
        ("helpers.lib.txt", "(@ def f(): @)x(@ end @)"),
    ]);
    assert_eq!(out, "value: x\n");
}

#[test]
fn library_refs_aliases_with_data_values_and_get_options() {
    let pet = [
        (
            "_ytt_lib/pet/values.yml",
            "#@data/values\n---\nkind: generic\nvaccinated: false\ntags: [base]\n",
        ),
        (
            "_ytt_lib/pet/doc.yml",
            "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
        ),
        (
            "dog-values.yml",
            "#@data/values\n#@library/ref \"@pet~dog\"\n---\nkind: beagle\n",
        ),
        (
            "cat-values.yml",
            "#@data/values\n#@library/ref \"@~cat\"\n---\nkind: siamese\n",
        ),
    ];
    let config = r#"#@ load("@ytt:library", "library")
#@ def plain_tags():
tags: [plain]
#@ end
#@ cat = library.get("pet", alias="cat")
#@ dog = library.get("pet", alias="dog")
#@ other = library.get("pet")
---
cat: #@ cat.eval()[0]
dog: #@ dog.with_data_values({"tags": ["more"]}).eval()[0]
plain: #@ other.with_data_values(plain_tags(), plain=True).data_values()
type: #@ type(other)
"#;
    let mut files: Vec<(&str, &str)> = pet.to_vec();
    files.push(("config.yml", config));
    let out = render(&files);
    assert_eq!(
        out,
        "cat:\n  kind: siamese\n  vaccinated: false\n  tags:\n  - base\ndog:\n  kind: beagle\n  vaccinated: false\n  tags:\n  - base\n  - more\nplain:\n  kind: generic\n  vaccinated: false\n  tags:\n  - plain\ntype: module\n"
    );
    let mut files: Vec<(&str, &str)> = pet.to_vec();
    files.push((
        "config.yml",
        "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"pet\").with_data_values({\"knd\": 1}).eval()\n",
    ));
    let err = render_err(&files);
    assert!(
        err.contains("Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
    let out = render(&[
        (
            "_ytt_lib/loose/doc.yml",
            "#@ x = 1\n# plain comment\na: 1\na: 2\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"loose\", ignore_unknown_comments=True, implicit_map_key_overrides=True).eval())\n",
        ),
    ]);
    assert_eq!(out, "a: 2\n");
}

#[test]
fn library_with_data_values_schema_extends_the_schema() {
    let files = [
        (
            "_ytt_lib/app/schema.yml",
            "#@data/values-schema\n---\nname: app\nreplicas: 1\n",
        ),
        (
            "_ytt_lib/app/out.yml",
            "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ def extra_schema():\n#@overlay/match missing_ok=True\nlimits:\n  cpu: \"\"\n#@ end\n#@ app = library.get(\"app\").with_data_values_schema(extra_schema())\n--- #@ template.replace(app.with_data_values({\"limits\": {\"cpu\": \"1\"}}).eval())\n",
        ),
    ];
    assert_eq!(
        render(&files),
        "name: app\nreplicas: 1\nlimits:\n  cpu: \"1\"\n"
    );
    let mut bad = files;
    bad[2].1 = "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"app\").with_data_values({\"replicas\": \"two\"}).eval()\n";
    let err = render_err(&bad);
    assert!(err.contains("replicas"), "{err}");
}

#[test]
fn struct_bind_and_url_query_rules() {
    let out = render(&[(
        "config.yml",
        "#@ load(\"@ytt:struct\", \"struct\")\n#@ load(\"@ytt:url\", \"url\")\n#@ def add(num, right):\n#@   return num.val + right\n#@ end\n#@ num = struct.make(val=123)\n#@ calc = struct.make(add=struct.bind(add, num))\nbound: #@ calc.add(3)\nbound_and_made: #@ struct.make_and_bind(num, add=add).add(4)\nquery: #@ url.query_params_decode(\"x=1&y=2&y=3&z\")\nencoded: #@ url.query_params_encode({\"y\": [\"2\", \"3\"], \"x\": [\"a b\"], \"z\": [\"\"]})\n",
    )]);
    assert_eq!(
        out,
        "bound: 126\nbound_and_made: 127\nquery:\n  x:\n  - \"1\"\n  \"y\":\n  - \"2\"\n  - \"3\"\n  z:\n  - \"\"\nencoded: x=a+b&y=2&y=3&z=\n"
    );
    let err = render_err(&[(
        "config.yml",
        "#@ load(\"@ytt:url\", \"url\")\nq: #@ url.query_params_decode(\"x=1;z\")\n",
    )]);
    assert!(
        err.contains("invalid semicolon separator in query"),
        "{err}"
    );
}

#[test]
fn computed_empty_documents_are_printed_and_written_ones_dropped() {
    let out = render(&[(
        "config.yml",
        "#@ nothing = None\n--- #@ nothing\n--- #@ {}\n--- #@ []\n--- #@ \"\"\n---\n--- {}\n--- []\n--- ~\n",
    )]);
    assert_eq!(out, "{}\n---\n[]\n---\n\"\"\n");
    let json = render_with(
        &[("config.yml", "--- #@ {}\n--- {}\n---\na: 1\n")],
        &["-f", ".", "-o", "json"],
    )
    .unwrap();
    assert_eq!(json, "{}{\"a\":1}");
}
