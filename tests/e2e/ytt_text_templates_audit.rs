//! Text templates checked against ytt 0.48's `pkg/texttemplate` (parser, `NodeCodeMeta`,
//! `Template.compile`), `template.CompiledTemplate.CodeAsString` and `yamltemplate`'s
//! `build` for `#@yaml/text-templated-strings`: what strake prints for them.

use crate::support::ytt;

/// `CompiledTemplate.CodeAsString` trims the leading white space of every code line
/// except one that follows a line ending in `\`: a string continued with `\` keeps the
/// indentation of its next line, in `(@ … @)` and in `(@= … @)` alike, and an expression
/// continued with `\` still evaluates.
#[test]
fn code_lines_after_a_backslash_keep_their_indentation() {
    let body = "(@ x = \"a\\\n   b\" @)[(@= x @)]\n(@ y = 1 + \\\n     2 @)[(@= str(y) @)]\n(@= \"p\\\n   q\" @)\n";
    assert_eq!(
        ytt::output_file(&[("a.txt", body)], "a.txt"),
        "[a   b]\n[3]\np   q\n"
    );
}

/// `Template.compile` trims with `unicode.IsSpace`, so `(@-` and `-@)` take `\r\n` and
/// tabs as well as spaces, and text left untrimmed keeps its CRLF line endings.
#[test]
fn trim_markers_take_crlf_and_tabs_and_other_text_keeps_crlf() {
    let body = "a (@- \"x\" -@)\r\n\t b\r\n(@ if True: -@)\r\n  yes\r\n(@- end @)\r\n";
    assert_eq!(
        ytt::output_file(&[("a.txt", body)], "a.txt"),
        "ab\r\nyes\r\n"
    );
}

/// The parser closes its last text node at the end of the data: an empty `.txt` file
/// gives an empty output file, and a template without a final newline gives none.
#[test]
fn empty_and_unterminated_text_templates_are_output_as_they_end() {
    let out = ytt::render_output(
        &[("e.txt", ""), ("n.txt", "a(@= \"b\" @)")],
        &["-f", ".", "--output-files", "out"],
    )
    .unwrap();
    let body = |name: &str| {
        out.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
    };
    assert_eq!(body("e.txt").as_deref(), Some(""));
    assert_eq!(body("n.txt").as_deref(), Some("ab"));
}

/// `yamltemplate.Template.build` passes the text-templated-strings option down to every
/// child of the annotated node: nested keys, values and array items that are strings
/// are templated, other scalars are left alone (`n` is go-yaml v2's `false`), and the
/// next document, not annotated, keeps its markers as text.
#[test]
fn text_templated_strings_reach_every_string_below_the_annotated_node() {
    let yml = "#@yaml/text-templated-strings\n---\nouter:\n  (@= \"k\" @): \"v(@= str(1) @)\"\n  list:\n  - \"i(@= \\\"2\\\" @)\"\n  - 3\n  n: 4\n---\nb: \"(@= \\\"y\\\" @)\"\n";
    assert_eq!(
        ytt::render(&[("a.yml", yml)], &["-f", "."]).unwrap(),
        "outer:\n  k: v1\n  list:\n  - i2\n  - 3\n  false: 4\n---\nb: (@= \"y\" @)\n"
    );
}

/// A function of a `.lib.txt` returns its text (`EvaluationCtx.WrapRootValue` gives the
/// root's string), trimmed by its markers, wherever YAML calls it: as a value and as an
/// array item.
#[test]
fn a_text_library_function_returns_trimmed_text_to_yaml() {
    let files = [
        ("f.lib.txt", "(@ def f(n): -@)\nn=(@= str(n) @)\n(@- end @)"),
        (
            "b.yml",
            "#@ load(\"f.lib.txt\", \"f\")\nv: #@ f(3)\nw: #@ [f(1)]\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "v: n=3\nw:\n- n=1\n"
    );
}

/// `--file-mark a.yml:type=text-template` makes a `.yml` file a text template: it is
/// rendered as text, so left out of standard output (with ytt's warning), and written
/// with `--output-files`; `type=text-plain` copies a `.txt` file's markers as they are.
#[test]
fn file_marks_turn_files_into_text_templates_or_plain_text() {
    let files = [("a.yml", "a: (@= \"b\" @)\n"), ("b.yml", "x: 1\n")];
    let (code, stdout, stderr) = ytt::run_dot(&files, &["--file-mark", "a.yml:type=text-template"]);
    assert_eq!((code, stdout.as_str()), (0, "x: 1\n"));
    assert!(
        stderr.contains("Non-YAML templates are not rendered"),
        "{stderr}"
    );
    let out = ytt::render_output(
        &files,
        &[
            "-f",
            ".",
            "--file-mark",
            "a.yml:type=text-template",
            "--output-files",
            "out",
        ],
    )
    .unwrap();
    let a = out.files.iter().find(|(n, _)| n == "a.yml").unwrap();
    assert_eq!(String::from_utf8(a.1.clone()).unwrap(), "a: b\n");
    let plain = ytt::render_output(
        &[("p.txt", "a: (@= \"b\" @)\n")],
        &[
            "-f",
            ".",
            "--file-mark",
            "p.txt:type=text-plain",
            "--output-files",
            "out",
        ],
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(plain.files[0].1.clone()).unwrap(),
        "a: (@= \"b\" @)\n"
    );
}
