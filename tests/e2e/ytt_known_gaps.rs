//! Gaps once known between strake and ytt 0.48, each pinned to ytt's exact output:
//! `--data-values-inspect -o pos` (every data value beside the place it was last given),
//! non-ASCII strings split into bytes (`elems()`, printed as `!!binary`), overlay order
//! across files, duplicate non-string keys in messages (Go's `%s` of a non-string),
//! `#@library/ref` schema documents, and the inspections with `--output-files`.

use crate::support::ytt;

const TPL: &str = "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n";

#[test]
fn data_values_inspect_pos_places_each_value_where_it_was_last_given() {
    let values = "#@data/values\n---\na: 1\nlist:\n- x\n- y\nm:\n  k: v\n";
    let more =
        "#@data/values\n---\n#@overlay/match missing_ok=True\nb: 2\nlist:\n- z\nm:\n  k: w\n";
    let files = [("t.yml", TPL), ("values.yml", values), ("z-more.yml", more)];
    let out = ytt::render(
        &files,
        &[
            "-f",
            ".",
            "--data-values-inspect",
            "-o",
            "pos",
            "-v",
            "m.k=q",
            "--data-value-yaml",
            "y={a: 1}",
        ],
    )
    .unwrap();
    let want = concat!(
        "          values.yml:2 | [doc]\n",
        "          values.yml:3 |   a: 1\n",
        "          values.yml:4 |   list:\n",
        "          values.yml:5 |     [0] x\n",
        "          values.yml:6 |     [1] true\n",
        "          z-more.yml:6 |     [2] z\n",
        "          values.yml:7 |   m:\n",
        "    (data-value arg):1 |     k: q\n",
        "          z-more.yml:4 |   b: 2\n",
        "          (data-value-yaml arg):1 |   y:\n",
        "                                1 |     a: 1\n",
    );
    assert_eq!(out, want);
}

/// A flag's key path whose parts repeat a name (`a.a`): only the last key takes the
/// flag's place, as ytt's overlay of the flag replaces the leaf and merges the maps
/// above it (which keep the place they were given at).
#[test]
fn a_repeated_name_in_a_flags_key_path_moves_only_the_leaf() {
    let values = "#@data/values\n---\na:\n  a: 0\n  b: 2\n";
    let files = [("values.yml", values)];
    let out = ytt::render(
        &files,
        &[
            "-f",
            ".",
            "--data-values-inspect",
            "-o",
            "pos",
            "-v",
            "a.a=1",
        ],
    )
    .unwrap();
    let want = concat!(
        "          values.yml:2 | [doc]\n",
        "          values.yml:3 |   a:\n",
        "    (data-value arg):1 |     a: \"1\"\n",
        "          values.yml:5 |     b: 2\n",
    );
    assert_eq!(out, want);
}

#[test]
fn data_values_inspect_pos_starts_from_the_schema_defaults() {
    let schema = "#@data/values-schema\n---\nname: nm\nports:\n- 80\nextra: e\n";
    let values = "#@data/values\n---\nname: given\nports:\n- 1\n";
    let files = [("s.yml", schema), ("t.yml", TPL), ("v.yml", values)];
    let out = ytt::render(&files, &["-f", ".", "--data-values-inspect", "-o", "pos"]).unwrap();
    let want = concat!(
        "          s.yml:2 | [doc]\n",
        "          v.yml:3 |   name: given\n",
        "          s.yml:4 |   ports:\n",
        "          v.yml:5 |     [0] 1\n",
        "          s.yml:6 |   extra: e\n",
    );
    assert_eq!(out, want);
}

#[test]
fn data_values_inspect_pos_of_flags_alone_and_of_no_values() {
    let out = ytt::render(
        &[("t.yml", TPL)],
        &[
            "-f",
            ".",
            "--data-values-inspect",
            "-o",
            "pos",
            "-v",
            "a.b=1",
        ],
    )
    .unwrap();
    let want = concat!(
        "          (data-value arg):1 | [doc]\n",
        "          (data-value arg):1 |   a:\n",
        "          (data-value arg):1 |     b: \"1\"\n",
    );
    assert_eq!(out, want);
    let none = ytt::render(
        &[("t.yml", TPL)],
        &["-f", ".", "--data-values-inspect", "-o", "pos"],
    );
    assert_eq!(none.unwrap(), "[doc]\n");
}

#[test]
fn inspections_print_nothing_with_output_files() {
    let files = [("t.yml", TPL), ("v.yml", "#@data/values\n---\na: 1\n")];
    for flag in ["--files-inspect", "--data-values-inspect"] {
        let out = ytt::render_output(&files, &["-f", ".", flag, "--output-files", "out"]).unwrap();
        assert_eq!((out.stdout, out.files), (Vec::new(), Vec::new()), "{flag}");
        let (code, stdout, stderr) =
            ytt::run_binary(&files, &["-f", ".", flag, "--output-files", "out"]);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (0, "", ""),
            "{flag}"
        );
    }
    // Without it, the inspection goes to stdout.
    let listed = ytt::render(&files, &["-f", ".", "--files-inspect"]).unwrap();
    assert_eq!(listed, "- t.yml\n- v.yml\n");
}

/// The message of a key given twice in a templated map, with `key` as Go's `%s` prints it.
fn twice(key: &str, file: &str, line: &str) -> String {
    format!(
        "strake: error: \n- expected key '{key}' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n    in <toplevel>\n      {file} | {line}\n"
    )
}

#[test]
fn duplicate_non_string_keys_are_named_as_go_prints_them() {
    let cases = [
        ("1: 1\n1: 2\n", "%!s(int=1)", "1: 2"),
        ("true: 1\ntrue: 2\n", "%!s(bool=true)", "true: 2"),
        ("~: 1\nnull: 2\n", "%!s(<nil>)", "null: 2"),
        ("1.5: 1\n1.5: 2\n", "%!s(float64=1.5)", "1.5: 2"),
        ("k: 1\nk: 2\n", "k", "k: 2"),
    ];
    for (body, key, line) in cases {
        let files = [("t.yml", format!("#@ x = 1\n{body}"))];
        let files: Vec<(&str, &str)> = files.iter().map(|(n, b)| (*n, b.as_str())).collect();
        let want = twice(key, "t.yml:3", line);
        assert_eq!(ytt::failure_of(&files, &["-f", "."]), want);
        // --strict changes nothing here (where it accepts the keys at all).
        if !body.starts_with('~') {
            assert_eq!(ytt::failure_of(&files, &["-f", ".", "-s"]), want);
        }
    }
}

#[test]
fn duplicate_non_string_keys_in_data_values_and_decoded_yaml() {
    let dv = "#@data/values\n---\ntrue: a\ntrue: b\n";
    let err = ytt::failure_of(&[("dv.yml", dv), ("t.yml", TPL)], &["-f", "."]);
    let want = "strake: error: Overlaying data values (in following order: dv.yml):\n  Templating file 'dv.yml': \n- expected key '%!s(bool=true)' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n    in <toplevel>\n      dv.yml:4 | true: b\n";
    assert_eq!(err, want);
    let err = ytt::failure_of(
        &[("t.yml", TPL), ("e.yml", "1: a\n1: b\n")],
        &["-f", "t.yml", "--data-values-file", "e.yml"],
    );
    let want = "strake: error: Extracting data value from file:\n  Checking data values file 'e.yml':\n    Unexpected duplicate key: %!s(int=1)\n    in e.yml:2\n      e.yml:2 | 1: b\n";
    assert_eq!(err, want);
    let decode = "#@ load(\"@ytt:yaml\", \"yaml\")\nv: #@ yaml.decode(\"1: 1\\n1: 2\\n\")\n";
    let err = ytt::failure_of(&[("t.yml", decode)], &["-f", "."]);
    let want = "strake: error: \n- yaml.decode: Unexpected duplicate key: %!s(int=1)\n    in <toplevel>\n      t.yml:2 | v: #@ yaml.decode(\"1: 1\\n1: 2\\n\")\n";
    assert_eq!(err, want);
}

#[test]
fn overlay_messages_name_non_string_keys_as_go_prints_them() {
    let ov = "#@overlay/match by=lambda i,l,r: True\n---\nm:\n  2: b\n";
    let err = ytt::failure_of(
        &[("base.yml", "m:\n  1: a\n"), ("ov.yml", ov)],
        &["-f", "."],
    );
    let want = "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:2:\n    Map item (key 'm') on line ov.yml:3:\n      Map item (key '%!s(int=2)') on line ov.yml:4:\n        Expected number of matched nodes to be 1, but was 0\n";
    assert_eq!(err, want);
}

const OVERLAY_A: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n---\nlist:\n#@overlay/append\n- a1\n#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n#@overlay/append\n---\nkind: Appended\n";
const OVERLAY_B: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n---\nlist:\n#@overlay/append\n- b1\n#@overlay/append\n- b2\n---\n#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n---\nlist:\n- b3\n";

#[test]
fn overlays_apply_in_file_order_then_document_order() {
    let files = [
        ("base.yml", "kind: A\nlist:\n- base\n"),
        ("a.yml", OVERLAY_A),
        ("b.yml", OVERLAY_B),
    ];
    // A directory's files in path order: a.yml, b.yml, base.yml.
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(
        out,
        "kind: A\nlist:\n- base\n- a1\n- b1\n- b2\n- b3\n---\nkind: Appended\n"
    );
    // Files named one by one keep the order given; an array item without an op is
    // appended, as `@overlay/append` is the default for array items.
    let out = ytt::render(&files, &["-f", "base.yml", "-f", "b.yml", "-f", "a.yml"]).unwrap();
    assert_eq!(
        out,
        "kind: A\nlist:\n- base\n- b1\n- b2\n- b3\n- a1\n---\nkind: Appended\n"
    );
}

#[test]
fn data_values_arrays_append_in_file_order() {
    let v = |item: &str| format!("#@data/values\n---\nlist:\n- {item}\n");
    let (one, two, three) = (v("1"), v("2"), v("3"));
    let files = [
        ("t.yml", TPL),
        ("vals/b.yml", one.as_str()),
        ("vals/a.yml", two.as_str()),
        ("vals/c.yml", three.as_str()),
    ];
    // A directory's files in path order: a.yml, b.yml, c.yml.
    let out = ytt::render(&files, &["-f", "t.yml", "-f", "vals"]).unwrap();
    assert_eq!(out, "v:\n  list:\n  - 2\n  - 1\n  - 3\n");
    // Files named one by one keep the order given.
    let args = [
        "-f",
        "t.yml",
        "-f",
        "vals/b.yml",
        "-f",
        "vals/a.yml",
        "-f",
        "vals/c.yml",
    ];
    let out = ytt::render(&files, &args).unwrap();
    assert_eq!(out, "v:\n  list:\n  - 1\n  - 2\n  - 3\n");
}

const LIB_SCHEMA: &str = "#@data/values-schema\n---\nname: lib\nport: 80\n";
const LIB_EVAL: &str = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n";

#[test]
fn library_ref_schema_from_the_root_is_overlaid_on_the_librarys() {
    let root = "#@library/ref \"@lib\"\n#@data/values-schema\n---\nname: fromroot\n#@overlay/match missing_ok=True\nextra: true\n";
    let vals = "#@library/ref \"@lib\"\n#@data/values\n---\nport: 8080\n";
    let files = [
        ("_ytt_lib/lib/schema.yml", LIB_SCHEMA),
        ("_ytt_lib/lib/t.yml", TPL),
        ("main.yml", LIB_EVAL),
        ("root-schema.yml", root),
        ("vals.yml", vals),
    ];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(out, "v:\n  name: fromroot\n  port: 8080\n  extra: true\n");
    // The root's own data values know nothing of it.
    let own = ytt::render(&files, &["-f", ".", "--data-values-inspect"]).unwrap();
    assert_eq!(own, "{}\n");
}

#[test]
fn schema_overlay_errors_name_the_files_in_order_and_the_document() {
    let root = "#@library/ref \"@lib\"\n#@data/values-schema\n---\nname: fromroot\nextra: true\n";
    let files = [
        ("_ytt_lib/lib/schema.yml", LIB_SCHEMA),
        ("_ytt_lib/lib/t.yml", TPL),
        ("main.yml", LIB_EVAL),
        ("root-schema.yml", root),
    ];
    let want = "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values schema (in following order: _ytt_lib/lib/schema.yml, additional data value schema): Document on line root-schema.yml:3: Map item (key 'extra') on line root-schema.yml:5: Expected number of matched nodes to be 1, but was 0\n    in <toplevel>\n      main.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n";
    assert_eq!(ytt::failure_of(&files, &["-f", "."]), want);
    let files = [
        ("s1.yml", "#@data/values-schema\n---\na: 1\n"),
        ("s2.yml", "#@data/values-schema\n---\nb: 1\n"),
        ("t.yml", TPL),
    ];
    let want = "strake: error: Overlaying data values schema (in following order: s1.yml, s2.yml):\n  Document on line s2.yml:2:\n    Map item (key 'b') on line s2.yml:3:\n      Expected number of matched nodes to be 1, but was 0\n";
    assert_eq!(ytt::failure_of(&files, &["-f", "."]), want);
}

#[test]
fn a_library_ref_schema_for_no_library_is_refused() {
    let root = "#@library/ref \"@other\"\n#@data/values-schema\n---\nname: x\n";
    let files = [
        ("_ytt_lib/lib/schema.yml", LIB_SCHEMA),
        ("_ytt_lib/lib/t.yml", TPL),
        ("main.yml", LIB_EVAL),
        ("root-schema.yml", root),
    ];
    let want = "strake: error: Expected all provided library schema documents to be used but found unused:\n  Schema belonging to library '@other' on line root-schema.yml:3\n";
    assert_eq!(ytt::failure_of(&files, &["-f", "."]), want);
}

#[test]
fn bytes_of_non_ascii_strings_print_as_binary() {
    let tpl = concat!(
        "a: #@ list(\"é\".elems())\n",
        "b: #@ list(\"é\".elem_ords())\n",
        "c: #@ list(\"é\".codepoints())\n",
        "d: #@ len(\"é\")\n",
        "e: #@ \"é\"[0]\n",
        "f: #@ \"é\"[0] + \"é\"[1]\n",
        "g: #@ len(\"é\"[1])\n",
        "h: #@ \"é\"[0] == \"\\xc3\"\n",
        "i: #@ list(\"é\"[0].codepoint_ords())\n",
        "j: #@ \"hé\"[:2] * 30\n",
        "k: #@ repr(\"é\"[0])\n",
        "l: #@ \"\\xc3\\xa9\"\n",
    );
    let files = [("t.yml", tpl)];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    let want = concat!(
        "a:\n- !!binary ww==\n- !!binary qQ==\n",
        "b:\n- 195\n- 169\n",
        "c:\n- é\n",
        "d: 2\n",
        "e: !!binary ww==\n",
        "f: é\n",
        "g: 1\n",
        "h: true\n",
        "i:\n- 65533\n",
        "j: !!binary |\n",
        "  aMNow2jDaMNow2jDaMNow2jDaMNow2jDaMNow2jDaMNow2jDaMNow2jDaMNow2jDaMNow2\n",
        "  jDaMNow2jD\n",
        "k: '\"\\xc3\"'\n",
        "l: é\n",
    );
    assert_eq!(out, want);
    // JSON writes each such byte as U+FFFD, as Go's encoding/json does.
    let json = ytt::render(
        &[("t.yml", "a: #@ list(\"é\".elems())\n")],
        &["-f", ".", "-o", "json"],
    );
    assert_eq!(json.unwrap(), "{\"a\":[\"\\ufffd\",\"\\ufffd\"]}");
    // The iterable itself is no value for YAML.
    let err = ytt::failure_of(&[("t.yml", "x: #@ \"é\".elems()\n")], &["-f", "."]);
    assert_eq!(
        err,
        "strake: error: \n- unknown type starlark.stringIterable for conversion to go value\n    in <toplevel>\n      t.yml:1 | x: #@ \"é\".elems()\n"
    );
}

#[test]
fn a_text_template_writes_such_bytes_as_they_are() {
    let files = [(
        "t.txt",
        "(@= \"é\"[0] @)(@= \"é\"[1:] @)(@= \"x\" + \"é\"[0] @)\n",
    )];
    let out = ytt::render_output(&files, &["-f", ".", "--output-files", "out"]).unwrap();
    assert_eq!(
        out.files,
        vec![("t.txt".to_string(), b"\xc3\xa9x\xc3\n".to_vec())]
    );
}
