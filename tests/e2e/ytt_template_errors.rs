//! Errors of bad templates name the template file and line and show the offending
//! line (undefined names, wrong types, bad YAML, unclosed blocks, overlay expectations,
//! plain comments, nesting past the parser limit), and `strake template` prints them and
//! exits non-zero.

use std::path::Path;

use assert_cmd::Command;
use strake::cli::template::parse_options;
use strake::ytt::run;

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

fn assert_error(files: &[(&str, &str)], message: &str, at: &str, line_text: &str) {
    let err = render(files).expect_err("rendering must fail");
    assert!(
        err.contains(message),
        "message {message:?} missing in:\n{err}"
    );
    assert!(
        err.contains(&format!("in {at}")) || err.contains(&format!("{at} |")),
        "position {at} missing in:\n{err}"
    );
    assert!(
        err.contains(&format!("{at} | {line_text}")),
        "line text {line_text:?} missing in:\n{err}"
    );
}

#[test]
fn undefined_name() {
    assert_error(
        &[("config.yml", "a: 1\nb: #@ nope\n")],
        "undefined: nope",
        "config.yml:2",
        "b: #@ nope",
    );
}

#[test]
fn wrong_type_inside_a_function() {
    assert_error(
        &[(
            "config.yml",
            "#@ def f():\n#@   return 1 + \"a\"\n#@ end\nx: #@ f()\n",
        )],
        "unknown binary op: int + string",
        "config.yml:2",
        "#@   return 1 + \"a\"",
    );
}

#[test]
fn duplicate_key_among_plain_nodes_points_at_its_own_line() {
    // `b`, `c` and the second `a` are plain nodes built by one generated statement; the
    // error names the duplicate's line, not the first line of that statement.
    assert_error(
        &[(
            "config.yml",
            "#@ v = 1\nx: #@ v\na: 1\nb:\n  c: 2\na: 3\nd: 4\n",
        )],
        "expected key 'a' to not be specified again",
        "config.yml:6",
        "a: 3",
    );
}

#[test]
fn bad_yaml() {
    assert_error(
        &[("config.yml", "a: 1\nb: [\n")],
        "yaml: line 2: did not find expected ',' or ']'",
        "config.yml:2",
        "b: [",
    );
}

#[test]
fn unclosed_block() {
    assert_error(
        &[("sub/config.yml", "x: 1\n#@ if True:\na: 1\n")],
        "- mismatched set of block openings (if/else/elif/for/def) and closing (end)",
        "sub/config.yml:2",
        "#@ if True:",
    );
}

#[test]
fn overlay_expects_not_met() {
    // As in ytt: the message names the overlay document's place; no source line follows.
    let err = render(&[
        ("a.yml", "kind: A\n"),
        (
            "b.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"B\"})\n---\nkind: B\n",
        ),
    ])
    .unwrap_err();
    assert_eq!(
        err,
        "Overlaying (in following order: b.yml): Document on line b.yml:3: Expected number of matched nodes to be 1, but was 0"
    );
}

#[test]
fn plain_comment_in_templated_file() {
    assert_error(
        &[("config.yml", "a: 1 # plain\nb: #@ 2\n")],
        "Expected ytt-formatted string",
        "config.yml:1",
        "a: 1 # plain",
    );
}

#[test]
fn error_in_loaded_library_file() {
    let err = render(&[
        (
            "config.yml",
            "#@ load(\"helpers.lib.yml\", \"f\")\nx: #@ f()\n",
        ),
        (
            "helpers.lib.yml",
            "#@ def f():\n#@   return missing_thing\n#@ end\n",
        ),
    ])
    .unwrap_err();
    assert!(err.contains("undefined: missing_thing"), "{err}");
    assert!(err.contains("helpers.lib.yml:2"), "{err}");
}

#[test]
fn expression_past_the_nesting_limit() {
    // A left-deep chain of 5,000 additions is a tree 5,000 levels deep; the parser stops
    // at 1,000 levels with an error instead of overflowing the stack later.
    let line = format!("sum: #@ 1{}", "+1".repeat(5000));
    assert_error(
        &[("config.yml", &format!("a: 1\n{line}\n"))],
        "nesting too deep: more than 1000 levels of brackets, operators or blocks",
        "config.yml:2",
        "sum: #@ 1+1+1",
    );
}

/// Runs `strake template -f NAME` on a file NAME holding `text`, in a fresh directory.
fn template_cli(name: &str, text: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    Command::cargo_bin("strake")
        .unwrap()
        .current_dir(dir.path())
        .args(["template", "-f", name])
        .output()
        .unwrap()
}

#[test]
fn cli_reports_blocks_past_the_nesting_limit() {
    // 100,000 nested `if` blocks: the 1,000th level (its statement, on line 1,001) is the
    // last one allowed.
    let depth = 100_000;
    let template = format!(
        "{}#@ x = 1\n{}a: #@ x\n",
        "#@ if True:\n".repeat(depth),
        "#@ end\n".repeat(depth)
    );
    let out = template_cli("deep.yml", &template);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("nesting too deep"), "{stderr}");
    assert!(stderr.contains("deep.yml:1001 | #@ if True:"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn cli_prints_error_and_fails() {
    let out = template_cli("config.yml", "a: #@ nope\n");
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("undefined: nope"), "{stderr}");
    assert!(stderr.contains("config.yml:1 | a: #@ nope"), "{stderr}");
}

#[test]
fn cli_renders_stdin_and_writes_output_files() {
    let out = Command::cargo_bin("strake")
        .unwrap()
        .args(["template", "-f", "-", "--data-value", "n=x"])
        .write_stdin("#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.n\nlist: [1, 2]\n")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "name: x\nlist:\n- 1\n- 2\n"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.yml"), "k: #@ 1 + 1\n").unwrap();
    std::fs::write(dir.path().join("note.txt"), "v=(@= str(3) @)\n").unwrap();
    let outdir = dir.path().join("out");
    let st = Command::cargo_bin("strake")
        .unwrap()
        .current_dir(dir.path())
        .args([
            "template",
            "-f",
            "a.yml",
            "-f",
            "note.txt",
            "--output-files",
        ])
        .arg(&outdir)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(outdir.join("a.yml")).unwrap(),
        "k: 2\n"
    );
    assert_eq!(
        std::fs::read_to_string(outdir.join("note.txt")).unwrap(),
        "v=3\n"
    );
    assert!(!Path::new(&outdir.join("stdin.yml")).exists());
}

#[test]
fn failed_fragment_function_caught_by_try_to_leaves_no_stale_context() {
    let out = render(&[(
        "c.yml",
        "#@ load(\"@ytt:assert\", \"assert\")\n#@ def bad():\na: #@ fail(\"x\")\n#@ end\n#@ def good():\nb: 1\n#@ end\n#@ r = assert.try_to(bad)\nk: #@ r[1]\ng: #@ good()\n",
    )])
    .unwrap();
    assert_eq!(out, "k: 'fail: x'\ng:\n  b: 1\n");
}

#[test]
fn library_alias_refs_and_library_flags() {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let p = dir.path().join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    };
    w(
        "_ytt_lib/app/out.yml",
        "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.name\nport: #@ data.values.port\n",
    );
    w(
        "_ytt_lib/app/values.yml",
        "#@data/values\n---\nname: lib\nport: 1\n",
    );
    w(
        "config.yml",
        "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\", alias=\"first\").eval())\n",
    );
    w(
        "refs.yml",
        "#@library/ref \"@~first\"\n#@data/values\n---\nname: from-ref\n",
    );
    // `@~alias` selects by alias (`@name` would select by library name).
    let opts = parse_options(&["-f", ".", "--data-value-yaml", "@~first:port=8080"]).unwrap();
    let out = run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "name: from-ref\nport: 8080\n"
    );
}
