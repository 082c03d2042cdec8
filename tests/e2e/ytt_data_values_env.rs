//! `--data-values-env PREFIX` and `--data-values-env-yaml PREFIX` as ytt 0.48 reads
//! them: every `PREFIX_key__sub=value` variable sets `key.sub`, as a string or parsed as
//! YAML, in the environment's own order (new keys are added in that order); every plain
//! prefix before every YAML one; `-v` and the other key-value flags come after and win;
//! `@lib:PREFIX` gives the values to a library; a value that fails a check is reported at
//! `(data-values-env arg) PREFIX:1` with its variable, the place ytt gives it.

const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n";
const VALUES: &str = "#@data/values\n---\na:\n  b: 0\n  c: x\nnum: 0\n";

/// Runs `strake template ARGS` over `files` with only `env` in the environment, in
/// that order (set through `env -i`, since `Command` would sort them); gives the exit
/// code, stdout and stderr.
fn run(files: &[(&str, &str)], env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let mut cmd = std::process::Command::new("env");
    cmd.current_dir(dir.path()).arg("-i");
    for (k, v) in env {
        cmd.arg(format!("{k}={v}"));
    }
    let out = cmd
        .arg(assert_cmd::cargo::cargo_bin("strake"))
        .arg("template")
        .args(args)
        .output()
        .unwrap();
    crate::support::ytt::outcome(out)
}

#[test]
fn env_values_are_strings_and_new_keys_follow_the_environment_order() {
    let (code, out, err) = run(
        &[("t.yml", TEMPLATE), ("dv.yml", VALUES)],
        &[
            ("APP_z", "1"),
            ("APP_a__b", "2"),
            ("OTHER_num", "9"),
            ("APP_m", "true"),
        ],
        &["-f", ".", "--data-values-env", "APP"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "v:\n  a:\n    b: \"2\"\n    c: x\n  num: 0\n  z: \"1\"\n  m: \"true\"\n"
    );
}

#[test]
fn env_yaml_values_are_parsed_and_key_value_flags_win_over_them() {
    let (code, out, err) = run(
        &[("t.yml", TEMPLATE), ("dv.yml", VALUES)],
        &[("APP_a__b", "1"), ("APP_num", "true")],
        &[
            "-f",
            ".",
            "--data-values-env-yaml",
            "APP",
            "-v",
            "num=from-flag",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "v:\n  a:\n    b: 1\n    c: x\n  num: from-flag\n");
}

#[test]
fn a_failed_validation_names_the_env_prefix_that_set_the_value() {
    let schema = "#@data/values-schema\n---\n#@schema/validation one_of=[\"a\", \"b\"]\nmode: a\n";
    for (flag, place) in [
        ("--data-values-env", "(data-values-env arg) DV:1"),
        ("--data-values-env-yaml", "(data-values-env-yaml arg) DV:1"),
    ] {
        let (code, out, err) = run(
            &[("schema.yml", schema)],
            &[("DV_mode", "c")],
            &["-f", ".", flag, "DV"],
        );
        assert_eq!((code, out.as_str()), (1, ""));
        assert!(
            err.contains(&format!(
                "  mode\n    from: {place}\n    - must be: one of [\"a\", \"b\"] (by: schema.yml:3)\n      found: not one of allowed values"
            )),
            "{flag}: {err}"
        );
    }
}

#[test]
fn every_plain_env_prefix_comes_before_every_yaml_one_whatever_the_flag_order() {
    let (code, out, err) = run(
        &[("t.yml", TEMPLATE), ("dv.yml", VALUES)],
        &[("Y_num", "1"), ("S_num", "two")],
        &[
            "-f",
            ".",
            "--data-values-env-yaml",
            "Y",
            "--data-values-env",
            "S",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "v:\n  a:\n    b: 0\n    c: x\n  num: 1\n");
}

#[test]
fn an_undeclared_env_value_is_shown_at_the_prefix_with_its_variable() {
    let schema = "#@data/values-schema\n---\nmode: a\n";
    let (code, _, err) = run(
        &[("schema.yml", schema)],
        &[("DV_nope", "x")],
        &["-f", ".", "--data-values-env", "DV"],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Given data value is not declared in schema\n(data-values-env arg) DV:\n    |\n  1 | DV_nope=x\n    |\n"
        ),
        "{err}"
    );
}

#[test]
fn a_library_prefix_gives_the_env_values_to_that_library() {
    let files = [
        ("_ytt_lib/lib/v.yml", "#@data/values\n---\nx: 1\n"),
        (
            "_ytt_lib/lib/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nlx: #@ data.values.x\n",
        ),
        (
            "main.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n",
        ),
    ];
    let (code, out, err) = run(
        &files,
        &[("DV_x", "5")],
        &["-f", ".", "--data-values-env-yaml", "@lib:DV"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "lx: 5\n");
    let (code, _, err) = run(
        &files,
        &[("DV_x", "5")],
        &["-f", ".", "--data-values-env", "@:DV"],
    );
    // A flag's value refused by the engine: exit 1, as ytt exits for every error, laid
    // out as ytt lays out every error (`NewMultiLineError`).
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "strake: error: Extracting data values from env under prefix '@:DV':\n  Expected library ref to not be empty\n"
    );
}

/// ytt's `env` splits a variable's name at `__` alone: a dot is part of the key
/// (`DV_a.b` sets the key `a.b`), unlike `-v a.b=…`, whose key path is split at dots.
/// The same holds for the values a `@lib:` prefix gives to a library.
#[test]
fn a_dot_in_an_env_variable_name_is_part_of_the_key() {
    let (code, out, err) = run(
        &[("t.yml", TEMPLATE)],
        &[("DV_a.b", "1"), ("DV_c__d.e", "2")],
        &["-f", ".", "--data-values-env", "DV", "-v", "x.y=3"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "v:\n  a.b: \"1\"\n  c:\n    d.e: \"2\"\n  x:\n    \"y\": \"3\"\n"
    );
    let files = [
        (
            "_ytt_lib/lib/t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nlv: #@ data.values\n",
        ),
        (
            "main.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n",
        ),
    ];
    let (code, out, err) = run(
        &files,
        &[("DV_k.l__m", "5")],
        &["-f", ".", "--data-values-env-yaml", "@lib:DV"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "lv:\n  k.l:\n    m: 5\n");
}

/// ytt reads every data value flag (`DataValuesFlags.AsOverlays`) before it templates
/// any file: a `--data-values-env-yaml` value that is no YAML is reported even when a
/// template would fail too.
#[test]
fn a_bad_env_yaml_value_is_reported_before_any_template_fails() {
    let (code, _, err) = run(
        &[("t.yml", "--- #@ fail(\"boom\")\n")],
        &[("DV_a", "[1")],
        &["-f", ".", "--data-values-env-yaml", "DV"],
    );
    assert_eq!(code, 1);
    assert!(
        err.starts_with(
            "strake: error: Extracting data values from env under prefix 'DV': Extracting data value from env variable 'DV_a': Deserializing YAML value: "
        ),
        "{err}"
    );
    assert!(!err.contains("boom"), "{err}");
}
