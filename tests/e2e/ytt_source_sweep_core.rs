//! What `strake template` prints on stderr for template errors, byte for byte as ytt 0.48
//! lays them out: code errors as `\n- message`, then the stack innermost first (`in
//! <function>` over `file:line | source line`; syntax and name errors without a function),
//! ytt's hints, the nested error of a failed `load()` under `reason:`, the `Evaluating
//! starlark template: ` / `Evaluating text template: ` leads, and other errors split into
//! one line per `: Capital` step, each indented two more spaces.

use crate::support::ytt::{failure_of, run_in};

/// Runs `strake template ARGS` in a fresh directory holding `files`; gives stderr and
/// checks that the run failed with nothing on stdout.
fn stderr_of(files: &[(&str, &str)], args: &[&str]) -> String {
    failure_of(files, args)
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
        "strake: error: \n- fail: port 70000 out of range\n    in check\n      3 |     fail(\"port {} out of range\".format(port))\n    in ports\n      config.yml:3 | #@   return [check(70000)]\n    in <toplevel>\n      config.yml:5 | ports: #@ ports()\n"
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
        "strake: error: \n- cannot load h.star: Evaluating starlark template: \n    in <toplevel>\n      config.yml:1 | #@ load(\"h.star\", \"x\")\n\n    reason:\n     - undefined: y\n         2 |   return y\n"
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

#[test]
fn a_file_may_be_given_its_relative_path_and_output_files_are_announced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::write(dir.path().join("d/c.yml"), "a: 1\n").unwrap();
    std::fs::write(dir.path().join("d/t.txt"), "(@= \"hi\" @)\n").unwrap();
    std::fs::write(dir.path().join("x.yml"), "b: 2\n").unwrap();
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-f",
            "d",
            "-f",
            "sub/renamed.yml=x.yml",
            "--output-files",
            "./out/",
        ],
        "",
    );
    assert_eq!(code, 0);
    // Text templates' files first, then the YAML files in file order.
    assert_eq!(
        stdout,
        "creating: out/t.txt\ncreating: out/c.yml\ncreating: out/sub/renamed.yml\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/sub/renamed.yml")).unwrap(),
        "b: 2\n"
    );
    let (code, _, stderr) = run_in(dir.path(), &["-f", "a=b=x.yml"], "");
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "strake: error: Expected file 'a=b=x.yml' to only have single '=' sign to for relative path assignment\n"
    );
}

#[test]
fn text_templates_left_out_of_stdout_get_ytts_warning() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.yml"), "a: 1\n").unwrap();
    std::fs::write(dir.path().join("t.txt"), "(@= \"hi\" @)\n").unwrap();
    let (code, stdout, stderr) = run_in(dir.path(), &["-f", "."], "");
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n"));
    assert_eq!(
        stderr,
        "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\nIf you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag.\n"
    );
}

#[test]
fn the_emptied_output_directory_is_deleted_first_and_never_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    std::fs::write(dir.path().join("out/old.yml"), "old: 1\n").unwrap();
    std::fs::write(dir.path().join("c.yml"), "a: 1\n").unwrap();
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "c.yml", "--dangerous-emptied-output-directory", "out"],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "creating: out/c.yml\n"));
    assert!(!dir.path().join("out/old.yml").exists());
    let (code, _, stderr) = run_in(
        dir.path(),
        &["-f", "c.yml", "--dangerous-emptied-output-directory", "."],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "strake: error: Expected output directory path to not be one of '/', '.', './', ''\n"
    );
}

#[test]
fn symlinked_inputs_need_an_allowed_destination() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    std::fs::write(dir.path().join("shared/c.yml"), "a: 1\n").unwrap();
    std::os::unix::fs::symlink("../shared/c.yml", dir.path().join("d/l.yml")).unwrap();
    let (code, _, stderr) = run_in(dir.path(), &["-f", "d"], "");
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "strake: error: Listing files 'd':\n  Checking symlink file 'd/l.yml':\n    Expected symlink file 'd/l.yml' -> 'shared/c.yml' to be allowed, but was not\n"
    );
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "d", "--allow-symlink-destination", "shared"],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n"));
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "d", "--dangerous-allow-all-symlink-destinations"],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n"));
}

#[test]
fn a_missing_input_is_reported_as_go_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run_in(dir.path(), &["-f", "nope.yml"], "");
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "strake: error: Checking file 'nope.yml': lstat nope.yml: no such file or directory\n"
    );
}

#[test]
fn file_marks_follow_ytt() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::write(dir.path().join("d/a.yml"), "a: 1\n").unwrap();
    std::fs::write(dir.path().join("d/b.yml"), "b: 2\n").unwrap();
    std::fs::write(
        dir.path().join("d/values.yml"),
        "#@data/values\n---\nv: 3\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("d/c.lib.yml"),
        "#@ load(\"@ytt:data\", \"data\")\nc: #@ data.values.v\n",
    )
    .unwrap();
    // exclusive-for-output: only the marked files are output; values still apply.
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "-f",
            "d",
            "--file-mark",
            "b.yml:exclusive-for-output=true",
            "--file-mark",
            "c.lib.yml:exclusive-for-output=true",
        ],
        "",
    );
    assert_eq!(
        (code, stdout.as_str()),
        (0, "b: 2\n---\nc: 3\n"),
        "{stderr}"
    );
    // for-output on a library file outputs it; a path mark renames (marks match the
    // original path).
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-f",
            "d",
            "--file-mark",
            "c.lib.yml:for-output=true",
            "--file-mark",
            "a.yml:path=z.yml",
            "--file-mark",
            "a.yml:exclude=true",
        ],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "b: 2\n---\nc: 3\n"));
    for (mark, message) in [
        (
            "a.yml",
            "Expected file mark 'a.yml' to be in format path:key=value",
        ),
        (
            "a.yml:exclude",
            "Expected file mark 'a.yml:exclude' key-value portion to be in format key=value",
        ),
        (
            "a.yml:exclude=false",
            "Unknown value in file mark 'a.yml:exclude=false'",
        ),
        (
            "a.yml:type=json",
            "Unknown value in file mark 'a.yml:type=json'",
        ),
        (
            "a.yml:colour=red",
            "Unknown key in file mark 'a.yml:colour=red'",
        ),
        (
            "nope.yml:exclude=true",
            "Expected file mark 'nope.yml:exclude=true' to match at least one file by path, but did not",
        ),
    ] {
        let (code, _, stderr) = run_in(dir.path(), &["-f", "d", "--file-mark", mark], "");
        assert_eq!(code, 1, "{mark}");
        assert_eq!(stderr, format!("strake: error: {message}\n"));
    }
}

#[test]
fn files_inspect_lists_the_root_librarys_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("_ytt_lib/x")).unwrap();
    std::fs::write(dir.path().join("c.yml"), "a: 1\n").unwrap();
    std::fs::write(dir.path().join("README.md"), "x\n").unwrap();
    std::fs::write(dir.path().join("_ytt_lib/x/y.yml"), "y: 1\n").unwrap();
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-f",
            ".",
            "--files-inspect",
            "--file-mark",
            "c.yml:path=z.yml",
        ],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "- README.md\n- z.yml\n"));
    let (code, stdout, stderr) = run_in(dir.path(), &["-f", ".", "--debug"], "");
    assert_eq!((code, stdout.as_str()), (0, "a: 1\n"));
    assert!(
        stderr.contains("## file c.yml") && stderr.contains("total: "),
        "{stderr}"
    );
}

#[test]
fn misplaced_comments_and_annotations_are_compile_errors_worded_as_in_ytt() {
    assert_eq!(
        stderr_of(&[("c.yml", "a: 1 # plain\nb: #@ 2\n")], &["-f", "."]),
        "strake: error: Compiling YAML template 'c.yml':\n  Failed to parse line 1: '# plain':\n    Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)\n    in c.yml:1\n      c.yml:1 | a: 1 # plain\n"
    );
    assert_eq!(
        stderr_of(&[("c.yml", "a: #@ 1\n  b: 2\n")], &["-f", "."]),
        "strake: error: Compiling YAML template 'c.yml':\n  Expected YAML node at line c.yml:1 to have either computed or YAML value, but found both\n"
    );
    assert_eq!(
        stderr_of(
            &[("c.yml", "#@ if/end True:\n#@ x = 1\na: 1\n")],
            &["-f", "."]
        ),
        "strake: error: Compiling YAML template 'c.yml':\n  Unexpected code at line c.yml:2 after use of '*/end', expected YAML node\n"
    );
}

#[test]
fn data_values_errors_name_the_overlay_order_and_the_templated_file() {
    let values = "#@data/values\n---\na: #@ nope\n";
    assert_eq!(
        stderr_of(
            &[("v.yml", values), ("c.yml", "x: 1\n")],
            &["-f", ".", "-v", "a=1"]
        ),
        "strake: error: Overlaying data values (in following order: v.yml, additional data values):\n  Templating file 'v.yml': \n- undefined: nope\n    v.yml:3 | a: #@ nope\n"
    );
    assert_eq!(
        stderr_of(
            &[
                ("v.yml", "#@data/values\n---\na: 1\n"),
                ("w.yml", "#@data/values\n---\nb: 1\n"),
                ("c.yml", "x: 1\n"),
            ],
            &["-f", "."]
        ),
        "strake: error: Overlaying data values (in following order: v.yml, w.yml):\n  Document on line w.yml:2:\n    Map item (key 'b') on line w.yml:3:\n      Expected number of matched nodes to be 1, but was 0\n"
    );
}
