//! `strake template`'s command line held against ytt 0.48's `pkg/cmd/template` and
//! `pkg/files`: empty output directory flags, the Go words of output write errors, output
//! paths joined as `filepath.Join` joins them, `-f` paths that are empty or name no
//! regular file, standard input read only once and named `stdin.yml`, and
//! `--data-value-file` given a directory.

use crate::support::ytt;
use crate::support::ytt::{dir_with, run_in};

const SHOW: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n";

/// `RegularFilesSource.Output` writes to a directory only when the flag's value is not
/// empty (`len(s.opts.outputDir) > 0`, then `len(s.opts.OutputFiles) > 0`): an empty
/// `--output-files` or `--dangerous-emptied-output-directory` prints to stdout as if
/// it were not given.
#[test]
fn empty_output_directory_flags_print_to_stdout() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    for flag in ["--output-files", "--dangerous-emptied-output-directory"] {
        let (code, stdout, stderr) = run_in(dir.path(), &["-f", "a.yml", flag, ""], "");
        assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "a: 1\n", ""));
    }
    // The empty one gives way to the other flag.
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-f",
            "a.yml",
            "--dangerous-emptied-output-directory",
            "",
            "--output-files",
            "out",
        ],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "creating: out/a.yml\n"));
}

/// `OutputDirectory.WriteFiles` returns Go's own errors: `os.MkdirAll` of a path that
/// is a file says `mkdir PATH: not a directory`, and `os.OpenFile` of an output path
/// that is a directory says `open PATH: is a directory` (after the files before it
/// were announced and written).
#[test]
fn output_write_errors_are_gos() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, stderr) =
        run_in(dir.path(), &["-f", "a.yml", "--output-files", "a.yml"], "");
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (1, "", "strake: error: mkdir a.yml: not a directory\n")
    );
    std::fs::create_dir_all(dir.path().join("out/b.yml")).unwrap();
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["-f", "a.yml", "-f", "b.yml=a.yml", "--output-files", "out"],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(stdout, "creating: out/a.yml\ncreating: out/b.yml\n");
    assert_eq!(stderr, "strake: error: open out/b.yml: is a directory\n");
    // A file in the way of a directory to make.
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["-f", "a.yml/c.yml=a.yml", "--output-files", "."],
        "",
    );
    assert_eq!(code, 1);
    assert_eq!(stdout, "creating: a.yml/c.yml\n");
    assert_eq!(stderr, "strake: error: mkdir a.yml: not a directory\n");
}

/// `OutputFile.Path` is `filepath.Join(dir, relativePath)`: a relative path given as
/// absolute (`-f /x/y.yml=a.yml`) is written under the directory, at `out/x/y.yml`.
#[test]
fn an_absolute_output_path_stays_under_the_output_directory() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "/nowhere/y.yml=a.yml", "--output-files", "out"],
        "",
    );
    assert_eq!(
        (code, stdout.as_str()),
        (0, "creating: out/nowhere/y.yml\n")
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/nowhere/y.yml")).unwrap(),
        "a: 1\n"
    );
}

/// `OutputDirectory.WriteFiles` checks no paths (only `Write`, for the emptied
/// directory, refuses two files of one path): two `-f` of the same file are both
/// announced and written.
#[test]
fn output_files_of_one_path_are_each_written() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "a.yml", "-f", "a.yml", "--output-files", "out"],
        "",
    );
    assert_eq!(
        (code, stdout.as_str()),
        (0, "creating: out/a.yml\ncreating: out/a.yml\n")
    );
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "-f",
            "a.yml",
            "-f",
            "a.yml",
            "--dangerous-emptied-output-directory",
            "out",
        ],
        "",
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            1,
            "",
            "strake: error: Multiple files have same output destination paths: a.yml\n"
        )
    );
}

/// `NewSortedFilesFromPaths` splits `-f NAME=PATH` at the `=`; `-f x.yml=` leaves an
/// empty path, which `os.Lstat("")` refuses.
#[test]
fn an_empty_input_path_is_refused_as_go_lstat_refuses_it() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, stderr) = run_in(dir.path(), &["-f", "x.yml="], "");
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (
            1,
            "",
            "strake: error: Checking file '': lstat : no such file or directory\n"
        )
    );
}

/// `NewRegularFileLocalSource` takes regular files, symlinks and named pipes only:
/// anything else given to `-f` (a device), or met walking a directory (a socket, named
/// by its walked path as `filepath.Walk` joins it), is refused.
#[test]
fn inputs_that_are_no_regular_files_are_refused() {
    let dir = dir_with(&[("d/a.yml", "a: 1\n")]);
    let (code, _, stderr) = run_in(dir.path(), &["-f", "/dev/null"], "");
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Expected file '/dev/null' to be a regular file, but was not\n"
        )
    );
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("d/sock")).unwrap();
    let (code, _, stderr) = run_in(dir.path(), &["-f", "./d/"], "");
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Listing files './d/':\n  Expected file 'd/sock' to be a regular file, but was not\n"
        )
    );
}

/// `-f NAME=-`: standard input's file is `stdin.yml` (`StdinSource.RelativePath`) and
/// NAME only marks its relative path, so `--file-mark` (which matches the original
/// path) still finds it as `stdin.yml`; the name decides its type.
#[test]
fn named_standard_input_is_still_stdin_yml_to_file_marks() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "-f",
            "x.yml=-",
            "-f",
            "a.yml",
            "--file-mark",
            "stdin.yml:exclude=true",
        ],
        "x: 1\n",
    );
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "a: 1\n", ""));
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "x.txt=-", "--output-files", "out"],
        "(@= \"hi\" @)\n",
    );
    assert_eq!((code, stdout.as_str()), (0, "creating: out/x.txt\n"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/x.txt")).unwrap(),
        "hi\n"
    );
}

/// `files.ReadStdin` reads standard input once; a second `-` (in `-f` or a data values
/// flag, which are read after the `-f` inputs) fails: raw for a template, under
/// `Reading file 'stdin.yml'` for `--data-values-file -`, and as a bare
/// `Reading file '-'` for `--data-value-file KEY=-` (ytt's `kvFile` drops the cause).
#[test]
fn standard_input_is_read_only_once() {
    const TWICE: &str = "Standard input has been already read once (has the '-' argument been used in more than one flags?)";
    let dir = dir_with(&[("t.yml", SHOW)]);
    let (code, _, stderr) = run_in(dir.path(), &["-f", "-", "-f", "x.yml=-"], "x: 1\n");
    assert_eq!((code, stderr), (1, format!("strake: error: {TWICE}\n")));
    let (code, _, stderr) = run_in(
        dir.path(),
        &["-f", "-", "--data-values-file", "-"],
        "x: 1\n",
    );
    assert_eq!(
        (code, stderr),
        (
            1,
            format!(
                "strake: error: Extracting data value from file:\n  Reading file 'stdin.yml':\n    {TWICE}\n"
            )
        )
    );
    let (code, _, stderr) = run_in(
        dir.path(),
        &[
            "-f",
            "t.yml",
            "--data-values-file",
            "-",
            "--data-value-file",
            "k=-",
        ],
        "x: 1\n",
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Extracting data value from file:\n  Reading file '-'\n"
        )
    );
    // One `-` alone reads it.
    let (code, stdout, _) = run_in(
        dir.path(),
        &["-f", "t.yml", "--data-value-file", "k=-"],
        "s",
    );
    assert_eq!((code, stdout.as_str()), (0, "v:\n  k: s\n"));
}

/// `DataValuesFlags.kvFile` lists the files its path names and refuses more than one:
/// a directory holding a single file gives that file's contents.
#[test]
fn a_data_value_file_directory_of_one_file_gives_that_file() {
    let files = [
        ("t.yml", SHOW),
        ("one/x.txt", "hello"),
        ("two/a", "a"),
        ("two/b", "b"),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "t.yml", "--data-value-file", "k=one"]).unwrap(),
        "v:\n  k: hello\n"
    );
    assert_eq!(
        ytt::render(&files, &["-f", "t.yml", "--data-value-file", "k=two"]).unwrap_err(),
        "Extracting data value from file: Expected 'two' to be a file, but is a directory"
    );
}

/// `--data-values-file @lib:-` that no library takes is named by its document's
/// position, in the file ytt reads it as: `stdin.yml`.
#[test]
fn an_unused_library_values_file_from_standard_input_is_named_stdin_yml() {
    let dir = dir_with(&[("t.yml", SHOW)]);
    let (code, _, stderr) = run_in(
        dir.path(),
        &["-f", "t.yml", "--data-values-file", "@lib:-"],
        "k: 1\n",
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Expected all provided library data values documents to be used but found unused:\n  Data Value belonging to library '@lib' on line stdin.yml:1\n"
        )
    );
}

/// `DataValuesFlags.kv` splits the key at every `.` (empty pieces too) and 0.48 knows
/// no `+` suffix: `a..b` sets `a` / `""` / `b`, and `b+` is a key of its own.
#[test]
fn data_value_keys_split_at_every_dot_and_keep_a_plus() {
    let files = [("t.yml", SHOW)];
    assert_eq!(
        ytt::render(&files, &["-f", "t.yml", "-v", "a..b=1", "-v", "c.d+=2"]).unwrap(),
        "v:\n  a:\n    \"\":\n      b: \"1\"\n  c:\n    d+: \"2\"\n"
    );
}

/// ytt's boolean flags are `pflag` ones: the flag alone is true and `--flag=VALUE`
/// takes what Go's `strconv.ParseBool` takes (`false`, `0`, `F`, `true`, `1`, `T`, ...),
/// for the short `-s` too; a value after a space is no value of the flag.
#[test]
fn boolean_flags_take_a_go_boolean_after_an_equals_sign() {
    let files = [("a.yml", "a: 1\n")];
    let out = |args: &[&str]| ytt::render(&files, args).unwrap();
    assert_eq!(out(&["-f", "a.yml", "--files-inspect=true"]), "- a.yml\n");
    assert_eq!(out(&["-f", "a.yml", "--files-inspect=F"]), "a: 1\n");
    assert_eq!(out(&["-f", "a.yml", "--data-values-inspect=1"]), "{}\n");
    assert_eq!(out(&["-f", "a.yml", "--data-values-inspect=0"]), "a: 1\n");
    assert_eq!(
        out(&["-s=false", "-f", "a.yml", "--debug=False", "--strict=TRUE"]),
        "a: 1\n"
    );
    let (code, _, _) = ytt::run_binary(&files, &["-f", "a.yml", "--files-inspect", "false"]);
    assert_eq!(code, 2);
}

/// `pflag` lets a flag be given again, the last value winning (and a list flag such
/// as `-f` or `-v` collecting every one).
#[test]
fn a_repeated_flag_takes_its_last_value() {
    let dir = dir_with(&[("a.yml", "a: 1\n")]);
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-s",
            "-s",
            "-f",
            "a.yml",
            "--output-files",
            "x",
            "--output-files",
            "y",
        ],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "creating: y/a.yml\n"));
    assert_eq!(
        ytt::render(
            &[("a.yml", "a: 1\n")],
            &[
                "-f",
                "a.yml",
                "-v",
                "k=1",
                "-v",
                "k=2",
                "--data-values-inspect"
            ]
        )
        .unwrap(),
        "k: \"2\"\n"
    );
}

/// `BulkFilesSource.Input` hands `--bulk-in` to Go's `json.Unmarshal`, whose syntax
/// check words the error (and fails the run even with `--bulk-out`).
#[test]
fn bulk_input_that_is_no_json_is_refused_in_gos_words() {
    for (json, message) in [
        ("x", "invalid character 'x' looking for beginning of value"),
        ("{\"files\":[]", "unexpected end of JSON input"),
        ("{} {}", "invalid character '{' after top-level value"),
        (
            "{\"files\":[{'name':1}]}",
            "invalid character '\\'' looking for beginning of object key string",
        ),
    ] {
        let (code, stdout, stderr) = ytt::run_binary(&[], &["--bulk-in", json, "--bulk-out"]);
        assert_eq!(
            (code, stdout.as_str(), stderr),
            (1, "", format!("strake: error: {message}\n")),
            "{json}"
        );
    }
}

/// `-f LINK` where LINK is a symlink to a directory: `os.Lstat` sees a symlink, so ytt
/// takes it as one file (walking it only as `LINK/`). Named without an extension it is
/// a data file, never read, and the run succeeds with nothing to print; named `.yml`
/// its reading fails as Go's `os.ReadFile` words it, as does such a link met walking a
/// directory.
#[test]
fn a_symlink_to_a_directory_is_one_file_read_only_when_used() {
    let dir = dir_with(&[("real/a.yml", "a: 1\n")]);
    std::os::unix::fs::symlink("real", dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink("real", dir.path().join("link.yml")).unwrap();
    std::fs::create_dir(dir.path().join("w")).unwrap();
    std::os::unix::fs::symlink("../real", dir.path().join("w/sub.yml")).unwrap();
    let all = "--dangerous-allow-all-symlink-destinations";
    assert_eq!(
        run_in(dir.path(), &["-f", "link", all], ""),
        (0, String::new(), String::new())
    );
    assert_eq!(
        run_in(dir.path(), &["-f", "link/"], ""),
        (0, "a: 1\n".to_string(), String::new())
    );
    assert_eq!(
        run_in(dir.path(), &["-f", "link.yml", all], ""),
        (
            1,
            String::new(),
            "strake: error: read link.yml: is a directory\n".to_string()
        )
    );
    assert_eq!(
        run_in(dir.path(), &["-f", "w", all], ""),
        (
            1,
            String::new(),
            "strake: error: read w/sub.yml: is a directory\n".to_string()
        )
    );
}

/// `DataValuesFlags` shares the symlink flags of `-f` (`NewOptions` gives both one
/// `SymlinkAllowOpts`) and finds its files with `NewSortedFilesFromPaths`: a symlinked
/// `--data-values-file` (or one under its directory) or `--data-value-file` is refused
/// unless a flag allows its destination.
#[test]
fn data_values_flags_check_symlinks_as_input_files_are_checked() {
    let dir = dir_with(&[("t.yml", SHOW), ("real.yml", "k: 1\n")]);
    std::os::unix::fs::symlink("real.yml", dir.path().join("link.yml")).unwrap();
    std::fs::create_dir(dir.path().join("dv")).unwrap();
    std::os::unix::fs::symlink("../real.yml", dir.path().join("dv/l.yml")).unwrap();
    let failure = |args: &[&str]| {
        let mut all = vec!["-f", "t.yml"];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = run_in(dir.path(), &all, "");
        assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
        stderr
    };
    assert_eq!(
        failure(&["--data-values-file", "link.yml"]),
        "strake: error: Extracting data value from file:\n  Find files 'link.yml':\n    Checking symlink file 'link.yml':\n      Expected symlink file 'link.yml' -> 'real.yml' to be allowed, but was not\n"
    );
    assert_eq!(
        failure(&["--data-values-file", "dv"]),
        "strake: error: Extracting data value from file:\n  Find files 'dv':\n    Listing files 'dv':\n      Checking symlink file 'dv/l.yml':\n        Expected symlink file 'dv/l.yml' -> 'real.yml' to be allowed, but was not\n"
    );
    assert_eq!(
        failure(&["--data-value-file", "k=link.yml"]),
        "strake: error: Extracting data value from file:\n  Finding file 'link.yml':\n    Checking symlink file 'link.yml':\n      Expected symlink file 'link.yml' -> 'real.yml' to be allowed, but was not\n"
    );
    let (code, stdout, _) = run_in(
        dir.path(),
        &[
            "-f",
            "t.yml",
            "--data-values-file",
            "dv",
            "--allow-symlink-destination",
            ".",
        ],
        "",
    );
    assert_eq!((code, stdout.as_str()), (0, "v:\n  k: 1\n"));
}

/// The data values flags find their files with `NewSortedFilesFromPaths`, which splits
/// `NAME=PATH` as it does for `-f`: NAME becomes the file's relative path (the name
/// `DataValuesFlags.file` gives it in `Unmarshaling YAML data values file`), and a
/// second `=` is refused.
#[test]
fn data_values_file_paths_are_split_at_the_equals_sign_as_input_paths_are() {
    let files = [
        ("t.yml", SHOW),
        ("real.yml", "k: 1\n"),
        ("bad.yml", "k: [\n"),
    ];
    let args = |extra: &[&'static str]| {
        let mut all = vec!["-f", "t.yml"];
        all.extend_from_slice(extra);
        all
    };
    assert_eq!(
        ytt::render(&files, &args(&["--data-values-file", "x.yml=real.yml"])).unwrap(),
        "v:\n  k: 1\n"
    );
    assert_eq!(
        ytt::render(&files, &args(&["--data-value-file", "k=x=real.yml"])).unwrap(),
        "v:\n  k: |\n    k: 1\n"
    );
    assert_eq!(
        ytt::render(&files, &args(&["--data-values-file", "named.yml=bad.yml"])).unwrap_err(),
        "Extracting data value from file: Unmarshaling YAML data values file 'named.yml': yaml: line 1: did not find expected node content\n    in named.yml:1\n      named.yml:1 | k: ["
    );
    assert_eq!(
        ytt::render(&files, &args(&["--data-values-file", "a=b=real.yml"])).unwrap_err(),
        "Extracting data value from file: Find files 'a=b=real.yml': Expected file 'a=b=real.yml' to only have single '=' sign to for relative path assignment"
    );
    assert_eq!(
        ytt::render(&files, &args(&["--data-value-file", "k=a=b=real.yml"])).unwrap_err(),
        "Extracting data value from file: Finding file 'a=b=real.yml': Expected file 'a=b=real.yml' to only have single '=' sign to for relative path assignment"
    );
}

/// `DataValuesFlags.file` reads each file it found as `Reading file 'REL': ERR`, ERR
/// being Go's `os.ReadFile` error for the path as given or walked (here a symlink to a
/// directory, allowed by the flags).
#[test]
fn a_data_values_file_that_cannot_be_read_is_named_by_its_relative_path() {
    let dir = dir_with(&[("t.yml", SHOW), ("real/a.yml", "k: 1\n")]);
    std::os::unix::fs::symlink("real", dir.path().join("l.yml")).unwrap();
    std::fs::create_dir(dir.path().join("dv")).unwrap();
    std::os::unix::fs::symlink("../real", dir.path().join("dv/x.yml")).unwrap();
    let all = "--dangerous-allow-all-symlink-destinations";
    let (code, _, stderr) = run_in(
        dir.path(),
        &["-f", "t.yml", "--data-values-file", "l.yml", all],
        "",
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Extracting data value from file:\n  Reading file 'l.yml': read l.yml: is a directory\n"
        )
    );
    let (code, _, stderr) = run_in(
        dir.path(),
        &["-f", "t.yml", "--data-values-file", "./dv", all],
        "",
    );
    assert_eq!(
        (code, stderr.as_str()),
        (
            1,
            "strake: error: Extracting data value from file:\n  Reading file 'x.yml': read dv/x.yml: is a directory\n"
        )
    );
}

/// An inspection's document goes through `RegularFilesSource.Output` like any other:
/// printed in the file format `-o` names (`OutputType.Format`), JSON or `pos` too. The
/// documents `--files-inspect` and `--data-values-schema-inspect` build carry no
/// positions, so `pos` prints them without the position column.
#[test]
fn inspections_print_in_the_file_format_output_names() {
    let files = [
        ("a.yml", "a: 1\n"),
        ("s.yml", "#@data/values-schema\n---\nk: \"\"\n"),
    ];
    let out = |args: &[&str]| ytt::render(&files, args).unwrap();
    assert_eq!(
        out(&["-f", "a.yml", "--files-inspect", "-o", "pos"]),
        "[doc]\n  [0] a.yml\n"
    );
    assert_eq!(
        out(&[
            "-f",
            "s.yml",
            "--data-values-schema-inspect",
            "-o",
            "openapi-v3,json"
        ]),
        "{\"components\":{\"schemas\":{\"dataValues\":{\"additionalProperties\":false,\"properties\":{\"k\":{\"default\":\"\",\"type\":\"string\"}},\"type\":\"object\"}}},\"info\":{\"title\":\"Schema for data values, generated by ytt\",\"version\":\"0.1.0\"},\"openapi\":\"3.0.0\",\"paths\":{}}"
    );
    assert_eq!(
        out(&[
            "-f",
            "s.yml",
            "--data-values-schema-inspect",
            "-o",
            "pos",
            "-o",
            "openapi-v3"
        ]),
        "[doc]\n  openapi: 3.0.0\n  info:\n    version: 0.1.0\n    title: Schema for data values, generated by ytt\n  paths:\n  components:\n    schemas:\n      dataValues:\n        type: object\n        additionalProperties: false\n        properties:\n          k:\n            type: string\n            default: \"\"\n"
    );
}

/// `DataValuesFlags.env` reads `os.Environ()`, which holds variables of any bytes: one
/// that is no UTF-8 (and has not the prefix) does not stop `--data-values-env`.
#[test]
fn data_values_env_reads_past_a_variable_that_is_no_utf8() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = dir_with(&[("t.yml", SHOW)]);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("strake"))
        .current_dir(dir.path())
        .env(
            std::ffi::OsStr::from_bytes(b"STRAKE_T_BAD"),
            std::ffi::OsStr::from_bytes(b"\xff"),
        )
        .env("STRAKE_T_DV_a", "1")
        .args([
            "template",
            "-f",
            "t.yml",
            "--data-values-env",
            "STRAKE_T_DV",
        ])
        .output()
        .unwrap();
    assert_eq!(
        ytt::outcome(out),
        (0, "v:\n  a: \"1\"\n".to_string(), String::new())
    );
}

/// ytt prints every error through `uierrs.NewMultiLineError`, the data value flags'
/// errors too: split after each `: ` a capital letter follows.
#[test]
fn data_value_flag_errors_are_laid_out_as_every_error_is() {
    let files = [("t.yml", SHOW), ("two/a", "a"), ("two/b", "b")];
    for (args, message) in [
        (
            &["-v", "novalue"][..],
            "Extracting data value from KV:\n  Expected format key=value",
        ),
        (
            &["--data-value-file", "k=two"][..],
            "Extracting data value from file:\n  Expected 'two' to be a file, but is a directory",
        ),
        (
            &["-v", "@:k=1"][..],
            "Extracting data value from KV:\n  Expected library ref to not be empty",
        ),
    ] {
        let mut all = vec!["-f", "t.yml"];
        all.extend_from_slice(args);
        assert_eq!(
            ytt::failure_of(&files, &all),
            format!("strake: error: {message}\n")
        );
    }
}
