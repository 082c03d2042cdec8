//! Constructs met while rendering another round of public ytt directories (Carvel
//! package bundles, service-instance bundles, Concourse pipeline generators, library
//! compositions), each reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// Two `-f` directories that each hold a schema file of the same relative path: ytt
/// reads both and overlays the second schema document on the first, so the key the
/// second adds (with `missing_ok=True`) is a data value.
#[test]
fn same_named_schema_files_in_two_directories_are_both_read() {
    let files = [
        (
            "base/values-schema.yml",
            "#@data/values-schema\n---\nnamespace: default\n",
        ),
        (
            "extra/values-schema.yml",
            "#@data/values-schema\n---\n#@overlay/match missing_ok=True\n#@overlay/match-child-defaults\ndev:\n  version: develop\n",
        ),
        (
            "base/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nns: #@ data.values.namespace\nversion: #@ data.values.dev.version\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "base", "-f", "extra"]).unwrap(),
        "ns: default\nversion: develop\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &["-f", "base", "-f", "extra", "--data-values-inspect"]
        )
        .unwrap(),
        "namespace: default\ndev:\n  version: develop\n"
    );
}

/// The same for data values files: the one in the second directory overlays the one of
/// the same name in the first.
#[test]
fn same_named_data_values_files_in_two_directories_are_both_read() {
    let files = [
        ("a/values.yml", "#@data/values\n---\nname: first\nsize: 1\n"),
        ("b/values.yml", "#@data/values\n---\nname: second\n"),
        (
            "a/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\nsize: #@ data.values.size\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "a", "-f", "b"]).unwrap(),
        "name: second\nsize: 1\n"
    );
}
