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

/// `--output-files` writes as ytt's `OutputFile.Create` does: a new directory is made
/// with mode 0700 and a new file with mode 0700 (a templated shell script comes out
/// executable for its owner), while a file already there is rewritten in place and keeps
/// its mode.
#[test]
fn output_files_are_created_owner_only_and_executable_and_existing_ones_keep_their_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("run.sh.txt"),
        "(@ load(\"@ytt:data\", \"data\") @)#!/bin/sh\nexec (@= data.values.cmd @)\n",
    )
    .unwrap();
    let run = || {
        assert_cmd::Command::cargo_bin("strake")
            .unwrap()
            .current_dir(dir.path())
            .args(["template", "-f", "run.sh.txt", "-v", "cmd=telegraf"])
            .args(["--output-files", "out/etc"])
            .output()
            .unwrap()
    };
    let out = run();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "creating: out/etc/run.sh.txt\n"
    );
    let mode = |p: &str| {
        std::fs::metadata(dir.path().join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    for p in ["out", "out/etc", "out/etc/run.sh.txt"] {
        assert_eq!(mode(p) & 0o700, 0o700, "{p}");
        assert_eq!(mode(p) & 0o077, 0, "{p}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/etc/run.sh.txt")).unwrap(),
        "#!/bin/sh\nexec telegraf\n"
    );
    let file = dir.path().join("out/etc/run.sh.txt");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    std::fs::write(&file, "old content that is longer than the new one\n").unwrap();
    run();
    assert_eq!(mode("out/etc/run.sh.txt"), 0o640);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "#!/bin/sh\nexec telegraf\n"
    );
}
