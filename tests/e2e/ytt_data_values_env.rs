//! `--data-values-env PREFIX` and `--data-values-env-yaml PREFIX` as ytt 0.48 reads
//! them: every `PREFIX_key__sub=value` variable sets `key.sub`, as a string or parsed as
//! YAML, in the environment's own order (new keys are added in that order); `-v` and the
//! other key-value flags come after and win; a value that fails validation is reported
//! at `(data-values-env arg) PREFIX:1`, the place ytt gives it.

const TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n";
const VALUES: &str = "#@data/values\n---\na:\n  b: 0\n  c: x\nnum: 0\n";

/// Runs `strake template ARGS` over `files` with only `env` in the environment, in
/// that order (set through `env -i`, since `Command` would sort them); gives the exit
/// code, stdout and stderr.
fn run(files: &[(&str, &str)], env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
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
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
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
