//! Constructs met while rendering another round of public ytt directories (a Kubernetes
//! helper library with its examples, Crossplane compositions, TKG cluster overlays,
//! community packages for SR-IOV, Velero, Tekton and metrics-server, Carvel sample
//! apps), each reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// `--file-mark X:exclusive-for-output=true` marks every other file as not for output,
/// the files of a private library included; a library's `eval()` returns only its
/// templates that are for output, so it then gives nothing.
#[test]
fn exclusive_for_output_also_keeps_library_templates_out_of_eval() {
    let files = [
        (
            "_ytt_lib/lib/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: FromLib\nname: #@ data.values.name\n",
        ),
        ("_ytt_lib/lib/values.yml", "#@data/values\n---\nname: lib\n"),
        (
            "main.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n---\nkind: Main\n--- #@ template.replace(library.get(\"lib\").eval())\n",
        ),
        ("other.yml", "other: doc\n"),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: Main\n---\nkind: FromLib\nname: lib\n---\nother: doc\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                ".",
                "--file-mark",
                "main.yml:exclusive-for-output=true"
            ]
        )
        .unwrap(),
        "kind: Main\n"
    );
}

/// `@overlay/replace` with `missing_ok=True` inherited from `match-child-defaults`
/// replaces a key that is there and adds nothing when it is missing (only `or_add=True`
/// adds); the `if/end` before it decides which of two same-named keys exists.
#[test]
fn replace_with_an_inherited_missing_ok_adds_no_missing_key() {
    let overlay = "#@overlay/match by=overlay.all\n---\n#@overlay/match-child-defaults missing_ok=True\nspec:\n  #@overlay/replace\n  #@ if/end True:\n  config: {region: minio}\n  #@overlay/replace\n  #@ if/end False:\n  config: {group: x}\n";
    let missing =
        format!("#@ load(\"@ytt:overlay\", \"overlay\")\nspec:\n  provider: aws\n{overlay}");
    assert_eq!(
        ytt::render(&[("a.yml", &missing)], &["-f", "."]).unwrap(),
        "spec:\n  provider: aws\n"
    );
    let present = format!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\nspec:\n  provider: aws\n  config: {{}}\n{overlay}"
    );
    assert_eq!(
        ytt::render(&[("a.yml", &present)], &["-f", "."]).unwrap(),
        "spec:\n  provider: aws\n  config:\n    region: minio\n"
    );
}

/// Only documents with `@overlay/match` are overlays: a document marked just
/// `@overlay/append` in an overlay file is an ordinary document, output in its file's
/// place (here ahead of the upstream file it would have been appended to).
#[test]
fn an_appended_document_without_a_match_stays_in_its_files_place() {
    let files = [
        (
            "overlays/extra.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"A\"})\n---\nx: 2\n#@overlay/append\n---\nkind: Extra\n",
        ),
        ("upstream/base.yml", "kind: A\nx: 1\n---\nkind: B\n"),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: Extra\n---\nkind: A\nx: 2\n---\nkind: B\n"
    );
}

/// A document holding nothing but a function definition (its body an indented map)
/// renders as an empty map and is left out of the output.
#[test]
fn a_document_holding_only_a_function_definition_is_left_out() {
    let tpl = "---\n\n#@ def labels():\n  app: web\n#@ end\n---\nselector: #@ labels()\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "selector:\n  app: web\n"
    );
}

/// In a `.star` file the indentation of block bodies does not matter (ytt re-indents
/// by `end`), so a loop written one space deeper than the line before it is accepted;
/// a last line without a newline is fine too.
#[test]
fn a_star_file_whose_loop_is_indented_deeper_than_its_neighbours() {
    let star = "seen = []\ndef add_a():\n  seen.append(\"a\")\nend\ndef add_b():\n  seen.append(\"b\")\nend\ndef check():\n  funcs = [\n    add_a,\n    add_b,\n  ]\n   for f in funcs:\n     f()\n   end\nend\n\ncheck()";
    let files = [
        ("values.star", star),
        (
            "t.yml",
            "#@ load(\"values.star\", \"seen\")\nseen: #@ seen\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "seen:\n- a\n- b\n"
    );
}

/// A `.lib.txt` function called from a text template: `-@)` trims the newline after
/// the tag, and Starlark escapes in the arguments of `replace` are read as Starlark
/// reads them.
#[test]
fn a_text_library_function_escapes_quotes_and_tabs() {
    let lib = "\n(@ def conf(user, password): -@)\n[Global]\nuser = \"(@= user.replace(\"\\\\\", \"\\\\\\\\\").replace(\"\\\"\", \"\\\\\\\"\") @)\"\npassword = \"(@= password.replace(\"\\t\",\"\\\\t\") @)\"\n(@ end -@)\n";
    let files = [
        ("conf.lib.txt", lib),
        (
            "conf.txt",
            "(@ load(\"conf.lib.txt\", \"conf\") -@)\n(@= conf(\"dom\\\\user \\\"x\\\"\", \"tab\\there\") -@)\n",
        ),
    ];
    assert_eq!(
        ytt::output_file(&files, "conf.txt"),
        "[Global]\nuser = \"dom\\\\user \\\"x\\\"\"\npassword = \"tab\\there\"\n"
    );
}

/// An array item written as a bare `-` with its map on the following lines, annotated
/// to match every item: each left item gets the new key.
#[test]
fn a_bare_dash_item_with_its_map_below_edits_every_item() {
    let tpl = "#@ load(\"@ytt:overlay\", \"overlay\")\ndevices:\n- name: a\n- name: b\n#@overlay/match by=overlay.all\n---\ndevices:\n#@overlay/match by=overlay.all, expects=\"1+\"\n-\n  #@overlay/match missing_ok=True\n  mtu: 1300\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "devices:\n- name: a\n  mtu: 1300\n- name: b\n  mtu: 1300\n"
    );
}

/// Annotation names no part of ytt looks up (`overlay/match_child_defaults`,
/// `overlay/missing-child-defaults`, typos of real ones) are ignored, on templates and
/// on data values alike.
#[test]
fn misspelt_overlay_annotations_are_ignored() {
    let files = [
        (
            "values.yml",
            "#@data/values\n#@overlay/missing-child-defaults missing_ok=True\n---\nnamespace: kube-system\n",
        ),
        (
            "t.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n#@ def patch():\n#@overlay/match_child_defaults missing_ok=True\ndata:\n  config.json: x\n#@ end\n---\n#@ base = {\"metadata\": {\"namespace\": data.values.namespace}, \"data\": None}\nresult: #@ overlay.apply(base, patch())\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "result:\n  metadata:\n    namespace: kube-system\n  data:\n    config.json: x\n"
    );
}

/// A schema array's default is empty whatever its one item says (`args: [""]`), so a
/// loop over it appends nothing; a value given for it replaces the empty list.
#[test]
fn a_schema_array_with_an_item_defaults_to_empty() {
    let files = [
        (
            "schema.yml",
            "#@data/values-schema\n---\nargs: [\"\"]\n#@schema/type any=True\ntolerations: []\n#@schema/nullable\nstrategy: \"\"\n",
        ),
        (
            "t.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\nargs:\n- --a\n#@overlay/match by=overlay.all\n---\nargs:\n#@ for arg in data.values.args:\n#@overlay/append\n- #@ arg\n#@ end\n#@overlay/match missing_ok=True\nstrategy: #@ data.values.strategy\n#@overlay/match missing_ok=True\ntolerations: #@ data.values.tolerations\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "args:\n- --a\nstrategy: null\ntolerations: []\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &["-f", ".", "--data-value-yaml", "args=[--v=2, \"\"]"]
        )
        .unwrap(),
        "args:\n- --a\n- --v=2\n- \"\"\nstrategy: null\ntolerations: []\n"
    );
}
