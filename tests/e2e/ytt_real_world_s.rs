//! Constructs met while rendering another round of public ytt directories (a Cloud
//! Controller configuration encoded with `yaml.encode`, controller packages whose values
//! schemas are spread over several files, vSphere cloud-provider overlays driving a text
//! template library, Terraform-provider examples that set nested keys with `-v`), each
//! reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

const VALUES: &str = "#@data/values\n---\ncm1: cm1\nlist: [1]\nempty: null\n";

/// A `--data-value` flag becomes an overlay (`DataValuesFlags.buildOverlay`) whose keys
/// above the last are merged with `missing_ok=True`; the last key alone is replaced. A
/// missing key is therefore added, and a null one gives way to the new map.
#[test]
fn data_value_flags_add_missing_keys_and_fill_null_ones() {
    assert_eq!(
        ytt::render(
            &[("values.yml", VALUES)],
            &[
                "-f",
                "values.yml",
                "--data-values-inspect",
                "-v",
                "new.nested=x",
                "-v",
                "empty.k=y",
            ],
        )
        .unwrap(),
        "cm1: cm1\nlist:\n- 1\nempty:\n  k: \"y\"\nnew:\n  nested: x\n"
    );
}

/// Merging the flag's map into a key that holds a string fails in `Op.apply` ("Expected
/// map, but was string"), under the map item and the document of the flag's overlay,
/// placed at line 1 of `(data-value arg)`; the value is not replaced.
#[test]
fn data_value_flag_cannot_nest_under_a_string() {
    let (code, stdout, stderr) = ytt::run_binary(
        &[("values.yml", VALUES)],
        &["-f", "values.yml", "-v", "cm1.x=1"],
    );
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "strake: error: Overlaying data values (in following order: values.yml, additional data values):\n  Document on line (data-value arg):1:\n    Map item (key 'cm1') on line (data-value arg):1:\n      Expected map, but was string\n"
    );
}

/// The same holds deeper and for `--data-values-env`: each map item on the way is named,
/// outermost first, at the place ytt gives the environment prefix.
#[test]
fn data_values_env_cannot_nest_under_an_array() {
    let dir = ytt::dir_with(&[("values.yml", "#@data/values\n---\na:\n  b: [1]\n")]);
    let (code, stdout, stderr) = ytt::run_in_env(
        dir.path(),
        &["-f", "values.yml", "--data-values-env", "DVS"],
        "",
        &[("DVS_a__b__c", "1")],
    );
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "strake: error: Overlaying data values (in following order: values.yml, additional data values):\n  Document on line (data-values-env arg) DVS:1:\n    Map item (key 'a') on line (data-values-env arg) DVS:1:\n      Map item (key 'b') on line (data-values-env arg) DVS:1:\n        Expected map, but was array\n"
    );
}

/// A `--data-values-file` document is annotated for a plain merge
/// (`overlay.AnnotateForPlainMerge`): arrays and scalars replace what they meet, but a
/// map is merged, so a map laid over a string fails in `Op.apply`, named at the
/// document and the map item of the file.
#[test]
fn data_values_file_map_cannot_merge_onto_a_string() {
    let files = [
        ("values.yml", VALUES),
        ("list.yml", "cm1: [1]\n"),
        ("map.yml", "list: x\n---\ncm1:\n  deep: 1\n"),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                "values.yml",
                "--data-values-file",
                "list.yml",
                "--data-values-inspect"
            ],
        )
        .unwrap(),
        "cm1:\n- 1\nlist:\n- 1\nempty: null\n"
    );
    let (code, stdout, stderr) = ytt::run_binary(
        &files,
        &["-f", "values.yml", "--data-values-file", "map.yml"],
    );
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "strake: error: Overlaying data values (in following order: values.yml, additional data values):\n  Document on line map.yml:2:\n    Map item (key 'cm1') on line map.yml:3:\n      Expected map, but was string\n"
    );
}

/// `with_data_values(..., plain=True)` annotates the given values for the same plain
/// merge: a map given over an array fails, its positions unknown (`line ?`), the
/// message flattened under `library.eval` as ytt reports a library's failure.
#[test]
fn plain_library_values_cannot_merge_a_map_onto_an_array() {
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/app/values.yml", "#@data/values\n---\nlist: [1]\n"),
            (
                "_ytt_lib/app/t.yml",
                "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
            ),
            (
                "c.yml",
                "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").with_data_values({\"list\": {\"a\": 1}}, plain=True).eval())\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.eval: Evaluating library 'app': Overlaying data values (in following order: _ytt_lib/app/values.yml, additional data values): Document on line ?: Map item (key 'list') on line ?: Expected map, but was array\n    in <toplevel>\n      c.yml:3 | --- #@ template.replace(library.get(\"app\").with_data_values({\"list\": {\"a\": 1}}, plain=True).eval())\n"
    );
}

/// A `--data-value @lib:key=value` flag is the same overlay, handed to the library: the
/// failure comes when the library evaluates, still naming the flag's place.
#[test]
fn library_data_value_flag_cannot_nest_under_a_string() {
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/app/values.yml", "#@data/values\n---\nname: x\n"),
            (
                "_ytt_lib/app/t.yml",
                "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n",
            ),
            (
                "c.yml",
                "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").eval())\n",
            ),
        ],
        &["-f", ".", "-v", "@app:name.x=1"],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.eval: Evaluating library 'app': Overlaying data values (in following order: _ytt_lib/app/values.yml, additional data values): Document on line (data-value arg):1: Map item (key 'name') on line (data-value arg):1: Expected map, but was string\n    in <toplevel>\n      c.yml:3 | --- #@ template.replace(library.get(\"app\").eval())\n"
    );
}

/// A function whose body opens with `---` returns a document set; `yaml.encode` of it
/// gives the single document's map. An anchor on a map item is only YAML syntax (the
/// value is kept, the anchor dropped), an empty value encodes as `null`, and go-yaml's
/// emitter single-quotes the string `''` (each quote doubled).
#[test]
fn yaml_encode_of_a_document_set_function_body_with_an_anchor() {
    let tpl = "#@ load(\"@ytt:yaml\", \"yaml\")\n#@ def cfg():\n---\ndb: &db\n  adapter: pg\nregion: \"''\"\ncdn:\n  uri:\nopts: {}\n#@ end\n---\ndata:\n  c.yml: #@ yaml.encode(cfg())\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "data:\n  c.yml: |\n    db:\n      adapter: pg\n    region: ''''''\n    cdn:\n      uri: null\n    opts: {}\n"
    );
}
