//! Rendering a ytt case end to end in a fresh temporary directory: the files of the case
//! are written (subdirectories made as needed), the arguments parsed as `strake template`
//! parses them, and the templates run with empty standard input. Also the `strake`
//! binary run as a user's shell runs it, and the assertions the template tests share.

use std::io::Write as _;
use std::path::Path;

use strake::cli::template::parse_options;
use strake::ytt::{Output, run};

/// A fresh directory holding `files` (name, body), subdirectories made as needed.
pub fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    dir
}

/// Renders `files` (name, body) with `args` in a fresh directory, giving the whole output.
pub fn render_output(files: &[(&str, &str)], args: &[&str]) -> Result<Output, String> {
    let dir = dir_with(files);
    let opts = parse_options(args).unwrap();
    run(&opts, dir.path(), &mut || Ok(Vec::new())).map_err(|e| e.to_string())
}

/// Renders `files` (name, body) with `args` in a fresh directory, giving standard output.
pub fn render(files: &[(&str, &str)], args: &[&str]) -> Result<String, String> {
    render_output(files, args).map(|o| String::from_utf8(o.stdout).unwrap())
}

/// Runs the `strake` binary as `strake template ARGS` in a fresh directory holding
/// `files`: gives the exit code, stdout and stderr, as a user's shell sees them.
pub fn run_binary(files: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let dir = dir_with(files);
    run_in(dir.path(), args, "")
}

/// Runs `strake template ARGS` in `dir` with `input` on standard input; gives the exit
/// code, stdout and stderr.
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    run_in_env(dir, args, input, &[])
}

/// [`run_in`] with the variables `env` added to the environment.
pub fn run_in_env(
    dir: &Path,
    args: &[&str],
    input: &str,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("strake"))
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .envs(env.iter().copied())
        .arg("template")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The run may fail before it reads its input.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    outcome(child.wait_with_output().unwrap())
}

/// A finished process as the tests compare it: exit code (-1 when a signal ended
/// it), stdout and stderr.
pub fn outcome(out: std::process::Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The stderr of [`run_binary`] for a run that must fail (exit status 1) with nothing
/// on stdout.
pub fn failure_of(files: &[(&str, &str)], args: &[&str]) -> String {
    let (code, stdout, stderr) = run_binary(files, args);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    stderr
}

/// The text of output file `name` when `files` render with `-f . --output-files out`.
pub fn output_file(files: &[(&str, &str)], name: &str) -> String {
    let out = render_output(files, &["-f", ".", "--output-files", "out"])
        .unwrap_or_else(|e| panic!("render failed: {e}"));
    let (_, body) = out
        .files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no output file {name} in {:?}", out.files));
    String::from_utf8(body.clone()).unwrap()
}

/// [`run_binary`] with `-f .` before `extra`.
pub fn run_dot(files: &[(&str, &str)], extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["-f", "."];
    args.extend_from_slice(extra);
    run_binary(files, &args)
}

/// [`failure_of`] with `-f .` before `extra`.
pub fn failure_dot(files: &[(&str, &str)], extra: &[&str]) -> String {
    let mut args = vec!["-f", "."];
    args.extend_from_slice(extra);
    failure_of(files, &args)
}

/// The stdout of `strake template -f .` (then `extra`) over `files`, which must succeed.
pub fn success_dot(files: &[(&str, &str)], extra: &[&str]) -> String {
    let (code, stdout, stderr) = run_dot(files, extra);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

/// Asserts the whole stderr of `strake template -f .` over a one-line template
/// `x: #@ EXPR` that fails at top level with `message`.
pub fn assert_top_level_failure(expr: &str, message: &str) {
    let line = format!("x: #@ {expr}\n");
    let stderr = failure_of(&[("config.yml", &line)], &["-f", "."]);
    assert_eq!(
        stderr,
        format!(
            "strake: error: \n- {message}\n    in <toplevel>\n      config.yml:1 | x: #@ {expr}\n"
        ),
        "for {expr}"
    );
}
