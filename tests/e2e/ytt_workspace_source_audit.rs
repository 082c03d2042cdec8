//! How ytt 0.48 loads, orders and evaluates the files of a library (its
//! `pkg/workspace`, `pkg/files` and `pkg/cmd/template` code), each pinned by a small
//! case: the order files are visited in, which files are evaluated although no template
//! loads them, which errors come first, and what `load()`, `data.read`/`data.list` and
//! `library.export` accept.

use crate::support::ytt;

/// ytt's `LibraryExecution.eval` visits files in `Library.ListAccessibleFiles` order:
/// a directory's own files before any subdirectory's. `b.yml` fails first although
/// `a/x.yml` sorts before it.
#[test]
fn templates_are_evaluated_directory_by_directory() {
    let stderr = ytt::failure_of(
        &[
            ("a/x.yml", "#@ fail(\"in a\")\na: 1\n"),
            ("b.yml", "#@ fail(\"in b\")\nb: 1\n"),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- fail: in b\n    in <toplevel>\n      b.yml:1 | #@ fail(\"in b\")\n"
    );
}

/// Text templates are output files in the order `LibraryExecution.eval` evaluates them
/// (root files first), before the YAML files, which keep their input order.
#[test]
fn text_output_files_are_written_in_evaluation_order() {
    let (code, stdout, stderr) = ytt::run_binary(
        &[
            ("0.yml", "z: 1\n"),
            ("a/c.txt", "c\n"),
            ("a/d.yml", "d: 1\n"),
            ("b.txt", "b (@= \"x\" @)\n"),
        ],
        &["-f", ".", "--output-files", "out"],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "creating: out/b.txt\ncreating: out/a/c.txt\ncreating: out/0.yml\ncreating: out/a/d.yml\n"
    );
}

/// Every library file is evaluated by `LibraryExecution.eval` (to collect the symbols
/// `library.export` offers), whether a template loads it or not: a `.star` file no one
/// loads still fails the run, its error led by `EvalStarlark`'s words.
#[test]
fn an_unloaded_starlark_file_is_still_evaluated() {
    let stderr = ytt::failure_of(
        &[("a.yml", "a: 1\n"), ("z.star", "fail(\"unused\")\n")],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: Evaluating starlark template: \n- fail: unused\n    in <toplevel>\n      1 | fail(\"unused\")\n"
    );
}

/// An unloaded `.lib.yml` is evaluated too, with the data values in place; so is an
/// unloaded `.lib.txt`, its errors led by `EvalText`'s words.
#[test]
fn unloaded_yaml_and_text_library_files_are_still_evaluated() {
    let stderr = ytt::failure_of(
        &[
            ("a.yml", "a: 1\n"),
            (
                "h.lib.yml",
                "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.values.nope\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- struct has no .nope field or method\n    in <toplevel>\n      h.lib.yml:2 | x: #@ data.values.nope\n"
    );
    let stderr = ytt::failure_of(
        &[("a.yml", "a: 1\n"), ("h.lib.txt", "(@= 1 + \"a\" @)\n")],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: Evaluating text template: \n- unknown binary op: int + string\n    in <toplevel>\n      h.lib.txt:1 | (@= 1 + \"a\" @)\n"
    );
}

/// ytt's schema stage reads every YAML template (in `ListAccessibleFiles` order) before
/// any template is evaluated: a file that does not parse is reported over an evaluation
/// error of a file before it.
#[test]
fn a_template_that_does_not_parse_is_reported_before_any_evaluation_error() {
    let stderr = ytt::failure_of(
        &[("a.yml", "#@ fail(\"a\")\na: 1\n"), ("b.yml", "b: [1\n")],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: Unmarshaling YAML template 'b.yml': yaml: line 1: did not find expected ',' or ']'\n    in b.yml:1\n      b.yml:1 | b: [1\n"
    );
}

/// `library.export` runs the whole `LibraryExecution.Eval` of the library first (as
/// `eval()` does): a failing template of the library fails the export, under
/// `ErrDescWrapper`'s "Exporting from library" lead.
#[test]
fn export_evaluates_the_librarys_templates_too() {
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/lib/t.yml", "#@ fail(\"tpl in lib\")\nt: 1\n"),
            ("_ytt_lib/lib/h.star", "x = 1\n"),
            (
                "main.yml",
                "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"lib\").export(\"x\")\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.export: Exporting from library 'lib': \n    in <toplevel>\n      main.yml:2 | x: #@ library.get(\"lib\").export(\"x\")\n\n    reason:\n     - fail: tpl in lib\n         in <toplevel>\n           _ytt_lib/lib/t.yml:1 | #@ fail(\"tpl in lib\")\n"
    );
}

/// The exports `library.export` searches are listed in evaluation order, each by its
/// path within the library (`FileInLibrary.RelativePath`): the library's own files
/// first, then its subdirectories'.
#[test]
fn export_names_the_files_of_a_symbol_in_evaluation_order() {
    let main = "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"lib\").export(\"x\")\n";
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/lib/z.star", "x = 2\n"),
            ("_ytt_lib/lib/a/h.star", "x = 1\n"),
            ("_ytt_lib/lib/a.lib.yml", "#@ x = 3\n"),
            ("main.yml", main),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.export: Exporting from library 'lib': Expected to find exactly one exported symbol 'x', but found multiple across files: a.lib.yml, z.star, a/h.star\n    in <toplevel>\n      main.yml:2 | x: #@ library.get(\"lib\").export(\"x\")\n"
    );
    let main = "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"lib\").export(\"x\", path=\"a/h.star\")\n";
    assert_eq!(
        ytt::render(
            &[
                ("_ytt_lib/lib/z.star", "x = 2\n"),
                ("_ytt_lib/lib/a/h.star", "x = 1\n"),
                ("main.yml", main),
            ],
            &["-f", "."],
        )
        .unwrap(),
        "x: 1\n"
    );
}

/// `File.IsLibrary` goes by the name alone (`NAME.lib.EXT`, or `.star`): loading a
/// library file of no type ytt evaluates passes that check and fails in
/// `TemplateLoader.Load`'s type switch, also for a `.star` file marked `type=data`.
#[test]
fn loading_a_library_file_of_no_known_type_says_so_in_ytts_words() {
    let stderr = ytt::failure_of(
        &[
            ("a.lib.json", "{}\n"),
            ("t.yml", "#@ load(\"a.lib.json\", \"x\")\na: 1\n"),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- cannot load a.lib.json: File 'a.lib.json' type is not a known\n    in <toplevel>\n      t.yml:1 | #@ load(\"a.lib.json\", \"x\")\n"
    );
    let stderr = ytt::failure_of(
        &[
            ("a.star", "x = 1\n"),
            ("t.yml", "#@ load(\"a.star\", \"x\")\na: #@ x\n"),
        ],
        &["-f", ".", "--file-mark", "a.star:type=data"],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- cannot load a.star: File 'a.star' type is not a known\n    in <toplevel>\n      t.yml:1 | #@ load(\"a.star\", \"x\")\n"
    );
}

/// `File.IsLibrary` splits the base name at dots and wants `lib` second to last with
/// at least three parts: `lib.yml` is an output template, `.lib.yml` a library file;
/// `matchesExt` is case-sensitive, so `x.YML` is data.
#[test]
fn library_names_are_told_apart_as_file_go_splits_them() {
    assert_eq!(
        ytt::render(
            &[
                ("lib.yml", "a: 1\n"),
                (".lib.yml", "b: 2\n"),
                ("x.YML", "c: 3\n"),
                ("w.lib.star.yml", "f: 6\n"),
                ("z.lib.yaml", "e: 5\n"),
            ],
            &["-f", "."],
        )
        .unwrap(),
        "a: 1\n---\nf: 6\n"
    );
}

/// The stderr of a text template `x.txt` that fails with `body`.
fn text_failure(body: &str) -> String {
    ytt::failure_of(&[("x.txt", body)], &["-f", ".", "--output-files", "out"])
}

/// ytt's text template `Parser.parse` counts columns in characters (not bytes), names the
/// column of the `@` or `)` that is out of place, and at the end of the text the place
/// after the last character (the next line's first column after a newline).
#[test]
fn text_template_parse_errors_name_ytts_line_and_column() {
    assert_eq!(
        text_failure("é\nab (@ (@"),
        "strake: error: Parsing text template 'x.txt': Unexpected code opening '(@' at line 2 col 8\n    in x.txt:2\n      x.txt:2 | ab (@ (@\n"
    );
    assert_eq!(
        text_failure("a @) b"),
        "strake: error: Parsing text template 'x.txt': Unexpected code closing '@)' at line 1 col 4\n    in x.txt:1\n      x.txt:1 | a @) b\n"
    );
    assert_eq!(
        text_failure("é (@ x"),
        "strake: error: Parsing text template 'x.txt': Missing code closing '@)' at line 1 col 7\n    in x.txt:1\n      x.txt:1 | é (@ x\n"
    );
    assert_eq!(
        text_failure("a (@ b\n"),
        "strake: error: Parsing text template 'x.txt': Missing code closing '@)' at line 2 col 1\n    in x.txt:2\n      x.txt:2 | \n"
    );
}

/// `NodeCodeMeta`: `-` first trims the text before of Unicode white space (a no-break
/// space too), `-` last the text after; `=-` prints (`=` is taken off before `-`, which
/// then trims nothing); code over several lines runs as it stands.
#[test]
fn text_template_markers_trim_and_print_as_node_code_meta_reads_them() {
    let out = |body: &str| ytt::output_file(&[("x.txt", body)], "x.txt");
    assert_eq!(out("a  \n (@- x = 1 -@)  \n b"), "ab");
    assert_eq!(out("a\u{a0}(@-= \"v\" -@)\u{a0}b"), "avb");
    assert_eq!(out("a (@=- \"v\" @) b"), "a v b");
    assert_eq!(out("a (@ @) b"), "a  b");
    assert_eq!(out("a (@ x = 1\ny = 2 @)(@= str(x+y) @)"), "a 3");
}

/// The first line of the error when `t.yml` calls `library.get(ARGS)` beside a library
/// `lib`.
fn library_get_error(args: &str) -> String {
    let tpl = format!("#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get({args}).eval()\n");
    let stderr = ytt::failure_of(
        &[("_ytt_lib/lib/t.yml", "a: 1\n"), ("t.yml", &tpl)],
        &["-f", "."],
    );
    stderr.lines().nth(1).unwrap_or_default().to_string()
}

/// `LibraryModule.Get` takes exactly one positional string, reads its keywords in order
/// (`alias` a string, the three switches Starlark bools, any other refused), refuses a
/// name starting with `@`, and every refusal is led by `library.get: `
/// (`core.ErrWrapper`).
#[test]
fn library_get_checks_its_arguments_in_ytts_words() {
    let cases = [
        (
            "\"@lib\"",
            "- library.get: Expected library '@lib' to be specified without '@'",
        ),
        ("1", "- library.get: expected a string, but was int"),
        ("\"lib\", 2", "- library.get: expected exactly one argument"),
        (
            "name=\"lib\"",
            "- library.get: expected exactly one argument",
        ),
        ("\"lib\", foo=1", "- library.get: Unexpected kwarg 'foo'"),
        (
            "\"lib\", strict=1",
            "- library.get: expected starlark.Bool, but was starlark.Int",
        ),
        (
            "\"lib\", alias=3",
            "- library.get: expected a string, but was int",
        ),
        (
            "\"\"",
            "- library.get: Expected to find library '', but did not find ''",
        ),
        (
            "\"lib/x\"",
            "- library.get: Expected to find library 'lib/x', but did not find 'lib'",
        ),
    ];
    for (args, first) in cases {
        assert_eq!(library_get_error(args), first, "library.get({args})");
    }
}

/// `library.get` looks for `_ytt_lib` in the directory of the calling file only
/// (`FindAccessibleLibrary` on that file's library), so a template in a subdirectory
/// does not see the root's private libraries.
#[test]
fn library_get_from_a_subdirectory_does_not_see_the_roots_libraries() {
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/lib/t.yml", "a: 1\n"),
            (
                "sub/t.yml",
                "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"lib\").eval()\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.get: Could not find private library (directory '_ytt_lib' missing?)\n    in <toplevel>\n      sub/t.yml:2 | x: #@ library.get(\"lib\").eval()\n"
    );
}

/// The first line of the error when `t.yml` calls `library.get(...).CALL` beside a
/// library `lib`.
fn library_call_error(call: &str) -> String {
    let tpl = format!(
        "#@ load(\"@ytt:library\", \"library\")\nx: #@ library.get(\"lib\", alias=\"al\").{call}\n"
    );
    let stderr = ytt::failure_of(
        &[("_ytt_lib/lib/t.yml", "a: 1\n"), ("t.yml", &tpl)],
        &["-f", "."],
    );
    stderr.lines().nth(1).unwrap_or_default().to_string()
}

/// The library value's functions as `libraryValue.AsStarlarkValue` wraps them: each
/// led by its `library.`-qualified name; `with_data_values` takes one positional and only
/// a bool `plain=`, `with_data_values_schema` one positional (keywords unread),
/// `data_values` no positional and its refusals worded as `export`'s; the library is
/// named `path~alias` (`LibraryRef.AsString`).
#[test]
fn library_value_functions_check_their_arguments_in_ytts_words() {
    let cases = [
        (
            "with_data_values()",
            "- library.with_data_values: expected exactly one argument",
        ),
        (
            "with_data_values({}, 2)",
            "- library.with_data_values: expected exactly one argument",
        ),
        (
            "with_data_values({}, foo=1)",
            "- library.with_data_values: invalid argument name: foo",
        ),
        (
            "with_data_values({}, plain=1)",
            "- library.with_data_values: expected starlark.Bool, but was starlark.Int",
        ),
        (
            "with_data_values_schema()",
            "- library.with_data_values_schema: expected exactly one argument",
        ),
        (
            "data_values(1)",
            "- library.data_values: Exporting from library 'lib~al': expected no arguments",
        ),
        (
            "eval(1)",
            "- library.eval: Evaluating library 'lib~al': expected no arguments",
        ),
        (
            "export(\"_x\")",
            "- library.export: Exporting from library 'lib~al': Symbols starting with '_' are private, and cannot be exported",
        ),
    ];
    for (call, first) in cases {
        assert_eq!(library_call_error(call), first, "{call}");
    }
}

/// Two `-f` directories may each hold a library file of the same path: `load()` finds
/// the first (`Library.FindFile`), but `LibraryExecution.eval` evaluates each, so a
/// failing second one fails the run.
#[test]
fn a_second_library_file_of_the_same_path_is_evaluated_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::write(a.join("h.star"), "x = 1\n").unwrap();
    std::fs::write(a.join("t.yml"), "#@ load(\"h.star\", \"x\")\na: #@ x\n").unwrap();
    std::fs::write(b.join("h.star"), "fail(\"second h.star\")\n").unwrap();
    let (code, stdout, stderr) = ytt::run_in(dir.path(), &["-f", "a", "-f", "b"], "");
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "strake: error: Evaluating starlark template: \n- fail: second h.star\n    in <toplevel>\n      1 | fail(\"second h.star\")\n"
    );
}

/// `data.list()` lists `Library.ListAccessibleFiles` of the calling file's directory:
/// its own files first, then each subdirectory's (not sorted as one list), private
/// libraries left out. The `@ytt:data` module a file loads stays bound to that file's
/// directory, so a function of `sub/h.star` reads and lists `sub/` whoever calls it.
#[test]
fn data_list_follows_the_library_tree_and_data_stays_with_the_loading_file() {
    let files = [
        (
            "sub/h.star",
            "load(\"@ytt:data\", \"data\")\ndef rd():\n  return data.read(\"x.txt\")\nend\ndef ls():\n  return data.list()\nend\n",
        ),
        ("sub/x.txt", "sub-x\n"),
        ("x.txt", "root-x\n"),
        ("a/b/y.json", "{}\n"),
        ("a/z.md", "z\n"),
        ("_ytt_lib/l/q.yml", "q: 1\n"),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"sub/h.star\", \"rd\", \"ls\")\nread: #@ rd()\nsub: #@ ls()\nall: #@ data.list()\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "read: |\n  sub-x\nsub:\n- h.star\n- x.txt\nall:\n- t.yml\n- x.txt\n- a/z.md\n- a/b/y.json\n- sub/h.star\n- sub/x.txt\n"
    );
}

/// A refused symlink names its destination as Go's `filepath.EvalSymlinks` gives it
/// (`Symlink.IsAllowed`): relative when every link on the way is relative (`..` kept
/// where the walk left the working directory), absolute once a link points at an
/// absolute path, even inside the working directory.
#[test]
fn a_refused_symlink_names_its_destination_as_go_resolves_it() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let work = base.join("work");
    std::fs::create_dir_all(work.join("d")).unwrap();
    std::fs::create_dir_all(work.join("shared")).unwrap();
    std::fs::write(work.join("shared/c.yml"), "a: 1\n").unwrap();
    std::os::unix::fs::symlink(work.join("shared/c.yml"), work.join("d/abs.yml")).unwrap();
    std::os::unix::fs::symlink("../../work/shared/c.yml", work.join("d/up.yml")).unwrap();
    let refused = |file: &str| {
        let (code, _, stderr) = ytt::run_in(&work, &["-f", file], "");
        assert_eq!(code, 1, "{stderr}");
        stderr
    };
    assert_eq!(
        refused("d/abs.yml"),
        format!(
            "strake: error: Checking symlink file 'd/abs.yml':\n  Expected symlink file 'd/abs.yml' -> '{}' to be allowed, but was not\n",
            work.join("shared/c.yml").display()
        )
    );
    assert_eq!(
        refused("d/up.yml"),
        "strake: error: Checking symlink file 'd/up.yml':\n  Expected symlink file 'd/up.yml' -> '../work/shared/c.yml' to be allowed, but was not\n"
    );
}

/// ytt reads every YAML template in its schema stage, before it inspects the data
/// values or the schema: a template that does not parse fails
/// `--data-values-inspect` and `--data-values-schema-inspect` too.
#[test]
fn inspections_fail_on_a_template_that_does_not_parse() {
    let files = [
        ("v.yml", "#@data/values\n---\nx: 1\n"),
        ("b.yml", "b: [1\n"),
    ];
    let want = "strake: error: Unmarshaling YAML template 'b.yml': yaml: line 1: did not find expected ',' or ']'\n    in b.yml:1\n      b.yml:1 | b: [1\n";
    for flag in ["--data-values-inspect", "--data-values-schema-inspect"] {
        assert_eq!(ytt::failure_of(&files, &["-f", ".", flag]), want, "{flag}");
    }
}

/// `--strict` is one of the parse options of ytt's schema stage, which reads every YAML
/// template before any is evaluated: a value outside the strict subset is reported over
/// an evaluation error of a file before it.
#[test]
fn a_strict_parse_error_comes_before_any_evaluation_error() {
    let stderr = ytt::failure_of(
        &[("a.yml", "#@ fail(\"a\")\na: 1\n"), ("b.yml", "b: yes\n")],
        &["-f", ".", "--strict"],
    );
    assert_eq!(
        stderr,
        "strake: error: Unmarshaling YAML template 'b.yml': yaml:\n  Strict parsing:\n    Found 'yes' ambigious (could be !!str or !!bool)\n    in b.yml:1\n      b.yml:1 | b: yes\n"
    );
}

/// A private library's `eval()` runs its `LibraryExecution.eval` too: a `.star` file of
/// the library that no template loads still fails the evaluation.
#[test]
fn a_private_librarys_unloaded_starlark_file_fails_its_eval() {
    let stderr = ytt::failure_of(
        &[
            ("_ytt_lib/lib/z.star", "fail(\"unused in lib\")\n"),
            ("_ytt_lib/lib/t.yml", "a: 1\n"),
            (
                "t.yml",
                "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n",
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- library.eval: Evaluating library 'lib': Evaluating starlark template: \n    in <toplevel>\n      t.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n\n    reason:\n     - fail: unused in lib\n         in <toplevel>\n           1 | fail(\"unused in lib\")\n"
    );
}

/// `TemplateLoader.EvalYAML` templates a file that is a template or a library file: a
/// `.lib.yml` marked `type=yaml-plain` is still templated when loaded, its functions
/// there to use.
#[test]
fn a_library_file_marked_yaml_plain_is_still_templated_when_loaded() {
    let files = [
        ("h.lib.yml", "#@ def f():\nx: 1\n#@ end\n"),
        ("t.yml", "#@ load(\"h.lib.yml\", \"f\")\na: #@ f()\n"),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &["-f", ".", "--file-mark", "h.lib.yml:type=yaml-plain"]
        )
        .unwrap(),
        "a:\n  x: 1\n"
    );
}
