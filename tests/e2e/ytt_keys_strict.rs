//! Map keys and `--strict`: an overriding key (`#@yaml/map-key-override` or
//! `--implicit-map-key-overrides`) moves to the end of its map; a key given twice in a
//! `--data-values-file` or in `yaml.decode` input is refused; `--strict` refuses
//! ambiguous plain scalars in templates, data values files and `--data-value-yaml`, at
//! file:line, and leaves quoted, tagged and computed values alone. Also: which empty
//! documents are printed (computed `{}`/`[]` are, null and YAML-written empty ones not).

use crate::support::ytt::render as render_args;

#[test]
fn an_overriding_key_moves_to_the_end_of_its_map() {
    let src = "#@ x = 1\nfirst: a\nsecond: b\n#@yaml/map-key-override\nfirst: c\n";
    assert_eq!(
        render_args(&[("config.yml", src)], &["-f", "."]).unwrap(),
        "second: b\nfirst: c\n"
    );
    let src = "#@ x = 1\nfirst: a\nsecond: b\nfirst: c\n";
    assert_eq!(
        render_args(
            &[("config.yml", src)],
            &["-f", ".", "--implicit-map-key-overrides"]
        )
        .unwrap(),
        "second: b\nfirst: c\n"
    );
}

#[test]
fn duplicate_keys_in_data_values_files_and_yaml_decode_are_refused() {
    let config = "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n";
    let err = render_args(
        &[("config.yml", config), ("dv.yml", "k: 1\nk: 2\n")],
        &["-f", "config.yml", "--data-values-file", "dv.yml"],
    )
    .unwrap_err();
    assert!(
        err.contains("Unexpected duplicate key: k") && err.contains("dv.yml:2"),
        "{err}"
    );
    let decode = "#@ load(\"@ytt:yaml\", \"yaml\")\nv: #@ yaml.decode(\"k: 1\\nk: 2\\n\")\n";
    let err = render_args(&[("config.yml", decode)], &["-f", "."]).unwrap_err();
    assert!(err.contains("Unexpected duplicate key: k"), "{err}");
}

#[test]
fn strict_refuses_ambiguous_plain_scalars_at_their_line() {
    for (value, message) in [
        ("null", "Found 'null' ambigious (could be !!str or !!null)"),
        ("0x10", "Found '0x10' ambigious (could be !!str or !!int)"),
        ("yes", "Found 'yes' ambigious (could be !!str or !!bool)"),
        (
            "2001-01-01",
            "Found '2001-01-01' ambigious (could be !!str or !!timestamp)",
        ),
        (
            "hello world",
            "Strings with whitespace must be explicitly quoted: 'hello world'",
        ),
        ("a:b", "Strings with colon must be explicitly quoted: 'a:b'"),
        (
            "---x",
            "Strings with triple-dash must be explicitly quoted: '---x'",
        ),
    ] {
        let src = format!("ok: 1\nv: {value}\n");
        let err = render_args(&[("config.yml", &src)], &["-f", ".", "--strict"]).unwrap_err();
        assert!(
            err.contains(message) && err.contains("config.yml:2"),
            "{value}: {err}"
        );
        // Without --strict the same file renders.
        render_args(&[("config.yml", &src)], &["-f", "."]).unwrap();
    }
}

#[test]
fn strict_covers_data_values_but_not_quoted_tagged_or_computed_values() {
    let config = "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n";
    let err = render_args(
        &[("config.yml", config), ("dv.yml", "v: on\n")],
        &[
            "-f",
            "config.yml",
            "--data-values-file",
            "dv.yml",
            "--strict",
        ],
    )
    .unwrap_err();
    assert!(err.contains("Found 'on' ambigious"), "{err}");
    let err = render_args(
        &[("config.yml", config)],
        &["-f", ".", "--data-value-yaml", "v=yes", "--strict"],
    )
    .unwrap_err();
    assert!(err.contains("Found 'yes' ambigious"), "{err}");
    let ok = "a: \"yes\"\nb: !!str yes\nc: #@ \"hello world\"\nd: -3.5\ne: 1e3\nf:\ng: some-word\n";
    assert_eq!(
        render_args(&[("config.yml", ok)], &["-f", ".", "--strict"]).unwrap(),
        "a: \"yes\"\nb: \"yes\"\nc: hello world\nd: -3.5\ne: 1000\nf: null\ng: some-word\n"
    );
}

#[test]
fn computed_empty_collections_are_documents_but_yaml_written_ones_and_nulls_are_not() {
    let src = "#@ nothing = None\n--- #@ nothing\n--- #@ {}\n--- #@ []\n--- #@ \"\"\n---\n--- {}\n--- []\n";
    assert_eq!(
        render_args(&[("config.yml", src)], &["-f", "."]).unwrap(),
        "{}\n---\n[]\n---\n\"\"\n"
    );
}
