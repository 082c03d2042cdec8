//! Data values from more sources, as ytt 0.48 takes them: `--data-values-file` of a
//! directory (every file under it, YAML or not, in path order), `--data-values-file
//! @lib:path` for a library, and a library's value order: its own files, the parent's
//! `#@library/ref` documents, `@lib:` flags (type-checked against the library's
//! schema), `with_data_values`, then documents marked `after_library_module=True`;
//! `library.get` from a file in a subdirectory finds the `_ytt_lib` beside it; schema
//! documents marked `#@library/ref` are overlaid on the named library's schema (before
//! its `with_data_values_schema` ones), passed down by nested paths, and refused when
//! no `library.get` takes them.

use crate::support::ytt::render as render_args;

const SHOW: &str = "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n";
const LIB_CALL: &str = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").with_data_values({\"c\": \"with\"}).eval())\n";

#[test]
fn a_data_values_file_directory_reads_every_file_under_it_in_path_order() {
    let files = [
        ("config.yml", SHOW),
        ("dv/a.yml", "name: a\nsize: 1\n"),
        ("dv/notes.txt", "extra: txt\n"),
        ("dv/sub/b.yaml", "size: 2\n"),
    ];
    assert_eq!(
        render_args(&files, &["-f", "config.yml", "--data-values-file", "dv"]).unwrap(),
        "name: a\nsize: 2\nextra: txt\n"
    );
    // Files under the directory are named by their paths inside it.
    let bad = [("config.yml", SHOW), ("dv/sub/a.yml", "k: 1\nk: 2\n")];
    let err = render_args(&bad, &["-f", "config.yml", "--data-values-file", "dv"]).unwrap_err();
    assert!(err.contains("in sub/a.yml:2"), "{err}");
    // A library gets a directory's values too.
    let lib = [
        ("config.yml", LIB_CALL),
        ("dv/a.yml", "a: dir\n"),
        ("dv/b.txt", "b: txt\n"),
        (
            "_ytt_lib/app/values.yml",
            "#@data/values\n---\na: lib\nc: lib\n",
        ),
        ("_ytt_lib/app/out.yml", SHOW),
    ];
    assert_eq!(
        render_args(&lib, &["-f", ".", "--data-values-file", "@app:dv"]).unwrap(),
        // (dv/a.yml is also a template of `-f .`)
        "a: dir\nc: with\nb: txt\n---\na: dir\n"
    );
}

#[test]
fn library_values_come_from_files_refs_flags_with_data_values_and_after_module_refs_in_order() {
    let files = [
        ("config.yml", LIB_CALL),
        ("lib-values.yaml", "a: file\n"),
        (
            "after.yml",
            "#@library/ref \"@app\"\n#@data/values after_library_module=True\n---\nd: after\n",
        ),
        (
            "_ytt_lib/app/values.yml",
            "#@data/values\n---\na: lib\nb: lib\nc: lib\nd: lib\n",
        ),
        ("_ytt_lib/app/out.yml", SHOW),
    ];
    let out = render_args(
        &files,
        &[
            "-f",
            ".",
            "--file-mark",
            "lib-values.yaml:exclude=true",
            "--data-values-file",
            "@app:lib-values.yaml",
            "--data-value",
            "@app:b=flag",
            "--data-value",
            "@app:c=flag",
            "--data-value",
            "@app:d=flag",
        ],
    )
    .unwrap();
    assert_eq!(out, "a: file\nb: flag\nc: with\nd: after\n");
}

#[test]
fn library_flags_are_checked_against_the_library_schema() {
    let files = [
        (
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").eval())\n",
        ),
        (
            "_ytt_lib/app/schema.yml",
            "#@data/values-schema\n---\nreplicas: 1\n",
        ),
        ("_ytt_lib/app/out.yml", SHOW),
    ];
    let err = render_args(&files, &["-f", ".", "--data-value", "@app:replicas=4"]).unwrap_err();
    assert!(err.contains("expected: integer"), "{err}");
    assert_eq!(
        render_args(&files, &["-f", ".", "--data-value-yaml", "@app:replicas=4"]).unwrap(),
        "replicas: 4\n"
    );
}

/// ytt looks a library up in the `_ytt_lib` of the calling file's own directory only
/// (`Library.FindAccessibleLibrary`): one beside the file wins over the root's, and one
/// in a directory above is not seen.
#[test]
fn library_get_from_a_subdirectory_finds_the_ytt_lib_beside_the_file_only() {
    let get = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"inner\").eval())\n";
    let files = [
        ("sub/config.yml", get),
        ("sub/_ytt_lib/inner/out.yml", "from: inner\n"),
        ("_ytt_lib/inner/out.yml", "from: root-inner\n"),
    ];
    assert_eq!(render_args(&files, &["-f", "."]).unwrap(), "from: inner\n");
    let files = [
        ("sub/deeper/config.yml", get),
        ("sub/_ytt_lib/inner/out.yml", "from: inner\n"),
    ];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("Could not find private library (directory '_ytt_lib' missing?)"),
        "{err}"
    );
}

#[test]
fn a_library_ref_no_library_get_takes_is_an_error() {
    let files = [
        ("config.yml", "top: 1\n"),
        ("_ytt_lib/app/values.yml", "#@data/values\n---\na: lib\n"),
        (
            "ref-values.yml",
            "#@library/ref \"@missing\"\n#@data/values\n---\na: ref\n",
        ),
    ];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("Expected all provided library data values documents to be used")
            && err.contains("'@missing'")
            && err.contains("ref-values.yml:3"),
        "{err}"
    );
}

const SCHEMA_LIB: [(&str, &str); 2] = [
    (
        "_ytt_lib/app/schema.yml",
        "#@data/values-schema\n---\nname: lib-default\nreplicas: 1\n",
    ),
    (
        "_ytt_lib/app/show.yml",
        "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
    ),
];

#[test]
fn a_library_ref_schema_document_is_overlaid_on_the_library_schema() {
    let call = "\
#@ load(\"@ytt:library\", \"library\")
#@ load(\"@ytt:template\", \"template\")
#@ def more():
replicas: 3
#@overlay/match missing_ok=True
debug: false
#@ end
--- #@ template.replace(library.get(\"app\").with_data_values_schema(more()).eval())
";
    let root_schema = "\
#@data/values-schema
---
root_only: true
#@library/ref \"@app\"
#@data/values-schema
---
#@overlay/match missing_ok=True
port: 8080
replicas: 2
";
    let values = "#@library/ref \"@app\"\n#@data/values\n---\nname: app1\n";
    let mut files = SCHEMA_LIB.to_vec();
    files.extend([
        ("config.yml", call),
        ("schema.yml", root_schema),
        ("values.yml", values),
        ("root.yml", SHOW),
    ]);
    // The root's own schema leaves out the document meant for the library; the
    // library's schema gets `port`, then `with_data_values_schema` sets the default of
    // `replicas` last.
    assert_eq!(
        render_args(&files, &["-f", "."]).unwrap(),
        "name: app1\nreplicas: 3\nport: 8080\ndebug: false\n---\nroot_only: true\n"
    );
    let wrong = "#@library/ref \"@app\"\n#@data/values\n---\nport: not-a-number\n";
    files.push(("values2.yml", wrong));
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("values2.yml:\n         |\n       4 | port: not-a-number\n")
            && err.contains("expected: integer (by schema.yml:8)"),
        "{err}"
    );
}

#[test]
fn library_ref_schema_documents_follow_nested_paths_and_aliases() {
    let files = [
        (
            "_ytt_lib/outer/_ytt_lib/inner/show.yml",
            "#@ load(\"@ytt:data\", \"data\")\ninner: #@ data.values\n",
        ),
        (
            "_ytt_lib/outer/show.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ load(\"@ytt:data\", \"data\")\nouter: #@ data.values\n--- #@ template.replace(library.get(\"inner\").eval())\n",
        ),
        (
            "schema.yml",
            "#@library/ref \"@outer@inner\"\n#@data/values-schema\n---\ncolor: red\n#@library/ref \"@~o1\"\n#@data/values-schema\n---\nwho: one\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"outer\", alias=\"o1\").eval())\n",
        ),
    ];
    assert_eq!(
        render_args(&files, &["-f", ".", "--data-value", "@~o1:who=two"]).unwrap(),
        "outer:\n  who: two\n---\ninner:\n  color: red\n"
    );
}

#[test]
fn a_library_ref_schema_document_no_library_get_takes_is_an_error() {
    let mut files = SCHEMA_LIB.to_vec();
    files.extend([
        ("config.yml", "top: 1\n"),
        (
            "schema.yml",
            "#@library/ref \"@app\"\n#@data/values-schema\n---\nport: 1\n",
        ),
    ]);
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("Expected all provided library schema documents to be used")
            && err.contains("'@app'")
            && err.contains("schema.yml:3"),
        "{err}"
    );
}

#[test]
fn a_library_ref_for_a_library_the_named_library_never_gets_is_an_error() {
    // The document is passed down to `outer`, whose templates never get `inner`: ytt
    // checks each library's leftover documents when that library is evaluated, and
    // names each by the whole path its annotation gave (`Envelope.Desc`).
    let files = [
        ("_ytt_lib/outer/show.yml", "outer: 1\n"),
        (
            "values.yml",
            "#@library/ref \"@outer@inner\"\n#@data/values\n---\na: 1\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"outer\").eval())\n",
        ),
    ];
    let err = render_args(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("Expected all provided library data values documents to be used")
            && err.contains("'@outer@inner'")
            && err.contains("values.yml:3"),
        "{err}"
    );
}
