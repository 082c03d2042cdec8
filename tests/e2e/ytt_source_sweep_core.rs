//! What `strake template` prints on stderr for template errors, byte for byte as ytt 0.48
//! lays them out: code errors as `\n- message`, then the stack innermost first (`in
//! <function>` over `file:line | source line`; syntax and name errors without a function),
//! ytt's hints, the nested error of a failed `load()` under `reason:`, the `Evaluating
//! starlark template: ` / `Evaluating text template: ` leads, and other errors split into
//! one line per `: Capital` step, each indented two more spaces.

use assert_cmd::Command;

/// Runs `strake template ARGS` in a fresh directory holding `files`; gives stderr and
/// checks that the run failed with nothing on stdout.
fn stderr_of(files: &[(&str, &str)], args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let out = Command::cargo_bin("strake")
        .unwrap()
        .current_dir(dir.path())
        .arg("template")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_name_error_shows_its_line_without_a_function() {
    assert_eq!(
        stderr_of(&[("config.yml", "a: 1\nb: #@ foo\n")], &["-f", "."]),
        "strake: error: \n- undefined: foo\n    config.yml:2 | b: #@ foo\n"
    );
}

#[test]
fn ytt_hints_follow_the_message() {
    assert_eq!(
        stderr_of(&[("config.yml", "a: #@ null\n")], &["-f", "."]),
        "strake: error: \n- undefined: null (hint: use 'None' instead of 'null' to indicate no value)\n    config.yml:1 | a: #@ null\n"
    );
}

#[test]
fn an_evaluation_error_lists_the_stack_innermost_first() {
    let helpers = "def check(port):\n  if port > 65535:\n    fail(\"port {} out of range\".format(port))\n  end\n  return port\nend\n";
    let config = "#@ load(\"helpers.star\", \"check\")\n#@ def ports():\n#@   return [check(70000)]\n#@ end\nports: #@ ports()\n";
    assert_eq!(
        stderr_of(
            &[("helpers.star", helpers), ("config.yml", config)],
            &["-f", "."]
        ),
        "strake: error: \n- fail: port 70000 out of range\n    in check\n      helpers.star:3 |     fail(\"port {} out of range\".format(port))\n    in ports\n      config.yml:3 | #@   return [check(70000)]\n    in <toplevel>\n      config.yml:5 | ports: #@ ports()\n"
    );
}

#[test]
fn a_failed_load_shows_the_loaded_files_error_as_the_reason() {
    assert_eq!(
        stderr_of(
            &[
                ("config.yml", "#@ load(\"h.star\", \"x\")\na: 1\n"),
                ("h.star", "def x():\n  return y\nend\n"),
            ],
            &["-f", "."]
        ),
        "strake: error: \n- cannot load h.star: Evaluating starlark template: \n    in <toplevel>\n      config.yml:1 | #@ load(\"h.star\", \"x\")\n\n    reason:\n     - undefined: y\n         h.star:2 |   return y\n"
    );
}

#[test]
fn a_text_template_error_has_its_lead() {
    assert_eq!(
        stderr_of(&[("c.txt", "(@= 1 + \"a\" @)\n")], &["-f", "."]),
        "strake: error: Evaluating text template: \n- unknown binary op: int + string\n    in <toplevel>\n      c.txt:1 | (@= 1 + \"a\" @)\n"
    );
}

#[test]
fn other_errors_are_split_at_colon_capital_steps() {
    let err = stderr_of(
        &[
            ("a.yml", "kind: A\n"),
            (
                "b.yml",
                "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"B\"})\n---\nkind: B\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        err,
        "strake: error: Overlaying (in following order: b.yml):\n  Document on line b.yml:3:\n    Expected number of matched nodes to be 1, but was 0\n"
    );
}
