//! Constructs met while rendering further public ytt directories (CI pipelines, GitOps
//! repositories, Starlark helper libraries, text templates), each reduced to a small
//! case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// The error text of rendering `files` with `-f .`.
fn error_of(files: &[(&str, &str)]) -> String {
    ytt::render(files, &["-f", "."]).unwrap_err()
}

/// A load path is walked one directory at a time from the loading file's directory, as
/// ytt's `Library.FindFile` walks it: a directory that is not there is named by the
/// pieces before it, and the file is not looked for at all.
#[test]
fn a_load_through_a_missing_directory_names_the_pieces_found_before_it() {
    let files = [
        ("t.yml", "#@ load(\"a/b/c/h.star\", \"f\")\nx: 1\n"),
        ("a/b/other.star", "x = 1\n"),
    ];
    let err = error_of(&files);
    assert!(
        err.contains(
            "cannot load a/b/c/h.star: Expected to find file 'a/b/c/h.star', but did not: Did not find 'a/b'"
        ),
        "{err}"
    );
    let files = [("t.yml", "#@ load(\"nope/h.star\", \"f\")\nx: 1\n")];
    let err = error_of(&files);
    assert!(
        err.contains(
            "cannot load nope/h.star: Expected to find file 'nope/h.star', but did not: Did not find ''"
        ),
        "{err}"
    );
}

/// `..` names no directory of the library, so ytt cannot load from a parent directory.
#[test]
fn a_load_from_a_parent_directory_fails_as_a_missing_directory() {
    let files = [
        ("sub/t.yml", "#@ load(\"../h.star\", \"f\")\nx: #@ f()\n"),
        ("h.star", "def f():\n  return 1\nend\n"),
    ];
    let err = error_of(&files);
    assert!(
        err.contains(
            "cannot load ../h.star: Expected to find file '../h.star', but did not: Did not find ''"
        ),
        "{err}"
    );
}

/// A `./` prefix or a doubled slash makes a piece that names no directory either: ytt
/// fails where a file system would find the file.
#[test]
fn a_load_with_a_dot_or_empty_piece_fails() {
    let lib = ("lib/h.star", "def f():\n  return 1\nend\n");
    let err = error_of(&[
        ("t.yml", "#@ load(\"./lib/h.star\", \"f\")\nx: #@ f()\n"),
        lib,
    ]);
    assert!(
        err.contains(
            "cannot load ./lib/h.star: Expected to find file './lib/h.star', but did not: Did not find ''"
        ),
        "{err}"
    );
    let err = error_of(&[
        ("t.yml", "#@ load(\"lib//h.star\", \"f\")\nx: #@ f()\n"),
        lib,
    ]);
    assert!(
        err.contains(
            "cannot load lib//h.star: Expected to find file 'lib//h.star', but did not: Did not find 'lib'"
        ),
        "{err}"
    );
    // The library-relative form still works.
    let out = ytt::render(
        &[
            ("t.yml", "#@ load(\"/lib/h.star\", \"f\")\nx: #@ f()\n"),
            lib,
        ],
        &["-f", "."],
    )
    .unwrap();
    assert_eq!(out, "x: 1\n");
}

/// A path from the library root (`/...`) is looked up without its leading slash, and
/// the messages show it that way.
#[test]
fn a_root_path_load_names_the_path_without_its_slash() {
    let err = error_of(&[("t.yml", "#@ load(\"/nope/x.star\", \"f\")\nx: 1\n")]);
    assert!(
        err.contains(
            "cannot load /nope/x.star: Expected to find file 'nope/x.star', but did not: Did not find ''"
        ),
        "{err}"
    );
    let err = error_of(&[
        ("t.yml", "#@ load(\"/lib/x.star\", \"f\")\nx: 1\n"),
        ("lib/h.star", "x = 1\n"),
    ]);
    assert!(
        err.contains(
            "cannot load /lib/x.star: Expected to find file 'lib/x.star' (hint: only files included via -f flag are available)"
        ),
        "{err}"
    );
}

/// A path through a `_ytt_lib` directory is refused: private libraries are loaded with
/// `@name:path`.
#[test]
fn a_load_through_a_private_library_directory_is_refused() {
    let files = [
        ("t.yml", "#@ load(\"_ytt_lib/lib/h.star\", \"f\")\nx: 1\n"),
        ("_ytt_lib/lib/h.star", "def f():\n  return 1\nend\n"),
    ];
    let err = error_of(&files);
    assert!(
        err.contains(
            "cannot load _ytt_lib/lib/h.star: Expected to find file '_ytt_lib/lib/h.star', but did not: Encountered private library '_ytt_lib'"
        ),
        "{err}"
    );
}

/// `data.read` finds its file as `load` does (ytt's `DataLoader.FileData` calls the same
/// `FindFile`): beside the loading file, or from the root with `/`, never through `..`.
#[test]
fn data_read_walks_directories_as_load_does() {
    let tpl = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.read(\"a.txt\")\nc: #@ data.read(\"/b.txt\")\nd: #@ data.read(\"more/d.txt\")\n";
    let files = [
        ("sub/t.yml", tpl),
        ("sub/a.txt", "beside"),
        ("sub/more/d.txt", "deeper"),
        ("b.txt", "root"),
    ];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(out, "a: beside\nc: root\nd: deeper\n");
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.read(\"../b.txt\")\n";
    let err = error_of(&[("sub/t.yml", tpl), ("b.txt", "root")]);
    assert!(
        err.contains("Expected to find file '../b.txt', but did not: Did not find ''"),
        "{err}"
    );
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.read(\"./b.txt\")\n";
    let err = error_of(&[("t.yml", tpl), ("b.txt", "root")]);
    assert!(
        err.contains("Expected to find file './b.txt', but did not: Did not find ''"),
        "{err}"
    );
}

/// `data.list(path)` walks `path` as ytt's `FindLibrary` does: a trailing slash or a
/// `./` piece names no directory.
#[test]
fn data_list_takes_the_directory_path_as_written() {
    let files = [
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nl: #@ data.list(\"sub\")\n",
        ),
        ("sub/a.txt", "a"),
    ];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(out, "l:\n- a.txt\n");
    let files = [
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nl: #@ data.list(\"sub/\")\n",
        ),
        ("sub/a.txt", "a"),
    ];
    let err = error_of(&files);
    assert!(err.contains("Did not find 'sub'"), "{err}");
    let files = [
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nl: #@ data.list(\"./sub\")\n",
        ),
        ("sub/a.txt", "a"),
    ];
    let err = error_of(&files);
    assert!(err.contains("Did not find ''"), "{err}");
}

/// Loading a file that is not a library file names it by its path from the `-f` root
/// (inside a private library too) with ytt's hint, which lists `.lib.yml` and `.star`.
#[test]
fn loading_a_template_file_is_refused_with_ytts_hint() {
    let err = error_of(&[
        ("t.yml", "#@ load(\"sub/other.yml\", \"f\")\nx: 1\n"),
        ("sub/other.yml", "y: 2\n"),
    ]);
    assert!(
        err.contains(
            "cannot load sub/other.yml: Expected file 'sub/other.yml' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)"
        ),
        "{err}"
    );
    let err = error_of(&[
        ("t.yml", "#@ load(\"@lib:other.yml\", \"f\")\nx: 1\n"),
        ("_ytt_lib/lib/other.yml", "y: 2\n"),
    ]);
    assert!(
        err.contains(
            "cannot load @lib:other.yml: Expected file '_ytt_lib/lib/other.yml' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star';"
        ),
        "{err}"
    );
}

/// The output files of `--output-files`: (relative path, contents), in order.
fn output_files(files: &[(&str, &str)]) -> Vec<(String, String)> {
    let out = ytt::render_output(files, &["-f", ".", "--output-files", "out"]).unwrap();
    out.files
        .into_iter()
        .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
        .collect()
}

/// With `--output-files`, a document an overlay inserts belongs to the file of the
/// document it was inserted beside, and an appended one to the last file (ytt inserts
/// into that file's document set, and appends to the last set).
#[test]
fn documents_added_by_overlays_are_written_with_the_files_they_join() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"a\": 1})\n#@overlay/insert before=True\n---\ninserted: before-a\n#@overlay/match by=overlay.all, expects=\"1+\"\n#@overlay/append\n---\nappended: true\n";
    let files = [("a.yml", "a: 1\n"), ("b.yml", "b: 2\n"), ("z.yml", overlay)];
    assert_eq!(
        output_files(&files),
        vec![
            (
                "a.yml".to_string(),
                "inserted: before-a\n---\na: 1\n".to_string()
            ),
            (
                "b.yml".to_string(),
                "b: 2\n---\nappended: true\n".to_string()
            ),
        ]
    );
}

/// A template whose documents an overlay removes is still an output file, written empty,
/// as ytt writes it; a file that never had a document to output (an overlay file, one
/// whose only document is under a false `if`) is not.
#[test]
fn a_file_emptied_by_an_overlay_is_written_empty() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Namespace\"})\n#@overlay/remove\n---\n";
    let files = [
        ("a.yml", "a: 1\n"),
        ("ns.yml", "kind: Namespace\n"),
        ("off.yml", "#@ if False:\nx: 1\n#@ end\n"),
        ("zz.yml", overlay),
    ];
    assert_eq!(
        output_files(&files),
        vec![
            ("a.yml".to_string(), "a: 1\n".to_string()),
            ("ns.yml".to_string(), String::new()),
        ]
    );
}

/// Two `-f` directories holding files of the same relative path: each file is its own
/// output file (the later one is written over the earlier), not both files' documents
/// twice.
#[test]
fn files_of_the_same_relative_path_are_separate_output_files() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in [("a/c.yml", "x: 1\n"), ("b/c.yml", "z: 2\n")] {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let opts =
        strake::cli::template::parse_options(&["-f", "a", "-f", "b", "--output-files", "out"])
            .unwrap();
    let out = strake::ytt::run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    let files: Vec<(String, String)> = out
        .files
        .into_iter()
        .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
        .collect();
    assert_eq!(
        files,
        vec![
            ("c.yml".to_string(), "x: 1\n".to_string()),
            ("c.yml".to_string(), "z: 2\n".to_string()),
        ]
    );
}

/// Serves `responses` (status line, body), one per connection, on a local port; gives
/// the base URL.
fn serve(responses: Vec<(&'static str, &'static str)>) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for (status, body) in responses {
            let (mut conn, _) = listener.accept().unwrap();
            let mut buf = [0u8; 4096];
            let _ = conn.read(&mut buf);
            let reply = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
            conn.write_all(reply.as_bytes()).unwrap();
        }
    });
    format!("http://{addr}")
}

/// `ytt -f https://…/release.yml -f overlay.yml` is a common way to patch a published
/// release: the URL's body is a file named by the URL's last path element. ytt reads the
/// body whatever the status, so a 404 page is templated like any file.
#[test]
fn a_url_input_is_fetched_and_named_by_its_last_path_element() {
    let base = serve(vec![
        ("200 OK", "kind: Deployment\nmetadata:\n  name: app\n"),
        ("404 Not Found", "not found\n"),
    ]);
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  namespace: apps\n";
    let url = format!("{base}/releases/v1/release.yml");
    let out = ytt::render_output(
        &[("overlay.yml", overlay)],
        &["-f", &url, "-f", "overlay.yml", "--output-files", "out"],
    )
    .unwrap();
    let files: Vec<(String, String)> = out
        .files
        .into_iter()
        .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
        .collect();
    assert_eq!(
        files,
        vec![(
            "release.yml".to_string(),
            "kind: Deployment\nmetadata:\n  name: app\n  namespace: apps\n".to_string()
        )]
    );
    let url = format!("{base}/missing.yml");
    assert_eq!(ytt::render(&[], &["-f", &url]).unwrap(), "not found\n");
}

/// `--data-values-file` and `--data-value-file` take URLs too (ytt finds their files as
/// it finds `-f` inputs); a values file from a URL is named by its last path element.
#[test]
fn data_values_files_may_be_urls() {
    let base = serve(vec![
        ("200 OK", "replicas: 3\n"),
        ("200 OK", "-----BEGIN CERT-----\n"),
        ("200 OK", "replicas: [\n"),
    ]);
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n---\nr: #@ data.values.replicas\nc: #@ data.values.cert\n";
    let values = "#@data/values\n---\nreplicas: 1\ncert: \"\"\n";
    let out = ytt::render(
        &[("t.yml", tpl), ("values.yml", values)],
        &[
            "-f",
            ".",
            "--data-values-file",
            &format!("{base}/env/prod.yml"),
            "--data-value-file",
            &format!("cert={base}/ca.pem"),
        ],
    )
    .unwrap();
    assert_eq!(out, "r: 3\nc: |\n  -----BEGIN CERT-----\n");
    let err = ytt::render(
        &[("t.yml", tpl), ("values.yml", values)],
        &[
            "-f",
            ".",
            "--data-values-file",
            &format!("{base}/env/bad.yml"),
        ],
    )
    .unwrap_err();
    assert!(err.contains("bad.yml"), "{err}");
}

/// `sops -d values.yml | ytt -f config --data-values-file -`: a `-` data values file (or
/// `--data-value-file key=-`) reads standard input, named `stdin.yml`; after `-f -` has
/// read it, it is refused, as ytt's `files.ReadStdin` reads standard input only once.
#[test]
fn a_dash_data_values_file_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n",
    )
    .unwrap();
    let run = |args: &[&str], input: &str| {
        let opts = strake::cli::template::parse_options(args).unwrap();
        let mut given = Some(input.as_bytes().to_vec());
        let out = strake::ytt::run(&opts, dir.path(), &mut || {
            Ok(given.take().unwrap_or_default())
        })
        .map_err(|e| e.to_string())?;
        Ok::<String, String>(String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(
        run(&["-f", "t.yml", "--data-values-file", "-"], "a: 1\n").unwrap(),
        "v:\n  a: 1\n"
    );
    assert_eq!(
        run(&["-f", "t.yml", "--data-value-file", "k=-"], "secret\n").unwrap(),
        "v:\n  k: |\n    secret\n"
    );
    let err = run(&["-f", "t.yml", "--data-values-file", "-"], "a: [\n").unwrap_err();
    assert!(err.contains("stdin.yml"), "{err}");
    assert_eq!(
        run(&["-f", "-", "--data-values-file", "-"], "b: 2\n").unwrap_err(),
        "Extracting data value from file: Reading file 'stdin.yml': Standard input has been already read once (has the '-' argument been used in more than one flags?)"
    );
}
