//! Every command's error output and exit status: one prefix (`strake: error: `) and the
//! documented statuses (0 success, 1 failure, 2 usage; `values check` 1 for violations);
//! `--help` of every command ends with an example; `strake completion` prints scripts.

use std::process::{Command, Output};

fn strake(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strake"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("running strake")
}

/// Asserts the exit status and that stderr is one `strake: error: ` message naming `what`.
fn assert_error(out: &Output, status: i32, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{stderr}");
    assert!(stderr.starts_with("strake: error: "), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
    assert!(stderr.contains(what), "wanted {what:?} in: {stderr}");
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn failures_exit_1_with_one_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bad.yml"), "a: #@ nope\n").unwrap();
    assert_error(
        &strake(d, &["template", "-f", "bad.yml"]),
        1,
        "undefined: nope",
    );
    assert_error(
        &strake(d, &["template", "-f", "missing.yml"]),
        1,
        "missing.yml",
    );
    assert_error(
        &strake(d, &["lock", "--offline", "-f", "missing.yml"]),
        1,
        "missing.yml",
    );
    assert_error(
        &strake(d, &["bundle", "describe", "-b", "oci:nowhere:v1"]),
        1,
        "nowhere",
    );
    assert_error(
        &strake(d, &["image", "digest", "oci:nowhere:v1"]),
        1,
        "nowhere",
    );
    assert_error(&strake(d, &["tag", "list", "oci:nowhere"]), 1, "nowhere");
    assert_error(
        &strake(d, &["values", "check", "--schema", "nowhere", "bad.yml"]),
        1,
        "nowhere",
    );
}

#[test]
fn usage_errors_exit_2_with_the_same_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_error(
        &strake(d, &["template", "--no-such-flag"]),
        2,
        "--no-such-flag",
    );
    // An output type the engine refuses is an error like ytt's others: status 1.
    assert_error(&strake(d, &["template", "-f", ".", "-o", "xml"]), 1, "xml");
    // A malformed --file-mark is reported when applied, with ytt's status 1.
    std::fs::write(d.join("ok.yml"), "a: 1\n").unwrap();
    assert_error(
        &strake(d, &["template", "-f", "ok.yml", "--file-mark", "x"]),
        1,
        "Expected file mark 'x' to be in format path:key=value",
    );
    assert_error(&strake(d, &["no-such-command"]), 2, "no-such-command");
    assert_error(&strake(d, &["lock", "-f", ".", "-v", "a=b"]), 2, "--render");
}

#[test]
fn values_check_exits_1_for_violations() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("deploy")).unwrap();
    std::fs::write(
        d.join("deploy/schema.yml"),
        "#@data/values-schema\n---\nport: 8080\n",
    )
    .unwrap();
    std::fs::write(d.join("good.yml"), "port: 80\n").unwrap();
    std::fs::write(d.join("bad.yml"), "port: eighty\n").unwrap();
    let out = strake(d, &["values", "check", "--schema", "deploy", "good.yml"]);
    assert_eq!(out.status.code(), Some(0));
    let out = strake(d, &["values", "check", "--schema", "deploy", "bad.yml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 violation"));
}

#[test]
fn every_help_ends_with_an_example_and_the_top_one_documents_exit_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let top = strake(dir.path(), &["--help"]);
    assert_eq!(top.status.code(), Some(0));
    let text = String::from_utf8_lossy(&top.stdout);
    assert!(text.contains("Exit status: 0 success, 1 failure"), "{text}");
    let commands: &[&[&str]] = &[
        &["version"],
        &["image"],
        &["image", "digest"],
        &["image", "copy"],
        &["tag"],
        &["tag", "list"],
        &["bundle"],
        &["bundle", "push"],
        &["bundle", "pull"],
        &["bundle", "describe"],
        &["lock"],
        &["template"],
        &["values"],
        &["values", "check"],
        &["completion"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let out = strake(dir.path(), &args);
        assert_eq!(out.status.code(), Some(0), "{command:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        let last = help.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.starts_with("Example: strake "),
            "{command:?}: {last:?}"
        );
    }
}

#[test]
fn completion_scripts_name_the_subcommands_and_their_flags() {
    let dir = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let out = strake(dir.path(), &["completion", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        for word in [
            "template",
            "bundle",
            "data-values-schema-inspect",
            "imgpkg-lock-output",
        ] {
            assert!(script.contains(word), "{shell}: no {word}");
        }
    }
    assert_error(&strake(dir.path(), &["completion", "tcsh"]), 2, "tcsh");
}
